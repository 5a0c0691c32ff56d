"""Note Snap's random games: what only this game has (its deal and actions replayed, its
event log, saving in the middle of a slap phase).

The random games themselves, every invariant checked after every action (all 56 cards in
the piles and the centre, turn order, the call cycle, the S9 flag, the winners), illegal
actions refused with their typed error and changing nothing, every way a card can end
(S7–S16), are played for both games by ``tests/test_games_random.py`` through the one
helper, ``tests/protocol_check.py``.
"""

from __future__ import annotations

import json
import random

import pytest

from musicgames.play import play_game as play_protocol_game
from musicgames.snap import (
    Bot,
    CallMode,
    CloseSlaps,
    Pass,
    Phase,
    SaveError,
    Slap,
    SnapConfig,
    SnapState,
    from_events,
    new_game,
    play_game,
)
from tests.protocol_check import table_for


def random_game(seed: int) -> SnapState:
    """Game ``seed`` of the random tables the invariant test plays (computer players and
    random legal actions, settings of every kind), played to the end."""
    game, bots = table_for("note_snap", seed)
    state = play_protocol_game(game, seed, bots=bots).state
    assert isinstance(state, SnapState)
    return state


# -- saving and replaying ------------------------------------------------------------------


def test_save_mid_game_load_and_continue_is_the_same_game() -> None:
    for seed in range(40):
        whole = random_game(10_000 + seed)
        actions = whole.actions
        for cut in {1, len(actions) // 3, len(actions) // 2, len(actions) - 1}:
            part = SnapState.from_deal(whole.deal, whole.config, whole.opener)
            for action in actions[:cut]:
                part.apply(action)
            text = part.to_json()
            loaded = SnapState.from_json(text)
            assert loaded.to_json() == text and loaded.events == part.events
            assert loaded.phase is part.phase and loaded.slaps == part.slaps
            for action in actions[cut:]:
                loaded.apply(action)
            assert loaded.to_json() == whole.to_json()
            assert loaded.events == whole.events and loaded.winners == whole.winners


def test_save_and_load_in_the_middle_of_a_slap_phase_with_bots_playing_on() -> None:
    uninterrupted = play_game(["beginner", "expert", "intermediate"], seed=77, check=False)
    state = SnapState.from_json(uninterrupted.state.to_json())
    assert state.to_json() == uninterrupted.state.to_json()
    # replay with fresh bots, saving and loading at every slap phase
    seeder = random.Random(77)
    config = SnapConfig(players=3, call_modes=(CallMode.SELF,) * 3)
    state = new_game(random.Random(seeder.getrandbits(64)), config)
    bots = [Bot(s, lvl, random.Random(seeder.getrandbits(64)))
            for s, lvl in enumerate(["beginner", "expert", "intermediate"])]
    while not state.is_terminal():
        seat = state.to_flip
        if seat is not None:
            state.apply(bots[seat].flip(state.view(seat)))
            continue
        state = SnapState.from_json(json.loads(state.to_json()))  # a dict loads too
        decisions = [b.decide(state.view(b.seat)) for b in bots]
        for decision in sorted((d for d in decisions if d), key=_decision_time):
            state.apply(decision)
        if state.phase is Phase.SLAPS:
            state.apply(CloseSlaps())
    assert state.to_json() == uninterrupted.state.to_json()


def test_same_seed_and_same_actions_give_the_same_game() -> None:
    for seed in range(30):
        first = random_game(20_000 + seed)
        second = random_game(20_000 + seed)
        assert first.to_json() == second.to_json() and first.events == second.events
        replayed = SnapState.from_deal(first.deal, first.config, first.opener)
        for action in first.actions:
            replayed.apply(action)
        assert replayed.to_json() == first.to_json()
    a = play_game(["expert"] * 4, seed=3, check=False)
    b = play_game(["expert"] * 4, seed=3, check=False)
    assert a.state.to_json() == b.state.to_json()
    assert play_game(["expert"] * 4, seed=4, check=False).state.to_json() != a.state.to_json()


def test_clone_is_independent() -> None:
    state = random_game(5)
    game = SnapState.from_deal(state.deal, state.config, state.opener)
    for action in state.actions[: len(state.actions) // 2]:
        game.apply(action)
    copy = game.clone()
    before = game.to_json()
    for action in state.actions[len(state.actions) // 2 :]:
        copy.apply(action)
    assert game.to_json() == before and copy.to_json() == state.to_json()


def test_the_event_log_replays_the_whole_game() -> None:
    """The events alone (deal, flips with calls, slaps with times, outcomes) rebuild it."""
    for seed in range(30):
        state = random_game(30_000 + seed)
        replayed = from_events(state.events, state.config)
        assert replayed.to_json() == state.to_json() and replayed.events == state.events
        data = [e.to_dict() for e in state.events]
        assert json.loads(json.dumps(data)) == data
    events = list(state.events)
    del events[1]  # the first flip goes missing
    with pytest.raises(SaveError, match="event log"):
        from_events(events, state.config)
    with pytest.raises(SaveError, match="Dealt"):
        from_events(events[1:], state.config)


def _decision_time(decision: Slap | Pass) -> float:
    return decision.reaction_ms if isinstance(decision, Slap) else decision.at_ms
