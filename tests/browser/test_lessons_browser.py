"""Lessons in JupyterLab: exercises answered by clicking, the drill and quiz played in the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LESSON_1 = "lessons/01-the-staff.ipynb"
LESSON_5 = "lessons/05-chord-tones.ipynb"
# The widgets the notebook's steps showed, oldest first (IPython keeps each step's block in
# Out; the block holds the exercise, drill or game).
_SHOWN = (
    "[o.children[0] for _, o in sorted(Out.items()) if type(o).__name__ == '_Block' "
    "and type(o.children[0]).__name__ == {name!r}]"
)


def wait_for_kernel(
    page: Any, kernel_execute: Callable[[Any, str], str], code: str, expected: str
) -> str:
    """Ask the kernel until it prints ``expected`` (a click needs a moment to arrive)."""
    seen = ""
    for _ in range(50):
        seen = kernel_execute(page, code)
        if seen == expected:
            break
        page.wait_for_timeout(100)
    return seen


def test_lesson_1_first_exercise_answered_by_clicking_shows_feedback(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = lab_page
    open_notebook(page, LESSON_1)
    first = page.locator(".mg-exercise").first
    expect(first).to_contain_text("How many lines does a staff have?")
    first.locator(".mg-exercise-option", has_text="5").click()
    feedback = first.locator(".mg-exercise-feedback")
    expect(feedback).to_have_text(
        "Right! A staff has five lines, with four spaces between them, counted from the "
        "bottom up."
    )
    expect(feedback).to_have_class("mg-exercise-feedback mg-right")
    assert first.locator(".mg-exercise-option").first.is_disabled()
    shown = _SHOWN.format(name="Exercise")
    assert wait_for_kernel(page, kernel_execute, f"print({shown}[0].right)", "1\n") == "1\n"

    # A wrong answer in the next exercise shows the right one, at once.
    second = page.locator(".mg-exercise").nth(1)
    expect(second).to_contain_text("Is this note on a line or in a space?")
    second.locator(".mg-exercise-option", has_text="in a space").click()  # Mi3: on a line
    expect(second.locator(".mg-exercise-feedback")).to_contain_text(
        "Not quite. Mi3 sits on the 1st line (the bottom one): the line goes through"
    )


def test_lesson_1_ends_in_the_drill_timed_in_the_page(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = lab_page
    open_notebook(page, LESSON_1)
    drill = page.locator(".mg-drill")
    drill.locator(".mg-drill-start").click()
    drill.locator(".mg-drill-staff > svg").wait_for()
    page.wait_for_timeout(400)
    page.keyboard.press("Digit5")  # "Sol", with the key 5
    feedback = drill.locator(".mg-drill-feedback.mg-right, .mg-drill-feedback.mg-wrong")
    feedback.wait_for()
    assert drill.locator(".mg-drill-name.mg-right").count() == 1  # the right name is shown
    shown = _SHOWN.format(name="NoteDrill")
    code = f"r = {shown}[0].session.results; print(len(r), r[0].answer if r else '')"
    assert wait_for_kernel(page, kernel_execute, code, "1 Sol\n") == "1 Sol\n"
    ms = float(kernel_execute(page, f"print({shown}[0].session.results[0].response_ms)"))
    assert 300 <= ms < 10_000  # from the painted note to the key press, measured in the page
    # The kernel's next question follows on its own after the feedback pause.
    drill.locator(".mg-drill-count", has_text="Question 2 of 15").wait_for(timeout=10_000)


def test_lesson_5_quiz_tones_clicked_on_the_keyboard(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = lab_page
    open_notebook(page, LESSON_5)
    quiz = page.locator(".mg-quiz").first
    quiz.locator(".mg-quiz-start").click()
    quiz.locator(".mg-quiz-keyboard .mg-key").first.wait_for()
    page.wait_for_timeout(300)
    shown = _SHOWN.format(name="ChordTonesQuiz")
    keys = kernel_execute(page, f"print(*{shown}[0].current.pitch_classes)").split()
    for key in keys:
        quiz.locator(f'.mg-quiz-keyboard .mg-key[data-key="{key}"]').click()
    expect(quiz.locator(".mg-quiz-feedback")).to_contain_text("Right!")
    code = f"print({shown}[0].session.results[0].correct)"
    assert wait_for_kernel(page, kernel_execute, code, "True\n") == "True\n"


@pytest.mark.parametrize(
    ("notebook", "game"),
    [("lessons/03-reading-fast.ipynb", ".mg-snap"),
     ("lessons/06-chord-tones-in-play.ipynb", ".mg-duel")],
)
def test_lessons_3_and_6_end_in_their_game(
    lab_page: Any, open_notebook: Callable[[Any, str], None], notebook: str, game: str
) -> None:
    open_notebook(lab_page, notebook)
    last = lab_page.locator(".mg-exercise").last
    last.locator(".mg-exercise-option").first.click()
    expect(last.locator(".mg-exercise-feedback")).to_contain_text(".")
    lab_page.locator(game).first.scroll_into_view_if_needed()
    expect(lab_page.locator(game).first).to_be_visible()
