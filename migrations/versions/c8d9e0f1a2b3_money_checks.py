"""the ledger's one check: money moves counted per player and gaming day, approvals of guarantees and deals

Revision ID: c8d9e0f1a2b3
Revises: c7d8e9f0a1b2
Create Date: 2026-12-02 20:40:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'c8d9e0f1a2b3'
down_revision = 'c7d8e9f0a1b2'
branch_labels = None
depends_on = None


def upgrade():
    checks = []
    if op.get_bind().dialect.name == "sqlite":
        checks = [sa.CheckConstraint("typeof(amount) = 'integer'", name=op.f('ck_money_moves_amount_integer'))]
    op.create_table('money_moves',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('purpose', sa.String(length=20), nullable=False),
    sa.Column('counted_as', sa.String(length=20), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('staff_id', sa.Integer(), nullable=True),
    sa.Column('actor_name', sa.String(length=120), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('approved_by', sa.Integer(), nullable=True),
    sa.Column('approved_by_name', sa.String(length=120), nullable=True),
    sa.CheckConstraint('amount > 0', name=op.f('ck_money_moves_amount_positive')),
    sa.ForeignKeyConstraint(['approved_by'], ['staff.id'], name=op.f('fk_money_moves_approved_by_staff')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_money_moves_player_id_players')),
    sa.ForeignKeyConstraint(['staff_id'], ['staff.id'], name=op.f('fk_money_moves_staff_id_staff')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_money_moves')),
    *checks
    )
    with op.batch_alter_table('money_moves', schema=None) as batch_op:
        batch_op.create_index('ix_money_moves_player_day', ['player_id', 'gaming_day', 'counted_as'], unique=False)
        batch_op.create_index('ix_money_moves_staff_day', ['staff_id', 'gaming_day', 'counted_as'], unique=False)
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('created_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('guarantee_approved_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('guarantee_approved_by_name', sa.String(length=120), nullable=True))
        batch_op.add_column(sa.Column('cancel_request', sa.JSON(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_tournaments_created_by_staff'), 'staff', ['created_by'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_tournaments_guarantee_approved_by_staff'), 'staff',
                                    ['guarantee_approved_by'], ['id'])
    with op.batch_alter_table('tournament_deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('offered_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('agreed_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('approved_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('approved_by_name', sa.String(length=120), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_tournament_deals_offered_by_staff'), 'staff', ['offered_by'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_tournament_deals_agreed_by_staff'), 'staff', ['agreed_by'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_tournament_deals_approved_by_staff'), 'staff', ['approved_by'], ['id'])


def downgrade():
    with op.batch_alter_table('tournament_deals', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tournament_deals_approved_by_staff'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_tournament_deals_agreed_by_staff'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_tournament_deals_offered_by_staff'), type_='foreignkey')
        batch_op.drop_column('approved_by_name')
        batch_op.drop_column('approved_by')
        batch_op.drop_column('agreed_by')
        batch_op.drop_column('offered_by')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tournaments_guarantee_approved_by_staff'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_tournaments_created_by_staff'), type_='foreignkey')
        batch_op.drop_column('cancel_request')
        batch_op.drop_column('guarantee_approved_by_name')
        batch_op.drop_column('guarantee_approved_by')
        batch_op.drop_column('created_by')
    with op.batch_alter_table('money_moves', schema=None) as batch_op:
        batch_op.drop_index('ix_money_moves_staff_day')
        batch_op.drop_index('ix_money_moves_player_day')
    op.drop_table('money_moves')
