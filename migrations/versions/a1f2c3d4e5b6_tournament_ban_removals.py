"""a player banned mid-tournament leaves it: the ban on his elimination row, and his chips taken out of play

Revision ID: a1f2c3d4e5b6
Revises: e8f1a2b3c4d7
Create Date: 2026-12-04 09:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a1f2c3d4e5b6'
down_revision = 'e8f1a2b3c4d7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament_eliminations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ban_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('chips_removed', sa.BigInteger(), server_default='0', nullable=False))
        batch_op.create_foreign_key(batch_op.f('fk_tournament_eliminations_ban_id_bans'), 'bans', ['ban_id'], ['id'])


def downgrade():
    with op.batch_alter_table('tournament_eliminations', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tournament_eliminations_ban_id_bans'), type_='foreignkey')
        batch_op.drop_column('chips_removed')
        batch_op.drop_column('ban_id')
