"""Tournaments: set-up and templates, registration (floor or cage), the start and the clock, players
out (the floor or the dealer of the table), moves, deals, cancellation and results."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from floor import tables as tables_svc
from floor.errors import InvalidState
from floor.tournaments import (balancing, cancellation, clock, core, deals, eliminations, registration, results,
                               places, setup)
from floor.web.api.tournament_schemas import (AgreeIn, BustOut, BustsIn, CancelIn, CancelPlanIn, CancelOut, ChipsIn, ClockOut, DealIn,
                                              DealOut, FromTemplateIn, MoveOut, PurchaseIn, PurchaseOut, ReasonIn, ReceiptOut, RegisterIn,
                                              ResultsOut, ShareOut, TablesIn, TableViewOut, TemplateIn, TemplateOut,
                                              TournamentBriefOut, TournamentIn, TournamentOut)
from floor.web.api.schemas import EmptySchema
from floor.web.extensions import db, house
from floor.web.policy import actor, allow

blp = Blueprint("api_tournaments", __name__, url_prefix="/api/tournaments",
                description="Live tournaments: registration, the clock, eliminations, deals, results")
MANAGE = ("floor_manager", "admin")
REGISTER = ("floor_manager", "cashier", "admin")
READ = ("floor_manager", "cashier", "pit_boss", "admin")
BUST = ("floor_manager", "admin", "dealer")
CANCEL = ("floor_manager", "pit_boss", "admin")
BOARD = ("floor_manager", "cashier", "pit_boss", "admin", "display", "dealer")


def _detail(t) -> results.Detail:
    return results.detail(db.session, house(), t)


def _stacks(rows: list[dict]) -> dict[int, int]:
    return {r["entry_id"]: r["chips"] for r in rows}


@blp.route("")
@allow(*READ)
@blp.response(200, TournamentBriefOut(many=True))
def listing():
    """Every tournament, newest first."""
    return results.listing(db.session)


@blp.route("", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(TournamentIn)
@blp.response(201, TournamentOut)
def create(args):
    """A tournament from its fields (the structure by template name or as data)."""
    t = setup.create(db.session, actor(), house(), args)
    db.session.commit()
    return _detail(t)


@blp.route("/templates")
@allow(*READ)
@blp.response(200, TemplateOut(many=True))
def templates():
    return setup.templates(db.session)


@blp.route("/templates", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(TemplateIn)
@blp.response(201, TemplateOut)
def save_template(args):
    """Keep a tournament's fields under a name, for the weekly event."""
    values = {k: v for k, v in args["tournament"].items() if k != "scheduled_at"}
    tpl = setup.save_template(db.session, actor(), house(), args["template_name"], values)
    db.session.commit()
    return tpl


@blp.route("/templates/<int:template_id>/create", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(FromTemplateIn)
@blp.response(201, TournamentOut)
def from_template(args, template_id: int):
    """The template's event for a date: the second tap."""
    t = setup.from_template(db.session, actor(), house(), template_id, args["scheduled_at"], args["name"])
    db.session.commit()
    return _detail(t)


@blp.route("/<int:tournament_id>")
@allow(*READ)
@blp.response(200, TournamentOut)
def detail(tournament_id: int):
    """The tournament with its clock, entries, tables, moves to make and deal."""
    return _detail(core.get(db.session, tournament_id))


@blp.route("/<int:tournament_id>/clock")
@allow(*BOARD)
@blp.response(200, ClockOut)
def clock_state(tournament_id: int):
    """What the TV board shows."""
    t = core.get(db.session, tournament_id)
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


@blp.route("/<int:tournament_id>/tables", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(TablesIn)
@blp.response(200, TournamentOut)
def set_tables(args, tournament_id: int):
    """The tables given to it before the start, first to break first."""
    t = setup.set_tables(db.session, actor(), tournament_id, args["table_numbers"])
    db.session.commit()
    return _detail(t)


@blp.route("/<int:tournament_id>/entries", methods=["POST"])
@allow(*REGISTER)
@blp.arguments(RegisterIn)
@blp.response(201, ReceiptOut)
def register(args, tournament_id: int):
    """Register (or re-enter) a player, paid in cash at the desk or from his balance: the receipt has
    his seat (drawn for a late entry) or says he is an alternate."""
    e = registration.register(db.session, actor(), house(), tournament_id, args["player_id"], args["paid_with"])
    db.session.commit()
    return registration.receipt(db.session, core.get(db.session, tournament_id), e)


@blp.route("/<int:tournament_id>/entries/<int:entry_id>/receipt")
@allow(*REGISTER)
@blp.response(200, ReceiptOut)
def receipt(tournament_id: int, entry_id: int):
    t = core.get(db.session, tournament_id)
    return registration.receipt(db.session, t, core.entry(db.session, t, entry_id))


@blp.route("/<int:tournament_id>/entries/<int:entry_id>/purchases", methods=["POST"])
@allow(*REGISTER)
@blp.arguments(PurchaseIn)
@blp.response(201, PurchaseOut)
def buy_chips(args, tournament_id: int, entry_id: int):
    """A rebuy or the add-on, when the structure offers it now: the price to the prize pool, the fee
    to the house."""
    p = registration.buy_chips(db.session, actor(), house(), tournament_id, entry_id, args["kind"], args["chips_now"],
                               args["paid_with"])
    db.session.commit()
    t = core.get(db.session, tournament_id)
    return registration.purchase_receipt(db.session, t, p)


@blp.route("/<int:tournament_id>/entries/<int:entry_id>/unregister", methods=["POST"])
@allow(*REGISTER)
@blp.arguments(EmptySchema)
@blp.response(200, ReceiptOut)
def unregister(_args, tournament_id: int, entry_id: int):
    """Before the start, or an alternate never seated: everything paid goes back."""
    e = registration.unregister(db.session, actor(), tournament_id, entry_id)
    db.session.commit()
    return registration.receipt(db.session, core.get(db.session, tournament_id), e)


@blp.route("/<int:tournament_id>/start", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, TournamentOut)
def start(_args, tournament_id: int):
    """Draw the seats and the buttons, start the clock."""
    t = clock.start(db.session, actor(), tournament_id)
    db.session.commit()
    return _detail(t)


@blp.route("/<int:tournament_id>/pause", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ReasonIn)
@blp.response(200, ClockOut)
def pause(args, tournament_id: int):
    t = clock.pause(db.session, actor(), tournament_id, args["reason"])
    db.session.commit()
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


@blp.route("/<int:tournament_id>/resume", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, ClockOut)
def resume(_args, tournament_id: int):
    t = clock.resume(db.session, actor(), tournament_id)
    db.session.commit()
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


@blp.route("/<int:tournament_id>/close-registration", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, TournamentOut)
def close_registration(_args, tournament_id: int):
    """The director closes late registration now: the players out so far are placed and paid; with one
    player left the tournament is won."""
    t = places.close_late_registration(db.session, actor(), house(), tournament_id)
    db.session.commit()
    return _detail(t)


@blp.route("/<int:tournament_id>/hand-for-hand/deal", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, ClockOut)
def deal_hand(_args, tournament_id: int):
    """Hand for hand: every table deals the next hand together; the clock runs while it is played."""
    t = eliminations.deal_hand(db.session, actor(), house(), tournament_id)
    db.session.commit()
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


@blp.route("/<int:tournament_id>/tables/<int:table_number>/hand-done", methods=["POST"])
@allow(*BUST, table_arg="table_number")
@blp.arguments(EmptySchema)
@blp.response(200, ClockOut)
def hand_done(_args, tournament_id: int, table_number: int):
    """Hand for hand: this table has finished the hand (its players out, if any, already recorded)."""
    t = eliminations.hand_done(db.session, actor(), house(), tournament_id, table_number)
    db.session.commit()
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


def _bust(args, tournament_id: int, table_number: int | None):
    out = eliminations.bust(db.session, actor(), house(), tournament_id, args["busts"], args["winners"],
                            args["button_seat"], table_number=table_number)
    db.session.commit()
    t = core.get(db.session, tournament_id)
    elims = [{"entry_id": r.entry_id, "place": core.entry(db.session, t, r.entry_id).place,
              "chips_at_start": r.chips_at_start, "prize": r.prize, "bounty_paid": r.bounty_paid}
             for r in out["eliminations"]]
    return {"hand": out["hand"], "finished": out["finished"], "eliminations": elims,
            "moves": out["moves"], "tournament_id": t.id}


@blp.route("/<int:tournament_id>/busts", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(BustsIn)
@blp.response(201, BustOut)
def bust(args, tournament_id: int):
    """Players out on one hand (chips at the start of the hand), the pot's winners: places, bounties,
    prizes, then the moves the tables need."""
    return _bust(args, tournament_id, None)


@blp.route("/<int:tournament_id>/tables/<int:table_number>/busts", methods=["POST"])
@allow(*BUST, table_arg="table_number")
@blp.arguments(BustsIn)
@blp.response(201, BustOut)
def table_bust(args, tournament_id: int, table_number: int):
    """The same from the dealer terminal of a tournament table: only its own players."""
    return _bust(args, tournament_id, table_number)


@blp.route("/tables/<int:table_number>")
@allow(*BUST, "pit_boss", table_arg="table_number")
@blp.response(200, TableViewOut)
def table_view(table_number: int):
    """The dealer terminal of a tournament table: the clock, its players by seat, its moves."""
    table = tables_svc.table_by_number(db.session, table_number)
    t = results.tournament_at_table(db.session, table.id)
    if t is None:
        raise InvalidState("table {number} plays no tournament now", code="no_tournament", number=table_number)
    return results.at_table(db.session, house(), t, table)


@blp.route("/<int:tournament_id>/chips", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ChipsIn)
@blp.response(200, ClockOut)
def chips(args, tournament_id: int):
    """The floor's chip counts (the board's average stack; a deal or a cancellation takes its own)."""
    eliminations.record_chips(db.session, actor(), tournament_id, _stacks(args["stacks"]), args["table"])
    db.session.commit()
    t = core.get(db.session, tournament_id)
    return clock.state(db.session, t, core.now_or(None), house().tournament_payout_unit)


@blp.route("/<int:tournament_id>/moves/<int:move_id>/done", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(EmptySchema)
@blp.response(200, MoveOut)
def move_done(_args, tournament_id: int, move_id: int):
    """The player and his chips are at the new seat."""
    mv = balancing.confirm_move(db.session, actor(), tournament_id, move_id)
    db.session.commit()
    return mv


@blp.route("/<int:tournament_id>/deals", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(DealIn)
@blp.response(201, DealOut)
def offer_deal(args, tournament_id: int):
    """ICM or chip chop from the stacks of every player left; nothing is paid until all agree."""
    d = deals.offer(db.session, actor(), house(), tournament_id, args["method"], _stacks(args["stacks"]), args["save"])
    db.session.commit()
    return d


@blp.route("/<int:tournament_id>/deals/<int:deal_id>/agree", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(AgreeIn)
@blp.response(200, DealOut)
def agree(args, tournament_id: int, deal_id: int):
    """One player agrees; the last agreement pays everyone."""
    d = deals.agree(db.session, actor(), house(), tournament_id, deal_id, args["entry_id"])
    db.session.commit()
    return d


@blp.route("/<int:tournament_id>/deals/<int:deal_id>/withdraw", methods=["POST"])
@allow(*MANAGE)
@blp.arguments(ReasonIn)
@blp.response(200, DealOut)
def withdraw(args, tournament_id: int, deal_id: int):
    d = deals.withdraw(db.session, actor(), tournament_id, deal_id, args["reason"])
    db.session.commit()
    return d


@blp.route("/<int:tournament_id>/cancellation", methods=["POST"])
@allow(*CANCEL)
@blp.arguments(CancelPlanIn)
@blp.response(200, ShareOut(many=True))
def cancellation_plan(args, tournament_id: int):
    """What each player still seated would get if the tournament were cancelled now by this rule
    (nothing paid): shown for the confirmation."""
    t = core.get(db.session, tournament_id)
    core.require_status(t, "running")
    plan = cancellation.plan(db.session, house(), t, _stacks(args["stacks"]), args["rule"])
    return [{"entry_id": s.player, "refund": s.refund, "bounty": s.bounty, "next_prize": s.next_prize,
             "equal_share": s.equal_share, "chip_share": s.chip_share, "total": s.total} for s in plan.shares]


@blp.route("/<int:tournament_id>/cancel", methods=["POST"])
@allow(*CANCEL)
@blp.arguments(CancelIn)
@blp.response(200, CancelOut)
def cancel(args, tournament_id: int):
    """Cancel: refunds before the start; once running, the house's rule from the chip counts."""
    out = cancellation.cancel(db.session, actor(), house(), tournament_id, args["reason"], _stacks(args["stacks"]),
                              rule=args["rule"])
    db.session.commit()
    return out


@blp.route("/<int:tournament_id>/results")
@allow(*READ)
@blp.response(200, ResultsOut)
def results_json(tournament_id: int):
    """Standings, prizes, bounties, the money and every draw with its seed."""
    t = core.get(db.session, tournament_id)
    return {"tournament": t, "standings": results.standings(db.session, t), "money": results.money(db.session, t),
            "draws": results.draws(db.session, t)}


@blp.route("/<int:tournament_id>/results.csv")
@allow(*READ)
@blp.doc(responses={"200": {"description": "the standings as CSV: place, player, entry, prize_cents, "
                                          "bounties_cents, status", "content": {"text/csv": {}}}})
def results_csv(tournament_id: int):
    t = core.get(db.session, tournament_id)
    return Response(results.results_csv(db.session, t), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{t.id}.csv"'})
