"""The PostgreSQL copies the tests run on are reused: one given back must be the template again, rows
and sequences, whatever its test did to it (and a connection its test left open must not stop that)."""
from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL not set: PostgreSQL run skipped")


def _url(name: str) -> str:
    return make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


def _fingerprint(name: str) -> dict:
    engine = create_engine(_url(name))
    with engine.connect() as c:
        tables = c.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).scalars().all()
        rows = {t: c.execute(text(f'SELECT count(*), md5(coalesce(string_agg(r::text, \',\' ORDER BY r::text), \'\')) '
                                  f'FROM public."{t}" r')).one() for t in tables}
        sequences = dict(c.execute(text("SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'"))
                         .all())
    engine.dispose()
    return {"rows": rows, "sequences": sequences}


def _take_back(pool, name: str) -> list[str]:
    """Take copies until the one given back comes round again (they are used in turn)."""
    taken = []
    while name not in taken:
        assert len(taken) < 10, taken
        taken.append(pool.take())
    return taken


def test_a_copy_given_back_is_the_template_again(pg_databases):
    name = pg_databases.take()
    before = _fingerprint(name)
    assert before["rows"]["players"][0] > 0 and before["rows"]["tables"][0] > 0
    engine = create_engine(_url(name))
    with engine.begin() as c:
        c.execute(text("DELETE FROM waitlist_entries"))
        c.execute(text("UPDATE players SET name = 'changed'"))
        c.execute(text("INSERT INTO players (card_number, name, name_key, created_at) VALUES ('99999999', 'new', 'new', now())"))
    left_open = engine.connect()   # a test's connection that was never closed, in a transaction
    left_open.execute(text("UPDATE tables SET number = number"))
    assert _fingerprint(name) != before
    pg_databases.give_back(name)
    taken = _take_back(pg_databases, name)
    try:
        assert _fingerprint(name) == before
    finally:
        for n in taken:
            pg_databases.give_back(n)
        left_open.invalidate()   # its server side was ended when the copy was given back
        engine.dispose()


def test_a_copy_whose_tables_changed_is_replaced(pg_databases):
    name = pg_databases.take()
    engine = create_engine(_url(name))
    with engine.begin() as c:
        c.execute(text("CREATE TABLE public.left_behind (id integer)"))
    engine.dispose()
    pg_databases.give_back(name)
    taken = [pg_databases.take() for _ in range(2)]
    try:
        assert name not in taken
        for n in taken:
            assert "left_behind" not in _fingerprint(n)["rows"]
    finally:
        for n in taken:
            pg_databases.give_back(n)


def test_a_copy_something_connects_to_again_while_it_is_put_back_is_not_reused(pg_databases):
    """A process of the last test still running (a server's worker not yet gone) connects again while
    the copy is put back: it could write into the next test's floor, so the copy is not handed out."""
    name = pg_databases.take()
    engine = create_engine(_url(name))
    straggler = []
    try:
        with pytest.raises(RuntimeError, match="connections came back"):
            pg_databases._put_back(name, _meanwhile=lambda: straggler.append(engine.connect()))
    finally:
        for c in straggler:
            c.close()
        engine.dispose()
    pg_databases.give_back(name)   # no one connected now: put back, and used again
    taken = _take_back(pg_databases, name)
    for n in taken:
        pg_databases.give_back(n)
