"""The games switched to Spanish in the page (JupyterLab, Chromium): every word the page
draws follows — the sound control's too — and the Keyboard Duel trays are named as a
Spanish reader says it ("Tus fichas (Blanco)", not "Fichas de Tú · Blanco")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.duel_helpers import ROOT, dismiss_notifications, start_game, wait_idle

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SNAP = "notebooks/note-snap.ipynb"
DUEL = "notebooks/keyboard-duel.ipynb"


@pytest.fixture
def page(lab_page: Any) -> Iterator[Any]:
    """A Lab page; afterwards the games' notebooks are as they were (Lab autosaves a
    notebook it ran, and the repository keeps them with outputs cleared)."""
    originals = {name: (REPO / name).read_bytes() for name in (SNAP, DUEL)}
    yield lab_page
    lab_page.close()
    for name, original in originals.items():
        if (REPO / name).read_bytes() != original:
            (REPO / name).write_bytes(original)


def test_note_snap_switched_to_spanish_says_mute_and_volume_in_spanish(
    page: Any, open_notebook: Callable[[Any, str], None]
) -> None:
    open_notebook(page, SNAP)
    table = page.locator(".mg-snap")
    table.locator(".mg-snap-seat").first.wait_for()
    mute = table.locator(".mg-sound-mute")
    expect(mute).to_have_text("Mute")
    table.locator("select.mg-snap-language").select_option("es")
    expect(table.locator(".mg-snap-title")).to_have_text("Mano a la nota")
    expect(table.locator(".mg-snap-new")).to_have_text("Nueva partida")
    expect(mute).to_have_text("Silenciar")
    expect(table.locator(".mg-sound-volume")).to_have_attribute("aria-label", "Volumen")
    mute.click()
    expect(mute).to_have_text("Activar sonido")
    mute.click()  # the setting is kept for the session: leave it as it was
    table.locator("select.mg-snap-language").select_option("en")
    expect(mute).to_have_text("Mute")


def test_keyboard_duel_in_spanish_names_the_trays_and_the_opponent(
    page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    open_notebook(page, DUEL)
    dismiss_notifications(page)
    page.locator(f"{ROOT}-chooser").wait_for()
    page.locator(f"{ROOT}-language").select_option("es")
    expect(page.locator(f"{ROOT}-opponent[data-opponent=casual]")).to_contain_text("Tranquilo")
    expect(page.locator(f"{ROOT}-chooser")).to_contain_text(
        "Juegas con las blancas y empiezas tú.")
    start_game(page, kernel_execute, "casual", seed=5, pause=0)
    wait_idle(page)
    white = page.locator(f"{ROOT}-player-white {ROOT}-tray")
    black = page.locator(f"{ROOT}-player-black {ROOT}-tray")
    expect(white).to_have_attribute("aria-label", "Tus fichas (Blanco)")
    expect(black).to_have_attribute("aria-label", "Fichas de Tranquilo (Negro)")
