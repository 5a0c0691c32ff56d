"""The static site (JupyterLite, Python in the browser): its size, the time from clicking a
game on the start page to a card the student can play (cold: nothing in the browser's
cache; warm: the site's files cached), and the computer players' think time in the browser
against this computer's Python.

The site is the one the browser test builds (``build/lite/site``; built first if musicgames
changed), served on 127.0.0.1, in Debian's Chromium resolving no other host.

    python benchmarks/bench_lite.py
    python benchmarks/bench_lite.py --games 4
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CACHE = ROOT / "build" / "lite"
SITE = CACHE / "site"
CHROMIUM = Path("/usr/bin/chromium")
START_TIMEOUT_MS = 300_000
MARK = "MG-THINK "

#: Run in both Pythons: each computer player's decisions, timed (seconds per decision).
THINK = """
import json, time
from musicgames.games import load_game
from musicgames.play import play_games
found = {}
for game, bots in (("keyboard_duel", ["sharp", "casual"]),
                   ("note_snap", ["beginner", "intermediate", "expert", "expert"])):
    report = play_games(load_game(game), bots, GAMES, seed=1, clock=time.perf_counter)
    for seat, (name, times) in enumerate(zip(bots, report.think_s)):
        found[f"{game} {name} (seat {seat})"] = times
print(MARK + json.dumps(found))
"""


def site_parts(site: Path) -> dict[str, int]:
    """The site's bytes: Pyodide's core, the wheels, and JupyterLite's pages and code."""
    python = site / "static" / "pyodide"
    wheels = sum(p.stat().st_size for p in python.glob("*.whl"))
    everything = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    core = sum(p.stat().st_size for p in python.iterdir() if p.is_file()) - wheels
    return {"total": everything, "pyodide core": core, "wheels": wheels,
            "JupyterLite and pages": everything - core - wheels}


def desktop_think(games: int) -> dict[str, list[float]]:
    printed: list[str] = []
    exec(THINK.replace("GAMES", str(games)), {"MARK": MARK, "print": printed.append})
    return dict(json.loads(printed[-1][len(MARK):]))


def browser_think(page: Any, origin: str, games: int) -> dict[str, list[float]]:
    code = f"MARK = {MARK!r}\n" + THINK.replace("GAMES", str(games))
    query = urllib.parse.urlencode({"kernel": "python", "showBanner": "0", "code": code})
    page.goto(f"{origin}/repl/index.html?{query}")
    output = page.locator(".jp-OutputArea-output", has_text=MARK.strip())
    output.wait_for(timeout=START_TIMEOUT_MS + 600_000)
    text = output.inner_text()
    return dict(json.loads(text[text.index(MARK) + len(MARK):].strip()))


def time_to_playable(page: Any, origin: str) -> float:
    """Seconds from clicking Note Snap on the start page to the person's turn to flip."""
    page.goto(f"{origin}/index.html")
    started = time.monotonic()
    page.get_by_role("link", name="Note Snap", exact=True).click()
    page.wait_for_function(
        "() => { const t = document.querySelector('.mg-snap .mg-snap-seat.is-turn');"
        " return !!(t && t.classList.contains('mg-snap-person'))"
        " && document.querySelector('.mg-snap').dataset.phase === 'flip'; }",
        timeout=START_TIMEOUT_MS, polling=100)
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3,
                        help="games of each game the computer players play, per Python")
    parser.add_argument("--warm-runs", type=int, default=2)
    options = parser.parse_args()

    from musicgames.lite.serve import make_server
    from musicgames.lite.site import build_if_changed

    started = time.monotonic()
    built = build_if_changed(SITE, CACHE)
    print(f"site: {built.site} (ready in {time.monotonic() - started:.0f} s)")
    for part, size in site_parts(built.site).items():
        print(f"  {part:<22} {size / 1e6:6.1f} MB")
    if not CHROMIUM.exists():
        print("browser figures skipped: /usr/bin/chromium is not installed")
        return 0

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS

    server = make_server(built.site, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True,
                args=[*CHROMIUM_ARGS,
                      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            context = browser.new_context(viewport={"width": 1300, "height": 950},
                                          service_workers="block")
            page = context.new_page()
            page.goto(f"{origin}/index.html")
            page.locator("#name").fill("Bench")
            page.locator("#ask button").click()
            cold = time_to_playable(page, origin)
            warm = [time_to_playable(page, origin) for _ in range(options.warm_runs)]
            print(f"open Note Snap → a playable card: cold {cold:.1f} s, warm "
                  + ", ".join(f"{w:.1f} s" for w in warm) + " (target warm ≤ 8 s)")
            in_browser = browser_think(page, origin, options.games)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    on_desktop = desktop_think(options.games)
    print(f"computer players' think time per decision, {options.games} games each "
          "(median, mean; browser ÷ desktop, target ≤ 3×):")
    for player, times in on_desktop.items():
        there = in_browser[player]
        desk_mean, web_mean = statistics.fmean(times), statistics.fmean(there)
        print(f"  {player:<26} desktop {statistics.median(times) * 1e3:7.2f} ms, "
              f"{desk_mean * 1e3:7.2f} ms · browser {statistics.median(there) * 1e3:7.2f} ms, "
              f"{web_mean * 1e3:7.2f} ms · {web_mean / desk_mean:4.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
