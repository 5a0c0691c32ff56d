"""The Note Snap command line: ``python -m musicgames.snap simulate ...``.

``simulate`` plays whole games between computer players, checking every invariant after
every action, and prints what it measured (``--json`` for one JSON object). It exits with
status 1 if any invariant was broken.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from musicgames.snap.actions import CallMode
from musicgames.snap.bots import LEVELS
from musicgames.snap.config import MAX_PLAYERS, MIN_PLAYERS, SnapConfig
from musicgames.snap.errors import SnapError
from musicgames.snap.simulate import SimulationReport, simulate


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m musicgames.snap", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play games between computer players")
    sim.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    sim.add_argument(
        "--levels",
        default="intermediate",
        help=f"levels, comma-separated, one per seat or one for all: {', '.join(LEVELS)}",
    )
    sim.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    sim.add_argument(
        "--call",
        choices=[m.value for m in CallMode],
        default=CallMode.SELF.value,
        help="who calls the names: 'self' (bots may call wrongly, S10) or 'auto'",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _text(report: SimulationReport) -> str:
    wins = ", ".join(f"{name} {share:.1%}" for name, share in report.wins_by_level.items())
    rows = [
        ("games", f"{report.games}"),
        ("seconds", f"{report.seconds:.3f}"),
        ("games per second", f"{report.games_per_s:.1f}"),
        ("mean flips per game", f"{report.mean_flips:.1f}"),
        ("longest game (flips)", f"{report.max_flips}"),
        ("share of wins by level", wins),
        ("invariant violations", f"{report.invariant_violations}"),
    ]
    lines = [f"{label:<24}{value}" for label, value in rows]
    lines.extend(f"  {v}" for v in report.first_violations)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players {args.players}: 2, 3 or 4 players play Note Snap")
    if len(levels) == 1:
        levels *= args.players
    if len(levels) != args.players:
        parser.error(f"--levels gives {len(levels)} levels for {args.players} players")
    unknown = [name for name in levels if name not in LEVELS]
    if unknown:
        parser.error(f"--levels: unknown level(s) {unknown}: use {', '.join(LEVELS)}")
    if args.games < 1:
        parser.error("--games must be 1 or more")
    config = SnapConfig(players=args.players, call_modes=(CallMode(args.call),) * args.players)
    try:
        report = simulate(args.games, levels, args.seed, config=config,
                          clock=time.perf_counter)
    except SnapError as err:
        parser.error(str(err))
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(_text(report))
    return 1 if report.invariant_violations else 0


if __name__ == "__main__":
    sys.exit(main())
