"""Players keep their ruleset's tallies in one JSON column; a game's first starter may be none

Each ruleset counted its figures for a table's standings in columns of its
own on every player row (calls, halvings, tricks taken...). They move into
one JSON column, ``tallies``, keyed by the names the game's ruleset gives
them, so that a new ruleset needs no new column. Every stored figure is
kept: a Jhyap player's row gets Jhyap's five counts, a Twenty Two player's
row Twenty Two's three. The downgrade puts them back in their columns.

A game's first starter may now be null: in Hearts no seat starts by rule
(the holder of the lowest club leads).

Revision ID: d1855884dcf7
Revises: f9596e25cf45
Create Date: 2026-12-02 10:12:40.118305

"""

import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d1855884dcf7"
down_revision = "f9596e25cf45"
branch_labels = None
depends_on = None

# The tallies each ruleset counted when this revision was written, in their order.
TALLIES = {
    "jhyap": ("rounds_played", "calls", "calls_won", "halvings", "hand_total"),
    "twenty-two": ("rounds_played", "tricks_taken", "points_taken"),
}
COLUMNS = (
    "rounds_played",
    "calls",
    "calls_won",
    "halvings",
    "hand_total",
    "tricks_taken",
    "points_taken",
)

games = sa.table("games", sa.column("id"), sa.column("ruleset"))


def _players(*columns: sa.Column) -> sa.TableClause:
    return sa.table("players", sa.column("id"), sa.column("game_id"), *columns)


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.alter_column("first_starter", existing_type=sa.Integer(), nullable=True)
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("tallies", sa.JSON(), nullable=True))
    players = _players(sa.column("tallies", sa.JSON), *(sa.column(name) for name in COLUMNS))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, games.c.ruleset, *(players.c[name] for name in COLUMNS)).join(
            games, games.c.id == players.c.game_id
        )
    ).all()
    for row in rows:
        names = TALLIES.get(row.ruleset, ())
        tallies = {name: getattr(row, name) for name in names}
        connection.execute(players.update().where(players.c.id == row.id).values(tallies=tallies))
    with op.batch_alter_table("players") as batch_op:
        batch_op.alter_column("tallies", existing_type=sa.JSON(), nullable=False)
        for name in COLUMNS:
            batch_op.drop_column(name)


def downgrade():
    with op.batch_alter_table("players") as batch_op:
        for name in COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
    players = _players(sa.column("tallies", sa.JSON), *(sa.column(name) for name in COLUMNS))
    connection = op.get_bind()
    for player_id, tallies in connection.execute(sa.select(players.c.id, players.c.tallies)):
        if isinstance(tallies, str):  # SQLite may hand JSON back as text here
            tallies = json.loads(tallies)
        figures = {name: value for name, value in (tallies or {}).items() if name in COLUMNS}
        if figures:
            connection.execute(players.update().where(players.c.id == player_id).values(**figures))
    with op.batch_alter_table("players") as batch_op:
        batch_op.drop_column("tallies")
    games_table = sa.table("games", sa.column("first_starter"), sa.column("first_dealer"))
    connection.execute(
        games_table.update()
        .where(games_table.c.first_starter.is_(None))
        .values(first_starter=games_table.c.first_dealer)
    )
    with op.batch_alter_table("games") as batch_op:
        batch_op.alter_column("first_starter", existing_type=sa.Integer(), nullable=False)
