"""Keyboard Duel speaks the games' shared protocol (:mod:`musicgames.protocol`): a game with
its settings, states that say who acts and what they may do, events with a type, refusals
with a rule, bots by level name."""

from __future__ import annotations

import json
import random

import pytest

from musicgames.duel import (
    BLACK,
    WHITE,
    DuelError,
    DuelState,
    KeyboardDuel,
    NotAGameSettingError,
    NotYourTurnError,
    Place,
    card_ids,
)
from musicgames.protocol import TABLE, Event, GameError


def test_d1_the_game_is_for_two_players_set_once() -> None:
    game = KeyboardDuel()
    assert (game.name, game.players, game.bots) == ("keyboard_duel", 2, ("casual", "sharp"))
    assert dict(game.settings()) == {"players": 2}
    for players in (1, 3, True, "2"):
        with pytest.raises(NotAGameSettingError) as refused:
            KeyboardDuel(players=players)  # type: ignore[arg-type]
        assert refused.value.rule == "D1" and isinstance(refused.value, GameError)
    with pytest.raises(NotAGameSettingError, match="rounds"):
        KeyboardDuel(rounds=5)


def test_d1_d16_to_act_and_legal_actions_by_seat() -> None:
    state = KeyboardDuel().new_game(seed=7)
    assert state.to_act() == (WHITE,) and TABLE not in state.to_act()
    assert state.legal_actions(BLACK) == ()
    assert list(state.legal_actions(WHITE)) == list(state.legal_actions())
    action = state.legal_actions(WHITE)[0]
    with pytest.raises(NotYourTurnError) as refused:
        state.apply(action, BLACK)
    assert refused.value.rule == "D7"


def test_events_have_a_type_and_plain_data() -> None:
    """Every event a game tells is a protocol Event: ``to_dict()`` is JSON with its type."""
    state = DuelState.from_position(hands=("C1 D2", "E3"), tokens=([], [(0, 2)]))
    events = state.apply(Place(card_ids("C1"), key=0), WHITE)
    assert [e.to_dict()["type"] for e in events] == ["placed", "duel_started", "dice_rolled",
                                                     "dice_rolled"]
    for event in state.story():
        assert isinstance(event, Event)
        data = event.to_dict()
        assert isinstance(data["type"], str) and json.loads(json.dumps(data)) == data
    assert {entry["type"] for entry in state.log} >= {"action", "place", "duel"}


def test_a_whole_game_through_the_protocol_alone() -> None:
    """Play games to the end with only the protocol's calls: bots choose from their seat's
    view, states save and load at random points, copies without history play on the same."""
    game = KeyboardDuel()
    rng = random.Random(3)
    for number in range(3):
        state = game.new_game(seed=random.Random(number))
        bots = {seat: game.make_bot(("casual", "sharp")[seat], seat=seat, seed=number)
                for seat in (WHITE, BLACK)}
        steps = 0
        while not state.is_terminal():
            (seat,) = state.to_act()
            action = bots[seat].choose(state.view(seat))
            assert action in state.legal_actions(seat)
            events = state.apply(action, seat)
            assert all(isinstance(e.to_dict()["type"], str) for e in events)
            steps += 1
            if rng.random() < 0.02:
                loaded = game.from_json(state.to_json())
                assert loaded.to_json() == state.to_json()
                light = state.copy(history=False)
                assert light.to_act() == state.to_act() and light.returns() == state.returns()
        assert state.to_act() == () and state.legal_actions(WHITE) == ()
        totals = state.returns()
        assert len(totals) == 2 and totals[state.winner or 0] > totals[1 - (state.winner or 0)]
        assert state.replay().to_json() == state.to_json()
        assert steps > 10


def test_make_bot_plays_its_own_seat_only() -> None:
    game = KeyboardDuel()
    state = game.new_game(seed=1)
    bot = game.make_bot("casual", seat=BLACK, seed=2)
    with pytest.raises(NotYourTurnError) as refused:
        bot.choose(state.view(WHITE))
    assert refused.value.rule == "D16" and isinstance(refused.value, DuelError)
    assert game.make_bot("random", seat=WHITE).choose(state.view(WHITE)) in state.legal_actions()
