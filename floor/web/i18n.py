"""English, French and German: which language a request speaks, the catalogs, and locale formatting.

How strings get translated (docs/i18n.md has the how-to):
- Python and Jinja mark strings with ``_()`` / ``lazy_gettext``; the catalogs are translations/<lang>/.
- JavaScript marks strings with ``_("...", {name: value})`` (static/js/i18n.js); each page embeds, as
  JSON, the translations of the strings its modules (and what they import) use: ``i18n_data(...)``.
- The domain raises ``FloorError("English template {name}", name=value)`` and builds ``Msg`` objects,
  never importing flask or babel. The template is the msgid: ``say()`` translates it in the request's
  language and fills in the values formatted for the reader (money, times in the house timezone,
  vocabulary codes as words). An error the catalogs do not know is shown in English.

The language of a request: ``?lang=`` (which also pins this terminal, in a cookie), else the person's
own choice (staff.language), else the terminal's pin, else the house language.
"""
from __future__ import annotations

from decimal import Decimal

import functools
import io
import re
from datetime import date, datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.messages.extract import extract
from babel.numbers import format_currency, format_decimal, get_currency_precision, get_group_symbol, parse_pattern
from flask import current_app, g, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_locale, get_translations
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from floor.errors import FloorError, Money, Msg, Term

LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch"}
COOKIE = "floor_lang"
PHONE_BLUEPRINTS = ("pass_page", "api_pass")   # pages on a player's phone speak its Accept-Language
JS_KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
ROOT = Path(__file__).resolve().parents[2]
STATIC_JS = ROOT / "static" / "js"

babel = Babel()

# Codes the domain and the API use, as words. Message values named like these keys, or marked Term,
# are looked up here; the pages get the same table (TERMS in static/js/i18n.js).
VOCABULARY = {
    # roles
    "floor_manager": _l("floor manager"), "pit_boss": _l("pit boss"), "dealer": _l("dealer"),
    "cashier": _l("cashier"), "admin": _l("administrator"), "display": _l("display"),
    "technician": _l("technician"),
    # table and round states
    "open": _l("open"), "closed": _l("closed"), "idle": _l("idle"), "betting": _l("betting"),
    "dealing": _l("dealing"), "locked": _l("no more bets"), "result": _l("result"), "held": _l("held"),
    "settled": _l("settled"), "voided": _l("voided"), "waiting": _l("waiting"), "called": _l("called"),
    "seated": _l("seated"), "removed": _l("removed"), "expired": _l("expired"), "cancelled": _l("cancelled"),
    "honoured": _l("honoured"), "in_force": _l("in force"), "lifted": _l("lifted"),
    "pending": _l("pending"), "applied": _l("applied"), "rejected": _l("rejected"), "withdrawn": _l("withdrawn"),
    "approved": _l("approved"), "connected": _l("connected"), "disconnected": _l("disconnected"),
    "stopped": _l("stopped"), "starting": _l("starting"), "error": _l("error"), "ok": _l("ok"),
    "active": _l("active"), "finished": _l("finished"), "lost_device": _l("lost"), "fault": _l("fault"),
    # games and structures
    "poker": _l("poker"), "roulette": _l("roulette"), "baccarat": _l("baccarat"), "blackjack": _l("blackjack"),
    "casino_holdem": _l("Casino Hold'em"), "no_limit": _l("no limit"), "pot_limit": _l("pot limit"),
    "fixed_limit": _l("fixed limit"), "holdem": _l("Hold'em"), "omaha": _l("Omaha"), "omaha_hilo": _l("Omaha Hi/Lo"),
    "sixplus": _l("Six Plus"),
    # bet spots and decisions
    "player": _l("player"), "banker": _l("banker"), "tie": _l("tie"), "player_pair": _l("player pair"),
    "banker_pair": _l("banker pair"), "bet": _l("bet"), "ante": _l("ante"), "aa_bonus": _l("AA bonus"),
    "straight": _l("straight up"), "split": _l("split"), "street": _l("street"), "corner": _l("corner"),
    "six_line": _l("six line"), "first_four": _l("first four"), "basket": _l("basket"), "column": _l("column"),
    "dozen": _l("dozen"), "red": _l("red"), "black": _l("black"), "even": _l("even"), "odd": _l("odd"),
    "low": _l("1 to 18"), "high": _l("19 to 36"), "insurance": _l("insurance"), "no_insurance": _l("no insurance"),
    "hit": _l("hit"), "stand": _l("stand"), "double": _l("double"), "call": _l("call"), "fold": _l("fold"),
    "surrender": _l("surrender"),
    # ruling kinds
    "confirm": _l("confirmation"), "correct": _l("correction"), "void": _l("void"),
    # warning reasons
    "cards_shown_early": _l("Showed hole cards too early"), "electronic_device": _l("Electronic device during a hand"),
    "left_without_word": _l("Left the table without a word"), "other": _l("Other"),
    # devices, card sources, money movements
    "wheel": _l("wheel"), "shoe": _l("shoe"), "scanner": _l("card scanner"), "device": _l("device"),
    "manual": _l("by hand"), "api": _l("API"), "terminal": _l("terminal"), "stake": _l("stake"),
    "payout": _l("payout"), "refund": _l("refund"), "commission": _l("commission"), "correction": _l("correction"),
    "return": _l("return"), "green": _l("green"), "won": _l("won"), "lost": _l("lost"), "push": _l("push"),
    "folded": _l("folded"), "win": _l("win"), "lose": _l("lose"), "board": _l("board"),
    # a round's events (its timeline)
    "shoe_lock": _l("shoe lock"), "cut_card": _l("cut card"), "no_more_bets": _l("no more bets"),
    "misspin": _l("misspin"), "decision": _l("decision"), "ruling": _l("ruling"),
    "entered_by_hand": _l("entered by hand"), "keyed_by_hand": _l("keyed by hand, waiting for a second person"),
    "entry_mode": _l("devices or entry by hand"), "hand_refused": _l("result entered by hand refused"),
    "entry_by_hand": _l("entry by hand"),
    # kinds of money the ledger's check knows (floor.ledger.Purpose), and who moves it
    "cash_in": _l("cash in"), "desk_cash": _l("cash at a tournament desk"), "cash_out": _l("cash out"),
    "round": _l("round"), "prize": _l("prize"), "overlay": _l("overlay"), "deal": _l("deal"),
    "cancellation": _l("cancellation"), "system": _l("the system"), "agreed": _l("agreed"),
    "table_chips": _l("table chips"),
    # the pit's numbers: pace, wheel integrity, rotation
    "below": _l("below target"), "on_target": _l("on target"), "above": _l("above target"),
    # the alerts' kinds (the shift report counts the devices' alerts by kind)
    "round_held": _l("round held"), "ruling_pending": _l("ruling waiting for a second pit boss"),
    "card_no_round": _l("card with no round"), "impossible_card": _l("impossible card"),
    "result_without_no_more_bets": _l("result without no more bets"), "device_fault": _l("device fault"),
    "device_lost": _l("device lost"), "device_disconnected": _l("device disconnected"),
    "device_frame_refused": _l("device frame refused"), "betting_paused": _l("betting paused"),
    "late_bets": _l("late bets"), "clock_step": _l("clock step"), "player_banned": _l("player banned"),
    "chip_pickup": _l("chip pickup"), "seat_at_risk": _l("seat at risk"), "seat_forfeited": _l("seat forfeited"),
    "table_reconciliation": _l("table reconciliation"),
    "pace_below_target": _l("pace below target"), "possible_bias": _l("possible bias"),
    "direction_not_alternating": _l("rotor direction not alternating"), "speed_out_of_range": _l("speed out of range"),
    "on_break": _l("on break"), "clocked_out": _l("clocked out"),
    # poker hands (the showdown tool)
    "hand:straight_flush": _l("straight flush"), "hand:four_of_a_kind": _l("four of a kind"),
    "hand:full_house": _l("full house"), "hand:flush": _l("flush"), "hand:straight": _l("straight"),
    "hand:three_of_a_kind": _l("three of a kind"), "hand:two_pair": _l("two pair"), "hand:pair": _l("pair"),
    "hand:high_card": _l("high card"), "hand:folded": _l("folded"),
    # tournaments
    "registering": _l("registering"), "running": _l("running"), "registered": _l("registered"),
    "alternate": _l("alternate"), "out": _l("out"), "out:banned": _l("out: banned"), "refunded": _l("refunded"), "none": _l("none"),
    "knockout": _l("knockout"), "progressive": _l("progressive knockout"), "mystery": _l("mystery bounty"),
    "icm": _l("ICM"), "chip_chop": _l("chip chop"), "offered": _l("offered"), "paid": _l("paid"),
    "balance": _l("balancing"), "break": _l("table broken"), "final_table": _l("final table"),
    "buy_in": _l("buy-in"), "fee": _l("fee"), "bounty": _l("bounty"), "guarantee": _l("guarantee"),
    "seats_per_table": _l("seats per table"), "final_table_size": _l("final table size"),
    "max_reentries": _l("re-entries"), "max_entries": _l("maximum entries"),
    "seat_draw": _l("seat draw"), "late_seat": _l("late entry's seat"), "tables": _l("tables broken or balanced"),
    "cancel:fees_and_bounty_back": _l("fees and bounty back, the prize pool by the rule"),
    "cancel:fees_back": _l("fees back, the prize pool by the rule"),
    "cancel:online_room": _l("all money in shared: buy-ins and fees back, next prize, half equally, half by chips"),
    "cancel:refund": _l("technical problem: each player left gets back all he paid"),
    "cancel:random_prize": _l("random prize pool: buy-ins back, the rest by chips (first a tenth each for a large pool)"),
    "cancel:sit_and_go": _l("single table: buy-ins and fees back, the buy-ins of the players out shared equally"),
}
# marshmallow's own validation sentences (the API's bad_input answers repeat them).
MARSHMALLOW = [_l("Missing data for required field."), _l("Field may not be null."), _l("Not a valid integer."),
               _l("Not a valid string."), _l("Not a valid number."), _l("Not a valid boolean."), _l("Invalid value."),
               _l("Unknown field."), _l("Not a valid list."), _l("Invalid input type."), _l("Not a valid datetime."),
               _l("Not a valid date."), _l("Shorter than minimum length {min}."), _l("Longer than maximum length {max}."),
               _l("Control characters are not allowed."),
               _l("Invisible or direction-changing characters are not allowed."),
               _l("String does not match expected pattern."), _l("Not a structure template's name."),
               _l("A template's name or a structure object."),
               _l("a step is an object with one key, level or break")]

# Message values under these names are vocabulary codes.
TERM_KEYS = {"status", "status2", "kind", "role", "outcome", "decision", "spot", "structure", "action", "what"}
# ... playing cards ("JH", "2D 5C TH"), shown as cards: the rank and the suit's symbol.
CARD_KEYS = {"card", "cards", "was", "real"}
# ... where a card came from or went ("shoe", "player1", "seat:3"), as words.
PLACE_KEYS = {"source", "target"}



def init_app(app) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(ROOT / "translations"))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    babel.init_app(app, locale_selector=select_language, timezone_selector=lambda: app.config["HOUSE"].timezone)
    app.json = FloorJSON(app)
    # Jinja's tojson (a page's embedded data) took the JSON provider the environment was made with,
    # the default one when an extension made it first: pages say domain messages like the API does.
    app.jinja_env.policies["json.dumps_function"] = app.json.dumps
    app.after_request(_pin_terminal)
    app.jinja_env.filters.update(money=money, amount=amount, hold=hold, number=number, clock=clock, when=when, day=day, term=term)
    app.jinja_env.globals.update(i18n_data=i18n_data, LANGUAGES=LANGUAGES, current_language=language)


# --- which language ------------------------------------------------------------------------------------

def _valid(code) -> str | None:
    code = (code or "").strip().lower()[:2]
    return code if code in LANGUAGES else None


def select_language() -> str:
    house = current_app.config["HOUSE"]
    asked = _valid(request.args.get("lang"))
    if asked:
        return asked
    if request.blueprint in PHONE_BLUEPRINTS:   # a player's own phone: the language it asks for
        return request.accept_languages.best_match(list(LANGUAGES)) or _valid(house.language) or "en"
    ident = g.get("floor_identity")
    own = _valid(getattr(getattr(ident, "staff", None), "language", None))
    return own or _valid(request.cookies.get(COOKIE)) or _valid(house.language) or "en"


def language() -> str:
    return str(get_locale() or "en") if has_request_context() else "en"


def _pin_terminal(response):
    """``?lang=xx`` pins this terminal (a dealer terminal, the TV board) to a language; ``?lang=auto`` unpins."""
    if "lang" in request.args:
        asked = _valid(request.args.get("lang"))
        if asked:
            response.set_cookie(COOKIE, asked, max_age=400 * 24 * 3600, samesite="Lax", httponly=True)
        elif request.args.get("lang") in ("", "auto"):
            response.delete_cookie(COOKIE)
    return response


def format_locale(lang: str | None = None) -> str:
    """Babel locale for numbers and dates: the language with the house's region (de_CH, fr_CH, en_CH)."""
    return _format_locale(lang or language(), current_app.config["HOUSE"].region)[0]


@functools.lru_cache(maxsize=64)
def _format_locale(lang: str, region: str) -> tuple[str, Locale]:
    # looked up once per language and region, not for every amount of a page
    candidate = f"{lang}_{region}"
    try:
        return candidate, Locale.parse(candidate)
    except Exception:   # a region Babel does not know for this language
        return lang, Locale.parse(lang)


# --- saying things -------------------------------------------------------------------------------------

def gettext(msgid: str) -> str:
    if not has_request_context():
        return msgid
    return get_translations().ugettext(msgid)


def term(code) -> str:
    if code is None:
        return ""
    found = VOCABULARY.get(str(code))
    return str(found) if found is not None else str(code).replace("_", " ")


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(code: str) -> str:
    """A card code ("TH") as a card ("10♥"); several, space-separated, each so. Not a card: as is."""
    out = []
    for c in str(code).split():
        if len(c) in (2, 3) and c[-1].upper() in SUITS and (c[:-1].upper() in ("T", "10", "J", "Q", "K", "A")
                                                            or c[:-1].isdigit() and 2 <= int(c[:-1]) <= 9):
            rank = c[:-1].upper()
            out.append(("10" if rank == "T" else rank) + SUITS[c[-1].upper()])
        else:
            out.append(c)
    return " ".join(out)


_PLACE = re.compile(r"^([a-z_]+?):?(\d+)?(?::(\d+))?$")


def place(code) -> str:
    """Where a card came from or went: "shoe", "player1" (the player's first card), "seat:3:2"."""
    m = _PLACE.match(str(code or ""))
    if not m:
        return str(code or "")
    word, n, hand = m.groups()
    if word == "seat" and n:
        return gettext("seat {seat} hand {hand}").format(seat=n, hand=hand) if hand else \
            gettext("seat {seat}").format(seat=n)
    return term(word) + (f" {n}" if n else "")


def _value(key: str, v) -> str:
    if isinstance(v, Msg):
        return say(v)
    base = key.rstrip("0123456789")
    if base in CARD_KEYS and isinstance(v, (str, list, tuple)) and not isinstance(v, Msg):
        return card_text(" ".join(v) if isinstance(v, (list, tuple)) else v)
    if base in PLACE_KEYS and isinstance(v, str):
        return place(v)
    if isinstance(v, FloorError):
        return say(v.msg)
    if isinstance(v, Money):
        return money(int(v))
    if isinstance(v, Term) or (key.rstrip("0123456789") in TERM_KEYS and isinstance(v, str)):
        return term(v)
    if isinstance(v, datetime):
        return clock(v)
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(key, x) for x in v)
    return v if isinstance(v, (int, float)) else str(v)


def say(msg: Msg | str, **params) -> str:
    """A domain message in the request's language, with its values formatted for the reader."""
    if not isinstance(msg, Msg):
        msg = Msg(msg, **params)
    translated = gettext(msg.template)
    if not msg.params:
        return translated
    values = {k: _value(k, v) for k, v in msg.params.items()}
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError):   # a broken translation: the English template still works
        return msg.template.format(**values)


@functools.lru_cache(maxsize=1)
def _templates() -> tuple[dict, list]:
    """The catalog's sentences: those without values by text, the others as patterns (the one with
    the most fixed text first, so the most particular wins)."""
    from flask_babel import force_locale
    with force_locale("de"):
        ids = [m for m in get_translations()._catalog if isinstance(m, str) and m and "\x04" not in m]
    plain, patterns = {}, []
    for mid in ids:
        if "{" not in mid:
            plain[mid] = mid
            continue
        parts = re.split(r"\{(\w+)(?:![rsa])?(?::[^}]*)?\}", mid)
        if any("{" in p or "}" in p for p in parts[::2]):
            continue
        seen, rx = set(), ""
        for i, part in enumerate(parts):
            if i % 2 == 0:
                rx += re.escape(part)
            elif part in seen:
                rx += f"(?P={part})"
            else:
                seen.add(part)
                rx += f"(?P<{part}>.+?)"
        fixed = "".join(parts[::2])
        if fixed.strip():
            patterns.append((len(fixed), parts[0], re.compile(rx + r"\Z", re.S), mid))
    patterns.sort(key=lambda p: -p[0])
    return plain, patterns


_MONEY_TEXT = re.compile(r"^-?\d+\.\d\d$")


def said(text, depth: int = 0):
    """A sentence kept as English text (a row stored before sentences were kept as their template and
    values, a device frame's summary, a held round's reason): the catalog's sentence it is, with its
    values, so it is said in the reader's language; text the catalog does not know stays as it is."""
    if isinstance(text, Msg) or not isinstance(text, str) or not text or depth > 2 or not has_request_context():
        return text
    return _said(str.__str__(text), depth)


@functools.lru_cache(maxsize=4096)
def _said(text: str, depth: int):
    """``said`` for a text (the same in every language: a list of alerts is read often)."""
    plain, patterns = _templates()
    if text in plain:
        return Msg(text)
    for _fixed, head, rx, mid in patterns:
        if not text.startswith(head):
            continue
        m = rx.match(text)
        if m is None:
            continue
        values = {}
        for k, v in m.groupdict().items():
            if _MONEY_TEXT.match(v) and k in ("amount", "stake", "staked", "total", "balance", "value"):
                values[k] = Money(round(float(v) * 100))
            else:
                values[k] = said(v, depth + 1)
        return Msg(mid, **values)
    return text


def error_message(exc: FloorError) -> str:
    return say(exc.msg) if has_request_context() else str(exc)


def localise(obj):
    """A JSON-able structure with every domain message (Msg) said in the request's language."""
    if isinstance(obj, Msg):
        return say(obj)
    if isinstance(obj, dict):
        return {k: localise(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [localise(v) for v in obj]
    return obj


def _has_msg(obj) -> bool:
    if isinstance(obj, Msg):
        return True
    if isinstance(obj, dict):
        return any(_has_msg(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_msg(v) for v in obj)
    return False


def broadcast(app, payload):
    """A live update's domain messages said in the house's language, with money and times formatted:
    one emit reaches many readers, so it cannot be each reader's (a page reloading its data says it
    in his). Payloads without a message (the devices' feed) pass untouched, at no cost."""
    if not _has_msg(payload):
        return payload
    if has_request_context():
        # A request's own change: Flask-Babel keeps the chosen language on ``g``, which a nested
        # request context would share, so the reader's answer would come back in the house's
        # language; the house's is forced for the update alone, and the reader's restored after.
        from flask_babel import force_locale
        with force_locale(_valid(app.config["HOUSE"].language) or "en"):
            return localise(payload)
    with app.test_request_context():   # no reader: the language falls back to the house's
        return localise(payload)


class FloorJSON(DefaultJSONProvider):
    """JSON answers (and pages' embedded data) say domain messages in the request's language."""

    def dumps(self, obj, **kwargs):
        if has_request_context():
            obj = localise(obj)
        return super().dumps(obj, **kwargs)


# --- money and time ------------------------------------------------------------------------------------

def _house():
    return current_app.config["HOUSE"]


_DIGITS = re.compile(r"\d+")


def _grouped(fmt, locale, *args, **kwargs) -> str:
    """``fmt(*args, locale=locale, ...)`` with the locale's group separators. Babel drops text between
    two ASCII apostrophes as pattern quoting, and the Swiss locales group with one: from a million up
    (CHF 1'234'567.89) it would write 1234567.89. There the number is formatted without separators
    and the whole part grouped here."""
    symbol = get_group_symbol(locale)
    if "'" not in symbol:
        return fmt(*args, locale=locale, **kwargs)
    text = fmt(*args, locale=locale, group_separator=False, **kwargs)

    def group(m: re.Match) -> str:
        digits, out = m.group(0), []
        while len(digits) > 3:
            digits, out = digits[:-3], [digits[-3:], *out]
        return symbol.join([digits, *out])
    return _DIGITS.sub(group, text, count=1)    # the first run of digits is the whole part


def money(cents, lang: str | None = None) -> str:
    """Cents as money in the house currency, formatted for the language (CHF 1'234.50, 1'234,50 CHF)."""
    if cents is None:
        return "–"
    return _grouped(format_currency, format_locale(lang), int(cents) / 100, _house().currency)


def amount(cents, lang: str | None = None) -> str:
    """Cents as a plain amount (no currency sign) for columns whose heading names the currency."""
    if cents is None:
        return "–"
    return _grouped(_amount_pattern(_house().currency).apply,
                    _format_locale(lang or language(), current_app.config["HOUSE"].region)[1], int(cents) / 100)


@functools.lru_cache(maxsize=16)
def _amount_pattern(currency: str):
    """The pattern of a plain amount, parsed once per currency (a page shows hundreds of amounts)."""
    digits = get_currency_precision(currency)
    return parse_pattern("#,##0" + ("." + "0" * digits if digits else ""))


def money_format(lang: str) -> dict:
    """How ``money`` and ``amount`` write an amount in the language, for the pages' script to write it
    the same (static/js/i18n.js): the browser's own formats differ (Swiss French money has a point).
    Read off the server's own output for one large amount, so the two cannot drift apart."""
    digits = get_currency_precision(_house().currency)
    big = 1234567                                       # 12345.67: both separators show
    plain = amount(big, lang)
    whole = plain[:-digits - 1] if digits else plain
    group = "".join(ch for ch in whole if not ch.isdigit())

    def around(text: str, inner: str) -> list[str]:
        at = text.index(inner)
        return [text[:at], text[at + len(inner):]]
    return {"digits": digits, "decimal": plain[-digits - 1] if digits else "", "group": group,
            "money": around(money(big, lang), plain), "money_negative": around(money(-big, lang), plain),
            "amount_negative": around(amount(-big, lang), plain)}


def hold(basis_points, lang: str | None = None) -> str:
    """A hold in hundredths of a percent (1234) as the language writes it: 12.34 %, 12,34 %."""
    if basis_points is None:
        return "–"
    return _grouped(format_decimal, format_locale(lang), Decimal(int(basis_points)) / 100, format="#,##0.00") + "\u00a0%"


def number(value, lang: str | None = None) -> str:
    """A count or a measure (minutes, a rate) with the language's separators: 1'234.5, 12,5."""
    if value is None:
        return "–"
    return _grouped(format_decimal, format_locale(lang), value, format="#,##0.#")


def _aware(value) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:   # the database keeps UTC
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(ZoneInfo(_house().timezone))


def clock(value, seconds: bool = False) -> str:
    """A time of day in the house timezone, 24-hour."""
    v = _aware(value)
    return "" if v is None else format_time(v, "HH:mm:ss" if seconds else "HH:mm", locale=format_locale())


def when(value) -> str:
    """A date and time in the house timezone, 24-hour."""
    v = _aware(value)
    if v is None:
        return ""
    return format_datetime(v, "short", locale=format_locale()).replace(
        format_time(v, "short", locale=format_locale()), format_time(v, "HH:mm", locale=format_locale()))


def day(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        value = date.fromisoformat(value[:10])
    return format_date(value, "medium", locale=format_locale())


# --- the catalog the pages' JavaScript uses ------------------------------------------------------------

_IMPORT = re.compile(r"""import\s+[^;]*?from\s+["']\./([\w.-]+\.js)["']""")


@functools.lru_cache(maxsize=None)
def _js_file(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(msgids marked in static/js/<name>, the modules it imports), read once per process."""
    path = STATIC_JS / name
    text = path.read_bytes()
    ids = [("ctx", context, message) if context else message if isinstance(message, str) else tuple(message)
           for _lineno, message, _comments, context in extract(
               "javascript", io.BytesIO(text), keywords=JS_KEYWORDS, options={"parse_template_string": True})]
    return tuple(ids), tuple(_IMPORT.findall(text.decode()))


@functools.lru_cache(maxsize=None)
def _py_file(name: str) -> tuple[str, ...]:
    """Fixed sentences a domain module keeps as plain text (marked N_ or Msg) that pages translate."""
    with open(ROOT / name, "rb") as f:
        return tuple(m for _l, m, _c, _x in extract("python", f, keywords={"N_": None, "Msg": None})
                     if isinstance(m, str))


def js_msgids(*modules: str) -> list:
    seen, todo, out = set(), list(modules) + ["i18n.js", "live.js"], []
    for m in modules:
        if m.endswith(".py"):
            out.extend(_py_file(m))
    while todo:
        m = todo.pop()
        if m in seen or not m.endswith(".js") or not (STATIC_JS / m).exists():
            continue
        seen.add(m)
        ids, imports = _js_file(m)
        out.extend(ids)
        todo.extend(imports)
    return out


def catalog(lang: str, *modules: str, texts: tuple = ()) -> dict:
    """msgid -> translation (plural msgids: a list of forms) for the strings of these modules
    (static/js names, and floor/... .py files whose N_-marked sentences the page shows)."""
    if lang == "en":
        return {}
    from flask_babel import force_locale
    out = {}
    with force_locale(lang):
        tr = get_translations()
        for mid in [*js_msgids(*modules), *texts]:
            if isinstance(mid, tuple) and mid[0] == "ctx":
                out[f"{mid[1]}\u0004{mid[2]}"] = tr.upgettext(mid[1], mid[2])
            elif isinstance(mid, tuple):
                forms = [tr.ungettext(mid[0], mid[1], 1), tr.ungettext(mid[0], mid[1], 2)]
                out[mid[0]] = forms
            else:
                out[mid] = tr.ugettext(mid)
        for code, words in VOCABULARY.items():
            out["term:" + code] = str(words)
    return out


def i18n_data(*modules: str, languages: list[str] | None = None, texts: tuple = ()) -> Markup:
    """The <script type="application/json"> a page's modules read through static/js/i18n.js.
    ``texts``: msgids the page wrote server-side with data-t="..." (relabelled on a language change)."""
    from flask import json
    lang = language()
    langs = [lang] + [x for x in (languages or []) if x != lang]
    house = _house()
    data = {"lang": lang, "locale": format_locale(lang).replace("_", "-"), "currency": house.currency,
            "timezone": house.timezone, "catalogs": {}, "locales": {}, "money": {}}
    from flask_babel import force_locale
    for x in langs:
        data["catalogs"][x] = catalog(x, *modules, texts=tuple(texts))
        data["locales"][x] = format_locale(x).replace("_", "-")
        data["money"][x] = money_format(x)
        if x == "en":
            with force_locale("en"):
                data["catalogs"]["en"] = {"term:" + c: str(w) for c, w in VOCABULARY.items()}
    body = json.dumps(data).replace("</", "<\\/")
    return Markup(f'<script id="i18n-data" type="application/json">{body}</script>')
