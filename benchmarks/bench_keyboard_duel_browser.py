"""Keyboard Duel in the browser: click → page updated, next to a bare kernel round trip and a
minimal anywidget message round trip (the floor of any widget click), and
how responsive the page and the kernel stay while Sharp thinks.

    python benchmarks/bench_keyboard_duel_browser.py [--runs N]

The browser figures are measured in the page by ``benchmarks/figures_keyboard_duel_browser.py``
(run here with pytest and the browser tests' fixtures: JupyterLab on 127.0.0.1, Debian's
Chromium at /usr/bin/chromium). Before them, the kernel's own share is measured
here without a browser: the time the widget takes to handle one of the page's messages and
build the table it sends back (what a click costs on top of the transport).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIGURES = "benchmarks/figures_keyboard_duel_browser.py"


def kernel_share(samples: int = 200) -> tuple[float, float]:
    """Median ms to handle a place message and a take back, table built and serialised."""
    from musicgames.duel import Place
    from musicgames.widgets.keyboard_duel import play_keyboard_duel

    game = play_keyboard_duel("casual", seed=5, pause=0)
    state = game.state
    assert state is not None
    place_ms, undo_ms = [], []
    for i in range(samples):
        places = [a for a in state.legal_actions() if isinstance(a, Place)]
        started = time.perf_counter()
        game.receive({"type": "act", "seq": 2 * i + 1, "action": places[i % len(places)].to_json()})
        json.dumps(game.table)
        place_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        game.receive({"type": "undo", "seq": 2 * i + 2})
        json.dumps(game.table)
        undo_ms.append((time.perf_counter() - started) * 1000)
    game.close()
    return statistics.median(place_ms), statistics.median(undo_ms)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="browser runs (each starts Lab)")
    args = parser.parse_args()
    place, undo = kernel_share()
    print(f"kernel share of a click (handle the message, build and serialise the table): "
          f"place {place:.2f} ms, take back {undo:.2f} ms (median of 200)")
    if not Path("/usr/bin/chromium").exists():
        print("browser figures skipped: /usr/bin/chromium is not installed")
        return 0
    for run in range(1, args.runs + 1):
        result = subprocess.run(
            [sys.executable, "-m", "pytest", FIGURES, "-p", "tests.browser.conftest", "-s",
             "-q", "-p", "no:cacheprovider"],
            cwd=REPO, capture_output=True, text=True, check=False,
        )
        lines = result.stdout.splitlines()
        start = next((i for i, line in enumerate(lines) if line.startswith("Keyboard Duel in")),
                     None)
        if result.returncode != 0 or start is None:
            print(result.stdout[-3000:], result.stderr[-2000:], sep="\n")
            return 1
        print(f"run {run}: " + "\n".join(lines[start:start + 5]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
