"""Players out on a hand, as the dealer terminal or the floor tablet records them: their places (two
out on one hand placed by their chips at the start of the hand), the bounties to the pot's winners,
the prize of a place in the money, then the moves the tables need. The last player in wins."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit, notify, standing, timers
from floor.actors import Actor
from floor.errors import N_, BadInput, InvalidState, NotAllowed
from floor.games import tournament as rules
from floor.models import Ban, Tournament, TournamentElimination, TournamentEntry
from floor.settings import HouseSettings
from floor.tournaments import balancing, clock, core, registration
from floor.tournaments.places import finish, pay_place, settle_field


def _bounties(session: Session, settings: HouseSettings, t: Tournament, out: TournamentEntry,
              winners: list[TournamentEntry], hand: int, players_left: int, now: datetime, actor: Actor) -> int:
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
        open_ = rules.mystery_stage_open(start, late_registration_open=clock.late_open(session, t, now),
                                         levels_completed=r.levels_completed, start_level=None,
                                         players_left=players_left, paid_places=max(1, len(pays)))
        if not open_ or not t.mystery_envelopes:
            return 0
        draw = core.new_draw(t, f"mystery:{out.id}")
        before = list(t.mystery_envelopes)
        got = rules.draw_mystery_bounty(draw, before, ids)
        # the envelopes it was drawn from are recorded with the seed: anyone can redo it in a dispute
        core.record_draw(session, t, "mystery", draw, {"entry_id": out.id, "winners": ids, "amount": got.amount,
                                                        "envelopes": before,
                                                        "envelopes_left": list(got.envelopes_left)}, now)
        t.mystery_envelopes = list(got.envelopes_left)
        awards = got.awards
    cash = 0
    for a in awards:
        w = by_id[a.player]
        core.pay(session, t, "bounties", w, a.cash, "bounty", now, actor=actor, house=settings)
        w.bounties_won += a.cash
        w.bounty += a.onto_bounty
        cash += a.cash
    out.bounty = 0
    return cash


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
    late = clock.late_open(session, t, now)
    settle_field(session, settings, t, now, actor=actor)     # the clock may have closed late registration just now
    core.require_status(t, "running")
    in_hand = t.hfh_hand is not None and t.hfh_left is not None   # a hand-for-hand hand being played
    left = t.hfh_left if in_hand else len(core.entries(session, t, *core.IN_PLAY))
    tables = {tt.table_id: tt for tt in core.tables(session, t)}
    hand = t.hfh_hand if in_hand else t.hands + 1

    def position(e: TournamentEntry) -> int:
        button = button_seat or tables[e.table_id].button_seat
        return rules.clockwise_from_button(e.seat, button, t.seats_per_table) if button else 0
    draw = core.new_draw(t, f"bust:{hand}")
    places = rules.bust_places(left, [rules.Bust(e.id, chips, tables[e.table_id].table.number, position(e))
                                      for e, chips in out], t.tie_rule, draw)
    chips_of = {e.id: chips for e, chips in out}
    if not in_hand and len({chips_of[p.player] for p in places}) != len(places):
        core.record_draw(session, t, "tie", draw, {"places": [[p.player, p.place] for p in places]}, now)
    rows = []
    done_tables = set()
    for p in sorted(places, key=lambda p: -p.place):   # the lowest place first, as they went out
        e = core.entry(session, t, p.player)
        table_id, seat = e.table_id, e.seat
        done_tables.add(tables[table_id].table.number)
        # while late registration is open the field still grows: the place is given at its close; in a
        # hand-for-hand hand, once every table has played it (all its busts placed together)
        pending = late or in_hand
        e.status, e.place, e.out_at, e.seat = "out", None if pending else p.place, now, None
        if won:     # his chips go to the pot's winners, so the counts on record still add up until the next count
            share, odd = divmod(e.chips, len(won))
            for k, w in enumerate(won):
                w.chips += share + (odd if k == 0 else 0)
        session.flush()
        bounty = _bounties(session, settings, t, e, won, hand, left - len(out), now, actor)
        prize = 0 if pending else pay_place(session, settings, t, e, p.place, now, actor=actor)
        rows.append(TournamentElimination(tournament_id=t.id, entry_id=e.id, hand=hand, place=p.place,
                                          chips_at_start=chips_of[e.id], table_id=table_id, seat=seat,
                                          winners=[w.id for w in won], prize=prize, bounty_paid=bounty, at=now,
                                          by_name=actor.name))
    session.add_all(rows)
    if not in_hand:
        t.hands = hand
    session.flush()
    moves = []
    if in_hand:
        # a bust is recorded at the end of the hand at that table: it is done with this hand
        moves = _table_done(session, actor, settings, t, done_tables, now)
    else:
        moves = _after_hand(session, settings, t, late, now, actor)
    audit.record(session, actor, "tournament.bust", f"tournament:{t.id}",
                 after={"hand": hand, "out": [[r.entry_id, r.place, r.chips_at_start, r.prize, r.bounty_paid] for r in rows],
                        "winners": [w.id for w in won], "moves": [m.id for m in moves], "status": t.status,
                        "hand_for_hand": in_hand})
    core.publish(session, t, "tournament.bust", {"hand": hand})
    core.publish(session, t, "tournament.clock")
    return {"hand": hand, "eliminations": rows, "moves": moves, "finished": t.status == "finished"}


@standing.when_banned("poker")
def ban_takes_effect(session: Session, actor: Actor, settings: HouseSettings, ban: Ban, now: datetime) -> None:
    """A ban from the poker area bars its tournaments: the player leaves every one that is running."""
    running = session.execute(select(TournamentEntry.tournament_id, TournamentEntry.id)
                              .join(Tournament, Tournament.id == TournamentEntry.tournament_id)
                              .where(TournamentEntry.player_id == ban.player_id, Tournament.status == "running",
                                     TournamentEntry.status.in_(core.IN_PLAY))
                              .order_by(TournamentEntry.tournament_id)).all()
    for tournament_id, entry_id in running:
        remove_banned(session, actor, settings, tournament_id, entry_id, ban, now)


def remove_banned(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, entry_id: int,
                  ban: Ban, now: datetime | None = None) -> TournamentElimination | None:
    """A banned player must leave the poker area, so he leaves a running tournament at once. Seated,
    he is out as if alone on the next hand (in a hand-for-hand hand, placed with that hand's busts):
    his chips are taken out of play (nobody won them), his seat is freed and the tables balanced, his
    place is paid if it is in the money, and the bounty on his own head (nobody knocked him out)
    goes back to him. An alternate who never got a seat has played nothing: his entry is refunded.
    Returns his elimination row (None for a refunded alternate)."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    e = core.entry(session, t, entry_id)
    if e.status == "alternate":
        # what he paid goes back exactly, by the rule, whoever made the ban (a dealer moves no refunds)
        paid = registration.refund(session, t, e, now, actor=Actor.system("ban"), house=settings)
        e.status = "refunded"
        session.flush()
        audit.record(session, actor, "tournament.banned", f"tournament:{t.id}",
                     after={"entry_id": e.id, "player_id": e.player_id, "ban": ban.id, "refunded": paid})
        core.publish(session, t, "tournament.entries", {"entry_id": e.id})
        return None
    if e.status != "seated":
        raise InvalidState("{player} is not playing", code="not_playing", player=e.player.name)
    late = clock.late_open(session, t, now)
    in_hand = t.hfh_hand is not None and t.hfh_left is not None
    left = t.hfh_left if in_hand else len(core.entries(session, t, *core.IN_PLAY))
    hand = t.hfh_hand if in_hand else t.hands + 1
    pending = late or in_hand
    table_id, seat, chips = e.table_id, e.seat, e.chips
    e.status, e.place, e.out_at, e.seat = "out", None if pending else left, now, None
    own = e.bounty
    if own:
        core.pay(session, t, "bounties", e, own, "bounty", now, actor=actor, house=settings)
        e.bounties_won += own
        e.bounty = 0
    session.flush()
    prize = 0 if pending else pay_place(session, settings, t, e, left, now, actor=actor)
    row = TournamentElimination(tournament_id=t.id, entry_id=e.id, hand=hand, place=left, chips_at_start=chips,
                                table_id=table_id, seat=seat, winners=[], prize=prize, bounty_paid=0, at=now,
                                by_name=actor.name, ban_id=ban.id, chips_removed=chips)
    session.add(row)
    if not in_hand:
        t.hands = hand
    session.flush()
    # in a hand-for-hand hand his table plays it out without him; its end places him with the others
    moves = [] if in_hand else _after_hand(session, settings, t, late, now, actor)
    audit.record(session, actor, "tournament.banned", f"tournament:{t.id}",
                 after={"entry_id": e.id, "player_id": e.player_id, "ban": ban.id, "hand": hand,
                        "table": e.table.number if e.table else None,
                        "seat": seat, "chips_removed": chips, "place": e.place, "prize": prize,
                        "own_bounty": own, "moves": [m.id for m in moves], "status": t.status})
    core.publish(session, t, "tournament.bust", {"hand": hand})
    core.publish(session, t, "tournament.entries", {"entry_id": e.id})
    core.publish(session, t, "tournament.clock")
    return row


def _after_hand(session: Session, settings: HouseSettings, t: Tournament, late: bool, now: datetime,
                actor: Actor) -> list:
    """After players went out (and were placed): the winner, or the moves, the bubble, hand for hand."""
    still = core.entries(session, t, *core.IN_PLAY)
    if len(still) == 1 and not late:
        finish(session, settings, t, still[0], now, actor=actor)
        return []
    moves = balancing.rebalance(session, t, now)
    _bubble(session, settings, t, late, now, actor)
    sync_hand_for_hand(session, settings, t, now)
    return moves


BUBBLE_PAUSE = N_("the bubble: late registration is still open")
HAND_FOR_HAND = N_("hand for hand")


def _bubble(session: Session, settings: HouseSettings, t: Tournament, late: bool, now: datetime,
            actor: Actor) -> None:
    """Near the money while late entries can still come in, by the house's rule
    (``tournament_bubble_policy``): ``pause`` stops the clock a moment on the bubble so late entries
    can still come in (the floor resumes it); ``close_registration`` closes late registration as soon
    as the next player out is paid, and the prize pool is then what was collected (no guarantee)."""
    policy = settings.tournament_bubble_policy
    if policy == "none" or not late:
        return
    left = len(core.entries(session, t, *core.IN_PLAY))
    paid = core.paid_places(session, t, settings.tournament_payout_unit)
    if paid < 1:
        return
    action = rules.bubble_action(left, paid, late, policy)
    if action == "pause" and clock.open_pause(session, t) is None:
        clock.stop(session, Actor.system("tournament clock"), t, BUBBLE_PAUSE, now)
        if settings.tournament_bubble_pause_minutes > 0:     # a short pause: it ends by itself
            timers.set_timer(session, f"tournament:{t.id}:bubble", BUBBLE_RESUME_JOB,
                             now + timedelta(minutes=settings.tournament_bubble_pause_minutes), t.id)
    elif action == "close_registration":
        t.registration_closed_at, t.guarantee_void = now, True
        session.flush()
        placed = settle_field(session, settings, t, now, actor=actor)
        audit.record(session, Actor.system("tournament clock"), "tournament.registration_closed", f"tournament:{t.id}",
                     after={"players_left": left, "paid_places": paid, "placed": [e.id for e in placed],
                            "prize_pool": core.prize_pool(session, t)})
        core.publish(session, t, "tournament.entries")


BUBBLE_RESUME_JOB = "tournaments.bubble_resume"


def bubble_resume(session: Session, tournament_id: int, now: datetime | None = None) -> bool:
    """The end of the short bubble pause: the clock runs again, unless the floor already resumed it
    or paused it for another reason since."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    p = clock.open_pause(session, t)
    if t.status != "running" or p is None or p.reason != BUBBLE_PAUSE:
        return False
    clock.release(session, Actor.system("tournament clock"), t, p, now)
    return True


def _tell_tables(session: Session, t: Tournament, payload: dict) -> None:
    """The dealer terminals of the tournament's tables in play (hand for hand: deal, wait)."""
    for tt in core.tables(session, t, in_play=True):
        notify.publish(session, "tournament.hand_for_hand", {"tournament_id": t.id, **payload},
                       notify.table_room(tt.table_id))
    core.publish(session, t, "tournament.hand_for_hand", payload)


def sync_hand_for_hand(session: Session, settings: HouseSettings, t: Tournament, now: datetime) -> None:
    """Enter hand for hand when one player from the money (``rules.hand_for_hand``) and leave it once
    the bubble has burst. In it the clock is stopped between hands; the floor deals each hand."""
    if t.status != "running" or t.hfh_left is not None:
        return      # a hand being played: decided at its end
    left = len(core.entries(session, t, *core.IN_PLAY))
    paid = core.paid_places(session, t, settings.tournament_payout_unit)
    want = rules.hand_for_hand(left, paid, len(core.tables(session, t, in_play=True)), clock.late_open(session, t, now))
    system = Actor.system("tournament clock")
    if want and t.hfh_hand is None:
        t.hfh_hand, t.hfh_done = 0, []
        if clock.open_pause(session, t) is None:
            clock.stop(session, system, t, HAND_FOR_HAND, now)
        audit.record(session, system, "tournament.hand_for_hand", f"tournament:{t.id}",
                     after={"players_left": left, "paid_places": paid})
        _tell_tables(session, t, {"state": "wait"})
    elif not want and t.hfh_hand is not None:
        t.hfh_hand, t.hfh_done = None, []
        p = clock.open_pause(session, t)
        if p is not None and p.reason == HAND_FOR_HAND:
            clock.release(session, system, t, p, now)
        audit.record(session, system, "tournament.hand_for_hand_over", f"tournament:{t.id}",
                     after={"players_left": left, "paid_places": paid})
        _tell_tables(session, t, {"state": "over"})


def deal_hand(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int,
              now: datetime | None = None) -> Tournament:
    """Hand for hand: the floor has every table deal the next hand together; the clock runs while it
    is played."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if t.hfh_hand is None:
        raise InvalidState("{name} is not playing hand for hand", code="not_hand_for_hand", name=t.name)
    if t.hfh_left is not None:
        raise InvalidState("hand {hand} is still being played", code="hand_in_play", hand=t.hfh_hand)
    t.hands += 1
    t.hfh_hand, t.hfh_left, t.hfh_done = t.hands, len(core.entries(session, t, *core.IN_PLAY)), []
    p = clock.open_pause(session, t)
    if p is not None and p.reason == HAND_FOR_HAND:
        clock.release(session, actor, t, p, now)
    session.flush()
    audit.record(session, actor, "tournament.hand_dealt", f"tournament:{t.id}",
                 after={"hand": t.hfh_hand, "players_left": t.hfh_left,
                        "tables": [tt.table.number for tt in core.tables(session, t, in_play=True)]})
    _tell_tables(session, t, {"state": "deal", "hand": t.hfh_hand})
    core.publish(session, t, "tournament.clock")
    return t


def hand_done(session: Session, actor: Actor, settings: HouseSettings, tournament_id: int, table_number: int,
              now: datetime | None = None) -> Tournament:
    """Hand for hand: this table has finished the hand (nobody out there, or already recorded)."""
    now = core.now_or(now)
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if t.hfh_hand is None or t.hfh_left is None:
        raise InvalidState("no hand-for-hand hand is being played", code="no_hand_in_play")
    if table_number not in {tt.table.number for tt in core.tables(session, t, in_play=True)}:
        raise BadInput("table {number} is not in play", field="table", number=table_number)
    _table_done(session, actor, settings, t, {table_number}, now)
    core.publish(session, t, "tournament.clock")
    return t


def _table_done(session: Session, actor: Actor, settings: HouseSettings, t: Tournament, numbers: set[int],
                now: datetime) -> list:
    t.hfh_done = sorted(set(t.hfh_done or []) | set(numbers))
    audit.record(session, actor, "tournament.hand_done", f"tournament:{t.id}",
                 after={"hand": t.hfh_hand, "tables": sorted(numbers), "done": t.hfh_done})
    if set(t.hfh_done) >= {tt.table.number for tt in core.tables(session, t, in_play=True)}:
        return _end_hand(session, settings, t, now, actor)
    _tell_tables(session, t, {"state": "playing", "hand": t.hfh_hand, "done": t.hfh_done})
    return []


def _end_hand(session: Session, settings: HouseSettings, t: Tournament, now: datetime, actor: Actor) -> list:
    """Every table has played the hand-for-hand hand: its busts, from all tables, are placed together
    by their chips at the start of the hand (``bust_places``), the places in the money paid; then the
    clock stops for the next hand, or hand for hand ends when the bubble has burst."""
    hand, left = t.hfh_hand, t.hfh_left
    rows = list(session.execute(select(TournamentElimination).where(
        TournamentElimination.tournament_id == t.id, TournamentElimination.hand == hand)
        .order_by(TournamentElimination.id)).scalars())
    tables = {tt.table_id: tt for tt in core.tables(session, t)}
    if rows:
        def position(r: TournamentElimination) -> int:
            button = tables[r.table_id].button_seat
            return rules.clockwise_from_button(r.seat, button, t.seats_per_table) if button and r.seat else 0
        draw = core.new_draw(t, f"bust:{hand}")
        places = rules.bust_places(left, [rules.Bust(r.entry_id, r.chips_at_start, tables[r.table_id].table.number,
                                                     position(r)) for r in rows], t.tie_rule, draw)
        if len({r.chips_at_start for r in rows}) != len(rows):
            core.record_draw(session, t, "tie", draw, {"places": [[p.player, p.place] for p in places]}, now)
        by_entry = {r.entry_id: r for r in rows}
        for p in sorted(places, key=lambda p: -p.place):
            e = core.entry(session, t, p.player)
            r = by_entry[p.player]
            e.place = r.place = p.place
            r.prize = pay_place(session, settings, t, e, p.place, now, actor=actor)
    t.hfh_left, t.hfh_done = None, []
    session.flush()
    audit.record(session, Actor.system("tournament clock"), "tournament.hand_over", f"tournament:{t.id}",
                 after={"hand": hand, "places": [[r.entry_id, r.place, r.chips_at_start, r.prize] for r in rows]})
    moves = _after_hand(session, settings, t, False, now, actor)
    if t.status == "running" and t.hfh_hand is not None:
        if clock.open_pause(session, t) is None:
            clock.stop(session, Actor.system("tournament clock"), t, HAND_FOR_HAND, now)
        _tell_tables(session, t, {"state": "wait"})
    return moves


def record_chips(session: Session, actor: Actor, tournament_id: int, counts: dict[int, int],
                 table_number: int | None = None) -> None:
    """The floor's chip counts, kept on each player until the next count: the deal and the cancellation
    start from them. ``table_number``: one table counted, so every player seated there is named and
    nobody else (a count missing a player is refused, not half kept)."""
    t = core.lock(session, tournament_id)
    core.require_status(t, "running")
    if table_number is not None:
        there = {e.id for e in core.entries(session, t, "seated") if e.table and e.table.number == table_number}
        if not there:
            raise BadInput("table {number} has no players of {name}", field="table", number=table_number, name=t.name)
        if set(counts) != there:
            raise BadInput("a table's count names every player seated there, and only them", field="stacks")
    for entry_id, chips in counts.items():
        e = core.entry(session, t, entry_id)
        if e.status != "seated":
            raise BadInput("{player} is not playing", field="counts", player=e.player.name)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise BadInput("a chip count is a whole number, at least 1", field="counts")
        e.chips = chips
    audit.record(session, actor, "tournament.chips", f"tournament:{t.id}",
                 after={"table": table_number} | {str(k): v for k, v in counts.items()})
    core.publish(session, t, "tournament.clock")
    core.publish(session, t, "tournament.entries")
