"""URL rules whose builders are compiled once per process.

Werkzeug compiles two Python functions for each rule of each app (url_for's builders); with about 840
rules that is most of what building an app costs once the OpenAPI document is lazy. The function only
depends on the rule's text and parts, never on the app, so apps built from the same code (each test's,
each worker's) share them."""
from __future__ import annotations

from werkzeug.routing import Rule

_BUILDERS: dict[tuple, object] = {}


class SharedBuilderRule(Rule):
    def _compile_builder(self, append_unknown: bool = True):
        if self.defaults:   # a default can be folded into the code through the map's converters
            return super()._compile_builder(append_unknown)
        key = (self.rule, append_unknown, tuple(self._trace))
        builder = _BUILDERS.get(key)
        if builder is None:
            builder = _BUILDERS[key] = super()._compile_builder(append_unknown)
        return builder
