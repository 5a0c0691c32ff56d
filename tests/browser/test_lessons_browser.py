"""Lessons in JupyterLab at 1280×800 with the file browser open, as a student sees them.

* Nothing a lesson shows is wider than the notebook's column, the code is hidden and the
  "press ⏩ to start" hint goes away once the lesson runs.
* One exercise of every kind, answered wrong, says why — and the wrong button stays red under
  the mouse.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from musicgames.i18n import text
from musicgames.lessons.build import run_hint
from tests.browser.conftest import (
    NOTEBOOK_TIMEOUT_MS,
    REPO_ROOT,
    SCRATCH,
    Server,
    new_lab_page,
    open_notebook_here,
    shut_down_kernels,
    watch_widget_failures,
)

pytestmark = pytest.mark.browser

RED = "rgb(192, 57, 43)"

_OPEN_FILE_BROWSER_JS = """() => {
  const app = window.jupyterapp;
  app.shell.activateById('filebrowser');
  const panel = document.querySelector('#filebrowser');
  return panel ? panel.getBoundingClientRect().width : 0;
}"""

# Every output of the notebook, measured against the notebook's column: its right edge, and
# whether anything inside it is wider than it (clipped or scrolled).
_MEASURE_JS = """() => {
  const notebook = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  const column = notebook.getBoundingClientRect();
  const outputs = [];
  for (const out of notebook.querySelectorAll('.jp-OutputArea-output')) {
    const box = out.getBoundingClientRect();
    if (box.width === 0) continue;
    let widest = box.right;
    for (const inner of out.querySelectorAll('svg, table, .mg-exercise, .widget-box, button')) {
      const r = inner.getBoundingClientRect();
      if (r.width > 0) widest = Math.max(widest, r.right);
    }
    outputs.push({right: Math.round(widest), own: Math.round(box.right),
                  overflow: out.scrollWidth - out.clientWidth,
                  width: Math.round(box.width)});
  }
  return {columnRight: Math.round(column.right), columnWidth: Math.round(column.width),
          outputs: outputs};
}"""


@pytest.fixture(scope="module")
def lessons_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module's lessons: each test opens its lesson in it, from the
    Lab running there (a Lab starting takes seconds of the browser's time)."""
    with new_lab_page(browser, lab_server) as page:
        yield page


@pytest.fixture
def student_page(lessons_lab: Any) -> Any:
    """The module's Lab page at 1280×800, as a laptop shows it."""
    lessons_lab.set_viewport_size({"width": 1280, "height": 800})
    return lessons_lab


def open_lesson_page(page: Any, path: str) -> None:
    """Open a notebook with the file browser open beside it, and run it."""
    open_notebook_here(page, path)
    page.evaluate(_OPEN_FILE_BROWSER_JS)
    page.wait_for_function(  # the file browser takes its room beside the notebook
        "() => (document.querySelector('#filebrowser') || {getBoundingClientRect: () => "
        "({width: 0})}).getBoundingClientRect().width > 150"
    )


def check_fits(page: Any, path: str) -> int:
    """Nothing wider than the notebook's column; returns the column's width."""
    page.wait_for_timeout(500)  # drawings settle (ResizeObserver, fonts)
    measured = page.evaluate(_MEASURE_JS)
    too_wide = [o for o in measured["outputs"]
                if o["right"] > measured["columnRight"] + 1 or o["overflow"] > 1]
    assert not too_wide, (path, measured["columnRight"], too_wide)
    return max(o["width"] for o in measured["outputs"])


#: The lessons whose drawings' names are checked on a small laptop's screen too: lesson 2's
#: staff of fifteen notes, and a keyboard's black keys named with ♯ and ♭.
SMALL_LAPTOP_CHECKED = ("lessons/02-octaves-do3-to-do5.ipynb",
                        "lessons/es/04-sostenidos-y-bemoles.ipynb")


def check_names_readable_on_a_small_laptop(page: Any, path: str) -> None:
    """At 1024×768 with the file browser open, every note name under a staff (lesson 2's
    fifteen notes too) and on a key (the black keys' ♯ and ♭ names) is at least 11 px; the
    page is then put back at 1280×800."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(500)  # drawings settle at their new width
    sizes = page.evaluate(_LABEL_SIZES_JS)
    small = [s for s in sizes if s["px"] < 11]
    assert len(sizes) > 60 and not small, (path, len(sizes), small[:8])
    if "02-" in path:
        assert sum(s["text"] == "Do5" for s in sizes) >= 2, sizes  # the staff's names counted
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(500)


def answer_wrong(exercise: Any) -> str:
    """Answer the exercise's questions until one is wrong; return what the page says."""
    if exercise.locator(".mg-exercise-listen").is_visible():
        exercise.locator(".mg-exercise-listen").click()
    tries: dict[str, int] = {}  # per question ("question 2 of 6"): the options tried
    for _ in range(24):
        question = exercise.locator(".mg-exercise-count").inner_text()
        tried = tries.get(question, 0)
        tries[question] = tried + 1
        options = exercise.locator(".mg-exercise-option:enabled")
        options.nth(tried % options.count()).click()
        verdict = exercise.locator(".mg-exercise-feedback")
        verdict.wait_for()
        if "mg-wrong" in (verdict.get_attribute("class") or ""):
            return str(verdict.inner_text())
        exercise.locator(".mg-exercise-next").click()
        exercise.locator(".mg-exercise-option:enabled").first.wait_for()
    raise AssertionError("no wrong answer found")


def check_wrong_answers_explained(page: Any, verdict: str, *, only: int | None = None) -> int:
    """Answer each exercise on the page (or the first ``only``) wrong: each says why, and
    its wrong button stays red under the mouse."""
    exercises = page.locator(".mg-exercise")
    count = exercises.count()
    assert count >= 3
    for index in range(count if only is None else only):
        exercise = exercises.nth(index)
        exercise.scroll_into_view_if_needed()
        said = answer_wrong(exercise)
        title = exercise.locator(".mg-exercise-title").inner_text()
        assert said.startswith(verdict), (title, said)
        why = said[len(verdict):].strip()
        assert len(why) > 25 and not re.search(r"\brule\b|MIDI|Leitner|regla", why), (title, why)
        wrong = exercise.locator(".mg-exercise-option.mg-wrong")
        wrong.hover()  # the mouse over the wrong answer: still red
        colour = wrong.evaluate("b => getComputedStyle(b).backgroundColor")
        assert colour == RED, (title, colour)
    return count


@pytest.mark.parametrize(
    ("path", "verdict", "play"),
    [
        ("lessons/02-octaves-do3-to-do5.ipynb", "Not quite.", ".mg-drill"),
        ("lessons/es/04-sostenidos-y-bemoles.ipynb", "No, no es esa.", ".mg-drill"),
        ("lessons/es/05-notas-del-acorde.ipynb", "No, no es esa.", ".mg-quiz"),
        ("lessons/06-chord-tones-in-play.ipynb", "Not quite.", ".mg-duel"),
    ],
)
def test_a_lesson_fits_hides_its_code_and_explains_wrong_answers(
    student_page: Any, path: str, verdict: str, play: str
) -> None:
    page = student_page
    open_lesson_page(page, path)
    # No code to read: every input is collapsed; the start hint is gone once it ran.
    assert page.locator(".jp-CodeCell .jp-InputArea-editor:visible").count() == 0
    expect(page.locator(".mg-run-hint").first).to_be_hidden()
    expect(page.locator(".mg-lesson-settings")).to_be_visible()
    page.locator(play).first.scroll_into_view_if_needed()
    expect(page.locator(play).first).to_be_visible()
    width = check_fits(page, path)
    print(f"\n{path}: widest output {width} px at 1280×800 with the file browser open")
    if path in SMALL_LAPTOP_CHECKED:
        check_names_readable_on_a_small_laptop(page, path)
    check_wrong_answers_explained(page, verdict, only=2)
    check_fits(page, path)  # explanations and their drawings fit too
    expect(page.locator(".mg-lesson-summary")).to_contain_text(
        "What you learned" if verdict == "Not quite." else "Lo que aprendiste"
    )
    if play == ".mg-drill" and verdict == "No, no es esa.":
        # The drill at the end speaks Spanish numbers too: "(1,4 s)", not "(1.4 s)".
        drill = page.locator(".mg-drill").last
        drill.locator(".mg-drill-start").click()
        drill.locator(".mg-practice-keyboard .mg-key").first.wait_for()
        page.wait_for_timeout(300)
        key = drill.locator(".mg-practice-keyboard .mg-key").nth(3)
        key.click()
        expect(drill.locator(".mg-drill-feedback")).to_contain_text(re.compile(r"\(\d+,\d s\)"))
        # The mouse still on the key it clicked: its right or wrong colour shows, not hover.
        key.hover()
        marked = key.evaluate("k => [k.getAttribute('class'), getComputedStyle(k).fill]")
        assert "mg-right" in marked[0] or "mg-wrong" in marked[0], marked
        assert marked[1] in ("rgb(102, 161, 130)", "rgb(209, 73, 91)"), marked


def test_every_kind_of_exercise_answered_wrong_says_why(student_page: Any) -> None:
    page = student_page
    open_lesson_page(page, "tests/browser/lesson_kinds.ipynb")
    count = check_wrong_answers_explained(page, "Not quite.")
    assert count == 18
    check_fits(page, "tests/browser/lesson_kinds.ipynb")


def test_a_spanish_lesson_as_a_voila_app(browser: Any, voila_server: Any) -> None:
    """Voila shows the lesson as an app: settings, drawings and exercises, no code, and no
    word about running cells."""
    server = voila_server("lessons/es/01-el-pentagrama.ipynb")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(NOTEBOOK_TIMEOUT_MS)
    failures = watch_widget_failures(page)
    try:
        page.goto(server.url)
        # Voila shows the lesson's text first and each widget as its cell has run in the
        # new kernel: seconds on a busy machine (expect's own wait is 5 s)
        expect(page.locator(".mg-lesson-settings")).to_be_visible(timeout=NOTEBOOK_TIMEOUT_MS)
        expect(page.locator(".mg-exercise").first).to_be_visible(timeout=NOTEBOOK_TIMEOUT_MS)
        page.locator(".mg-drill").wait_for()
        expect(page.locator(".mg-run-hint")).to_be_hidden()
        shown = page.locator("body").inner_text()
        assert "⏩" not in shown and "ejecuta" not in shown.lower(), shown[:400]
        assert "open_lesson" not in shown and "lesson.show" not in shown
        said = answer_wrong(page.locator(".mg-exercise").nth(1))
        assert said.startswith("No, no es esa.") and " está en " in said
    finally:
        page.close()
    assert not failures


# Every name written in a lesson's drawings (staff labels and keys), with its height on the
# page: its font size in the drawing times the drawing's scale on the screen.
_LABEL_SIZES_JS = """() => {
  const notebook = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  const sizes = [];
  for (const out of notebook.querySelectorAll('.jp-OutputArea-output')) {
    for (const el of out.querySelectorAll('svg text, svg tspan')) {
      const own = Array.from(el.childNodes).some(
        n => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== '');
      if (!own) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;  // not drawn (a hidden drawing)
      const matrix = el.getScreenCTM();
      const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(matrix.a, matrix.b);
      sizes.push({text: el.textContent.trim(), px: Math.round(px * 10) / 10});
    }
  }
  return sizes;
}"""


def test_a_reopened_lesson_says_to_run_it_instead_of_widget_errors(
    lessons_lab: Any, lab_server: Server
) -> None:
    """A student runs a lesson, saves it, and opens it again another day (a new kernel): each
    cell says, in the lesson's language, to run the lesson with ⏩ and Restart — no "Error
    displaying widget: model not found"."""
    page = lessons_lab
    page.set_viewport_size({"width": 1400, "height": 1000})
    source = REPO_ROOT / "lessons" / "es" / "01-el-pentagrama.ipynb"
    copy = lab_server.root / SCRATCH / "reopened.ipynb"  # the server's own, not the repository's
    shutil.copy(source, copy)
    path = copy.relative_to(lab_server.root).as_posix()
    try:
        open_notebook_here(page, path)  # run the first time in the Lab running there
        expect(page.locator(".mg-lesson-settings")).to_be_visible()
        expect(page.locator(".mg-run-again").first).to_be_hidden()  # the lesson runs
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        saved = json.loads(copy.read_text(encoding="utf-8"))
        assert any(o.get("data", {}).get("application/vnd.jupyter.widget-view+json")
                   for c in saved["cells"] for o in c.get("outputs", []))
        shut_down_kernels(page)
        page.goto(f"/lab/tree/{path}?reset")
        page.wait_for_function(  # the widget manager gave up on the lost widgets
            "() => document.querySelectorAll('.jp-OutputArea-output.jupyter-widgets').length > 3"
        )
        page.wait_for_timeout(500)
        shown = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").inner_text()
        assert "Error displaying widget" not in shown, shown[:600]
        lines = page.locator(".mg-run-again")
        code_cells = sum(c["cell_type"] == "code" for c in saved["cells"])
        assert lines.count() == code_cells
        expect(lines.first).to_be_visible()
        expect(lines.first).to_have_text(text("lesson.run_again", "es"))
        hint = re.sub(r"<[^>]+>", "", run_hint("es"))  # the start line, as the page shows it
        expect(page.locator(".mg-run-hint").first).to_have_text(hint)
    finally:
        shut_down_kernels(page)
        copy.unlink(missing_ok=True)
