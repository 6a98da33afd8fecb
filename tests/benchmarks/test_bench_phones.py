"""A thousand live clients over the two live-feed processes, in the production shape (PostgreSQL,
Redis, two live processes, one for pages and the API, the scheduler, the device process reading the
wheel of table 12 and the smart shoe of table 10):

- 800 players' phones spread over 20 waiting lists, each with the player's pass (its token in the
  auth payload, as the pass page connects), so in the room of that pass only, half on each live
  process;
- 200 staff clients (the floor's token, joined to the wheel's table), one of them the probe in this
  process whose number paces the spins.

The wheel spins and the floor changes the lists (an entry moved to the top of its list, through the
API, a few times a second), first quietly, then under the bet burst of test_bench_devices (about 30
bets a second through the API and baccarat coups dealt by a smart shoe). Printed:

- ``phones_list_update_p99_ms``: from the floor manager's request to the last phone of that list
  (and ``..._burst_``); ``..._from_redis_`` starts the clock when the change left the API process;
- ``staff_last_client_p99_ms`` / ``staff_last_client_burst_p99_ms``: from the wheel's line to the
  last of the staff clients;
- ``clients_dropped``: clients that never connected, or did not stay connected, or missed an update;
- per live process, the memory and threads it holds per client;
- ``list_change_answer_..._ms``: the floor manager's request to its answer (the pages-and-API
  process's own part of a phone's figure);
- what the host's load does not change: each part's CPU (also as a share of a core over each phase),
  the API's CPU per list change and per bet, the device process's per spin, the live processes' per
  update delivered and the bench's own clients' per update received.

The live processes' worker is what their unit runs (``FLOOR_SERVER_WORKER`` in
config/systemd/floorman-live@.service, else threads); ``BENCH_LIVE_WORKER=threads|gevent`` and
``BENCH_LIVE_THREADS`` measure another candidate (gevent needs the gevent package installed).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
import redis
import requests
import socketio
from sqlalchemy import select
from sqlalchemy.orm import Session

from devices.simulate.base import PtyEnd
from devices.wheel import encode_number, encode_status
from floor import layout
from floor import players as players_svc
from floor import staff as staff_svc
from floor.actors import Actor
from floor.models import Staff
from floor.poker import pass_feed, passes, queries, waitlist
from floor.settings import HouseSettings
from tests.benchmarks.test_bench_devices import Burst, CpuMeter, niced, _clock_first, _load, _pct
from tests.production.shape import REDIS, Floor, production_database, production_setting, unit_env
from tests.servers import ROOT

PHONES = int(os.environ.get("BENCH_PHONES", 800))
LISTS = int(os.environ.get("BENCH_LISTS", 20))
STAFF = int(os.environ.get("BENCH_STAFF", 200))
SPINS = int(os.environ.get("BENCH_PHONES_SPINS", 150))   # each phase, quiet and under the burst
LOAD_PROCESSES = int(os.environ.get("BENCH_LOAD_PROCESSES", 8))
GAP = 0.2                 # between a spin's lines: a spin a second or so, many times a real wheel
CHANGE_EVERY = 0.25       # s between two list changes (one list after the other)
BURST_RATE = 30.0
# The bench's own clients (phones, tablets, the bettors' terminals and the shoe they deal from) run at
# the lowest priority: on a floor they are devices with CPUs of their own, so on this host they take
# what the floor leaves rather than competing with it for the two cores (their CPU is still printed,
# and a client that gets its update late still counts late).
ELSEWHERE_NICE = int(os.environ.get("BENCH_CLIENTS_NICE", 19))


WORKER = os.environ.get("BENCH_LIVE_WORKER") or unit_env("floorman-live@.service", "FLOOR_SERVER_WORKER") or "threads"
THREADS = int(os.environ.get("BENCH_LIVE_THREADS") or unit_env("floorman-live@.service", "FLOOR_SERVER_THREADS")
              or production_setting("server", "threads"))


@pytest.fixture
def production_db(request):
    with production_database(request, f"fm_bench_phones_{os.getpid()}") as url:
        yield url


def _worker_pid(master: int) -> int:
    """The gunicorn worker under a live process's master (its one child)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for tid in os.listdir(f"/proc/{master}/task"):
            kids = open(f"/proc/{master}/task/{tid}/children").read().split()
            if kids:
                return int(kids[0])
        time.sleep(0.1)
    raise AssertionError(f"no worker under {master}")


def _rss_threads(pid: int) -> tuple[int, int]:
    status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]), int(status["Threads"])


def _lists(floor: Floor) -> tuple[dict[int, list[int]], dict[int, list[str]], dict[str, int], dict[str, int], str]:
    """20 poker games with 40 players on each list (entry ids in list order), each player's pass (the
    tokens, per game), the game of each pass's room, the entry of each pass's token and a floor
    manager's token."""
    actor = Actor.system("bench")
    lists: dict[int, list[int]] = {}
    tokens: dict[int, list[str]] = {}
    game_of: dict[str, int] = {}
    entry_of: dict[str, int] = {}
    with Session(floor.engine) as s:
        manager = s.execute(select(Staff).where(Staff.username == "manager")).scalar_one()
        floor_manager = Actor(name=manager.name, role=manager.role, terminal="bench", staff_id=manager.id)
        house = HouseSettings()
        games = [layout.create_game(s, actor, {"name": f"Bench NL {i + 1}", "kind": "poker", "variant": "holdem",
                                               "structure": "no_limit", "small_blind": 100, "big_blind": 200}).id
                 for i in range(LISTS)]
        s.flush()
        for i in range(PHONES):
            player = players_svc.create_player(s, actor, f"Phone Player {i + 1}", f"PH{i + 1:05d}")
            s.flush()
            game = games[i % LISTS]
            lists.setdefault(game, []).append(waitlist.add(s, actor, game, player.id).id)
            issued = passes.issue(s, floor_manager, house, player.id)
            tokens.setdefault(game, []).append(issued.token)
            game_of[pass_feed.room(issued.pass_.id)] = game
            entry_of[issued.token] = lists[game][-1]
        token = staff_svc.create_token(s, actor, "manager", "phones bench")
        s.commit()
    return lists, tokens, game_of, entry_of, token


class Changer:
    """The floor manager changing the lists: every ``CHANGE_EVERY`` s the last entry of the next
    list is moved to its top (every phone of the list sees its place change). Notes when each
    request left, per list, in the order of the list's changes."""

    def __init__(self, url: str, token: str, lists: dict[int, list[int]]) -> None:
        self.url, self.lists = url, lists
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.sent: dict[int, list[tuple[str, float]]] = {g: [] for g in lists}
        self.answered: dict[str, list[float]] = {"quiet": [], "burst": []}   # ms from the request to its answer
        self.errors: list[str] = []
        self.phase = "quiet"
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.turn = 0

    def start(self, phase: str) -> None:
        self.phase = phase
        self.stop.clear()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(60)

    def _run(self) -> None:
        games = sorted(self.lists)
        next_at = time.monotonic()
        while not self.stop.is_set():
            game = games[self.turn % len(games)]
            self.turn += 1
            order = self.lists[game]
            t0 = time.monotonic()
            resp = self.http.post(f"{self.url}/api/waitlists/entries/{order[-1]}/move",
                                  json={"to_place": 1, "reason": "bench"}, timeout=30)
            if resp.status_code == 200:
                self.sent[game].append((self.phase, t0))
                self.answered[self.phase].append((time.monotonic() - t0) * 1000)
                order.insert(0, order.pop())
            else:
                self.errors.append(f"{resp.status_code} {resp.text[:200]}")
            next_at += CHANGE_EVERY
            self.stop.wait(max(0.0, next_at - time.monotonic()))


class Tap:
    """When each list's changes left the API process for the phones (Redis): each pass's room is sent
    its own state, so a change left when the first of its list's rooms was sent it."""

    def __init__(self, channel: str, game_of: dict[str, int]) -> None:
        self.rooms: dict[str, list[float]] = {}
        self.game_of = game_of   # a pass's room -> the game of its list
        self.pubsub = redis.Redis.from_url(REDIS).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(**{channel: self._on})
        self.thread = self.pubsub.run_in_thread(sleep_time=0.05, daemon=True)

    def _on(self, message) -> None:
        try:
            data = json.loads(message["data"])
        except Exception:
            return
        if isinstance(data, dict) and data.get("event") == "pass.changed":
            rooms = data.get("room")
            at = time.monotonic()
            for room in rooms if isinstance(rooms, list) else [rooms]:
                if room in self.game_of:
                    self.rooms.setdefault(room, []).append(at)

    def left(self, game: int) -> list[float]:
        """When each change of the game's list left: the first of its rooms' sends, change by change."""
        times = [t for room, t in self.rooms.items() if self.game_of[room] == game]
        return [min(k) for k in zip(*times)] if times else []

    def stop(self) -> None:
        self.thread.stop()


def _spins(end: PtyEnd, got: threading.Event, spins: int, first: int) -> list[float]:
    """As test_bench_devices's spins (bets open, no more bets, the number, the result), at ``GAP``."""
    starts = []
    for i in range(first, first + spins):
        spin, number = i % 256 + 1, i % 37
        end.write(encode_status(2, spin, None) + encode_status(4, spin, None))
        time.sleep(GAP)
        got.clear()
        line = encode_number(number)
        end.write(line[:-1])
        starts.append(time.monotonic())
        end.write(line[-1:])            # the clock starts at the last byte of the line
        if not got.wait(10):
            raise AssertionError(f"spin {i}: no number at the probe within 10 s")
        end.write(encode_status(5, spin, number))
        time.sleep(GAP)
    return starts


@pytest.mark.timeout(1800)
def test_thousand_live_clients(production_db, tmp_path):
    end = PtyEnd(link=str(tmp_path / "usb-wheel-12"))
    shoe_link = str(tmp_path / "usb-shoe-10")
    floor = Floor(production_db, tmp_path, REDIS, devices={"wheel-12": end.path, "shoe-10": shoe_link},
                  api_webs=1, FLOOR_HOUSE_BETTING_SECONDS="30")
    for web in floor.webs:                    # the live feed's processes, on the worker measured
        web.env.update(FLOOR_SERVER_WORKER=WORKER, FLOOR_SERVER_THREADS=str(THREADS))
    if WORKER == "gevent":
        pytest.importorskip("gevent", reason="the gevent worker needs the gevent package")
    lists, pass_tokens, game_of, entry_of, manager_token = _lists(floor)
    opened = {g: list(order) for g, order in lists.items()}    # what each page showed when opened
    urls = [w.url for w in floor.webs]
    burst = loads = probe = tap = None
    try:
        burst = Burst([w.url for w in floor.api_webs], floor.token, shoe_link, ELSEWHERE_NICE)
        floor.start()
        table = floor.table_id(12)
        workers = [_worker_pid(w.pid) for w in floor.webs]
        before = [_rss_threads(p) for p in workers]

        # the probe first (the spins wait for its number), then the others
        got, arrivals, probe_dropped = threading.Event(), [], []
        with _clock_first():
            probe = socketio.Client(reconnection=False)
            probe.on("device.wheel.number", lambda data: (arrivals.append(time.monotonic()), got.set()),
                     namespace="/live")
            probe.on("disconnect", lambda *_: probe_dropped.append(1), namespace="/live")
            probe.connect(urls[0], namespaces=["/live"], auth={"token": floor.token}, transports=["websocket"],
                          wait_timeout=30)
            probe.call("join_table", {"table_id": table}, namespace="/live", timeout=30)
            tap = Tap(floor.channel, game_of)
        # the clients: each load process a share of every list's phones and of the staff, on one live process
        phones = [(t, g) for g, tokens in pass_tokens.items() for t in tokens]
        share = [{"url": urls[i % len(urls)], "api": floor.api_webs[0].url, "token": floor.token, "table_id": table,
                  "phones": phones[i::LOAD_PROCESSES],
                  "staff": (STAFF - 1) // LOAD_PROCESSES + (i < (STAFF - 1) % LOAD_PROCESSES)}
                 for i in range(LOAD_PROCESSES)]
        per_web = [sum(len(s["phones"]) + s["staff"] for s in share if s["url"] == u) for u in urls]
        per_web[0] += 1   # the probe
        connecting = time.monotonic()
        loads = [subprocess.Popen([*niced(ELSEWHERE_NICE), sys.executable, "-m", "tests.benchmarks.phones_load", json.dumps(s)], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
                 for s in share]
        for load in loads:
            assert load.stdout.readline().strip() == "ready", "a load process died while connecting"
        connect_s = time.monotonic() - connecting
        after = [_rss_threads(p) for p in workers]
        meter = CpuMeter({"live": [w.pid for w in floor.webs], "api": [w.pid for w in floor.api_webs],
                          "devices": [floor.devices.pid], "clients": [p.pid for p in loads],
                          "bettors": [burst.proc.pid]})
        changer = Changer(floor.api_webs[0].url, manager_token, lists)

        load_quiet, cpu, phase_at = _load(), [meter.snapshot()], [time.monotonic()]
        changer.start("quiet")
        starts = _spins(end, got, SPINS, 0)
        changer.finish()
        cpu.append(meter.snapshot())
        phase_at.append(time.monotonic())
        burst.go()
        changer.start("burst")
        starts += _spins(end, got, SPINS, SPINS)
        changer.finish()
        cpu.append(meter.snapshot())
        phase_at.append(time.monotonic())
        load_burst = _load()
        done = burst.stop()
        burst = None
        sent = {"spins": len(starts), "changes": {str(g): len(v) for g, v in changer.sent.items()}}
        reports = []
        for load in loads:
            load.stdin.write(json.dumps(sent) + "\n")
            load.stdin.flush()
            reports.append(json.loads(load.stdout.readline()))
        probe_connected = probe.connected and not probe_dropped
        probe.disconnect()
        tap.stop()
        with Session(floor.engine) as s:   # the lists as they are in the end
            truth = {g: [e.id for e in queries.open_entries(s, g)] for g in lists}
    finally:
        if burst is not None:
            burst.proc.kill()
        for load in loads or []:
            if load.poll() is None:
                load.kill()
        floor.stop()
        end.close()

    # the staff: per spin, when its number reached the last staff client
    staff_lists = [arrivals] + [mine for r in reports for mine in r["staff"]]
    missed = sum(max(0, len(starts) - len(mine)) for mine in staff_lists)
    staff_ms = {"quiet": [], "burst": []}
    for k, t0 in enumerate(starts):
        got_k = [mine[k] for mine in staff_lists if len(mine) > k]
        if got_k:
            staff_ms["quiet" if k < SPINS else "burst"].append((max(got_k) - t0) * 1000)
    # the phones: per list change, when it reached the last phone of that list
    phones_ms = {"quiet": [], "burst": []}
    from_redis = {"quiet": [], "burst": []}
    for game, sent_at in changer.sent.items():
        game_phones = [mine for r in reports for mine in r["phones"].get(str(game), [])]
        missed += sum(max(0, len(sent_at) - len(mine)) for mine in game_phones)
        left = tap.left(game)
        for j, (phase, t0) in enumerate(sent_at):
            got_j = [mine[j] for mine in game_phones if len(mine) > j]
            if got_j:
                phones_ms[phase].append((max(got_j) - t0) * 1000)
                if j < len(left):
                    from_redis[phase].append((max(got_j) - left[j]) * 1000)
    # every phone's last state says its true place (a stale or wrong state fails the bench)
    assert truth == changer.lists, "the floor's lists are not as the changes left them"
    shown = {t: p for r in reports for t, p in r["places"].items()}
    wrong = [(t[:6], shown.get(t, opened[g].index(e) + 1), truth[g].index(e) + 1)
             for g, tokens in pass_tokens.items() for t in tokens for e in [entry_of[t]]
             if shown.get(t, opened[g].index(e) + 1) != truth[g].index(e) + 1]
    fetched = sum(r["asked"] for r in reports)
    connected = sum(r["connected"] for r in reports) + probe_connected
    expected = PHONES + STAFF
    clients_dropped = expected - connected
    rate = (done["placed"] + done["refused"]) / done["seconds"]
    quiet_cpu, burst_cpu = meter.spent(cpu[0], cpu[1]), meter.spent(cpu[1], cpu[2])

    label = f"{WORKER}" + (f", {THREADS} threads" if WORKER == "threads" else "")
    print(f"\nlive_worker: {label}   ({len(urls)} live processes; {PHONES} phones on {LISTS} lists, {STAFF} staff)")
    print(f"bench_clients_nice: {ELSEWHERE_NICE}   (the clients, bettors and shoe: devices of their own on a floor)")
    print(f"clients_connected: {connected} of {expected}   (all connected in {connect_s:.1f} s; "
          f"never connected: {sum(r['failed'] for r in reports)} {[r['failed_why'] for r in reports if r['failed']][:1]})")
    for name, pid, (rss0, th0), (rss1, th1), n in zip(("web-a", "web-b"), workers, before, after, per_web):
        print(f"live_memory_per_client_kb: {(rss1 - rss0) / n:.0f}   ({name}: {n} clients, {rss0 // 1024} -> "
              f"{rss1 // 1024} MB)")
        print(f"live_threads_per_client: {(th1 - th0) / n:.2f}   ({name}: {th0} -> {th1} threads)")
    for phase, load in (("quiet", load_quiet), ("burst", load_burst)):
        tag = "" if phase == "quiet" else "_burst"
        if phones_ms[phase]:
            print(f"phones_list_update{tag}_p50_ms: {_pct(phones_ms[phase], 50):.1f}   "
                  f"({len(phones_ms[phase])} changes, the last of {PHONES // LISTS} phones; {load})")
            print(f"phones_list_update{tag}_p99_ms: {_pct(phones_ms[phase], 99):.1f}")
        if len(from_redis[phase]) > 1:
            print(f"phones_list_update_from_redis{tag}_p99_ms: {_pct(from_redis[phase], 99):.1f}   "
                  f"(from the change leaving the API process)")
        print(f"staff_last_client{tag}_p50_ms: {_pct(staff_ms[phase], 50):.1f}   "
              f"({len(staff_ms[phase])} spins, the last of {STAFF} staff clients; {load})")
        print(f"staff_last_client{tag}_p99_ms: {_pct(staff_ms[phase], 99):.1f}")
    print(f"first_staff_client_burst_p99_ms: "
          f"{_pct([(arrivals[k] - t0) * 1000 for k, t0 in enumerate(starts) if k >= SPINS and k < len(arrivals)], 99):.1f}")
    for part in ("live", "api", "devices", "clients", "bettors"):
        print(f"cpu_s_{part}: {quiet_cpu[part]:.1f} quiet, {burst_cpu[part]:.1f} under the burst   "
              f"({quiet_cpu[part] / (phase_at[1] - phase_at[0]) * 100:.0f} % / "
              f"{burst_cpu[part] / (phase_at[2] - phase_at[1]) * 100:.0f} % of a core)")
    for phase, tag in (("quiet", ""), ("burst", "_burst")):
        if changer.answered[phase]:
            print(f"list_change_answer{tag}_p99_ms: {_pct(changer.answered[phase], 99):.1f}   (p50 "
                  f"{_pct(changer.answered[phase], 50):.1f}: the floor manager's request to its answer)")
    # what each operation costs its process, whatever else the host runs: the quiet phase's API does
    # nothing but the list changes; under the burst, what it spent beyond them went to the bets (and
    # the dealer's coups)
    changes = {phase: len(changer.answered[phase]) for phase in ("quiet", "burst")}
    per_change = quiet_cpu["api"] / max(changes["quiet"], 1)
    bets = done["placed"] + done["refused"]
    print(f"api_cpu_ms_per_list_change: {per_change * 1000:.1f}   ({changes['quiet']} changes)")
    print(f"api_cpu_ms_per_bet: {(burst_cpu['api'] - per_change * changes['burst']) * 1000 / max(bets, 1):.1f}   "
          f"({bets} bets and {done['coups']} coups)")
    print(f"devices_cpu_ms_per_spin: {quiet_cpu['devices'] * 1000 / SPINS:.1f}   (quiet)")
    print(f"phase_s: {phase_at[1] - phase_at[0]:.0f} quiet, {phase_at[2] - phase_at[1]:.0f} under the burst")
    delivered = sum(r["received"] for r in reports)
    live_cpu = quiet_cpu["live"] + burst_cpu["live"]
    print(f"live_cpu_us_per_update_delivered: {live_cpu * 1e6 / max(delivered, 1):.0f}   ({delivered} updates to the "
          f"load clients, {live_cpu:.1f} CPU s in the live processes: what the host's load does not change)")
    clients_cpu = quiet_cpu["clients"] + burst_cpu["clients"]
    print(f"clients_cpu_us_per_update_received: {clients_cpu * 1e6 / max(delivered, 1):.0f}   (the bench's own "
          f"clients: a floor's phones and tablets are devices of their own)")
    print(f"machine_busy_pct: {quiet_cpu['machine_busy'] * 100:.0f}   (under the burst: "
          f"{burst_cpu['machine_busy'] * 100:.0f}; two cores)")
    print(f"burst_bets_per_s: {rate:.1f}   (asked {BURST_RATE:.0f}); list changes: "
          f"{sum(map(len, changer.sent.values()))}, refused: {changer.errors[:2]}")
    print(f"updates_missed: {missed}")
    print(f"phones_wrong_place: {len(wrong)}   {wrong[:3]}")
    print(f"phone_states_fetched: {fetched}   (GETs of a pass's state after an update that carried none)")
    print(f"clients_dropped: {clients_dropped}")
    if os.environ.get("BENCH_VERBOSE"):
        print("dropped at (s):", [r["dropped_at_s"] for r in reports])
    assert not changer.errors, changer.errors[:3]
    assert done["coups"] >= 1 and done["placed"] >= 1 and not done["errors"], done
    assert clients_dropped == 0 and missed == 0, (clients_dropped, missed)
    assert not wrong, wrong[:5]
