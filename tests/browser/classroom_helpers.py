"""A student's browser on the classroom server of the classroom browser tests (the
``classroom`` fixture of ``conftest.py``)."""

from __future__ import annotations

import contextlib
from typing import Any

from tests.browser.conftest import MODEL_CLASS_FAILURE, Server

__all__ = ["Visitor"]


class Visitor:
    """One student's browser (own storage), recording every request its pages make."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.server = server
        self.context = browser.new_context(base_url=server.url,
                                           viewport={"width": 1200, "height": 900})
        self.requests: list[str] = []
        self.failures: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page = self.context.new_page()
        self.page.set_default_timeout(120_000)
        self.page.on("console", lambda m: self.failures.append(m.text)
                     if MODEL_CLASS_FAILURE in m.text else None)

    def sign_in(self, name: str) -> None:
        self.page.goto("/")
        self.page.locator("#name").fill(name)
        self.page.locator("#ask button").click()
        self.page.locator("#apps").wait_for()

    def open(self, title: str) -> None:
        self.page.get_by_role("link", name=title, exact=True).click()

    def foreign_requests(self) -> list[str]:
        mine = f"http://127.0.0.1:{self.server.port}/"
        return [u for u in self.requests
                if not u.startswith(mine) and not u.startswith(("data:", "blob:"))]

    def close(self) -> None:
        """Leave the page (as closing a tab does), then close the browser."""
        with contextlib.suppress(Exception):
            self.page.goto("about:blank")
        self.context.close()
