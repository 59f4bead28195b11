"""Games keep a history revision

``history_revision`` changes when an existing history item is corrected or
undone, so that a phone reading the history incrementally knows when to read
it all again. Every stored game starts at 0: a phone that has never read it
holds no revision, and reads the whole history anyway.

Revision ID: f9596e25cf45
Revises: afaa7cdfff5a
Create Date: 2026-12-03 06:44:03.127008

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f9596e25cf45"
down_revision = "afaa7cdfff5a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("history_revision", sa.Integer(), server_default="0", nullable=False)
        )


def downgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("history_revision")
