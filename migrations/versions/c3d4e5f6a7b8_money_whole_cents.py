"""money columns hold whole cents only (SQLite: a CHECK on the value's type)

Revision ID: c3d4e5f6a7b8
Revises: b7c1e2a4d9f0
Create Date: 2026-11-30 16:30:00

SQLite keeps whatever value it is given; a sum past 2^63 became a float in a balance column and the
books could no longer be checked. PostgreSQL's BIGINT already refuses anything but an integer.
"""
from alembic import op

revision = 'c3d4e5f6a7b8'
down_revision = 'b7c1e2a4d9f0'
branch_labels = None
depends_on = None

COLUMNS = {
    "accounts": ("balance",),
    "transfers": ("amount",),
    "bets": ("amount", "requested"),
    "settlements": ("staked", "returned", "commission"),
}


def upgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table, columns in COLUMNS.items():
        with op.batch_alter_table(table, recreate="always") as batch_op:
            for column in columns:
                batch_op.create_check_constraint(f"{column}_integer", f"typeof({column}) = 'integer'")


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        return
    for table, columns in COLUMNS.items():
        with op.batch_alter_table(table, recreate="always") as batch_op:
            for column in columns:
                batch_op.drop_constraint(f"{column}_integer", type_="check")
