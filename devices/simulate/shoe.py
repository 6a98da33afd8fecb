"""A baccarat smart shoe speaking the Angel Eye-style protocol (DEVICES.md §2).

Deals real coups from a shuffled 8-deck shoe: ``S``, the ``D`` cards with their targets by the
tableau, ``G`` with the shoe's result; every frame three times with the same SEQ; a cut card 7
cards from the back (``C``: the coup in progress is the last one), then ``P`` standby and a new shoe.
Reads the host's ACK/NAK. Faults: bad BCC (first copy corrupted), overdraw (an extra card, then
``E 2`` and ``e``), noise, silence, unplug and replug.
"""
from __future__ import annotations

from floor.games.cards import Card, shoe as new_shoe
from devices import shoe as s
from devices import tableau as _tableau
from devices.simulate.base import Simulator


class ShoeSimulator(Simulator):
    kind = "shoe"
    TIMINGS = {"card": 1.0, "copy": 0.05, "result": 2.0, "between": 5.0, "new_shoe": 5.0}

    def __init__(self, end, *, decks: int = 8, cut_from_back: int = 7, copies: int = 3,
                 bcc_includes_start: bool = False, timings: dict | None = None,
                 silence_s: float = 3.0, **kw) -> None:
        super().__init__(end, **kw)
        self.decks, self.cut_from_back, self.copies = decks, cut_from_back, copies
        self.bcc_includes_start = bcc_includes_start
        self.timings = {**self.TIMINGS, **(timings or {})}
        self.silence_s = silence_s
        self.seq = 0
        self.acks = 0
        self.naks: list[bytes] = []
        self.coups: list[dict] = []  # what was dealt, for tests: player, banker, result
        self.shoes = 0
        self._cards: list[Card] = []
        self._cut_at = 0
        self._cut_seen = False

    def on_host_bytes(self, data: bytes) -> None:
        self.acks += data.count(bytes([s.ACK]))
        i = data.find(bytes([s.NAK]))
        while i >= 0:
            self.naks.append(data[i + 1:i + 3])
            i = data.find(bytes([s.NAK]), i + 1)

    # --- frames ---------------------------------------------------------------------------

    def frame(self, encode, *args, bad_bcc: bool = False) -> bool:
        """Send one frame ``copies`` times with the same SEQ; the next frame gets the next SEQ."""
        seq = self.seq
        self.seq = (self.seq + 1) % 10
        for copy in range(self.copies):
            data = encode(seq, *args, bcc_includes_start=self.bcc_includes_start,
                          corrupt_bcc=bad_bcc and copy == 0)
            if not self.send(data) or not self.sleep(self.timings["copy"]):
                return False
        return True

    def draw(self) -> Card:
        return self._cards.pop()

    # --- the shoe -------------------------------------------------------------------------

    def shuffle(self) -> None:
        self._cards = new_shoe(self.decks, self.rng)
        self._cut_at = self.cut_from_back  # when this many cards are left, the cut card comes out
        self._cut_seen = False
        self.shoes += 1

    def run(self) -> None:
        while not self.stopped:
            self.shuffle()
            self.frame(s.encode_simple, "P")
            burn = self.draw()  # the first card shows how many to burn (10s and faces: 10)
            self.frame(s.encode_drawn, burn)
            for _ in range(_tableau.value(burn) or 10):
                self.frame(s.encode_drawn, self.draw())
            while not self.stopped and not self._cut_seen:
                self.coup(self.round_faults())
                self.sleep(self.timings["between"])
            self.frame(s.encode_simple, "P")
            self.sleep(self.timings["new_shoe"])

    def coup(self, faults: set[str]) -> None:
        t = self.timings
        if "noise" in faults:
            self.send(self.noise())
        self.frame(s.encode_simple, "S")
        player: list[Card] = []
        banker: list[Card] = []
        while (target := _tableau.next_target(player, banker)) is not None:
            if len(self._cards) <= self._cut_at and not self._cut_seen:
                self._cut_seen = True
                self.frame(s.encode_simple, "C")
            if not self.sleep(t["card"]):
                return
            hand = player if target == "player" else banker
            card = self.draw()
            hand.append(card)
            if "unplug" in faults and len(player) + len(banker) == 3:
                self.unplug_for(self.unplug_s)
            if "silence" in faults and len(player) + len(banker) == 3:
                self._stop.wait(self.silence_s)
            self.frame(s.encode_card, target, len(hand), card,
                       bad_bcc="bad_bcc" in faults and len(player) + len(banker) == 1)
        if "overdraw" in faults:  # the dealer pulls one card too many; the shoe complains
            self.sleep(t["card"])
            self.frame(s.encode_card, "banker", min(len(banker) + 1, 3), self.draw())
            self.frame(s.encode_error, 2)
            self.sleep(t["card"])
            self.frame(s.encode_simple, "e")
        winner, pp, bp = _tableau.outcome(player, banker)
        self.sleep(t["result"])
        self.coups.append({"player": [str(c) for c in player], "banker": [str(c) for c in banker],
                           "result": (winner, pp, bp)})
        self.frame(s.encode_result, winner, pp, bp)
