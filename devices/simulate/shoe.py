"""A baccarat smart shoe speaking the Angel Eye-style protocol (docs/protocols.md, "The baccarat smart shoe").

Deals real coups from a shuffled 8-deck shoe: ``S``, the ``D`` cards with their targets by the
tableau, ``G`` with the shoe's result; every frame three times with the same SEQ; a cut card 7
cards from the back (``C``: the coup in progress is the last one), then ``P`` standby and a new shoe.
Reads the host's ACK/NAK and its commands (``STX 'O' 'P' <type> <nn> ETX BCC``). Faults: bad BCC
(first copy corrupted), overdraw (an extra card, then ``E 2`` and ``e``), noise, silence, unplug
and replug.

``paced=True`` follows the dealer instead of dealing by itself: a shoe starts (shuffle, ``P``, the
burn) only once the game is confirmed (the host's ``GP 00``, or ``confirm()``), and each coup only
when the dealer deals it (``deal_coup()``), as a real dealer draws the first card once betting is
closed. After the cut card's coup the shoe waits for the next confirmation.
"""
from __future__ import annotations

import threading

from devices import shoe as s
from devices.simulate.base import Simulator
from floor.games import baccarat
from floor.games.cards import Card
from floor.games.cards import shoe as new_shoe


class ShoeSimulator(Simulator):
    kind = "shoe"
    TIMINGS = {"card": 1.0, "copy": 0.05, "result": 2.0, "between": 5.0, "new_shoe": 5.0}

    def __init__(self, end, *, decks: int = 8, cut_from_back: int = 7, copies: int = 3,
                 bcc_includes_start: bool = False, timings: dict | None = None,
                 silence_s: float = 3.0, paced: bool = False, **kw) -> None:
        super().__init__(end, **kw)
        self.paced = paced
        self._go = threading.Event()           # the dealer asked for the next coup (paced): asked twice, one coup
        self._confirmed = threading.Event()    # the game was confirmed for the next shoe (paced)
        self._cmd = bytearray()                # a host command being received
        self.commands: list[str] = []          # host commands received, e.g. "GP00"
        self.waiting = False                   # paced: waiting for the dealer (a coup or a confirmation)
        self.decks, self.cut_from_back, self.copies = decks, cut_from_back, copies
        self.bcc_includes_start = bcc_includes_start
        self.timings = {**self.TIMINGS, **(timings or {})}
        self.silence_s = silence_s
        self.seq = 0
        self.acks = 0
        self.naks: list[bytes] = []
        self.coups: list[dict] = []  # what was dealt, for tests: player, banker, result
        self.coups_done = 0          # coups whose result frame has gone out: the dealer knows the coup is over
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
        for b in data:
            if b == s.STX:
                self._cmd = bytearray([b])
            elif self._cmd:
                self._cmd.append(b)
                if len(self._cmd) >= 3 and self._cmd[-3] == s.ETX:
                    self._command(bytes(self._cmd))
                    self._cmd = bytearray()
                elif len(self._cmd) > 12:
                    self._cmd = bytearray()

    def _command(self, raw: bytes) -> None:
        body = raw[1:-2]   # 'O' 'P' type nn ETX
        try:
            value = int(raw[-2:].decode("ascii"), 16)
        except ValueError:
            return
        if value not in (s.bcc(body), s.bcc(body, s.STX)) or not body.startswith(b"OP"):
            return
        cmd = body[2:-1].decode("ascii", "replace")
        self.commands.append(cmd)
        if cmd == "GP00":
            self._confirmed.set()

    # --- the dealer (paced) ----------------------------------------------------------------

    def deal_coup(self) -> None:
        """The dealer deals the next coup (paced). Asking again before it has started deals it once,
        as a dealer draws one coup at a time."""
        self._go.set()

    @property
    def idle(self) -> bool:
        """Paced: nothing more comes from the shoe until the dealer deals (or confirms a shoe), as the
        on-demand scanner says it has sent all it was asked for."""
        return self.waiting and not self._go.is_set()

    def confirm(self) -> None:
        """The game is confirmed for a new shoe, as the host's ``GP 00`` does (paced)."""
        self._confirmed.set()

    def _wait_for(self, ready) -> bool:
        """Paced: wait (answering the host) until ``ready()``; False once stopped."""
        self.waiting = True
        try:
            while not self.stopped:
                if ready():
                    return True
                self.sleep(0.05 * self.speed)
            return False
        finally:
            self.waiting = False

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
            if self.paced:
                if not self._wait_for(self._confirmed.is_set):
                    return
                self._confirmed.clear()
            self.shuffle()
            self.frame(s.encode_simple, "P")
            burn = self.draw()  # the first card shows how many to burn (10s and faces: 10)
            self.frame(s.encode_drawn, burn)
            for _ in range(baccarat.card_value(burn) or 10):
                self.frame(s.encode_drawn, self.draw())
            while not self.stopped and not self._cut_seen:
                if self.paced:
                    if not self._wait_for(self._go.is_set):
                        return
                    self._go.clear()
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
        dealt: list[Card] = []   # in shoe order, as floor.games.baccarat reads a coup
        while (target := baccarat.next_target(dealt)) is not None:
            if len(self._cards) <= self._cut_at and not self._cut_seen:
                self._cut_seen = True
                self.frame(s.encode_simple, "C")
            if not self.sleep(t["card"]):
                return
            hand = player if target == "player" else banker
            card = self.draw()
            hand.append(card)
            dealt.append(card)
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
        played = baccarat.play(dealt)
        winner, pp, bp = played.winner, played.player_pair, played.banker_pair
        self.sleep(t["result"])
        self.coups.append({"cards": [str(c) for c in dealt],
                           "player": [str(c) for c in player], "banker": [str(c) for c in banker],
                           "result": (winner, pp, bp)})
        self.frame(s.encode_result, winner, pp, bp)
        self.coups_done += 1
