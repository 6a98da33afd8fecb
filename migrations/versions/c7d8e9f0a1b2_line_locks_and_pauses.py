"""betting closed by the line's own time: line locks and pauses

Revision ID: c7d8e9f0a1b2
Revises: d2e3f4a5b6c7
Create Date: 2026-12-02 21:00:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'c7d8e9f0a1b2'
down_revision = 'd2e3f4a5b6c7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('line_locks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('device', sa.String(length=60), nullable=False),
    sa.Column('arrived_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('what', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_line_locks_table_id_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_line_locks'))
    )
    op.create_index('ix_line_locks_table_at', 'line_locks', ['table_id', 'arrived_at'], unique=False)
    op.create_table('line_pauses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('device', sa.String(length=60), nullable=False),
    sa.Column('started_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('behind_ms', sa.Integer(), nullable=False),
    sa.Column('ended_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_line_pauses_table_id_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_line_pauses'))
    )
    op.create_index('ix_line_pauses_table_open', 'line_pauses', ['table_id', 'ended_at'], unique=False)


def downgrade():
    op.drop_index('ix_line_pauses_table_open', table_name='line_pauses')
    op.drop_table('line_pauses')
    op.drop_index('ix_line_locks_table_at', table_name='line_locks')
    op.drop_table('line_locks')
