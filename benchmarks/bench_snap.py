"""How fast Note Snap plays: 4-player games between computer players, on one core.

Run: ``python benchmarks/bench_snap.py [--games N] [--seed S]``. It prints, for a few
tables of computer players, games per second by wall-clock and by CPU time (CPU time is
steadier on a busy machine), with and without checking every invariant after every
action, and the engine's own speed replaying recorded games. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from musicgames.snap import CallMode, SnapConfig, SnapState, play_game

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


if __name__ == "__main__":
    main()
