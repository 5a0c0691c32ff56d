"""Suite-wide test settings."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's synchronous API keeps an asyncio event loop running on the main thread
    while its browser is open (for the whole session), and the headless widget tests drive
    their own loops with ``asyncio.run``: so every other test goes first.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
