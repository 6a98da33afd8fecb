"""staff language: each person's own choice of English, French or German

Revision ID: b7c1e2a4d9f0
Revises: b7c1d2e3f4a5
Create Date: 2026-11-30 14:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b7c1e2a4d9f0'
down_revision = 'b7c1d2e3f4a5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('staff', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=5), nullable=True))


def downgrade():
    with op.batch_alter_table('staff', schema=None) as batch_op:
        batch_op.drop_column('language')
