"""The strict line on real ptys: what the devices must never get past the host.

Each test writes the bytes a faulty line or device would send to a pty read by the real reader and
bridge, and checks what a pit boss would: which rounds exist, how they ended, what was paid, which
alerts went up."""
from __future__ import annotations

import threading

from devices.scanner import encode_card as scan
from devices.shoe import encode_card, encode_lock, encode_result, encode_simple
from devices.wheel import encode_number, encode_status
from floor.games import roulette
from tests.e2e_devices.conftest import wait

NOISE = bytes(range(0x80, 0xC0))   # 64 bytes of line noise, no line end in it: longer than any line
QUIET = {"heartbeat_s": 600.0}     # the test writes the wheel's lines at its own pace: silence is not the subject


class Beating:
    """The wheel's status line repeated, as a real wheel does every 500 ms, while the test works."""

    def __init__(self, end, line: bytes, every: float = 0.1):
        self.end, self.line, self.every = end, line, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(self.every):
            self.end.write(self.line)

    def __enter__(self):
        self.end.write(self.line)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def _bet(terminal, table_number: int, **body) -> int:
    return terminal.call("post", f"/api/tables/{table_number}/bets", body)["id"]


# --- the wheel --------------------------------------------------------------------------------------

def test_lines_ended_by_lf_alone_never_decide_a_spin(rig, pit):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/1/credit", {"amount": 50_000})
    end, reader = rig.line("wheel", 12, **QUIET)
    end.write(encode_status(2, 11, None))
    r = rig.wait_betting(table)
    straight = _bet(pit, 12, spot="straight", numbers=[9], amount=1_000, player_id=1)
    red = _bet(pit, 12, spot="red", amount=1_000, player_id=1)
    end.write(encode_status(3, 11, None, rpm=16.5) + encode_status(4, 11, None, rpm=16.5))
    rig.wait_status(r.id, "locked")
    # a 9 and its state-5 line, each ended by LF alone: refused, never the winning number
    end.write(b" 9\n" + b"*X;5;011; 9;0;165;0\n")
    wait(lambda: reader.health().frame_errors >= 2, what="both LF-only lines refused")
    end.write(encode_status(4, 11, None, rpm=16.5))   # a sound line after them: they are behind us
    wait(lambda: _frames_filed(rig, table) >= 4, what="the four sound lines filed")
    now = rig.round(r.id)
    assert now.status == "locked", now.held_reason   # why it was held, where it was
    assert [x.id for x in rig.rounds_of(table)] == [r.id]
    # the wheel's real number, CR LF, decides the spin
    end.write(encode_number(25) + encode_status(5, 11, 25, rpm=16.5) * 3)
    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["number"] == 25
    assert rig.returned(straight) == 0
    assert rig.returned(red) == roulette.returned(roulette.bet("red"), 1_000, 25, roulette.DEFAULT) == 2_000
    assert rig.balance(1) == 50_000 - 2_000 + 2_000
    assert rig.alerts(table, "round_held") == []
    rig.books_balance()
    rig.no_bridge_errors()


def test_noise_longer_than_a_line_loses_no_wheel_line(rig, pit):
    table = rig.table_id(12)
    end, reader = rig.line("wheel", 12, **QUIET)
    end.write(NOISE + encode_status(2, 30, None))
    r = rig.wait_betting(table)
    end.write(encode_status(3, 30, None) + NOISE + encode_status(4, 30, None) + NOISE + encode_number(7)
              + NOISE + encode_status(5, 30, 7))
    r = rig.wait_status(r.id, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["number"] == 7 and r.spin == 30
    assert reader.health().frame_errors == 4


def test_a_wheel_lost_mid_spin_that_carries_on_opens_no_second_round(rig, pit):
    table = rig.table_id(12)
    pit.call("post", "/api/cashier/players/2/credit", {"amount": 10_000})
    end, reader = rig.line("wheel", 12, heartbeat_s=0.3)
    with Beating(end, encode_status(2, 40, None)):
        r = rig.wait_betting(table)
        bet = _bet(pit, 12, spot="odd", amount=4_000, player_id=2)
        assert rig.round(r.id).status == "betting"
    end.write(encode_status(3, 40, None))
    r = rig.wait_status(r.id, "held", "settled", "voided")   # then silence: the wheel is lost mid-spin
    assert r.status == "held" and "lost" in r.held_reason
    # the wheel comes back and finishes the same spin, repeating its state-5 line as it does
    end.write(encode_status(3, 40, None) + encode_status(4, 40, None) + encode_number(13)
              + encode_status(5, 40, 13) * 9)
    wait(lambda: _frames_filed(rig, table) >= 14, what="every line filed")
    assert [(x.id, x.status) for x in rig.rounds_of(table)] == [(r.id, "held")]
    assert rig.returned(bet) == 0 and rig.balance(2) == 6_000
    assert len(rig.alerts(table, "round_held")) == 1
    assert len(rig.alerts(table)) <= 2   # the hold, and at most one word about the result it ignored


def test_repeated_state_5_lines_raise_one_alert(rig, pit):
    table = rig.table_id(12)
    end, reader = rig.line("wheel", 12, **QUIET)
    end.write(encode_status(2, 50, None))
    r = rig.wait_betting(table)
    # a result with no "no more bets" before it, then its state-5 line nine times
    end.write(encode_number(4) + encode_status(5, 50, 4) * 9)
    wait(lambda: _frames_filed(rig, table) >= 11, what="every line filed")
    assert rig.round(r.id).status == "held"
    assert [x.id for x in rig.rounds_of(table)] == [r.id]
    assert [a.kind for a in rig.alerts(table)] == ["round_held"]


def _frames_filed(rig, table_id: int) -> int:
    from sqlalchemy import func, select

    from floor.models import DeviceFrame
    with rig.session() as s:
        return s.execute(select(func.count(DeviceFrame.id)).where(DeviceFrame.table_id == table_id)).scalar_one()


# --- the card scanner -------------------------------------------------------------------------------

def test_noise_longer_than_a_line_loses_no_card_at_blackjack(rig, dealer, pit):
    table = rig.table_id(14)
    pit.call("post", "/api/cashier/players/6/credit", {"amount": 20_000})
    dealer.at(14)
    end, reader = rig.line("scanner", 14)
    rid = dealer.call("post", "/api/tables/14/round/open", {})["round"]["id"]
    one = _bet(pit, 14, spot="bet", seat=1, amount=1_000, player_id=6)
    two = _bet(pit, 14, spot="bet", seat=2, amount=1_000, player_id=6)
    dealer.call("post", "/api/tables/14/round/close", {})
    # noise before the first card and between the others: every card reaches its hand
    end.write(NOISE + scan("TH") + NOISE + scan("5C") + scan("7S") + NOISE + scan("9S") + scan("6D")
              + NOISE + scan("KH"))
    wait(lambda: rig.cards_seen(table) == 6, what="six cards on the floor")
    flow = dealer.call("get", "/api/tables/14/round")["round"]["flow"]
    assert flow["expecting"][:2] == ["decision", 1], flow
    dealer.call("post", "/api/tables/14/round/decision", {"seat": 1, "action": "stand"})
    dealer.call("post", "/api/tables/14/round/decision", {"seat": 2, "action": "stand"})
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["dealer"] == ["7S", "KH"]
    assert rig.returned(one) == 2_000   # 19 against the dealer's 17
    assert rig.returned(two) == 0       # 11, stood
    assert reader.health().frame_errors == 4
    rig.books_balance()


# --- the smart shoe ---------------------------------------------------------------------------------

def _coup_open(rig, dealer, pit, player: int):
    pit.call("post", f"/api/cashier/players/{player}/credit", {"amount": 20_000})
    dealer.at(10)
    end, reader = rig.line("shoe", 10)
    dealer.call("post", "/api/tables/10/shoe", {})
    rid = dealer.call("post", "/api/tables/10/round/open", {})["round"]["id"]
    bet = _bet(pit, 10, spot="banker", amount=1_000, player_id=player)
    return end, reader, rid, bet


def test_a_late_copy_or_a_reused_seq_never_deals_a_card(rig, dealer, pit):
    table = rig.table_id(10)
    end, reader, rid, bet = _coup_open(rig, dealer, pit, 4)
    first = encode_card(1, "player", 1, "3H")
    end.write(encode_simple(0, "S") + first + encode_card(2, "banker", 1, "6D"))
    end.write(first)                                      # a late copy of the Player's first card
    end.write(encode_card(1, "player", 2, "9D"))          # SEQ '1' again, with a new card in it
    wait(lambda: reader.health().frame_errors == 1, what="the reused SEQ refused")
    end.write(encode_card(3, "player", 2, "9D") + encode_card(4, "banker", 2, "QH")
              + encode_card(5, "player", 3, "9H") + encode_result(6, "banker"))
    r = rig.wait_status(rid, "settled", "held", "voided")
    assert r.status == "settled", r.held_reason
    assert r.result["player"] == ["3H", "9D", "9H"] and r.result["banker"] == ["6D", "QH"]
    assert rig.returned(bet) == 1_950   # banker wins, 5 % commission
    alerts = rig.alerts(table)
    assert len(alerts) == 1 and "SEQ '1' repeated with new content" in alerts[0].message
    assert reader.health().duplicates == 1


def test_cards_dealt_while_the_shoe_is_locked_hold_the_round(rig, dealer, pit):
    table = rig.table_id(10)
    end, reader, rid, bet = _coup_open(rig, dealer, pit, 5)
    end.write(encode_lock(0, True) + encode_simple(1, "S") + encode_card(2, "player", 1, "3H"))
    r = rig.wait_status(rid, "held", "settled", "voided")
    assert r.status == "held" and "locked" in r.held_reason
    assert rig.cards_seen(table) == 1
    with rig.session() as s:
        from floor.rounds.cards import accepted
        assert accepted(s, rid) == []
    assert [a.kind for a in rig.alerts(table)] == ["round_held"]
    assert rig.returned(bet) == 0 and rig.balance(5) == 19_000
