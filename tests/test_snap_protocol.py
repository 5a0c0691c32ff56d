"""Note Snap speaks the protocol both games share (musicgames.protocol): who may act, every
legal action of a seat (slaps included), apply(action, seat), returns, copies, saves, the
Game object with its bots, and a random game played against the protocol alone."""

from __future__ import annotations

import json
import random

import pytest

from musicgames.protocol import TABLE, GameError
from musicgames.protocol import Event as EventProtocol
from musicgames.snap import (
    LEVELS,
    ActionError,
    CloseSlaps,
    ConfigError,
    Flip,
    GameLength,
    NoteSnap,
    Pass,
    Phase,
    SeatError,
    Slap,
    SnapConfig,
    SnapError,
    SnapState,
    TimeUp,
    check_invariants,
    new_game,
    stacked_deal,
)

DO, RE, MI = 0, 8, 16


def test_s5_s14_to_act_names_the_flipper_then_every_undecided_seat_and_the_table() -> None:
    state = NoteSnap(players=3).new_game(seed=5)
    assert state.to_act() == (0,)
    state.apply(Flip(0), 0)
    assert state.to_act() == (0, 1, 2, TABLE)
    state.apply(Slap(2, 400.0), 2)
    state.apply(Pass(0, 500.0), 0)
    assert state.to_act() == (1, TABLE)
    state.apply(CloseSlaps(), TABLE)
    assert state.phase is Phase.FLIP and state.to_act() == (state.to_flip,)


def test_a_timed_game_lets_the_table_end_it_between_two_cards() -> None:
    state = NoteSnap(players=2, length="timed").new_game(seed=1)
    assert state.to_act() == (0, TABLE)
    assert list(state.legal_actions(TABLE)) == [TimeUp()]
    events = state.apply(TimeUp(), TABLE)
    assert state.is_terminal() and state.to_act() == ()
    assert [e.to_dict()["type"] for e in events] == ["ended"]


def test_legal_actions_of_a_seat_list_its_slaps_and_passes_and_each_one_applies() -> None:
    state = NoteSnap(players=3, call_modes=("self", "auto", "auto")).new_game(seed=2)
    flips = state.legal_actions(0)
    assert list(flips) == [Flip(0, name) for name in ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")]
    assert list(state.legal_actions(1)) == [] and list(state.legal_actions(TABLE)) == []
    state.apply(Flip(0, "Do"), 0)
    window = state.config.slap_window_ms
    mine = state.legal_actions(1)
    assert {type(a) for a in mine} == {Slap, Pass}
    assert all(a.seat == 1 for a in mine)  # type: ignore[union-attr]
    assert Slap(1, 0.0) in mine and Slap(1, window) in mine and Slap(1, 123.4) in mine
    assert Slap(2, 100.0) not in mine and CloseSlaps() not in mine
    assert Slap(1, window + 1) not in mine
    assert list(state.legal_actions(TABLE)) == [CloseSlaps()]
    everything = state.legal_actions()
    assert set(everything) == {*state.legal_actions(0), *mine, *state.legal_actions(2),
                               CloseSlaps()}
    for seat in state.to_act():
        for action in state.legal_actions(seat):
            state.copy().apply(action, seat)  # every listed action is legal
    with pytest.raises(SeatError) as caught:
        state.legal_actions(3)
    assert caught.value.rule == "S3"


def test_apply_with_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    state = new_game(3, SnapConfig(players=2))
    before = state.to_json()
    for action, seat in ((Flip(0), 1), (Flip(0), TABLE), (CloseSlaps(), 0)):
        with pytest.raises(SnapError) as caught:
            state.apply(action, seat)
        assert isinstance(caught.value, GameError) and state.to_json() == before
    with pytest.raises(ActionError):
        state.apply(Flip(0), 1)
    with pytest.raises(SeatError):
        state.apply(Flip(0), 7)
    assert not state.is_legal(Flip(0), 1) and state.is_legal(Flip(0), 0)
    state.check(Flip(0), 0)
    with pytest.raises(ActionError):
        state.check(Flip(0), 1)
    assert state.to_json() == before


def test_events_speak_the_protocol() -> None:
    state = new_game(8, SnapConfig(players=2))
    events = [*state.events, *state.apply(Flip(0), 0), *state.apply(CloseSlaps(), TABLE)]
    assert all(isinstance(e, EventProtocol) for e in events)
    assert [e.to_dict()["type"] for e in events][:2] == ["dealt", "flipped"]


def test_s11_returns_one_number_per_seat_a_win_for_each_winner() -> None:
    piles = stacked_deal([[RE], []])
    piles[1] = piles[0][:-1] + piles[1]
    piles[0] = piles[0][-1:]
    state = SnapState.from_deal(piles, SnapConfig(players=2))
    assert state.returns() == (0.0, 0.0)
    state.apply(Flip(0), 0)
    state.apply(Slap(1, 250.0), 1)  # a false slap (S8): seat 1 takes the pile, seat 0 wins
    assert state.returns() == (0.0, 0.0)
    state.apply(CloseSlaps(), TABLE)
    assert state.is_terminal() and state.returns() == (1.0, 0.0)


def test_a_copy_without_history_plays_on_alone_and_still_saves() -> None:
    state = new_game(11, SnapConfig(players=3))
    for _ in range(5):
        state.apply(Flip(state.to_flip))  # type: ignore[arg-type]
        state.apply(CloseSlaps())
    state.apply(Flip(state.to_flip))  # type: ignore[arg-type]
    short = state.copy(history=False)
    assert len(short.events) < len(state.events) and short.to_json() == state.to_json()
    assert check_invariants(short) == []
    before = state.to_json()
    short.apply(CloseSlaps(), TABLE)
    assert state.to_json() == before and check_invariants(short) == []
    assert SnapState.from_json(short.to_json()).to_json() == short.to_json()


def test_a_save_is_the_game_as_compact_json_however_often_it_was_saved_and_copied() -> None:
    """The saved actions' text grows with the game and a copy shares it: saved at random
    points, on the game and on copies that play on apart, a save is always ``to_dict()``
    as compact JSON and loads back as the same game."""
    rng = random.Random(5)
    games = [new_game(3, SnapConfig(players=3))]
    for _ in range(1000):
        playing = [g for g in games if not g.is_terminal()]
        if not playing:
            break
        game = playing[-1] if rng.random() < 0.8 else rng.choice(playing)
        seat = rng.choice(game.to_act())
        game.apply(game.legal_actions(seat).sample(rng), seat)
        if rng.random() < 0.3:
            assert game.to_json() == json.dumps(game.to_dict(), separators=(",", ":"))
        if rng.random() < 0.02:
            games.append(game.copy(history=rng.random() < 0.5))
    assert len(games) > 5 and max(len(g.actions) for g in games) > 100
    for game in games:
        text = game.to_json()
        assert text == json.dumps(game.to_dict(), separators=(",", ":"))
        assert SnapState.from_json(text).to_json() == text


def test_the_game_checks_its_settings_once_and_deals_from_an_int_or_a_random() -> None:
    snap = NoteSnap(players=3, slap_window_ms=1500)
    assert snap.name == "note_snap" and snap.players == 3
    assert snap.settings()["slap_window_ms"] == 1500.0
    assert snap.new_game(seed=4).to_json() == snap.new_game(seed=random.Random(4)).to_json()
    assert snap.new_game(seed=4).to_json() != snap.new_game(seed=5).to_json()
    with pytest.raises(ConfigError) as caught:
        NoteSnap(players=5)
    assert caught.value.rule == "S3"
    with pytest.raises(ConfigError, match="not all Note Snap settings"):
        NoteSnap(speed=3)
    with pytest.raises(ConfigError, match="random.Random"):
        snap.new_game(seed="4")  # type: ignore[arg-type]
    state = snap.new_game(seed=9)
    state.apply(Flip(0), 0)
    assert snap.from_json(state.to_json()).to_json() == state.to_json()
    made = NoteSnap.of(SnapConfig(players=2))
    assert made.players == 2 and made.settings() == NoteSnap(players=2).settings()
    with pytest.raises(ConfigError):
        NoteSnap.of({"players": 2})  # type: ignore[arg-type]


def test_s17_the_game_names_its_bots_and_makes_each_for_a_seat() -> None:
    snap = NoteSnap(players=2)
    assert snap.bots == tuple(LEVELS) == ("beginner", "intermediate", "expert")
    state = snap.new_game(seed=3)
    bot = snap.make_bot("expert", seat=0, seed=1)
    assert bot.choose(state.view(0)) == Flip(0)
    assert snap.make_bot("expert", seat=0, seed=1).speed == bot.speed  # the same seed
    with pytest.raises(ConfigError) as caught:
        snap.make_bot("grandmaster", seat=0)
    assert caught.value.rule == "S17"
    with pytest.raises(ConfigError) as caught:
        snap.make_bot("expert", seat=2)
    assert caught.value.rule == "S3"


def test_s14_a_bot_that_passed_waits() -> None:
    state = NoteSnap(players=3).new_game(seed=6)
    state.apply(Flip(0), 0)
    state.apply(Pass(1, 300.0), 1)
    for seed in range(20):
        assert NoteSnap(players=3).make_bot("beginner", seat=1, seed=seed).choose(
            state.view(1)) is None


def _random_protocol_game(seed: int, players: int, length: GameLength) -> SnapState:
    """A game played only through the protocol: a random seat of ``to_act()`` takes a
    random action of its ``legal_actions(seat)``; saved and reloaded now and then. Random
    play rarely empties a hand (hands drift to and fro), so the game also ends after a
    number of cards (``card_limit``)."""
    rng = random.Random(seed)
    snap = NoteSnap(players=players, length=length, card_limit=rng.choice((40, 120)),
                    call_modes=tuple(rng.choice(("auto", "self")) for _ in range(players)))
    state = snap.new_game(seed=rng.getrandbits(32))
    for _ in range(20_000):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act())
        if seat == TABLE and length is GameLength.TIMED and state.phase is Phase.FLIP \
                and rng.random() < 0.98:
            continue  # the time is rarely up
        action = rng.choice(list(state.legal_actions(seat)))
        events = state.apply(action, seat)
        assert events and all("type" in e.to_dict() for e in events)
        assert check_invariants(state) == []
        assert len(state.returns()) == players
        if rng.random() < 0.005:
            text = state.to_json()
            state = snap.from_json(json.loads(text)) if rng.random() < 0.5 else \
                snap.from_json(text)
            assert state.to_json() == text
    assert state.is_terminal() and state.to_act() == ()
    assert sum(state.returns()) >= 1
    return state


@pytest.mark.parametrize("seed", range(12))
def test_random_games_played_through_the_protocol_alone_end_with_every_invariant(
    seed: int,
) -> None:
    length = (GameLength.CLASSIC, GameLength.SHORT, GameLength.TIMED)[seed % 3]
    _random_protocol_game(seed, 2 + seed % 3, length)
