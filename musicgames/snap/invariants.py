"""Checks that must hold in every Note Snap position; simulations and tests run them after
every action.

:func:`check_invariants` re-derives what it can from the game's events rather than trusting
the state's own bookkeeping, and returns a list of broken invariants (empty when all hold).

>>> import random
>>> from musicgames.snap import SnapConfig, new_game
>>> check_invariants(new_game(random.Random(1), SnapConfig(players=3)))
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from musicgames.snap.actions import Ended, Flipped, Outcome, Phase, Reason
from musicgames.snap.cards import CALL_CYCLE, DECK_SIZE, next_call

if TYPE_CHECKING:
    from musicgames.snap.state import SnapState

__all__ = ["check_invariants"]

_ALL_CARDS = frozenset(range(DECK_SIZE))
_NEXT_CALL = {name: next_call(name) for name in CALL_CYCLE}


def check_invariants(state: SnapState) -> list[str]:
    """Every broken invariant of ``state``, described; an empty list when all hold.

    * the 56 cards are each in exactly one pile or the centre;
    * the phase agrees with the position (a flipper with cards; a card waiting for slaps,
      each seat slapping at most once within the window; winners only at the end);
    * turn order: the seat to flip is the last taker, or else the first seat with cards
      after the last flipper (S5, S7–S11), and the next call follows the cycle;
    * a missed match is pending exactly when the last card was a match nobody slapped (S9);
    * nobody wins holding cards, every seat without cards wins at the end, and the centre
      is empty then (S11).
    """
    problems: list[str] = []
    hands = state._hands
    centre = state._centre
    n = state._n
    count = len(centre) + sum(map(len, hands))
    if count != DECK_SIZE or _ALL_CARDS.difference(centre, *hands):  # 56, each one there
        problems.append(f"cards: {count} cards held, not each of the 56 exactly once")

    phase = state._phase
    events = state._events
    last_outcome: Outcome | None = None
    last_flip: Flipped | None = None
    for event in reversed(events):
        kind = type(event)
        if kind is Flipped:
            last_flip = event  # type: ignore[assignment]
            break
        if kind is Outcome and last_outcome is None:
            last_outcome = event  # type: ignore[assignment]

    if phase is Phase.FLIP:
        seat = state._to_flip
        if not 0 <= seat < n or not hands[seat]:
            problems.append(f"turn: seat {seat} is to flip but has no cards")
        if state._winners:
            problems.append("win: winners named while the game goes on")
        if last_flip is None:
            if seat != state._opener or state.next_call != "Do":
                problems.append(f"turn: the first flip belongs to the opener, not seat {seat}")
        elif last_outcome is None or last_outcome.card != last_flip.card:
            problems.append("turn: a flipped card has no outcome but no slaps are collected")
        else:
            _check_turn(state, last_outcome, problems)
    elif phase is Phase.SLAPS:
        slaps = state._slaps
        seats = {s.seat for s in slaps}
        window = state._config.slap_window_ms
        if not centre or last_flip is None or last_flip.card != centre[-1]:
            problems.append("slaps: the card shown is not the card flipped last")
        elif state.shown_call != last_flip.call or last_flip.call != last_flip.expected:
            problems.append("slaps: the call on the card shown is not the flip's right call")
        if len(seats) != len(slaps) or len(slaps) + bin(state._passed).count("1") >= n:
            problems.append(f"slaps: {len(slaps)} slaps from {len(seats)} seats at {n} seats")
        if any(not 0 <= s.reaction_ms <= window for s in slaps):
            problems.append("slaps: a reaction time outside the slap window")
        if state._winners:
            problems.append("win: winners named while the game goes on")
    else:
        winners = state._winners
        if not winners:
            problems.append("win: the game is over without a winner")
        if state._ended_by in ("hand_emptied", "hand_limit", "time_up", "card_limit"):
            sizes = [len(h) for h in hands]
            fewest = tuple(s for s in range(n) if sizes[s] == min(sizes))
            if winners != fewest:
                problems.append(f"win: winners {winners} but the fewest cards are held by "
                                f"{fewest}")
            if state._ended_by == "hand_limit" and (
                    centre or max(sizes) < state._config.hand_limit):
                problems.append("win: a short game ended below its hand limit")
            limit = state._config.card_limit
            if state._ended_by == "card_limit" and (limit is None or state._flips < limit):
                problems.append("win: a game ended by its card limit before that many flips")
            if not events or type(events[-1]) is not Ended:
                problems.append("win: a game ended by its length has no Ended event")
            return problems
        empty = tuple(s for s in range(n) if not hands[s])
        if winners != empty:
            problems.append(f"win: winners {winners} but seats without cards are {empty}")
        if centre:
            problems.append("win: the game ended with cards in the centre")
        if last_outcome is None or last_outcome.winners != winners:
            problems.append("win: the last outcome does not name the winners")
    return problems


def _check_turn(state: SnapState, outcome: Outcome, problems: list[str]) -> None:
    hands = state._hands
    n = state._n
    seat = state._to_flip
    pending = outcome.reason is Reason.MATCH_NOT_SLAPPED
    if state._miss_pending != pending:
        problems.append(f"S9: missed match pending is {state._miss_pending} after {outcome.reason}")
    if outcome.taker is not None:
        if seat != outcome.taker or state.next_call != "Do":
            problems.append(
                f"turn: seat {outcome.taker} took the pile, yet seat {seat} is to flip "
                f"calling {state.next_call}"
            )
        if state._centre:
            problems.append("turn: the pile was taken but the centre is not empty")
        return
    expected = next(
        (s for s in ((outcome.flipper + k) % n for k in range(1, n + 1)) if hands[s]), None
    )
    if seat != expected:
        problems.append(
            f"turn: seat {seat} is to flip after seat {outcome.flipper}, not {expected}"
        )
    if state.next_call != _NEXT_CALL[outcome.call]:
        problems.append(f"call: {state.next_call} follows {outcome.call} in the cycle")
