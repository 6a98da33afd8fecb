"""Warnings by typed name on the floor's iPad in French and German: the players found come in while
the manager reaches for "Give warning" and never move it; names typed without their accents find
the player; three warnings typed and sent in a row are all given."""
from __future__ import annotations

import pytest

from tests.e2e.conftest import IPAD, shot


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_quick_warnings_by_typed_name(page_as, lang):
    page = page_as("manager", device=IPAD)
    page.goto(f"/floor?lang={lang}")
    page.wait_for_selector("#live-dot.on")
    panel = page.locator("#conduct-panel")
    button = panel.locator("button[type=submit]")
    name = panel.locator("input[name=player]")
    for typed, player in (("karin", "Karin Huber"), ("chloe", "Chloé Favre"), ("muller", "Iris Müller")):
        # where the button is from the name field (the page above may still be filling in)
        offset = lambda: button.bounding_box()["y"] - name.bounding_box()["y"]   # noqa: E731
        before = offset()
        name.fill(typed)
        panel.locator(f".search-results[data-query='{typed}'] button", has_text=player).wait_for()
        assert offset() == before, f"the results moved the button ({typed})"
        button.tap()
        page.locator("#conduct-warnings li", has_text=player).wait_for()
        page.wait_for_function("document.querySelector('#conduct-panel input[name=player]').value === ''")
    assert page.locator("#toasts .toast.error").count() == 0
    shot(page, f"floor_warnings_typed_{lang}")
