"""player passes: a listed player's link to his own entries; "on my way" on a call

Revision ID: d1e2f3a4b5c6
Revises: c8d9e0f1a2b3
Create Date: 2026-12-03 05:20:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'd1e2f3a4b5c6'
down_revision = 'c8d9e0f1a2b3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player_passes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('issued_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('issued_by', sa.Integer(), nullable=True),
    sa.Column('issued_by_name', sa.String(length=120), nullable=False),
    sa.Column('expires_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('ended_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('ended_reason', sa.String(length=20), nullable=True),
    sa.ForeignKeyConstraint(['issued_by'], ['staff.id'], name=op.f('fk_player_passes_issued_by_staff')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_passes_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_passes')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_player_passes_token_hash'))
    )
    with op.batch_alter_table('player_passes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_passes_player_id'), ['player_id'], unique=False)
    with op.batch_alter_table('list_calls', schema=None) as batch_op:
        batch_op.add_column(sa.Column('on_my_way_at', floor.models.base.UTCDateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('list_calls', schema=None) as batch_op:
        batch_op.drop_column('on_my_way_at')
    with op.batch_alter_table('player_passes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_passes_player_id'))
    op.drop_table('player_passes')
