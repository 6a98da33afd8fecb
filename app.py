"""Wiring only: create_app(config) and the Socket.IO object."""
from __future__ import annotations

import logging
import os
import sys
from datetime import timedelta
from pathlib import Path

from flask import Flask, abort, request, send_from_directory
from sqlalchemy import event
from werkzeug.middleware.proxy_fix import ProxyFix

from config import load_config
from floor import notify, staff
from floor.poker import passes
from floor.runtime import cli
from floor.runtime.commands import DeviceCommands
from floor.rounds import table_rules
from floor.settings import HouseSettings
from floor.web import api as api_pkg
from floor.web import (
    admin,
    auth,
    device_live,
    device_watch,
    errors,
    headers,
    health,
    i18n,
    limits,
    live,
    money_pages,
    pages,
    pass_page,
    pit,
    policy,
    sockets,  # noqa: F401  (declares the /live handlers)
)
from floor.web.routing import SharedBuilderRule
from floor.web.extensions import api, csrf, db, limiter, migrate, socketio
from floor.web.live_queue import LiveQueue

ROOT = Path(__file__).resolve().parent
# The front-end files served under /vendor/, by the npm package folder that holds them.
VENDOR = {"socket.io.min.js": "socket.io-client/dist", "chart.umd.min.js": "chart.js/dist"}


def _sqlite_pragmas(engine) -> None:
    """SQLite: WAL for concurrent readers, a busy timeout, foreign keys, and BEGIN IMMEDIATE so two
    writers queue instead of failing half-way (the audit chain and seat locks rely on it)."""
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _):
        dbapi_conn.isolation_level = None   # let SQLAlchemy's begin event issue BEGIN itself
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL: a commit survives a crash of the process (not of the machine) without an
        # fsync each time; production runs on PostgreSQL.
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _async_mode() -> str:
    """Socket.IO on gevent where the process was patched for it (a live feed's process,
    floor.runtime.green), else on threads."""
    monkey = sys.modules.get("gevent.monkey")
    return "gevent" if monkey is not None and monkey.is_module_patched("socket") else "threading"


def create_app(config: dict | str | None = None) -> Flask:
    """Build the app. ``config`` is a loaded config dict, a TOML path, or None (FLOOR_CONFIG / default)."""
    cfg = config if isinstance(config, dict) else load_config(config)
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=cfg["app"]["instance_path"])
    app.url_rule_class = SharedBuilderRule
    os.makedirs(app.instance_path, exist_ok=True)
    limits.init_app(app)   # before any route: the bounded <int:> converter
    headers.init_app(app)
    logging.basicConfig(level=cfg["app"].get("log_level", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    sec = cfg["security"]
    staff.use_hash_cost(sec["password_hash_cost"])
    app.config.update(
        FLOOR=cfg,
        HOUSE=table_rules.configured(HouseSettings.from_mapping(cfg["house"]), cfg.get("rules")),
        SECRET_KEY=cfg["app"]["secret_key"],
        SQLALCHEMY_DATABASE_URI=cfg["app"]["database_url"],
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        SESSION_COOKIE_NAME="floor_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=bool(cfg["app"]["secure_cookies"]),
        PERMANENT_SESSION_LIFETIME=timedelta(hours=sec["session_hours"]),
        WTF_CSRF_CHECK_DEFAULT=False,       # checked in before_request, except for bearer tokens
        WTF_CSRF_TIME_LIMIT=None,           # valid for the session: a tablet stays open all shift
        RATELIMIT_STORAGE_URI=sec["rate_limit_storage"],
        RATELIMIT_HEADERS_ENABLED=True,
        API_TITLE="Floorman",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
    )
    if cfg["app"]["database_url"].startswith("sqlite"):
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"check_same_thread": False, "timeout": 30}}

    hops = int(cfg["server"].get("proxy_hops") or 0)
    if hops:   # behind TLS-terminating proxies: the client's address (rate limits) and https (cookies)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            _sqlite_pragmas(db.engine)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    i18n.init_app(app)
    api.init_app(app)
    mq = cfg["app"].get("message_queue") or None
    # the live feed's queue between processes, or none (one process); always given, so an app built
    # after another in the same process never inherits the other's queue
    queue = LiveQueue(mq, cfg["app"]["message_queue_channel"]) if mq else None
    socketio.init_app(app, async_mode=_async_mode(), client_manager=queue, manage_session=False)
    notify.set_emitter(lambda ev, payload, room: socketio.emit(ev, i18n.broadcast(app, payload), to=room,
                                                              namespace="/live"), live.shape)
    passes.push_with(app.config["HOUSE"])   # the passes' own states, pushed by this process (waits)

    policy.register_socket_handlers(socketio)
    # who has the live device page open (the device process publishes the lines' bytes only then)
    app.extensions["floor_device_watchers"] = device_watch.watchers_for(cfg)
    # commands to the devices: in-process when this process owns the ports, else through Redis
    app.extensions["floor_commands"] = DeviceCommands(app)

    app.register_blueprint(auth.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(pass_page.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(pit.bp)
    app.register_blueprint(device_live.bp)
    app.register_blueprint(money_pages.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(cli.bp)
    api_pkg.register(app)
    errors.register(app)

    @app.route("/vendor/<name>")
    def vendor(name: str):
        # Front-end packages come from npm (package-lock.json), never copied into the repository.
        if name not in VENDOR:
            abort(404)
        return send_from_directory(ROOT / "node_modules" / VENDOR[name], name, max_age=3600)

    @app.route("/favicon.ico")
    def favicon():
        # Pages name their icon; this answers browsers and tools that ask for the old default path.
        return send_from_directory(ROOT / "static", "favicon.svg", mimetype="image/svg+xml", max_age=86400)

    @app.before_request
    def _guard():
        policy.enforce_request_policy()
        if request.method not in ("GET", "HEAD", "OPTIONS") and not request.headers.get(
                "Authorization", "").startswith("Bearer "):
            csrf.protect()

    @app.teardown_appcontext
    def _cleanup(exc):
        db.session.remove()

    @app.context_processor
    def _globals():
        return {"ident": policy.current_identity_safe(), "house": app.config["HOUSE"]}

    return app
