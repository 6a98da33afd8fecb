"""Shared fixtures: a real database per test (SQLite file always, PostgreSQL when TEST_DATABASE_URL
is set), the Flask and Socket.IO test clients, and logins as each demo role.

A migrated database with the demo floor is built once per run and each test gets it as built: a file
copy on SQLite; on PostgreSQL one of a worker's two copies (CREATE DATABASE ... TEMPLATE), put back as
the template left it after each test (PgDatabases).
"""
from __future__ import annotations

import gc
import itertools
import os
import queue
import shutil
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("TEST_DATABASE_URL")
DEMO_PASSWORD = "floorman-demo"

# Property tests prove rules, not speed: no per-example deadline (a loaded CI machine makes an example
# slow, not wrong; speed is measured by `make bench`).
hypothesis_settings.register_profile("floor", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("floor")
_counter = itertools.count()
# Each test builds an app, an engine and thousands of ORM objects: the collector's default thresholds
# make it sweep the whole heap (the test modules, SQLAlchemy's caches) many times a test. Everything
# created so far is frozen out of its view, and young objects are swept less often.
gc.freeze()
gc.set_threshold(50_000, 20, 20)


# SQLAlchemy compiles each statement once per engine and keeps it in the engine's cache, keyed by the
# engine's dialect object. A server keeps one engine for its life; a test run builds an app (so an
# engine) per test, and each test compiled again every query it ran: a fifth of the suite's CPU, a
# join-heavy query taking milliseconds each time. Engines made the same way (same driver, same
# options) share one dialect and one compiled cache, as one long-lived process would: the first such
# engine's, once it has connected (its dialect then holds what it read from the server). Connections,
# pools and connect-time settings stay each engine's own.
_SHARED_DIALECTS: dict[tuple, tuple] = {}
_DIALECT_NEUTRAL = {"pool_pre_ping", "connect_args", "poolclass", "pool_size", "max_overflow", "pool_timeout",
                    "pool_recycle", "echo", "echo_pool", "_coerce_config"}


def _sharing_create_engine(original):
    from sqlalchemy import event, util

    def create(url, **kw):
        engine = original(url, **kw)
        if not set(kw) <= _DIALECT_NEUTRAL:   # an option the dialect holds: this engine keeps its own
            return engine
        key = (type(engine.dialect), engine.url.drivername)
        shared = _SHARED_DIALECTS.get(key)
        if shared is not None:
            engine.dialect, engine._compiled_cache = shared
        else:
            engine._compiled_cache = util.LRUCache(5000)   # the whole suite's statements, not a server's 500

            def connected(dbapi_connection, record):
                _SHARED_DIALECTS.setdefault(key, (engine.dialect, engine._compiled_cache))
            event.listen(engine, "connect", connected, once=True)
        return engine
    return create


def _share_dialects() -> None:
    import sqlalchemy.engine.create as made   # engine_from_config (Flask-SQLAlchemy's) looks it up there
    if not getattr(made.create_engine, "shares_dialects", False):
        made.create_engine = _sharing_create_engine(made.create_engine)
        made.create_engine.shares_dialects = True


_share_dialects()
create_engine = _sharing_create_engine(create_engine)   # this module's own engines (sessions, copies)


def steady_rollover() -> str:
    """A gaming-day rollover twelve hours from now in the house's zone, for the floors the tests run.
    Tests lay down the last hour's rounds, warnings and visits and read back "today": with the house's
    own 06:00, a run in the hour after six would find part of them in yesterday's day. The rollover
    itself is proved with fixed times (tests/floor/test_gaming_day.py and the shift tests)."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from floor.settings import HouseSettings
    local = datetime.now(ZoneInfo(HouseSettings().timezone)) + timedelta(hours=12)
    return f"{local.hour:02d}:00"


LAG_MS = 30_000


def make_config(db_url: str, tmp_path: Path, **sections) -> dict:
    from config import load_config
    overrides = {"house": {"gaming_day_rollover": steady_rollover(),
                           # a shared CI host keeps a device process behind its line now and then:
                           # the pause is tested on its own (tests/e2e_devices/test_line_time.py)
                           "line_lag_ms": LAG_MS}, "app": {"database_url": db_url, "instance_path": str(tmp_path / "instance"), "demo": False,
                         "run_scheduler": False, "run_devices": False, "simulate_devices": False,
                         "generate_secret_key": False, "log_level": "WARNING"},
                 "security": {"login_rate_limit": "1000 per minute", "password_hash_cost": "minimal"}}
    for name, values in sections.items():
        overrides.setdefault(name, {}).update(values)
    environ = {k: v for k, v in os.environ.items() if k.startswith("FLOOR_") and k != "FLOOR_CONFIG"}
    environ["FLOOR_SECRET_KEY"] = "test-secret-key"
    return load_config(environ=environ, overrides=overrides)


def _build(db_url: str, tmp_path: Path) -> None:
    """Migrate an empty database and load the demo floor into it."""
    from flask_migrate import upgrade

    from app import create_app
    from floor import demo
    from floor.web.extensions import db
    app = create_app(make_config(db_url, tmp_path))
    with app.app_context():
        upgrade()
        demo.load_demo(db.session)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _shared_dir(tmp_path_factory) -> Path:
    """The run's own temporary folder, shared by its xdist workers (each has a folder inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _run_lock(path: Path):
    """One worker at a time across the run's processes: the first builds what the others then reuse."""
    import fcntl
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """Built once per run (migrations and the demo floor take seconds) by whichever worker asks first."""
    shared = _shared_dir(tmp_path_factory)
    path = shared / "sqlite-template" / "template.db"
    with _run_lock(shared / "sqlite-template.lock"):
        if not path.exists():
            path.parent.mkdir(exist_ok=True)
            building = path.with_suffix(f".{os.getpid()}")
            _build(f"sqlite:///{building}", path.parent)
            os.replace(building, path)
    return path


def _pg_admin():
    return create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")


PG_TEMPLATE_NAME = "pg-template.name"


@pytest.fixture(scope="session")
def pg_template(tmp_path_factory):
    """One template database per run, shared by the workers (PostgreSQL copies from one template
    concurrently); dropped when the whole run ends (pytest_sessionfinish below)."""
    if not PG_URL:
        pytest.skip("TEST_DATABASE_URL not set: PostgreSQL run skipped")
    shared = _shared_dir(tmp_path_factory)
    marker = shared / PG_TEMPLATE_NAME
    with _run_lock(shared / "pg-template.lock"):
        if not marker.exists():
            name = f"fm_tmpl_{uuid.uuid4().hex[:10]}"
            admin = _pg_admin()
            with admin.connect() as c:
                c.execute(text(f'CREATE DATABASE "{name}"'))
            admin.dispose()
            marker.write_text(name)   # written before the build, so a failed build is still dropped
            url = make_url(PG_URL).set(database=name)
            _build(url.render_as_string(hide_password=False), tmp_path_factory.mktemp("pg-template"))
            (shared / "pg-template.built").write_text(name)
        if not (shared / "pg-template.built").exists():
            pytest.fail("the PostgreSQL template database failed to build (see the first error)")
    return marker.read_text()


def pytest_sessionfinish(session):
    """The process that ran the whole session (the xdist controller, or pytest alone) drops the run's
    PostgreSQL template once every worker is done with it."""
    if not PG_URL or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    marker = session.config._tmp_path_factory.getbasetemp() / PG_TEMPLATE_NAME
    if marker.exists():
        admin = _pg_admin()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{marker.read_text()}" WITH (FORCE)'))
        admin.dispose()


SNAPSHOT = "floor_test_snapshot"   # the schema in each copy that holds its rows as the template had them


class PgDatabases:
    """Copies of the worker's template database, each used by one test at a time. A copy that comes
    back is put back as the template left it by a thread of its own, before the next test takes it:
    the other connections to it ended (as DROP DATABASE ... WITH (FORCE) would), then in one
    transaction every table's rows deleted and copied again from a snapshot taken when the copy was
    made, and every sequence set back. A new database per test cost PostgreSQL about 0.4 s of CPU
    (the copy of 11 MB goes through the WAL, and the drop); putting the demo floor's rows back costs
    about 10 ms. A copy whose tables no longer match its snapshot (a test that changed the schema), that
    something connected to again while it was put back, or that cannot be put back, is dropped and
    replaced by a new copy."""

    def __init__(self, template: str, copies: int = 2):
        self.template = template
        self.ready: queue.Queue = queue.Queue()
        self.jobs: queue.Queue = queue.Queue()
        self.names: set[str] = set()
        for _ in range(copies):
            self.jobs.put(("create", None))
        self.thread = threading.Thread(target=self._run, name="pg-databases", daemon=True)
        self.thread.start()

    def _url(self, name: str):
        return make_url(PG_URL).set(database=name)

    def _create(self, admin) -> str:
        name = f"fm_{_worker()}_{next(_counter)}_{uuid.uuid4().hex[:6]}"
        admin.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"'))
        self.names.add(name)
        engine = create_engine(self._url(name), poolclass=NullPool)
        with engine.begin() as c:
            c.execute(text(f'CREATE SCHEMA "{SNAPSHOT}"'))
            for table in self._tables(c):
                c.execute(text(f'CREATE TABLE "{SNAPSHOT}"."{table}" AS TABLE public."{table}"'))
            c.execute(text(f'CREATE TABLE "{SNAPSHOT}".sequences AS SELECT sequencename AS name, last_value '
                           "FROM pg_sequences WHERE schemaname = 'public'"))
        engine.dispose()
        return name

    @staticmethod
    def _tables(c) -> list[str]:
        return sorted(c.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars())

    def _put_back(self, name: str, _meanwhile=None) -> None:
        """``_meanwhile()`` (tests of this class only) runs between the rows put back and the check."""
        engine = create_engine(self._url(name), poolclass=NullPool)
        try:
            with engine.begin() as c:
                c.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            with engine.begin() as c:
                tables = self._tables(c)
                kept = sorted(c.execute(text(f"SELECT tablename FROM pg_tables WHERE schemaname = '{SNAPSHOT}' "
                                             "AND tablename <> 'sequences'")).scalars())
                if tables != kept:
                    raise RuntimeError(f"the tables of {name} changed")
                # the rows alone: no foreign key or trigger is checked while they are put back
                c.execute(text("SET LOCAL session_replication_role = replica"))
                for table in tables:
                    c.execute(text(f'DELETE FROM public."{table}"'))
                    c.execute(text(f'INSERT INTO public."{table}" SELECT * FROM "{SNAPSHOT}"."{table}"'))
                c.execute(text("SELECT setval(quote_ident(name), coalesce(last_value, 1), last_value IS NOT NULL) "
                               f'FROM "{SNAPSHOT}".sequences'))
            if _meanwhile is not None:
                _meanwhile()
            with engine.begin() as c:
                # Something of the last test's (a process or a thread not yet gone) connected again
                # meanwhile: it could write into the next test's floor, so the copy is replaced.
                others = c.execute(text("SELECT count(*) FROM pg_stat_activity "
                                        "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar_one()
                if others:
                    raise RuntimeError(f"{others} connections came back to {name} while it was put back")
        finally:
            engine.dispose()

    def _drop(self, admin, name: str) -> None:
        admin.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.names.discard(name)

    def _run(self) -> None:
        admin_engine = _pg_admin()
        with admin_engine.connect() as admin:
            while True:
                op, name = self.jobs.get()
                if op == "stop":
                    break
                try:
                    if op == "back":
                        try:
                            self._put_back(name)
                            self.ready.put(name)
                            continue
                        except Exception:   # noqa: BLE001 — any copy that cannot be put back is replaced
                            self._drop(admin, name)
                    self.ready.put(self._create(admin))
                except Exception as exc:   # the test that waits for a copy fails with it
                    self.ready.put(exc)
        admin_engine.dispose()

    def take(self) -> str:
        name = self.ready.get(timeout=300)
        if isinstance(name, Exception):
            raise name
        return name

    def give_back(self, name: str) -> None:
        self.jobs.put(("back", name))

    def close(self) -> None:
        self.jobs.put(("stop", None))
        self.thread.join()
        admin = _pg_admin()
        with admin.connect() as c:
            for name in list(self.names):
                self._drop(c, name)
        admin.dispose()


@pytest.fixture(scope="session")
def pg_databases(pg_template):
    pool = PgDatabases(pg_template)
    yield pool
    pool.close()


def template_copy(template: Path, folder: Path) -> str:
    """A fresh SQLite database in ``folder``, copied from the run's template; its URL."""
    path = folder / "floor.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    """A fresh database holding the demo floor, on each backend."""
    if request.param == "sqlite":
        yield template_copy(request.getfixturevalue("sqlite_template"), tmp_path)
        return
    pool = request.getfixturevalue("pg_databases")
    name = pool.take()
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    pool.give_back(name)


@pytest.fixture
def sqlite_url(sqlite_template, tmp_path):
    """SQLite only, for tests that exercise one backend on purpose (browser, benchmarks)."""
    return template_copy(sqlite_template, tmp_path)


@pytest.fixture(autouse=True)
def _fresh_ratings_days():
    """A pooled PostgreSQL copy is put back with its ids rewound: the days' visits an earlier test of
    this process kept must not be taken for this test's (a floor's database never rewinds)."""
    from floor.pit import ratings
    ratings._DAY_CACHE.clear()


@pytest.fixture
def app_config(db_url, tmp_path):
    return make_config(db_url, tmp_path)


def _template_code():
    """The pages' templates compiled once per worker for every app built after (Jinja's bytecode cache,
    keyed by the template's name and a checksum of its source): each test's app compiled them again."""
    from jinja2 import BytecodeCache

    class InMemory(BytecodeCache):
        def __init__(self):
            self.code: dict[str, bytes] = {}

        def load_bytecode(self, bucket):
            if bucket.key in self.code:
                bucket.bytecode_from_string(self.code[bucket.key])

        def dump_bytecode(self, bucket):
            self.code[bucket.key] = bucket.bytecode_to_string()
    return InMemory()


_TEMPLATE_CODE = _template_code()


@pytest.fixture
def app(app_config):
    from app import create_app
    from floor.web.extensions import db
    app = create_app(app_config)
    app.config["TESTING"] = True
    app.jinja_env.bytecode_cache = _TEMPLATE_CODE
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@contextmanager
def app_session(app):
    """A session in an app context of its own, for arranging and checking data around the test
    client's requests (they must not share one: flask.g caches the caller and the CSRF token).
    Commits what the block did; what it loaded stays readable after the block."""
    from floor.web.extensions import db
    with app.app_context():
        try:
            yield db.session
            db.session.flush()
            db.session.expunge_all()
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
        finally:
            db.session.remove()


def make_engine(url: str):
    """An engine set up like the app's (SQLite: WAL, busy timeout, BEGIN IMMEDIATE)."""
    if url.startswith("sqlite"):
        from app import _sqlite_pragmas
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        _sqlite_pragmas(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


@pytest.fixture
def session(request, db_url):
    """A database session for arranging and checking data directly. Domain code takes a session and
    never needs flask: without the app in the test, it is a plain SQLAlchemy session on an engine set
    up like the app's (building an app costs more than most domain tests); a test that has the app
    gets the app's session inside an app context."""
    if "app" in request.fixturenames:
        from floor.web.extensions import db
        app = request.getfixturevalue("app")
        with app.app_context():
            yield db.session
            db.session.rollback()
        return
    from sqlalchemy.orm import Session

    from floor import notify, staff
    staff.use_hash_cost(make_config(db_url, Path("."))["security"]["password_hash_cost"])
    notify.set_emitter(None)   # no app, no live feed: an earlier test's app must not receive this one's updates
    engine = make_engine(db_url)
    with Session(engine) as s:
        yield s
        s.rollback()
    engine.dispose()


def csrf_token(client) -> str:
    """The CSRF token of the client's session, as a page would embed it."""
    html = client.get("/login").get_data(as_text=True)
    marker = 'name="csrf-token" content="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]


class Login:
    """Log a test client in as a demo user; JSON calls then carry the CSRF header like the pages do."""

    def __init__(self, client):
        self.client = client
        self.token = None

    def __call__(self, username: str, password: str = DEMO_PASSWORD, terminal: str = "test-tablet"):
        self.token = csrf_token(self.client)
        resp = self.client.post("/login", data={"username": username, "password": password,
                                                "terminal": terminal, "csrf_token": self.token})
        assert resp.status_code == 302, resp.get_data(as_text=True)
        self.token = csrf_token(self.client)
        return resp

    def dealer(self, table_number: int, username: str = "dealer", pin: str = "1234"):
        self.token = csrf_token(self.client)
        resp = self.client.post(f"/dealer/{table_number}/login",
                                data={"username": username, "pin": pin, "csrf_token": self.token})
        assert resp.status_code == 302, resp.get_data(as_text=True)
        self.token = csrf_token(self.client)
        return resp

    def headers(self) -> dict:
        return {"X-CSRFToken": self.token or ""}

    def post(self, url, json=None, **kw):
        return self.client.post(url, json=json, headers=self.headers(), **kw)

    def put(self, url, json=None, **kw):
        return self.client.put(url, json=json, headers=self.headers(), **kw)

    def patch(self, url, json=None, **kw):
        return self.client.patch(url, json=json, headers=self.headers(), **kw)

    def delete(self, url, json=None, **kw):
        return self.client.delete(url, json=json, headers=self.headers(), **kw)


@pytest.fixture
def login(client):
    return Login(client)


@pytest.fixture
def socket_client(app, client):
    """Factory for Socket.IO test clients sharing the Flask client's cookies (its login)."""
    from floor.web.extensions import socketio
    made = []

    def make(flask_client=None, auth=None):
        sc = socketio.test_client(app, namespace="/live", flask_test_client=flask_client or client, auth=auth)
        made.append(sc)
        return sc
    yield make
    for sc in made:
        if sc.is_connected("/live"):
            sc.disconnect("/live")


def _compile_catalogs() -> None:
    """The .mo files are built by make; a test run started by hand builds stale ones too (atomically,
    so parallel workers do not read half a file)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    for po in (ROOT / "translations").glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        tmp = mo.with_suffix(f".mo.{os.getpid()}")
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        os.replace(tmp, mo)


_compile_catalogs()
