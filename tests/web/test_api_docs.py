"""The API's documentation page works on a LAN without internet: every asset is local."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def test_docs_page_loads_its_assets_from_the_server_itself(make_app):
    app, _ = make_app(camera=False)
    client = TestClient(app)
    page = client.get("/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    assets = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", page.text)
    assert assets, "the page names its script and style"
    for url in assets:
        assert url.startswith("/"), f"{url} is not served by the companion"
        res = client.get(url)
        assert res.status_code == 200 and len(res.content) > 500, url
    assert "/openapi.json" in page.text
    assert client.get("/openapi.json").json()["info"]["title"] == "companion"
