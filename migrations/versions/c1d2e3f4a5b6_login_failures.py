"""failed logins counted per name typed and client, instead of locking the account for everyone

Revision ID: c1d2e3f4a5b6
Revises: a1b2c3d4e5f7
Create Date: 2026-12-02 20:50:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'c1d2e3f4a5b6'
down_revision = 'a1b2c3d4e5f7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=60), nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_failures'))
    )
    op.create_index('ix_login_failures_who', 'login_failures', ['username', 'client', 'at'], unique=False)


def downgrade():
    op.drop_index('ix_login_failures_who', table_name='login_failures')
    op.drop_table('login_failures')
