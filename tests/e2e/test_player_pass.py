"""A player's pass on his phone (390x844, touch): opened from the link of the QR code the floor's tablet
shows, it sees his place change live when the player ahead is seated, rings with his call (table, seat,
countdown) and answers "on my way", which the floor's tablet shows beside the call. A second test: the
pass reads nothing of another player and opens no staff route; its live feed names nobody."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import requests
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from floor import staff
from floor.actors import Actor
from floor.models import AuditRecord, Player, Table
from floor.poker import queries, waitlist
from tests.e2e.conftest import IPAD, shot, watch
from tests.floor.poker_helpers import fill, manager

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def _arrange(sqlite_url, pids):
    """Table 1 full, the players on the Hold'em list in this order; a manager's API token."""
    engine = create_engine(sqlite_url, connect_args={"timeout": 30})
    now = datetime.now(timezone.utc)
    with Session(engine) as s:
        m = manager(s)
        fill(s, s.query(Table).filter_by(number=1).one(), range(1, 11), now - timedelta(hours=2))
        entries = [waitlist.add(s, m, 1, pid, now - timedelta(minutes=10 - k)).id for k, pid in enumerate(pids)]
        names = {pid: s.get(Player, pid).name for pid in pids}
        token = staff.create_token(s, Actor.system("test"), "manager", "e2e")
        s.commit()
    engine.dispose()
    return entries, names, token


def _phone(browser, live_server, locale):
    ctx = browser.new_context(**PHONE, base_url=live_server.url, locale=locale)
    page = ctx.new_page()
    watch(page)
    page.set_default_timeout(60_000)
    return page


def test_the_phone_follows_his_place_and_answers_his_call(browser, page_as, live_server, sqlite_url):
    (ahead, mine), names, token = _arrange(sqlite_url, [11, 12])
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    tablet = page_as("manager", device=IPAD)
    tablet.wait_for_selector("#live-dot.on")
    tablet.locator(f"li.fl-entry[data-entry='{mine}'] [data-action=pass]").click()
    qr = tablet.locator("#fl-sheet svg.qr")
    qr.wait_for()
    link = qr.get_attribute("data-link")
    assert link.startswith(live_server.url + "/p/") and tablet.locator("#fl-sheet .pass-link").inner_text() == link
    shot(tablet, "pass_tablet_qr")
    tablet.locator("#fl-sheet .close").click()

    phone = _phone(browser, live_server, "fr-FR")
    # what the phone is asked to ring and vibrate, counted
    phone.add_init_script("""window.__buzz = []; navigator.vibrate = p => { window.__buzz.push(p); return true; };
        window.__tones = 0; const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () { window.__tones++; return make.call(this); };""")
    phone.goto(link)
    assert phone.evaluate("document.documentElement.lang") == "fr"
    card = phone.locator(f"article.pass-list[data-entry='{mine}']")
    card.wait_for()
    assert card.get_attribute("data-place") == "2"
    assert names[11] not in phone.locator("body").inner_text()
    phone.locator("[data-action=allow-alerts]").tap()             # asked once, when opened
    assert phone.locator("#pass-ask").is_hidden()
    assert phone.evaluate("window.__buzz.length") == 1              # the tap lets him feel and hear it
    tones = phone.evaluate("window.__tones")
    assert tones > 0
    phone.wait_for_selector("#live-dot.on")
    shot(phone, "pass_phone_waiting_fr")

    # the player ahead is called and seated: the phone moves him up without a reload, drawing the state
    # it is sent (it does not ask the server for it)
    asked = []
    state_route = f"{live_server.url}/api/pass/{link.rsplit('/', 1)[1]}"
    phone.on("request", lambda r: asked.append(r.url) if r.url == state_route else None)
    pushed = int(phone.evaluate("document.documentElement.dataset.pushed || '0'"))
    r = api.post(f"{live_server.url}/api/seating/tables/1/seats/3/leave", json={"reason": "left"})
    assert r.status_code == 200, r.text
    r = api.post(f"{live_server.url}/api/waitlists/entries/{ahead}/call", json={"table_number": 1, "seat_number": 3})
    assert r.status_code == 201, r.text
    r = api.post(f"{live_server.url}/api/waitlists/entries/{ahead}/seat", json={"buy_in": 50_000})
    assert r.status_code == 201, r.text
    phone.wait_for_selector(f"article.pass-list[data-entry='{mine}'][data-place='1']")
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1   # the same page, never reloaded
    assert int(phone.evaluate("document.documentElement.dataset.pushed")) > pushed and asked == []

    # a seat opens and he is called: table, seat and a countdown, in large type
    api.post(f"{live_server.url}/api/seating/tables/1/seats/5/leave", json={"reason": "left"}).raise_for_status()
    r = api.post(f"{live_server.url}/api/waitlists/entries/{mine}/call", json={"table_number": 1, "seat_number": 5})
    assert r.status_code == 201, r.text
    call = phone.locator("#pass-call")
    call.wait_for()
    assert (call.get_attribute("data-table"), call.get_attribute("data-seat")) == ("1", "5")
    assert "Table 1" in call.inner_text() and "5" in call.locator(".where").inner_text()
    phone.wait_for_function(f"window.__buzz.length === 2 && window.__tones > {tones}")   # the call rings, once
    countdown = phone.locator("#pass-countdown").inner_text()
    assert ":" in countdown and countdown.split(":")[0] in ("4", "5"), countdown
    big = phone.evaluate("parseFloat(getComputedStyle(document.querySelector('#pass-call h1')).fontSize)")
    assert big >= 32
    shot(phone, "pass_phone_called_fr")
    phone.locator("[data-action=on-my-way]").tap()
    phone.wait_for_selector("#pass-call [data-answered=on-my-way]")
    # the floor's tablet shows it beside the call
    tablet.wait_for_selector(f"li.fl-entry[data-entry='{mine}'] [data-on-my-way]")
    tablet.wait_for_selector(".fl-seat.held [data-on-my-way]")
    assert phone.evaluate("window.__buzz.length") == 2               # the same call never rings twice
    phone.reload()                                                    # nor when the page is opened again
    phone.wait_for_selector("#pass-call [data-answered=on-my-way]")
    assert phone.locator("#pass-ask").is_hidden()                     # and the question is not asked again
    assert phone.evaluate("window.__buzz.length") == 0
    shot(tablet, "pass_tablet_on_my_way")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        rec = s.query(AuditRecord).filter_by(action="waitlist.on_my_way").one()
        assert rec.role == "player" and rec.terminal.startswith("pass:")
    engine.dispose()


def test_the_phone_sleeps_through_its_call_and_shows_it_on_waking(browser, page_as, live_server, sqlite_url):
    (mine,), _names, token = _arrange(sqlite_url, [12])
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    link = api.post(f"{live_server.url}/api/waitlists/players/12/pass", json={}).json()["link"]
    phone = _phone(browser, live_server, "de-DE")
    # Between the phone and the server: while the phone sleeps, what the server sends it is lost.
    awake, lost = {"yes": True}, []

    def between(ws):
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: ws.send(m) if awake["yes"] or not str(m).startswith("42") else lost.append(m))
    phone.context.route_web_socket("**/socket.io/**", between)
    awake["yes"] = False                 # asleep as soon as it has read the page once
    phone.goto(link)
    phone.wait_for_selector("#live-dot.on")
    phone.wait_for_function("Number(document.documentElement.dataset.answers || 0) >= 1")
    api.post(f"{live_server.url}/api/seating/tables/1/seats/2/leave", json={"reason": "left"}).raise_for_status()
    api.post(f"{live_server.url}/api/waitlists/entries/{mine}/call", json={"table_number": 1, "seat_number": 2}).raise_for_status()
    for _ in range(600):                 # until the call's update reached the phone and was lost
        if lost:
            break
        phone.wait_for_timeout(50)
    assert lost and phone.locator("#pass-call").is_hidden()
    # it wakes: the page asks the server what it missed
    awake["yes"] = True
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_selector("#pass-call[data-seat='2']")
    assert "Tisch 1" in phone.locator("#pass-call").inner_text()
    shot(phone, "pass_phone_called_de")
    # he takes himself off (asked first): it was his last list, so his pass has done its work
    phone.locator("#pass-call [data-action=take-off]").tap()
    phone.locator("dialog[open] [data-action=confirm]").tap()
    phone.wait_for_selector(".pass-ended")
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        rec = s.query(AuditRecord).filter_by(action="waitlist.remove").one()
        assert rec.role == "player" and rec.subject == "player:12"
        assert queries.open_entries(s, 1) == []
    engine.dispose()


def test_a_pass_reads_no_other_player_and_no_staff_route(browser, live_server, sqlite_url):
    (theirs, mine), names, token = _arrange(sqlite_url, [11, 12])
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    link = api.post(f"{live_server.url}/api/waitlists/players/12/pass", json={}).json()["link"]
    pass_token = link.rsplit("/", 1)[1]
    phone = _phone(browser, live_server, "de-DE")
    frames, responses = [], []
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    phone.on("response", lambda r: responses.append(r) if "/api/pass/" in r.url else None)
    phone.goto(link)
    phone.wait_for_selector("#live-dot.on")
    assert phone.locator("article.pass-list").count() == 1
    shot(phone, "pass_phone_waiting_de")
    # a newcomer and a move on his list: his page hears of it, without a name
    r = api.post(f"{live_server.url}/api/waitlists/1/entries", json={"player_id": 13})
    assert r.status_code == 201
    newcomer = r.json()["player"]["name"]
    pushed = int(phone.evaluate("document.documentElement.dataset.pushed || '0'"))
    r = api.post(f"{live_server.url}/api/waitlists/entries/{mine}/move", json={"to_place": 1, "reason": "test"})
    assert r.status_code == 200
    phone.wait_for_selector(f"article.pass-list[data-entry='{mine}'][data-place='1']")
    phone.wait_for_function(f"Number(document.documentElement.dataset.pushed || 0) > {pushed}")
    seen = "\n".join(frames + [r.text() for r in responses] + [phone.content()])
    for name in (names[11], newcomer):
        assert name not in seen
    assert any("pass.changed" in f for f in frames)
    # from the phone: another player's entry, the staff's routes, the staff's live rooms
    asks = phone.evaluate("""async ([token, theirs]) => {
        const csrf = document.querySelector('meta[name="csrf-token"]').content;
        const out = {};
        for (const [name, method, url] of [
            ["their_on_my_way", "POST", `/api/pass/${token}/entries/${theirs}/on-my-way`],
            ["their_take_off", "POST", `/api/pass/${token}/entries/${theirs}/take-off`],
            ["lists", "GET", "/api/waitlists"], ["floor_state", "GET", "/api/floor/state"],
            ["player", "GET", "/api/players/11"], ["board", "GET", "/api/board"],
            ["floor_page", "GET", "/floor"], ["pit_page", "GET", "/pit"],
            ["bearer", "GET", "/api/waitlists"]]) {
          const headers = {"X-CSRFToken": csrf, "Content-Type": "application/json", "Accept": "application/json"};
          if (name === "bearer") headers["Authorization"] = `Bearer ${token}`;
          const r = await fetch(url, {method, headers, body: method === "POST" ? "{}" : undefined, redirect: "manual"});
          out[name] = [r.status, r.type === "opaqueredirect" ? "" : await r.text()];
        }
        out.socket = await new Promise(resolve => {
          const s = window.io("/live", {auth: {pass: token}, transports: ["websocket"], forceNew: true});
          s.on("connect", () => s.emit("join_table", {table_id: 1}, ack => { s.disconnect(); resolve(ack); }));
        });
        return out;
    }""", [pass_token, theirs])
    assert asks["their_on_my_way"][0] == 404 and asks["their_take_off"][0] == 404, asks
    for name in ("lists", "floor_state", "player", "board", "bearer"):
        assert asks[name][0] in (401, 403), (name, asks[name])
    for name in ("floor_page", "pit_page"):
        assert asks[name][0] in (0, 302, 401, 403), (name, asks[name])     # to the login, never the page
    assert asks["socket"]["error"] in ("not_authenticated", "wrong_role"), asks["socket"]
    assert not any(names[11] in body or newcomer in body for _s, body in
                   [v for k, v in asks.items() if k != "socket"]), asks
    engine = create_engine(sqlite_url)
    with Session(engine) as s:
        assert [e.id for e in queries.open_entries(s, 1)][:2] == [mine, theirs]
    engine.dispose()
    # withdrawn by the floor: the open page says so at once; the link opens a plain page
    api.post(f"{live_server.url}/api/waitlists/players/12/pass/revoke", json={}).raise_for_status()
    phone.wait_for_selector(".pass-ended")
    other = _phone(browser, live_server, "fr-FR")
    resp = other.goto(link)
    assert resp.status == 410 and other.locator("h1").inner_text()
    assert other.locator("script").count() == 0
    resp = other.goto(f"{live_server.url}/p/{'x' * 32}")
    assert resp.status == 404
