"""The lessons: one definition per lesson, in every language, built into notebooks.

A lesson notebook (``lessons/NN-*.ipynb``, in Spanish ``lessons/es/NN-*.ipynb``, in French
``lessons/fr/NN-*.ipynb``) holds no teaching code: it opens its lesson and shows its steps by id.

>>> lesson = open_lesson("04-sharps-and-flats", "en", remember=False, record=False)
>>> ex = lesson.show("enharmonic").children[0]
>>> ex.question.prompt
'Fa♯ is the same key as…?'
>>> sorted(lesson_exercises())[3]
'04-sharps-and-flats'

Everything a lesson draws and asks is a method of :class:`Lesson`, usable on its own:

>>> Lesson(naming="letters", record=False).name("Sol3")
'G4'
"""

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
LESSON_EXERCISES: dict[str, list[str]] = lesson_exercises()

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
