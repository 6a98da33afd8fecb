"""a table's one occupant: the tournament holding it, beside its kind and status

Revision ID: d2e3f4a5b6c7
Revises: c1d2e3f4a5b6
Create Date: 2026-12-02 21:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd2e3f4a5b6c7'
down_revision = 'c1d2e3f4a5b6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tournament_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_tables_tournament_id_tournaments'), 'tournaments',
                                    ['tournament_id'], ['id'], use_alter=True)


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tables_tournament_id_tournaments'), type_='foreignkey')
        batch_op.drop_column('tournament_id')
