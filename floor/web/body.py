"""How a JSON body is read: one parser for every route that takes one (flask-smorest's arguments).

A body must be what it says it is. A form, a text/plain body or no body at all is refused on a route
whose schema has fields, instead of being read as ``{}`` and run with every default (a client that
sends the wrong thing learns it, and nothing happens on its behalf). A route whose schema has no field
(an action) takes no body. A key given twice is refused: which value would win depends on the parser,
and a check upstream (a proxy, a log) may have read the other one."""
from __future__ import annotations

import json

from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from floor.errors import BadInput, FloorError


class UnsupportedBody(FloorError):
    # 400, the status the API documents for a body it refuses (the code says why)
    code = "unsupported_media_type"
    status = 400


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def loads(raw: bytes | str):
    """The JSON text of a request, every object's keys once."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    return json.loads(text, object_pairs_hook=_refuse_duplicates)


class JsonBodyParser(FlaskParser):
    def load_json(self, req, schema):
        raw = req.get_data(cache=True)
        if not raw.strip():
            if not schema.fields:
                return core.missing        # an action: nothing to send
            raise BadInput("this route takes a JSON object as its body (an empty object when every field keeps its default)",
                           code="bad_json", field="json")
        if not is_json_request(req):
            raise UnsupportedBody("send the body as JSON (Content-Type: application/json)", field="json")
        try:
            return loads(raw)
        except _DuplicateKey as exc:
            raise BadInput("the key {key} is given twice", code="bad_json", field="json", key=exc.key) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return self._handle_invalid_json_error(exc, req)
