"""Random games of both games, played only through the game protocol, every state checked.

Each game is played to its end by :func:`musicgames.play.play_game`, the one driver, with
:func:`tests.protocol_check.check_state` in every state: the game's cards, tokens and turn
order, who may act, every legal action played on a copy, refused actions (each game's own
and those every game refuses) raising a ``GameError`` with its rule and changing nothing,
copies and saves the same game, one return per seat. Each game is also saved and loaded at
random points and followed by a copy made along the way.

The suite plays ``SAMPLE`` games of each; ``make soak`` (``pytest --soak``) plays ``SOAK``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from musicgames.games import GAMES
from tests.protocol_check import Checked, play_checked

SAMPLE = 200
SOAK = {"note_snap": 10_000, "keyboard_duel": 2_000}


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_every_invariant(name: str, soak: bool) -> None:
    games = SOAK[name] if soak else SAMPLE
    seen = Checked()
    kinds: Counter[str] = Counter()
    winners: Counter[int] = Counter()
    players: set[int] = set()
    for seed in range(games):
        played = play_checked(name, seed, seen=seen)
        kinds.update(played.event_counts())
        winners.update(played.winners)
        players.add(len(played.returns))
    assert seen.states > games * 10 and seen.refused > games and seen.saves > games // 2
    assert seen.legal_tried > seen.states
    # every seat wins some games: the driver favours no seat
    assert set(winners) == set(range(max(players))), winners
    assert kinds, kinds
