"""A widget's keys never reach the notebook: each widget, opened in JupyterLab.

Right after Run All, without clicking anything, the test presses the keys a player would
(Enter, Space, digits, letters) and the keys that JupyterLab's command mode acts on (Enter
opens a cell's editor, A/B add cells, M/Y change a cell's type, 1 makes a heading, D D deletes
a cell, X cuts, Z undoes). The widget took the focus when it was drawn, so they must all be
its own: afterwards no cell has changed, none was added or removed, and the notebook is still
in command mode. Then a click on the notebook's text takes the focus away, and the widget
shows its "click to play" bar; a click on the widget takes the keys back.

One line per widget in ``WIDGETS``: the notebook that shows it and its root's CSS class.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WIDGETS = [
    pytest.param("notebooks/note-snap.ipynb", "mg-snap", id="note-snap"),
    pytest.param("tests/browser/drill.ipynb", "mg-drill", id="note-drill"),
    pytest.param("tests/browser/quiz.ipynb", "mg-quiz", id="chord-quiz"),
    pytest.param("notebooks/keyboard-duel.ipynb", "mg-duel", id="keyboard-duel"),
]

#: Keys a player presses, and keys JupyterLab's command mode would act on.
KEYS = ["Enter", "Space", "1", "2", "7", "a", "b", "m", "y", "d", "d", "x", "z", "l",
        "Escape", "Shift+Enter", "Space", "Enter"]

NOTEBOOK_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return {
    mode: panel.content.mode,
    cells: panel.content.widgets.map((cell) => [cell.model.type,
                                                cell.model.sharedModel.getSource()]),
  };
}"""

FOCUS_JS = """(cls) => {
  const root = document.querySelector('.' + cls);
  return !!root && root.contains(document.activeElement);
}"""


@pytest.mark.parametrize(("notebook", "root_class"), WIDGETS)
def test_keys_after_run_all_stay_in_the_widget(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    notebook: str,
    root_class: str,
) -> None:
    page = lab_page
    open_notebook(page, notebook)
    root = page.locator(f".{root_class}").first
    expect(root).to_be_visible()
    page.wait_for_function(FOCUS_JS, arg=root_class, timeout=10_000)
    expect(root).to_have_class(re.compile(r"\bmg-focused\b"))  # it shows it has the keys
    before = page.evaluate(NOTEBOOK_JS)
    assert before["mode"] == "command"

    for key in KEYS:
        page.keyboard.press(key)
        page.wait_for_timeout(30)
    page.wait_for_timeout(300)  # anything a key would have set off in Lab has happened

    after = page.evaluate(NOTEBOOK_JS)
    assert after["cells"] == before["cells"], "a key changed, added or removed a cell"
    assert after["mode"] == "command", "a key opened a cell's editor"
    assert page.evaluate(FOCUS_JS, root_class), "the widget lost the keys"
    overlay = root.locator(".mg-focus-overlay")
    expect(overlay).to_be_hidden()

    # Focus elsewhere: the widget says so; a click gives it the keys back.
    page.locator(".jp-MarkdownCell").first.click()
    expect(overlay).to_be_visible()
    assert "click" in (overlay.text_content() or "").lower()
    overlay.click()
    expect(overlay).to_be_hidden()
    assert page.evaluate(FOCUS_JS, root_class)
