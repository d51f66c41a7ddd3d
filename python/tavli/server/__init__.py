"""The HTTP API and the web page (`tavli serve`); needs the `server` extra: pip install "tavli[server]".

>>> from tavli.server import create_app, serve
>>> serve(port=8000)        # doctest: +SKIP
"""

from __future__ import annotations

try:
    import fastapi  # noqa: F401  (the core package never imports this module)
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError('tavli.server needs FastAPI and uvicorn: pip install "tavli[server]"') from e

from .app import create_app, serve

__all__ = ["create_app", "serve"]
