"""Note Snap switched to French in the page (JupyterLab, Chromium): its words follow, and the
page counts cards with the browser's Intl plural rules for French ("1 carte", "26 cartes")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SNAP = "notebooks/note-snap.ipynb"


@pytest.fixture
def page(lab_page: Any) -> Iterator[Any]:
    """A Lab page; afterwards the game's notebook is as it was (Lab autosaves a notebook it
    ran, and the repository keeps it with outputs cleared)."""
    original = (REPO / SNAP).read_bytes()
    yield lab_page
    lab_page.close()
    if (REPO / SNAP).read_bytes() != original:
        (REPO / SNAP).write_bytes(original)


def test_note_snap_switched_to_french_says_its_words_and_counts_in_french(
    page: Any, open_notebook: Callable[[Any, str], None]
) -> None:
    open_notebook(page, SNAP)
    table = page.locator(".mg-snap")
    seat = table.locator(".mg-snap-seat").first
    seat.wait_for()
    expect(seat).to_contain_text(re.compile(r"\d+ cards?\b"))
    table.locator("select.mg-snap-language").select_option("fr")
    expect(table.locator(".mg-snap-title")).to_have_text("Tape la note")
    expect(table.locator(".mg-sound-mute")).to_have_text("Couper le son")
    expect(seat).to_contain_text(re.compile(r"\d+ cartes?\b"))
    expect(seat).not_to_contain_text(re.compile(r"\bcards?\b"))
    table.locator("select.mg-snap-language").select_option("en")
    expect(table.locator(".mg-snap-title")).to_have_text("Note Snap")
