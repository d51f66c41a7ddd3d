"""ASGI checks of a request's framing, before any endpoint sees it: one unambiguous body length,
and a body no larger than the server takes.

A request with both Content-Length and Transfer-Encoding can be read two ways (RFC 9112 §6.1):
a proxy in front and this server might split the stream differently (request smuggling), so it
is refused with 400 and the connection closed. uvicorn's h11 parser lets it through (it frames by
Transfer-Encoding), hence this check in the app.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


def error_response(status: int, field: str | None, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The API's error body: {"error": {"field", "message"}}."""
    return JSONResponse({"error": {"field": field, "message": message}}, status_code=status, headers=headers)


def framing_error(headers: Any, max_bytes: int) -> tuple[int, str] | None:
    """(status, message) when the request's headers frame its body ambiguously or too large."""
    lengths = [value for name, value in headers if name == b"content-length"]
    encodings = [value for name, value in headers if name == b"transfer-encoding"]
    if lengths and encodings:
        return 400, "a request may have Content-Length or Transfer-Encoding, not both"
    if len(lengths) > 1 or len(encodings) > 1:
        return 400, "repeated Content-Length or Transfer-Encoding header"
    if encodings and encodings[0].strip().lower() != b"chunked":
        return 400, "the only Transfer-Encoding taken is chunked"
    if lengths:
        if not lengths[0].isdigit():
            return 400, "invalid Content-Length header"
        if int(lengths[0]) > max_bytes:
            return 413, f"request body over {max_bytes} bytes"
    return None


class RequestFraming:
    """Refuses ambiguous framing (400) and bodies over `max_bytes` (413), by Content-Length or
    while reading a chunked body."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = framing_error(scope.get("headers", ()), self.max_bytes)
        if refused is not None:
            status, message = refused
            close = {"connection": "close"} if status == 400 else None  # the rest of the stream is not trusted
            await error_response(status, "body", message, close)(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> dict[str, Any]:
            nonlocal received
            message: dict[str, Any] = await receive()  # an ASGI message
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:  # chunked bodies have no Content-Length
                    raise StarletteHTTPException(413, f"request body over {self.max_bytes} bytes")
            return message

        await self.app(scope, limited_receive, send)
