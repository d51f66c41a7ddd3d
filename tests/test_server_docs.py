"""/docs (Swagger UI) served by the app itself (tavli/server/docs.py), with no CDN: the page names
only the app's own assets, they are served, and in Chromium with every request off 127.0.0.1
refused, Swagger UI lists the API's routes without asking for anything else."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("fastapi_offline", reason="the server extra's fastapi-offline ships the docs assets")

from tavli.server import create_app
from tavli.server.docs import DOCS_STATIC

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1)) as c:
        yield c


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_the_docs_page_loads_only_the_apps_own_assets(client):
    r = client.get("/docs")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = asset_urls(r.text)
    assert urls and all(u.startswith(DOCS_STATIC + "/") for u in urls), urls  # nothing from another host
    assert "http://" not in r.text and "https://" not in r.text and "fonts.googleapis" not in r.text
    assert {u.rsplit("/", 1)[1] for u in urls} == {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}
    for url in urls:
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 1000, url
    assert "'/openapi.json'" in r.text or '"/openapi.json"' in r.text
    assert client.get("/openapi.json").json()["info"]["title"] == "tavli"
    assert client.get("/redoc").status_code == 404  # ReDoc's page would fetch its logo from a CDN


def test_the_docs_in_a_browser_with_no_network():
    """Chromium, every request not to the app refused: Swagger UI draws an operation for each of the
    API's routes (a CDN script would have been refused, leaving the page blank)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from server_helpers import running_server
    from test_browser import CHROMIUM

    if CHROMIUM is None:
        pytest.skip("no Chromium binary found")
    with running_server(create_app(workers=1)) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            refused: list[str] = []

            def offline(route):
                if route.request.url.startswith(base + "/"):
                    route.continue_()
                else:
                    refused.append(route.request.url)
                    route.abort()

            page.route("**/*", offline)
            page.goto(base + "/docs")
            page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
            routes = client_routes(base)
            shown = page.eval_on_selector_all(".opblock .opblock-summary-path", "els => els.map(e => e.dataset.path)")
            assert set(shown) == routes
            assert not refused, refused
        finally:
            browser.close()


def client_routes(base: str) -> set[str]:
    import json
    import urllib.request

    with urllib.request.urlopen(base + "/openapi.json", timeout=10) as r:
        return set(json.load(r)["paths"])
