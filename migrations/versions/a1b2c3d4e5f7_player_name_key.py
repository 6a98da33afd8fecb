"""players: the name as searched (lower case, no accents), so "chloe" finds Chloé on every database

Revision ID: a1b2c3d4e5f7
Revises: f29b9edfe503
Create Date: 2026-12-02 21:05:00
"""
import sqlalchemy as sa
from alembic import op

from floor.models.people import search_key

revision = 'a1b2c3d4e5f7'
down_revision = 'f29b9edfe503'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_key', sa.String(length=240), nullable=True))
    players = sa.table('players', sa.column('id', sa.Integer), sa.column('name', sa.String),
                       sa.column('name_key', sa.String))
    bind = op.get_bind()
    for pid, name in bind.execute(sa.select(players.c.id, players.c.name)).all():
        bind.execute(players.update().where(players.c.id == pid).values(name_key=search_key(name)))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=240), nullable=False)
        batch_op.create_index(batch_op.f('ix_players_name_key'), ['name_key'], unique=False)


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name_key'))
        batch_op.drop_column('name_key')
