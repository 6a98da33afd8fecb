"""docs/operations.md, followed to the letter on a fresh copy of the repository and a fresh PostgreSQL
database without the demo: `make venv`, the setup block (games, tables, accounts, tokens, by the
commands as written), the processes started by hand as written, then a baccarat coup dealt by hand
through the API and paid. Only the paths differ: /etc/floorman is a folder of the test's, the ports
are free ones."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import uuid
from pathlib import Path

import pytest
import redis
import requests

from tests.production.shape import REDIS, wait
from tests.servers import ROOT, free_port

pytestmark = pytest.mark.slow

DOC = ROOT / "docs" / "operations.md"


def doc_block(name: str) -> list[str]:
    """The command lines of the fenced block marked ``<!-- operations test: name -->``, comments off."""
    text = DOC.read_text()
    found = re.search(rf"<!-- operations test: {name} -->\n```sh\n(.*?)```", text, re.S)
    assert found, f"docs/operations.md has no block marked for the test: {name}"
    lines = []
    for line in found.group(1).splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line:
            lines.append(line)
    return lines


def fresh_copy(dest: Path) -> Path:
    """The repository's files as a clone has them (what git tracks), the virtualenv shared: its
    packages are what `make venv` would install, so the copy's make leaves them alone."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name.decode())
    venv = ROOT / ".venv"
    (dest / ".venv").symlink_to(venv.resolve())
    for req in ("requirements.txt", "requirements-dev.txt"):   # older than the shared venv's stamp
        os.utime(dest / req, (0, 0))
    return dest


@pytest.fixture
def empty_database():
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_URL, _pg_admin
    if not PG_URL:
        pytest.skip("the production floor runs on PostgreSQL: TEST_DATABASE_URL is not set")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("the production floor needs Redis on 127.0.0.1:6379")
    name = f"ops_{uuid.uuid4().hex[:10]}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))     # empty: not the demo template
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_the_operations_doc_makes_a_floor_from_nothing_that_plays_a_round(empty_database, tmp_path):
    repo = fresh_copy(tmp_path / "floorman")
    etc = tmp_path / "etc"
    etc.mkdir()
    # the operator's adjustments of the example: the test's Redis channel, no serial devices of the example
    example = (repo / "config" / "production.example.toml").read_text()
    config = re.sub(r"\n\[\[devices\]\].*?(?=\n\[(?!\[devices)|\Z)", "", example, flags=re.S)
    config = config.replace('message_queue_channel = "floorman-main"',
                            f'message_queue_channel = "ops-{uuid.uuid4().hex}"')
    assert "[[devices]]" not in config and "ops-" in config
    (etc / "production.toml").write_text(config)
    (etc / "floorman.env").write_text(f"FLOOR_SECRET_KEY={uuid.uuid4().hex}\nFLOOR_APP_DATABASE_URL={empty_database}\n")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "FLOOR_USER_PASSWORD": "alice-password-1",
           "FLOOR_SECURITY_PASSWORD_HASH_COST": '"minimal"'}

    # make venv: the pages' JavaScript and the translations come with it
    made = subprocess.run(["make", "venv"], cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    assert (repo / "node_modules" / "socket.io-client" / "dist" / "socket.io.min.js").exists()

    def as_written(lines: list[str]) -> str:
        return "\n".join(line.replace("/etc/floorman/", f"{etc}/") for line in lines)

    setup = subprocess.run(["bash", "-ec", as_written(doc_block("setup"))], cwd=repo, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=600)
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    said = setup.stdout.strip().splitlines()
    admin_token, dealer_token = said[-2], said[-1]
    assert admin_token.startswith("fm_") and dealer_token.startswith("fm_"), said
    assert "10\tBaccarat\tBaccarat 10-1000\t7 seats\tclosed" in said

    ports = {"8001": str(free_port()), "8003": str(free_port())}
    start = [re.sub(r"FLOOR_SERVER_PORT=(\d+)", lambda m: f"FLOOR_SERVER_PORT={ports[m.group(1)]}", line)
             for line in doc_block("start")]
    script = ("export FLOOR_CONFIG=/etc/floorman/production.toml FLASK_APP=app:create_app\n"
              "set -a; . /etc/floorman/floorman.env; set +a\n") + "\n".join(start) + "\nwait\n"
    log = open(tmp_path / "processes.log", "w")
    procs = subprocess.Popen(["bash", "-c", as_written(script.splitlines())], cwd=repo, env=env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
    web = f"http://127.0.0.1:{ports['8003']}"
    try:
        def health():
            try:
                return requests.get(web + "/healthz", timeout=2).json()
            except (requests.RequestException, ValueError):
                assert procs.poll() is None, (tmp_path / "processes.log").read_text()[-3000:]
                return None
        # a floor without devices is "ok" as soon as its web process is: the device process (which
        # runs anyway, for the devices to come) is waited for on its own heartbeat
        body = wait(lambda: (h := health()) and h["status"] == "ok" and h["device_process"]["running"] and h,
                    timeout=120, what="the floor's processes up (database, queue, scheduler, device process)")
        assert body["message_queue"] == {"ok": True} and body["device_process"] == {"running": True}
        live = f"http://127.0.0.1:{ports['8001']}"
        assert requests.get(live + "/vendor/socket.io.min.js", timeout=10).status_code == 200

        def api(token, method, path, json=None, status=(200, 201)):
            resp = requests.request(method, web + path, json=json if json is not None else {},
                                    headers={"Authorization": f"Bearer {token}"}, timeout=30)
            assert resp.status_code in status, f"{method} {path}: {resp.status_code} {resp.text}"
            return resp.json()

        api(admin_token, "POST", "/api/floor/tables/10/open")       # the floor manager opens the table
        api(dealer_token, "POST", "/api/tables/10/shoe")             # a table without a smart shoe
        api(dealer_token, "POST", "/api/tables/10/round/open")
        api(dealer_token, "POST", "/api/tables/10/bets", {"spot": "banker", "amount": 2000, "seat": 1})
        api(dealer_token, "POST", "/api/tables/10/bets", {"spot": "player", "amount": 1000, "seat": 2})
        refused = requests.post(web + "/api/tables/1/round/open", json={},
                                headers={"Authorization": f"Bearer {dealer_token}"}, timeout=30)
        assert refused.status_code == 403                           # his token acts at table 10 only
        api(dealer_token, "POST", "/api/tables/10/round/close")
        for card in ("9h", "2c", "Kd", "3s"):                        # player 9, banker 5: the player wins
            state = api(dealer_token, "POST", "/api/tables/10/round/card", {"card": card})
        state = wait(lambda: (s := api(dealer_token, "GET", "/api/tables/10/round"))["round"]["settlement"] and s,
                     timeout=60, what="the coup settled")
        paid = {b["spot"]: b["paid"] for b in state["round"]["bets"]}
        assert paid == {"banker": 0, "player": 2000}
    finally:
        os.killpg(procs.pid, signal.SIGTERM)
        try:
            procs.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(procs.pid, signal.SIGKILL)
            procs.wait()
        log.close()
