"""The body of every error the API sends (floor/web/errors.py makes it), as the OpenAPI document shows it."""
from __future__ import annotations

from marshmallow import Schema, fields


class ErrorSchema(Schema):
    """Every error the API sends: a stable code, a sentence in the reader's language, the field at fault."""

    error = fields.String(required=True, metadata={"description": "a stable code, e.g. bad_input, two_person_rule"})
    message = fields.String(required=True, metadata={"description": "in the reader's language"})
    field = fields.String(metadata={"description": "the request field at fault, when there is one"})
    details = fields.Dict(metadata={"description": "bad_input from a schema: every field and what is wrong with it"})
