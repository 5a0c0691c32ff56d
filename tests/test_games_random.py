"""Random games of both games, played only through the game protocol, every state checked.

Each game is played to its end by :func:`musicgames.play.play_game`, the one driver, with
:func:`tests.protocol_check.check_state` in every state: the game's cards, tokens and turn
order, who may act, legal actions played on a copy, refused actions (each game's own and
those every game refuses) raising a ``GameError`` with its rule and changing nothing, copies
the same game, one return per seat. Each game is also saved and loaded at random points and
followed by a copy made along the way. Note Snap's tables are drawn at random (2–4 seats,
settings of every kind, computer players of every level and random players);
Keyboard Duel's are random legal actions.

The suite plays ``SAMPLE`` (200 games of each); ``make soak`` (``pytest --soak``) plays
``SOAK``. The guards below check that the games really went everywhere: every way a Note Snap
card can end, every kind of Keyboard Duel event, both winners, extra rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from musicgames.games import GAMES
from musicgames.play import PlayedGame
from musicgames.snap import Reason
from tests.protocol_check import Checked, play_checked

# Game 2079 of Note Snap is the first whose table ends a card with nobody able to flip: the
# last flipper takes the centre pile back (S16); game 334 of Keyboard Duel is the first in
# which the draw pile runs out and the discards are shuffled into a new one (D7).
SAMPLE = {"note_snap": (*range(200), 2079), "keyboard_duel": (*range(200), 334)}
SOAK = {"note_snap": range(10_000), "keyboard_duel": range(2_000)}
# Every entry of a Keyboard Duel game's log, by type (a reshuffled draw pile is the rarest).
EVERY_DUEL_LOG = {
    "action", "deal", "round_start", "place", "move", "shift", "merge", "duel", "duel_card",
    "lock_in", "duel_result", "end_turn", "draw", "reshuffle", "final_turn", "round_end",
    "game_over",
}


@dataclass
class Seen:
    """What the games of one run came across."""

    games: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # events, by type
    reasons: set[str] = field(default_factory=set)  # Note Snap: how each card ended
    endings: set[str | None] = field(default_factory=set)  # Note Snap: how each game ended
    log: Counter[str] = field(default_factory=Counter)  # Keyboard Duel: its log, by type
    rounds: Counter[int] = field(default_factory=Counter)
    winners: Counter[int] = field(default_factory=Counter)
    seats: set[int] = field(default_factory=set)

    def add(self, played: PlayedGame) -> None:
        self.games += 1
        self.kinds.update(played.event_counts())
        self.winners.update(played.winners)
        self.seats.add(len(played.returns))
        state = played.state
        if hasattr(state, "log"):  # Keyboard Duel
            self.log.update(entry["type"] for entry in state.log)
            self.rounds[state.round] += 1
        else:
            self.reasons |= {e.to_dict()["reason"] for e in played.events
                             if e.to_dict()["type"] == "outcome"}
            self.endings.add(state.ended_by)


def note_snap_went_everywhere(seen: Seen) -> None:
    reasons = {reason.value for reason in Reason}
    assert seen.reasons == reasons, reasons - seen.reasons  # every way a card ends (S7–S16)
    endings = {"empty_hand", "hand_emptied", "hand_limit", "time_up", "card_limit"}
    assert seen.endings == endings, endings ^ seen.endings  # and every way a game ends
    assert seen.seats == {2, 3, 4}
    assert set(seen.winners) == {0, 1, 2, 3}


def keyboard_duel_went_everywhere(seen: Seen) -> None:
    games = seen.games
    assert seen.log["duel_result"] > games and seen.kinds["duel_won"] > games
    assert min(seen.winners[seat] for seat in (0, 1)) > games // 4  # both colours win
    assert set(seen.rounds) >= {3, 4}  # some games need an extra round
    assert set(seen.log) == EVERY_DUEL_LOG, EVERY_DUEL_LOG ^ set(seen.log)


GUARDS: dict[str, Callable[[Seen], None]] = {
    "note_snap": note_snap_went_everywhere,
    "keyboard_duel": keyboard_duel_went_everywhere,
}


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_every_invariant(name: str, soak: bool) -> None:
    checked = Checked()
    seen = Seen()
    for seed in SOAK[name] if soak else SAMPLE[name]:
        seen.add(play_checked(name, seed, seen=checked))
    assert checked.states > seen.games * 10 and checked.refused > seen.games
    assert checked.saves > seen.games // 2 and checked.legal_tried > checked.states
    GUARDS[name](seen)
