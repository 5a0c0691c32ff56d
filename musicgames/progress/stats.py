"""Numbers about answers: per item (note, chord), per day and per student — how many, how
many right, the median response time. Only answers that are right or wrong count.

>>> from musicgames.progress.answers import Answer
>>> rows = [Answer("Ana", f"2026-03-02T09:0{n}:00+00:00", "drill", item, "x", ok, ms)
...         for n, (item, ok, ms) in enumerate([("Sol3", True, 850.0), ("Fa3", False, 1900.0),
...                                             ("Sol3", True, 650.0)])]
>>> [(s.item, s.count, s.accuracy, s.median_ms) for s in item_stats(rows)]
[('Fa3', 1, 0.0, 1900.0), ('Sol3', 2, 1.0, 750.0)]
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from musicgames.progress.answers import Answer
from musicgames.theory import Note, NoteError

__all__ = [
    "DayStats",
    "ItemStats",
    "StudentStats",
    "daily_stats",
    "item_stats",
    "student_stats",
]


class _Tally:
    """Answers counted: ``count`` of them, ``right`` of those right."""

    count: int
    right: int

    @property
    def accuracy(self) -> float:
        """The share of right answers, 0.0 to 1.0."""
        return self.right / self.count if self.count else 0.0


@dataclass(frozen=True)
class ItemStats(_Tally):
    """How one item (a note, a chord) went: answers, right ones, median response time."""

    item: str
    count: int
    right: int
    median_ms: float | None


@dataclass(frozen=True)
class DayStats(_Tally):
    """How one day went."""

    day: date
    count: int
    right: int
    median_ms: float | None


@dataclass(frozen=True)
class StudentStats(_Tally):
    """A line of the class table."""

    student: str
    count: int
    right: int
    median_ms: float | None
    days: int
    last_day: date | None
    weakest: str | None


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _judged(answers: Iterable[Answer], activity: str | None) -> list[Answer]:
    return [
        a
        for a in answers
        if a.correct is not None and (activity is None or a.activity == activity)
    ]


def _note_order(item: str) -> tuple[int, Note | None, str]:
    """Where an item goes in a table or on the staff chart: notes low to high, two names of
    one key by letter, as :class:`Note` orders them (Do♯3 before Re♭3, Sol♯3 before La♭3),
    then other items by name.

    >>> sorted(["Lab3", "Sol#3", "Reb3", "Do#3", "D major", "Sol3"], key=_note_order)
    ['Do#3', 'Reb3', 'Sol3', 'Sol#3', 'Lab3', 'D major']
    """
    try:
        return (0, Note.parse(item), item)  # Note's own order
    except NoteError:
        return (1, None, item)


def _tally(rows: Sequence[Answer]) -> tuple[int, int, float | None]:
    """Answers, right answers and median response time of some rows."""
    return (
        len(rows),
        sum(1 for a in rows if a.correct),
        _median([a.response_ms for a in rows if a.response_ms is not None]),
    )


def item_stats(answers: Iterable[Answer], activity: str | None = None) -> list[ItemStats]:
    """Per item: answers, right answers and median response time, notes low to high then
    other items by name. Only rows that are right or wrong count."""
    groups: dict[str, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.item, []).append(a)
    return [
        ItemStats(
            item,
            *_tally(rows),
        )
        for item, rows in sorted(groups.items(), key=lambda kv: _note_order(kv[0]))
    ]


def daily_stats(answers: Iterable[Answer], activity: str | None = None) -> list[DayStats]:
    """Per (UTC) day: answers, right answers and median response time, oldest first."""
    groups: dict[date, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.day, []).append(a)
    return [
        DayStats(
            day,
            *_tally(rows),
        )
        for day, rows in sorted(groups.items())
    ]


def student_stats(answers: Iterable[Answer], activity: str | None = None) -> list[StudentStats]:
    """One line per student: answers, accuracy, median time, active days, weakest item."""
    groups: dict[str, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.student, []).append(a)
    table = []
    for student, rows in sorted(groups.items()):
        items = [s for s in item_stats(rows) if s.count >= 3]
        weakest = min(items, key=lambda s: (s.accuracy, -(s.median_ms or 0))) if items else None
        days = {a.day for a in rows}
        table.append(
            StudentStats(
                student,
                *_tally(rows),
                len(days),
                max(days) if days else None,
                weakest.item if weakest else None,
            )
        )
    return table
