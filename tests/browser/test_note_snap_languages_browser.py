"""Note Snap switched to French and Spanish in the page (JupyterLab, Chromium): its words
follow, the sound control's too, and the page counts cards with the browser's Intl plural
rules for French ("1 carte", "26 cartes")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, new_lab_page, open_notebook
from tests.browser.snap_helpers import fresh_game

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SNAP = "notebooks/note-snap.ipynb"


@pytest.fixture(scope="module")
def snap_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module, the game's notebook opened in it once (a Lab page and its
    kernel take seconds to start); afterwards the notebook is as it was (the repository keeps
    it with outputs cleared)."""
    original = (REPO / SNAP).read_bytes()
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, SNAP)
        yield page
    if (REPO / SNAP).read_bytes() != original:
        (REPO / SNAP).write_bytes(original)


@pytest.fixture
def page(snap_lab: Any) -> Any:
    """The module's page as a new one shows the notebook: the last test's game closed (its
    timers with it) and the notebook run again, which makes the widget ``game`` anew."""
    snap_lab.set_viewport_size({"width": 1400, "height": 1000})
    fresh_game(snap_lab)
    return snap_lab


def test_note_snap_switched_to_french_says_its_words_and_counts_in_french(page: Any) -> None:
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


def test_note_snap_switched_to_spanish_says_mute_and_volume_in_spanish(page: Any) -> None:
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


#: Each line of each seat's labels (its name and level; its cards and turn), as drawn: the
#: characters a person can see (not clipped by the label's box), grouped by the line they
#: are on, with the label's width.
SEAT_LINES_JS = """(root) => [...root.querySelectorAll(
    '.mg-snap-seat-name, .mg-snap-seat-cards')].map((label) => {
  const box = label.getBoundingClientRect();
  const seat = label.closest('.mg-snap-seat');
  const right = seat.getBoundingClientRect().right
    - parseFloat(getComputedStyle(seat).borderRightWidth);
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  const lines = [];
  const cut = [];  // letters not seen: left of the label (a separator may be) or on the
                   // seat's border
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      const middle = (r.left + r.right) / 2;
      if (!r.width) continue;
      if (middle < box.left - 0.5 || middle > right) {  // clipped, or on the border
        if (middle > right || !/[·\\s]/.test(node.data[i])) cut.push(node.data[i]);
        continue;
      }
      const line = lines.find((l) => r.top < l.bottom - 2 && r.bottom > l.top + 2);
      if (line) {
        line.text += node.data[i];
        line.bottom = Math.max(line.bottom, r.bottom);
      } else {
        lines.push({text: node.data[i], top: r.top, bottom: r.bottom});
      }
    }
  }
  return {width: box.width, cut: cut.join(''),
          lines: lines.map((l) => l.text.replace(/\\s+/g, ' ').trim())};
})"""

SEATS = ('{"seats": [{"kind": "person"}, {"kind": "computer", "level": "intermediate"}, '
         '{"kind": "computer", "level": "expert"}], "seed": 3, "language": "%s"}')


@pytest.mark.parametrize("language", ["fr", "es", "en"])
def test_note_snap_seat_labels_never_break_at_their_separator(
    page: Any, kernel_execute: Callable[[Any, str], str], language: str
) -> None:
    """At every width of the notebook's column, from wide to about 900 px of window and
    narrower, each seat's "name · level" and "cards · to flip" labels either fit on one
    line or go on two with no "·" left hanging at a line's end or start, and no letter of
    theirs is hidden."""
    page.set_viewport_size({"width": 1280, "height": 800})
    table = page.locator(".mg-snap")
    table.locator(".mg-snap-seat").first.wait_for()
    before = int(table.get_attribute("data-game"))
    kernel_execute(page, "from musicgames.widgets.note_snap import SnapSettings\n"
                         f"game.new_game(SnapSettings.from_dict({SEATS % language}))")
    page.wait_for_function(
        "(n) => Number(document.querySelector('.mg-snap').dataset.game) > n", arg=before)
    expect(table.locator(".mg-snap-seat-turn")).to_have_count(1)  # a "to flip" is shown
    seen = []
    for width in (1280, 1024, 960, 900, 860, 800, 700):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(300)
        labels = table.evaluate(SEAT_LINES_JS)
        seen.append((width, labels))
        for label in labels:
            assert not label["cut"], (width, label)  # nothing written is hidden
            for line in label["lines"]:
                assert line and not line.startswith("·") and not line.endswith("·"), (
                    width, label)
    names = [label["lines"] for _, labels in seen for label in labels]
    assert any(len(lines) > 1 for lines in names), seen  # some label did need two lines
