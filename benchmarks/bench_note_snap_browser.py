"""Note Snap in the browser: key press → slap in the page, → slap shown, → the kernel's answer
shown, next to a bare kernel round trip (JupyterLab on 127.0.0.1, Debian's Chromium).

The figures are measured in the page by ``benchmarks/figures_note_snap_browser.py``; this
script runs it ``--runs`` times with pytest and the browser tests' fixtures and prints them.

    python benchmarks/bench_note_snap_browser.py
    python benchmarks/bench_note_snap_browser.py --runs 3
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = "benchmarks/figures_note_snap_browser.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="how many times to measure")
    runs = parser.parse_args().runs
    if not Path("/usr/bin/chromium").exists():
        print("browser figures skipped: /usr/bin/chromium is not installed")
        return 0
    for run in range(1, runs + 1):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", FIGURES, "-p", "tests.browser.conftest", "-s",
             "-q", "-p", "no:cacheprovider"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )
        lines = done.stdout.splitlines()
        start = next((i for i, line in enumerate(lines) if line.startswith("Note Snap in")), None)
        if done.returncode != 0 or start is None:
            print(done.stdout[-2000:], done.stderr[-2000:], sep="\n")
            print(f"run {run}: the measurement did not finish (exit {done.returncode})")
            return 1
        print(f"run {run}: " + "\n".join(lines[start:start + 5]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
