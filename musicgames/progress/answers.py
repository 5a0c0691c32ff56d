"""One answer: what a row of a progress file holds, and the checks every row passes.

An :class:`Answer` is one answer (or game event) of one student; it refuses a bad value
(an unknown activity, a negative time, …) with :class:`~musicgames.progress.errors.AnswerError`
before anything is written. Its CSV form guards the cells a person typed against being run
as a spreadsheet formula (:func:`csv_cell`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timezone

from musicgames.progress.errors import AnswerError, StudentNameError

__all__ = ["ACTIVITIES", "CSV_COLUMNS", "Answer", "csv_cell", "csv_text", "lesson_item"]

#: What a row can be about: the note drill, the chord-tones quiz, the two games, and the
#: lessons' exercises (item ``"<lesson-id>/<exercise-id>"``, see :func:`lesson_item`).
ACTIVITIES: tuple[str, ...] = ("drill", "quiz", "note_snap", "keyboard_duel", "lesson")
#: The columns of an exported CSV file, in order.
CSV_COLUMNS: tuple[str, ...] = (
    "student",
    "time",
    "activity",
    "item",
    "answer",
    "correct",
    "response_ms",
)
_MAX_NAME = 80
_MAX_TEXT = 200


@dataclass(frozen=True)
class Answer:
    """One answer (or game event) of one student.

    ``time`` is UTC in ISO 8601; ``correct`` is ``None`` for an event that is neither right
    nor wrong (a game won, say); ``response_ms`` is ``None`` when nothing was timed.
    """

    student: str
    time: str
    activity: str
    item: str
    answer: str
    correct: bool | None
    response_ms: float | None

    def __post_init__(self) -> None:
        check_name(self.student)
        _check_time(self.time)
        if self.activity not in ACTIVITIES:
            allowed = ", ".join(ACTIVITIES)
            raise AnswerError(f"activity {quoted(self.activity)} is not one of {allowed}")
        for field_name in ("item", "answer"):
            value = getattr(self, field_name)
            if not isinstance(value, str) or len(value) > _MAX_TEXT:
                raise AnswerError(
                    f"{field_name} {quoted(value)} must be text of at most {_MAX_TEXT} characters"
                )
        if not self.item:
            raise AnswerError("item '' is empty: say what was asked (a note, a chord, …)")
        if self.activity == "lesson" and not _LESSON_ITEM.fullmatch(self.item):
            raise AnswerError(
                f"lesson item {quoted(self.item)} must be '<lesson-id>/<exercise-id>', "
                "like '01-the-staff/line-or-space'"
            )
        if self.correct is not None and not isinstance(self.correct, bool):
            raise AnswerError(f"correct={quoted(self.correct)} must be True, False or None")
        ms = self.response_ms
        if ms is not None and (
            isinstance(ms, bool)
            or not isinstance(ms, (int, float))
            or not math.isfinite(ms)
            or ms < 0
        ):
            raise AnswerError(
                f"response_ms={quoted(ms)} must be a number of milliseconds ≥ 0 or None"
            )

    @property
    def day(self) -> date:
        """The (UTC) day of the answer."""
        return datetime.fromisoformat(self.time).date()

    def to_csv_row(self) -> list[str]:
        """The answer as the text cells of one CSV line (see :data:`CSV_COLUMNS`). The cells
        of text a person typed or chose (student, item, answer) are written so a spreadsheet
        cannot run them as a formula (see :func:`csv_cell`)."""
        correct = "" if self.correct is None else str(int(self.correct))
        ms = "" if self.response_ms is None else repr(float(self.response_ms))
        student, item, answer = (csv_cell(text) for text in (self.student, self.item, self.answer))
        return [student, self.time, self.activity, item, answer, correct, ms]


#: What a spreadsheet may read as the start of a formula (OWASP, "CSV Injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _guarded(text: str) -> bool:
    """Whether a text cell is written with a ``'`` in front (see :func:`csv_cell`)."""
    if text.startswith(_FORMULA_STARTS):
        return not _PLAIN_NUMBER.fullmatch(text)
    return text.startswith("'") and _guarded(text[1:])


def csv_cell(text: str) -> str:
    """A text cell as the CSV export writes it: one that a spreadsheet would take for a
    formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a
    ``'`` in front, as OWASP advises, so Excel, LibreOffice and Google Sheets show it as text
    and never run it. A plain number (``-3``, ``+2.5``) is left as it is: no formula can
    start from it, and the teacher's spreadsheet still reads it as the number it is. A cell
    that already starts with ``'`` before such text gets one more, so reading the file
    back (:func:`read_csv`) gives every cell exactly as it was.

    >>> [csv_cell(t) for t in ("Ana", "=SUM(A1:A9)", "@SUM(A1)", "-3", "-1+1")]
    ['Ana', "'=SUM(A1:A9)", "'@SUM(A1)", '-3', "'-1+1"]
    >>> all(csv_text(csv_cell(t)) == t for t in ("'=1", "''+2", "'Ana", "-3", "\t=1"))
    True
    """
    return f"'{text}" if _guarded(text) else text


def csv_text(cell: str) -> str:
    """A text cell of a CSV export read back: the ``'`` :func:`csv_cell` put in front of
    formula-like text is taken off again."""
    return cell[1:] if cell.startswith("'") and _guarded(cell[1:]) else cell


def quoted(value: object, limit: int = 40) -> str:
    """A value as messages quote it: its repr, cut to ``limit`` characters.

    >>> quoted("x" * 200_000, limit=10)
    "'xxxxxxx… (200002 characters)"
    """
    text = repr(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 2]}… ({len(text)} characters)"


_LESSON_ITEM = re.compile(r"[\w.-]{1,80}/[\w.-]{1,80}")


def lesson_item(lesson: str, exercise: str) -> str:
    """The item a lesson exercise's answers are stored under: ``"<lesson-id>/<exercise-id>"``.

    Lessons record each judged answer with ``record("lesson", lesson_item(...), answer,
    correct, response_ms)``; the teacher's notebook counts, per lesson, the distinct
    exercises answered (see :func:`lesson_completion`).

    >>> lesson_item("01-the-staff", "line-or-space")
    '01-the-staff/line-or-space'
    >>> lesson_item("01 the staff", "x")
    Traceback (most recent call last):
    ...
    musicgames.progress.errors.AnswerError: lesson item '01 the staff/x' must be \
'<lesson-id>/<exercise-id>', like '01-the-staff/line-or-space'
    """
    item = f"{lesson}/{exercise}"
    if not _LESSON_ITEM.fullmatch(item):
        raise AnswerError(
            f"lesson item {item!r} must be '<lesson-id>/<exercise-id>', "
            "like '01-the-staff/line-or-space'"
        )
    return item


def check_name(name: object) -> str:
    """``name`` if it can be a student's name, else :class:`StudentNameError` saying why."""
    if not isinstance(name, str) or not name.strip():
        raise StudentNameError(f"student name {quoted(name)} is empty: give the student's name")
    if len(name) > _MAX_NAME or any(ord(c) < 32 for c in name) or name != name.strip():
        raise StudentNameError(
            f"student name {quoted(name)} must be at most {_MAX_NAME} characters on one line, "
            "without spaces at either end"
        )
    return name


def _check_time(value: object) -> None:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise AnswerError(f"time {quoted(value)} is not an ISO 8601 time") from None
    if not isinstance(value, str) or parsed.utcoffset() != timezone.utc.utcoffset(None):
        raise AnswerError(f"time {quoted(value)} must be an ISO 8601 time in UTC (+00:00)")


def utc_now() -> str:
    """The present moment as an answer's ``time`` holds it (UTC, ISO 8601)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
