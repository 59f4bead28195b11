"""One table of request keys: the keys of rounds, seat changes and creations kept together

The first answers to requests sent with an ``Idempotency-Key`` were kept in two
tables: ``idempotency_keys`` (a game's rounds and seat changes, by game) and
``creation_keys`` (creations, by scope). Both move to ``request_keys``, keyed
by scope: a game's history keys take the scope ``games/<id>/history`` and keep
their game (deleted with it). The columns no code read go: ``status`` (always
201) and ``location`` (never written). Every key keeps its request's
fingerprint and its answer as it was, so a resend is answered byte for byte.

The downgrade moves the keys back to the two tables.

Revision ID: 7c41e0b9d2f3
Revises: 5b7d2e9c4a10
Create Date: 2026-12-04 18:20:00.000000

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7c41e0b9d2f3"
down_revision = "5b7d2e9c4a10"
branch_labels = None
depends_on = None

HISTORY_SCOPE = "'games/' || game_id || '/history'"
"""The scope of a game's history keys, as SQL over ``idempotency_keys`` (both engines)."""


def upgrade() -> None:
    op.create_table(
        "request_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scope", "key"),
    )
    op.create_index("ix_request_keys_game_id", "request_keys", ["game_id"])
    op.execute(
        "INSERT INTO request_keys (scope, key, request_hash, body, game_id, created_at) "
        f"SELECT {HISTORY_SCOPE}, key, request_hash, body, game_id, created_at "
        "FROM idempotency_keys ORDER BY id"
    )
    op.execute(
        "INSERT INTO request_keys (scope, key, request_hash, body, created_at) "
        "SELECT scope, key, request_hash, body, created_at FROM creation_keys ORDER BY id"
    )
    op.drop_table("idempotency_keys")
    op.drop_table("creation_keys")


def downgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("location", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "key"),
    )
    op.create_table(
        "creation_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scope", "key"),
    )
    op.execute(
        "INSERT INTO idempotency_keys (game_id, key, request_hash, status, body, created_at) "
        "SELECT game_id, key, request_hash, 201, body, created_at FROM request_keys "
        "WHERE game_id IS NOT NULL ORDER BY id"
    )
    op.execute(
        "INSERT INTO creation_keys (scope, key, request_hash, body, created_at) "
        "SELECT scope, key, request_hash, body, created_at FROM request_keys "
        "WHERE game_id IS NULL ORDER BY id"
    )
    op.drop_index("ix_request_keys_game_id", table_name="request_keys")
    op.drop_table("request_keys")
