"""timers as rows (every process sets them, the scheduler process runs them)

Revision ID: b7c1d2e3f4a5
Revises: f9f7aa4d80cc
Create Date: 2026-12-02 09:00:00

The one-off jobs left in APScheduler's old job store (a table APScheduler created itself) become
pending timer rows, then that table goes: the scheduler keeps only its periodic jobs, in memory.
"""
import pickle
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

import floor.models.base

# revision identifiers, used by Alembic.
revision = 'b7c1d2e3f4a5'
down_revision = 'f9f7aa4d80cc'
branch_labels = None
depends_on = None


def _old_jobs(bind) -> list[dict]:
    """The one-off jobs of the old store as timer rows (unreadable ones are skipped)."""
    rows = []
    now = datetime.now(timezone.utc)
    for job_id, state in bind.execute(sa.text("SELECT id, job_state FROM apscheduler_jobs")):
        try:
            job = pickle.loads(state)
            name, *args = job["args"]
            due = job["next_run_time"]
        except Exception:  # a job of another shape (or another version): nothing to carry over
            continue
        if name == "heartbeat" or due is None:
            continue
        rows.append({"key": job_id, "job": name, "args": list(args), "due_at": due.astimezone(timezone.utc),
                     "status": "pending", "set_at": now, "attempts": 0})
    return rows


def upgrade():
    timers = op.create_table('timers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('job', sa.String(length=60), nullable=False),
    sa.Column('args', sa.JSON(), nullable=False),
    sa.Column('due_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('set_at', floor.models.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('fired_at', floor.models.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('last_error', sa.String(length=300), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_timers'))
    )
    with op.batch_alter_table('timers', schema=None) as batch_op:
        batch_op.create_index('ix_timers_status_due_at', ['status', 'due_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_timers_key'), ['key'], unique=False)

    bind = op.get_bind()
    if sa.inspect(bind).has_table('apscheduler_jobs'):
        rows = _old_jobs(bind)
        if rows:
            op.bulk_insert(timers, rows)
        op.drop_table('apscheduler_jobs')


def downgrade():
    with op.batch_alter_table('timers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_timers_key'))
        batch_op.drop_index('ix_timers_status_due_at')

    op.drop_table('timers')
