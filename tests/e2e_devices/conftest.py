"""A live table on ptys: a simulated device, the real reader, the real bridge and rounds dispatch,
and the dealer and the pit boss at their terminals (the JSON API through the Flask test client).

Everything the devices say reaches the floor exactly as in production: bytes on a pty, the reader
thread decoding them, one database session per event in the bridge, settlement after commit.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from devices.bridge import FloorBridge
from devices.dispatch import RoundsDispatch
from devices.reader import DeviceManager, DeviceReader
from devices.runtime import DeviceRuntime
from floor import ledger
from floor.models import Alert, Bet, Round, RoundCard, Transfer
from floor.tables import table_by_number
from tests.conftest import Login, make_engine  # noqa: F401  (make_engine: re-exported for tests)
from tests.devices.helpers import PtyLine, wait_until

DEADLINE = 60.0   # generous: two workers on two cores, SQLite or PostgreSQL


def wait(predicate, timeout: float = DEADLINE, what: str = "", interval: float = 0.05):
    return wait_until(predicate, timeout, what, interval)


class Terminal(Login):
    """A logged-in client that fails loudly on an unexpected status."""

    def call(self, method: str, url: str, json=None, status: int | tuple = (200, 201)):
        resp = getattr(self.client, method)(url, json=json, headers=self.headers())
        ok = status if isinstance(status, tuple) else (status,)
        assert resp.status_code in ok, f"{method.upper()} {url} -> {resp.status_code} {resp.get_data(as_text=True)}"
        return resp.get_json()


class Rig:
    def __init__(self, app, db_url: str, tmp_path: Path):
        self.app = app
        self.house = app.config["HOUSE"]
        self.tmp = tmp_path
        self.engine = make_engine(db_url)
        self.factory = sessionmaker(bind=self.engine, expire_on_commit=False)
        self.dispatch = RoundsDispatch(self.factory, self.house, send=lambda device, command: self.runtime.send(device, command))
        self.feed: list[tuple[str, dict, str]] = []
        self.readers: list[DeviceReader] = []
        self.bridges: list[FloorBridge] = []
        self.sims: list = []
        self.lines: list[PtyLine] = []
        # the devices of this process, as `make run` registers them: the API reaches the readers
        # through it (GP 00 when the dealer confirms a new shoe)
        self.runtime = DeviceRuntime([], manager=DeviceManager([], sink=None))
        app.extensions["floor_devices"] = self.runtime

    # --- the line ----------------------------------------------------------------------------

    def table_id(self, number: int) -> int:
        with Session(self.engine) as s:
            return table_by_number(s, number).id

    def _line(self, kind: str, table_number: int, bridge_kw: dict | None = None, **config) -> PtyLine:
        line = PtyLine(self.factory, self.tmp, kind, table_number, self.dispatch,
                       emit=lambda ev, payload, room: self.feed.append((ev, payload, room)), bridge_kw=bridge_kw, **config)
        self.lines.append(line)
        self.readers.append(line.reader)
        self.bridges.append(line.bridge)
        self.runtime.manager.readers[line.name] = line.reader
        return line

    def attach(self, sim_cls, kind: str, table_number: int, *, inject: tuple[str, ...] = (), config: dict | None = None,
               **sim_kw):
        """A simulated device on a pty (linked like /dev/serial/by-id) read by the real reader,
        whose sink is the real bridge for that table; ``inject``: faults for its first round;
        ``config``: more of the device's configuration (e.g. its ``protocol``)."""
        line = self._line(kind, table_number, **(config or {}))
        # plugged in means known to the floor: the API sends a device's commands only once its
        # health is recorded (the bridge's worker writes it after the reader connects)
        wait(lambda: self._known(table_number, kind), what=f"{line.name} recorded as at table {table_number}")
        sim = line.play(sim_cls, inject=inject, **sim_kw)
        self.sims.append(sim)
        return sim, line.reader

    def _known(self, table_number: int, kind: str) -> bool:
        from floor import device_health
        with self.session() as s:
            return bool(device_health.at_table(s, table_number, kind))

    def line(self, kind: str, table_number: int, bridge_kw: dict | None = None, **config):
        """A bare pty read by the real reader and bridge for that table: the test writes the bytes
        (``bridge_kw``: the bridge's options, e.g. a device process held behind its line)."""
        line = self._line(kind, table_number, bridge_kw, **config)
        return line.end, line.reader

    @property
    def ends(self) -> list:
        return [line.end for line in self.lines]

    def alerts(self, table_id: int, kind: str | None = None) -> list[Alert]:
        with self.session() as s:
            q = select(Alert).where(Alert.table_id == table_id).order_by(Alert.id)
            return list(s.execute(q if kind is None else q.where(Alert.kind == kind)).scalars())

    def rounds_of(self, table_id: int) -> list[Round]:
        with self.session() as s:
            return list(s.execute(select(Round).where(Round.table_id == table_id).order_by(Round.number)).scalars())

    def close(self) -> None:
        self.app.extensions.pop("floor_devices", None)
        for line in self.lines:
            line.close()
        self.engine.dispose()

    # --- reading the floor -------------------------------------------------------------------

    def session(self) -> Session:
        return Session(self.engine)

    def active(self, table_id: int) -> Round | None:
        with self.session() as s:
            return s.execute(select(Round).where(Round.table_id == table_id,
                                                 Round.status.in_(("betting", "locked", "dealing", "result")))
                             ).scalar_one_or_none()

    def round(self, round_id: int) -> Round:
        with self.session() as s:
            return s.get(Round, round_id)

    def wait_status(self, round_id: int, *statuses: str, timeout: float = DEADLINE) -> Round:
        return wait(lambda: (r := self.round(round_id)).status in statuses and r, timeout,
                    f"round {round_id} to be {'/'.join(statuses)}")

    def wait_betting(self, table_id: int, timeout: float = DEADLINE) -> Round:
        return wait(lambda: (r := self.active(table_id)) is not None and r.status == "betting" and r, timeout,
                    f"betting at table id {table_id}")

    def cards_seen(self, table_id: int) -> int:
        """Every card the floor recorded at the table (accepted or not)."""
        with self.session() as s:
            return s.execute(select(func.count(RoundCard.id)).where(RoundCard.table_id == table_id)).scalar_one()

    def returned(self, bet_id: int) -> int:
        """What a bet handed back to its account (stake included, net of commission), from the ledger."""
        with self.session() as s:
            account = s.get(Bet, bet_id).account_id
            back = s.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
                Transfer.bet_id == bet_id, Transfer.to_account_id == account)).scalar_one()
            out = s.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
                Transfer.bet_id == bet_id, Transfer.from_account_id == account,
                Transfer.kind != "stake")).scalar_one()
            return back - out

    def commission(self, bet_id: int) -> int:
        with self.session() as s:
            return s.execute(select(func.coalesce(func.sum(Transfer.amount), 0)).where(
                Transfer.bet_id == bet_id, Transfer.kind == "commission")).scalar_one()

    def bets(self, round_id: int) -> list[Bet]:
        with self.session() as s:
            return list(s.execute(select(Bet).where(Bet.round_id == round_id).order_by(Bet.id)).scalars())

    def balance(self, player_id: int) -> int:
        with self.session() as s:
            return ledger.player_balance(s, player_id)

    def books_balance(self) -> None:
        with self.session() as s:
            check = ledger.check(s)
        assert check.ok, check

    def no_bridge_errors(self) -> None:
        for reader in self.readers:
            h = reader.health()
            assert h.sink_errors == 0, f"{reader.name}: {h.last_error}"
        assert all(b.failures == 0 for b in self.bridges)


@pytest.fixture
def rig(app, db_url, tmp_path):
    r = Rig(app, db_url, tmp_path)
    yield r
    r.close()


@pytest.fixture
def dealer(app):
    """A dealer terminal; ``dealer.at(table_number)`` logs it in at that table (PIN)."""
    t = Terminal(app.test_client())

    def at(number: int) -> Terminal:
        t.dealer(number)
        return t
    t.at = at
    return t


@pytest.fixture
def pit(app):
    """The pit boss's tablet: credits players at the cage, remote players' bets, held rounds, the books."""
    t = Terminal(app.test_client())
    t("pitboss")
    return t
