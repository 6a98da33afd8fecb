"""The ledger is the choke point: every posting passes its one check.

The source of floor/ is read (an AST scan), so a new feature is held to it from its first line: every
call of the posting primitives (``ledger.post``, ``ledger.transfer``) carries the grant that
``ledger.authorize`` gives; nothing outside floor/ledger.py writes transfers or balances, makes a
grant, or imports the primitives under another name. Then ``post`` itself, on both databases, refuses
a posting its grant does not cover, so a call that found a way round the scan still moves nothing."""
from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import func, select

from floor import ledger
from floor.actors import Actor
from floor.models import Transfer
from floor.settings import HouseSettings

FLOOR = Path(__file__).resolve().parents[2] / "floor"
PRIMITIVES = {"post", "transfer"}
HOUSE = HouseSettings()
NOW = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return "?"


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(FLOOR.parent)}:{node.lineno}"


def scan(path: Path, source: str | None = None) -> tuple[list[str], list[str]]:
    """(the posting call sites of one module, what in it goes round the check)."""
    tree = ast.parse(source if source is not None else path.read_text(), str(path))
    in_ledger = path.name == "ledger.py" and path.parent == FLOOR
    sites, wrong = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            posting = name in {f"ledger.{p}" for p in PRIMITIVES} or (in_ledger and name in PRIMITIVES)
            if posting:
                sites.append(_where(path, node))
                grant = next((k.value for k in node.keywords if k.arg == "grant"), None)
                if grant is None or (isinstance(grant, ast.Constant) and grant.value is None):
                    wrong.append(f"{_where(path, node)}: {name}() without the grant of ledger.authorize")
            if not in_ledger and name.split(".")[-1] in ("Grant", "Transfer", "Account") and name != "ledger.Grant":
                wrong.append(f"{_where(path, node)}: makes a {name} (only floor/ledger.py does)")
            if not in_ledger and name == "ledger.Grant":
                wrong.append(f"{_where(path, node)}: makes a Grant (only ledger.authorize does)")
            if not in_ledger and name.split(".")[-1] in ("insert", "update", "delete") and node.args:
                target = _name(node.args[0])
                if target.split(".")[0] in ("Transfer", "Account", "TRANSFERS", "ACCOUNTS", "MoneyMove") \
                        or target.endswith(("ledger.TRANSFERS", "ledger.ACCOUNTS")):
                    wrong.append(f"{_where(path, node)}: writes {target} round the ledger")
        elif isinstance(node, ast.ImportFrom) and not in_ledger and node.module == "floor.ledger":
            for alias in node.names:
                if alias.name in PRIMITIVES | {"Grant", "_SEAL", "_covered", "_MOVE", "_DEBIT_GUARDED"}:
                    wrong.append(f"{_where(path, node)}: imports ledger.{alias.name} under another name")
        elif isinstance(node, ast.Attribute) and not in_ledger and node.attr in ("_SEAL", "_covered", "_MOVE",
                                                                                 "_DEBIT_GUARDED"):
            wrong.append(f"{_where(path, node)}: reaches into ledger.{node.attr}")
        elif isinstance(node, ast.Attribute) and not in_ledger and node.attr == "balance" \
                and isinstance(getattr(node, "ctx", None), ast.Store):
            wrong.append(f"{_where(path, node)}: sets a balance by hand")
    return sites, wrong


def _modules() -> list[Path]:
    return sorted(p for p in FLOOR.rglob("*.py") if "models" not in p.relative_to(FLOOR).parts)


def test_every_call_site_that_posts_money_carries_the_checks_grant():
    sites, wrong = [], []
    for path in _modules():
        s, w = scan(path)
        sites += s
        wrong += w
    assert not wrong, "\n".join(wrong)
    # the scan found the postings of every feature that moves money (a scan that saw none proves nothing)
    files = {s.split(":")[0] for s in sites}
    assert {"floor/ledger.py", "floor/rounds/bets.py", "floor/rounds/core.py", "floor/pit/rulings.py",
            "floor/tournaments/core.py", "floor/tournaments/registration.py",
            "floor/tournaments/cancellation.py", "floor/accounting/posting.py"} <= files, sorted(files)
    assert len(sites) >= 12, sites


@pytest.mark.parametrize("source,found", [
    ("from floor import ledger\ndef pay(s, rows):\n    ledger.post(s, rows)\n", "without the grant"),
    ("from floor import ledger\ndef pay(s, a, b):\n    ledger.transfer(s, a, b, 5, 'win', grant=None)\n",
     "without the grant"),
    ("from floor.ledger import post as p\n", "imports ledger.post"),
    ("from floor import ledger\ng = ledger.Grant('prize', None, None, None, ledger._SEAL)\n", "makes a Grant"),
    ("from sqlalchemy import insert\nfrom floor.models import Transfer\ndef f(s):\n    s.execute(insert(Transfer), [])\n",
     "writes Transfer"),
    ("def f(acc):\n    acc.balance = 10**9\n", "sets a balance"),
])
def test_a_new_feature_that_posts_round_the_check_fails_the_scan(source, found):
    _, wrong = scan(FLOOR / "tournaments" / "new_feature.py", source)
    assert any(found in w for w in wrong), wrong


def _transfers(session) -> int:
    return session.scalar(select(func.count(Transfer.id)))


def test_post_refuses_what_its_grant_does_not_cover(session):
    """Both databases: no grant, a forged one, one reused, another kind of money, more than granted,
    another player: each is refused and the books do not move."""
    boss = Actor("Paul", "pit_boss", "t", None)
    cage, p1, p2 = ledger.cage_account(session), ledger.player_account(session, 1), ledger.player_account(session, 2)
    before = _transfers(session)
    row = ledger.row(cage, p1, 500, "deposit", at=NOW)
    with pytest.raises(TypeError):
        ledger.post(session, [row])                                              # no grant at all
    with pytest.raises(TypeError):
        ledger.post(session, [row], grant=ledger.Grant(ledger.Purpose.CASH_IN, 500, 1, boss))   # not from the check
    with pytest.raises(TypeError):                                               # a stake grant moves no house money
        ledger.post(session, [ledger.row(cage, p1, 500, "stake", at=NOW)],
                    grant=ledger.authorize(session, boss, "stake", 500, at=NOW))
    grant = ledger.authorize(session, boss, "cash_in", 500, house=HOUSE, player_id=1, at=NOW)
    with pytest.raises(TypeError):                                               # a prize is not cash in
        ledger.post(session, [ledger.row(cage, p1, 500, "prize", at=NOW)], grant=grant)
    with pytest.raises(TypeError):                                               # more than granted
        ledger.post(session, [ledger.row(cage, p1, 501, "deposit", at=NOW)], grant=grant)
    with pytest.raises(TypeError):                                               # another player
        ledger.post(session, [ledger.row(cage, p2, 500, "deposit", at=NOW)], grant=grant)
    assert _transfers(session) == before
    ledger.post(session, [row], grant=grant)
    with pytest.raises(TypeError):                                               # once only
        ledger.post(session, [row], grant=grant)
    assert _transfers(session) == before + 1


@pytest.mark.parametrize("role,purpose", [("dealer", "cash_in"), ("floor_manager", "cash_out"), ("cashier", "deal"),
                                          ("display", "prize"), ("cashier", "overlay"), ("dealer", "cancellation")])
def test_a_role_that_may_not_move_that_money_is_refused(session, role, purpose):
    with pytest.raises(ledger.NotAllowed) as refused:
        ledger.authorize(session, Actor("x", role, "t", None), purpose, 1_000, house=HOUSE, player_id=1, at=NOW)
    assert refused.value.code == "money_role"


@pytest.mark.parametrize("cents", [0, -1, HOUSE.max_amount_cents + 1, 1.5, True, None])
def test_every_amount_out_of_the_house_is_whole_cents_up_to_the_maximum(session, cents):
    for purpose in ("cash_in", "cash_out", "prize", "refund", "overlay", "deal", "cancellation", "desk_cash"):
        with pytest.raises(ledger.BadInput):
            ledger.authorize(session, Actor("Paul", "pit_boss", "t", 1), purpose, cents, house=HOUSE, player_id=1,
                             approval=Actor("Petra", "pit_boss", "t", 2), at=NOW)
