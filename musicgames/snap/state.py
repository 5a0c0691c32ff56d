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

from collections.abc import Sequence
from typing import Any

from musicgames.protocol import TABLE
from musicgames.shown import short_repr
from musicgames.snap.actions import (
    Action,
    CallMode,
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
from musicgames.snap.cards import CALL_CYCLE, DECK, is_match, next_call
from musicgames.snap.checks import CHECKS, NAME_INDEX, checked, no_seat
from musicgames.snap.config import MAX_PLAYERS, SnapConfig
from musicgames.snap.deal import checked_piles
from musicgames.snap.errors import ConfigError, SaveError, SnapError
from musicgames.snap.saving import SAVE_FORMAT, SAVE_VERSION, grown_actions, read_save, save_text
from musicgames.snap.views import LegalActions, SeatView
from musicgames.snap.window import closes_early

__all__ = ["SnapState"]

#: For each place in the call cycle, the place of the name called next (S5).
_NEXT_INDEX: tuple[int, ...] = tuple(CALL_CYCLE.index(next_call(name)) for name in CALL_CYCLE)
_AUTO = CallMode.AUTO
_FLIP = Phase.FLIP
_SLAPS = Phase.SLAPS
_OVER = Phase.OVER
# Views and events are named tuples. Their generated ``__new__`` is a Python function; on
# the hot path (a simulated game makes hundreds of each) they are built directly with
# ``tuple.__new__(Class, (field, ...))``, which makes the very same object. Every field
# must then be given, in order.
_record = tuple.__new__
_NAME_INDEX = NAME_INDEX
_CHECKS = CHECKS
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


#: The seats in each set of seats written as bits (seat s is bit s): ``_SEATS_IN[0b101]``
#: is ``(0, 2)``. Views list who slapped and who passed from it, without a loop.
_SEATS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(MAX_PLAYERS) if mask >> s & 1) for mask in range(1 << MAX_PLAYERS)
)


def _slap_order_key(flipper: int, players: int) -> Any:
    """Sort slaps by time; equal times in seat order starting from the flipper."""
    return lambda s: (s.reaction_ms, (s.seat - flipper) % players)


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
        "_saved_actions",
        "_shown_call",
        "_slapped",
        "_slaps",
        "_to_flip",
        "_view_cache",
        "_winners",
    )

    _actions: list[Action]
    _saved_actions: tuple[int, str]
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
        dealt = SnapState.from_deal(hands, config, opener)
        for name in SnapState.__slots__:
            setattr(self, name, getattr(dealt, name))

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
        piles = checked_piles(hands, config.players, opener)
        assert isinstance(opener, int)
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
        state._saved_actions = (0, "")
        state._events = [Dealt(state._deal, opener)]
        state._view_cache = (-1, ())
        return state

    def clone(self) -> SnapState:
        """An independent copy: playing on one never changes the other (:meth:`copy`)."""
        return self.copy()

    def copy(self, *, history: bool = True) -> SnapState:
        """An independent copy: playing on one never changes the other.

        With ``history=False`` the copy keeps only the events of the card being played
        (from its flip, or the deal): what a search that plays on needs, and what
        :func:`~musicgames.snap.invariants.check_invariants` reads. Its actions are kept,
        so it still saves (:meth:`to_json`) and replays (:meth:`replay`);
        :func:`~musicgames.snap.event_log.from_events` needs the whole story.

        >>> from musicgames.snap import CloseSlaps, new_game
        >>> game = new_game(2, SnapConfig(players=2))
        >>> _ = game.apply(Flip(0)), game.apply(CloseSlaps()), game.apply(Flip(1))
        >>> short = game.copy(history=False)
        >>> len(game.events), len(short.events), short.to_json() == game.to_json()
        (4, 1, True)
        """
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
        other._saved_actions = self._saved_actions
        events = self._events
        if history:
            other._events = events.copy()
            other._view_cache = self._view_cache
        else:
            last = len(events) - 1
            while last > 0 and type(events[last]) is not Flipped:
                last -= 1
            other._events = events[last:]
            other._view_cache = (-1, ())  # its key counts the events: made afresh
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
        self._seat_or_error(seat, "pile")
        return tuple(self._hands[seat])

    def is_terminal(self) -> bool:
        """True once the game has ended (S11, S16)."""
        return self._phase is _OVER

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: the seat to flip (and, in a timed game, the table,
        whose time may be up), or while a card waits for slaps every seat that has not
        slapped or passed and the table, which closes the window (S14); ``()`` at the end.

        >>> from musicgames.snap import new_game
        >>> game = new_game(5, SnapConfig(players=3))
        >>> game.to_act()
        (0,)
        >>> _ = game.apply(Flip(0)), game.apply(Slap(2, 400.0))
        >>> game.to_act()
        (0, 1, -1)
        """
        phase = self._phase
        if phase is _FLIP:
            if self._config.length is GameLength.TIMED:
                return (self._to_flip, TABLE)
            return (self._to_flip,)
        if phase is _SLAPS:
            decided = self._slapped | self._passed
            return (*(s for s in range(self._n) if not decided >> s & 1), TABLE)
        return ()

    def returns(self) -> tuple[float, ...]:
        """One number per seat: 1.0 for each winner once the game is over, else 0.0 (all
        0.0 while it goes on)."""
        winners = self._winners
        return tuple(1.0 if seat in winners else 0.0 for seat in range(self._n))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` can see (all of it public in Note Snap: no face-down card order)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise no_seat(seat, f"view({short_repr(seat)})", self._n)
        key = len(self._events)  # every action adds an event: the table changed
        cached = self._view_cache
        if cached[0] != key:
            phase = self._phase
            slapped = self._slapped
            passed = self._passed
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
                    _SEATS_IN[slapped],
                    self._config.slap_window_ms,
                    _SEATS_IN[passed] if phase is _SLAPS else (),
                ),
            )
        return _record(SeatView, (seat, self._config.call_modes[seat], *cached[1]))

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """The actions allowed now (see :class:`~musicgames.snap.views.LegalActions`): of
        every seat, or of ``seat`` alone (:data:`~musicgames.protocol.TABLE`: closing the
        slap window, a timed game's time up).

        A seat that calls for itself may call any of the seven names: a wrong call is
        allowed and costs the pile (S10).
        """
        if seat is not None:
            if seat != TABLE:
                self._seat_or_error(seat, "legal_actions")
            return self.legal_actions().for_seat(seat)
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

    def is_legal(self, action: object, seat: int | None = None) -> bool:
        """True if :meth:`apply` would accept ``action`` now (from ``seat``, if given)."""
        try:
            checked(self, action, seat)
        except SnapError:
            return False
        return True

    def check(self, action: object, seat: int | None = None) -> None:
        """Raise the :class:`SnapError` that :meth:`apply` would raise, or return quietly."""
        checked(self, action, seat)

    # -- playing --------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Play one action and return the events it caused.

        ``seat``, if given, is who takes it: the seat the action names, or
        :data:`~musicgames.protocol.TABLE` for :class:`CloseSlaps` and :class:`TimeUp`.
        The action is checked first: if the rules refuse it, a :class:`SnapError` subclass
        says which input and why (its ``.rule`` the rule that refuses), and the game is
        left exactly as it was.
        """
        check = _CHECKS.get(type(action))
        if check is None or seat is not None or self._phase is _OVER:
            canonical = checked(self, action, seat)  # with the seat, or to say why not
        else:
            canonical = check(self, action)
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

    def _seat_or_error(self, seat: object, method: str) -> int:
        """``seat`` if it is a seat of this table; else the error names ``method(seat)``
        (built only then: this is asked at every step of a game)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise no_seat(seat, f"{method}({short_repr(seat)})", self._n)
        return seat

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
            self._call_index = _NEXT_INDEX[expected]
            self._phase = _SLAPS
            self._slaps = []
            self._slapped = 0
            self._passed = 0

    def _do_slap(self, slap: Slap) -> None:
        self._slaps.append(slap)
        self._slapped |= 1 << slap.seat
        self._events.append(_record(Slapped, (slap.seat, slap.reaction_ms)))
        if closes_early(self._n, (self._slapped | self._passed).bit_count()):
            self._resolve()  # every seat has slapped or passed: the phase is over (S14)

    def _do_pass(self, passed: Pass) -> None:
        self._passed |= 1 << passed.seat
        self._events.append(_record(Passed, (passed.seat, passed.at_ms)))
        if closes_early(self._n, (self._slapped | self._passed).bit_count()):
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
    def _save_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """A save's format, settings and deal; and the position the actions lead to."""
        return ({"format": SAVE_FORMAT, "version": SAVE_VERSION, "config": self._config.to_dict(),
                 "deal": {"hands": [list(h) for h in self._deal], "opener": self._opener}},
                {"phase": self._phase.value, "hands": [list(h) for h in self._hands],
                 "centre": list(self._centre), "winners": list(self._winners)})

    def to_dict(self) -> dict[str, Any]:
        """The game as plain JSON data: settings, deal and actions (enough to replay it),
        plus the position they lead to, which loading checks."""
        settings, position = self._save_parts()
        return {**settings, "actions": list(map(action_to_json, self._actions)),
                "position": position}

    def to_json(self) -> str:
        """The game as a JSON text (:meth:`to_dict`, compact); :meth:`from_json` reads it
        back. The actions' text grows with the game (:func:`~.saving.grown_actions`)."""
        self._saved_actions = grown_actions(self._saved_actions, self._actions)
        return save_text(*self._save_parts(), self._saved_actions[1])

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
        save = read_save(data)
        try:
            state = cls.from_deal(save.hands, save.config, save.opener)
        except (SnapError, TypeError) as err:
            raise SaveError(f"saved game: {err}") from None
        actions = save.actions
        for number, item in enumerate(actions):
            try:
                state.apply(action_from_json(item))
            except SnapError as err:
                raise SaveError(
                    f"saved game: action {number} {short_repr(item)} does not replay: {err}"
                ) from None
        position = save.position
        if position is not None and position != state.to_dict()["position"]:
            raise SaveError("saved game: the saved position is not where its actions lead")
        return state

    def replay(self) -> SnapState:
        """A new state made by playing :attr:`actions` again from the deal: the same game.

        >>> from musicgames.snap import new_game
        >>> game = new_game(4, SnapConfig(players=2))
        >>> _ = game.apply(Flip(0))
        >>> game.replay().to_json() == game.to_json()
        True
        """
        state = SnapState._start([list(pile) for pile in self._deal], self._config,
                                 self._opener)
        for action in self._actions:
            state.apply(action)
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

