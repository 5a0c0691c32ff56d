"""What a student remembers: one FSRS memory state per item, across days.

Each item a student answers (a note in the drill, a triad in the quiz, a note in Note Snap, a
placement in Keyboard Duel) has a memory state kept by FSRS, the scheduler modern flash-card
apps use (the ``fsrs`` package): how stable the memory is, how difficult the item is, and
when it is next due for review. Every judged answer updates it:

* a **wrong** answer rates *Again*: the memory's stability drops, and the item is due again
  the next day (within a session the drill and the quiz ask it again after a few questions);
* a **right but slow** answer (slower than the activity's ``slow_ms``) rates *Hard*;
* a **right** answer rates *Good* (the item comes back after longer and longer intervals).

Reviews are counted in days, as a student practises: the scheduler has no learning steps
of minutes (a session's own repeats are that practice, and FSRS counts answers on the same
day as short-term reviews), and an item due on a day is due from the start of that day, in
the student's time zone (this computer's). Of the items due, the one least likely to be
recalled comes first: the chance of recall is FSRS's forgetting curve at the time elapsed
since the last answer (to the second), so the note missed twice comes before the note
missed once, and both before a note answered right.

The progress file keeps these states (:meth:`musicgames.progress.ProgressStore.due` reads
them); the drill and quiz start from them and update them answer by answer, so there is one
model of the student, within a session and across days.

>>> from datetime import datetime, timedelta, timezone
>>> day = datetime(2026, 3, 2, 12, 0).astimezone()   # noon, where the student is
>>> memory = Memory()
>>> memory.review("Sol3", correct=False, response_ms=900, when=day).state.name
'Review'
>>> _ = memory.review("La3", correct=True, response_ms=900, when=day)
>>> memory.due(day + timedelta(days=1, hours=-3))   # tomorrow morning
['Sol3']
>>> next_review(memory, ["Sol3", "La3"], day)
NextReview(days=1, items=('Sol3',), day=datetime.date(2026, 3, 3))
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timezone
from functools import cache

from fsrs import Card, Rating, Scheduler, State

__all__ = [
    "SLOW_MS",
    "Memory",
    "MemoryError_",
    "NextReview",
    "card_from_json",
    "card_to_json",
    "next_review",
    "rating",
    "review",
    "review_day",
    "scheduler",
]

#: A right answer slower than this (ms) rates *Hard*, per activity.
SLOW_MS: dict[str, float] = {
    "drill": 3000.0,
    "quiz": 8000.0,
    "note_snap": 2000.0,
    "keyboard_duel": 15000.0,
    "lesson": 15000.0,
}
_DEFAULT_SLOW_MS = 5000.0


class MemoryError_(ValueError):  # noqa: N801 - MemoryError is Python's own
    """A memory state that cannot be read (a damaged row)."""


@cache
def scheduler() -> Scheduler:
    """The one FSRS scheduler: default parameters, 90 % desired retention, no random fuzz
    (the same answers give the same schedule), and no learning steps of minutes: every
    answer schedules the item a whole number of days ahead (see the module's description).
    States kept by earlier versions, in a learning step, move on to days at their next
    answer."""
    return Scheduler(
        desired_retention=0.9,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )


def review_day(when: datetime) -> date:
    """The day ``when`` falls on where the student is (this computer's time zone): what
    "today" and "tomorrow" mean for reviews."""
    return when.astimezone().date()


def _chance_of_recall(card: Card, now: datetime) -> float:
    """FSRS's forgetting curve at the time elapsed since the card's last answer, counted to
    the second (the ``fsrs`` package counts whole days, which makes every item answered
    less than a day ago look equally well remembered). Its decay and factor are the
    scheduler's own (parameter 20); at whole days it gives ``get_card_retrievability``'s
    number, which the tests check."""
    if card.last_review is None or card.stability is None:
        return 1.0
    parameters = scheduler().parameters
    decay = -parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    elapsed = max(0.0, (now - card.last_review).total_seconds() / 86400)
    return float((1 + factor * elapsed / card.stability) ** decay)


def rating(correct: bool, response_ms: float | None, slow_ms: float) -> Rating:
    """The FSRS rating of an answer: wrong → Again, right but slow → Hard, right → Good.

    >>> rating(False, 500, 3000).name, rating(True, 4000, 3000).name, rating(True, None, 3000).name
    ('Again', 'Hard', 'Good')
    """
    if not correct:
        return Rating.Again
    if response_ms is not None and math.isfinite(response_ms) and response_ms > slow_ms:
        return Rating.Hard
    return Rating.Good


def slow_ms_for(activity: str) -> float:
    """The activity's ``slow_ms``."""
    return SLOW_MS.get(activity, _DEFAULT_SLOW_MS)


def new_card(when: datetime) -> Card:
    """A card never reviewed, due at ``when``."""
    return Card(card_id=1, due=when)


def review(
    card: Card | None, correct: bool, response_ms: float | None, when: datetime, slow_ms: float
) -> Card:
    """The card after one answer at ``when`` (a new card if ``card`` is ``None``). An answer
    time before the card's last review counts as at its last review."""
    when = when.astimezone(timezone.utc)
    current = card if card is not None else new_card(when)
    if current.last_review is not None and when < current.last_review:
        when = current.last_review
    updated, _log = scheduler().review_card(
        current, rating(correct, response_ms, slow_ms), review_datetime=when
    )
    return updated


def card_to_json(card: Card) -> str:
    """A card as the progress file keeps it (JSON text)."""
    return json.dumps(card.to_dict(), sort_keys=True)


def card_from_json(text: str) -> Card:
    """A card read back; a damaged one raises :class:`MemoryError_`."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("not an object")
        card = Card.from_dict(data)  # type: ignore[arg-type]
        if card.due.tzinfo is None:
            raise ValueError("due has no time zone")
    except (ValueError, TypeError, KeyError, RecursionError) as err:
        raise MemoryError_(f"a memory state is damaged ({err})") from None
    return card


class Memory:
    """Memory states of one student's items in one activity, by item name.

    ``cards`` maps item names to FSRS cards (as :meth:`ProgressStore.memory` reads them).
    """

    def __init__(self, cards: Mapping[str, Card] | None = None, *, slow_ms: float = 3000.0):
        self.cards: dict[str, Card] = dict(cards or {})
        self.slow_ms = slow_ms

    def review(
        self, item: str, *, correct: bool, response_ms: float | None, when: datetime
    ) -> Card:
        """Update ``item`` after an answer at ``when``; return its new state."""
        card = review(self.cards.get(item), correct, response_ms, when, self.slow_ms)
        self.cards[item] = card
        return card

    def seen(self, item: str) -> bool:
        """Whether ``item`` has been answered before."""
        return item in self.cards

    def next_due(self, item: str) -> datetime | None:
        """When ``item`` is next due, or ``None`` if it was never answered."""
        card = self.cards.get(item)
        return None if card is None else card.due

    def recall(self, item: str, now: datetime) -> float:
        """The chance the student recalls ``item`` at ``now`` (0 to 1; 1 if never answered)."""
        card = self.cards.get(item)
        if card is None or card.last_review is None:
            return 1.0
        if card.state in (State.Learning, State.Relearning) and card.due <= now:
            return 0.0  # a step of (re)learning of an earlier version, due: as good as forgotten
        return _chance_of_recall(card, now)

    def is_due(self, item: str, now: datetime) -> bool:
        """Whether ``item`` is due at ``now``: due on ``now``'s day or before (an item due
        today is due from the start of today)."""
        card = self.cards.get(item)
        return card is not None and review_day(card.due) <= review_day(now)

    def due(self, now: datetime, items: Iterable[str] | None = None) -> list[str]:
        """The items due at ``now`` (see :meth:`is_due`), the least likely to be recalled
        first (FSRS's estimate), then the earliest due."""
        names = self.cards if items is None else [i for i in items if i in self.cards]
        ready = [name for name in names if self.is_due(name, now)]
        return sorted(ready, key=lambda n: (self.recall(n, now), self.cards[n].due, n))


@dataclass(frozen=True)
class NextReview:
    """The next day of review: ``days`` from today (1 tomorrow, 2 the day after, …), that
    ``day``, and the items due then, in the order they will be asked."""

    days: int
    items: tuple[str, ...]
    day: date


def next_review(memory: Memory, items: Iterable[str], now: datetime) -> NextReview | None:
    """The first day after ``now`` on which some of ``items`` fall due, and those items in
    the order :meth:`Memory.due` will ask them that day (the least likely to be recalled
    first); ``None`` if none was answered, or all are due already."""
    upcoming = {
        item: card.due
        for item in dict.fromkeys(items)
        if (card := memory.cards.get(item)) is not None and not memory.is_due(item, now)
    }
    if not upcoming:
        return None
    first_day = min(review_day(due) for due in upcoming.values())
    chosen = [item for item, due in upcoming.items() if review_day(due) == first_day]
    when = max(upcoming[item] for item in chosen)  # all of them are due by then
    days = (first_day - review_day(now)).days
    return NextReview(days, tuple(memory.due(when, chosen)), first_day)
