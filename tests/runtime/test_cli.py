"""The command line an operator uses on a floor without the demo (docs/operations.md)."""
from __future__ import annotations

from sqlalchemy import select

from floor.models import AuditRecord, Staff
from tests.conftest import Login
from tests.conftest import app_session as db_session


def test_user_create_makes_an_account_that_can_log_in(app, login):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["floor", "user", "create", "alice", "--role", "admin", "--name", "Alice Martin"],
                        input="correct horse\ncorrect horse\n")
    assert out.exit_code == 0, out.output
    assert "created admin alice" in out.output
    with db_session(app) as session:   # its own app context: the requests below must not share flask.g
        staff = session.execute(select(Staff).where(Staff.username == "alice")).scalar_one()
        assert (staff.name, staff.role) == ("Alice Martin", "admin")
        assert session.execute(select(AuditRecord.terminal).where(AuditRecord.action == "staff.create",
                                                                  AuditRecord.subject == f"staff:{staff.id}")
                               ).scalar_one() == "console"
    login("alice", "correct horse")

    # a dealer with a PIN, the password from the environment (for scripts)
    out = runner.invoke(args=["floor", "user", "create", "dan", "--role", "dealer", "--pin", "2468"],
                        env={"FLOOR_USER_PASSWORD": "dealer-pass-1"})
    assert out.exit_code == 0, out.output
    Login(app.test_client()).dealer(14, "dan", "2468")


def test_user_create_refuses_what_it_cannot_make(app):
    runner = app.test_cli_runner()
    bad_role = runner.invoke(args=["floor", "user", "create", "bob", "--role", "croupier"], input="longenough\n" * 2)
    assert bad_role.exit_code == 2 and "croupier" in bad_role.output
    short = runner.invoke(args=["floor", "user", "create", "bob", "--role", "cashier"], input="short\nshort\n")
    assert short.exit_code == 1 and "at least 8 characters" in short.output
    taken = runner.invoke(args=["floor", "user", "create", "pitboss", "--role", "pit_boss"],
                          input="longenough\n" * 2)
    assert taken.exit_code == 1 and "taken" in taken.output
    with db_session(app) as session:
        assert session.execute(select(Staff).where(Staff.username == "bob")).first() is None


def test_the_process_commands_are_there(app):
    runner = app.test_cli_runner()
    for command, words in (("scheduler", "timer"), ("devices", "serial ports")):
        out = runner.invoke(args=["floor", command, "--help"])
        assert out.exit_code == 0 and words in out.output, out.output
