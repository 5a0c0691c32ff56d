"""How soon a card's note sounds after the card is drawn: Note Snap with "hear the card" on,
in JupyterLab and Chromium (the target is under 20 ms).

The figure is measured in the page by the browser test
``test_lab_hear_the_card_starts_with_the_frame_the_card_is_drawn_in``: for each card,
``performance.now()`` when the sound module started the note minus the time of the frame the
card was painted in, and the AudioContext's own output latency on top. This script runs that
test ``--runs`` times and prints its figures.

    python benchmarks/bench_sound_onset.py
    python benchmarks/bench_sound_onset.py --runs 3
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = (
    "tests/browser/test_note_snap_browser.py"
    "::test_lab_hear_the_card_starts_with_the_frame_the_card_is_drawn_in"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="how many times to run the test")
    runs = parser.parse_args().runs
    for run in range(1, runs + 1):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", TEST, "-s", "-q", "-p", "no:cacheprovider"],
            cwd=ROOT, capture_output=True, text=True,
        )
        figures = [line for line in done.stdout.splitlines() if "hear the card" in line]
        if done.returncode != 0 or not figures:
            print(done.stdout[-2000:], done.stderr[-2000:], sep="\n")
            print(f"run {run}: the test did not pass (exit {done.returncode})")
            return 1
        for line in figures:
            print(f"run {run}: {line.strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
