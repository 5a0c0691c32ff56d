"""Keyboard Duel from the command line: tournaments between computer players.

``python -m musicgames.duel tournament --a sharp --b casual --games 400 --seed 1`` plays
400 games, player a taking White in even-numbered games and Black in odd ones, and prints
the wins, a's win rate with its 95 % (Wilson) interval, the mean final totals, each
side's think time per decision (median and 99th percentile, ms) and games per second.
``--json`` prints the same figures as one JSON object.

Each game's deal comes from the seed and the game's number, and each player gets its
own seeded generator, so a tournament replays exactly; only the times change.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from musicgames.duel.bots import BOT_NAMES, Bot, make_bot
from musicgames.duel.state import DuelState

__all__ = ["TournamentResult", "main", "play_tournament", "wilson_interval"]


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95 % with the default ``z``).

    >>> low, high = wilson_interval(80, 100)
    >>> round(low, 3), round(high, 3)
    (0.711, 0.867)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


def _percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0–1) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass
class TournamentResult:
    """What a tournament measured; :meth:`to_json` gives the ``--json`` object."""

    name_a: str
    name_b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    score_a: int = 0
    score_b: int = 0
    think_a: list[float] = field(default_factory=list)  # seconds per decision
    think_b: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def win_rate_a(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures: exactly the keys the issue names."""
        low, high = wilson_interval(self.wins_a, self.games)
        return {
            "games": self.games,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "win_rate_a": round(self.win_rate_a, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score_a": round(self.score_a / self.games, 2) if self.games else 0.0,
            "mean_score_b": round(self.score_b / self.games, 2) if self.games else 0.0,
            "think_ms": {"a": _times(self.think_a), "b": _times(self.think_b)},
            "games_per_s": round(self.games / self.seconds, 2) if self.seconds else 0.0,
        }

    def report(self) -> str:
        """The figures as a few lines of text."""
        data = self.to_json()
        low, high = data["ci95"]
        think = data["think_ms"]
        return "\n".join([
            f"Keyboard Duel tournament: {self.name_a} (a) vs {self.name_b} (b), "
            f"{self.games} games, colours alternating",
            f"wins            a {self.wins_a:5d}    b {self.wins_b:5d}",
            f"win rate of a   {100 * self.win_rate_a:.1f} %   "
            f"(95 % interval {100 * low:.1f}–{100 * high:.1f} %, Wilson)",
            f"mean score      a {data['mean_score_a']:7.2f}  b {data['mean_score_b']:7.2f}",
            "think time per decision (ms)     median      p99",
            f"  a {self.name_a:<28}{think['a']['median']:8.3f} {think['a']['p99']:8.3f}",
            f"  b {self.name_b:<28}{think['b']['median']:8.3f} {think['b']['p99']:8.3f}",
            f"games per second  {data['games_per_s']:.1f}",
        ])


def _times(seconds: Sequence[float]) -> dict[str, float]:
    ms = [s * 1000.0 for s in seconds]
    median = statistics.median(ms) if ms else 0.0
    return {"median": round(median, 4), "p99": round(_percentile(ms, 0.99), 4)}


def play_tournament(name_a: str, name_b: str, games: int, seed: int = 0) -> TournamentResult:
    """Play ``games`` games between two computer players, a as White in even games.

    >>> result = play_tournament("random", "random", 2, seed=3)
    >>> result.games, result.wins_a + result.wins_b
    (2, 2)
    """
    if games < 1:
        raise ValueError(f"games={games!r}: a tournament needs at least one game")
    master = random.Random(seed)
    result = TournamentResult(make_bot(name_a).name, make_bot(name_b).name)
    clock = time.perf_counter
    start = clock()
    for number in range(games):
        game = DuelState.new_game(seed=master.getrandbits(64))
        a_seat = number % 2
        bot_a: Bot = make_bot(name_a, master.getrandbits(64))
        bot_b: Bot = make_bot(name_b, master.getrandbits(64))
        players = (bot_a, bot_b) if a_seat == 0 else (bot_b, bot_a)
        thinks = (result.think_a, result.think_b) if a_seat == 0 else (result.think_b,
                                                                        result.think_a)
        while not game.is_terminal():
            seat = game.seat_to_act
            assert seat is not None
            view = game.view(seat)
            before = clock()
            action = players[seat].choose(view)
            thinks[seat].append(clock() - before)
            game.apply(action, seat)
        result.games += 1
        if game.winner == a_seat:
            result.wins_a += 1
        else:
            result.wins_b += 1
        result.score_a += game.totals[a_seat]
        result.score_b += game.totals[1 - a_seat]
    result.seconds = clock() - start
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.duel",
        description="Keyboard Duel from the command line.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    tour = commands.add_parser(
        "tournament", help="play computer players against each other",
        description="Play N games between two computer players, alternating colours.",
    )
    tour.add_argument("--a", default="sharp", type=str.lower, choices=BOT_NAMES,
                      help="player a (default: sharp)")
    tour.add_argument("--b", default="casual", type=str.lower, choices=BOT_NAMES,
                      help="player b (default: casual)")
    tour.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    tour.add_argument("--seed", type=int, default=0, help="seed of the deals and players")
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games}: play at least one game")
    result = play_tournament(args.a, args.b, args.games, args.seed)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
