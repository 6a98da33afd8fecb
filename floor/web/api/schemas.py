"""Marshmallow schemas shared by the API modules (they also make the OpenAPI document)."""
from __future__ import annotations

import re

from marshmallow import RAISE, Schema, ValidationError, fields, post_dump, validate

from floor.models import AlertKind, AlertSeverity
from floor.web.error_schema import ErrorSchema  # noqa: F401  (the API modules take it from here)

# Bounds checked before anything reaches the database: PostgreSQL INTEGER columns hold 32 bits, and a
# text longer than its column or holding a NUL is an error there (SQLite would store it).
INT_MAX = 2**31 - 1
CENTS_MAX = 2**53 - 1   # the house's max_amount_cents is the real limit, checked in the domain
TEXT_MAX = 200
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Characters that change how a text is shown without being seen: right-to-left overrides and
# isolates (a name that reads "Smith" on the board while its letters say "htimS"), zero-width spaces
# and joiners (two names that look the same and are not), the byte-order mark. A name or a reason on
# a casino floor has no use for them.
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")


def no_control_characters(value: str) -> None:
    if _CONTROL.search(value):
        raise ValidationError("Control characters are not allowed.")
    if _INVISIBLE.search(value):
        raise ValidationError("Invisible or direction-changing characters are not allowed.")


def cents(*, minimum: int = 1, **kw) -> fields.Integer:
    """An amount of money in a request: whole cents (a bool or a float is refused)."""
    meta = {"description": "cents", **kw.pop("metadata", {})}
    return fields.Integer(strict=True, validate=validate.Range(min=minimum, max=CENTS_MAX), metadata=meta, **kw)


def _harden(field: fields.Field, strict: bool) -> None:
    """Every integer strict and bounded, every text bounded and free of control characters, unless
    the schema already says tighter."""
    if isinstance(field, fields.Integer):
        field.strict = field.strict or strict
        if not any(isinstance(v, validate.Range) and v.max is not None for v in field.validators):
            field.validators.append(validate.Range(min=-INT_MAX, max=INT_MAX))
    elif isinstance(field, fields.String):
        if not any(isinstance(v, validate.OneOf) or (isinstance(v, validate.Length) and v.max is not None)
                   for v in field.validators):
            field.validators.append(validate.Length(max=TEXT_MAX))
        field.validators.append(no_control_characters)
    elif isinstance(field, fields.List):
        _harden(field.inner, strict)
        if not any(isinstance(v, validate.Length) and v.max is not None for v in field.validators):
            field.validators.append(validate.Length(max=100))
    elif isinstance(field, fields.Dict):
        for sub in (field.key_field, field.value_field):
            if sub is not None:
                _harden(sub, strict)


class Iso(fields.String):
    """A time in a response: the ISO 8601 text of the stored datetime, as ``datetime.isoformat()``
    writes it (documented as a string: an offset is there only when the database keeps one)."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        return value if isinstance(value, str) else value.isoformat()


def Cents(**kw) -> fields.Integer:   # noqa: N802  (a field, named like one)
    """An amount of money in a response: whole cents."""
    meta = {"description": "cents", **kw.pop("metadata", {})}
    return fields.Integer(metadata=meta, **kw)


def Choice(values, **kw) -> fields.String:   # noqa: N802  (a field, named like one)
    """A string of a closed set in a response (an ``enum.StrEnum`` of the domain): the OpenAPI
    document lists the values."""
    return fields.String(validate=validate.OneOf([str(v) for v in values]), **kw)


class Out(Schema):
    """A response schema. ``OMIT_NONE`` names the keys that are left out, not sent as null, when
    they have no value (the readers test for the key)."""

    OMIT_NONE: tuple[str, ...] = ()

    @post_dump
    def _omit_none(self, data: dict, **kwargs) -> dict:
        for key in self.OMIT_NONE:
            if key in data and data[key] is None:
                del data[key]
        return data


class Strict(Schema):
    """A request body: unknown fields refused by name, integers strict (``1.5`` or ``true`` is not
    1), every number and text bounded."""

    strict_integers = True

    class Meta:
        unknown = RAISE   # a misspelt field is an error naming it, not silently ignored

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        _harden(field_obj, self.strict_integers)


class Query(Strict):
    """Query-string arguments: every value arrives as text, so integers are parsed (not strict)."""

    strict_integers = False


class GameSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    kind = fields.String()
    variant = fields.String(allow_none=True)
    structure = fields.String(allow_none=True)
    small_blind = fields.Integer(metadata={"description": "cents"})
    big_blind = fields.Integer(metadata={"description": "cents"})
    min_bet = fields.Integer(metadata={"description": "cents"})
    max_bet = fields.Integer(metadata={"description": "cents"})


class SeatPlayerSchema(Schema):
    id = fields.Integer()
    name = fields.String()


class SeatSchema(Schema):
    number = fields.Integer()
    player = fields.Nested(SeatPlayerSchema, allow_none=True)
    sat_at = fields.String(allow_none=True)


class TableTournamentSchema(Schema):
    id = fields.Integer()
    name = fields.String()


class TableSchema(Schema):
    id = fields.Integer()
    number = fields.Integer()
    name = fields.String()
    kind = fields.String()
    status = fields.String()
    seat_count = fields.Integer()
    occupied = fields.Integer(metadata={"description": "people at the table: its cash-game players, its seated "
                                                        "tournament entries, or its live-game seats with an "
                                                        "identified player or a bet in the round running"})
    use = fields.String(validate=validate.OneOf(["closed", "cash_game", "table_game", "tournament"]),
                        metadata={"description": "what the table is doing: its one occupant"})
    tournament = fields.Nested(TableTournamentSchema, allow_none=True,
                               metadata={"description": "the tournament holding it, if one does"})
    game = fields.Nested(GameSchema)
    seats = fields.List(fields.Nested(SeatSchema))


class PlayerSchema(Schema):
    id = fields.Integer(dump_only=True)
    name = fields.String()
    card_number = fields.String()
    phone = fields.String(allow_none=True)


class PlayerCreateSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(max=120))
    card_number = fields.String(required=True, validate=validate.Length(max=40))
    phone = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=40))
    same_name_confirmed = fields.Boolean(load_default=False)


class PlayerQuerySchema(Query):
    q = fields.String(load_default="")


class PlayerDuplicatesQuerySchema(Strict):
    name = fields.String(load_default="")
    card_number = fields.String(load_default="")


class Said(fields.String):
    """A sentence the floor stored to show later (a held round's reason, a ban's, a frame's summary): a
    ``Msg`` (kept as its template and values, ``floor.models.base.sentence``) said in the reader's
    language; a row stored as English text before that, found again in the catalog
    (``floor.web.i18n.said``), else shown as it is (a reason a person typed)."""

    def _serialize(self, value, attr, obj, **kwargs):
        from floor.web import i18n
        return None if value is None else i18n.said(value)


class AlertSchema(Schema):
    """An alert (``floor.models.Alert``)."""

    id = fields.Integer()
    at = Iso()
    kind = Choice(AlertKind)
    severity = Choice(AlertSeverity)
    table_id = fields.Integer(allow_none=True)
    message = Said(attribute="sentence", metadata={"description": "in the reader's language"})
    data = fields.Dict(allow_none=True)
    acknowledged = fields.Boolean()


class EmptySchema(Strict):
    """A body with no fields (an action): anything sent is refused by name."""
