"""how far the floor has handled each device's line

Revision ID: d9e0f1a2b3c4
Revises: d1e2f3a4b5c6
Create Date: 2026-12-03 05:20:00

"""
from alembic import op
import sqlalchemy as sa
import floor.models.base


revision = 'd9e0f1a2b3c4'
down_revision = 'd1e2f3a4b5c6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('device_marks',
    sa.Column('device', sa.String(length=60), nullable=False),
    sa.Column('chunk_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('events', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('device', name=op.f('pk_device_marks'))
    )


def downgrade():
    op.drop_table('device_marks')
