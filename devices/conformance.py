"""A device's conformance to its protocol, judged from the bytes of its line, pure (no port, no
database): what ``flask floor devices check`` reports.

Feed it the chunks of one line with their times (``feed(t, data)``, ``b""`` when the port was
(re)opened), the way the reader reads them, then ask for the ``report()``: the frames decoded by
type, the refused frames by reason (checksum, framing, sequence, impossible card, noise), the line
speed and framing that fit when the configured ones do not, the gaps and repeats, the heartbeat's
regularity, and for a wheel or a shoe whether a whole spin or coup was seen and would settle. The
decoders are the reader's own (``devices.protocols.new_decoder``).
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from devices.config import DeviceConfig
from devices.events import FrameError
from devices.protocols import new_decoder
from devices.replay import feed as feed_decoder
from devices.scanner import CardInNoise, CardRead, PlayerCardRead
from devices.shoe import ENQ, CardDealt, CoupStart, Reply, SeqReused, ShoeResult, Standby
from devices.uart import COMMON_SPEEDS, FRAMINGS, Line, garble
from devices.wheel import WheelStatus, WinningNumber
from floor.games import baccarat
from floor.games.cards import Card

CATEGORIES = ("checksum", "framing", "sequence", "impossible card", "noise")
_IMPOSSIBLE = ("bad card code", "bad target or index", "winning number outside", "double zero",
               "spin number outside", "bad result code", "bad lock status", "not a card")
_NOISE = ("noise on the line", "garbage before")
STATUS_EVERY_S = 0.5      # the wheel's status line (its heartbeat)
SAMPLE_KEEP = 16384       # bytes kept to find the line setting that fits
FIT_MARGIN = 0.5          # how much better (nats a byte) another setting must explain the bytes


def category(error: FrameError) -> str:
    """The kind of refusal a frame error is."""
    if isinstance(error, SeqReused):
        return "sequence"
    if isinstance(error, CardInNoise):
        return "noise"
    reason = error.reason
    if reason == "bad BCC":
        return "checksum"
    if reason.startswith(_IMPOSSIBLE):
        return "impossible card"
    if reason.startswith(_NOISE) or "noise" in reason:
        return "noise"
    return "framing"


def _reason(error: FrameError) -> str:
    """The reason without what varies from frame to frame (the SEQ, the card)."""
    if isinstance(error, SeqReused):
        return "SEQ repeated with new content"
    if isinstance(error, CardInNoise):
        return "card after line noise"
    if error.reason.startswith("unknown type"):
        return "unknown type"
    return error.reason


@dataclass
class _Spin:
    states: set
    number: int | None = None


class Conformance:
    def __init__(self, config: DeviceConfig, line: Line | None = None, decks: int = 8) -> None:
        self.config = config
        self.kind = config.kind
        self.line = line or Line(config.baudrate)
        self.decks = decks
        self.decoder = new_decoder(config)
        self.bytes_in = 0
        self.chunks = 0
        self.reopened = 0
        self.first_t: float | None = None
        self.last_t: float | None = None
        self.frames: Counter = Counter()
        self.refused: Counter = Counter()
        self.reasons: Counter = Counter()
        self.examples: dict[str, str] = {}   # category -> hex of one refused frame
        self.lead_in = 0                     # bytes of a frame cut by the start of listening
        self.replies: Counter = Counter()    # ACK / NAK nn written back (shoe)
        self.gaps: list[str] = []
        self.beats: list[float] = []         # times of the heartbeat frames
        self.frame_times: list[float] = []
        self.whole: list[dict] = []          # spins / coups seen from start to result
        self.disagree: list[str] = []
        self._sample = bytearray()
        self._decoded_any = False
        # shoe
        self._seq: int | None = None
        self._last_seq: int | None = None
        self._coup: list[Card] | None = None
        self._in_shoe: Counter = Counter()
        # wheel
        self._spins: dict[int, _Spin] = {}
        self._last_spin: int | None = None

    # --- input ------------------------------------------------------------------------------

    def feed(self, t: float, data: bytes) -> list:
        """One chunk read ``t`` seconds after listening started; the events decoded from it."""
        if self.first_t is None:
            self.first_t = t
        self.last_t = t
        self.chunks += 1
        if not data:
            self.reopened += int(self.bytes_in > 0)   # the marker at the start is the first opening
            feed_decoder(self.decoder, b"", None)
            self._seq = None
            return []
        self.bytes_in += len(data)
        if len(self._sample) < SAMPLE_KEEP:
            self._sample += data[:SAMPLE_KEEP - len(self._sample)]
        out: list = []
        if self.kind == "shoe":   # a byte at a time: the SEQ of each frame taken is the one after its ENQ
            for i, byte in enumerate(data):
                events = self.decoder.feed(bytes([byte]))
                self._take(t, events, data[i:i + 1])
                out += events
                if self._seq == -1:
                    self._seq = byte
                if byte == ENQ:
                    self._seq = -1
        else:
            events = self.decoder.feed(data, t) if self.kind == "scanner" else self.decoder.feed(data)
            self._take(t, events, data)
            out = events
        return out

    def _take(self, t: float, events: list, data: bytes) -> None:
        for e in events:
            if isinstance(e, Reply):
                self.replies["ACK" if e.ok else "NAK " + e.data[1:].decode("ascii", "replace")] += 1
            elif isinstance(e, FrameError):
                cat = category(e)
                if not self._decoded_any and not self.refused and self.lead_in == 0 \
                        and cat not in ("checksum", "sequence"):
                    self.lead_in = len(e.raw) or 1   # the tail of a frame sent before we listened
                    continue
                self.refused[cat] += 1
                self.reasons[_reason(e)] += 1
                self.examples.setdefault(cat, e.raw.hex(" "))
            else:
                self._decoded_any = True
                self.frames[type(e).__name__] += 1
                self.frame_times.append(t)
                self._frame(t, e)

    def _frame(self, t: float, e) -> None:
        if isinstance(e, WheelStatus):
            self.beats.append(t)
            self._wheel_status(e)
        elif isinstance(e, WinningNumber) and getattr(e, "alone", False):
            self.whole.append({"spin": None, "number": e.number})   # a number-only wheel: the line is the spin
        elif isinstance(e, WinningNumber):
            spin = self._spins.get(self._last_spin) if self._last_spin is not None else None
            if spin is not None:
                if spin.number is not None and spin.number != e.number:
                    self.disagree.append(f"spin {self._last_spin}: a second number {e.number} after {spin.number}")
                spin.number = e.number
        elif self.kind == "shoe":
            self._shoe_frame(e)
        elif isinstance(e, (CardRead, PlayerCardRead)):
            self.beats.append(t)

    def _wheel_status(self, e: WheelStatus) -> None:
        last = self._last_spin
        if last is not None and e.spin != last:
            expected = last % 256 + 1
            if e.spin != expected:
                self.gaps.append(f"spin {last} then spin {e.spin}")
        self._last_spin = e.spin
        spin = self._spins.setdefault(e.spin, _Spin(set()))
        if e.state == 5 and 5 not in spin.states:
            seen = {2, 3, 4} <= spin.states
            if spin.number is None:
                if seen:
                    self.disagree.append(f"spin {e.spin}: winning number line without the bare number")
            elif e.winning != spin.number:
                self.disagree.append(f"spin {e.spin}: bare number {spin.number}, state 5 says {e.winning}")
            elif seen:
                self.whole.append({"spin": e.spin, "number": spin.number})
        if e.state in (1, 6):   # a misspin's reset or the wheel closed: the spin starts over
            spin.states.discard(4)
        spin.states.add(e.state)

    def _shoe_frame(self, e) -> None:
        seq = self._seq if self._seq not in (None, -1) else None
        if seq is not None and self._last_seq is not None and not isinstance(e, Standby) and 0x30 <= seq <= 0x39 and 0x30 <= self._last_seq <= 0x39:
            expected = 0x30 + (self._last_seq - 0x30 + 1) % 10
            if seq != expected:
                self.gaps.append(f"SEQ {chr(self._last_seq)} then {chr(seq)}")
        if seq is not None:
            self._last_seq = seq
        if isinstance(e, Standby):
            self._in_shoe.clear()
            self._coup = None
        elif isinstance(e, CoupStart):
            self._coup = []
        elif isinstance(e, CardDealt):
            self._in_shoe[str(e.card)] += 1
            if self._in_shoe[str(e.card)] > self.decks:
                self.refused["impossible card"] += 1
                self.reasons[f"more than {self.decks} of a card in one shoe"] += 1
            if self._coup is not None:
                self._coup.append(e.card)
        elif isinstance(e, ShoeResult) and self._coup is not None:
            cards, self._coup = self._coup, None
            if len(cards) < 4:
                self.disagree.append(f"a result after {len(cards)} cards")
                return
            coup = baccarat.play(cards)
            host = (coup.winner, coup.player_pair, coup.banker_pair)
            shoe = (e.winner, e.player_pair, e.banker_pair)
            if host != shoe:
                self.disagree.append(f"coup {' '.join(map(str, cards))}: the shoe says {shoe[0]}, the host {host[0]}")
            else:
                self.whole.append({"cards": [str(c) for c in cards], "winner": e.winner})

    # --- the report -------------------------------------------------------------------------

    def fit(self) -> dict | None:
        """When the bytes look garbled: the line setting that explains them best (None: no verdict)."""
        sample = bytes(self._sample)
        if len(sample) < 16 or (self.refused.get("noise", 0) + self.refused.get("framing", 0) == 0
                                and sum(self.frames.values()) > 0):
            return None
        scores = {c: _score(sample, m) for c, m in _models(self.kind, self.line).items()}
        best = max(scores, key=lambda c: scores[c])
        ties = sorted((c for c in scores if scores[c] >= scores[best] - 0.05),
                      key=lambda c: (c.framing != "8N1", c.framing))
        if self.line in ties or scores[best] - scores.get(self.line, -math.inf) < FIT_MARGIN:
            return {"fits_configured": True}
        chosen = ties[0]
        return {"fits_configured": False, "baudrate": chosen.baudrate, "framing": chosen.framing,
                "also": [str(c) for c in ties[1:]]}

    def report(self, seconds: float | None = None) -> dict:
        heard = (self.last_t - self.first_t) if self.first_t is not None else 0.0
        seconds = max(seconds or 0.0, heard)
        fit = self.fit() if self.bytes_in else None
        heartbeat = self._heartbeat(seconds)
        problems: list[str] = []
        if not self.bytes_in:
            problems.append("nothing arrived")
        if fit and not fit["fits_configured"]:
            problems.append(f"the line does not fit {self.line}: {fit['baudrate']} {fit['framing']} fits")
        refused = sum(self.refused.values())
        if refused:
            problems.append(f"{refused} frame{'s' if refused != 1 else ''} refused (" + ", ".join(
                f"{c} {self.refused[c]}" for c in CATEGORIES if self.refused.get(c)) + ")")
        if self.gaps:
            problems.append(f"{len(self.gaps)} sequence gaps")
        if heartbeat.get("regular") is False:
            problems.append(heartbeat["problem"])
        problems += self.disagree
        round_word = {"wheel": "spin", "shoe": "coup"}.get(self.kind)
        if self.bytes_in and round_word and not self.whole:
            problems.append(f"no whole {round_word} seen")
        if self.bytes_in and self.kind == "scanner" and not self.frames:
            problems.append("no card read")
        return {
            "kind": self.kind, "line": str(self.line), "seconds": round(seconds, 3),
            "bytes": self.bytes_in, "chunks": self.chunks, "reopened": self.reopened, "lead_in_bytes": self.lead_in,
            "frames": dict(sorted(self.frames.items())), "frames_total": sum(self.frames.values()),
            "refused": {c: self.refused.get(c, 0) for c in CATEGORIES}, "refused_total": refused,
            "reasons": dict(self.reasons.most_common()), "examples": self.examples,
            "replies": dict(self.replies),
            "fit": fit,
            "gaps": self.gaps, "repeats": getattr(self.decoder, "duplicates", 0),
            "heartbeat": heartbeat,
            "whole": {"kind": round_word, "seen": len(self.whole), "first": self.whole[0] if self.whole else None}
            if round_word else None,
            "problems": problems, "conforming": not problems,
        }

    def _heartbeat(self, seconds: float) -> dict:
        beats = self.beats if self.kind == "wheel" else self.frame_times
        limit = self.config.heartbeat_s
        out: dict = {"expected_every_s": STATUS_EVERY_S if self.kind == "wheel" else None, "limit_s": limit,
                     "count": len(beats)}
        if len(beats) >= 2:
            gaps = sorted(b - a for a, b in zip(beats, beats[1:]))
            out.update(mean_s=round(sum(gaps) / len(gaps), 3), max_s=round(gaps[-1], 3),
                       p95_s=round(gaps[min(len(gaps) - 1, int(0.95 * len(gaps)))], 3))
        if not limit:
            return out     # a shoe or a scanner has no heartbeat unless one is configured
        if not beats:
            out.update(regular=False, problem="no heartbeat (status line) seen" if self.kind == "wheel"
                       else "no frame seen")
            return out
        longest = max([b - a for a, b in zip(beats, beats[1:])] + [beats[0] - (self.first_t or 0)], default=0.0)
        if longest > limit:
            out.update(regular=False, problem=f"heartbeat missing for {longest:.1f} s (limit {limit:g} s)")
        else:
            out["regular"] = True
        return out


# --- which line setting fits garbled bytes ----------------------------------------------------

_CARDS = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def _traffic(kind: str) -> list[bytes]:
    """What a device of ``kind`` sends, one write at a time (the encoders the simulators use)."""
    from devices import scanner as sc
    from devices import shoe as sh
    from devices import wheel as wh
    rng = random.Random(1)
    out: list[bytes] = []
    for i in range(200):
        if kind == "wheel":
            state = rng.randrange(1, 8)
            out.append(wh.encode_status(state, rng.randrange(1, 257), rng.choice([None, *range(37)]),
                                        rng.choice([0, 0, 0, 1, 2, 4, 8]), rng.uniform(15, 30) if state > 2 else 0,
                                        rng.randrange(2)))
            if rng.random() < 0.1:
                out.append(wh.encode_number(rng.randrange(37)))
        elif kind == "shoe":
            seq, k = i % 10, rng.random()
            if k < 0.6:
                frame = sh.encode_card(seq, rng.choice(["player", "banker"]), rng.randrange(1, 4), rng.choice(_CARDS))
            elif k < 0.7:
                frame = sh.encode_drawn(seq, rng.choice(_CARDS))
            elif k < 0.85:
                frame = sh.encode_simple(seq, rng.choice("SPCe"))
            else:
                frame = sh.encode_result(seq, rng.choice(["player", "banker", "tie"]))
            out += [frame] * 3
        else:
            out.append(sc.encode_card(rng.choice(_CARDS)))
    return out


_MODELS: dict = {}


def candidates(configured: Line) -> list[Line]:
    speeds = sorted({*COMMON_SPEEDS, configured.baudrate})
    return [Line(b, int(f[0]), f[1]) for b in speeds for f in FRAMINGS]


def _models(kind: str, received: Line) -> dict:
    """For each line setting a device might use: the byte statistics of what a host set to
    ``received`` reads from it (unigrams, bigrams)."""
    key = (kind, received)
    if key not in _MODELS:
        traffic = _traffic(kind)
        models = {}
        for sent in candidates(received):
            uni: Counter = Counter()
            bi: Counter = Counter()
            for write in traffic:
                g = garble(write, sent, received)
                uni.update(g)
                bi.update(zip(g, g[1:]))
            models[sent] = (uni, bi, sum(uni.values()))
        _MODELS[key] = models
    return _MODELS[key]


def _score(sample: bytes, model) -> float:
    """Mean log-likelihood a byte of ``sample`` under a setting's statistics."""
    uni, bi, n = model

    def p_uni(b: int) -> float:
        return (uni[b] + 0.01) / (n + 2.56)

    total = math.log(p_uni(sample[0]))
    for a, b in zip(sample, sample[1:]):
        p_bi = bi[(a, b)] / uni[a] if uni[a] else 0.0
        total += math.log(0.7 * p_bi + 0.3 * p_uni(b))
    return total / len(sample)
