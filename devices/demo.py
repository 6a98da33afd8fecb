"""The demo floor's dealers: what a person at each live-game table would do, so that the demo plays
real rounds through the real device path unattended (only with simulated devices).

A dealer here does only what a dealer does at the terminal, through the same services the dealer
terminal calls (floor.rounds, floor.rounds.bets), and with his hands on the simulated device:

- roulette: the wheel drives its own rounds; the dealer enters a few seat bets while it asks for bets;
- baccarat: confirms a new shoe when the last one is finished (the game is confirmed to the shoe with
  ``GP 00``), opens betting, enters seat bets, then deals the coup from the paced shoe simulator
  (its ``S`` closes betting; its ``D`` and ``G`` frames decide the coup);
- blackjack and Casino Hold'em: opens betting, enters seat bets, calls "no more bets", then passes
  the cards the round asks for over the on-demand scanner simulator and enters the players'
  decisions by a simple policy after a moment's thought (the rounds' decision timers would stand
  or fold for them anyway).

Bets are seat bets funded by the chips on the table, as the dealer terminal enters them, so the
ledger shows every settlement. The floor lives as well: at start the demo's dealers are clocked in
and sent to the tables, and demo players are identified at seats by their player cards; the seat
bets go mostly to those seats (so ratings build up); now and then a player leaves and another sits
down, and a dealer due for his break is relieved as the rotation plans it (``floor.dealers``). At start, rounds left open by an earlier run of the demo are voided
(the pit boss's move: the simulators start afresh, so those rounds can never finish).
"""
from __future__ import annotations

import logging
import random
import threading
import time
from datetime import datetime, timezone
from typing import Callable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from devices.simulate.scanner import total, wants_hit
from floor import dealers, rounds
from floor.actors import Actor
from floor.errors import Conflict, FloorError, InvalidState
from floor.games import roulette
from floor.games.cards import Card
from floor.models import Player, PlayerVisit, Round, RoundCard, Staff, Table
from floor.pit import visits
from floor.rounds import bets
from floor.settings import HouseSettings

log = logging.getLogger(__name__)
ENDED = ("settled", "voided", "held")


class DemoDealer:
    # seconds at speed 1: betting, a player's thought, a pause after a round, a coup's longest wait
    TIMINGS = {"betting": 8.0, "think": 1.5, "between": 3.0, "stuck": 90.0, "life": 30.0}
    SEATED = 3   # players identified at each table at start

    def __init__(self, session_factory: Callable[[], Session], house: HouseSettings, sims: dict[int, object], *,
                 speed: float = 1.0, confirm_shoe: Callable[[int], object] | None = None,
                 seed: int | None = None, timings: dict | None = None) -> None:
        """``sims`` maps a table number to the simulator on its device line."""
        self.factory = session_factory
        self.house = house
        self.sims = dict(sims)
        self.speed = max(float(speed or 1.0), 0.01)
        self.confirm_shoe = confirm_shoe
        self.rng = random.Random(seed)
        self.timings = {**self.TIMINGS, **(timings or {})}
        self.started_at = datetime.now(timezone.utc)
        self.rounds_opened = 0
        self._bets_in: dict[int, int] = {}   # roulette: the round the dealer last bet on, per table
        self._shoe: dict[int, int] = {}      # baccarat: the shoe confirmed to the simulator, per table
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._life_at: dict[int, float] = {}   # when each table's floor life last moved
        self._tables: dict[int, Table] | None = None

    # --- running ----------------------------------------------------------------------------

    def prepare(self) -> "DemoDealer":
        """Void what an earlier run left open and staff the tables: called before the devices start,
        so that every round a device opens has its dealer."""
        with self.factory() as s:
            self._tables = {t.number: t for t in s.execute(select(Table).where(Table.number.in_(list(self.sims))))
                            .scalars()}
            self._void_leftovers(s, self._tables)
            self._staff_and_seat(s, self._tables)
        return self

    def start(self) -> "DemoDealer":
        if self._tables is None:
            self.prepare()
        tables = self._tables
        for number, table in sorted(tables.items()):
            play = {"roulette": self._roulette, "baccarat": self._baccarat, "blackjack": self._cards,
                    "casino_holdem": self._cards}.get(table.kind)
            if play is None:
                continue
            t = threading.Thread(target=self._run, args=(play, table.id, number), name=f"demo-dealer-{number}",
                                 daemon=True)
            self._threads.append(t)
            t.start()
        log.info("demo dealers at tables %s", ", ".join(str(n) for n in sorted(tables)))
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout)

    def wait(self, seconds: float) -> bool:
        """Sleep ``seconds / speed``; False once stopped."""
        return not self._stop.wait(seconds / self.speed)

    def _run(self, play, table_id: int, number: int) -> None:
        actor = Actor("Demo Dealer", "dealer", f"demo-table-{number}", table_id=table_id)
        while not self._stop.is_set():
            try:
                play(actor, table_id, number)
                self._life(table_id, number)
            except Exception:   # a dealer carries on: log it, take a breath, look at the table again
                log.exception("demo dealer at table %s", number)
                self.wait(self.timings["between"])

    def _void_leftovers(self, s: Session, tables: dict[int, Table]) -> None:
        pit = Actor("Demo Pit Boss", "pit_boss", "demo")
        for table in tables.values():
            r = rounds.active_round(s, table.id)
            if r is not None and r.status != "result" and r.opened_at < self.started_at:
                rounds.void_round(s, pit, r.id, "the demo floor restarted mid-round", house=self.house)
                log.info("demo: voided round %s left open at table %s", r.number, table.number)
        s.commit()

    # --- the floor's life: dealers on the rotation, players at the seats ----------------------

    def _staff_and_seat(self, s: Session, tables: dict[int, Table]) -> None:
        pit, now = Actor("Demo Pit Boss", "pit_boss", "demo"), datetime.now(timezone.utc)
        staff = list(s.execute(select(Staff.id).where(Staff.role == "dealer", Staff.active.is_(True))
                               .order_by(Staff.id)).scalars())
        free = [d for d in staff if dealers.current_table(s, d) is None]
        for table in sorted((t for t in tables.values() if t.status == "open"), key=lambda t: t.number):
            if dealers.current_dealer(s, table.id) is None and free:
                dealers.take_table(s, pit, free.pop(0), table.id, now, how="relief")
        for d in free:
            if not dealers.is_clocked_in(s, d):
                dealers.clock_in(s, pit, d, now)
        s.commit()
        for table in tables.values():
            while table.kind in visits.LIVE_GAMES and len(visits.seated(s, table.id)) < min(self.SEATED, table.seat_count):
                if not self._sit_down(s, table, now):
                    break
        s.commit()

    def _sit_down(self, s: Session, table: Table, now: datetime) -> bool:
        """A demo player nobody has seated yet shows his card at a free seat."""
        busy = set(s.execute(select(PlayerVisit.player_id).where(PlayerVisit.ended_at.is_(None))).scalars())
        cards = [c for i, c in s.execute(select(Player.id, Player.card_number).order_by(Player.id).limit(24))
                 if i not in busy]
        taken = {v.visit.seat for v in visits.seated(s, table.id)}
        seats = [n for n in range(1, table.seat_count + 1) if n not in taken]
        if not cards or not seats:
            return False
        visits.identify(s, Actor("Demo Dealer", "dealer", f"demo-table-{table.number}", table_id=table.id), table.id,
                        self.rng.choice(seats), card_number=self.rng.choice(cards), at=now)
        return True

    def _life(self, table_id: int, number: int) -> None:
        """Every so often: relieve a dealer due for his break, and let a player go and another come."""
        last = self._life_at.get(number, 0.0)
        if time.monotonic() - last < self.timings["life"] / self.speed:
            return
        self._life_at[number] = time.monotonic()
        now = datetime.now(timezone.utc)
        with self.factory() as s:
            try:
                row = dealers.table_dealer(s, table_id, self.house, now)
                if row.incoming_id and row.relief_at and row.relief_at <= now:
                    dealers.take_table(s, Actor("Demo Pit Boss", "pit_boss", "demo"), row.incoming_id, table_id, now)
                table = s.get(Table, table_id)
                seated = visits.seated(s, table_id)
                if seated and self.rng.random() < 0.2:
                    visits.leave(s, Actor("Demo Dealer", "dealer", f"demo-table-{number}", table_id=table_id),
                                 table_id, self.rng.choice(seated).visit.seat, at=now)
                    self._sit_down(s, table, now)
                s.commit()
            except FloorError as exc:   # another table's dealer moved the same person just now
                s.rollback()
                log.info("demo floor at table %s: %s", number, exc)

    def _seat(self, s: Session, table: Table) -> int:
        """Where the next seat bet goes: mostly a seat with a player identified at it."""
        seated = [v.visit.seat for v in visits.seated(s, table.id)]
        if seated and self.rng.random() < 0.85:
            return self.rng.choice(seated)
        return self.rng.randint(1, table.seat_count)

    # --- helpers ----------------------------------------------------------------------------

    def _active(self, table_id: int) -> Round | None:
        with self.factory() as s:
            return rounds.active_round(s, table_id, lock=False)

    def _status(self, round_id: int) -> str:
        with self.factory() as s:
            return s.get(Round, round_id).status

    def _cards_seen(self, table_id: int) -> int:
        with self.factory() as s:
            return s.execute(select(func.count(RoundCard.id)).where(RoundCard.table_id == table_id)).scalar_one()

    def _until_ended(self, round_id: int, limit: float) -> str:
        deadline = time.monotonic() + limit / self.speed
        status = self._status(round_id)
        while status not in ENDED and time.monotonic() < deadline and self.wait(0.25):
            status = self._status(round_id)
        return status

    def _commit(self, s: Session, out) -> None:
        """Commit the move, then settle in its own transaction when the round got its result (as
        the terminal's API does)."""
        rounds.commit_then_settle(s, out, house=self.house)

    def _amount(self, table: Table, choices=(1_000, 2_000, 2_500, 5_000)) -> int:
        lo, hi = table.game.min_bet or 100, table.game.max_bet or 10_000
        return min(max(self.rng.choice(choices), lo), hi)

    def _place(self, s: Session, actor: Actor, table: Table, spot: str, seat: int, numbers=None) -> None:
        try:
            with s.begin_nested():
                bets.place(s, actor, table.id, spot=spot, amount=self._amount(table), seat=seat, numbers=numbers,
                           source="dealer", house=self.house)
        except FloorError as exc:   # late, over a limit...: the dealer hands the chips back
            log.info("demo bet refused at table %s: %s", table.number, exc)

    def _open(self, actor: Actor, table_id: int) -> Round | None:
        with self.factory() as s:
            try:
                r = rounds.open_betting(s, actor, table_id, house=self.house)
                s.commit()
            except (Conflict, InvalidState) as exc:
                s.rollback()
                log.info("demo: cannot open betting at table id %s: %s", table_id, exc)
                return None
        self.rounds_opened += 1
        return r

    # --- roulette: the wheel runs the round -------------------------------------------------

    def _roulette(self, actor: Actor, table_id: int, number: int) -> None:
        r = self._active(table_id)
        if r is None or r.status != "betting" or r.id == self._bets_in.get(number):
            self.wait(0.25)
            return
        self._bets_in[number] = r.id
        self.wait(self.timings["think"])
        layout = roulette.all_bets()
        with self.factory() as s:
            table = s.get(Table, table_id)
            for _ in range(self.rng.randint(2, 4)):
                b = self.rng.choice(layout if self.rng.random() < 0.5 else
                                    [x for x in layout if x.kind in ("red", "black", "odd", "even", "dozen", "column")])
                self._place(s, actor, table, b.kind, self._seat(s, table), list(b.numbers))
            s.commit()

    # --- baccarat: the paced shoe -----------------------------------------------------------

    def _baccarat(self, actor: Actor, table_id: int, number: int) -> None:
        sim = self.sims[number]
        r = self._active(table_id)
        if r is not None:
            # a round already running (the betting timer closed it, or the coup is under way)
            if r.status == "betting":
                sim.deal_coup()
            self._until_coup_over(r.id, sim)
            return
        with self.factory() as s:
            shoe = rounds.current_shoe(s, table_id)
            if shoe is None or shoe.status == "finished" or number not in self._shoe:
                # a new shoe: the dealer confirms it, and the shoe hears "confirm game" (GP 00)
                shoe = rounds.new_shoe(s, actor, table_id, house=self.house)
                s.commit()
                self._shoe[number] = shoe.number
                if self.confirm_shoe is not None:
                    self.confirm_shoe(number)
                else:
                    sim.confirm()
                self.wait(self.timings["think"])
                return
        r = self._open(actor, table_id)
        if r is None:
            self.wait(self.timings["between"])
            return
        self.wait(self.timings["think"])
        with self.factory() as s:
            table = s.get(Table, table_id)
            for _ in range(self.rng.randint(2, 4)):
                spot = self.rng.choice(("player", "banker", "player", "banker", "tie", "player_pair", "banker_pair"))
                self._place(s, actor, table, spot, self._seat(s, table))
            s.commit()
        self.wait(self.timings["betting"])
        sim.deal_coup()   # the first card out of the shoe: its S frame closes betting
        self._until_coup_over(r.id, sim)
        self.wait(self.timings["between"])

    def _until_coup_over(self, round_id: int, sim) -> None:
        """Wait for the coup's round to end, for as long as the shoe is still dealing it (a loaded host
        reads it late, never wrongly). Only once the shoe has sent everything and the round still has
        not ended after the "stuck" time is it given up: a round voided while its cards were still
        coming would turn them into strays."""
        idle_since = None
        while self._status(round_id) not in ENDED and self.wait(0.25):
            if not sim.idle:
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > self.timings["stuck"] / self.speed:
                self._give_up(round_id, "the coup never completed")
                return

    def _give_up(self, round_id: int, reason: str) -> None:
        """A round the demo cannot finish (a device lost, a restart): the pit boss voids it. Not when
        the demo is stopping: the round is left for the next start."""
        if self._stop.is_set():
            return
        with self.factory() as s:
            try:
                rounds.void_round(s, Actor("Demo Pit Boss", "pit_boss", "demo"), round_id, f"demo: {reason}",
                                  house=self.house)
                s.commit()
                log.warning("demo: voided round id %s: %s", round_id, reason)
            except InvalidState:
                s.rollback()

    # --- blackjack and Casino Hold'em: the on-demand scanner ---------------------------------

    def _cards(self, actor: Actor, table_id: int, number: int) -> None:
        sim = self.sims[number]
        r = self._active(table_id)
        if r is None:
            r = self._open(actor, table_id)
            if r is None:
                self.wait(self.timings["between"])
                return
            self.wait(self.timings["think"])
            with self.factory() as s:
                table = s.get(Table, table_id)
                seats = {self._seat(s, table) for _ in range(self.rng.randint(1, 3))}
                for seat in sorted(seats):
                    if table.kind == "blackjack":
                        self._place(s, actor, table, "bet", seat)
                    else:
                        self._place(s, actor, table, "ante", seat)
                        if self.rng.random() < 0.4:
                            self._place(s, actor, table, "aa_bonus", seat)
                s.commit()
            self.wait(self.timings["betting"])
            with self.factory() as s:
                try:
                    rounds.close_betting(s, actor, table_id, round_id=r.id)   # "no more bets"
                    s.commit()
                except FloorError:
                    s.rollback()
            sim.new_hand()
            return
        if r.status == "betting":
            if (datetime.now(timezone.utc) - r.opened_at).total_seconds() > 2 * self.timings["betting"] / self.speed:
                with self.factory() as s:
                    rounds.close_betting(s, actor, table_id, round_id=r.id)
                    s.commit()
                sim.new_hand()
            else:
                self.wait(0.25)
            return
        if r.status != "dealing":
            if self._until_ended(r.id, self.timings["stuck"]) in ENDED:
                self.wait(self.timings["between"])
            return
        with self.factory() as s:
            view = rounds.shown_flow(s, s.get(Round, r.id), self.house) or {}
        expecting = view.get("expecting") or []
        if not expecting:
            self.wait(0.25)
            return
        if expecting[0] == "card":
            seen = self._cards_seen(table_id)
            sim.deal(None)   # the next card over the reader
            deadline = time.monotonic() + 5.0 + 2 * sim.timings["card"] / sim.speed
            while self._cards_seen(table_id) == seen and time.monotonic() < deadline and self.wait(0.05):
                pass
            return
        if expecting[0] in ("decision", "insurance"):
            self.wait(self.timings["think"])
            with self.factory() as s:
                cur = s.get(Round, r.id)
                if cur.status != "dealing" or cur.steps != r.steps:
                    return   # somebody (the decision timer) answered meanwhile
                try:
                    for seat, action in self._decisions(r.kind, view):
                        out = rounds.decide(s, actor, table_id, seat, action, house=self.house)
                        self._commit(s, out)
                except FloorError as exc:
                    s.rollback()
                    log.info("demo decision at table %s refused: %s", number, exc)
            return
        self.wait(0.25)

    def _decisions(self, kind: str, view: dict) -> list[tuple[int, str]]:
        """A player's simple play: basic-ish blackjack, Casino Hold'em calls with anything decent."""
        expecting = view["expecting"]
        if kind == "casino_holdem":
            out = []
            for seat in expecting[1]:
                cards = [Card.parse(c) for c in view["seats"][str(seat)]["cards"]]
                good = (cards[0].rank == cards[1].rank or max(c.rank for c in cards) >= 10
                        or cards[0].suit == cards[1].suit)
                out.append((seat, "call" if good or self.rng.random() < 0.3 else "fold"))
            return out
        if expecting[0] == "insurance":
            return [(expecting[1], "no_insurance")]
        seat, hand_no = expecting[1], expecting[2]
        options = view.get("options") or []
        hand = [Card.parse(c) for c in view["seats"][str(seat)]["hands"][hand_no - 1]["cards"]]
        up = Card.parse(view["dealer"][0])
        up_value = total([up])
        if "split" in options and hand[0].rank in (14, 8):
            return [(seat, "split")]
        if "double" in options and total(hand) in (10, 11) and up_value < 10:
            return [(seat, "double")]
        return [(seat, "hit" if wants_hit(hand, up) else "stand")]
