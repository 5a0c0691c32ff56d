"""Note Snap's table-time simulation (``musicgames.snap.simulate``); many games of either
game from the command line are tested in ``tests/test_games.py``."""

from __future__ import annotations

from musicgames.snap import play_game


def test_a_game_is_played_to_the_end_with_checks() -> None:
    result = play_game(["beginner", "expert"], seed=12)
    assert result.violations == () and result.winners and result.state.is_terminal()
    assert result.flips == result.state.flips and result.actions == len(result.state.actions)
