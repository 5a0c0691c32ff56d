"""The ``python -m musicgames.snap simulate`` command and the simulation it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from musicgames.snap import ConfigError, play_game, simulate
from musicgames.snap.__main__ import main

KEYS = {
    "games",
    "seconds",
    "games_per_s",
    "mean_flips",
    "max_flips",
    "wins_by_level",
    "invariant_violations",
}


def test_simulate_json_prints_exactly_the_issue_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["simulate", "--players", "4", "--levels", "beginner,intermediate,expert,expert",
         "--games", "40", "--seed", "9", "--json"]
    )
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and set(report) == KEYS
    assert report["games"] == 40 and report["invariant_violations"] == 0
    assert report["seconds"] > 0 and report["games_per_s"] > 0
    assert report["max_flips"] >= report["mean_flips"] > 0
    assert set(report["wins_by_level"]) == {"beginner", "intermediate", "expert"}
    assert sum(report["wins_by_level"].values()) == pytest.approx(1.0, abs=1e-3)


def test_simulate_text_report_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--levels", "expert", "--games", "10"]) == 0
    out = capsys.readouterr().out
    for label in ("games", "seconds", "games per second", "mean flips per game",
                  "longest game", "share of wins by level", "invariant violations"):
        assert label in out


def test_the_same_seed_gives_the_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--players", "3", "--levels", "beginner,expert,intermediate",
            "--games", "25", "--seed", "4", "--json"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    for key in ("mean_flips", "max_flips", "wins_by_level", "invariant_violations"):
        assert first[key] == second[key]


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--players", "5"],
        ["simulate", "--players", "3", "--levels", "expert,expert"],
        ["simulate", "--levels", "wizard"],
        ["simulate", "--games", "0"],
        ["simulate", "--call", "shout"],
        ["play"],
    ],
)
def test_bad_arguments_stop_with_a_usage_error(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    assert "error" in capsys.readouterr().err


def test_the_module_runs_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "musicgames.snap", "simulate", "--players", "4", "--levels",
         "intermediate", "--games", "5", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == KEYS


def test_a_game_is_played_to_the_end_with_checks() -> None:
    result = play_game(["beginner", "expert"], seed=12)
    assert result.violations == () and result.winners and result.state.is_terminal()
    assert result.flips == result.state.flips and result.actions == len(result.state.actions)
    with pytest.raises(ConfigError, match="games"):
        simulate(0, ["expert", "expert"])
