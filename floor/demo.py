"""The demo floor: a poker room, the four live games, staff with every role, some players, and a
tournament in late registration."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit
from floor import staff as staff_svc
from floor.actors import Actor
from floor.models import Game, Player, Seat, Staff, Table
from floor.settings import HouseSettings
from floor.tournaments import clock, registration, setup

DEMO_PASSWORD = "floorman-demo"
DEMO_STAFF = [
    # username, name, role, PIN (dealers)
    ("admin", "Ada Admin", "admin", None),
    ("manager", "Marc Manager", "floor_manager", None),
    ("manager2", "Mia Manager", "floor_manager", None),
    ("dealer", "Dan Dealer", "dealer", "1234"),
    ("dealer2", "Dora Dealer", "dealer", "2345"),
    ("dealer3", "Dino Dealer", "dealer", "3456"),
    ("dealer4", "Delia Dealer", "dealer", "4567"),
    ("dealer5", "Dario Dealer", "dealer", "5678"),
    ("pitboss", "Paul Pitboss", "pit_boss", None),
    ("pitboss2", "Petra Pitboss", "pit_boss", None),
    ("display", "Lobby Display", "display", None),
    ("cashier", "Cleo Cashier", "cashier", None),
    ("tech", "Theo Technician", "technician", None),
]
DEMO_GAMES = [
    # name, kind, variant, structure, sb, bb, min, max (cents)
    ("No-Limit Hold'em 2/5", "poker", "holdem", "no_limit", 200, 500, 0, 0),
    ("Pot-Limit Omaha 2/5", "poker", "omaha", "pot_limit", 200, 500, 0, 0),
    ("Baccarat 10-1000", "baccarat", None, None, 0, 0, 1_000, 100_000),
    ("Roulette 5-500", "roulette", None, None, 0, 0, 500, 50_000),
    ("Blackjack 10-500", "blackjack", None, None, 0, 0, 1_000, 50_000),
    ("Casino Hold'em 10-250", "casino_holdem", None, None, 0, 0, 1_000, 25_000),
]
DEMO_TABLES = [
    # number, name, game, seats, status
    (1, "Hold'em 2/5 main", "No-Limit Hold'em 2/5", 10, "open"),
    (2, "Hold'em 2/5 must-move", "No-Limit Hold'em 2/5", 10, "closed"),
    (3, "Omaha 2/5", "Pot-Limit Omaha 2/5", 9, "open"),
    (10, "Baccarat", "Baccarat 10-1000", 7, "open"),
    (12, "Roulette", "Roulette 5-500", 8, "open"),
    (14, "Blackjack", "Blackjack 10-500", 7, "open"),
    (15, "Casino Hold'em", "Casino Hold'em 10-250", 7, "open"),
]
DEMO_PLAYERS = [
    "Alice Martin", "Bruno Keller", "Chloé Favre", "David Meier", "Elena Rossi", "Fabian Weber",
    "Gina Schmid", "Hugo Bernard", "Iris Müller", "Jonas Fischer", "Karin Huber", "Luca Bianchi",
    "Marie Dubois", "Nico Steiner", "Olga Novak", "Pierre Girard", "Quentin Roux", "Rita Baumann",
    "Sven Brunner", "Tina Frei", "Urs Zimmermann", "Vera Lang", "Walter Graf", "Xenia Moser",
]


def is_empty(session: Session) -> bool:
    return session.execute(select(Staff.id).limit(1)).first() is None


def load_demo(session: Session, password: str = DEMO_PASSWORD) -> None:
    """Create the demo floor in an empty database (the caller commits)."""
    actor = Actor.system("demo")
    for username, name, role, pin in DEMO_STAFF:
        staff_svc.create_staff(session, actor, username, name, role, password, pin)
    games = {}
    for name, kind, variant, structure, sb, bb, lo, hi in DEMO_GAMES:
        g = Game(name=name, kind=kind, variant=variant, structure=structure,
                 small_blind=sb, big_blind=bb, min_bet=lo, max_bet=hi)
        session.add(g)
        games[name] = g
    session.flush()
    for number, name, game, seats, status in DEMO_TABLES:
        g = games[game]
        t = Table(number=number, name=name, kind=g.kind, game_id=g.id, seat_count=seats, status=status)
        t.seats = [Seat(number=n) for n in range(1, seats + 1)]
        session.add(t)
        session.flush()
        audit.record(session, actor, "table.create", f"table:{t.id}",
                     after={"number": number, "name": name, "game": game, "seats": seats, "status": status})
    for i, name in enumerate(DEMO_PLAYERS, start=1):
        p = Player(name=name, card_number=f"7000{i:04d}")
        session.add(p)
        session.flush()
        audit.record(session, actor, "player.create", f"player:{p.id}", after={"name": name, "card": p.card_number})


DEMO_TOURNAMENT_TABLES = (21, 22, 23)   # first to break first


def load_demo_tournament(session: Session, settings: HouseSettings, now: datetime | None = None) -> None:
    """A daily turbo that started 25 minutes ago, in late registration: twenty demo players seated on
    three tournament tables, the clock in level 2 (the caller commits)."""
    now = now or datetime.now(timezone.utc)
    actor = Actor.system("demo")
    game = session.execute(select(Game).where(Game.name == DEMO_GAMES[0][0])).scalar_one()
    for number in DEMO_TOURNAMENT_TABLES:
        t = Table(number=number, name=f"Tournament {number}", kind="poker", game_id=game.id, seat_count=10, status="open")
        t.seats = [Seat(number=n) for n in range(1, 11)]
        session.add(t)
    session.flush()
    t = setup.create(session, actor, settings, {
        "name": "Daily Turbo", "game_id": game.id, "buy_in": 10_000, "fee": 1_500, "bounty_kind": "knockout",
        "bounty": 2_500, "structure": "daily_turbo", "max_reentries": 1, "seats_per_table": 10,
        "final_table_size": 9, "guarantee": 300_000, "table_numbers": list(DEMO_TOURNAMENT_TABLES)})
    players = session.execute(select(Player.id).order_by(Player.id).limit(20)).scalars().all()
    started = now - timedelta(minutes=25)
    for pid in players:
        registration.register(session, actor, settings, t.id, pid, "cash", started - timedelta(minutes=30))
    clock.start(session, actor, t.id, started)
    clock.tick(session, t.id, now)     # level 1 is over: level 2 on the board, its timer set
