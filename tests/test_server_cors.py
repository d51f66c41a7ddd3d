"""Cross-origin requests (tavli/server/cors.py, docs/server.md): off by default; with
create_app(cors_origins=[...]) a listed origin's preflight and simple requests are answered with
the CORS headers a browser needs (the Fetch standard's), any other origin's are not; bad origins
are refused when the app is made."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from tavli.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ALLOWED = "http://localhost:3000"
OTHER = "https://elsewhere.example"
ANALYZE = "/api/v1/analyze"
BODY = {"position": "4HPwATDgc/ABMA", "dice": [6, 5], "plies": 0, "top": 1}


def preflight(client, origin, method="POST", headers="content-type"):
    return client.options(ANALYZE, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                            "Access-Control-Request-Headers": headers})


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, cors_origins=[ALLOWED, "https://tavli.example:8443"])) as c:
        yield c


def test_an_allowed_origin_gets_its_preflight_and_answers_marked(client):
    r = preflight(client, ALLOWED)
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == ALLOWED  # the origin itself, not *
    assert {m.strip() for m in r.headers["access-control-allow-methods"].split(",")} >= {"POST"}
    assert "content-type" in r.headers["access-control-allow-headers"].lower()
    assert int(r.headers["access-control-max-age"]) > 0
    r = client.post(ANALYZE, json=BODY, headers={"Origin": ALLOWED})
    assert r.status_code == 200 and r.json()["plays"]
    assert r.headers["access-control-allow-origin"] == ALLOWED and "origin" in r.headers["vary"].lower()
    assert "retry-after" in r.headers["access-control-expose-headers"].lower()  # a busy 503's header
    r = client.post(ANALYZE, json={**BODY, "dice": [7, 1]}, headers={"Origin": ALLOWED})  # errors too
    assert r.status_code == 422 and r.headers["access-control-allow-origin"] == ALLOWED
    r = client.get("/api/v1/health", headers={"Origin": "https://tavli.example:8443"})
    assert r.headers["access-control-allow-origin"] == "https://tavli.example:8443"


def test_another_origin_gets_no_cors_headers(client):
    r = preflight(client, OTHER)
    assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
    assert r.json()["error"]["field"] is None and "origin" in r.json()["error"]["message"]
    r = client.post(ANALYZE, json=BODY, headers={"Origin": OTHER})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers  # the browser hides it
    # an allowed origin asking for a method or header the API does not take
    assert preflight(client, ALLOWED, method="DELETE").status_code == 400
    assert preflight(client, ALLOWED, headers="x-secret").status_code == 400
    # same port, other scheme: another origin
    assert "access-control-allow-origin" not in client.get("/api/v1/health", headers={"Origin": "https://localhost:3000"}).headers


def test_off_by_default():
    with TestClient(create_app(workers=1)) as c:
        r = c.post(ANALYZE, json=BODY, headers={"Origin": ALLOWED})
        assert r.status_code == 200 and not any(h.startswith("access-control-") for h in r.headers)
        assert preflight(c, ALLOWED).status_code == 405  # no CORS: OPTIONS is just an unknown method


def test_any_origin_with_a_star():
    with TestClient(create_app(workers=1, cors_origins=["*"])) as c:
        assert c.get("/api/v1/health", headers={"Origin": OTHER}).headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize("bad", [["localhost:3000"], ["http://localhost:3000/"], ["https://x.example/path"],
                                 ["ftp://x.example"], [""], [3000], "http://localhost:3000"])
def test_bad_origins_are_refused_when_the_app_is_made(bad):
    with pytest.raises(ValueError, match="origin"):
        create_app(workers=1, cors_origins=bad)


def test_tavli_serve_cors_origin_is_repeatable_and_checked(monkeypatch, capsys):
    import tavli.server.app
    from tavli.__main__ import main

    served = []
    monkeypatch.setattr(tavli.server.app, "serve", lambda **kwargs: served.append(kwargs))
    assert main(["serve", "--port", "8123", "--cors-origin", ALLOWED, "--cors-origin", "*"]) == 0
    assert served[-1]["cors_origins"] == [ALLOWED, "*"] and served[-1]["port"] == 8123
    assert main(["serve"]) == 0 and served[-1]["cors_origins"] == []
    assert main(["serve", "--cors-origin", "localhost:3000"]) == 2 and len(served) == 2  # refused before serving
    assert "--cors-origin" in capsys.readouterr().err
