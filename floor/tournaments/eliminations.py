"""Players out on a hand, as the dealer terminal or the floor tablet records them: their places (two
out on one hand placed by their chips at the start of the hand), the bounties to the pot's winners,
the prize of a place in the money, then the moves the tables need. The last player in wins."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from floor import audit, timers
from floor.actors import Actor
from floor.errors import N_, BadInput, InvalidState, NotAllowed
from floor.games import tournament as rules
from floor.models import Tournament, TournamentElimination, TournamentEntry
from floor.settings import HouseSettings
from floor.tournaments import balancing, clock, core, deals


def pay_place(session: Session, settings: HouseSettings, t: Tournament, e: TournamentEntry, place: int,
              now: datetime) -> int:
    """The prize of a place in the money (after a deal: only the save, to the winner)."""
    deal = deals.paid_deal(session, t)
    if deal is not None:
        prize = deal.save if place == 1 else 0
    else:
        pays = core.payouts(session, t, settings.tournament_payout_unit)
        prize = pays[place - 1] if place <= len(pays) else 0
    if prize:
        core.cover_guarantee(session, t, now)
        core.pay(session, t, "prize_pool", e, prize, "prize", now)
        e.prize += prize
    return prize


def _bounties(session: Session, settings: HouseSettings, t: Tournament, out: TournamentEntry,
              winners: list[TournamentEntry], hand: int, players_left: int, now: datetime) -> int:
    if t.bounty_kind == "none" or not winners:
        return 0
    ids = [w.id for w in winners]
    by_id = {w.id: w for w in winners}
    if t.bounty_kind == "knockout":
        awards = rules.knockout_awards(out.bounty, ids) if out.bounty else ()
    elif t.bounty_kind == "progressive":
        awards = rules.progressive_awards(out.bounty, ids, cash_percent=settings.tournament_progressive_cash_percent) \
            if out.bounty else ()
    else:
        r = clock.reading(session, t, now)
        pays = core.payouts(session, t, settings.tournament_payout_unit)
        start = settings.tournament_mystery_start
        open_ = rules.mystery_stage_open(start, late_registration_open=r.late_registration_open,
                                         levels_completed=r.levels_completed, start_level=None,
                                         players_left=players_left, paid_places=max(1, len(pays)))
        if not open_ or not t.mystery_envelopes:
            return 0
        draw = core.new_draw(t, f"mystery:{out.id}")
        got = rules.draw_mystery_bounty(draw, t.mystery_envelopes, ids)
        core.record_draw(session, t, "mystery", draw, {"entry_id": out.id, "amount": got.amount,
                                                        "envelopes_left": list(got.envelopes_left)}, now)
        t.mystery_envelopes = list(got.envelopes_left)
        awards = got.awards
    cash = 0
    for a in awards:
        w = by_id[a.player]
        core.pay(session, t, "bounties", w, a.cash, "bounty", now)
        w.bounties_won += a.cash
        w.bounty += a.onto_bounty
        cash += a.cash
    out.bounty = 0
    return cash


def _finish(session: Session, settings: HouseSettings, t: Tournament, winner: TournamentEntry, now: datetime) -> None:
    winner.status, winner.place, winner.out_at = "finished", 1, now
    pay_place(session, settings, t, winner, 1, now)
    if winner.bounty:      # the winner collects the bounty on his own head
        core.pay(session, t, "bounties", winner, winner.bounty, "bounty", now)
        winner.bounties_won += winner.bounty
        winner.bounty = 0
    t.status, t.finished_at = "finished", now
    timers.cancel_timer(session, clock.timer_key(t))


def bust(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, busts: list[dict],
         winners: list[int], button_seat: int | None = None, now: datetime | None = None,
         table_number: int | None = None) -> dict:
    """Players out on one hand: ``busts`` are {entry_id, chips_at_start}; ``winners`` the entries that
    won the pot (in seat order from the button's left, for the odd cent of a split bounty);
    ``button_seat`` the button of that hand (default: the table's recorded button), for the
    seat-order rule on equal chips. ``table_number``: the dealer terminal's table; everyone named
    must sit there."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if not isinstance(busts, list) or not busts:
        raise BadInput("name the players out", field="busts")
    out: list[tuple[TournamentEntry, int]] = []
    for b in busts:
        e = core.entry(session, t, b.get("entry_id") if isinstance(b, dict) else None)
        if e.status != "seated":    # e.g. a second tablet recorded the same bust a moment before
            raise InvalidState("{player} is not playing", code="not_playing", field="busts", player=e.player.name)
        chips = b.get("chips_at_start")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise BadInput("the chips at the start of the hand are a whole number, at least 1",
                           field="chips_at_start")
        out.append((e, chips))
    if len({e.id for e, _ in out}) != len(out):
        raise BadInput("a player is out twice on the same hand", field="busts")
    won = [core.entry(session, t, w) for w in (winners or [])]
    if any(w.status != "seated" or w.id in {e.id for e, _ in out} for w in won) or len({w.id for w in won}) != len(won):
        raise BadInput("the pot's winners are players still in, each once", field="winners")
    if table_number is not None and any(e.table.number != table_number for e in [x for x, _ in out] + won):
        raise NotAllowed("only players at table {number} can be named here", code="wrong_table", field="busts",
                         number=table_number)
    if t.bounty_kind != "none" and not won:
        raise BadInput("a bounty goes to the winner of the pot: name him", field="winners")
    late = clock.reading(session, t, now).late_registration_open
    if not late:
        core.place_late_busts(session, t)
    left = len(core.entries(session, t, *core.IN_PLAY))
    tables = {tt.table_id: tt for tt in core.tables(session, t)}
    hand = t.hands + 1

    def position(e: TournamentEntry) -> int:
        button = button_seat or tables[e.table_id].button_seat
        return rules.clockwise_from_button(e.seat, button, t.seats_per_table) if button else 0
    draw = core.new_draw(t, f"bust:{hand}")
    places = rules.bust_places(left, [rules.Bust(e.id, chips, tables[e.table_id].table.number, position(e))
                                      for e, chips in out], t.tie_rule, draw)
    chips_of = {e.id: chips for e, chips in out}
    if len({chips_of[p.player] for p in places}) != len(places):
        core.record_draw(session, t, "tie", draw, {"places": [[p.player, p.place] for p in places]}, now)
    rows = []
    for p in sorted(places, key=lambda p: -p.place):   # the lowest place first, as they went out
        e = core.entry(session, t, p.player)
        table_id, seat = e.table_id, e.seat
        # while late registration is open the field still grows: the place is given at its close
        e.status, e.place, e.out_at, e.seat = "out", None if late else p.place, now, None
        session.flush()
        bounty = _bounties(session, settings, t, e, won, hand, left - len(out), now)
        prize = 0 if late else pay_place(session, settings, t, e, p.place, now)
        rows.append(TournamentElimination(tournament_id=t.id, entry_id=e.id, hand=hand, place=p.place,
                                          chips_at_start=chips_of[e.id], table_id=table_id, seat=seat,
                                          winners=[w.id for w in won], prize=prize, bounty_paid=bounty, at=now,
                                          by_name=actor.name))
    session.add_all(rows)
    t.hands = hand
    session.flush()
    moves = []
    still = core.entries(session, t, *core.IN_PLAY)
    if len(still) == 1 and not late:
        _finish(session, settings, t, still[0], now)
    else:
        moves = balancing.rebalance(session, t, now)
        _bubble(session, settings, t, late, now)
    audit.record(session, actor, "tournament.bust", f"tournament:{t.id}",
                 after={"hand": hand, "out": [[r.entry_id, r.place, r.chips_at_start, r.prize, r.bounty_paid] for r in rows],
                        "winners": [w.id for w in won], "moves": [m.id for m in moves], "status": t.status})
    core.publish(session, t, "tournament.bust", {"hand": hand})
    core.publish(session, t, "tournament.clock")
    return {"hand": hand, "eliminations": rows, "moves": moves, "finished": t.status == "finished"}


BUBBLE_PAUSE = N_("the bubble: late registration is still open")


def _bubble(session: Session, settings: HouseSettings, t: Tournament, late: bool, now: datetime) -> None:
    """On the bubble while late entries can still come in, the house may stop the clock a moment
    (``tournament_bubble_policy`` = ``pause``); the floor resumes it."""
    if settings.tournament_bubble_policy != "pause" or not late or clock.open_pause(session, t) is not None:
        return
    left = len(core.entries(session, t, *core.IN_PLAY))
    paid = len(core.payouts(session, t, settings.tournament_payout_unit))
    if rules.bubble_action(left, paid, late, "pause") == "pause":
        clock.stop(session, Actor.system("tournament clock"), t, BUBBLE_PAUSE, now)


def record_chips(session: Session, actor: Actor, tournament_id: int, counts: dict[int, int]) -> None:
    """The floor's chip counts (for the board's average, a deal or a cancellation)."""
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    for entry_id, chips in counts.items():
        e = core.entry(session, t, entry_id)
        if e.status != "seated":
            raise BadInput("{player} is not playing", field="counts", player=e.player.name)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise BadInput("a chip count is a whole number, at least 1", field="counts")
        e.chips = chips
    audit.record(session, actor, "tournament.chips", f"tournament:{t.id}", after={str(k): v for k, v in counts.items()})
    core.publish(session, t, "tournament.clock")
