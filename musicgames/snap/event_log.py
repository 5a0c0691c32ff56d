"""A Note Snap game rebuilt from its story: :func:`from_events` reads the actions back from
the events and plays them again, checking that the same things happen. (A state's own
:meth:`~musicgames.snap.state.SnapState.replay` plays its recorded actions again.)
"""

from __future__ import annotations

from collections.abc import Sequence

from musicgames.shown import short_repr
from musicgames.snap.actions import (
    Action,
    CloseSlaps,
    Dealt,
    Ended,
    Event,
    Flip,
    Flipped,
    Outcome,
    Pass,
    Passed,
    Phase,
    Slap,
    Slapped,
    TimeUp,
)
from musicgames.snap.config import SnapConfig
from musicgames.snap.errors import SaveError, SnapError
from musicgames.snap.state import TIME_UP, SnapState

__all__ = ["from_events"]


def from_events(events: Sequence[Event], config: SnapConfig | None = None) -> SnapState:
    """Rebuild a game from its event log alone (and its settings).

    The actions are read back from the events — a flip from each :class:`Flipped`, a
    slap from each :class:`Slapped`, a pass from each :class:`Passed`, a
    :class:`CloseSlaps` wherever an outcome ended a slap phase that not every seat had
    slapped or passed in, a :class:`TimeUp` from its :class:`Ended` — and played again;
    the replayed events must be the ones given, or :class:`SaveError` says where they
    part.

    >>> from musicgames.snap import new_game
    >>> game = new_game(4, SnapConfig(players=2))
    >>> _ = game.apply(Flip(0)), game.apply(CloseSlaps()), game.apply(Flip(1))
    >>> from_events(game.events, game.config).to_json() == game.to_json()
    True
    """
    if not events or not isinstance(events[0], Dealt):
        raise SaveError("event log: it must start with the Dealt event")
    first = events[0]
    try:
        state = SnapState.from_deal(first.hands, config, first.opener)
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
            closes = type(previous) is Flipped and state.phase is Phase.SLAPS
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
