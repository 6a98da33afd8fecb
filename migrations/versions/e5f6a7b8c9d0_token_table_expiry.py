"""api tokens: the table a dealer's token acts at, and an expiry

Revision ID: e5f6a7b8c9d0
Revises: d4e5f6a7b8c9
Create Date: 2026-11-30 16:50:00

A dealer's token created before this names no table: it is refused until a new one is made with
``flask floor token create <dealer> --table N``.
"""
import sqlalchemy as sa
from alembic import op

import floor.models.base

revision = 'e5f6a7b8c9d0'
down_revision = 'd4e5f6a7b8c9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('expires_at', floor.models.base.UTCDateTime(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_api_tokens_table_id_tables'), 'tables', ['table_id'], ['id'])


def downgrade():
    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_api_tokens_table_id_tables'), type_='foreignkey')
        batch_op.drop_column('expires_at')
        batch_op.drop_column('table_id')
