"""The audit log is a hash chain: tampering with any row is found and named."""
from __future__ import annotations

from sqlalchemy import func, select, text

from floor import audit
from floor.actors import Actor
from floor.models import AuditRecord, Player


def test_demo_floor_chain_verifies(session):
    report = audit.verify(session)
    assert report.ok and report.checked == session.scalar(select(func.count(AuditRecord.id)))
    assert report.checked > 30


def test_the_change_and_its_record_commit_or_roll_back_together(session):
    before = session.scalar(select(func.count(AuditRecord.id)))
    session.add(Player(name="Zoe Test", card_number="999"))
    audit.record(session, Actor("Marc", "floor_manager", "tablet-1", 2), "player.create", "player:new",
                 after={"name": "Zoe Test"})
    session.rollback()
    assert session.scalar(select(func.count(AuditRecord.id))) == before
    assert session.scalar(select(func.count(Player.id)).where(Player.card_number == "999")) == 0


def test_record_holds_who_what_before_after(session):
    actor = Actor("Marc Manager", "floor_manager", "tablet-7", staff_id=2)
    rec = audit.record(session, actor, "table.open", "table:2", before={"status": "closed"}, after={"status": "open"})
    session.commit()
    row = session.get(AuditRecord, rec.id)
    assert (row.actor, row.role, row.terminal, row.action, row.subject) == (
        "Marc Manager", "floor_manager", "tablet-7", "table.open", "table:2")
    assert row.before == '{"status":"closed"}' and row.after == '{"status":"open"}'
    prev = session.execute(select(AuditRecord).where(AuditRecord.id < rec.id).order_by(AuditRecord.id.desc())).scalars().first()
    assert row.prev_hash == prev.hash


def _tamper_and_verify(app, session, sql: str, target_id: int):
    session.execute(text(sql), {"id": target_id})
    session.commit()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["floor", "audit", "verify"])
    return result


def test_editing_a_row_in_sql_breaks_the_chain_at_that_row(app, session):
    ids = session.scalars(select(AuditRecord.id).order_by(AuditRecord.id)).all()
    target = ids[len(ids) // 2]
    result = _tamper_and_verify(app, session, "UPDATE audit_log SET after = '{\"name\":\"someone else\"}' WHERE id = :id", target)
    assert result.exit_code == 1
    assert f"BROKEN at record {target}" in result.output


def test_deleting_a_row_breaks_the_chain_at_the_next_one(app, session):
    ids = session.scalars(select(AuditRecord.id).order_by(AuditRecord.id)).all()
    target = ids[5]
    result = _tamper_and_verify(app, session, "DELETE FROM audit_log WHERE id = :id", target)
    assert result.exit_code == 1
    assert f"BROKEN at record {ids[6]}" in result.output


def test_verify_passes_on_an_untouched_demo_floor(app):
    result = app.test_cli_runner().invoke(args=["floor", "audit", "verify"])
    assert result.exit_code == 0 and "audit chain OK" in result.output
