"""GET /healthz answers without login: database, scheduler, devices; never a secret."""
from datetime import datetime, timedelta, timezone

from floor import health
from tests.devices.helpers import wait_until


def test_healthz_without_login_reports_database_scheduler_and_devices(client, app):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["database"]["ok"] is True
    assert body["scheduler"]["running"] is False and body["status"] == "degraded"
    assert body["devices"] == {"count": 0, "connected": 0, "items": []}
    assert body["device_process"] == {"running": False}
    text = resp.get_data(as_text=True)
    assert app.config["SECRET_KEY"] not in text and app.config["SQLALCHEMY_DATABASE_URI"] not in text
    assert "floor.db" not in text and "@" not in text


def test_scheduler_beat_makes_it_running_and_a_stale_beat_does_not(client, session):
    health.beat(session, "scheduler")
    session.commit()
    assert client.get("/healthz").get_json()["scheduler"]["running"] is True
    health.beat(session, "scheduler", now=datetime.now(timezone.utc) - timedelta(minutes=5))
    session.commit()
    assert client.get("/healthz").get_json()["status"] == "degraded"


def test_the_real_scheduler_beats(app, client):
    from floor.runtime import scheduler
    scheduler.start(app)
    try:
        wait_until(lambda: client.get("/healthz").get_json()["scheduler"]["running"], what="the scheduler's beat")
    finally:
        scheduler.shutdown()
