"""The production shape, started for real: PostgreSQL, Redis, two web processes (gunicorn through
``python -m floor.runtime.serve``), the scheduler process (``flask floor scheduler``) and the device
process (``flask floor devices``) reading simulators on ptys. Each process runs under
tests.production.crashpoint so a test can pause it inside a transaction and SIGKILL it there.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import tomllib
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

import pytest
import redis
import requests
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from devices.simulate.base import PtyEnd
from devices.simulate.scanner import ScannerSimulator
from devices.simulate.shoe import ShoeSimulator
from floor import ledger
from floor import staff as staff_svc
from floor.actors import Actor
from floor.models import Bet, Round, RoundEvent, ServiceHeartbeat, Settlement, Table, Timer, Transfer
from floor.runtime.commands import request_channel
from floor.runtime.scheduler import wake_channel
from tests import processes
from tests.servers import ROOT, free_port

BETTING_S = 3
DECISION_S = 2
ACTIVE = ("betting", "locked", "dealing", "result")


def wait(pred, timeout: float = 60.0, what: str = "", interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or pred}")
        time.sleep(interval)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


REDIS = "redis://127.0.0.1:6379/0"


@contextmanager
def production_database(request, name: str):
    """A PostgreSQL database of its own, copied from the session's template, for a floor run with
    Redis as its message queue (skips where either is missing); dropped afterwards."""
    from sqlalchemy import text

    from tests.conftest import PG_URL, _pg_admin
    if not PG_URL:
        pytest.skip("the production shape runs on PostgreSQL: TEST_DATABASE_URL is not set")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("the production shape needs Redis on 127.0.0.1:6379 (.ci/run starts it)")
    template = request.getfixturevalue("pg_template")
    admin = _pg_admin()
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def unit_value(unit: str, key: str) -> str | None:
    """A ``Key=`` of a systemd unit under config/systemd (None where it sets none)."""
    found = re.search(rf"^{key}=(\S+)$", (ROOT / "config" / "systemd" / unit).read_text(), re.M)
    return found.group(1) if found else None


def unit_env(unit: str, name: str) -> str | None:
    """A variable a unit's ``Environment=`` lines set (None where they set none)."""
    found = re.search(rf"^Environment=.*\b{name}=(\S+)", (ROOT / "config" / "systemd" / unit).read_text(), re.M)
    return found.group(1) if found else None


def unit_nice(unit: str) -> int:
    """The ``Nice=`` of a unit, so a process runs here at the priority production gives it (0 where it
    sets none, or where this user may not raise a priority)."""
    nice = int(unit_value(unit, "Nice") or 0)
    return nice if nice >= 0 or os.geteuid() == 0 else 0


def unit_rtprio(unit: str) -> int:
    """The ``LimitRTPRIO=`` of a unit: the highest real-time priority its process may ask for."""
    return int(unit_value(unit, "LimitRTPRIO") or 0)


def production_setting(section: str, key: str):
    """A setting of config/production.example.toml, which the production shape runs with."""
    return tomllib.loads((ROOT / "config" / "production.example.toml").read_text())[section][key]


class Proc:
    """One floor process in its own process group (SIGKILL takes a gunicorn master and its worker)."""

    def __init__(self, name: str, argv: list[str], env: dict, tmp: Path, url: str | None = None,
                 nice: int = 0, rtprio: int = 0) -> None:
        self.name, self.argv, self.env, self.url, self.nice, self.rtprio = name, argv, env, url, nice, rtprio
        self.arm_file, self.mark_file = tmp / f"{name}.arm", tmp / f"{name}.mark"
        self.log_path = tmp / f"{name}.log"
        self.proc: processes.Forked | None = None
        self.started_at: datetime | None = None
        self.starts = 0

    def start(self, pause_on: str | None = None) -> "Proc":
        """Start it; ``pause_on``: a SQL pattern at which it pauses (armed before it runs)."""
        self.arm(pause_on) if pause_on else self.disarm()
        self.mark_file.unlink(missing_ok=True)
        self.starts += 1
        with open(self.log_path, "a") as log:
            log.write(f"\n===== start {self.starts} at {utcnow().isoformat()} =====\n")
        env = {**self.env, "FLOOR_TEST_ARM": str(self.arm_file), "FLOOR_TEST_MARK": str(self.mark_file)}
        self.started_at = utcnow()
        # what its unit sets (Nice=, LimitRTPRIO=) is applied in the child, before it runs
        self.proc = processes.start("tests.production.crashpoint", self.argv, env, self.log_path, new_session=True,
                                    nice=self.nice, rtprio=self.rtprio)
        return self

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def arm(self, pattern: str) -> None:
        self.arm_file.write_text(pattern)

    def disarm(self) -> None:
        self.arm_file.unlink(missing_ok=True)

    def wait_paused(self, timeout: float = 30.0) -> str:
        return wait(lambda: self.mark_file.exists() and self.mark_file.read_text(), timeout,
                    f"{self.name} to pause at its crash point")

    def kill(self) -> None:
        """SIGKILL, as a power cut or the OOM killer would: no cleanup of any kind."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)

    def stop(self) -> None:
        """A clean stop, quickly: SIGINT is gunicorn's quick shutdown (SIGTERM waits for idle
        keep-alive connections) and ends the CLI processes' wait loop like SIGTERM."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass

    def log_tail(self, n: int = 3000) -> str:
        return self.log_path.read_text()[-n:] if self.log_path.exists() else ""


class Floor:
    def __init__(self, db_url: str, tmp: Path, redis_url: str, devices: dict[str, str] | None = None,
                 api_webs: int = 0, **env: str) -> None:
        """``devices``: name (kind-table) -> port of devices someone else speaks for (the bench's wheel and
        shoe); without it, the shoe of table 10 and the scanners of tables 14 and 15 on simulators of
        this process. ``env``: more settings of every process (FLOOR_SERVER_THREADS, ...)."""
        self.tmp, self.db_url, self.redis_url = tmp, db_url, redis_url
        self.engine = create_engine(db_url, pool_pre_ping=True)
        self.channel = f"floorman-test-{uuid.uuid4().hex[:12]}"
        self.redis = redis.Redis.from_url(redis_url)
        with Session(self.engine) as s:
            self.token = staff_svc.create_token(s, Actor.system("test"), "pitboss", "production test")
            s.commit()
        # the devices, on ptys linked like /dev/serial/by-id entries
        self.ends: dict[str, PtyEnd] = {}
        self.sims: list = []
        if devices is None:
            self.ends = {name: PtyEnd(link=str(tmp / f"usb-{name}")) for name in ("shoe-10", "scanner-14", "scanner-15")}
            self.shoe = ShoeSimulator(self.ends["shoe-10"], seed=7, speed=8, paced=True)
            self.scanner14 = ScannerSimulator(self.ends["scanner-14"], game="blackjack", on_demand=True, speed=8, seed=1)
            self.scanner15 = ScannerSimulator(self.ends["scanner-15"], game="holdem", on_demand=True, speed=8, seed=2)
            self.sims = [self.shoe, self.scanner14, self.scanner15]
            devices = {name: end.path for name, end in self.ends.items()}
        self.device_names = list(devices)
        config = tmp / "floor.toml"
        config.write_text("".join(
            f'[[devices]]\nname = "{name}"\ntable = {name.split("-")[1]}\nkind = "{name.split("-")[0]}"\n'
            f'port = "{port}"\n\n' for name, port in devices.items()))
        base = {k: v for k, v in os.environ.items() if not k.startswith("FLOOR_")}
        base.update({
            "FLOOR_CONFIG": str(config), "FLOOR_SECRET_KEY": "test-secret-key", "FLOOR_APP_DATABASE_URL": db_url,
            "FLOOR_APP_DEMO": "false", "FLOOR_APP_GENERATE_SECRET_KEY": "false",
            "FLOOR_APP_MESSAGE_QUEUE": redis_url, "FLOOR_APP_MESSAGE_QUEUE_CHANNEL": self.channel,
            "FLOOR_APP_RUN_SCHEDULER": "false", "FLOOR_APP_RUN_DEVICES": "false",
            "FLOOR_APP_SIMULATE_DEVICES": "false", "FLOOR_APP_LOG_LEVEL": "INFO", "FLASK_APP": "app:create_app",
            "FLOOR_HOUSE_BETTING_SECONDS": str(BETTING_S), "FLOOR_HOUSE_DECISION_SECONDS": str(DECISION_S),
            "FLOOR_SECURITY_LOGIN_RATE_LIMIT": '"1000 per minute"', "FLOOR_SERVER_THREADS": "16",
            # a shared CI host keeps the device process behind its line now and then; the pause has
            # its own test (tests/e2e_devices/test_line_time.py)
            "FLOOR_HOUSE_LINE_LAG_MS": "30000", **env,
        })

        def env(name: str, **extra) -> dict:
            inst = tmp / name
            inst.mkdir(exist_ok=True)
            return {**base, "FLOOR_APP_INSTANCE_PATH": str(inst), **extra}

        self.webs = []
        # with the API apart, these two are the live feed's processes (floorman-live@), at its priority
        # and on its worker
        live_nice = unit_nice("floorman-live@.service") if api_webs else 0
        live_env = {name: value for name in ("FLOOR_SERVER_WORKER", "FLOOR_SERVER_THREADS")
                    if api_webs and (value := unit_env("floorman-live@.service", name))}
        for name in ("web-a", "web-b"):
            port = free_port()
            self.webs.append(Proc(name, ["floor.runtime.serve"], env(name, FLOOR_SERVER_PORT=str(port), **live_env), tmp,
                                  url=f"http://127.0.0.1:{port}", nice=live_nice))
        self.web_a, self.web_b = self.webs
        # web processes for the API and pages only, as nginx routes them (the live feed's
        # processes then never wait on a request's work)
        self.api_webs = []
        for i in range(api_webs):
            port = free_port()
            self.api_webs.append(Proc(f"web-api-{i}", ["floor.runtime.serve"], env(f"web-api-{i}", FLOOR_SERVER_PORT=str(port)),
                                      tmp, url=f"http://127.0.0.1:{port}"))
        self.scheduler = Proc("scheduler", ["flask", "floor", "scheduler"], env("scheduler", FLOOR_APP_RUN_SCHEDULER="true"),
                              tmp)
        self.devices = Proc("devices", ["flask", "floor", "devices"],
                            env("devices", FLOOR_APP_RUN_DEVICES="true", FLOOR_APP_DEVICE_REALTIME_PRIORITY=str(
                                production_setting("app", "device_realtime_priority"))), tmp,
                            nice=unit_nice("floorman-devices.service"), rtprio=unit_rtprio("floorman-devices.service"))
        self.spare_env = env("devices-2", FLOOR_APP_RUN_DEVICES="true")

    @property
    def procs(self) -> list[Proc]:
        return [self.web_a, self.web_b, *self.api_webs, self.scheduler, self.devices]

    # --- processes ----------------------------------------------------------------------------

    def start(self) -> None:
        for sim in self.sims:
            sim.start()
        for p in self.procs:
            p.start()
        self.ready(*self.procs)

    def ensure_up(self) -> None:
        """Every process running, unarmed and ready (a failed test may have left one killed, paused, or
        restarted and not yet ready: the next test's cards would reach a device process still opening
        its ports)."""
        for p in self.procs:
            if p.mark_file.exists() or not p.alive:
                p.kill()
                p.start()
            p.disarm()
        self.ready(*self.procs)

    def ready(self, *procs: Proc, timeout: float = 60.0) -> None:
        for p in procs:
            try:
                wait(lambda: self._ready(p), timeout, f"{p.name} to be ready")
            except AssertionError:
                raise AssertionError(f"{p.name} not ready:\n{p.log_tail()}") from None

    def _ready(self, p: Proc) -> bool:
        if not p.alive:
            raise AssertionError(f"{p.name} exited:\n{p.log_tail()}")
        if p.url is not None:
            try:
                return requests.get(p.url + "/healthz", timeout=1).status_code == 200
            except requests.RequestException:
                return False
        if p is self.scheduler or p.name.startswith("scheduler"):
            return (self.beat_at("scheduler") or p.started_at) > p.started_at and self.subscribers(
                wake_channel(self.channel)) >= 1
        info = self.beat_info("device-process")
        return (info.get("pid") == p.pid and self.subscribers(request_channel(self.channel)) == 1
                and all(d["connected"] and d["at"] > p.started_at for d in self.device_beats().values()))

    def subscribers(self, channel: str) -> int:
        return dict(self.redis.pubsub_numsub(channel)).get(channel.encode(), 0)

    def stop(self) -> None:
        for p in self.procs:      # all at once, then wait for each
            if p.alive:
                os.killpg(p.proc.pid, signal.SIGINT)
        for p in self.procs:
            p.stop()
        for sim in self.sims:
            sim.stop()
        for end in self.ends.values():
            end.close()
        self.engine.dispose()

    # --- the API --------------------------------------------------------------------------------

    def api(self, web: Proc, method: str, path: str, json: dict | None = None, status=(200, 201),
            timeout: float = 15) -> dict:
        resp = requests.request(method, web.url + path, json=json if json is not None else {},
                                headers={"Authorization": f"Bearer {self.token}"}, timeout=timeout)
        ok = status if isinstance(status, tuple) else (status,)
        assert resp.status_code in ok, f"{method} {path} via {web.name} -> {resp.status_code} {resp.text}"
        return resp.json()

    def call(self, web: Proc, method: str, path: str, json: dict | None = None) -> requests.Response:
        return requests.request(method, web.url + path, json=json if json is not None else {},
                                headers={"Authorization": f"Bearer {self.token}"}, timeout=15)

    # --- reading the floor ----------------------------------------------------------------------

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def beat_at(self, name: str) -> datetime | None:
        with self.session() as s:
            row = s.get(ServiceHeartbeat, name)
            return row.at if row else None

    def beat_info(self, name: str) -> dict:
        with self.session() as s:
            row = s.get(ServiceHeartbeat, name)
            return dict(row.info or {}) if row else {}

    def device_beats(self) -> dict[str, dict]:
        with self.session() as s:
            rows = s.execute(select(ServiceHeartbeat).where(ServiceHeartbeat.name.like("device:%"))).scalars()
            out = {r.name[len("device:"):]: {**(r.info or {}), "at": r.at} for r in rows}
        return {name: out.get(name, {"connected": False, "at": None}) for name in self.device_names}

    def table_id(self, number: int) -> int:
        with self.session() as s:
            return s.execute(select(Table.id).where(Table.number == number)).scalar_one()

    def round(self, rid: int) -> Round:
        with self.session() as s:
            return s.get(Round, rid)

    def active(self, number: int) -> Round | None:
        with self.session() as s:
            return s.execute(select(Round).where(Round.table_id == self.table_id(number),
                                                 Round.status.in_(ACTIVE))).scalar_one_or_none()

    def wait_status(self, rid: int, *statuses: str, timeout: float = 60.0) -> Round:
        return wait(lambda: (r := self.round(rid)).status in statuses and r, timeout,
                    f"round id {rid} to be {'/'.join(statuses)} (it is {self.round(rid).status})")

    def events(self, rid: int, kind: str | None = None) -> list[RoundEvent]:
        with self.session() as s:
            q = select(RoundEvent).where(RoundEvent.round_id == rid).order_by(RoundEvent.id)
            if kind:
                q = q.where(RoundEvent.kind == kind)
            return list(s.execute(q).scalars())

    def timer(self, key: str) -> list[Timer]:
        with self.session() as s:
            return list(s.execute(select(Timer).where(Timer.key == key).order_by(Timer.id)).scalars())

    def settlements(self, rid: int) -> list[Settlement]:
        with self.session() as s:
            return list(s.execute(select(Settlement).where(Settlement.round_id == rid)).scalars())

    def outcome_transfers(self, rid: int) -> dict[int, int]:
        """Per bet, how many outcome transfers ("return" or "lose") the ledger holds for it."""
        with self.session() as s:
            rows = s.execute(select(Transfer.bet_id, func.count()).where(
                Transfer.round_id == rid, Transfer.kind.in_(("return", "lose"))).group_by(Transfer.bet_id)).all()
            bets = s.execute(select(Bet.id).where(Bet.round_id == rid)).scalars().all()
        counted = dict(rows)
        return {b: counted.get(b, 0) for b in bets}

    def assert_settled_once(self, rid: int, table_number: int) -> None:
        """One settlement row, one outcome per bet, the table's in-play account empty, books balanced."""
        r = self.round(rid)
        assert r.status == "settled", (r.status, r.held_reason)
        assert len(self.settlements(rid)) == 1
        per_bet = self.outcome_transfers(rid)
        assert per_bet and set(per_bet.values()) == {1}, per_bet
        with self.session() as s:
            assert ledger.balance(s, ledger.table_account(s, self.table_id(table_number), "in_play")) == 0
            check = ledger.check(s)
        assert check.ok, check
