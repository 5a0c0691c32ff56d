"""What a seat sees of a Note Snap table (:class:`SeatView`) and what may be done now
(:class:`LegalActions`).

>>> from musicgames.snap import TABLE, Flip, Slap, SnapConfig, new_game
>>> game = new_game(7, SnapConfig(players=2))
>>> legal = game.legal_actions()
>>> list(legal), Flip(1) in legal, Slap(0, 300.0) in legal
([Flip(seat=0, call=None)], False, False)
>>> _ = game.apply(Flip(0))
>>> legal = game.legal_actions(1)          # seat 1 may slap or pass at any time in the window
>>> Slap(1, 123.4) in legal, legal[0], len(legal)
(True, Slap(seat=1, reaction_ms=500.0), 10)
>>> list(game.legal_actions(TABLE))        # the table itself may close the window (S14)
[CloseSlaps()]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple, overload

from musicgames.protocol import TABLE
from musicgames.snap.actions import (
    Action,
    CallMode,
    CloseSlaps,
    Flip,
    Pass,
    Phase,
    Slap,
    TimeUp,
)
from musicgames.snap.cards import CALL_CYCLE, DECK, call_index, is_match
from musicgames.snap.errors import CallError, GameOverError
from musicgames.theory import Note

__all__ = ["LISTED_TIMES", "LegalActions", "SeatView"]

#: The times, as shares of the slap window, at which :class:`LegalActions` lists each
#: seat's slaps and passes. Any other time in the window is just as legal (``in`` says so);
#: these are the ones a list of actions names.
LISTED_TIMES: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0)


class SeatView(NamedTuple):
    """What one seat can see of the table: everything face up and every count, never the
    order of a face-down pile. Computer players decide from this alone (S17).

    ``top_card`` is the card shown on the centre (``None`` when it is empty) and
    ``shown_call`` the name called for it while slaps are collected; ``next_call`` is the
    name the next flip must call; ``slapped`` lists the seats that have slapped the card
    shown and ``passed`` those that passed on it (S14).
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
    passed: tuple[int, ...] = ()

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


class LegalActions(Sequence[Action]):
    """The actions allowed in one position (of every seat, or of one); test one with ``in``.

    It lists the flips, then each seat's slaps and passes at the :data:`LISTED_TIMES` of
    the window, then :class:`CloseSlaps` and :class:`TimeUp` when the table may take them.
    A slap's or a pass's time is a number: every seat in ``slappers`` may slap (or pass) at
    any time from 0 to ``slap_window_ms``, listed or not, and ``in`` accepts them all.
    """

    __slots__ = ("_listed", "can_close", "can_time_up", "flips", "slap_window_ms", "slappers")

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
        self._listed: tuple[Action, ...] | None = None

    def for_seat(self, seat: int) -> LegalActions:
        """Only the actions of ``seat`` (:data:`TABLE`: closing the window, the time up)."""
        if seat == TABLE:
            return LegalActions((), (), self.can_close, self.slap_window_ms, self.can_time_up)
        return LegalActions(
            tuple(f for f in self.flips if f.seat == seat),
            (seat,) if seat in self.slappers else (),
            False,
            self.slap_window_ms,
        )

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

    def _all(self) -> tuple[Action, ...]:
        listed = self._listed
        if listed is None:
            window = self.slap_window_ms
            times = [window * share for share in LISTED_TIMES]
            actions: list[Action] = [*self.flips]
            for seat in self.slappers:
                actions.extend(Slap(seat, ms) for ms in times)
                actions.extend(Pass(seat, ms) for ms in times)
            if self.can_close:
                actions.append(CloseSlaps())
            if self.can_time_up:
                actions.append(TimeUp())
            listed = self._listed = tuple(actions)
        return listed

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._all()[index]

    def __bool__(self) -> bool:
        return bool(self.flips or self.slappers or self.can_close or self.can_time_up)

    def sample(self, rng: random.Random) -> Action:
        """One allowed action drawn at random (a slap at a uniform time in the window).

        >>> from musicgames.snap import SnapConfig, new_game
        >>> new_game(1, SnapConfig(players=2)).legal_actions().sample(random.Random(0))
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
