"""Numbers in a query string arrive as text: the API parses them (a page's ?limit=8 is not a 400)."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("url", ["/api/pit/ratings?limit=8", "/api/pit/players/1/ratings?days=7"])
def test_integers_in_query_strings_are_parsed(client, login, url):
    login("cashier")
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_json()
