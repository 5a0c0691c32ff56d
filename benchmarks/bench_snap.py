"""How fast Note Snap plays: 4-player games between computer players, on one core.

Run: ``python benchmarks/bench_snap.py [--games N] [--seed S]``. It prints, for a few
tables of computer players, games per second by wall-clock and by CPU time (CPU time is
steadier on a busy machine), with and without checking every invariant after every
action, and the engine's own speed replaying recorded games. Then how long games last on
screen (table time, :class:`~musicgames.snap.simulate.TablePace`) for each game-length
setting, one person (played by a computer player) against two beginners: the distribution
of minutes (10th, 25th, 50th, 75th, 90th percentile and the longest), with the person
pressing "no match" on every card or never. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from musicgames.snap import CallMode, GameLength, SnapConfig, SnapState, play_game
from musicgames.snap.simulate import TablePace, game_minutes

TABLES: dict[str, list[str]] = {
    "4 x intermediate": ["intermediate"] * 4,
    "beginner, intermediate, 2 x expert": ["beginner", "intermediate", "expert", "expert"],
    "4 x expert": ["expert"] * 4,
}


def _timed(work: Callable[[], int]) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    count = work()
    return time.perf_counter() - wall, time.process_time() - cpu, count


def bench_table(levels: list[str], games: int, seed: int, *, check: bool) -> str:
    config = SnapConfig(players=4, call_modes=(CallMode.SELF,) * 4)
    flips = 0

    def work() -> int:
        nonlocal flips
        for number in range(games):
            flips += play_game(levels, seed + number, config=config, check=check).flips
        return games

    wall, cpu, _ = _timed(work)
    return (
        f"{games / wall:8.0f} games/s wall {games / cpu:8.0f} games/s CPU "
        f"({flips / games:6.1f} flips a game)"
    )


def bench_replay(games: int, seed: int) -> str:
    recorded = [play_game(["intermediate"] * 4, seed + n, check=False).state
                for n in range(games)]
    total = sum(len(state.actions) for state in recorded)

    def work() -> int:
        for state in recorded:
            game = SnapState.from_deal(state.deal, state.config, state.opener)
            for action in state.actions:
                game.apply(action)
        return total

    wall, cpu, _ = _timed(work)
    return f"{total / cpu:10.0f} actions/s CPU ({total / games:.0f} actions a game)"


def bench_lengths(games: int, seed: int) -> list[str]:
    """Minutes per game for each length setting, a person and two beginners (3 seats)."""
    lines = []
    people = {"intermediate": "an intermediate person", "beginner": "a beginner person"}
    for length in GameLength:
        config = SnapConfig(players=3, call_modes=(CallMode.AUTO, CallMode.SELF, CallMode.SELF),
                            length=length)
        for person, label in people.items():
            for passes, how in ((True, 'presses "no match"'), (False, "never passes")):
                pace = TablePace(flip_ms=800.0, passes=(passes, True, True))
                minutes = game_minutes([person, "beginner", "beginner"], games, seed,
                                       config=config, pace=pace)
                q = statistics.quantiles(minutes, n=20)
                lines.append(
                    f"  {length.value:<8} {label:<24} {how:<18}  p10 {q[1]:4.1f}  p25 {q[4]:4.1f}"
                    f"  median {statistics.median(minutes):4.1f}  p75 {q[14]:4.1f}"
                    f"  p90 {q[17]:4.1f}  max {max(minutes):4.1f} min"
                )
    lesson = SnapConfig(players=2, call_modes=(CallMode.AUTO, CallMode.SELF),
                        length=GameLength.SHORT, card_limit=40)
    for person, label in people.items():
        minutes = game_minutes([person, "beginner"], games, seed, config=lesson,
                               pace=TablePace(flip_ms=800.0, passes=(False, True)))
        lines.append(f"  lesson 3 (short, ends after 40 cards), {label} never passing, "
                     f"against a beginner: median {statistics.median(minutes):4.1f}  "
                     f"max {max(minutes):4.1f} min")
    v1 = SnapConfig(players=3, call_modes=(CallMode.AUTO, CallMode.SELF, CallMode.SELF))
    minutes = game_minutes(["intermediate", "beginner", "beginner"], games, seed, config=v1,
                           pace=TablePace(early_close=False, settle_ms=0.0))
    lines.append(f"  classic without the early close (v1), an intermediate person: median "
                 f"{statistics.median(minutes):4.1f} min")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Note Snap, 4 players, {args.games} games per line, one core")
    for check, label in ((False, "bots only   "), (True, "+ invariants")):
        for name, levels in TABLES.items():
            figures = bench_table(levels, args.games, args.seed, check=check)
            print(f"  {label}  {name:<36}{figures}")
    print(f"  engine replaying recorded games{'':<20}{bench_replay(args.games // 4, args.seed)}")
    print(f"Game length on screen (table time), {args.games // 4} games a line; the timed game "
          "stops at the first flip after 5 minutes")
    for line in bench_lengths(args.games // 4, args.seed):
        print(line)


if __name__ == "__main__":
    main()
