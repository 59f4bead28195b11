"""Drop players' game_id index: the unique (game_id, seat) index serves every lookup by game

Reading a game's players, and deleting them with their game, use the unique
index on (game_id, seat), whose first column is game_id; the index on game_id
alone was only written to, once per player of every game created.

Revision ID: d9b21a27ba0d
Revises: 4b3aad940003
Create Date: 2026-11-30 14:31:52.743821

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "d9b21a27ba0d"
down_revision = "4b3aad940003"
branch_labels = None
depends_on = None


def upgrade():
    op.drop_index("ix_players_game_id", table_name="players")


def downgrade():
    op.create_index("ix_players_game_id", "players", ["game_id"], unique=False)
