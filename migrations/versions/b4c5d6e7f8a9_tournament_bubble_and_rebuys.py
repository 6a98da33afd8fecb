"""tournament hand for hand, registration closed at the money, rebuys and add-ons

Revision ID: b4c5d6e7f8a9
Revises: fa9477cf145e
Create Date: 2026-11-30 20:50:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'b4c5d6e7f8a9'
down_revision = 'fa9477cf145e'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('registration_closed_at', floor.models.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('guarantee_void', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('hfh_hand', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('hfh_left', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('hfh_done', sa.JSON(), nullable=False, server_default='[]'))
    op.create_table('tournament_purchases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('price', sa.BigInteger(), nullable=False),
    sa.Column('fee', sa.BigInteger(), nullable=False),
    sa.Column('chips', sa.BigInteger(), nullable=False),
    sa.Column('paid_with', sa.String(length=10), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('by_name', sa.String(length=120), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['tournament_entries.id'], name=op.f('fk_tournament_purchases_entry_id_tournament_entries')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_tournament_purchases_tournament_id_tournaments')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_purchases'))
    )
    with op.batch_alter_table('tournament_purchases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_purchases_entry_id'), ['entry_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournament_purchases_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('tournament_purchases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_purchases_tournament_id'))
        batch_op.drop_index(batch_op.f('ix_tournament_purchases_entry_id'))
    op.drop_table('tournament_purchases')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('hfh_done')
        batch_op.drop_column('hfh_left')
        batch_op.drop_column('hfh_hand')
        batch_op.drop_column('guarantee_void')
        batch_op.drop_column('registration_closed_at')
