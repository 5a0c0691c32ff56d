"""What a student's kernel pays before their game appears: the time to import musicgames.

Each figure is one fresh Python process importing a module (``python -c "import X"``, so
nothing is cached in memory; the byte-code files on disk are warm after the first run),
the median of ``--runs`` runs, and whether music21 was loaded on the way. Run it on another
copy of the project (``--source DIR``, e.g. an older commit unpacked with ``git archive``)
to compare.

    python benchmarks/bench_import.py
    python benchmarks/bench_import.py --source /tmp/musicgames-before --runs 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

MODULES = (
    "musicgames",
    "musicgames.widgets.note_snap",
    "musicgames.widgets.note_drill",
    "musicgames.lessons",
    "musicgames.widgets.keyboard_duel",
)

_PROBE = (
    "import sys, time; t = time.perf_counter(); import {module}; "
    "print(time.perf_counter() - t, 'music21' in sys.modules)"
)


def measure(module: str, source: Path, runs: int) -> tuple[float, bool]:
    env = dict(os.environ, PYTHONPATH=str(source))
    times, loaded = [], False
    for _ in range(runs + 1):  # the first run writes the byte-code: not counted
        out = subprocess.run(
            [sys.executable, "-c", _PROBE.format(module=module)],
            capture_output=True, text=True, env=env, cwd=source, check=True,
        ).stdout.split()
        times.append(float(out[0]))
        loaded = out[1] == "True"
    return statistics.median(times[1:]), loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args(argv)
    print(f"import times from {options.source.name or options.source} "
          f"(median of {options.runs} fresh processes; load {os.getloadavg()[0]:.1f})")
    print(f"  {'module':34} {'ms':>7}  music21 loaded")
    for module in MODULES:
        try:
            seconds, loaded = measure(module, options.source, options.runs)
        except subprocess.CalledProcessError:
            print(f"  {module:34} {'—':>7}  (not in this copy)")
            continue
        print(f"  {module:34} {seconds * 1000:7.0f}  {'yes' if loaded else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
