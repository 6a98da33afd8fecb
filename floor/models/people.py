"""Players, staff and integration tokens."""
from __future__ import annotations

import unicodedata
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from floor.models.base import Base, utcnow

# a technician sees the devices (health, their lines, captures) and nothing of money or players
ROLES = ("floor_manager", "dealer", "pit_boss", "admin", "display", "cashier", "technician")


# letters NFKD does not take apart into a base letter and its accent
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


def search_key(text: str) -> str:
    """A name as a search matches it: lower case without accents ("Chloé Müller" -> "chloe muller"),
    the same on SQLite and PostgreSQL since it is stored, not computed by the database."""
    decomposed = unicodedata.normalize("NFKD", (text or "").casefold().translate(_LETTERS))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _name_key(context) -> str:
    return search_key(context.get_current_parameters()["name"])


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    # the name as searched (search_key), kept with the name by every insert, bulk ones too
    name_key: Mapped[str] = mapped_column(String(240), default=_name_key, index=True)
    card_number: Mapped[str] = mapped_column(String(40), unique=True)
    phone: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Staff(Base):
    __tablename__ = "staff"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    pin_hash: Mapped[str | None] = mapped_column(String(200))
    active: Mapped[bool] = mapped_column(default=True)
    failed_logins: Mapped[int] = mapped_column(default=0)
    # Set by an admin (`flask floor user lock`): no login, no session, no token until then. Failed
    # logins never set it (anyone could lock anyone out); they throttle one client (LoginFailure).
    locked_until: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    language: Mapped[str | None] = mapped_column(String(5))   # en | fr | de; None: the terminal's or the house's


class ApiToken(Base):
    """A bearer token for an integration; only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(120), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
    # A dealer's token acts at one table only, like his PIN session; any token may run out.
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    expires_at: Mapped[datetime | None]


class LoginFailure(Base):
    """A failed login, by the name typed (whether or not an account has it) and the client it came
    from: enough of them from one client for one name refuse that client for that name for a while."""

    __tablename__ = "login_failures"
    __table_args__ = (Index("ix_login_failures_who", "username", "client", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(60))
    client: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)
