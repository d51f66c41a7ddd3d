"""The API's documentation page, /docs (Swagger UI), with its script, style sheet and icon served
by the app itself from the fastapi-offline package (the server extra), never from a CDN: the page
works on a machine with no network. No /redoc: ReDoc's page fetches its logo from a CDN. Without
that package, FastAPI's own pages, which load their assets from a CDN."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

DOCS_STATIC = "/docs-static"  # where the pages' assets are served


def offline_docs_app(**fastapi_options: Any) -> FastAPI:
    """FastAPI(**fastapi_options), its /docs using the assets under DOCS_STATIC."""
    try:
        from fastapi_offline import FastAPIOffline
    except ImportError:  # pragma: no cover - the server extra installs it
        return FastAPI(**fastapi_options)
    return FastAPIOffline(docs_url="/docs", redoc_url=None, static_url=DOCS_STATIC, **fastapi_options)
