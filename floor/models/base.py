"""Declarative base shared by every model (SQLAlchemy 2.0 typed mappings)."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, CheckConstraint, DateTime, MetaData, TypeDecorator
from sqlalchemy.orm import DeclarativeBase, synonym

from floor.errors import Msg

# Named constraints so migrations can alter them on SQLite and PostgreSQL alike.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator):
    """Timestamps stored in UTC and always read back timezone-aware (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use timezone-aware UTC")
        return value.astimezone(timezone.utc)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


MSG = "$msg"    # a sentence inside a JSON column: {"$msg": {"template": ..., "params": ...}, "text": English}


def _keep(value):
    if isinstance(value, Msg):
        return {MSG: value.to_json(), "text": str.__str__(value)}
    if isinstance(value, dict):
        return {k: _keep(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_keep(v) for v in value]
    return value


def _back(value):
    if isinstance(value, dict):
        if MSG in value and isinstance(value[MSG], dict):
            return Msg.from_json(value[MSG])
        return {k: _back(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_back(v) for v in value]
    return value


class Data(TypeDecorator):
    """JSON (every ``Mapped[dict]``) that keeps a sentence put anywhere inside it (a ``Msg``: a timeline
    entry's reason, an alert's values) as its template and values, with its English beside them for
    whoever reads the database, and gives it back as a ``Msg``: it is said in the reader's language."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return _keep(value)

    def process_result_value(self, value, dialect):
        return _back(value)


def sentence(column: str, kept: str, length: int):
    """A sentence the floor stores to show later, in two columns: ``_<column>`` (named ``column`` in the
    table) keeps its English for exports and logs, ``kept`` its template and values. Written and read
    through this one attribute: a ``Msg`` written is kept whole and read back as a ``Msg`` (said in the
    reader's language); plain text (a reason a person typed) is kept and read as it is."""
    text = "_" + column

    def read(self):
        msg = getattr(self, kept)
        return Msg.from_json(msg) if isinstance(msg, dict) and "template" in msg else getattr(self, text)

    def write(self, value):
        setattr(self, kept, value.to_json() if isinstance(value, Msg) else None)
        setattr(self, text, None if value is None else str.__str__(value)[:length])

    return synonym(text, descriptor=property(read, write))


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime, dict: Data}


def whole_cents(*columns: str) -> list:
    """SQLite stores any value in any column: a money column there only takes integers (PostgreSQL's
    BIGINT refuses anything else by its type)."""
    return [CheckConstraint(f"typeof({c}) = 'integer'", name=f"{c}_integer").ddl_if(dialect="sqlite")
            for c in columns]

