"""Whether the rules allow an action now: every refusal of a Note Snap action, each a
typed :class:`~musicgames.snap.errors.SnapError` that names the input, says why, and
carries the rule that refuses (``.rule``).

:func:`checked` is what :meth:`~musicgames.snap.SnapState.apply` asks before it plays
anything, so a refused action leaves the game exactly as it was.

>>> from musicgames.snap import Flip, SnapConfig, SnapError, new_game
>>> game = new_game(4, SnapConfig(players=2))
>>> try:
...     checked(game, Flip(1))
... except SnapError as err:
...     print(type(err).__name__, err.rule)
NotYourTurnError S5
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from musicgames.protocol import TABLE
from musicgames.shown import short_repr
from musicgames.snap.actions import (
    Action,
    CallMode,
    CloseSlaps,
    Flip,
    GameLength,
    Pass,
    Phase,
    Slap,
    TimeUp,
)
from musicgames.snap.cards import CALL_CYCLE, DECK, call_index
from musicgames.snap.errors import (
    ActionError,
    CallError,
    CallModeError,
    DoubleSlapError,
    GameOverError,
    LateSlapError,
    NotYourTurnError,
    PhaseError,
    ReactionTimeError,
    SeatError,
    SnapError,
)

if TYPE_CHECKING:
    from musicgames.snap.state import SnapState

__all__ = ["CHECKS", "NAME_INDEX", "checked", "no_seat", "said"]

#: The place of each name in the call cycle, as an action records it (S5).
NAME_INDEX: dict[str, int] = {name: i for i, name in enumerate(CALL_CYCLE)}
_AUTO = CallMode.AUTO
_FLIP = Phase.FLIP
_SLAPS = Phase.SLAPS
_OVER = Phase.OVER


def said(action: object) -> str:
    """``repr(action)``, with any huge number in it shortened."""
    if type(action) in (Slap, Pass, Flip):
        fields = ", ".join(
            f"{name}={short_repr(getattr(action, name))}"
            for name in action.__dataclass_fields__  # type: ignore[attr-defined]
        )
        return f"{type(action).__name__}({fields})"
    return short_repr(action)


def no_seat(seat: object, what: object, players: int) -> SeatError:
    """The error for a seat that is not at a table of ``players`` (S3)."""
    return SeatError(
        f"{what!s}: seat {short_repr(seat)} does not exist: this table has seats "
        f"0–{players - 1}"
    )


def _seat_of(action: Action) -> int:
    """The seat that takes ``action``: the one it names, or the table (:data:`TABLE`)."""
    kind = type(action)
    if kind is Flip or kind is Slap or kind is Pass:
        return action.seat  # type: ignore[union-attr]
    return TABLE


def _check_actor(action: Action, seat: object, players: int) -> None:
    """``seat``, given to ``apply``, must be the seat the action names (the table's for
    :class:`CloseSlaps` and :class:`TimeUp`)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not (
            seat == TABLE or 0 <= seat < players):
        raise no_seat(seat, f"{said(action)} for seat {short_repr(seat)}", players)
    own = _seat_of(action)
    if seat != own:
        whose = "the table's (seat TABLE = -1)" if own == TABLE else f"seat {own}'s"
        raise ActionError(f"{said(action)} is {whose} action, not seat {seat}'s: an action "
                          "names the seat that takes it")


def checked(state: SnapState, action: object, seat: object = None) -> Action:
    """Check ``action`` (taken by ``seat``, if given) against the rules in ``state``;
    return it as it will be recorded, or raise the :class:`SnapError` that says why not."""
    check = CHECKS.get(type(action))  # exact types only: see _not_an_action
    if check is None:
        raise _not_an_action(action)
    if seat is not None:
        _check_actor(action, seat, state._n)  # type: ignore[arg-type]
    if state._phase is _OVER:
        raise GameOverError(
            f"{said(action)}: the game is over (won by seat(s) "
            f"{', '.join(map(str, state._winners))}): start a new game",
            rule="S11" if state._ended_by == "empty_hand" else None,
        )
    return check(state, action)


def _not_an_action(action: object) -> ActionError:
    # Exact types only: a subclass would be recorded as something else than it is played
    # as, and its save would not load again.
    return ActionError(
        f"{said(action)} is not a Note Snap action: use Flip, Slap, CloseSlaps, Pass or "
        "TimeUp (not a subclass of them)"
    )


def _no_card(state: SnapState, action: object) -> PhaseError:
    return PhaseError(
        f"{said(action)}: no card is waiting for slaps: seat {state._to_flip} must flip"
    )


def _checked_close(state: SnapState, action: CloseSlaps) -> CloseSlaps:
    if state._phase is not _SLAPS:
        raise _no_card(state, action)
    return action


def _checked_time_up(state: SnapState, action: TimeUp) -> TimeUp:
    if state._config.length is not GameLength.TIMED:
        raise ActionError(
            f"{said(action)}: this game has no time limit "
            f"(its length is {state._config.length.value})"
        )
    if state._phase is not _FLIP:
        raise PhaseError(
            f"{said(action)}: a card is waiting for slaps: the time is up only between "
            "two cards", rule=None,
        )
    return action


def _not_slapping(state: SnapState, action: Slap | Pass) -> SnapError:
    """Why a slap or a pass cannot be: no such seat (S3), or no card waiting (S14)."""
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state._n:
        return no_seat(seat, said(action), state._n)
    return _no_card(state, action)


def _checked_slap(state: SnapState, action: Slap) -> Slap:
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state._n or state._phase is not _SLAPS:
        raise _not_slapping(state, action)
    if state._slapped >> seat & 1:
        raise DoubleSlapError(f"{said(action)}: seat {seat} has already slapped this card")
    if state._passed >> seat & 1:
        raise DoubleSlapError(f"{said(action)}: seat {seat} has passed on this card (S14)",
                              rule="S14")
    window = state._config.slap_window_ms
    ms = action.reaction_ms
    if type(ms) is not float:
        if isinstance(ms, bool) or not isinstance(ms, (int, float)):
            raise ReactionTimeError(
                f"{said(action)}: reaction time {short_repr(ms)} is not a "
                "number of milliseconds"
            )
        try:
            ms = float(ms)
        except OverflowError:  # a whole number too large for a float: 10**400
            if ms < 0:
                raise ReactionTimeError(
                    f"{said(action)}: reaction time {short_repr(ms)} is not a number of "
                    "milliseconds of 0 or more"
                ) from None
            raise LateSlapError(
                f"{said(action)}: reaction time {short_repr(ms)} is far "
                f"after the slap window closed at {window!r} ms (S14)"
            ) from None
    if not 0.0 <= ms <= window:
        if ms > window and ms != math.inf:
            raise LateSlapError(
                f"{said(action)}: reaction time {short_repr(ms)} ms is after the slap window "
                f"closed at {window!r} ms (S14)"
            )
        raise ReactionTimeError(
            f"{said(action)}: reaction time {short_repr(ms)} is not a finite number of "
            "milliseconds of 0 or more"
        )
    return action if ms is action.reaction_ms else Slap(seat, ms)


def _checked_flip(state: SnapState, action: Flip) -> Flip:
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state._n:
        raise no_seat(seat, said(action), state._n)
    if state._phase is not _FLIP:
        raise PhaseError(
            f"{said(action)}: card {DECK[state._centre[-1]].solfege} is waiting for "
            "slaps: close the slap window (CloseSlaps) before the next flip"
        )
    if seat != state._to_flip:
        empty = not state._hands[seat]
        raise NotYourTurnError(
            f"{said(action)}: it is seat {state._to_flip}'s turn to flip, "
            f"not seat {seat}'s{' (it has no cards: S11)' if empty else ''}",
            rule="S11" if empty else "S5",
        )
    call = action.call
    if state._config.call_modes[seat] is _AUTO:
        if call is not None:
            raise CallModeError(
                f"{said(action)}: seat {seat} is in auto-call mode, so the name is called "
                "for it: flip with call=None"
            )
        return action
    if call is None:
        raise CallModeError(
            f"{said(action)}: seat {seat} calls for itself: give the name it calls"
        )
    if type(call) is str and call in NAME_INDEX:  # spelt as in CALL_CYCLE
        return action
    if not isinstance(call, str):
        raise CallError(
            f"{said(action)}: call {short_repr(call)} is not a note name: call one of "
            f"{' '.join(CALL_CYCLE)}, without octave"
        )
    try:
        name = CALL_CYCLE[call_index(call)]
    except CallError as err:
        raise CallError(f"{said(action)}: {err}") from None
    return Flip(seat, name)


def _checked_pass(state: SnapState, action: Pass) -> Pass:
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state._n or state._phase is not _SLAPS:
        raise _not_slapping(state, action)
    if (state._slapped | state._passed) >> seat & 1:
        raise DoubleSlapError(
            f"{said(action)}: seat {seat} has already slapped or passed on this card (S14)",
            rule="S14",
        )
    ms = action.at_ms
    window = state._config.slap_window_ms
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0.0 <= ms <= window:
        raise ReactionTimeError(
            f"{said(action)}: time {short_repr(ms)} is not a number of milliseconds from 0 "
            f"to the slap window's {window!r} (S14)", rule="S14"
        )
    return action if type(ms) is float else Pass(seat, float(ms))


#: The check of each kind of action, by its exact type (:func:`checked` first refuses
#: anything else, a seat that does not take the action, and any action once the game is
#: over; ``SnapState.apply`` calls these directly when none of that can be the case).
CHECKS: dict[type, Callable[[SnapState, Any], Action]] = {
    Slap: _checked_slap,
    Flip: _checked_flip,
    Pass: _checked_pass,
    CloseSlaps: _checked_close,
    TimeUp: _checked_time_up,
}
