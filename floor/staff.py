"""Staff accounts: passwords and dealer PINs (argon2), lockout after failures, integration tokens."""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta, timezone

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from floor import audit
from floor.actors import Actor
from floor.errors import BadInput, Conflict, NotAllowed, NotAuthenticated, NotFound
from floor.models import ROLES, ApiToken, Staff

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


def _check(session: Session, staff: Staff | None, ok: bool, now: datetime, failures_to_lock: int,
           lock_minutes: int, terminal: str, how: str) -> Staff:
    if staff is None:
        raise _wrong(how)
    if staff.locked_until and staff.locked_until > now:
        raise NotAllowed("account locked until {until} after repeated failures", code="account_locked",
                         until=staff.locked_until.replace(tzinfo=timezone.utc))
    who = Actor(staff.name, staff.role, terminal, staff.id)
    if not ok:
        staff.failed_logins += 1
        after = {"failed_logins": staff.failed_logins}
        if staff.failed_logins >= failures_to_lock:
            staff.locked_until = now + timedelta(minutes=lock_minutes)
            staff.failed_logins = 0
            after["locked_until"] = staff.locked_until
        audit.record(session, who, f"login.{how}.failed", f"staff:{staff.id}", after=after)
        raise _wrong(how)
    if not staff.active:
        raise NotAllowed("this account is disabled", code="account_disabled")
    staff.failed_logins = 0
    staff.locked_until = None
    audit.record(session, who, f"login.{how}", f"staff:{staff.id}")
    return staff


def authenticate(session: Session, username: str, password: str, *, terminal: str,
                 failures_to_lock: int = 5, lock_minutes: int = 15, now: datetime | None = None) -> Staff:
    """Check a password. Failures are counted (the caller must commit even on failure)."""
    now = now or datetime.now(timezone.utc)
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None:
        _matches(_dummy_hash(), password)
        return _check(session, None, False, now, failures_to_lock, lock_minutes, terminal, "password")
    ok = _matches(staff.password_hash, password)
    return _check(session, staff, ok, now, failures_to_lock, lock_minutes, terminal, "password")


def authenticate_dealer(session: Session, username: str, pin: str, *, terminal: str,
                        failures_to_lock: int = 5, lock_minutes: int = 15,
                        now: datetime | None = None) -> Staff:
    """A dealer's PIN login at a table terminal."""
    now = now or datetime.now(timezone.utc)
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None or staff.role != "dealer" or not staff.pin_hash:
        _matches(_dummy_hash(), pin)
        if staff is not None and staff.role != "dealer":
            raise NotAllowed("PIN login is for dealers", code="not_a_dealer")
        return _check(session, None, False, now, failures_to_lock, lock_minutes, terminal, "pin")
    ok = _matches(staff.pin_hash, pin)
    return _check(session, staff, ok, now, failures_to_lock, lock_minutes, terminal, "pin")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(session: Session, actor: Actor, username: str, label: str = "") -> str:
    """A new bearer token for an integration account; only its hash is kept."""
    staff = session.execute(select(Staff).where(Staff.username == username)).scalar_one_or_none()
    if staff is None:
        raise NotFound("no staff account {username!r}", username=username)
    token = "fm_" + secrets.token_urlsafe(32)
    row = ApiToken(staff_id=staff.id, token_hash=_token_hash(token), label=label)
    session.add(row)
    session.flush()
    audit.record(session, actor, "token.create", f"staff:{staff.id}", after={"token_id": row.id, "label": label})
    return token


def staff_for_token(session: Session, token: str) -> Staff | None:
    row = session.execute(
        select(ApiToken).where(ApiToken.token_hash == _token_hash(token), ApiToken.revoked_at.is_(None))
    ).scalar_one_or_none()
    if row is None:
        return None
    staff = session.get(Staff, row.staff_id)
    return staff if staff is not None and staff.active else None
