"""table money: tray counts, fill and credit slips, buy-ins, drop counts

Revision ID: f29b9edfe503
Revises: b4c5d6e7f8a9
Create Date: 2026-12-02 20:25:11.962922

"""
import sqlalchemy as sa
from alembic import op

import floor.models.base


# revision identifiers, used by Alembic.
revision = 'f29b9edfe503'
down_revision = 'b4c5d6e7f8a9'
branch_labels = None
depends_on = None


def _sqlite(*checks):
    """SQLite stores any value in any column: there a money column only takes integers."""
    return list(checks) if op.get_bind().dialect.name == "sqlite" else []


def upgrade():
    op.create_table('drop_counts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('total', sa.BigInteger(), nullable=False),
    sa.Column('counted_by', sa.Integer(), nullable=False),
    sa.Column('counted_by_name', sa.String(length=120), nullable=False),
    sa.Column('counted_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('verified_by', sa.Integer(), nullable=True),
    sa.Column('verified_by_name', sa.String(length=120), nullable=True),
    sa.Column('verified_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    *_sqlite(sa.CheckConstraint("typeof(total) = 'integer'", name=op.f('ck_drop_counts_total_integer'))),
    sa.CheckConstraint('total >= 0', name=op.f('ck_drop_counts_total_not_negative')),
    sa.ForeignKeyConstraint(['counted_by'], ['staff.id'], name=op.f('fk_drop_counts_counted_by_staff')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_drop_counts_table_id_tables')),
    sa.ForeignKeyConstraint(['verified_by'], ['staff.id'], name=op.f('fk_drop_counts_verified_by_staff')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_drop_counts')),
    sa.UniqueConstraint('table_id', 'gaming_day', name='uq_drop_counts_table_id_gaming_day')
    )
    with op.batch_alter_table('drop_counts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_drop_counts_table_id'), ['table_id'], unique=False)

    op.create_table('tray_counts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('chips', sa.JSON(), nullable=False),
    sa.Column('total', sa.BigInteger(), nullable=False),
    sa.Column('ledger_mark', sa.BigInteger(), nullable=False),
    sa.Column('counted_by', sa.Integer(), nullable=False),
    sa.Column('counted_by_name', sa.String(length=120), nullable=False),
    sa.Column('counted_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('verified_by', sa.Integer(), nullable=True),
    sa.Column('verified_by_name', sa.String(length=120), nullable=True),
    sa.Column('verified_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    *_sqlite(sa.CheckConstraint("typeof(total) = 'integer'", name=op.f('ck_tray_counts_total_integer'))),
    sa.ForeignKeyConstraint(['counted_by'], ['staff.id'], name=op.f('fk_tray_counts_counted_by_staff')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_tray_counts_table_id_tables')),
    sa.ForeignKeyConstraint(['verified_by'], ['staff.id'], name=op.f('fk_tray_counts_verified_by_staff')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tray_counts'))
    )
    with op.batch_alter_table('tray_counts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tray_counts_table_id'), ['table_id'], unique=False)

    op.create_table('buy_ins',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('method', sa.String(length=10), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('recorded_by', sa.Integer(), nullable=False),
    sa.Column('recorded_by_name', sa.String(length=120), nullable=False),
    sa.Column('at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('transfer_id', sa.Integer(), nullable=True),
    *_sqlite(sa.CheckConstraint("typeof(amount) = 'integer'", name=op.f('ck_buy_ins_amount_integer'))),
    sa.CheckConstraint('amount > 0', name=op.f('ck_buy_ins_amount_positive')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_buy_ins_player_id_players')),
    sa.ForeignKeyConstraint(['recorded_by'], ['staff.id'], name=op.f('fk_buy_ins_recorded_by_staff')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_buy_ins_table_id_tables')),
    sa.ForeignKeyConstraint(['transfer_id'], ['transfers.id'], name=op.f('fk_buy_ins_transfer_id_transfers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_buy_ins'))
    )
    with op.batch_alter_table('buy_ins', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_buy_ins_table_id'), ['table_id'], unique=False)

    op.create_table('chip_slips',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('serial', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('gaming_day', sa.Date(), nullable=False),
    sa.Column('chips', sa.JSON(), nullable=False),
    sa.Column('total', sa.BigInteger(), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('requested_by_name', sa.String(length=120), nullable=False),
    sa.Column('requested_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('issued_by', sa.Integer(), nullable=True),
    sa.Column('issued_by_name', sa.String(length=120), nullable=True),
    sa.Column('issued_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('received_by', sa.Integer(), nullable=True),
    sa.Column('received_by_name', sa.String(length=120), nullable=True),
    sa.Column('received_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('approved_by', sa.Integer(), nullable=True),
    sa.Column('approved_by_name', sa.String(length=120), nullable=True),
    sa.Column('cancelled_by', sa.Integer(), nullable=True),
    sa.Column('cancelled_by_name', sa.String(length=120), nullable=True),
    sa.Column('cancelled_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('cancel_reason', sa.String(length=200), nullable=True),
    sa.Column('transfer_id', sa.Integer(), nullable=True),
    *_sqlite(sa.CheckConstraint("typeof(total) = 'integer'", name=op.f('ck_chip_slips_total_integer'))),
    sa.CheckConstraint('total > 0', name=op.f('ck_chip_slips_total_positive')),
    sa.ForeignKeyConstraint(['approved_by'], ['staff.id'], name=op.f('fk_chip_slips_approved_by_staff')),
    sa.ForeignKeyConstraint(['cancelled_by'], ['staff.id'], name=op.f('fk_chip_slips_cancelled_by_staff')),
    sa.ForeignKeyConstraint(['issued_by'], ['staff.id'], name=op.f('fk_chip_slips_issued_by_staff')),
    sa.ForeignKeyConstraint(['received_by'], ['staff.id'], name=op.f('fk_chip_slips_received_by_staff')),
    sa.ForeignKeyConstraint(['requested_by'], ['staff.id'], name=op.f('fk_chip_slips_requested_by_staff')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_chip_slips_table_id_tables')),
    sa.ForeignKeyConstraint(['transfer_id'], ['transfers.id'], name=op.f('fk_chip_slips_transfer_id_transfers')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chip_slips')),
    sa.UniqueConstraint('serial', name='uq_chip_slips_serial')
    )
    with op.batch_alter_table('chip_slips', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_chip_slips_table_id'), ['table_id'], unique=False)



def downgrade():
    with op.batch_alter_table('chip_slips', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_chip_slips_table_id'))

    op.drop_table('chip_slips')
    with op.batch_alter_table('buy_ins', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_buy_ins_table_id'))

    op.drop_table('buy_ins')
    with op.batch_alter_table('tray_counts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tray_counts_table_id'))

    op.drop_table('tray_counts')
    with op.batch_alter_table('drop_counts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_drop_counts_table_id'))

    op.drop_table('drop_counts')
