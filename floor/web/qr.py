"""A QR code of a short text, as inline SVG: the link of a player's pass. The code is segno's (error
correction level M, the smallest version that holds the link); the SVG is drawn here so it carries
its label and the link it says (``data-link``), and so the page needs no script and the printed slip
is the same picture."""
from __future__ import annotations

import segno
from markupsafe import Markup, escape

QUIET = 4   # modules of white around the code, as the standard asks


def matrix(text: str) -> list[list[bool]]:
    """The code's dark modules, row by row, without the quiet zone."""
    return [[bool(m) for m in row] for row in segno.make(text, error="m", micro=False, boost_error=False).matrix]


def svg(text: str, label: str = "") -> Markup:
    """Inline SVG of the QR code of ``text``, a quiet zone around it; the text itself in ``data-link``
    (what the code says, for the page and its tests)."""
    rows = matrix(text)
    n = len(rows) + 2 * QUIET
    path = "".join(f"M{x + QUIET},{y + QUIET}h1v1h-1z" for y, row in enumerate(rows) for x, d in enumerate(row) if d)
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" class="qr" role="img" '
                  f'aria-label="{escape(label)}" data-link="{escape(text)}" shape-rendering="crispEdges">'
                  f'<rect width="{n}" height="{n}" fill="#fff"/><path d="{path}" fill="#000"/></svg>')
