"""a table's events by kind: its entry mode (devices or by hand) is read at every device event

Revision ID: e8f1a2b3c4d7
Revises: d9e0f1a2b3c4
Create Date: 2026-12-03 05:20:00

"""
from alembic import op


revision = 'e8f1a2b3c4d7'
down_revision = 'd9e0f1a2b3c4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('round_events', schema=None) as batch_op:
        batch_op.create_index('ix_round_events_table_kind', ['table_id', 'kind', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('round_events', schema=None) as batch_op:
        batch_op.drop_index('ix_round_events_table_kind')
