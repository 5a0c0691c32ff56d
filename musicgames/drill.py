"""Which question comes next: the adaptive schedule behind the note drill and the chord quiz.

The scheme is **Leitner boxes**, a flash-card method teachers know:

* every item (a note, a chord) sits in one of five boxes; all start in box 1;
* a **wrong** answer sends it back to box 1, and the item is asked again after at most
  ``retry_after`` other questions (2 by default), while the mistake is fresh;
* a **right and quick** answer moves it up one box (at most box 5);
* a **right but slow** answer (slower than ``slow_ms``, 3 s by default) leaves it where it is;
* the next question is drawn at random with weight ``2 ** (5 - box)``: an item in box 1
  comes 16 times as often as one in box 5. The same item is not asked twice in a row
  (unless it is the only one).

So the notes a student misses or answers slowly come back more often, and the ones they know
fade into the background without disappearing.

>>> import random
>>> schedule = LeitnerSchedule(["Do", "Re", "Mi"], random.Random(1))
>>> schedule.record("Do", correct=True, response_ms=900)    # quick and right: up a box
>>> schedule.record("Re", correct=True, response_ms=5000)   # right but slow: stays
>>> schedule.record("Mi", correct=False, response_ms=700)   # wrong: back to box 1
>>> schedule.boxes()
{'Do': 2, 'Re': 1, 'Mi': 1}
>>> schedule.weight("Do"), schedule.weight("Mi")
(8, 16)


A :class:`DrillSession` asks questions from a schedule until a number of questions is
answered or a time is up, keeps every result, and sums them up at the end. It reads no
clock: the caller passes the time that has passed.

>>> session = DrillSession(["Do", "Re", "Mi"], random.Random(2), questions=2)
>>> first = session.ask()
>>> _ = session.answer(first, "Do", correct=first == "Do", response_ms=1200)
>>> second = session.ask()
>>> _ = session.answer(second, "Re", correct=second == "Re", response_ms=800)
>>> session.is_over()
True
>>> session.summary().asked
2
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = [
    "BOXES",
    "DEFAULT_SLOW_MS",
    "DrillError",
    "DrillResult",
    "DrillSession",
    "DrillSummary",
    "ItemSummary",
    "LeitnerSchedule",
    "SessionOverError",
    "UnknownItemError",
    "WrongQuestionError",
]

#: How many Leitner boxes there are.
BOXES = 5
#: A right answer slower than this (in milliseconds) does not move an item up a box.
DEFAULT_SLOW_MS = 3000.0

T = TypeVar("T", bound=Hashable)


class DrillError(ValueError):
    """A drill was asked to do something it cannot."""


class UnknownItemError(DrillError):
    """An item that is not in the drill."""


class WrongQuestionError(DrillError):
    """An answer to a question that is not the one being asked."""


class SessionOverError(DrillError):
    """A question or an answer after the session has ended."""


class LeitnerSchedule(Generic[T]):
    """Five Leitner boxes over ``items``; see the module's description for the rules."""

    def __init__(
        self,
        items: Sequence[T],
        rng: random.Random,
        *,
        slow_ms: float = DEFAULT_SLOW_MS,
        retry_after: int = 2,
    ) -> None:
        unique = list(dict.fromkeys(items))
        if not unique:
            raise DrillError("a drill needs at least one item to ask")
        if not (isinstance(slow_ms, (int, float)) and slow_ms > 0):
            raise DrillError(f"slow_ms={slow_ms!r} must be a positive number of milliseconds")
        self.items: tuple[T, ...] = tuple(unique)
        if not isinstance(retry_after, int) or retry_after < 0:
            raise DrillError(f"retry_after={retry_after!r} must be a whole number ≥ 0")
        self.slow_ms = float(slow_ms)
        self.retry_after = retry_after
        self._rng = rng
        self._box: dict[T, int] = {item: 1 for item in self.items}
        self._last: T | None = None
        self._retry: dict[T, int] = {}  # missed items -> questions to wait before asking again

    def _check(self, item: T) -> None:
        if item not in self._box:
            raise UnknownItemError(f"{item!r} is not one of the drill's items")

    def box(self, item: T) -> int:
        """The box (1 to 5) that ``item`` is in."""
        self._check(item)
        return self._box[item]

    def boxes(self) -> dict[T, int]:
        """Every item's box."""
        return dict(self._box)

    def weight(self, item: T) -> int:
        """How likely ``item`` is to be asked next, relative to the others: ``2 ** (5 - box)``."""
        return int(2 ** (BOXES - self.box(item)))

    def is_slow(self, response_ms: float | None) -> bool:
        """Whether an answer took longer than ``slow_ms`` (an untimed answer is not slow)."""
        return response_ms is not None and response_ms > self.slow_ms

    def next_item(self) -> T:
        """The next item to ask: a missed item whose wait is over, else one drawn by weight;
        never the previous one twice in a row (unless it is the only item)."""
        due = [i for i, wait in self._retry.items() if wait <= 0 and i != self._last]
        if due:
            choice = due[0]
        else:
            candidates = [i for i in self.items if i != self._last] or list(self.items)
            weights = [self.weight(i) for i in candidates]
            choice = self._rng.choices(candidates, weights=weights)[0]
        self._retry.pop(choice, None)
        for item in self._retry:
            self._retry[item] -= 1
        self._last = choice
        return choice

    def record(self, item: T, *, correct: bool, response_ms: float | None = None) -> None:
        """Move ``item`` between boxes after an answer."""
        self._check(item)
        if response_ms is not None and (not math.isfinite(response_ms) or response_ms < 0):
            raise DrillError(f"response_ms={response_ms!r} must be a time in ms ≥ 0")
        if not correct:
            self._box[item] = 1
            self._retry[item] = self.retry_after
        elif not self.is_slow(response_ms):
            self._box[item] = min(BOXES, self._box[item] + 1)

    def __repr__(self) -> str:
        return f"LeitnerSchedule({list(self.items)!r}, boxes={list(self._box.values())!r})"


@dataclass(frozen=True)
class DrillResult(Generic[T]):
    """One answered question."""

    number: int
    item: T
    answer: str
    correct: bool
    response_ms: float | None


@dataclass(frozen=True)
class ItemSummary(Generic[T]):
    """How one item went in a session."""

    item: T
    asked: int
    right: int
    median_ms: float | None

    @property
    def accuracy(self) -> float:
        """The share of right answers, 0.0 to 1.0."""
        return self.right / self.asked if self.asked else 0.0


@dataclass(frozen=True)
class DrillSummary(Generic[T]):
    """The end of a session: totals, and the items in the order they need practice."""

    asked: int
    right: int
    median_ms: float | None
    items: tuple[ItemSummary[T], ...]
    to_practise: tuple[T, ...]

    @property
    def accuracy(self) -> float:
        """The share of right answers, 0.0 to 1.0."""
        return self.right / self.asked if self.asked else 0.0


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


class DrillSession(Generic[T]):
    """A run of questions: ``questions`` of them, or as many as fit in ``seconds``, or both
    (whichever ends first). Elapsed time is passed in by the caller, never read here."""

    def __init__(
        self,
        items: Sequence[T],
        rng: random.Random,
        *,
        questions: int | None = 20,
        seconds: float | None = None,
        slow_ms: float = DEFAULT_SLOW_MS,
    ) -> None:
        if questions is None and seconds is None:
            raise DrillError("give a number of questions, a time in seconds, or both")
        if questions is not None and (not isinstance(questions, int) or questions < 1):
            raise DrillError(f"questions={questions!r} must be a whole number ≥ 1")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise DrillError(f"seconds={seconds!r} must be a positive number")
        self.schedule: LeitnerSchedule[T] = LeitnerSchedule(items, rng, slow_ms=slow_ms)
        self.questions = questions
        self.seconds = None if seconds is None else float(seconds)
        self.results: list[DrillResult[T]] = []
        self.current: T | None = None
        self._time_up = False

    @property
    def items(self) -> tuple[T, ...]:
        """The items the session asks about."""
        return self.schedule.items

    def is_over(self, elapsed_s: float | None = None) -> bool:
        """Whether the session has ended: enough answers, or time up (``elapsed_s`` seconds
        since it began, as measured by the caller)."""
        if self.questions is not None and len(self.results) >= self.questions:
            return True
        if self._time_up:
            return True
        return self.seconds is not None and elapsed_s is not None and elapsed_s >= self.seconds

    def end(self) -> None:
        """End the session now (the time is up); the question being asked is dropped."""
        self._time_up = True
        self.current = None

    def ask(self, elapsed_s: float | None = None) -> T:
        """The next question (the same one again until it is answered)."""
        if self.is_over(elapsed_s):
            raise SessionOverError("the session is over: no more questions")
        if self.current is None:
            self.current = self.schedule.next_item()
        return self.current

    def answer(
        self,
        item: T,
        answer: str,
        *,
        correct: bool,
        response_ms: float | None,
        elapsed_s: float | None = None,
    ) -> DrillResult[T]:
        """Record the answer to the question being asked (``item``).

        An answer given just as the time ran out still counts: it was to a question asked in
        time. The caller judges ``correct``; the schedule moves the item between boxes.
        """
        if self.current is None:
            if self.is_over(elapsed_s):
                raise SessionOverError("the session is over: no question is being asked")
            raise WrongQuestionError(f"{item!r} was answered, but no question is being asked")
        if item != self.current:
            raise WrongQuestionError(f"{item!r} was answered, but {self.current!r} was asked")
        self.schedule.record(item, correct=correct, response_ms=response_ms)
        result = DrillResult(len(self.results) + 1, item, answer, bool(correct), response_ms)
        self.results.append(result)
        self.current = None
        return result

    def counts(self) -> dict[T, int]:
        """How many times each item has been asked (and answered) so far."""
        counts = {item: 0 for item in self.items}
        for result in self.results:
            counts[result.item] += 1
        return counts

    def summary(self) -> DrillSummary[T]:
        """Totals, and per item asked: answers, right ones and median time; ``to_practise``
        lists the items with a wrong or slow answer, the weakest first."""
        per_item: dict[T, list[DrillResult[T]]] = {}
        for result in self.results:
            per_item.setdefault(result.item, []).append(result)
        order = {item: index for index, item in enumerate(self.items)}
        rows = tuple(
            ItemSummary(
                item,
                len(results),
                sum(1 for r in results if r.correct),
                _median([r.response_ms for r in results if r.response_ms is not None]),
            )
            for item, results in sorted(per_item.items(), key=lambda kv: order[kv[0]])
        )
        weak = [
            row
            for row in rows
            if row.right < row.asked or self.schedule.is_slow(row.median_ms)
        ]
        weak.sort(key=lambda row: (row.accuracy, -(row.median_ms or 0.0)))
        return DrillSummary(
            len(self.results),
            sum(1 for r in self.results if r.correct),
            _median([r.response_ms for r in self.results if r.response_ms is not None]),
            rows,
            tuple(row.item for row in weak),
        )
