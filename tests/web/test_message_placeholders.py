"""No raw placeholder reaches a person: every message template every page ships, in every language,
filled with sample values as static/js/i18n.js fills it, leaves no "{" in the text; and every call of
_() / pgettext() / ngettext() in the page modules passes a value for each placeholder of its message."""
from __future__ import annotations

import re
from pathlib import Path

from floor.web.i18n import catalog, js_msgids

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "de")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PAGE_MODULES = re.compile(r"i18n_data\(([^)]*)\)")
QUOTED = re.compile(r'"([^"]+)"')


def _pages() -> dict[str, tuple[str, ...]]:
    """Template -> the modules whose messages it embeds for its scripts."""
    out = {}
    for tpl in sorted((ROOT / "templates").glob("*.html")):
        for args in PAGE_MODULES.findall(tpl.read_text()):
            mods = tuple(m for m in QUOTED.findall(args) if m.endswith((".js", ".py")))
            if mods:
                out[f"{tpl.name}:{','.join(mods)}"] = mods
    return out


def _fill(text: str, params: dict) -> str:
    """static/js/i18n.js fill(): a known, non-null value replaces its placeholder; anything else stays."""
    return PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if params.get(m.group(1)) is not None else m.group(0), text)


PAGES = _pages()


def test_the_pages_are_found():
    assert any("tournament_floor.js" in k for k in PAGES) and len(PAGES) >= 10


def test_every_message_of_every_page_fills_without_a_raw_placeholder(app):
    left = []
    for page in sorted(PAGES):
        for lang in LANGUAGES:
            with app.test_request_context("/"):
                msgids = list(js_msgids(*PAGES[page]))
                shipped = catalog(lang, *PAGES[page])
            left += [(page, lang, *x) for x in _unfilled(msgids, shipped)]
    assert not left, f"raw placeholders left: {left[:5]}"


def _unfilled(msgids: list, shipped: dict) -> list:
    left = []
    for mid in msgids:
        if isinstance(mid, tuple) and mid[0] == "ctx":
            english, text = mid[2], shipped.get(f"{mid[1]}\u0004{mid[2]}", mid[2])
            forms = [text]
        elif isinstance(mid, tuple):
            english, forms = mid[0], shipped.get(mid[0]) or [mid[0], mid[1]]
        else:
            english, forms = mid, [shipped.get(mid) or mid]
        sample = {name: 7 for name in PLACEHOLDER.findall(english + " " + (mid[1] if isinstance(mid, tuple) and mid[0] != "ctx" else ""))}
        sample["n"] = 7
        for form in forms:
            out = _fill(form or english, sample)
            if "{" in out or "}" in out:
                left.append((english, form, out))
    return left


def test_a_translation_naming_another_placeholder_is_caught():
    assert _unfilled(["place {place}"], {"place {place}": "place {plcae}"}) == [("place {place}", "place {plcae}", "place {plcae}")]
    assert _unfilled(["place {place}"], {"place {place}": "{place}e place"}) == []


def test_a_call_without_the_value_of_a_placeholder_is_caught():
    assert _object_keys('_("x {a} {b}", { a: 1, b })', len('_("x {a} {b}"')) == {"a", "b"}
    assert _object_keys('_("x", { ...rest })', len('_("x"')) is None


CALL = re.compile(r"(?<![\w.])(_|pgettext|ngettext)\(")


def _string_at(src: str, i: int) -> tuple[str, int] | None:
    """The JS string literal starting at src[i] (after spaces), and where it ends."""
    while src[i] in " \n":
        i += 1
    q = src[i]
    if q not in "\"'`":
        return None
    j = i + 1
    while src[j] != q:
        j += 2 if src[j] == "\\" else 1
    return src[i + 1:j], j + 1


def _object_keys(src: str, i: int) -> set[str] | None:
    """The top-level keys of the object literal starting at src[i] (after ", "); None if not one."""
    while src[i] in " ,\n":
        i += 1
    if src[i] != "{":
        return None
    depth, j, start = 0, i, i + 1
    parts = []
    while True:
        c = src[j]
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
            if depth == 0:
                parts.append(src[start:j])
                break
        elif c == "," and depth == 1:
            parts.append(src[start:j])
            start = j + 1
        elif c in "\"'`":
            _s, j = _string_at(src, j)
            continue
        j += 1
    keys = set()
    for p in parts:
        p = p.strip()
        if p.startswith("..."):
            return None       # spread: the keys are not all written here
        m = re.match(r"(\w+)\s*(:|$)", p)
        if m:
            keys.add(m.group(1))
    return keys


def test_every_message_call_in_the_page_modules_passes_each_placeholder():
    missing = []
    for js in sorted((ROOT / "static" / "js").glob("*.js")):
        src = js.read_text()
        for m in CALL.finditer(src):
            i = m.end()
            if m.group(1) == "pgettext":
                first = _string_at(src, i)
                if first is None:
                    continue
                i = src.index(",", first[1]) + 1
            got = _string_at(src, i)
            if got is None:
                continue
            text, i = got
            if m.group(1) == "ngettext":
                plural = _string_at(src, src.index(",", i) + 1)
                text += " " + plural[0]
                i = src.index(",", plural[1]) + 1
                while src[i] not in ",)":      # the count
                    i += 1
            wanted = set(PLACEHOLDER.findall(text)) - ({"n"} if m.group(1) == "ngettext" else set())
            if not wanted:
                continue
            keys = _object_keys(src, i)
            if keys is None:
                continue
            if wanted - keys:
                line = src.count("\n", 0, m.start()) + 1
                missing.append(f"{js.name}:{line} {text!r} lacks {sorted(wanted - keys)}")
    assert not missing, "\n".join(missing)
