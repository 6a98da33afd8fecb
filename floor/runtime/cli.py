"""`flask floor ...`: setup, demo floor, tokens, audit verification, staff accounts."""
from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone

import click
from flask import Blueprint, current_app
from flask_migrate import upgrade

from floor import audit
from floor import demo as demo_svc
from floor import staff as staff_svc
from floor.actors import Actor
from floor.errors import FloorError
from floor.models import ROLES
from floor.runtime import background, scheduler
from floor.web.extensions import db

bp = Blueprint("floor_cli", __name__, cli_group="floor")
CLI_ACTOR = Actor(name="cli", role="admin", terminal="console")


def _demo_logins() -> str:
    lines = [f"Demo logins (password '{demo_svc.DEMO_PASSWORD}'):"]
    for username, name, role, pin in demo_svc.DEMO_STAFF:
        extra = f", PIN {pin} at /dealer/<table>/login" if pin else ""
        lines.append(f"  {username:<10} {role:<14} {name}{extra}")
    return "\n".join(lines)


@bp.cli.command("setup")
def setup():
    """Migrate the database to the latest schema; load the demo floor into a new one if configured."""
    upgrade()
    cfg = current_app.config["FLOOR"]
    if cfg["app"]["demo"] and demo_svc.is_empty(db.session):
        demo_svc.load_demo(db.session)
        demo_svc.load_demo_tournament(db.session, current_app.config["HOUSE"])
        db.session.commit()
        click.echo("Loaded the demo floor.")
    if cfg["app"]["demo"]:
        click.echo(_demo_logins())


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
@click.password_option(help="prompted (twice) when not given; FLOOR_USER_PASSWORD also works",
                       envvar="FLOOR_USER_PASSWORD")
def user_create(username, role, name, pin, password):
    """Create a staff account: USERNAME with --role, e.g. `flask floor user create alice --role admin`."""
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


@bp.cli.command("devices")
def devices_process():
    """Run the device process: own the serial ports, emit through the message queue, run the commands
    people give the devices. A second one stands by until the first stops."""
    background.run_device_process(current_app._get_current_object())


@bp.cli.command("scheduler")
def scheduler_process():
    """Run the scheduler process: every timer of the floor, recovery of cut settlements, the heartbeat."""
    scheduler.run_scheduler_process(current_app._get_current_object())
