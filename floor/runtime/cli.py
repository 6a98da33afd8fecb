"""`flask floor ...`: setup, demo floor, games and tables, tokens, audit verification, staff accounts."""
from __future__ import annotations

import secrets
import sys
from datetime import datetime, timedelta, timezone

import click
from flask import Blueprint, current_app
from flask_migrate import upgrade

from config import ConfigError

from floor import audit
from floor import demo as demo_svc
from floor import layout
from floor import staff as staff_svc
from floor.actors import Actor
from floor.errors import FloorError
from floor.models import ROLES
from floor.models.tables import POKER_VARIANTS, STRUCTURES, TABLE_KINDS
from floor.runtime import background, scheduler
from floor.runtime import device_bench as bench_cli
from floor.web.extensions import db

bp = Blueprint("floor_cli", __name__, cli_group="floor")
CLI_ACTOR = Actor(name="cli", role="admin", terminal="console")


def _demo_logins() -> str:
    lines = [f"Demo logins (password '{demo_svc.DEMO_PASSWORD}'):"]
    for username, name, role, pin in demo_svc.DEMO_STAFF:
        extra = f", PIN {pin} at /dealer/<table>/login" if pin else ""
        lines.append(f"  {username:<10} {role:<14} {name}{extra}")
    return "\n".join(lines)


def _fail(exc: FloorError):
    db.session.rollback()
    click.echo(f"error: {exc.message}", err=True)
    sys.exit(1)


@bp.cli.command("setup")
def setup():
    """Migrate the database to the latest schema; load the demo floor into a new one if configured;
    create or change the games and tables the configuration declares ([[games]], [[tables]])."""
    upgrade()
    cfg = current_app.config["FLOOR"]
    if cfg["app"]["demo"] and demo_svc.is_empty(db.session):
        demo_svc.load_demo(db.session)
        demo_svc.load_demo_tournament(db.session, current_app.config["HOUSE"])
        db.session.commit()
        click.echo("Loaded the demo floor.")
    if cfg.get("games") or cfg.get("tables"):
        try:
            done = layout.apply_declared(db.session, CLI_ACTOR, cfg.get("games") or [], cfg.get("tables") or [])
        except FloorError as exc:
            _fail(exc)
        db.session.commit()
        click.echo(f"Floor layout: created {', '.join(done.created) or 'nothing'}; "
                   f"changed {', '.join(done.changed) or 'nothing'}.")
    for problem in layout.device_problems(db.session, _configured_devices(cfg)):
        click.echo(f"warning: {problem}", err=True)
    if cfg["app"]["demo"]:
        click.echo(_demo_logins())


def _configured_devices(cfg: dict) -> list[tuple[str, str, str]]:
    return [(str(d.get("name")), str(d.get("table")), str(d.get("kind"))) for d in cfg.get("devices") or []
            if isinstance(d, dict)]


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@bp.cli.group("game")
def game_group():
    """Games at their limits (amounts in cents): what tables deal and waiting lists are for."""


def _game_options(f):
    for opt in reversed([
        click.option("--kind", type=click.Choice([str(k) for k in TABLE_KINDS]), help="the game the tables deal"),
        click.option("--variant", type=click.Choice(POKER_VARIANTS), help="poker only"),
        click.option("--structure", type=click.Choice(STRUCTURES), help="poker only"),
        click.option("--small-blind", type=int, help="poker, cents"),
        click.option("--big-blind", type=int, help="poker, cents"),
        click.option("--min-bet", type=int, help="table games, cents"),
        click.option("--max-bet", type=int, help="table games, cents"),
    ]):
        f = opt(f)
    return f


def _given(**values) -> dict:
    return {k: v for k, v in values.items() if v is not None}


@game_group.command("create")
@click.argument("name")
@_game_options
def game_create(name, **values):
    """Create game NAME, e.g. `flask floor game create "Roulette 5-500" --kind roulette --min-bet 500
    --max-bet 50000`."""
    try:
        game = layout.create_game(db.session, CLI_ACTOR, {"name": name, **_given(**values)})
    except FloorError as exc:
        _fail(exc)
    db.session.commit()
    click.echo(f"created game {game.id}: {game.name}")


@game_group.command("change")
@click.argument("name")
@click.option("--name", "new_name", default=None, help="a new name")
@_game_options
def game_change(name, new_name, **values):
    """Change game NAME: its name, limits, poker variant or structure."""
    try:
        game = layout.change_game(db.session, CLI_ACTOR, layout.game_by_name(db.session, name).id,
                                  _given(name=new_name, **values))
    except FloorError as exc:
        _fail(exc)
    db.session.commit()
    click.echo(f"game {game.id}: {game.name}")


@game_group.command("list")
def game_list():
    """Every game: id, name, kind, limits."""
    for g in layout.layout(db.session)["games"]:
        limits = (f"blinds {_money(g['small_blind'])}/{_money(g['big_blind'])} {g['variant']} {g['structure']}"
                  if g["kind"] == "poker" else f"bets {_money(g['min_bet'])}-{_money(g['max_bet'])}")
        click.echo(f"{g['id']}\t{g['name']}\t{g['kind']}\t{limits}")


@bp.cli.group("table")
def table_group():
    """The floor's tables: number, name, game, seats."""


@table_group.command("create")
@click.argument("number", type=int)
@click.option("--game", required=True, help="the game's name (see `flask floor game list`)")
@click.option("--name", default=None, help="the name shown on pages (default: the game's and the number)")
@click.option("--seats", type=int, default=None, help="1 to 12 (default 10 at poker, 7 at table games)")
def table_create(number, game, name, seats):
    """Create table NUMBER (closed), e.g. `flask floor table create 12 --game "Roulette 5-500" --seats 8`."""
    try:
        g = layout.game_by_name(db.session, game)
        table = layout.create_table(db.session, CLI_ACTOR, number, name or f"{g.name} ({number})", g.id,
                                    seats if seats is not None else (10 if g.kind == "poker" else 7))
    except FloorError as exc:
        _fail(exc)
    db.session.commit()
    click.echo(f"created table {table.number}: {table.name}, {table.seat_count} seats, {table.status}")


@table_group.command("change")
@click.argument("number", type=int)
@click.option("--game", default=None, help="another game (the table closed and empty)")
@click.option("--name", default=None, help="a new name")
@click.option("--seats", type=int, default=None, help="1 to 12 (the table closed and empty)")
def table_change(number, game, name, seats):
    """Change table NUMBER: its name at any time; its game or seats while it is closed and empty."""
    try:
        game_id = layout.game_by_name(db.session, game).id if game is not None else None
        table = layout.change_table(db.session, CLI_ACTOR, number, name=name, game_id=game_id, seats=seats)
    except FloorError as exc:
        _fail(exc)
    db.session.commit()
    click.echo(f"table {table.number}: {table.name}, {table.game.name}, {table.seat_count} seats, {table.status}")


@table_group.command("list")
def table_list():
    """Every table: number, name, game, seats, status."""
    for t in layout.layout(db.session)["tables"]:
        click.echo(f"{t['number']}\t{t['name']}\t{t['game']}\t{t['seats']} seats\t{t['status']}")


@bp.cli.command("demo")
def demo():
    """Load the demo floor into an empty database."""
    if not demo_svc.is_empty(db.session):
        click.echo("The database already has staff; the demo floor loads only into an empty one.", err=True)
        sys.exit(1)
    demo_svc.load_demo(db.session)
    demo_svc.load_demo_tournament(db.session, current_app.config["HOUSE"])
    db.session.commit()
    click.echo(_demo_logins())


@bp.cli.group("token")
def token():
    """Bearer tokens for integrations."""


@token.command("create")
@click.argument("username")
@click.option("--label", default="", help="what the token is for")
@click.option("--table", "table_number", type=int, default=None,
              help="the table number a dealer's token acts at (required for a dealer)")
@click.option("--expires-hours", type=click.FloatRange(min=0, min_open=True), default=None,
              help="the token stops working after this many hours")
def token_create(username: str, label: str, table_number: int | None, expires_hours: float | None):
    """Print a new bearer token for USERNAME (shown once; only its hash is kept)."""
    expires_at = datetime.now(timezone.utc) + timedelta(hours=expires_hours) if expires_hours else None
    try:
        tok = staff_svc.create_token(db.session, CLI_ACTOR, username, label, table_number=table_number,
                                     expires_at=expires_at)
    except FloorError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    db.session.commit()
    click.echo(tok)


@token.command("list")
def token_list():
    """Every token: id, account, role, table, label, created, expires, revoked (never the secret)."""
    def when(t):
        return t.strftime("%Y-%m-%d %H:%M") if t else "-"
    for t in staff_svc.tokens(db.session):
        click.echo(f"{t['id']}\t{t['username']}\t{t['role']}\ttable {t['table'] or '-'}\t{t['label'] or '-'}\t"
                   f"created {when(t['created_at'])}\texpires {when(t['expires_at'])}\t"
                   f"{'revoked ' + when(t['revoked_at']) if t['revoked_at'] else 'active'}")


@token.command("revoke")
@click.argument("token_id", type=int)
def token_revoke(token_id: int):
    """Revoke token TOKEN_ID (see `token list`): refused from the next request on."""
    try:
        staff_svc.revoke_token(db.session, CLI_ACTOR, token_id)
    except FloorError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    db.session.commit()
    click.echo(f"token {token_id} revoked")


@bp.cli.group("audit")
def audit_group():
    """The audit log."""


@audit_group.command("verify")
def audit_verify():
    """Check the whole hash chain; name the first broken record."""
    result = audit.verify(db.session)
    if result.ok:
        click.echo(f"audit chain OK: {result.checked} records")
        return
    click.echo(f"audit chain BROKEN at record {result.broken_id}: {result.reason} "
               f"({result.checked} records before it are intact)", err=True)
    sys.exit(1)


@bp.cli.group("user")
def user_group():
    """Staff accounts (on a floor without the demo, the first admin is created here)."""


@user_group.command("create")
@click.argument("username")
@click.option("--role", required=True, type=click.Choice(ROLES), help="what the account may do")
@click.option("--name", default=None, help="the full name shown on pages and in the audit log")
@click.option("--pin", default=None, help="dealer PIN for the table terminals (dealers only)")
@click.option("--password", default=None, envvar="FLOOR_USER_PASSWORD",
              help="asked for (twice) when not given; FLOOR_USER_PASSWORD also works")
def user_create(username, role, name, pin, password):
    """Create a staff account: USERNAME with --role, e.g. `flask floor user create alice --role admin`.
    A dealer given a --pin needs no password: he signs in at the table terminals with his PIN."""
    if password is None:
        if pin is not None:
            # a password nobody knows: the account signs in with its PIN only
            password = secrets.token_urlsafe(24)
        else:
            try:   # asked twice; piped in, the two lines are read from standard input
                password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
            except click.Abort:
                click.echo("\nerror: no password given and nobody to ask (no terminal, nothing on standard "
                           "input): set FLOOR_USER_PASSWORD or pass --password", err=True)
                sys.exit(2)
    try:
        staff_svc.create_staff(db.session, CLI_ACTOR, username, name or username, role, password, pin)
    except FloorError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    db.session.commit()
    click.echo(f"created {role} {username}")


@user_group.command("lock")
@click.argument("username")
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None,
              help="how long; without it, until unlocked")
def user_lock(username, hours):
    """Lock an account (a stolen password, a leaver): its logins, sessions and tokens are refused."""
    until = datetime.now(timezone.utc) + (timedelta(hours=hours) if hours else timedelta(days=36500))
    _lock(username, until)


@user_group.command("unlock")
@click.argument("username")
def user_unlock(username):
    """Unlock an account locked by `user lock`."""
    _lock(username, None)


def _lock(username, until):
    try:
        staff_svc.lock(db.session, CLI_ACTOR, username, until)
    except FloorError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    db.session.commit()
    click.echo(f"{'locked' if until else 'unlocked'} {username}")


@bp.cli.group("devices", invoke_without_command=True)
@click.pass_context
def devices_process(ctx):
    """Run the device process (with no command): own the serial ports, emit through the message
    queue, run the commands people give the devices. A second one stands by until the first stops.

    The integrator's bench on one port, without the database: check, capture, replay."""
    if ctx.invoked_subcommand is not None:
        return
    try:
        background.run_device_process(current_app._get_current_object())
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


devices_process.add_command(bench_cli.check)
devices_process.add_command(bench_cli.capture)
devices_process.add_command(bench_cli.replay)


@bp.cli.command("scheduler")
def scheduler_process():
    """Run the scheduler process: every timer of the floor, recovery of cut settlements, the heartbeat."""
    scheduler.run_scheduler_process(current_app._get_current_object())
