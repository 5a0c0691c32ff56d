"""Suite-wide test settings."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        help="play the long soaks (tests marked soak) in full: 10,000 Note Snap games and "
        "2,000 Keyboard Duel games instead of the suite's seeded sample (make soak)",
    )


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for the long soaks (``--soak``)."""
    return bool(request.config.getoption("soak"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last.

    Playwright's synchronous API keeps an asyncio event loop running on the main thread
    while its browser is open (for the whole session), and the headless widget tests drive
    their own loops with ``asyncio.run``: so every other test goes first.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
