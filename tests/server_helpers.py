"""Running an app under uvicorn on a free port of 127.0.0.1 for the tests that need real sockets
(a browser, a cross-origin page)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any, Iterator


@contextlib.contextmanager
def running_server(app: Any, start_timeout: float = 15) -> Iterator[str]:
    """Serves `app` in a thread while the block runs; yields its base URL."""
    import uvicorn

    with socket.socket() as s:  # a free port on the loopback interface
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="tavli-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the server did not start within {start_timeout:g} s")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert not thread.is_alive(), "the server thread did not stop"
