"""The Note Snap game state: deal, flips, slaps and who takes the pile (S3–S16).

A game is a :class:`SnapState`. Make one with :func:`new_game` (a seeded shuffle) or
:meth:`SnapState.from_deal` (piles you choose), then :meth:`~SnapState.apply` actions.
Each pile is listed bottom to top, so its last card is the next one flipped.

>>> hands = [list(range(28, 56)) + [0], list(range(1, 28))]   # seat 0's top card: 0, a Do3
>>> state = SnapState.from_deal(hands, SnapConfig(players=2))
>>> state.to_flip, state.next_call
(0, 'Do')
>>> [e.card for e in state.apply(Flip(0))]  # seat 0 flips card 0, a Do3, calling Do
[0]
>>> state.phase, state.top_card, state.shown_call
(<Phase.SLAPS: 'slaps'>, 0, 'Do')

A match (S6): both seats slap; seat 1 is last, so it takes the centre pile (S7). The
second slap closes the slap phase, since every seat has slapped (S14):

>>> state.apply(Slap(0, 420.0))
(Slapped(seat=0, reaction_ms=420.0),)
>>> outcome = state.apply(Slap(1, 655.5))[-1]
>>> outcome.reason, outcome.taker, outcome.cards_taken
(<Reason.LAST_TO_SLAP: 'last_to_slap'>, 1, 1)
>>> state.hand_sizes, state.to_flip, state.next_call   # seat 1 starts a new round with Do
((28, 28), 1, 'Do')

Illegal actions raise a typed error that names the input and the reason, and change nothing:

>>> state.apply(Flip(0))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.snap.errors.NotYourTurnError: Flip(seat=0, call=None): it is seat 1's turn to flip, ...
>>> Flip(1) in state.legal_actions()
True
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from musicgames.shown import short_repr
from musicgames.snap.actions import (
    Action,
    CallMode,
    CloseSlaps,
    Dealt,
    Ended,
    Event,
    Flip,
    Flipped,
    GameLength,
    Outcome,
    Pass,
    Passed,
    Phase,
    Reason,
    Slap,
    Slapped,
    TimeUp,
    action_from_json,
    action_to_json,
)
from musicgames.snap.cards import CALL_CYCLE, DECK, DECK_SIZE, call_index, is_match
from musicgames.snap.config import SnapConfig
from musicgames.snap.errors import (
    ActionError,
    CallError,
    CallModeError,
    ConfigError,
    DoubleSlapError,
    GameOverError,
    LateSlapError,
    NotYourTurnError,
    PhaseError,
    ReactionTimeError,
    SaveError,
    SeatError,
    SnapError,
)
from musicgames.theory import Note

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "LegalActions",
    "SeatView",
    "SnapState",
    "new_game",
    "stacked_deal",
]

#: The ``format`` value of a saved game.
SAVE_FORMAT = "musicgames.snap"
#: The ``version`` of the saved-game layout written by :meth:`SnapState.to_json`.
SAVE_VERSION = 1

_CYCLE_LENGTH = len(CALL_CYCLE)
_AUTO = CallMode.AUTO
_FLIP = Phase.FLIP
_SLAPS = Phase.SLAPS
_OVER = Phase.OVER
# Views and events are named tuples. Their generated ``__new__`` is a Python function; on
# the hot path (a simulated game makes hundreds of each) they are built directly with
# ``tuple.__new__(Class, (field, ...))``, which makes the very same object. Every field
# must then be given, in order.
_record = tuple.__new__
_NAME_INDEX = {name: i for i, name in enumerate(CALL_CYCLE)}
_LAST_TO_SLAP, _FALSE_SLAP, _MISSED_MATCH, _WRONG_CALL = (
    Reason.LAST_TO_SLAP, Reason.FALSE_SLAP, Reason.MISSED_MATCH, Reason.WRONG_CALL
)
_TIE, _DEAD_PILE, _NO_SLAP, _MATCH_NOT_SLAPPED = (
    Reason.TIE, Reason.DEAD_PILE, Reason.NO_SLAP, Reason.MATCH_NOT_SLAPPED
)
#: Why a game ended (:attr:`SnapState.ended_by`).
EMPTY_HAND, HAND_EMPTIED, HAND_LIMIT, TIME_UP, CARD_LIMIT = (
    "empty_hand", "hand_emptied", "hand_limit", "time_up", "card_limit"
)
_SHORT = GameLength.SHORT


def _slap_order_key(flipper: int, players: int) -> Any:
    """Sort slaps by time; equal times in seat order starting from the flipper."""
    return lambda s: (s.reaction_ms, (s.seat - flipper) % players)


class SeatView(NamedTuple):
    """What one seat can see of the table: everything face up and every count, never the
    order of a face-down pile. Computer players decide from this alone (S17).

    ``top_card`` is the card shown on the centre (``None`` when it is empty) and
    ``shown_call`` the name called for it while slaps are collected; ``next_call`` is the
    name the next flip must call; ``slapped`` lists the seats that have slapped the card
    shown.
    """

    seat: int
    call_mode: CallMode
    players: int
    phase: Phase
    to_flip: int | None
    next_call: str
    top_card: int | None
    shown_call: str | None
    flipper: int | None
    hand_sizes: tuple[int, ...]
    centre_size: int
    slapped: tuple[int, ...]
    slap_window_ms: float

    @property
    def top_note(self) -> Note | None:
        """The note on the card shown, if any."""
        return None if self.top_card is None else DECK[self.top_card]

    @property
    def is_match(self) -> bool:
        """True when the card shown is a match for the name called on it (S6)."""
        return (
            self.top_card is not None
            and self.shown_call is not None
            and is_match(self.top_card, self.shown_call)
        )


class LegalActions:
    """The actions allowed in one position; test one with ``in``.

    Iterating gives the flips, :class:`CloseSlaps` and :class:`TimeUp` that are allowed.
    Slaps and passes are not listed one by one, as their time is a number: every seat in
    ``slappers`` may slap (or pass) at any time from 0 to ``slap_window_ms``.

    >>> legal = new_game(random.Random(1), SnapConfig(players=2)).legal_actions()
    >>> list(legal), Flip(1) in legal, Slap(0, 300.0) in legal
    ([Flip(seat=0, call=None)], False, False)
    """

    __slots__ = ("can_close", "can_time_up", "flips", "slap_window_ms", "slappers")

    def __init__(
        self,
        flips: tuple[Flip, ...],
        slappers: tuple[int, ...],
        can_close: bool,
        slap_window_ms: float,
        can_time_up: bool = False,
    ) -> None:
        self.flips = flips
        self.slappers = slappers
        self.can_close = can_close
        self.slap_window_ms = slap_window_ms
        self.can_time_up = can_time_up

    def __contains__(self, action: object) -> bool:
        kind = type(action)  # exact types only, as SnapState.apply
        if kind is Flip:
            assert isinstance(action, Flip)
            call = action.call
            if isinstance(call, str):
                try:
                    call = CALL_CYCLE[call_index(call)]
                except CallError:
                    return False
            return Flip(action.seat, call) in self.flips
        if kind is Slap or kind is Pass:
            assert isinstance(action, (Slap, Pass))
            ms = action.reaction_ms if isinstance(action, Slap) else action.at_ms
            return (
                action.seat in self.slappers
                and isinstance(ms, (int, float))
                and not isinstance(ms, bool)
                and 0 <= ms <= self.slap_window_ms
            )
        if kind is TimeUp:
            return self.can_time_up
        return kind is CloseSlaps and self.can_close

    def __iter__(self) -> Iterator[Action]:
        yield from self.flips
        if self.can_close:
            yield CloseSlaps()
        if self.can_time_up:
            yield TimeUp()

    def __bool__(self) -> bool:
        return bool(self.flips or self.slappers or self.can_close)

    def sample(self, rng: random.Random) -> Action:
        """One allowed action drawn at random (a slap at a uniform time in the window).

        >>> legal = new_game(random.Random(1), SnapConfig(players=2)).legal_actions()
        >>> legal.sample(random.Random(0))
        Flip(seat=0, call=None)
        """
        choices: list[Action | int] = [*self.flips, *self.slappers]
        if self.can_close:
            choices.append(CloseSlaps())
        if not choices:
            raise GameOverError("no action is allowed: the game is over")
        picked = rng.choice(choices)
        if isinstance(picked, int):
            return Slap(picked, rng.uniform(0.0, self.slap_window_ms))
        return picked

    def __repr__(self) -> str:
        return (
            f"<LegalActions flips={list(self.flips)!r} slappers={list(self.slappers)!r} "
            f"can_close={self.can_close}>"
        )


class SnapState:
    """One game of Note Snap between 2–4 seats, from the deal to the first win.

    The rules it follows, with the choices the rules page leaves open:

    * Turns pass to the next seat number (seat 1 after seat 0: "to the right", S5); seats
      with no cards are skipped (S11). Whoever takes the centre pile flips next and calls
      Do (S7–S10). After a tie or a card nobody slapped the round goes on (S12).
    * A wrong call (S10) and a flip onto an unslapped match (S9) give the pile to the
      flipper at once: that card opens no slap phase. When both happen on one flip the
      reason given is :attr:`Reason.MISSED_MATCH`.
    * All slaps on a card are judged together when the slap phase ends, either by
      :class:`CloseSlaps` (the window is over, S14) or when every seat has slapped. A card
      either matches the call or does not, so the slaps on it are all right or all false.
    * Match (S7, S14): a seat that has not slapped counts as last, the first of them in
      seat order from the flipper (the flipper first). When all have slapped the slowest
      takes the pile, unless the two slowest are closer than the tie window or exactly
      equal: a tie, nobody takes it (S12, S13). Nobody slapped: S9.
    * Not a match (S8): if several seats slapped, the *first* false slapper takes the pile
      (equal times: the first in seat order from the flipper).
    * The taker turns the centre pile face down and puts it under their own pile, so the
      first card flipped onto the centre comes up first of those cards.
    * Win (S11): each time someone takes the centre pile, every seat then holding no cards
      wins and the game ends. Dead pile (S16): when no seat has a card left to flip, the
      last flipper takes the centre pile back (and the others, all without cards, win).
    * Pass (S14 v2): a seat may pass on the card shown (:class:`Pass`); once every seat
      has slapped or passed, the slap phase ends by itself, judged as :class:`CloseSlaps`
      would judge it (a pass on a match counts as not slapping).
    * Game length (:class:`GameLength`): a *short* game also ends as soon as a card is
      judged and a seat's hand is empty (no need to wait for an empty centre), or when,
      after a take, a seat holds ``hand_limit`` cards or more; a *timed* game also ends
      with :class:`TimeUp` between two cards. With a ``card_limit`` the game also ends once
      that many cards have been flipped and the last one judged. Then the seats with the
      fewest cards in hand win (:attr:`ended_by` says why the game ended).
    """

    __slots__ = (
        "_actions",
        "_call_index",
        "_centre",
        "_config",
        "_deal",
        "_events",
        "_flipper",
        "_flips",
        "_hands",
        "_miss_pending",
        "_ended_by",
        "_n",
        "_opener",
        "_passed",
        "_phase",
        "_shown_call",
        "_slapped",
        "_slaps",
        "_to_flip",
        "_view_cache",
        "_winners",
    )

    _actions: list[Action]
    _call_index: int
    _centre: list[int]
    _config: SnapConfig
    _deal: tuple[tuple[int, ...], ...]
    _events: list[Event]
    _flipper: int
    _flips: int
    _hands: list[list[int]]
    _miss_pending: bool
    _ended_by: str | None
    _n: int
    _opener: int
    _passed: int
    _phase: Phase
    _shown_call: int
    _slapped: int
    _slaps: list[Slap]
    _to_flip: int
    _view_cache: tuple[int, tuple[Any, ...]]
    _winners: tuple[int, ...]

    # -- building -------------------------------------------------------------------------
    def __init__(
        self,
        hands: Sequence[Sequence[int]],
        config: SnapConfig | None = None,
        opener: int = 0,
    ) -> None:
        """``SnapState(hands, config, opener)`` is :meth:`from_deal`; for a shuffled deal
        use :func:`new_game`."""
        checked = SnapState.from_deal(hands, config, opener)
        for name in SnapState.__slots__:
            setattr(self, name, getattr(checked, name))

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[int]],
        config: SnapConfig | None = None,
        opener: int = 0,
    ) -> SnapState:
        """A game that starts from the piles you give (each listed bottom to top).

        Together the piles must hold each of the 56 cards (ids 0–55) exactly once, one
        pile per seat; the opener must have a card. :func:`new_game` deals them evenly
        (S4); this method also lets a lesson or a test set up any position.
        """
        config = SnapConfig() if config is None else config
        if not isinstance(config, SnapConfig):
            raise ConfigError(f"config={short_repr(config)} is not a SnapConfig")
        n = config.players
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
            raise ConfigError(f"hands={short_repr(hands)} is not a list of piles")
        if len(hands) != n:
            raise ConfigError(f"hands has {len(hands)} piles for {n} players: give one per seat")
        piles: list[list[int]] = []
        seen: set[int] = set()
        for seat, pile in enumerate(hands):
            if isinstance(pile, (str, bytes)) or not isinstance(pile, Sequence):
                raise ConfigError(f"hands[{seat}]={short_repr(pile)} is not a list of card ids")
            for card in pile:
                if isinstance(card, bool) or not isinstance(card, int):
                    raise ConfigError(f"hands[{seat}] holds {short_repr(card)}, which is not "
                                      "a card id")
                if not 0 <= card < DECK_SIZE:
                    raise ConfigError(f"hands[{seat}] holds card {short_repr(card)}: card ids "
                                      "go 0–55")
                if card in seen:
                    raise ConfigError(f"hands[{seat}] holds card {card}, which is dealt twice")
                seen.add(card)
            piles.append(list(pile))
        if len(seen) != DECK_SIZE:
            missing = sorted(set(range(DECK_SIZE)) - seen)
            raise ConfigError(f"the deal leaves out cards {missing}: deal all 56 (S4)")
        if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < n:
            raise SeatError(f"opener={short_repr(opener)} is not a seat: this table has seats "
                            f"0–{n - 1}")
        if not piles[opener]:
            raise ConfigError(f"opener={opener} has no cards to flip")
        return cls._start(piles, config, opener)

    @classmethod
    def _start(cls, piles: list[list[int]], config: SnapConfig, opener: int) -> SnapState:
        """A new game from piles already checked (or dealt here)."""
        n = config.players
        state = object.__new__(cls)
        state._config = config
        state._n = n
        state._hands = piles
        state._centre = []
        state._deal = tuple(tuple(p) for p in piles)
        state._opener = opener
        state._phase = _FLIP
        state._to_flip = opener
        state._call_index = 0
        state._miss_pending = False
        state._flipper = -1
        state._shown_call = -1
        state._slaps = []
        state._slapped = 0
        state._passed = 0
        state._ended_by = None
        state._winners = ()
        state._flips = 0
        state._actions = []
        state._events = [Dealt(state._deal, opener)]
        state._view_cache = (-1, ())
        return state

    def clone(self) -> SnapState:
        """An independent copy: playing on one never changes the other."""
        other = object.__new__(SnapState)
        other._config = self._config
        other._n = self._n
        other._hands = [h.copy() for h in self._hands]
        other._centre = self._centre.copy()
        other._deal = self._deal
        other._opener = self._opener
        other._phase = self._phase
        other._to_flip = self._to_flip
        other._call_index = self._call_index
        other._miss_pending = self._miss_pending
        other._flipper = self._flipper
        other._shown_call = self._shown_call
        other._slaps = self._slaps.copy()
        other._slapped = self._slapped
        other._passed = self._passed
        other._ended_by = self._ended_by
        other._winners = self._winners
        other._flips = self._flips
        other._actions = self._actions.copy()
        other._events = self._events.copy()
        other._view_cache = self._view_cache
        return other

    # -- what can be seen -----------------------------------------------------------------
    @property
    def config(self) -> SnapConfig:
        """The settings of this game."""
        return self._config

    @property
    def players(self) -> int:
        """How many seats play (2–4)."""
        return self._n

    @property
    def phase(self) -> Phase:
        """What the table waits for: a flip, slaps, or nothing (the game is over)."""
        return self._phase

    @property
    def to_flip(self) -> int | None:
        """The seat that must flip next, or ``None`` while slaps are collected or at the end."""
        return self._to_flip if self._phase is _FLIP else None

    @property
    def next_call(self) -> str:
        """The name the next flip must call (S5): Do at the start of each round."""
        return CALL_CYCLE[self._call_index]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self._hands)

    @property
    def centre(self) -> tuple[int, ...]:
        """The centre pile, bottom to top (every card in it was shown face up)."""
        return tuple(self._centre)

    @property
    def top_card(self) -> int | None:
        """The card on top of the centre pile, or ``None`` when it is empty."""
        return self._centre[-1] if self._centre else None

    @property
    def shown_call(self) -> str | None:
        """The name called for the card shown while slaps are collected, else ``None``."""
        return CALL_CYCLE[self._shown_call] if self._phase is _SLAPS else None

    @property
    def flipper(self) -> int | None:
        """The seat that flipped last, or ``None`` before the first flip."""
        return self._flipper if self._flipper >= 0 else None

    @property
    def slaps(self) -> tuple[Slap, ...]:
        """The slaps on the card shown so far, in the order they were given."""
        return tuple(self._slaps) if self._phase is _SLAPS else ()

    @property
    def missed_match_pending(self) -> bool:
        """True when nobody slapped the last match: the next flip takes the pile (S9)."""
        return self._miss_pending

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (no cards and an empty centre, S11); empty while playing."""
        return self._winners

    @property
    def passed(self) -> tuple[int, ...]:
        """The seats that passed on the card shown (S14 v2), in seat order."""
        if self._phase is not _SLAPS:
            return ()
        return tuple(s for s in range(self._n) if self._passed >> s & 1)

    @property
    def ended_by(self) -> str | None:
        """Why the game ended: ``'empty_hand'`` (S11), ``'hand_emptied'`` or
        ``'hand_limit'`` (a short game), ``'time_up'`` (a timed game), ``'card_limit'``
        (``SnapConfig.card_limit`` cards flipped); ``None`` while it goes on."""
        return self._ended_by

    @property
    def flips(self) -> int:
        """How many cards have been flipped so far."""
        return self._flips

    @property
    def opener(self) -> int:
        """The seat that flipped first (S5)."""
        return self._opener

    @property
    def deal(self) -> tuple[tuple[int, ...], ...]:
        """The piles as dealt, each bottom to top."""
        return self._deal

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, as recorded (calls spelt as in ``CALL_CYCLE``)."""
        return tuple(self._actions)

    @property
    def events(self) -> tuple[Event, ...]:
        """The story of the game so far, starting with the deal."""
        return tuple(self._events)

    def pile(self, seat: int) -> tuple[int, ...]:
        """The face-down pile of ``seat``, bottom to top. No player may see this: it is for
        tests, teachers and replays, never for a computer player's decisions."""
        self._seat_or_error(seat, f"pile({short_repr(seat)})")
        return tuple(self._hands[seat])

    def is_terminal(self) -> bool:
        """True once the game has ended (S11, S16)."""
        return self._phase is _OVER

    def view(self, seat: int) -> SeatView:
        """What ``seat`` can see (all of it public in Note Snap: no face-down card order)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._no_seat(seat, f"view({short_repr(seat)})")
        key = len(self._events)  # every action adds an event: the table changed
        cached = self._view_cache
        if cached[0] != key:
            phase = self._phase
            slapped = self._slapped
            centre = self._centre
            cached = self._view_cache = (
                key,
                (
                    self._n,
                    phase,
                    self._to_flip if phase is _FLIP else None,
                    CALL_CYCLE[self._call_index],
                    centre[-1] if centre else None,
                    CALL_CYCLE[self._shown_call] if phase is _SLAPS else None,
                    self._flipper if self._flipper >= 0 else None,
                    tuple(map(len, self._hands)),
                    len(centre),
                    tuple(s for s in range(self._n) if slapped >> s & 1) if slapped else (),
                    self._config.slap_window_ms,
                ),
            )
        return _record(SeatView, (seat, self._config.call_modes[seat], *cached[1]))

    def legal_actions(self) -> LegalActions:
        """The actions allowed now (see :class:`LegalActions`).

        A seat that calls for itself may call any of the seven names: a wrong call is
        allowed and costs the pile (S10).
        """
        phase = self._phase
        window = self._config.slap_window_ms
        if phase is _FLIP:
            seat = self._to_flip
            if self._config.call_modes[seat] is _AUTO:
                flips: tuple[Flip, ...] = (Flip(seat),)
            else:
                flips = tuple(Flip(seat, name) for name in CALL_CYCLE)
            timed = self._config.length is GameLength.TIMED
            return LegalActions(flips, (), False, window, timed)
        if phase is _SLAPS:
            decided = self._slapped | self._passed
            seats = tuple(s for s in range(self._n) if not decided >> s & 1)
            return LegalActions((), seats, True, window)
        return LegalActions((), (), False, window)

    def is_legal(self, action: object) -> bool:
        """True if :meth:`apply` would accept ``action`` now."""
        try:
            self._validate(action)
        except SnapError:
            return False
        return True

    # -- playing --------------------------------------------------------------------------
    def apply(self, action: Action) -> tuple[Event, ...]:
        """Play one action and return the events it caused.

        The action is checked first: if the rules refuse it, a :class:`SnapError` subclass
        says which input and why, and the game is left exactly as it was.
        """
        canonical = self._validate(action)
        events = self._events
        start = len(events)
        self._actions.append(canonical)
        kind = type(canonical)
        if kind is Slap:
            self._do_slap(canonical)  # type: ignore[arg-type]  # (narrowed by the type test)
        elif kind is Flip:
            flip: Flip = canonical  # type: ignore[assignment]
            call = flip.call
            self._do_flip(flip.seat, None if call is None else _NAME_INDEX[call])
        elif kind is Pass:
            self._do_pass(canonical)  # type: ignore[arg-type]
        elif kind is TimeUp:
            self._end(TIME_UP)
        else:
            self._resolve()
        limit = self._config.card_limit
        if limit is not None and self._flips >= limit and self._phase is _FLIP:
            self._end(CARD_LIMIT)  # the last card is judged: the game ends by its card limit
        return tuple(events[start:])

    def _seat_or_error(self, seat: object, what: str) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise self._no_seat(seat, what)
        return seat

    def _no_seat(self, seat: object, what: object) -> SeatError:
        return SeatError(
            f"{what!s}: seat {short_repr(seat)} does not exist: this table has seats "
            f"0–{self._n - 1}"
        )

    def _validate(self, action: object) -> Action:
        """Check ``action`` against the rules; return it as it will be recorded."""
        kind: type = type(action)
        if kind is not Slap and kind is not Flip and kind is not CloseSlaps and \
                kind is not Pass and kind is not TimeUp:
            # Exact types only: a subclass would be recorded as something else than it
            # is played as, and its save would not load again.
            raise ActionError(
                f"{_said(action)} is not a Note Snap action: use Flip, Slap, "
                "CloseSlaps, Pass or TimeUp (not a subclass of them)"
            )
        phase = self._phase
        if phase is _OVER:
            raise GameOverError(
                f"{_said(action)}: the game is over (won by seat(s) "
                f"{', '.join(map(str, self._winners))}): start a new game"
            )
        if kind is Slap:
            assert isinstance(action, Slap)
            seat = action.seat
            if type(seat) is not int or not 0 <= seat < self._n:
                raise self._no_seat(seat, _said(action))
            if phase is not _SLAPS:
                raise PhaseError(
                    f"{_said(action)}: no card is waiting for slaps: seat {self._to_flip} must flip"
                )
            if self._slapped >> seat & 1:
                raise DoubleSlapError(f"{_said(action)}: seat {seat} has already slapped this card")
            if self._passed >> seat & 1:
                raise DoubleSlapError(f"{_said(action)}: seat {seat} has passed on this card (S14)")
            ms = action.reaction_ms
            if type(ms) is not float:
                if isinstance(ms, bool) or not isinstance(ms, (int, float)):
                    raise ReactionTimeError(
                        f"{_said(action)}: reaction time {short_repr(ms)} is not a "
                        "number of milliseconds"
                    )
                try:
                    ms = float(ms)
                except OverflowError:  # a whole number too large for a float: 10**400
                    if ms < 0:
                        raise ReactionTimeError(
                            f"{_said(action)}: reaction time {short_repr(ms)} is not a number of "
                            "milliseconds of 0 or more"
                        ) from None
                    raise LateSlapError(
                        f"{_said(action)}: reaction time {short_repr(ms)} is far "
                        f"after the slap window closed at {self._config.slap_window_ms!r} ms "
                        "(S14)"
                    ) from None
            if not 0.0 <= ms <= self._config.slap_window_ms:
                if ms > self._config.slap_window_ms and ms != math.inf:
                    raise LateSlapError(
                        f"{_said(action)}: reaction time {short_repr(ms)} ms is after the "
                        "slap window "
                        f"closed at {self._config.slap_window_ms!r} ms (S14)"
                    )
                raise ReactionTimeError(
                    f"{_said(action)}: reaction time {short_repr(ms)} is not a finite number of "
                    "milliseconds of 0 or more"
                )
            return action if ms is action.reaction_ms else Slap(seat, ms)
        if kind is Flip:
            assert isinstance(action, Flip)
            seat = action.seat
            if type(seat) is not int or not 0 <= seat < self._n:
                raise self._no_seat(seat, _said(action))
            if phase is not _FLIP:
                raise PhaseError(
                    f"{_said(action)}: card {DECK[self._centre[-1]].solfege} is waiting for "
                    "slaps: close the slap window (CloseSlaps) before the next flip"
                )
            if seat != self._to_flip:
                why = " (it has no cards: S11)" if not self._hands[seat] else ""
                raise NotYourTurnError(
                    f"{_said(action)}: it is seat {self._to_flip}'s turn to flip, "
                    f"not seat {seat}'s{why}"
                )
            call = action.call
            if self._config.call_modes[seat] is _AUTO:
                if call is not None:
                    raise CallModeError(
                        f"{_said(action)}: seat {seat} is in auto-call mode, so the name is called "
                        "for it: flip with call=None"
                    )
                return action
            if call is None:
                raise CallModeError(
                    f"{_said(action)}: seat {seat} calls for itself: give the name it calls"
                )
            if type(call) is str and call in _NAME_INDEX:  # spelt as in CALL_CYCLE
                return action
            if not isinstance(call, str):
                raise CallError(
                    f"{_said(action)}: call {short_repr(call)} is not a note name: call one of "
                    f"{' '.join(CALL_CYCLE)}, without octave"
                )
            try:
                name = CALL_CYCLE[call_index(call)]
            except CallError as err:
                raise CallError(f"{_said(action)}: {err}") from None
            return Flip(seat, name)
        if kind is Pass:
            return self._validate_pass(action)  # type: ignore[arg-type]
        if kind is TimeUp:
            if self._config.length is not GameLength.TIMED:
                raise ActionError(
                    f"{_said(action)}: this game has no time limit "
                    f"(its length is {self._config.length.value})"
                )
            if phase is not _FLIP:
                raise PhaseError(
                    f"{_said(action)}: a card is waiting for slaps: the time is up only between "
                    "two cards"
                )
            return action  # type: ignore[return-value]
        if phase is not _SLAPS:
            raise PhaseError(
                f"{_said(action)}: no card is waiting for slaps: seat {self._to_flip} must flip"
            )
        return action  # type: ignore[return-value]

    def _validate_pass(self, action: Pass) -> Pass:
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._no_seat(seat, _said(action))
        if self._phase is not _SLAPS:
            raise PhaseError(
                f"{_said(action)}: no card is waiting for slaps: seat {self._to_flip} must flip"
            )
        if (self._slapped | self._passed) >> seat & 1:
            raise DoubleSlapError(
                f"{_said(action)}: seat {seat} has already slapped or passed on this card (S14)"
            )
        ms = action.at_ms
        if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not (
                0.0 <= ms <= self._config.slap_window_ms):
            raise ReactionTimeError(
                f"{_said(action)}: time {short_repr(ms)} is not a number of milliseconds from 0 "
                f"to the slap window's {self._config.slap_window_ms!r} (S14)"
            )
        return action if type(ms) is float else Pass(seat, float(ms))

    def _do_flip(self, seat: int, called: int | None) -> None:
        card = self._hands[seat].pop()
        self._centre.append(card)
        self._flips += 1
        self._flipper = seat
        expected = self._call_index
        auto = called is None
        if called is None:
            called = expected
        self._events.append(
            _record(Flipped, (seat, card, CALL_CYCLE[called], CALL_CYCLE[expected], auto,
                              self._flips))
        )
        if self._miss_pending:  # S9: flipping onto a match nobody slapped
            self._take(seat, _MISSED_MATCH, card, called, (), ())
        elif called != expected:  # S10
            self._take(seat, _WRONG_CALL, card, called, (), ())
        else:
            self._shown_call = called
            self._call_index = (expected + 1) % _CYCLE_LENGTH
            self._phase = _SLAPS
            self._slaps = []
            self._slapped = 0
            self._passed = 0

    def _do_slap(self, slap: Slap) -> None:
        self._slaps.append(slap)
        self._slapped |= 1 << slap.seat
        self._events.append(_record(Slapped, (slap.seat, slap.reaction_ms)))
        if (self._slapped | self._passed) == (1 << self._n) - 1:
            self._resolve()  # every seat has slapped or passed: the phase is over (S14)

    def _do_pass(self, passed: Pass) -> None:
        self._passed |= 1 << passed.seat
        self._events.append(_record(Passed, (passed.seat, passed.at_ms)))
        if (self._slapped | self._passed) == (1 << self._n) - 1:
            self._resolve()  # every seat has slapped or passed: the phase is over (S14 v2)

    def _end(self, reason: str) -> None:
        """End the game by its length setting: the fewest cards in hand win."""
        sizes = [len(h) for h in self._hands]
        fewest = min(sizes)
        winners = tuple(s for s, size in enumerate(sizes) if size == fewest)
        self._winners = winners
        self._ended_by = reason
        self._phase = _OVER
        self._events.append(_record(Ended, (reason, winners)))

    def _resolve(self) -> None:
        """Judge the slaps on the card shown (S7, S8, S9, S12–S14)."""
        n = self._n
        flipper = self._flipper
        card = self._centre[-1]
        call = self._shown_call
        slaps = self._slaps
        if not slaps:
            if is_match(card, CALL_CYCLE[call]):
                self._miss_pending = True  # S9: the next flip takes the pile
                self._pass(card, call, (), (), _MATCH_NOT_SLAPPED)
            else:
                self._pass(card, call, (), (), _NO_SLAP)
            return
        ordered = (
            tuple(sorted(slaps, key=_slap_order_key(flipper, n)))
            if len(slaps) > 1
            else tuple(slaps)
        )
        if is_match(card, CALL_CYCLE[call]):  # a match (S6)
            slapped = self._slapped
            missing = tuple(
                s for s in ((flipper + k) % n for k in range(n)) if not slapped >> s & 1
            )
            if missing:  # S14: not slapped when the window closed counts as last
                self._take(missing[0], _LAST_TO_SLAP, card, call, ordered, missing)
                return
            last, second = ordered[-1].reaction_ms, ordered[-2].reaction_ms
            if last == second or last - second < self._config.tie_window_ms:  # S12, S13
                self._pass(card, call, ordered, (), _TIE)
            else:  # S7
                self._take(ordered[-1].seat, _LAST_TO_SLAP, card, call, ordered, ())
        else:  # S8: the first false slapper
            self._take(ordered[0].seat, _FALSE_SLAP, card, call, ordered, ())

    def _pass(
        self,
        card: int,
        call: int,
        ordered: tuple[Slap, ...],
        missing: tuple[int, ...],
        reason: Reason,
    ) -> None:
        """Nobody takes the pile: the next seat with cards flips, or S16 applies."""
        flipper = self._flipper
        self._events.append(
            _record(Outcome, (card, flipper, CALL_CYCLE[call], is_match(card, CALL_CYCLE[call]),
                              ordered, missing, reason, None, 0, ()))
        )
        hands = self._hands
        n = self._n
        if self._config.length is _SHORT and not all(hands):
            self._end(HAND_EMPTIED)  # a short game: the first to empty a hand wins at once
            return
        for k in range(1, n + 1):
            seat = (flipper + k) % n
            if hands[seat]:
                self._to_flip = seat
                self._phase = _FLIP
                return
        # S16: no seat can flip; the last flipper takes the centre pile back.
        self._take(flipper, _DEAD_PILE, card, call, (), ())

    def _take(
        self,
        taker: int,
        reason: Reason,
        card: int,
        call: int,
        ordered: tuple[Slap, ...],
        missing: tuple[int, ...],
    ) -> None:
        """``taker`` puts the centre pile, turned face down, under their own pile."""
        centre = self._centre
        centre.reverse()
        hand = self._hands[taker]
        hand[0:0] = centre
        self._centre = []
        self._call_index = 0
        self._miss_pending = False
        self._to_flip = taker
        self._phase = _FLIP
        winners = tuple(s for s, h in enumerate(self._hands) if not h)  # S11
        if winners:
            self._winners = winners
            self._ended_by = EMPTY_HAND
            self._phase = _OVER
        self._events.append(
            _record(Outcome, (card, self._flipper, CALL_CYCLE[call],
                              is_match(card, CALL_CYCLE[call]), ordered, missing, reason, taker,
                              len(centre), winners))
        )
        config = self._config
        if not winners and config.length is _SHORT and max(
                map(len, self._hands)) >= config.hand_limit:
            self._end(HAND_LIMIT)

    # -- saving ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The game as plain JSON data: settings, deal and actions (enough to replay it),
        plus the position they lead to, which loading checks."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "config": self._config.to_dict(),
            "deal": {"hands": [list(h) for h in self._deal], "opener": self._opener},
            "actions": list(map(action_to_json, self._actions)),
            "position": {
                "phase": self._phase.value,
                "hands": [list(h) for h in self._hands],
                "centre": list(self._centre),
                "winners": list(self._winners),
            },
        }

    def to_json(self) -> str:
        """The game as a JSON text; :meth:`from_json` reads it back."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> SnapState:
        """Load a game saved by :meth:`to_json` (text or already-parsed data).

        Everything is checked: the settings, the deal, each action replayed in order, and
        the saved position against the replayed one. Anything wrong raises
        :class:`SaveError` naming the part and the reason. Nothing is ever executed.

        >>> SnapState.from_json('{"format": "chess"}')
        Traceback (most recent call last):
        ...
        musicgames.snap.errors.SaveError: saved game: format 'chess' is not 'musicgames.snap'
        """
        if isinstance(data, (str, bytes, bytearray)):
            try:
                parsed = json.loads(data, parse_constant=_refuse_constant)
            except (ValueError, UnicodeDecodeError, RecursionError) as err:
                raise SaveError(f"saved game: not valid JSON ({err})") from None
        else:
            parsed = data
        if not isinstance(parsed, dict):
            raise SaveError(f"saved game: {type(parsed).__name__} is not a JSON object")
        if not isinstance(parsed.get("format"), str) or parsed["format"] != SAVE_FORMAT:
            raise SaveError(
                f"saved game: format {short_repr(parsed.get('format'))} is not {SAVE_FORMAT!r}"
            )
        version = parsed.get("version")
        if isinstance(version, bool) or version != SAVE_VERSION:  # True == 1, yet no version
            raise SaveError(
                f"saved game: version {short_repr(parsed.get('version'))} is not {SAVE_VERSION} "
                "(the only one this engine reads)"
            )
        deal = parsed.get("deal")
        if not isinstance(deal, dict) or set(deal) != {"hands", "opener"}:
            raise SaveError(f"saved game: deal {short_repr(deal)} must be "
                            f"{{'hands': ..., 'opener': ...}}")
        try:
            config = SnapConfig.from_dict(parsed.get("config"))
            state = cls.from_deal(deal["hands"], config, deal["opener"])
        except (SnapError, TypeError) as err:
            raise SaveError(f"saved game: {err}") from None
        actions = parsed.get("actions")
        if not isinstance(actions, list):
            raise SaveError(f"saved game: actions {short_repr(actions)} is not a list")
        for number, item in enumerate(actions):
            try:
                state.apply(action_from_json(item))
            except SnapError as err:
                raise SaveError(
                    f"saved game: action {number} {short_repr(item)} does not replay: {err}"
                ) from None
        position = parsed.get("position")
        if position is not None and position != state.to_dict()["position"]:
            raise SaveError("saved game: the saved position is not where its actions lead")
        return state

    @classmethod
    def replay(cls, events: Sequence[Event], config: SnapConfig | None = None) -> SnapState:
        """Rebuild a game from its event log alone (and its settings).

        The actions are read back from the events — a flip from each :class:`Flipped`, a
        slap from each :class:`Slapped`, a pass from each :class:`Passed`, a
        :class:`CloseSlaps` wherever an outcome ended a slap phase that not every seat had
        slapped or passed in, a :class:`TimeUp` from its :class:`Ended` — and played again;
        the replayed events must be the ones given, or :class:`SaveError` says where they
        part.

        >>> game = new_game(random.Random(4), SnapConfig(players=2))
        >>> _ = game.apply(Flip(0)), game.apply(CloseSlaps()), game.apply(Flip(1))
        >>> SnapState.replay(game.events, game.config).to_json() == game.to_json()
        True
        """
        if not events or not isinstance(events[0], Dealt):
            raise SaveError("event log: it must start with the Dealt event")
        first = events[0]
        try:
            state = cls.from_deal(first.hands, config, first.opener)
        except SnapError as err:
            raise SaveError(f"event log: {err}") from None
        slaps_in_phase = 0
        previous: Event = first
        for number, event in enumerate(events[1:], start=1):
            action: Action | None = None
            if type(event) is Flipped:
                action = Flip(event.seat, None if event.auto else event.call)
                slaps_in_phase = 0
            elif type(event) is Slapped:
                action = Slap(event.seat, event.reaction_ms)
                slaps_in_phase += 1
            elif type(event) is Passed:
                action = Pass(event.seat, event.at_ms)
                slaps_in_phase += 1
            elif type(event) is Ended:
                if event.reason == TIME_UP:
                    action = TimeUp()
            elif type(event) is Outcome:
                closes = type(previous) is Flipped and state.phase is _SLAPS
                after_slap = (type(previous) is Slapped or type(previous) is Passed) and \
                    slaps_in_phase < state.players
                if closes or after_slap:
                    action = CloseSlaps()
            else:
                raise SaveError(f"event log: event {number} {short_repr(event)} is not a game "
                                "event")
            if action is not None:
                try:
                    state.apply(action)
                except SnapError as err:
                    raise SaveError(f"event log: event {number} does not replay: {err}") \
                        from None
            if len(state._events) <= number or state._events[number] != event:
                raise SaveError(f"event log: event {number} {short_repr(event)} is not what "
                                "happened")
            previous = event
        if len(state._events) != len(events):
            raise SaveError("event log: the game goes on past the last event given")
        return state

    def __repr__(self) -> str:
        where = (
            f"to_flip={self._to_flip}, next_call={self.next_call!r}"
            if self._phase is _FLIP
            else f"winners={self._winners}"
            if self._phase is _OVER
            else f"top={DECK[self._centre[-1]].solfege!r}, call={self.shown_call!r}, "
            f"slaps={len(self._slaps)}"
        )
        return (
            f"<SnapState {self._n} players, {self._phase.value}: {where}, "
            f"hands={self.hand_sizes}, centre={len(self._centre)}>"
        )


def _said(action: object) -> str:
    """``repr(action)``, with any huge number in it shortened."""
    if type(action) in (Slap, Pass, Flip):
        fields = ", ".join(
            f"{name}={short_repr(getattr(action, name))}"
            for name in action.__dataclass_fields__  # type: ignore[attr-defined]
        )
        return f"{type(action).__name__}({fields})"
    return short_repr(action)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not allowed")


def new_game(
    rng: random.Random,
    config: SnapConfig | None = None,
    opener: int = 0,
) -> SnapState:
    """Shuffle with ``rng`` and deal all 56 cards as evenly as possible (S4).

    Cards are dealt one at a time starting with the opener, so with 3 players the opener
    and the seat after it hold 19 cards and the third seat 18. The players choose who opens
    (S5): it is a parameter, seat 0 unless said otherwise.

    >>> state = new_game(random.Random(7), SnapConfig(players=3), opener=2)
    >>> state.hand_sizes, state.to_flip
    ((19, 18, 19), 2)
    """
    if not isinstance(rng, random.Random):
        raise ConfigError(f"rng={short_repr(rng)} is not a random.Random: pass a seeded one")
    config = SnapConfig() if config is None else config
    if not isinstance(config, SnapConfig):
        raise ConfigError(f"config={short_repr(config)} is not a SnapConfig")
    n = config.players
    if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < n:
        raise SeatError(f"opener={short_repr(opener)} is not a seat: this table has seats "
                        f"0–{n - 1}")
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    # one card at a time from the opener: the card at position i goes to seat opener + i
    hands = [deck[(seat - opener) % n::n] for seat in range(n)]
    return SnapState._start(hands, config, opener)


def stacked_deal(first_flips: Sequence[Sequence[int]]) -> list[list[int]]:
    """Piles for :meth:`SnapState.from_deal` whose first flips are the cards you choose.

    ``first_flips[seat]`` lists the cards that seat will flip first, in order; the rest
    of the deck is shared out, in card order, underneath. Handy to show one rule at work.

    >>> piles = stacked_deal([[0, 8], [16]])      # seat 0 flips Do3 then Re3; seat 1 Mi3
    >>> [p[-2:] for p in piles], sum(map(len, piles))
    ([[8, 0], [54, 16]], 56)
    """
    chosen = [card for cards in first_flips for card in cards]
    if len(set(chosen)) != len(chosen):
        raise ConfigError(f"first_flips={short_repr(first_flips)} names a card twice")
    for card in chosen:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise ConfigError(f"first_flips names {short_repr(card)}, which is not a card id 0–55")
    n = len(first_flips)
    if n == 0:
        raise ConfigError("first_flips is empty: give one list per seat")
    taken = set(chosen)
    rest = [card for card in range(DECK_SIZE) if card not in taken]
    return [rest[seat::n] + list(reversed(first_flips[seat])) for seat in range(n)]
