"""The pass's QR code as a phone's camera needs it: the three finder patterns in their corners, a
quiet zone, the link it says beside it, and no markup from the link or the label let through."""
from __future__ import annotations

import re

from floor.web import qr

LINK = "https://floor.example/p/" + "Zx9_" * 8   # a pass link's length: 24 bytes of token, base64url


def _finder_at(rows, top, left) -> bool:
    """A 7x7 finder: dark ring, light ring, dark 3x3 core."""
    for y in range(7):
        for x in range(7):
            ring = max(abs(y - 3), abs(x - 3))
            if rows[top + y][left + x] != (ring != 2):
                return False
    return True


def test_the_code_has_its_three_finders_and_a_version_that_holds_the_link():
    rows = qr.matrix(LINK)
    n = len(rows)
    assert all(len(r) == n for r in rows) and (n - 17) % 4 == 0 and n >= 29   # version 3 or more for ~56 bytes
    assert _finder_at(rows, 0, 0) and _finder_at(rows, 0, n - 7) and _finder_at(rows, n - 7, 0)
    assert not _finder_at(rows, n - 7, n - 7)


def test_the_svg_draws_each_dark_module_inside_a_quiet_zone_and_escapes_what_it_says():
    rows = qr.matrix(LINK)
    out = str(qr.svg(LINK + '"><script>', 'Le pass <de> "Zoë"'))
    assert "<script>" not in out and 'data-link="' + LINK + '&#34;&gt;&lt;script&gt;"' in out
    assert 'aria-label="Le pass &lt;de&gt; &#34;Zoë&#34;"' in out
    drawn = str(qr.svg(LINK))
    n = len(rows) + 2 * qr.QUIET
    assert f'viewBox="0 0 {n} {n}"' in drawn
    cells = {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", drawn)}
    assert cells == {(x + qr.QUIET, y + qr.QUIET) for y, row in enumerate(rows) for x, d in enumerate(row) if d}
