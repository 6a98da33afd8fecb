"""Logins, lockout, rate limit, CSRF, cookies, dealer PIN terminals and bearer tokens."""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from floor.models import AuditRecord, LoginFailure, Staff
from floor.runtime import scheduler
from tests.conftest import app_session, csrf_token, make_config


def _post_login(client, username, password, token=None):
    token = token or csrf_token(client)
    return client.post("/login", data={"username": username, "password": password, "csrf_token": token})


def test_login_sends_each_role_home_and_sets_a_safe_cookie(client):
    resp = _post_login(client, "manager", "floorman-demo")
    assert resp.status_code == 302 and resp.headers["Location"] == "/floor"
    cookie = resp.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/floor").status_code == 200


def test_wrong_password_is_refused_and_audited(client, session):
    resp = _post_login(client, "manager", "nope")
    assert resp.status_code == 401 and "wrong username or password" in resp.get_data(as_text=True)
    staff = session.execute(select(Staff).where(Staff.username == "manager")).scalar_one()
    assert staff.failed_logins == 1
    actions = session.scalars(select(AuditRecord.action).where(AuditRecord.subject == f"staff:{staff.id}")).all()
    assert "login.password.failed" in actions


def _from(app, address: str):
    """A test client whose requests come from ``address`` (another tablet, another attacker)."""
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    return c


def test_repeated_failures_refuse_that_client_for_that_name_and_nobody_else(app):
    attacker = _from(app, "10.9.9.9")
    for _ in range(5):
        assert _post_login(attacker, "pitboss", "wrong-password").status_code == 401
    refused = _post_login(attacker, "pitboss", "floorman-demo")
    assert refused.status_code == 429 and "too many failed logins" in refused.get_data(as_text=True)
    assert attacker.get("/pit").status_code == 302  # not logged in
    # The pit boss at his own tablet is not locked out by someone else's guesses.
    own = _from(app, "10.0.0.7")
    assert _post_login(own, "pitboss", "floorman-demo").status_code == 302
    assert own.get("/pit").status_code == 200
    with app_session(app) as s:
        assert s.execute(select(Staff.locked_until).where(Staff.username == "pitboss")).scalar_one() is None


def test_a_name_that_does_not_exist_is_throttled_the_same_way(app):
    """Five failures give the same answers for a real name and an unknown one: no guessing of names."""
    def answers(name):
        c = _from(app, f"10.1.1.{len(name)}")
        return [(r.status_code, "too many" in r.get_data(as_text=True))
                for r in (_post_login(c, name, "wrong-password") for _ in range(6))]
    assert answers("manager") == answers("nobody-here") == [(401, False)] * 5 + [(429, True)]


def _failures(app) -> list[tuple[str, str]]:
    with app_session(app) as s:
        return sorted(s.execute(select(LoginFailure.username, LoginFailure.client)).all())


def test_the_scheduler_forgets_old_failed_logins_and_the_lockout_still_counts_recent_ones(app):
    """Failed-login rows past the kept day go (scheduled, once an hour and when the scheduler starts);
    those the lockout window reads stay and still refuse the guesser."""
    now = datetime.now(timezone.utc)
    with app_session(app) as s:
        for client, ago in (("10.5.5.1", timedelta(days=3)), ("10.5.5.2", timedelta(hours=25))):
            s.add(LoginFailure(username="pitboss", client=client, at=now - ago))
    guesser = _from(app, "10.5.5.9")
    for _ in range(5):
        assert _post_login(guesser, "pitboss", "wrong-password").status_code == 401
    assert len(_failures(app)) == 7

    scheduler.start(app)
    try:
        deadline = time.monotonic() + 120   # a hang guard: the job runs when the scheduler starts
        while len(_failures(app)) != 5:
            assert time.monotonic() < deadline, "the scheduler never forgot the old failed logins"
            time.sleep(0.05)
    finally:
        scheduler.shutdown()
    assert _failures(app) == [("pitboss", "10.5.5.9")] * 5
    assert _post_login(guesser, "pitboss", "floorman-demo").status_code == 429
    # the audit log keeps every failure against the real account
    with app_session(app) as s:
        failed = s.scalars(select(AuditRecord.id).where(AuditRecord.action == "login.password.failed")).all()
    assert len(failed) == 5


def test_failed_logins_are_kept_at_least_as_long_as_the_lockout_window(app):
    from floor import staff
    now = datetime.now(timezone.utc)
    with app_session(app) as s:
        s.add_all([LoginFailure(username="x", client="c", at=now - timedelta(minutes=50)),
                   LoginFailure(username="x", client="c", at=now - timedelta(minutes=70))])
    with app_session(app) as s:
        # a house that keeps rows for no time still keeps its hour-long lockout window
        assert staff.forget_login_failures(s, now, lock_minutes=60, keep_hours=0) == 1
    assert _failures(app) == [("x", "c")]


def test_a_locked_account_logs_in_nowhere_and_its_token_and_session_stop(app, client, login):
    login("manager")
    assert client.get("/api/tables").status_code == 200
    runner = app.test_cli_runner()
    token = runner.invoke(args=["floor", "token", "create", "manager"]).output.strip()
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/tables", headers=headers).status_code == 200
    assert runner.invoke(args=["floor", "user", "lock", "manager", "--hours", "2"]).exit_code == 0
    assert client.get("/api/tables", headers=headers).status_code == 401
    assert client.get("/api/tables").status_code == 401     # the open session too
    other = app.test_client()
    locked = _post_login(other, "manager", "floorman-demo")
    assert locked.status_code == 403 and "locked" in locked.get_data(as_text=True)
    assert _post_login(other, "manager", "wrong-password").status_code == 401   # a guesser learns nothing
    assert runner.invoke(args=["floor", "user", "unlock", "manager"]).exit_code == 0
    assert client.get("/api/tables", headers=headers).status_code == 200
    assert _post_login(app.test_client(), "manager", "floorman-demo").status_code == 302


def test_login_attempts_are_rate_limited(db_url, tmp_path):
    from app import create_app
    app = create_app(make_config(db_url, tmp_path, security={"login_rate_limit": "3 per minute"}))
    client = app.test_client()
    token = csrf_token(client)
    codes = [_post_login(client, "nobody", "x", token).status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429]


def test_a_replayed_form_without_its_csrf_token_is_refused(client):
    resp = client.post("/login", data={"username": "manager", "password": "floorman-demo"})
    assert resp.status_code == 400 and "security token" in resp.get_data(as_text=True)
    # A token from another session does not work either.
    other = client.application.test_client()
    stolen = csrf_token(other)
    client.get("/login")
    resp = _post_login(client, "manager", "floorman-demo", token="x" + stolen[1:])
    assert resp.status_code == 400


def test_json_post_with_a_session_cookie_needs_the_csrf_header(client, login):
    login("manager")
    no_header = client.post("/api/players", json={"name": "Ann", "card_number": "123"})
    assert no_header.status_code == 400 and no_header.get_json()["error"] == "csrf_failed"
    ok = login.post("/api/players", json={"name": "Ann Other", "card_number": "123456"})
    assert ok.status_code == 201 and ok.get_json()["name"] == "Ann Other"


def test_dealers_use_pins_at_their_table_and_not_the_password_form(client):
    resp = _post_login(client, "dealer", "floorman-demo")
    assert resp.status_code == 403 and "PIN" in resp.get_data(as_text=True)
    token = csrf_token(client)
    wrong = client.post("/dealer/14/login", data={"username": "dealer", "pin": "9999", "csrf_token": token})
    assert wrong.status_code == 401
    ok = client.post("/dealer/14/login", data={"username": "dealer", "pin": "1234", "csrf_token": token})
    assert ok.status_code == 302 and ok.headers["Location"] == "/dealer/14"
    assert client.get("/dealer/14").status_code == 200
    assert client.get("/dealer/10").status_code == 403


def test_pin_login_is_for_dealers_only_and_does_not_tell_which_names_exist(client):
    token = csrf_token(client)
    answers = []
    for name in ("manager", "pitboss", "admin", "no-such-person"):
        resp = client.post("/dealer/1/login", data={"username": name, "pin": "1234", "csrf_token": token})
        page = resp.get_data(as_text=True)
        answers.append((resp.status_code, "wrong dealer name or PIN" in page, "for dealers" in page))
        assert client.get("/dealer/1").status_code != 200
    assert answers == [(401, True, False)] * 4


def test_logout_ends_the_session(client, login):
    login("manager")
    client.post("/logout", data={"csrf_token": login.token})
    assert client.get("/api/tables").status_code == 401


def test_bearer_token_from_the_cli_opens_the_api_without_csrf(app, client):
    result = app.test_cli_runner().invoke(args=["floor", "token", "create", "admin", "--label", "tracking"])
    assert result.exit_code == 0
    token = result.output.strip()
    assert token.startswith("fm_")
    headers = {"Authorization": f"Bearer {token}"}
    tables = client.get("/api/tables", headers=headers)
    assert tables.status_code == 200 and [t["number"] for t in tables.get_json()] == [1, 2, 3, 10, 12, 14, 15]
    created = client.post("/api/players", json={"name": "Via Token", "card_number": "55501"}, headers=headers)
    assert created.status_code == 201
    bad = client.get("/api/tables", headers={"Authorization": "Bearer fm_forged"})
    assert bad.status_code == 401 and bad.get_json()["error"] == "bad_token"


def test_token_for_unknown_user_fails_cleanly(app):
    result = app.test_cli_runner().invoke(args=["floor", "token", "create", "ghost"])
    assert result.exit_code == 1 and "no staff account" in result.output


def test_socket_refuses_strangers_and_accepts_tokens(app, client, socket_client):
    stranger = socket_client()
    assert not stranger.is_connected("/live")
    token = app.test_cli_runner().invoke(args=["floor", "token", "create", "pitboss"]).output.strip()
    with_token = socket_client(flask_client=app.test_client(), auth={"token": token})
    assert with_token.is_connected("/live")
    ack = with_token.emit("join_table", {"table_id": 1}, namespace="/live", callback=True)
    assert ack == {"ok": True, "room": "table:1"}
