"""Which question comes next: the spaced schedule behind the note drill and the chord quiz.

There is one model of the student: the **FSRS memory state** of each item (a note, a chord),
kept in the student's progress file across days (see :mod:`musicgames.memory`). A session
starts from it and updates it answer by answer:

* first the items **due for review**, the most overdue first (lowest chance of recall);
* then **new** items, never answered, in random order;
* then the others, drawn at random with weight ``1 / (1 + rank)`` by how soon they are due
  (the day, then the lowest chance of recall), so items answered wrong (due the next day,
  the weakest memories) or slowly (*Hard*) come back soonest;
* a **wrong** answer is FSRS's *Again*: the item's memory is weaker, and it is due again
  the next day. Within the session it is practised at once: asked again after at most
  ``retry_after`` other questions (2 by default), an answer FSRS counts as a review on the
  same day;
* the same item is not asked twice in a row (unless it is the only one).

>>> import random
>>> from datetime import datetime, timedelta
>>> clock = [datetime(2026, 3, 2, 12, 0).astimezone()]      # noon, where the student is
>>> schedule = SpacedSchedule(["Do", "Re", "Mi"], random.Random(1), clock=lambda: clock[0])
>>> schedule.record("Do", correct=True, response_ms=900)    # right: Good
>>> schedule.record("Re", correct=True, response_ms=5000)   # right but slow: Hard
>>> schedule.record("Mi", correct=False, response_ms=700)   # wrong: Again
>>> schedule.due()                                          # nothing more today
[]
>>> clock[0] += timedelta(hours=20)                         # tomorrow morning
>>> schedule.due()                                          # the missed note first
['Mi', 'Re']


A :class:`DrillSession` asks questions from a schedule until a number of questions is
answered or a time is up, keeps every result, and sums them up at the end, with the next
review day of what was asked. Elapsed time is passed in by the caller.

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
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, Generic, TypeVar

from musicgames.memory import Memory, next_review, review_day

__all__ = [
    "DEFAULT_SLOW_MS",
    "DrillError",
    "DrillResult",
    "DrillSession",
    "DrillSummary",
    "ItemSummary",
    "SessionOverError",
    "SpacedSchedule",
    "UnknownItemError",
    "WrongQuestionError",
]

#: A right answer slower than this (in milliseconds) rates *Hard* rather than *Good*.
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


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class SpacedSchedule(Generic[T]):
    """The order of questions over ``items``, from their FSRS memory states (see the
    module's description). ``memory`` holds the states read from the progress file (by
    ``key(item)``, the name the file uses); without one, every item starts new. ``clock``
    gives the present time (UTC)."""

    def __init__(
        self,
        items: Sequence[T],
        rng: random.Random,
        *,
        slow_ms: float = DEFAULT_SLOW_MS,
        retry_after: int = 2,
        memory: Memory | None = None,
        key: Callable[[T], str] = str,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        unique = list(dict.fromkeys(items))
        if not unique:
            raise DrillError("a drill needs at least one item to ask")
        if not (
            isinstance(slow_ms, (int, float))
            and not isinstance(slow_ms, bool)
            and math.isfinite(slow_ms)
            and slow_ms > 0
        ):
            raise DrillError(f"slow_ms={slow_ms!r} must be a positive number of milliseconds")
        if not isinstance(retry_after, int) or retry_after < 0:
            raise DrillError(f"retry_after={retry_after!r} must be a whole number ≥ 0")
        self.items: tuple[T, ...] = tuple(unique)
        self.slow_ms = float(slow_ms)
        self.retry_after = retry_after
        self.memory = Memory(memory.cards if memory is not None else {}, slow_ms=self.slow_ms)
        self._key = key
        self._keys: dict[T, str] = {item: key(item) for item in self.items}
        self._clock = clock
        self._rng = rng
        self._last: T | None = None
        self._retry: dict[T, int] = {}  # missed items -> questions to wait before asking again

    def _check(self, item: T) -> None:
        if item not in self._keys:
            raise UnknownItemError(f"{item!r} is not one of the drill's items")

    def key(self, item: T) -> str:
        """The name the progress file uses for ``item``."""
        self._check(item)
        return self._keys[item]

    def now(self) -> datetime:
        """The present time, by the schedule's clock."""
        return self._clock()

    def due(self) -> list[T]:
        """The items due now, most overdue first."""
        by_key = {k: item for item, k in self._keys.items()}
        return [by_key[k] for k in self.memory.due(self.now(), by_key)]

    def new_items(self) -> list[T]:
        """The items never answered, in the drill's order."""
        return [i for i in self.items if not self.memory.seen(self._keys[i])]

    def is_slow(self, response_ms: float | None) -> bool:
        """Whether an answer took longer than ``slow_ms`` (an untimed answer is not slow)."""
        return response_ms is not None and response_ms > self.slow_ms

    def state(self) -> dict[str, Any]:
        """Everything that decides the next question (to compare before and after)."""
        cards = {k: c.to_dict() for k, c in self.memory.cards.items()}
        return {"cards": cards, "retry": dict(self._retry), "last": self._last}

    def next_item(self) -> T:
        """The next item to ask (see the module's description)."""
        retry = [i for i, wait in self._retry.items() if wait <= 0 and i != self._last]
        if retry:
            choice = retry[0]
        else:
            candidates = [i for i in self.items if i != self._last] or list(self.items)
            due = [i for i in self.due() if i in candidates]
            new = [i for i in candidates if not self.memory.seen(self._keys[i])]
            if due:
                choice = due[0]
            elif new:
                choice = self._rng.choice(new)
            else:
                now = self.now()  # one clock reading ranks them all
                ranked = sorted(candidates, key=lambda item: self._soonest(item, now))
                weights = [1 / (1 + rank) for rank in range(len(ranked))]
                choice = self._rng.choices(ranked, weights=weights)[0]
        self._retry.pop(choice, None)
        for item in self._retry:
            self._retry[item] -= 1
        self._last = choice
        return choice

    def _soonest(self, item: T, now: datetime) -> tuple[date, float, str]:
        """How soon ``item`` needs asking at ``now``: the day it is due, then the lowest
        chance of recall (so a missed item comes before one answered slowly that day)."""
        key = self._keys[item]
        return (review_day(self.memory.cards[key].due), self.memory.recall(key, now), key)

    def record(self, item: T, *, correct: bool, response_ms: float | None = None) -> None:
        """Update ``item``'s memory state after an answer, at the clock's present time."""
        self._check(item)
        if response_ms is not None and (
            isinstance(response_ms, bool)
            or not isinstance(response_ms, (int, float))
            or not math.isfinite(response_ms)
            or response_ms < 0
        ):
            raise DrillError(f"response_ms={response_ms!r} must be a time in ms ≥ 0")
        self.memory.review(
            self._keys[item], correct=bool(correct), response_ms=response_ms, when=self.now()
        )
        if not correct:
            self._retry[item] = self.retry_after

    def __repr__(self) -> str:
        return f"SpacedSchedule({list(self.items)!r}, answered={len(self.memory.cards)})"


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
    #: The next day some of the items asked are due (1 tomorrow, 2 the day after, …), that
    #: day, and those items in the order they will be asked (the weakest first); ``None``
    #: when nothing was answered.
    next_review_days: int | None = None
    next_review: tuple[T, ...] = ()
    next_review_day: date | None = None

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
        memory: Memory | None = None,
        key: Callable[[T], str] = str,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        if questions is None and seconds is None:
            raise DrillError("give a number of questions, a time in seconds, or both")
        if questions is not None and (not isinstance(questions, int) or questions < 1):
            raise DrillError(f"questions={questions!r} must be a whole number ≥ 1")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise DrillError(f"seconds={seconds!r} must be a positive number")
        self.schedule: SpacedSchedule[T] = SpacedSchedule(
            items, rng, slow_ms=slow_ms, memory=memory, key=key, clock=clock
        )
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
        time. The caller judges ``correct``; the schedule updates the item's memory state.
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
        schedule = self.schedule
        by_key = {schedule.key(item): item for item in per_item}
        upcoming = next_review(schedule.memory, by_key, schedule.now())
        return DrillSummary(
            len(self.results),
            sum(1 for r in self.results if r.correct),
            _median([r.response_ms for r in self.results if r.response_ms is not None]),
            rows,
            tuple(row.item for row in weak),
            None if upcoming is None else upcoming.days,
            () if upcoming is None else tuple(by_key[k] for k in upcoming.items),
            None if upcoming is None else upcoming.day,
        )
