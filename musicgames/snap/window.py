"""When a card's slap window closes (S14): the one home of its early close.

The window closes when its time is over, or early, once every seat has either slapped
or passed (S14 v2). The engine judges a card then; a table that runs a game on screen,
and a simulation that gives games a length, ask the same functions when that is.

>>> closes_early(3, 2), closes_early(3, 3)
(False, True)
>>> early_close_ms(3, {0: 640.0, 1: 910.5, 2: 700.0})     # the last decision closes it
910.5
>>> early_close_ms(3, {0: 640.0, 2: 700.0}) is None        # seat 1 has not decided yet
True
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["closes_early", "early_close_ms"]


def closes_early(players: int, decided: int) -> bool:
    """True when the slap window closes before its time (S14 v2): ``decided`` seats of
    ``players`` have slapped or passed, and that is every seat."""
    return decided >= players


def early_close_ms(players: int, decisions: Mapping[int, float]) -> float | None:
    """When the window of a card closes early (S14 v2), in ms from the card's showing: at
    the last decision, once ``decisions`` (seat → when it slapped or passed) holds every
    seat of ``players``; ``None`` while a seat has not decided (the window then runs its
    whole length)."""
    if not closes_early(players, len(decisions)):
        return None
    return max(decisions.values(), default=0.0)
