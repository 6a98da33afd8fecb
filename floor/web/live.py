"""How a domain object published as a live update (Socket.IO) looks: the same schema as the API's
answer for it, so a page reads one shape whether it fetched the object or was sent it."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema

from floor.models import Alert, CashRequest
from floor.poker.passes import PassEnded, PassView
from floor.web.api.cashier_schemas import CashRequestSchema
from floor.web.api.poker_schemas import PassEndedSchema, PassStateSchema
from floor.web.api.schemas import AlertSchema

_SCHEMAS: dict[type, Schema] = {
    Alert: AlertSchema(),
    CashRequest: CashRequestSchema(),
    PassView: PassStateSchema(),         # a pass's own state, pushed to its room (floor.poker.pass_feed)
    PassEnded: PassEndedSchema(),        # why it ended: as its 410 answer says it
}


def shape(payload: Any) -> dict:
    schema = _SCHEMAS.get(type(payload))
    if schema is None:
        raise TypeError(f"no live shape for {type(payload).__name__}: add its schema to floor.web.live")
    return schema.dump(payload)
