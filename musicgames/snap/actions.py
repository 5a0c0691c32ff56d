"""What players do (actions) and what happens (events) in Note Snap.

There are three actions:

* :class:`Flip` — the seat whose turn it is turns the top card of its pile onto the centre
  and calls a name (S5). A seat in auto-call mode flips with ``call=None`` and the engine
  calls the right name for it; a seat that calls for itself must give the name.
* :class:`Slap` — a seat slaps the card shown, ``reaction_ms`` milliseconds after the card
  was drawn on screen (S7, S13). Time is data: the engine never reads a clock.
* :class:`CloseSlaps` — the slap window is over (S14): the engine decides who takes the pile.
* :class:`Pass` — a seat judges the card shown not worth a slap, ``at_ms`` after it was drawn
  (S14 v2: a person's "no match" key; a computer player whose reaction time came without a
  slap). Once every seat has slapped or passed, the slap phase ends by itself.
* :class:`TimeUp` — a game with a time limit (:attr:`GameLength.TIMED`) has run out of time:
  between two cards, the game ends and the fewest cards in hand win.

>>> Flip(0), Flip(1, "Re"), Slap(2, 431.5), CloseSlaps()
(Flip(seat=0, call=None), Flip(seat=1, call='Re'), Slap(seat=2, reaction_ms=431.5), CloseSlaps())
>>> Pass(1, 980.0), TimeUp()
(Pass(seat=1, at_ms=980.0), TimeUp())
>>> action_to_json(Slap(2, 431.5)), action_from_json(["flip", 1, "Re"])
(['slap', 2, 431.5], Flip(seat=1, call='Re'))
>>> action_to_json(Pass(1, 980.0)), action_from_json(["time_up"])
(['pass', 1, 980.0], TimeUp())

Events are the story of a game, in order: :class:`Dealt`, then :class:`Flipped`,
:class:`Slapped` and :class:`Outcome` events. An :class:`Outcome` says what became of the
card shown — who takes the centre pile and why (a :class:`Reason`), or why nobody does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from musicgames.shown import short_repr
from musicgames.snap.cards import DECK
from musicgames.snap.errors import ActionError

__all__ = [
    "Action",
    "CallMode",
    "CloseSlaps",
    "Dealt",
    "Ended",
    "Event",
    "Flip",
    "GameLength",
    "Flipped",
    "Outcome",
    "Pass",
    "Passed",
    "Phase",
    "Reason",
    "TAKEN_UNSLAPPED",
    "Slap",
    "Slapped",
    "TimeUp",
    "action_from_json",
    "action_to_json",
]


class Phase(str, Enum):
    """What the table is waiting for."""

    #: A seat must flip a card (``SnapState.to_flip`` says which).
    FLIP = "flip"
    #: A card is shown: slaps are being collected until :class:`CloseSlaps` (S14).
    SLAPS = "slaps"
    #: The game has ended; ``SnapState.winners`` says who won.
    OVER = "over"


class CallMode(str, Enum):
    """How a seat's calls are made (S10, S15)."""

    #: The engine calls the right name for the seat: it can never make a wrong call.
    AUTO = "auto"
    #: The seat chooses the name itself and takes the pile if it is out of order (S10).
    SELF = "self"


class GameLength(str, Enum):
    """How a game ends (a setting of the table; the source plays :attr:`CLASSIC`)."""

    #: S11: the first to have no cards when someone else takes the centre pile wins.
    CLASSIC = "classic"
    #: The first to empty a hand wins at once (once the card is judged, without waiting
    #: for an empty centre), or the game ends when a seat holds ``SnapConfig.hand_limit``
    #: cards (40) after taking the pile: then the fewest cards win. Games of a lesson.
    SHORT = "short"
    #: S11, or when the table says the time is up (:class:`TimeUp`, after
    #: ``SnapConfig.time_limit_s`` of play): then the fewest cards in hand win.
    TIMED = "timed"


class Reason(str, Enum):
    """Why the centre pile was taken, or why nobody took it, after a card (an :class:`Outcome`)."""

    #: S7/S14: a match, and this seat slapped last (or had not slapped when the window closed).
    LAST_TO_SLAP = "last_to_slap"
    #: S8: the card was not a match and this seat slapped it (the first to slap).
    FALSE_SLAP = "false_slap"
    #: S9: nobody slapped the last match, so the next seat to flip takes the pile.
    MISSED_MATCH = "missed_match"
    #: S10: the flipper called a name out of the cycle's order.
    WRONG_CALL = "wrong_call"
    #: S12/S13: the last two slaps of a match were closer than the tie window: nobody takes
    #: the pile and the round goes on.
    TIE = "tie"
    #: S16: nobody has a card left to flip: the last flipper takes the centre pile back.
    DEAD_PILE = "dead_pile"
    #: Not a match and nobody slapped: play goes on (no one takes the pile).
    NO_SLAP = "no_slap"
    #: A match nobody slapped: no one takes the pile now; the next flip takes it (S9).
    MATCH_NOT_SLAPPED = "match_not_slapped"

#: Outcomes of a card taken at once, before anyone could slap it: a wrong call (S10) and a
#: flip onto a match nobody slapped (S9). No slap window opened for such a card.
TAKEN_UNSLAPPED: frozenset[Reason] = frozenset({Reason.WRONG_CALL, Reason.MISSED_MATCH})


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn the top card of ``seat``'s pile onto the centre and call ``call`` (S5).

    ``call`` is ``None`` for a seat in auto-call mode, else a name such as ``'Sol'``.
    """

    seat: int
    call: str | None = None


@dataclass(frozen=True, slots=True)
class Slap:
    """``seat`` slaps the card shown, ``reaction_ms`` after it was drawn on screen (S13)."""

    seat: int
    reaction_ms: float


@dataclass(frozen=True, slots=True)
class CloseSlaps:
    """The slap window is over (S14): decide who takes the pile, if anyone."""


@dataclass(frozen=True, slots=True)
class Pass:
    """``seat`` does not slap the card shown: it decided so ``at_ms`` after the card was
    drawn (S14 v2). A pass is final for that card; on a match it counts as not slapping."""

    seat: int
    at_ms: float


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A timed game's time is over: between two cards, the game ends (the fewest cards in
    hand win; see :attr:`GameLength.TIMED`)."""


#: Any of the five actions.
Action = Flip | Slap | CloseSlaps | Pass | TimeUp


def action_to_json(action: Action) -> list[Any]:
    """An action as a short JSON list: ``['flip', seat, call]``, ``['slap', seat, ms]`` or
    ``['close']``."""
    kind = type(action)  # exact types only: a subclass of Slap is not a slap
    if kind is Slap:
        return ["slap", action.seat, action.reaction_ms]  # type: ignore[union-attr]
    if kind is Flip:
        return ["flip", action.seat, action.call]  # type: ignore[union-attr]
    if kind is CloseSlaps:
        return ["close"]
    if kind is Pass:
        return ["pass", action.seat, action.at_ms]  # type: ignore[union-attr]
    if kind is TimeUp:
        return ["time_up"]
    raise ActionError(
        f"{type(action).__name__} is not a Note Snap action: use Flip, Slap, CloseSlaps, Pass "
        "or TimeUp"
    )


def action_from_json(data: object) -> Action:
    """Read an action written by :func:`action_to_json`; only its shape is checked here
    (``SnapState.apply`` checks it against the rules).

    >>> action_from_json(["close"])
    CloseSlaps()
    >>> action_from_json(["jump", 1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.snap.errors.ActionError: ['jump', 1] is not a saved action: use ['flip', ...]
    """
    if isinstance(data, list) and data:
        kind = data[0]
        if kind == "flip" and len(data) == 3:
            return Flip(data[1], data[2])
        if kind == "slap" and len(data) == 3:
            return Slap(data[1], data[2])
        if kind == "close" and len(data) == 1:
            return CloseSlaps()
        if kind == "pass" and len(data) == 3:
            return Pass(data[1], data[2])
        if kind == "time_up" and len(data) == 1:
            return TimeUp()
    raise ActionError(
        f"{short_repr(data)} is not a saved action: use ['flip', seat, call], ['slap', seat, ms], "
        "['close'], ['pass', seat, ms] or ['time_up']"
    )


# -- events -------------------------------------------------------------------------------
# Events are named tuples: immutable, cheap to make (a game makes thousands a second in
# simulations) and readable as plain records.


class Dealt(NamedTuple):
    """The deal (S4): each seat's face-down pile, listed bottom to top, and who opens (S5)."""

    hands: tuple[tuple[int, ...], ...]
    opener: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {"type": "dealt", "hands": [list(h) for h in self.hands], "opener": self.opener}


class Flipped(NamedTuple):
    """``seat`` turned ``card`` onto the centre and called ``call``; ``expected`` was the
    right name in the cycle. ``number`` counts the flips of the game from 1."""

    seat: int
    card: int
    call: str
    expected: str
    auto: bool
    number: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data (with the card's note in solfège)."""
        return {
            "type": "flipped",
            "seat": self.seat,
            "card": self.card,
            "note": DECK[self.card].solfege,
            "call": self.call,
            "expected": self.expected,
            "auto": self.auto,
            "number": self.number,
        }


class Slapped(NamedTuple):
    """``seat`` slapped the card shown ``reaction_ms`` after it appeared."""

    seat: int
    reaction_ms: float

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {"type": "slapped", "seat": self.seat, "reaction_ms": self.reaction_ms}


class Passed(NamedTuple):
    """``seat`` passed on the card shown, ``at_ms`` after it appeared (S14 v2)."""

    seat: int
    at_ms: float

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {"type": "passed", "seat": self.seat, "at_ms": self.at_ms}


class Ended(NamedTuple):
    """A game ended by its length setting, not by S11: ``reason`` is ``'hand_emptied'``,
    ``'hand_limit'``, ``'time_up'`` or ``'card_limit'``; ``winners`` hold the fewest cards."""

    reason: str
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {"type": "ended", "reason": self.reason, "winners": list(self.winners)}


class Outcome(NamedTuple):
    """What became of the card shown.

    ``card`` was flipped by ``flipper`` with the call ``call``; ``match`` says whether its
    name was the name called (S6). ``slaps`` lists the slaps on it, fastest first (equal
    times in seat order from the flipper); ``not_slapped`` lists, on a match, the seats that
    had not slapped when the window closed, in seat order from the flipper (S14).
    ``taker`` took ``cards_taken`` cards for ``reason``, or is ``None`` when nobody took the
    pile. ``winners`` is not empty when this outcome ended the game (S11).
    """

    card: int
    flipper: int
    call: str
    match: bool
    slaps: tuple[Slap, ...]
    not_slapped: tuple[int, ...]
    reason: Reason
    taker: int | None
    cards_taken: int
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON data (with the card's note in solfège)."""
        return {
            "type": "outcome",
            "card": self.card,
            "note": DECK[self.card].solfege,
            "flipper": self.flipper,
            "call": self.call,
            "match": self.match,
            "slaps": [[s.seat, s.reaction_ms] for s in self.slaps],
            "not_slapped": list(self.not_slapped),
            "reason": self.reason.value,
            "taker": self.taker,
            "cards_taken": self.cards_taken,
            "winners": list(self.winners),
        }


#: Any event of the game's story.
Event = Dealt | Flipped | Slapped | Passed | Outcome | Ended
