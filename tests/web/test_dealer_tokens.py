"""A dealer's bearer token is bound to one table like his PIN session; tokens are listed, revoked and
run out."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select, update

from floor.models import ApiToken, Staff
from tests.conftest import app_session


def _cli(app, *args):
    return app.test_cli_runner().invoke(args=["floor", "token", *args])


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_dealer_token_without_its_table_is_refused(app):
    result = _cli(app, "create", "dealer")
    assert result.exit_code == 1 and "--table" in result.output
    assert _cli(app, "create", "dealer", "--table", "99").exit_code == 1


def test_a_table_bound_dealer_token_acts_at_its_table_only(app, client):
    token = _cli(app, "create", "dealer", "--table", "12", "--label", "wheel terminal").output.strip()
    mine = client.get("/api/tables/12/round", headers=_bearer(token))
    assert mine.status_code == 200
    assert client.post("/api/tables/12/round/open", json={}, headers=_bearer(token)).status_code == 201
    for method, url in (("post", "/api/tables/14/round/open"), ("get", "/api/tables/10/round"),
                        ("post", "/api/tables/10/bets"), ("post", "/api/poker/tables/1/button"),
                        ("get", "/api/poker/tables/1")):
        resp = getattr(client, method)(url, json={} if method == "post" else None, headers=_bearer(token))
        assert resp.status_code == 403 and resp.get_json()["error"] == "wrong_table", (url, resp.get_json())


def test_tokens_are_listed_revoked_and_run_out(app, client):
    token = _cli(app, "create", "pitboss", "--label", "pit tablet", "--expires-hours", "8").output.strip()
    listed = _cli(app, "list")
    assert listed.exit_code == 0
    line = next(ln for ln in listed.output.splitlines() if "pit tablet" in ln)
    token_id = line.split("\t")[0]
    assert "pitboss" in line and "active" in line and "expires 20" in line
    assert client.get("/api/tables", headers=_bearer(token)).status_code == 200
    assert _cli(app, "revoke", token_id).exit_code == 0
    assert "revoked" in next(ln for ln in _cli(app, "list").output.splitlines() if "pit tablet" in ln)
    refused = client.get("/api/tables", headers=_bearer(token))
    assert refused.status_code == 401 and refused.get_json()["error"] == "bad_token"
    assert _cli(app, "revoke", token_id).exit_code == 1

    other = _cli(app, "create", "pitboss", "--label", "short shift", "--expires-hours", "1").output.strip()
    assert client.get("/api/tables", headers=_bearer(other)).status_code == 200
    with app_session(app) as s:   # the hour has passed
        s.execute(update(ApiToken).where(ApiToken.label == "short shift")
                  .values(expires_at=datetime.now(timezone.utc) - timedelta(minutes=1)))
        assert s.scalar(select(ApiToken.expires_at).where(ApiToken.label == "short shift")) is not None
    assert client.get("/api/tables", headers=_bearer(other)).status_code == 401


def test_a_token_speaks_for_its_account_only_while_the_account_is_active(app, client):
    token = _cli(app, "create", "cashier", "--label", "cage tablet").output.strip()
    assert client.get("/api/tables", headers=_bearer(token)).status_code == 200
    with app_session(app) as s:   # the cashier leaves: the account is switched off, the token is not revoked
        s.execute(update(Staff).where(Staff.username == "cashier").values(active=False))
    assert "revoked" not in next(ln for ln in _cli(app, "list").output.splitlines() if "cage tablet" in ln)
    refused = client.get("/api/tables", headers=_bearer(token))
    assert refused.status_code == 401 and refused.get_json()["error"] == "bad_token"
    with app_session(app) as s:
        s.execute(update(Staff).where(Staff.username == "cashier").values(active=True))
    assert client.get("/api/tables", headers=_bearer(token)).status_code == 200
