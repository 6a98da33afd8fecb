"""Migrations run from empty on each backend, and the models match what they build."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import create_engine, inspect, text

from floor.models import Base


def test_migrations_from_empty_match_the_models(db_url, tmp_path):
    # db_url holds the demo floor already; migrate a new empty database beside it instead.
    from app import create_app
    from floor.web.extensions import db
    from tests.conftest import make_config
    if db_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'empty.db'}"
    else:
        from sqlalchemy.engine import make_url
        name = make_url(db_url).database + "_empty"
        admin = create_engine(db_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        url = make_url(db_url).set(database=name).render_as_string(hide_password=False)
    app = create_app(make_config(url, tmp_path))
    try:
        with app.app_context():
            upgrade()
            with db.engine.connect() as conn:
                ctx = MigrationContext.configure(conn, opts={"compare_type": True})
                diff = compare_metadata(ctx, Base.metadata)
                tables = set(inspect(conn).get_table_names())
            assert diff == [], f"models and migrations differ: {diff}"
            assert set(Base.metadata.tables) <= tables
            downgrade(revision="base")
            with db.engine.connect() as conn:
                left = set(inspect(conn).get_table_names()) - {"alembic_version"}
            assert left == set()
            db.engine.dispose()
    finally:
        if not url.startswith("sqlite"):
            admin = create_engine(db_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


def test_the_migrations_have_one_head():
    # Two branches that each add a migration on the same parent fork the history; `upgrade` then
    # refuses to run at all. Re-chain one onto the other when merging.
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).resolve().parent.parent / "migrations"))
    heads = ScriptDirectory.from_config(cfg).get_heads()
    assert len(heads) == 1, f"migrations have several heads: {heads}"
