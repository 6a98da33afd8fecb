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


def test_healthz_reports_a_message_queue_that_does_not_answer(db_url, tmp_path):
    """A floor of several processes lives on its Redis: /healthz asks it, and says degraded without it
    (200 still: the pages and the API answer, the live feed and device commands do not)."""
    from app import create_app
    from tests.conftest import make_config
    from tests.servers import free_port
    app = create_app(make_config(db_url, tmp_path, app={"message_queue": f"redis://127.0.0.1:{free_port()}/0"}))
    with app.app_context():
        from floor.web.extensions import db
        health.beat(db.session, "scheduler")
        db.session.commit()
    resp = app.test_client().get("/healthz")
    body = resp.get_json()
    assert resp.status_code == 200 and body["scheduler"]["running"] is True
    assert body["message_queue"]["ok"] is False and body["status"] == "degraded"


def test_healthz_says_degraded_when_the_floor_has_devices_and_no_device_process(db_url, tmp_path, session):
    from app import create_app
    from tests.conftest import make_config
    cfg = make_config(db_url, tmp_path)
    cfg["devices"] = [{"name": "wheel-12", "table": 12, "kind": "wheel", "port": "/dev/null"}]
    app = create_app(cfg)
    health.beat(session, "scheduler")
    session.commit()
    body = app.test_client().get("/healthz").get_json()
    assert body["device_process"] == {"running": False} and body["status"] == "degraded"
    assert "message_queue" not in body   # one process, no queue to ask
    health.beat(session, "device-process")
    session.commit()
    assert app.test_client().get("/healthz").get_json()["status"] == "ok"
