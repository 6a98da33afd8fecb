"""Staff accounts: passwords and dealer PINs (argon2), lockout after failures, integration tokens."""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from floor import audit
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotAllowed, NotAuthenticated, NotFound, RateLimited
from floor.models import ROLES, ApiToken, LoginFailure, Staff, Table

# argon2id with the library's default (RFC 9106 low-memory) cost. "minimal" is for test suites and a
# throwaway demo only: a standard verify costs about half a second of CPU, which a suite pays per login.
HASH_COSTS = {"standard": profiles.RFC_9106_LOW_MEMORY, "minimal": profiles.CHEAPEST}
_hasher = PasswordHasher.from_parameters(HASH_COSTS["standard"])
_dummy: str | None = None


def use_hash_cost(cost: str) -> None:
    """Set this process's cost for new hashes (config ``[security] password_hash_cost``). Existing
    hashes keep the cost they were made with: argon2 reads it from the hash."""
    global _hasher, _dummy
    if cost not in HASH_COSTS:
        # A start-up configuration mistake, never a person's request: the process must not start.
        raise ValueError(f"[security] password_hash_cost is one of {', '.join(HASH_COSTS)}, not {cost!r}")
    _hasher, _dummy = PasswordHasher.from_parameters(HASH_COSTS[cost]), None


def _dummy_hash() -> str:
    # A hash to verify against when the user does not exist, so timing does not reveal usernames;
    # made on first use, at this process's cost.
    global _dummy
    if _dummy is None:
        _dummy = _hasher.hash("no such user")
    return _dummy


def hash_secret(secret: str) -> str:
    return _hasher.hash(secret)


def _matches(hashed: str | None, secret: str) -> bool:
    try:
        return bool(hashed) and _hasher.verify(hashed, secret)
    except (VerificationError, InvalidHashError):
        return False


def create_staff(session: Session, actor: Actor, username: str, name: str, role: str,
                 password: str, pin: str | None = None) -> Staff:
    if role not in ROLES:
        raise BadInput("unknown role {role!r}; one of {roles}", field="role", role=role, roles=", ".join(ROLES))
    if len(password) < 8:
        raise BadInput("a password has at least 8 characters", field="password")
    if pin is not None and not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise BadInput("a PIN is 4 to 8 digits", field="pin")
    if session.execute(select(Staff.id).where(Staff.username == username)).first():
        raise Conflict("username {username!r} is taken", username=username)
    staff = Staff(username=username, name=name, role=role, password_hash=hash_secret(password),
                  pin_hash=hash_secret(pin) if pin else None)
    session.add(staff)
    session.flush()
    audit.record(session, actor, "staff.create", f"staff:{staff.id}",
                 after={"username": username, "name": name, "role": role, "has_pin": pin is not None})
    return staff


def _wrong(how: str) -> NotAuthenticated:
    # Never which of the two was wrong; but a dealer at a terminal is asked for a PIN, not a password.
    if how == "pin":
        return NotAuthenticated("wrong dealer name or PIN", code="bad_credentials")
    return NotAuthenticated("wrong username or password", code="bad_credentials")


def _throttle(session: Session, username: str, client: str, now: datetime, failures_to_lock: int,
              lock_minutes: int) -> None:
    """Refuse a client that failed too often for this name lately. Counted per (name typed, client),
    whether or not an account has that name: the answer is the same for a name that exists and one
    that does not, and one client's guesses never lock the account for the others (its owner's tablet
    logs in as before)."""
    since = now - timedelta(minutes=lock_minutes)
    failures = session.scalar(select(func.count()).select_from(LoginFailure).where(
        LoginFailure.username == username[:60], LoginFailure.client == client[:64], LoginFailure.at > since))
    if failures >= failures_to_lock:
        raise RateLimited("too many failed logins for this name from this terminal; try again in {minutes} minutes",
                          code="login_throttled", minutes=lock_minutes)


def forget_login_failures(session: Session, now: datetime, lock_minutes: int, keep_hours: int = 24) -> int:
    """Delete failed-login rows older than ``keep_hours`` (never younger than the lockout window:
    the throttle reads the window's rows). A failure against a real account is also in the audit
    log, which keeps it; these rows only count guesses, so a day is enough to look into an attack."""
    keep = max(timedelta(hours=keep_hours), timedelta(minutes=lock_minutes))
    return session.execute(delete(LoginFailure).where(LoginFailure.at < now - keep)).rowcount or 0


def _check(session: Session, username: str, staff: Staff | None, ok: bool, now: datetime, terminal: str,
           client: str, how: str) -> Staff:
    if not ok:
        session.add(LoginFailure(username=username[:60], client=client[:64], at=now))
        if staff is not None:
            staff.failed_logins += 1
            audit.record(session, Actor(staff.name, staff.role, terminal, staff.id), f"login.{how}.failed",
                         f"staff:{staff.id}", after={"failed_logins": staff.failed_logins, "client": client[:64]})
        raise _wrong(how)
    # Past this point the caller knows the secret: saying the account is locked or disabled tells a
    # guesser nothing.
    if is_locked(staff, now):
        raise NotAllowed("account locked until {until}", code="account_locked",
                         until=staff.locked_until.replace(tzinfo=timezone.utc))
    if not staff.active:
        raise NotAllowed("this account is disabled", code="account_disabled")
    staff.failed_logins = 0
    audit.record(session, Actor(staff.name, staff.role, terminal, staff.id), f"login.{how}", f"staff:{staff.id}")
    return staff


def authenticate(session: Session, username: str, password: str, *, terminal: str, client: str = "",
                 failures_to_lock: int = 5, lock_minutes: int = 15, now: datetime | None = None) -> Staff:
    """Check a password. Failures are counted (the caller must commit even on failure)."""
    now = now or datetime.now(timezone.utc)
    _throttle(session, username, client, now, failures_to_lock, lock_minutes)
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None:
        _matches(_dummy_hash(), password)
        return _check(session, username, None, False, now, terminal, client, "password")
    ok = _matches(staff.password_hash, password)
    return _check(session, username, staff, ok, now, terminal, client, "password")


def authenticate_dealer(session: Session, username: str, pin: str, *, terminal: str, client: str = "",
                        failures_to_lock: int = 5, lock_minutes: int = 15,
                        now: datetime | None = None) -> Staff:
    """A dealer's PIN login at a table terminal. Any name that is not a dealer's with a PIN gets the
    answer an unknown name gets: the terminal never tells which staff usernames exist."""
    now = now or datetime.now(timezone.utc)
    _throttle(session, username, client, now, failures_to_lock, lock_minutes)
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None or staff.role != "dealer" or not staff.pin_hash:
        _matches(_dummy_hash(), pin)
        return _check(session, username, None, False, now, terminal, client, "pin")
    ok = _matches(staff.pin_hash, pin)
    return _check(session, username, staff, ok, now, terminal, client, "pin")


def lock(session: Session, actor: Actor, username: str, until: datetime | None) -> Staff:
    """An admin locks an account until a time (a stolen password, a leaver), or unlocks it (None):
    while locked, no login, no session and no token of it is accepted."""
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None:
        raise NotFound("no staff account {username!r}", username=username)
    before = staff.locked_until
    staff.locked_until = until
    audit.record(session, actor, "staff.lock" if until else "staff.unlock", f"staff:{staff.id}",
                 before={"locked_until": before.isoformat() if before else None},
                 after={"locked_until": until.isoformat() if until else None})
    return staff


def is_locked(staff: Staff, now: datetime | None = None) -> bool:
    now = now or datetime.now(timezone.utc)
    return staff.locked_until is not None and staff.locked_until.replace(tzinfo=timezone.utc) > now


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(session: Session, actor: Actor, username: str, label: str = "", *, table_number: int | None = None,
                 expires_at: datetime | None = None, now: datetime | None = None) -> str:
    """A new bearer token for an integration account; only its hash is kept. A dealer's token names
    the table it acts at (like his PIN session); any token may run out at ``expires_at``."""
    now = now or datetime.now(timezone.utc)
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None:
        raise NotFound("no staff account {username!r}", username=username)
    table_id = None
    if table_number is not None:
        table_id = session.execute(select(Table.id).where(Table.number == table_number)).scalar()
        if table_id is None:
            raise NotFound("no table number {number}", number=table_number)
    elif staff.role == "dealer":
        raise BadInput("a dealer's token names the table it acts at (--table N)", field="table")
    if expires_at is not None and expires_at <= now:
        raise BadInput("a token cannot expire in the past", field="expires")
    token = "fm_" + secrets.token_urlsafe(32)
    row = ApiToken(staff_id=staff.id, token_hash=_token_hash(token), label=label[:120], table_id=table_id,
                   expires_at=expires_at)
    session.add(row)
    session.flush()
    audit.record(session, actor, "token.create", f"staff:{staff.id}",
                 after={"token_id": row.id, "label": label, "table": table_number,
                        "expires_at": expires_at.isoformat() if expires_at else None})
    return token


@dataclass(frozen=True)
class TokenHolder:
    staff: Staff
    table_number: int | None   # the table a dealer's token acts at


def holder_of_token(session: Session, token: str, now: datetime | None = None) -> TokenHolder | None:
    """Who a bearer token speaks for, or None (unknown, revoked, expired, an inactive account, or a
    dealer token bound to no table)."""
    now = now or datetime.now(timezone.utc)
    # one query: every API call asks it
    found = session.execute(
        select(ApiToken.expires_at, Staff, Table.number)
        .join(Staff, Staff.id == ApiToken.staff_id).outerjoin(Table, Table.id == ApiToken.table_id)
        .where(ApiToken.token_hash == _token_hash(token), ApiToken.revoked_at.is_(None))
    ).one_or_none()
    if found is None:
        return None
    expires_at, staff, table_number = found
    if (expires_at is not None and expires_at <= now) or not staff.active or is_locked(staff, now):
        return None
    if staff.role == "dealer" and table_number is None:
        return None
    return TokenHolder(staff, table_number)


def tokens(session: Session) -> list[dict]:
    """Every token (never the secret): whose, where, since when, until when, revoked."""
    rows = session.execute(select(ApiToken, Staff.username, Staff.role, Table.number)
                           .join(Staff, Staff.id == ApiToken.staff_id)
                           .outerjoin(Table, Table.id == ApiToken.table_id).order_by(ApiToken.id)).all()
    return [{"id": t.id, "username": username, "role": role, "table": number, "label": t.label,
             "created_at": t.created_at, "expires_at": t.expires_at, "revoked_at": t.revoked_at}
            for t, username, role, number in rows]


def revoke_token(session: Session, actor: Actor, token_id: int, now: datetime | None = None) -> None:
    """Revoke a token at once: the next request with it is refused."""
    row = session.get(ApiToken, token_id)
    if row is None:
        raise NotFound("no token {token_id}", token_id=token_id)
    if row.revoked_at is not None:
        raise Conflict("token {token_id} is already revoked", code="already_revoked", token_id=token_id)
    row.revoked_at = now or datetime.now(timezone.utc)
    session.flush()
    audit.record(session, actor, "token.revoke", f"staff:{row.staff_id}", after={"token_id": row.id})
