"""Cross-origin requests (CORS), off by default: `create_app(cors_origins=[...])` or `tavli serve
--cors-origin ORIGIN` lets pages from those web origins call the API from a browser (Starlette's
CORSMiddleware answers their preflight requests and marks the answers). A page from any other
origin gets no CORS headers, so its browser keeps the answer from it."""

from __future__ import annotations

import re
from typing import Sequence

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from .framing import error_response

# scheme://host[:port], as a browser sends it in Origin: no path, no trailing slash
_ORIGIN = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")
PREFLIGHT_MAX_AGE = 600  # seconds a browser may keep a preflight's answer


def checked_origins(origins: Sequence[str]) -> list[str]:
    """The origins, each "http(s)://host[:port]" or "*" (any origin); ValueError names a bad one."""
    if isinstance(origins, str):
        raise ValueError("cors_origins must be a list of origins, not one string")
    out = []
    for origin in origins:
        if not isinstance(origin, str) or not (origin == "*" or _ORIGIN.fullmatch(origin)):
            raise ValueError(f"CORS origin {origin!r}: expected scheme://host[:port] (such as "
                             "https://example.org or http://localhost:3000, no path or trailing slash) or *")
        out.append(origin)
    return out


class _Cors(CORSMiddleware):
    """Starlette's, with a refused preflight in the API's error form (JSON naming the header)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        answer = super().preflight_response(request_headers)
        if answer.status_code == 200:
            return answer
        cors = {k: v for k, v in answer.headers.items() if k.startswith("access-control-") or k == "vary"}
        what = bytes(answer.body).decode().removeprefix("Disallowed CORS ")
        return error_response(answer.status_code, None, f"cross-origin request refused: {what} not allowed "
                              f"(origin {request_headers.get('origin')!r})", cors)


def add_cors(app: FastAPI, origins: list[str]) -> None:
    """Answers cross-origin requests from `origins` (nothing when empty): GET and POST with a JSON
    body, and Retry-After readable by the page (the busy server's 503)."""
    if not origins:
        return
    app.add_middleware(_Cors, allow_origins=origins, allow_methods=["GET", "POST"],
                       allow_headers=["Content-Type"], expose_headers=["Retry-After"],
                       max_age=PREFLIGHT_MAX_AGE)
