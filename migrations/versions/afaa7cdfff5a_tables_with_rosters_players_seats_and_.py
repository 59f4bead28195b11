"""Tables with rosters; players' current seats and figures; creation keys

A table groups games played by the same friends. Each player row now keeps
its figures in its game (rounds played, calls, ...) beside the game's state,
so a table's standings are one sum. A join renumbers the seats after it, so
(game_id, seat) is no longer unique; it stays indexed for reading a game's
players. Players of games already finished are marked as their winners.

Revision ID: afaa7cdfff5a
Revises: d9b21a27ba0d
Create Date: 2026-12-01 16:37:23.769267

"""

import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "afaa7cdfff5a"
down_revision = "d9b21a27ba0d"
branch_labels = None
depends_on = None

FIGURES = (
    "rounds_played",
    "calls",
    "calls_won",
    "halvings",
    "hand_total",
    "tricks_taken",
    "points_taken",
)
# What the unique (game_id, seat) constraint is called: PostgreSQL names it, SQLite does not.
SEAT_CONSTRAINT = {"postgresql": "players_game_id_seat_key"}
UNNAMED_UNIQUE = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


def upgrade():
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
    op.create_table(
        "tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "roster_players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_roster_players_table_id", "roster_players", ["table_id"])

    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("table_id", sa.String(length=32), nullable=True))
        batch_op.create_index("ix_games_table_id", ["table_id"])
        batch_op.create_foreign_key(
            "fk_games_table_id_tables", "tables", ["table_id"], ["id"], ondelete="CASCADE"
        )

    dialect = op.get_bind().dialect.name
    seat_constraint = SEAT_CONSTRAINT.get(dialect, "uq_players_game_id")
    with op.batch_alter_table("players", naming_convention=UNNAMED_UNIQUE) as batch_op:
        batch_op.drop_constraint(seat_constraint, type_="unique")
        batch_op.add_column(sa.Column("roster_id", sa.Integer(), nullable=True))
        for flag in ("joined", "won", "eliminated"):
            batch_op.add_column(
                sa.Column(flag, sa.Boolean(), nullable=False, server_default=sa.false())
            )
        for figure in FIGURES:
            batch_op.add_column(sa.Column(figure, sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_index("ix_players_game_id_seat", ["game_id", "seat"])
        batch_op.create_index("ix_players_roster_id", ["roster_id"])
        batch_op.create_foreign_key(
            "fk_players_roster_id_roster_players",
            "roster_players",
            ["roster_id"],
            ["id"],
            ondelete="SET NULL",
        )
    _mark_winners_and_eliminations()


def _mark_winners_and_eliminations():
    """Set ``won`` and ``eliminated`` from each game's stored state (the seats it names)."""
    connection = op.get_bind()
    games = sa.table("games", sa.column("id"), sa.column("state"))
    players = sa.table(
        "players",
        sa.column("game_id"),
        sa.column("seat"),
        sa.column("won", sa.Boolean),
        sa.column("eliminated", sa.Boolean),
    )
    for game_id, state in connection.execute(sa.select(games.c.id, games.c.state)):
        if isinstance(state, str):  # SQLite hands JSON back as text here
            state = json.loads(state)
        for seat, out in enumerate(state["eliminated_in_round"]):
            won = state["dealer"] is None and seat in state["winners"]
            if won or out is not None:
                connection.execute(
                    players.update()
                    .where(players.c.game_id == game_id, players.c.seat == seat)
                    .values(won=won, eliminated=out is not None)
                )


def downgrade():
    dialect = op.get_bind().dialect.name
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_constraint("fk_players_roster_id_roster_players", type_="foreignkey")
        batch_op.drop_index("ix_players_roster_id")
        batch_op.drop_index("ix_players_game_id_seat")
        for column in ("roster_id", "joined", "won", "eliminated", *FIGURES):
            batch_op.drop_column(column)
        batch_op.create_unique_constraint(
            SEAT_CONSTRAINT.get(dialect, "uq_players_game_id"), ["game_id", "seat"]
        )

    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_constraint("fk_games_table_id_tables", type_="foreignkey")
        batch_op.drop_index("ix_games_table_id")
        batch_op.drop_column("table_id")

    op.drop_index("ix_roster_players_table_id", table_name="roster_players")
    op.drop_table("roster_players")
    op.drop_table("tables")
    op.drop_table("creation_keys")
