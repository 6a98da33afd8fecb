"""Flask extensions, created unbound and initialised by app.create_app."""
from __future__ import annotations

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_smorest import Api, Blueprint
from flask_smorest.spec import openapi_cli
from flask_socketio import SocketIO
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

from floor.models import Base
from floor.web.body import JsonBodyParser
from floor.web.error_schema import ErrorSchema
from floor.settings import HouseSettings

# The models are plain SQLAlchemy 2.0 classes (floor.models, no flask); Flask-SQLAlchemy only owns
# the engine and the per-request session, and gives Flask-Migrate the metadata.
db = SQLAlchemy(metadata=Base.metadata)
migrate = Migrate()
csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address, default_limits=[])


class FloorApi(Api):
    """The OpenAPI document describes the errors the API really sends ({error, message, field}, see
    floor/web/errors.py) instead of flask-smorest's own.

    The document is written the first time it is read (``/api/openapi.json``, ``flask openapi``), not
    while the app is built: it is two thirds of the cost of create_app, and most apps (each test's,
    each worker process's) never serve it. It depends only on the code and the API_* settings, so a
    process writes it once and every app of the process serves that one."""

    ERROR_SCHEMA = ErrorSchema
    _documents: dict = {}   # (settings, what was registered) -> the APISpec written for it

    def init_app(self, app, *, spec_kwargs=None):
        self._spec = None
        self._doc_kwargs = {**self._spec_kwargs, **(spec_kwargs or {})}
        self._doc_steps: list[tuple] = []
        super().init_app(app, spec_kwargs=spec_kwargs)

    def _init_spec(self, **kwargs):
        self._app.cli.add_command(openapi_cli)   # the rest waits for the first read of ``spec``

    @property
    def spec(self):
        if self._spec is None and getattr(self, "_doc_steps", None) is not None:
            self._spec = self._write_document()
        return self._spec

    @spec.setter
    def spec(self, value):
        self._spec = value

    def security_scheme(self, name: str, scheme: dict) -> None:
        self._doc_steps.append(("security", name, scheme))

    def register_blueprint(self, blp, *, parameters=None, **options):
        # Api.register_blueprint without the documentation, which is recorded for _write_document
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._doc_steps.append(("blueprint", blp, name, parameters))

    def _write_document(self):
        key = (repr(self._doc_kwargs), self.config.get("API_TITLE"), self.config.get("API_VERSION"),
               self.config.get("OPENAPI_VERSION"), repr(self.config.get("API_SPEC_OPTIONS")),
               tuple((step[0], id(step[1]), step[2], repr(step[3])) if step[0] == "blueprint" else repr(step)
                     for step in self._doc_steps))
        if key not in self._documents:
            super()._init_spec(**self._doc_kwargs)   # sets self._spec through the setter
            for step in self._doc_steps:
                if step[0] == "security":
                    self._spec.components.security_scheme(step[1], step[2])
                else:
                    _, blp, name, parameters = step
                    blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
                    self._spec.tag({"name": name, "description": blp.description})
            self._documents[key] = self._spec
        return self._documents[key]


# Every body is read by one parser (floor/web/body.py); one that fails its schema is answered 400
# (floor/web/errors.py), and documented so.
Blueprint.ARGUMENTS_PARSER = JsonBodyParser()
Blueprint.ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400
api = FloorApi()
socketio = SocketIO()


def house() -> HouseSettings:
    """The house settings of this app, read once from config by create_app; views pass them to the domain."""
    return current_app.config["HOUSE"]
