"""A tiny web server for the built site, for a classroom without a web host (the site on a
USB stick and a laptop): ``python -m musicgames.lite serve site/``.

Any static web server does; this one only makes sure the two kinds of file browsers are
strict about are sent as what they are (JavaScript modules, ``.mjs``, and WebAssembly,
``.wasm``), whatever this computer's list of file types says. Browsers refuse to run
Python from a ``file://`` address, so a server is needed even on one computer.

>>> Handler.extensions_map[".mjs"], Handler.extensions_map[".wasm"]
('text/javascript', 'application/wasm')
"""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["Handler", "make_server"]


class Handler(SimpleHTTPRequestHandler):
    """Serves the site's files, quietly unless asked to log."""

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".ipynb": "application/json",
        ".whl": "application/zip",
        ".svg": "image/svg+xml",
    }
    quiet = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        if not self.quiet:
            super().log_message(format, *args)


def make_server(site: Path, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A server of the folder ``site`` on ``host``:``port`` (``port`` 0: any free port),
    not started yet (call ``serve_forever``)."""
    handler = functools.partial(Handler, directory=str(site))
    return ThreadingHTTPServer((host, port), handler)
