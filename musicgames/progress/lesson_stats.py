"""How far each student got in each lesson: distinct exercises answered out of the lesson's
exercises, as the course lists them (:func:`musicgames.lessons.page.lesson_exercises`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from musicgames.lessons.page import lesson_exercises, lesson_title
from musicgames.progress.answers import Answer

__all__ = ["LessonStats", "lesson_completion", "lesson_title_or_id"]


@dataclass(frozen=True)
class LessonStats:
    """How far one student got in one lesson: distinct exercises answered (``done``) out of
    the lesson's exercises (``total``; ``None`` when the lesson's list is not known), and the
    share of their answers that were right."""

    student: str
    lesson: str
    done: int
    total: int | None
    answers: int
    right: int

    @property
    def completion(self) -> float | None:
        """``done / total``, or ``None`` without a total."""
        return min(1.0, self.done / self.total) if self.total else None


def lesson_title_or_id(lesson: str, language: str) -> str:
    """A lesson's title in ``language`` (its id when the course does not know it).

    >>> lesson_title_or_id("01-the-staff", "es"), lesson_title_or_id("99-other", "en")
    ('Lección 1 · El pentagrama', '99-other')
    """
    try:
        return lesson_title(lesson, language)
    except ValueError:  # a lesson of another version of the course
        return lesson


def lesson_completion(
    answers: Iterable[Answer], exercises: dict[str, Sequence[str]] | None = None
) -> list[LessonStats]:
    """Per student and lesson: distinct exercises answered, out of the lesson's exercises.

    ``exercises`` maps a lesson id to its exercise ids (default: the course's,
    :func:`musicgames.lessons.page.lesson_exercises`). Every lesson of that list is shown for
    every student, answered or not; without a list, only the lessons answered.

    >>> rows = [Answer("Ana", "2026-03-02T09:00:00+00:00", "lesson", f"01-the-staff/{e}",
    ...                "x", e != "b", 900.0) for e in ("a", "b", "b")]
    >>> [(s.lesson, s.done, s.total, s.completion) for s in lesson_completion(
    ...     rows, {"01-the-staff": ["a", "b", "c", "d"], "02-octaves": ["a"]})]
    [('01-the-staff', 2, 4, 0.5), ('02-octaves', 0, 1, 0.0)]
    """
    given = lesson_exercises() if exercises is None else exercises
    listed = {str(k): tuple(str(e) for e in v) for k, v in given.items()}
    done: dict[tuple[str, str], set[str]] = {}
    tallies: dict[tuple[str, str], list[int]] = {}
    students: set[str] = set()
    for a in answers:
        students.add(a.student)
        if a.activity != "lesson" or a.correct is None:
            continue
        lesson, _, exercise = a.item.partition("/")
        key = (a.student, lesson)
        done.setdefault(key, set()).add(exercise)
        tally = tallies.setdefault(key, [0, 0])
        tally[0] += 1
        tally[1] += int(a.correct)
    keys = set(done)
    for student in students:
        keys.update((student, lesson) for lesson in listed)
    table = []
    for student, lesson in sorted(keys):
        known = listed.get(lesson)
        answered = done.get((student, lesson), set())
        count = len(answered & set(known)) if known is not None else len(answered)
        answers_count, right = tallies.get((student, lesson), [0, 0])
        total = len(known) if known is not None else None
        table.append(LessonStats(student, lesson, count, total, answers_count, right))
    return table
