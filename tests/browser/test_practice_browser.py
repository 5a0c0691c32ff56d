"""The clock of a timed note drill or chord quiz, played in JupyterLab.

The page counts the seconds down from what the kernel says is left, says "Time is up!" only
at the end, then tells the kernel (which checks it with its own clock), and takes no answer
after its deadline.

Each test uses its own session of the notebook, so they share one page, opened once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, new_lab_page, open_notebook

pytestmark = pytest.mark.browser

NOTEBOOK = "tests/browser/practice.ipynb"
SECONDS = 4.0  # the timed sessions of the notebook
TIME_UP = "Time is up!"


@pytest.fixture(scope="module")
def page(browser: Any, lab_server: Server) -> Iterator[Any]:
    """The notebook run in one Lab page for the module (each test has its own session)."""
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, NOTEBOOK)
        yield page


# The phase of the widget, and the seconds into the session, each time the phase changes.
_WATCH_PHASE = (
    "{name}_phases = []\n"
    "{name}.observe(lambda change: {name}_phases.append((change.new, {name}.elapsed_s())),"
    " names='phase')"
)


def watch_clock(page: Any, widget: Any, until_s: float) -> list[tuple[float, str, str]]:
    """What the clock of ``widget`` (a view's root) says, and its phase, every 100 ms:
    ``(seconds since the first question appeared, clock text, phase)``, until the phase is
    over or ``until_s`` seconds have passed."""
    clock = widget.locator(".mg-practice-clock")
    seen: list[tuple[float, str, str]] = []
    start = time.monotonic()
    while time.monotonic() - start < until_s:
        phase = widget.get_attribute("data-phase") or ""
        seen.append((time.monotonic() - start, clock.text_content() or "", phase))
        if phase == "over":
            break
        page.wait_for_timeout(100)
    return seen


@pytest.mark.parametrize(("name", "widget_class"), [("drill", "mg-drill"), ("quiz", "mg-quiz")])
def test_timed_session_clock_counts_down_and_ends_on_time(
    page: Any,
    kernel_execute: Callable[[Any, str], str],
    name: str,
    widget_class: str,
) -> None:
    kernel_execute(page, _WATCH_PHASE.format(name=name))
    widget = page.locator(f".mg-test-timed-{name} .{widget_class}")
    widget.locator(".mg-practice-start").click()
    count = widget.locator(".mg-practice-count")
    expect(count).to_have_text("Question 1", timeout=10_000)

    # Right after the first question appears the clock shows the time left, not time up.
    first = widget.locator(".mg-practice-clock").text_content()
    assert first in ("4 s left", "3 s left"), f"the clock says {first!r} at the first question"

    seen = watch_clock(page, widget, until_s=SECONDS + 6)
    assert seen[-1][2] == "over", f"the session never ended: {seen[-5:]}"
    expect(widget.locator(".mg-practice-summary")).to_be_visible()
    early = [(round(at, 1), text) for at, text, phase in seen if text == TIME_UP and at < 3.0]
    assert not early, f"the clock said time is up too early: {early}"
    texts = [text for _at, text, phase in seen if phase == "asking"]
    assert "2 s left" in texts and "1 s left" in texts, f"the clock did not count down: {texts}"

    # The kernel agreed at once when the page said time is up, and not before the end.
    refused = kernel_execute(page, f"print({name}.refused)")
    assert refused == "[]\n", f"the kernel refused: {refused}"
    phases = kernel_execute(page, f"print(*(f'{{p}}:{{s:.2f}}' for p, s in {name}_phases))")
    ended = [float(entry.split(":")[1]) for entry in phases.split() if entry.startswith("over:")]
    assert len(ended) == 1, f"phases seen by the kernel: {phases}"
    assert SECONDS - 0.1 <= ended[0] <= SECONDS + 2.0, f"the session ended after {ended[0]} s"


def test_page_takes_no_answer_after_its_deadline(
    page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """The notebook's `stuck` drill has a kernel clock that stands still, so the kernel keeps
    refusing `time_up` and the question stays on the page after the page's deadline."""
    widget = page.locator(".mg-test-stuck-drill .mg-drill")
    widget.locator(".mg-practice-start").click()
    expect(widget.locator(".mg-practice-count")).to_have_text("Question 1", timeout=10_000)
    clock = widget.locator(".mg-practice-clock")
    assert clock.text_content() in ("2 s left", "1 s left")
    expect(clock).to_have_text(TIME_UP, timeout=5_000)
    assert widget.get_attribute("data-phase") == "asking"
    page.keyboard.press("Digit1")  # "Do": a name, with the key 1
    widget.locator(".mg-drill-names button").first.click()  # and "Do" clicked
    page.wait_for_timeout(700)
    assert widget.locator(".mg-practice-feedback").text_content() == ""
    code = "print(len(stuck.session.results), sorted({kind for kind, _ in stuck.refused}))"
    assert kernel_execute(page, code) == "0 ['time_up']\n"


def test_an_answer_is_explained_on_the_page_in_the_lessons_words(
    page: Any,
) -> None:
    """A wrong name is explained under the right answer, as the lesson exercises do, and
    Enter goes on at once; a right one says where the note sits."""
    widget = page.locator(".mg-test-explained-drill .mg-drill")
    widget.locator(".mg-practice-start").click()
    expect(widget.locator(".mg-practice-count")).to_have_text("Question 1 of 2", timeout=10_000)
    widget.locator('.mg-drill-names button[data-index="4"]').click()  # "Sol" for La3
    why = widget.locator(".mg-practice-why")
    expect(why).to_have_text(
        "Sol3 sits on the 2nd line, where the clef curls; this note sits in the 2nd space, "
        "one step higher: it is La3.", timeout=5_000)
    expect(widget.locator(".mg-practice-feedback")).to_contain_text("Not quite")
    page.keyboard.press("Enter")
    expect(widget.locator(".mg-practice-count")).to_have_text("Question 2 of 2", timeout=5_000)
    widget.locator('.mg-drill-names button[data-index="5"]').click()  # "La": right
    expect(why).to_have_text("La3 sits in the 2nd space.", timeout=5_000)
