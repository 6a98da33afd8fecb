"""stored sentences keep their template and values beside their English: held, refused, void, ban, ticket reasons, frame summaries

Rows from before keep only their English text (the web layer finds it again in the catalog).

Revision ID: b7c8d9e0f1a2
Revises: a1f2c3d4e5b6
Create Date: 2026-12-04 09:00:00

"""
import sqlalchemy as sa
from alembic import op


revision = 'b7c8d9e0f1a2'
down_revision = 'a1f2c3d4e5b6'
branch_labels = None
depends_on = None

COLUMNS = [("rounds", "held_msg"), ("round_cards", "reason_msg"), ("settlements", "reason_msg"),
           ("device_frames", "summary_msg"), ("bans", "reason_msg"), ("missed_blind_tickets", "reason_msg")]


def upgrade():
    for table, column in COLUMNS:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column(column, sa.JSON(), nullable=True))


def downgrade():
    for table, column in reversed(COLUMNS):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column(column)
