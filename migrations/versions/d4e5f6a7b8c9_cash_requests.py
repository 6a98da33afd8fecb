"""cash requests: credits and debits above the two-person threshold wait for a second pit boss

Revision ID: d4e5f6a7b8c9
Revises: c3d4e5f6a7b8
Create Date: 2026-11-30 16:40:00

"""
import sqlalchemy as sa
from alembic import op

import floor.models.base

revision = 'd4e5f6a7b8c9'
down_revision = 'c3d4e5f6a7b8'
branch_labels = None
depends_on = None


def upgrade():
    checks = []
    if op.get_bind().dialect.name == "sqlite":
        checks = [sa.CheckConstraint("typeof(amount) = 'integer'", name=op.f('ck_cash_requests_amount_integer'))]
    op.create_table(
        'cash_requests',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=False),
        sa.Column('memo', sa.String(length=200), nullable=True),
        sa.Column('requested_by', sa.Integer(), nullable=True),
        sa.Column('requested_by_name', sa.String(length=120), nullable=False),
        sa.Column('requested_at', floor.models.base.UTCDateTime(), nullable=False),
        sa.Column('decision', sa.String(length=10), nullable=True),
        sa.Column('decided_by', sa.Integer(), nullable=True),
        sa.Column('decided_by_name', sa.String(length=120), nullable=True),
        sa.Column('decided_at', floor.models.base.UTCDateTime(), nullable=True),
        sa.Column('reason', sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_cash_requests_player_id_players')),
        sa.ForeignKeyConstraint(['requested_by'], ['staff.id'], name=op.f('fk_cash_requests_requested_by_staff')),
        sa.ForeignKeyConstraint(['decided_by'], ['staff.id'], name=op.f('fk_cash_requests_decided_by_staff')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_cash_requests')),
        *checks,
    )
    with op.batch_alter_table('cash_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cash_requests_player_id'), ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('cash_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cash_requests_player_id'))
    op.drop_table('cash_requests')
