"""Both games by name (``musicgames.games``), the one driver that plays them
(``musicgames.play``) and the one command line: ``python -m musicgames.games``."""

from __future__ import annotations

import ast
import contextlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import musicgames
from musicgames.games import GAMES, TABLE, GameError, load_game, main
from musicgames.play import play_game, play_games, protocol_problems, wilson_interval
from musicgames.protocol import TABLE as PROTOCOL_TABLE
from musicgames.protocol import GameError as ProtocolGameError

PACKAGE = Path(musicgames.__file__).parent
# The figures each command prints with --json: those the two commands of each game printed
# before (Note Snap's simulate, Keyboard Duel's tournament), in one report.
KEYS = {
    "game", "games", "players", "seconds", "games_per_s", "wins_a", "wins_b", "win_rate_a",
    "ci95", "mean_score_a", "mean_score_b", "wins_by_bot", "think_ms", "events", "unfinished",
    "invariant_violations",
}


def test_the_games_by_name_and_what_they_share() -> None:
    assert GAMES == ("note_snap", "keyboard_duel")
    assert GameError is ProtocolGameError and TABLE == PROTOCOL_TABLE == -1
    for name in GAMES:
        game = load_game(name)
        assert game.name == name and game.bots and game.players >= 2
        state = game.new_game(seed=3)
        assert state.to_act() and not state.is_terminal()
        assert dict(load_game(name, **dict(game.settings())).settings()) == dict(game.settings())


def test_an_unknown_game_is_refused_naming_it_and_the_games() -> None:
    for name in ("chess", "Note Snap", None, 3):
        with pytest.raises(GameError) as refused:
            load_game(name)  # type: ignore[arg-type]
        message = str(refused.value)
        assert repr(name) in message and "note_snap" in message and "keyboard_duel" in message


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_setting_is_refused_naming_it_and_the_settings(name: str) -> None:
    with pytest.raises(GameError) as refused:
        load_game(name, colour="red")
    message = str(refused.value)
    assert "colour" in message
    for setting in load_game(name).settings():
        assert setting in message, (setting, message)


def test_a_setting_is_checked_once_by_the_game() -> None:
    with pytest.raises(GameError) as refused:
        load_game("note_snap", players=5)
    assert refused.value.rule == "S3" and "players" in str(refused.value)
    with pytest.raises(GameError) as refused:
        load_game("keyboard_duel", players=3)
    assert refused.value.rule == "D1"
    assert load_game("note_snap", players=3).players == 3


def test_the_engines_never_import_the_games_module_or_the_driver() -> None:
    for engine in ("snap", "duel"):
        for path in sorted((PACKAGE / engine).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                for imported in names:
                    assert not imported.startswith(("musicgames.games", "musicgames.play")), (
                        path.name, imported)
    # and the driver knows neither engine: it speaks only the protocol
    tree = ast.parse((PACKAGE / "play.py").read_text(encoding="utf-8"))
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {m for m in modules if m and m.startswith("musicgames")} == {"musicgames.protocol"}


# -- the driver -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_random_game_is_played_to_the_end_and_replays_from_its_seed(name: str) -> None:
    game = load_game(name)
    first = play_game(game, 11)
    assert first.finished and first.state.is_terminal() and first.state.to_act() == ()
    assert len(first.returns) == game.players and first.winners
    assert first.moves and first.events and not first.problems
    again = play_game(game, 11)
    assert again.state.to_json() == first.state.to_json() and again.moves == first.moves
    assert play_game(game, 12).state.to_json() != first.state.to_json()
    assert play_game(game, random.Random(11)).state.to_json() == first.state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_replay_is_one_operation_of_both_games_the_actions_played_again(name: str) -> None:
    """``state.replay()``: a new state, made by playing the state's actions again from its
    start, is the same game, mid-game and at the end; playing on it leaves the first alone."""
    game = load_game(name)
    rng = random.Random(4)
    state = game.new_game(seed=9)
    for step in range(10**5):
        if state.is_terminal():
            break
        seat = rng.choice(state.to_act())
        state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        if step in (0, 7, 60):
            again = state.replay()
            assert again is not state and again.to_json() == state.to_json()
            before = state.to_json()
            seat = rng.choice(again.to_act())
            again.apply(rng.choice(list(again.legal_actions(seat))), seat)
            assert state.to_json() == before != again.to_json()
    assert state.is_terminal() and state.replay().to_json() == state.to_json()
    light = state.copy(history=False)  # it replays, or says it has no actions to play again
    with contextlib.suppress(GameError):
        assert light.replay().to_json() == state.to_json()
    loaded = game.from_json(state.to_json())
    assert loaded.replay().to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_the_driver_replays_a_checked_game_and_says_when_it_differs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_game(name)
    assert not play_game(game, 3, check=lambda state: []).problems
    state_class = type(game.new_game(seed=1))
    monkeypatch.setattr(state_class, "replay", lambda self: game.new_game(seed=1))
    problems = play_game(game, 3, check=lambda state: []).problems
    assert problems and problems[0].startswith("replay:"), problems


@pytest.mark.parametrize("name", GAMES)
def test_computer_players_play_a_game_through_the_protocol(name: str) -> None:
    game = load_game(name)
    levels = [game.bots[seat % len(game.bots)] for seat in range(game.players)]
    ticks = iter(range(10**9))
    played = play_game(game, 5, bots=levels, clock=lambda: float(next(ticks)),
                       check=lambda state: protocol_problems(state, game.players))
    assert played.finished and not played.problems
    assert all(played.think_s[seat] for seat in range(game.players))
    assert all(t == 1.0 for times in played.think_s.values() for t in times)
    again = play_game(game, 5, bots=levels)
    assert again.state.to_json() == played.state.to_json()
    # a seat given no level plays at random beside the others
    mixed = play_game(game, 5, bots=[None, *levels[1:]])
    assert mixed.finished and not mixed.think_s[0]


def test_the_driver_refuses_a_wrong_number_of_players_or_games() -> None:
    game = load_game("keyboard_duel")
    with pytest.raises(GameError, match="3 players named for a 2-player game"):
        play_game(game, 1, bots=["sharp", "sharp", "sharp"])
    with pytest.raises(GameError, match="games=0"):
        play_games(game, ["sharp", "casual"], 0)
    with pytest.raises(GameError, match="seed"):
        play_game(game, "seven")  # type: ignore[arg-type]


def test_a_tournament_passes_the_seats_round() -> None:
    game = load_game("keyboard_duel")
    report = play_games(game, ["casual", None], 4, seed=8, rotate=True)
    assert report.games == 4 and report.wins[0] + report.wins[1] == 4
    assert report.players == ("casual", "random")
    again = play_games(game, ["casual", None], 4, seed=8, rotate=True)
    assert again.to_dict() == report.to_dict()  # no clock: the same figures, to the digit


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.25 < high < 0.35
    low, high = wilson_interval(400, 400)
    assert high == 1.0 and low > 0.99
    assert wilson_interval(50, 100)[0] == pytest.approx(1 - wilson_interval(50, 100)[1])


# -- the command line -------------------------------------------------------------------------


def test_simulate_json_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["simulate", "note_snap", "--players", "4", "--bots",
                   "beginner,intermediate,expert,expert", "--games", "40", "--seed", "9",
                   "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and set(report) >= KEYS | {"wins_c", "wins_d", "mean_score_d"}
    assert report["game"] == "note_snap" and report["games"] == 40
    assert report["invariant_violations"] == 0 and report["unfinished"] == 0
    assert report["seconds"] > 0 and report["games_per_s"] > 0
    flips = report["events"]["flipped"]
    assert flips["most"] >= flips["mean"] > 0  # the mean and longest game, in flips
    assert set(report["wins_by_bot"]) == {"beginner", "intermediate", "expert"}
    assert sum(report["wins_by_bot"].values()) == pytest.approx(1.0, abs=1e-3)
    assert report["players"] == {"a": "beginner", "b": "intermediate", "c": "expert",
                                 "d": "expert"}


def test_tournament_json_prints_the_duel_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "keyboard_duel", "--bots", "casual,random", "--games", "4",
                 "--seed", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == KEYS
    assert report["wins_a"] + report["wins_b"] == 4
    low, high = report["ci95"]
    assert 0.0 <= low <= report["win_rate_a"] <= high <= 1.0
    assert report["win_rate_a"] == pytest.approx(report["wins_a"] / 4, abs=1e-4)
    assert set(report["think_ms"]) == {"a", "b"}
    for side in ("a", "b"):
        assert set(report["think_ms"][side]) == {"median", "p99"}
        assert 0 <= report["think_ms"][side]["median"] <= report["think_ms"][side]["p99"]
    assert report["games_per_s"] > 0
    assert report["mean_score_a"] > 0 and report["events"]["duel_won"]["mean"] > 0
    main(["tournament", "keyboard_duel", "--bots", "casual,random", "--games", "4",
          "--seed", "8", "--json"])
    again = json.loads(capsys.readouterr().out)
    for key in ("wins_a", "wins_b", "mean_score_a", "mean_score_b", "events", "ci95"):
        assert again[key] == report[key]


def test_the_text_report_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "note_snap", "--players", "2", "--bots", "expert,beginner",
                 "--games", "6"]) == 0
    out = capsys.readouterr().out
    for label in ("note_snap: 6 games", "games per second", "wins", "mean score",
                  "think median", "p99", "win rate of a", "95 % interval",
                  "share of wins by level", "events per game", "flipped",
                  "invariant violations"):
        assert label in out, label


def test_the_same_seed_gives_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "note_snap", "--players", "3", "--bots", "beginner,expert,intermediate",
            "--games", "25", "--seed", "4", "--set", 'call_modes=["self","self","self"]',
            "--json"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    for key in ("events", "wins_by_bot", "invariant_violations", "mean_score_a"):
        assert first[key] == second[key]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["simulate", "note_snap", "--players", "5"], "players"),
        (["simulate", "note_snap", "--players", "3", "--bots", "expert,expert"], "--bots"),
        (["simulate", "note_snap", "--bots", "wizard"], "wizard"),
        (["simulate", "note_snap", "--games", "0"], "--games"),
        (["simulate", "note_snap", "--set", "call_modes=shout"], "call_modes"),
        (["simulate", "note_snap", "--set", "colour=red"], "colour"),
        (["simulate", "note_snap", "--set", "players"], "players"),
        (["tournament", "keyboard_duel", "--bots", "expert,casual"], "expert"),
        (["tournament", "keyboard_duel", "--players", "3"], "players"),
        (["simulate", "chess"], "chess"),
        (["play"], "play"),
    ],
)
def test_bad_arguments_stop_with_a_usage_error_naming_what_is_wrong(
    args: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "error" in err and named in err, err


def test_the_module_runs_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "musicgames.games", "simulate", "note_snap", "--players", "4",
         "--bots", "intermediate", "--games", "5", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) >= KEYS
    done = subprocess.run(
        [sys.executable, "-m", "musicgames.games", "tournament", "keyboard_duel", "--bots",
         "random,random", "--games", "2", "--seed", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "keyboard_duel: 2 games, a random, b random" in out
    for words in ("wins", "win rate of a", "95 % interval", "mean score", "median", "p99",
                  "games per second"):
        assert words in out
