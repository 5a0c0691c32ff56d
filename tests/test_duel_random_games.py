"""Keyboard Duel's random games: what only this game has (undo, replaying the actions).

The random games themselves, every invariant checked in every state (cards, tokens, scores
recounted, whose decision it is, illegal actions refused and changing nothing, undo, saving
and loading in mid-game, replays), are played for both games by ``tests/test_games_random.py``
through the one helper, ``tests/protocol_check.py``.
"""

from __future__ import annotations

import random

from musicgames.duel import DuelState


def play_random_game(seed: int) -> DuelState:
    """Random legal actions from ``DuelState.new_game(seed)`` to the end."""
    state = DuelState.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_random_game_undo_all_the_way_back_restores_the_start():
    state = play_random_game(7)
    start = DuelState.new_game(7).to_json()
    while state.actions():
        state.undo()
    assert state.to_json() == start


def test_same_seed_and_same_actions_give_the_same_game():
    first = play_random_game(12)
    again = DuelState.new_game(12)
    for action in first.actions():
        again.apply(action)
    assert again.to_json() == first.to_json()
    assert again.log == first.log
    other_seed = DuelState.new_game(13)
    assert other_seed.to_json() != DuelState.new_game(12).to_json()
