"""The lessons: one definition per lesson, in every language, built into notebooks.

A lesson notebook (``lessons/NN-*.ipynb``, in Spanish ``lessons/es/NN-*.ipynb``, in French
``lessons/fr/NN-*.ipynb``) holds no teaching code: it opens its lesson and shows its steps by id.

>>> from musicgames.lessons import Lesson, lesson_exercises, open_lesson
>>> lesson = open_lesson("04-sharps-and-flats", "en", remember=False, record=False)
>>> ex = lesson.show("enharmonic").children[0]
>>> ex.question.prompt
'Fa♯ is the same key as…?'
>>> sorted(lesson_exercises())[3]
'04-sharps-and-flats'

Everything a lesson draws and asks is a method of :class:`Lesson`, usable on its own:

>>> Lesson(naming="letters", record=False).name("Sol3")
'G4'

Each name below is imported from its module when first asked for, so a widget that uses a
lesson's words for a note (:mod:`musicgames.lessons.facts`) does not load the lesson pages.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from musicgames.lessons.exercises import SIZES, Exercise, LessonError, Question
    from musicgames.lessons.facts import (
        half_steps,
        ledger_lines,
        on_a_line,
        staff_place,
        steps_between,
        where,
    )
    from musicgames.lessons.lesson import Lesson
    from musicgames.lessons.page import (
        LessonPage,
        lesson_exercises,
        lesson_title,
        open_lesson,
        plan_of,
    )
    from musicgames.lessons.settings import LessonSettings

    #: Every lesson's exercise ids, in order (what the teacher's notebook counts per lesson).
    LESSON_EXERCISES: dict[str, list[str]]

__all__ = [
    "LESSON_EXERCISES",
    "SIZES",
    "Exercise",
    "Lesson",
    "LessonError",
    "LessonPage",
    "LessonSettings",
    "Question",
    "half_steps",
    "ledger_lines",
    "lesson_exercises",
    "lesson_title",
    "on_a_line",
    "open_lesson",
    "plan_of",
    "staff_place",
    "steps_between",
    "where",
]

#: The module each name lives in (imported when the name is first asked for).
_WHERE = {
    "SIZES": "musicgames.lessons.exercises",
    "Exercise": "musicgames.lessons.exercises",
    "LessonError": "musicgames.lessons.exercises",
    "Question": "musicgames.lessons.exercises",
    "half_steps": "musicgames.lessons.facts",
    "ledger_lines": "musicgames.lessons.facts",
    "on_a_line": "musicgames.lessons.facts",
    "staff_place": "musicgames.lessons.facts",
    "steps_between": "musicgames.lessons.facts",
    "where": "musicgames.lessons.facts",
    "Lesson": "musicgames.lessons.lesson",
    "LessonPage": "musicgames.lessons.page",
    "lesson_exercises": "musicgames.lessons.page",
    "lesson_title": "musicgames.lessons.page",
    "open_lesson": "musicgames.lessons.page",
    "plan_of": "musicgames.lessons.page",
    "LessonSettings": "musicgames.lessons.settings",
}


@cache
def _lesson_exercises() -> dict[str, list[str]]:
    from musicgames.lessons.page import lesson_exercises

    return lesson_exercises()


def __getattr__(name: str) -> Any:
    if name == "LESSON_EXERCISES":
        return _lesson_exercises()
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'musicgames.lessons' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE, "LESSON_EXERCISES"})
