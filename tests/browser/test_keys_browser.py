"""A widget's keys never reach the notebook: each widget, opened in JupyterLab.

Right after Run All, without clicking anything, the test presses the keys a player would
(Enter, Space, digits, letters) and the keys that JupyterLab's command mode acts on (Enter
opens a cell's editor, A/B add cells, M/Y change a cell's type, 1 makes a heading, D D deletes
a cell, X cuts, Z undoes). The widget took the focus when it was drawn, so they must all be
its own: afterwards no cell has changed, none was added or removed, and the notebook is still
in command mode. Then a click on the notebook's text takes the focus away, and the widget
shows its "click to play" bar; a click on the widget takes the keys back.

One line per widget in ``WIDGETS``: the notebook that shows it and its root's CSS class.

Then every widget of the project on one page (``keys.ipynb``, opened once for the module):
with the focus on the widget or on one of its buttons, cards, keys, menus or fields, no key
combination reaches the notebook: not Ctrl+Enter, Alt+Enter, Meta+Enter or Shift+Enter, not
command mode's A, B, C, X, V, M, Y, 1, D D, Z, not Enter. Afterwards every cell has the same
source, execution count and outputs, none was added or removed, the widget is the one drawn
before (not drawn again by a cell run anew), and what was typed into a field is in the
field. One line per place in ``PLACES``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, new_lab_page, open_notebook_here

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


@pytest.fixture(scope="module")
def keys_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module: each test opens its notebook in it, from the Lab
    running there (a Lab starting takes seconds of the browser's time)."""
    with new_lab_page(browser, lab_server) as page:
        yield page


@pytest.mark.parametrize(("notebook", "root_class"), WIDGETS)
def test_keys_after_run_all_stay_in_the_widget(
    keys_lab: Any,
    notebook: str,
    root_class: str,
) -> None:
    page = keys_lab
    open_notebook_here(page, notebook)
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


# -- every widget, every key combination ---------------------------------------------------

#: Combinations with Ctrl, Alt or Meta that JupyterLab runs, adds or changes cells with
#: (Meta+Enter is Cmd+Enter on a Mac).
MODIFIED = ["Control+Enter", "Alt+Enter", "Meta+Enter", "Control+Shift+Enter"]
#: Command mode's keys: add a cell above/below, copy, cut, paste, Markdown, code, heading,
#: delete, undo. In a field they are letters typed into it.
COMMAND_MODE = ["a", "b", "c", "x", "v", "m", "y", "1", "d", "d", "z"]
#: Last, as they click a focused button (an exercise's answer button is disabled after it).
ENTER = ["Shift+Enter", "Enter"]

#: (widget's root, place inside it to put the focus on (None: the root itself), what to
#: click first to show that place, whether it is a text field that takes the letters). The
#: sound control's mute button is left out of the drill's and quiz's buttons: it keeps its
#: keys itself.
PLACES = [
    pytest.param(".mg-snap", None, None, False, id="note-snap"),
    pytest.param(".mg-snap", ".mg-snap-open-guide", None, False, id="note-snap-button"),
    pytest.param(".mg-snap", "select[name=length]", ".mg-snap-open-settings", False,
                 id="note-snap-settings"),
    pytest.param(".mg-duel", None, None, False, id="keyboard-duel"),
    pytest.param(".mg-duel", ".mg-duel-hand .mg-duel-card", None, False,
                 id="keyboard-duel-card"),
    pytest.param(".mg-duel", "[data-key-button]", None, False, id="keyboard-duel-key"),
    pytest.param(".mg-duel", ".mg-duel-hint-btn", None, False, id="keyboard-duel-button"),
    pytest.param(".mg-duel", ".mg-duel-naming", None, False, id="keyboard-duel-menu"),
    pytest.param(".mg-drill", None, None, False, id="note-drill"),
    pytest.param(".mg-drill", "button:not(.mg-sound-mute)", None, False, id="note-drill-button"),
    pytest.param(".mg-quiz", None, None, False, id="chord-quiz"),
    pytest.param(".mg-quiz", "button:not(.mg-sound-mute)", None, False, id="chord-quiz-button"),
    pytest.param(".mg-exercise", ".mg-exercise-option", None, False, id="lesson-exercise"),
    pytest.param(".mg-lesson-settings", ".widget-toggle-button", None, False,
                 id="lesson-settings-button"),
    pytest.param(".mg-lesson-settings", "input[type=checkbox]", None, False,
                 id="lesson-settings-checkbox"),
    pytest.param(".mg-lesson-settings", "input[type=text]", None, True,
                 id="lesson-settings-name"),
    pytest.param(".mg-hand-in", "button", None, False, id="hand-in-button"),
    pytest.param(".mg-hand-in", "input[type=text]", None, True, id="hand-in-folder"),
    pytest.param(".mg-deck-button", "select", None, False, id="deck-maker-menu"),
    pytest.param(".mg-deck-button", "input[type=checkbox]", None, False,
                 id="deck-maker-checkbox"),
    pytest.param(".mg-class-dashboard", ".widget-toggle-button", None, False, id="teacher-button"),
    pytest.param(".mg-class-dashboard", "select", None, False, id="teacher-menu"),
]

#: Every cell as the notebook holds it: type, source, execution count, outputs.
CELLS_JS = """() => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  return {
    mode: notebook.mode,
    cells: notebook.widgets.map((cell) => JSON.stringify([
      cell.model.type,
      cell.model.sharedModel.getSource(),
      cell.model.type === 'code' ? cell.model.executionCount : null,
      cell.model.type === 'code' ? cell.model.outputs.toJSON() : null,
    ])),
  };
}"""

#: Put the focus on the place (the first match on show inside the widget's root); returns
#: whether it has it (a button disabled by a click, say, cannot take it).
FOCUS_PLACE_JS = """([rootSelector, place]) => {
  const root = document.querySelector(rootSelector);
  const shown = (node) => node.getClientRects().length > 0;
  const target = place === null ? root
    : root && [...root.querySelectorAll(place)].find(shown);
  if (!target || target.disabled) return false;
  target.focus({preventScroll: true});
  return document.activeElement === target;
}"""

FIELD_VALUE_JS = """([rootSelector, place]) =>
  document.querySelector(rootSelector).querySelector(place).value"""

#: Label the widget's root, to find out later whether it is still the same element.
LABEL_JS = """([rootSelector, label]) => {
  document.querySelector(rootSelector).dataset.mgKeysTest = label;
}"""
STILL_THERE_JS = """(label) => {
  const root = document.querySelector('[data-mg-keys-test="' + label + '"]');
  return !!root && root.isConnected;
}"""


@pytest.fixture(scope="module")
def every_widget(keys_lab: Any) -> Any:
    """The module's Lab page with every widget of the project drawn (``keys.ipynb``)."""
    open_notebook_here(keys_lab, "tests/browser/keys.ipynb")
    return keys_lab


def _changes(before: list[str], after: list[str]) -> str:
    if len(before) != len(after):
        return f"{len(before)} cells became {len(after)}"
    changed = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
    return f"cells {changed} changed (source, run or outputs)"


@pytest.mark.parametrize(("root", "place", "show", "typing"), PLACES)
def test_no_key_combination_reaches_the_notebook(
    every_widget: Any, root: str, place: str | None, show: str | None, typing: bool
) -> None:
    page = every_widget
    widget = page.locator(root).first
    widget.scroll_into_view_if_needed()
    if show is not None:
        widget.locator(show).first.click()
    label = f"{root}|{place}"
    page.evaluate(LABEL_JS, [root, label])
    before = page.evaluate(CELLS_JS)

    pressed = []
    for key in [*MODIFIED, *COMMAND_MODE, *ENTER]:
        if not page.evaluate(FOCUS_PLACE_JS, [root, place]):
            continue  # the place took no focus (a clicked answer is disabled): on to the next
        pressed.append(key)
        page.keyboard.press(key)
        page.wait_for_timeout(20)
    page.wait_for_timeout(300)  # anything a key would have set off in Lab has happened

    after = page.evaluate(CELLS_JS)
    changes = _changes(before["cells"], after["cells"])
    assert after["cells"] == before["cells"], f"a key in {label} reached the notebook: {changes}"
    assert after["mode"] == before["mode"], f"a key pressed in {label} opened a cell's editor"
    assert page.evaluate(STILL_THERE_JS, label), f"{root} was drawn again (its cell ran again)"
    assert pressed[: len(MODIFIED) + len(COMMAND_MODE)] == [*MODIFIED, *COMMAND_MODE], (
        f"{label} lost the focus: only {pressed} were pressed there"
    )
    if typing:
        value = page.evaluate(FIELD_VALUE_JS, [root, place])
        assert "".join(COMMAND_MODE) in value, (
            f"typing into {label} did not reach the field: {value!r}"
        )
        # The browser's own shortcuts still work there: select all, copy, paste at the end.
        assert page.evaluate(FOCUS_PLACE_JS, [root, place])
        for key in ["Control+a", "Control+c", "End", "Control+v"]:
            page.keyboard.press(key)
        assert page.evaluate(FIELD_VALUE_JS, [root, place]) == value + value
        assert page.evaluate(CELLS_JS)["cells"] == before["cells"]
