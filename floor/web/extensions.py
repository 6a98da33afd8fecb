"""Flask extensions, created unbound and initialised by app.create_app."""
from __future__ import annotations

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_smorest import Api, Blueprint
from flask_socketio import SocketIO
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

from floor.models import Base
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
    floor/web/errors.py) instead of flask-smorest's own."""

    ERROR_SCHEMA = ErrorSchema


# A body or query that fails its schema is answered 400 (floor/web/errors.py), and documented so.
Blueprint.ARGUMENTS_PARSER.DEFAULT_VALIDATION_STATUS = 400
api = FloorApi()
socketio = SocketIO()


def house() -> HouseSettings:
    """The house settings of this app, read once from config by create_app; views pass them to the domain."""
    return current_app.config["HOUSE"]
