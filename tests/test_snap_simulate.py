"""Note Snap's table-time simulation (``musicgames.snap.simulate``); many games of either
game from the command line are tested in ``tests/test_games.py``."""

from __future__ import annotations

import hashlib

import pytest

from musicgames.snap import CallMode, SnapConfig, play_game


def test_a_game_is_played_to_the_end_with_checks() -> None:
    result = play_game(["beginner", "expert"], seed=12)
    assert result.violations == () and result.winners and result.state.is_terminal()
    assert result.flips == result.state.flips and result.actions == len(result.state.actions)


@pytest.mark.parametrize(("levels", "seed", "expected"), [
    (("beginner", "intermediate", "expert", "expert"), 5, (82, 406, (2,), "9adf9af6cb3e9ae1")),
    (("expert", "expert", "expert"), 6, (97, 382, (1,), "f4dd7a1bd72f84e1")),
])
def test_seeded_games_play_the_same_actions_and_results(
        levels: tuple[str, ...], seed: int, expected: tuple[object, ...]) -> None:
    """A seeded game between computer players takes exactly the actions, and ends with exactly
    the result, it did before the engine was made faster: flips, actions, winners and a
    fingerprint of every action in order (sha256 of their reprs)."""
    config = SnapConfig(players=len(levels), call_modes=(CallMode.SELF,) * len(levels))
    result = play_game(list(levels), seed, config=config, check=False)
    fingerprint = hashlib.sha256("\n".join(map(repr, result.state.actions)).encode())
    assert (result.flips, result.actions, result.winners,
            fingerprint.hexdigest()[:16]) == expected
