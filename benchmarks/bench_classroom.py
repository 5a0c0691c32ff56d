"""How many students can one computer serve? A load test of the classroom server.

Starts ``python -m musicgames.classroom`` on 127.0.0.1 (loopback only, a free port, a
throw-away class folder) and, for each class size N, opens N headless Chromium pages at once,
each a student of their own playing Note Snap against two computer players: Enter on their
turn, Space on every card (a false slap is answered by the kernel too). After ``--seconds``
of play (60 by default) it prints, per N:

* the time from key press to the kernel's answer shown, p50 and p95 over every slap of every
  page — measured in the page: the key event's timestamp to the animation frame after the
  kernel's verdict was drawn (the page's own ``timings`` records, rule S13's clock);
* start-up per student: page opened → table drawn (kernel start and the app's notebook run);
* memory per student's kernel (RSS and USS, the memory it alone holds);
* CPU: the server and its kernels, the Chromium pages (which in a real class run on the
  students' own devices, not on the server), and the whole machine, in % of one core;
* the load average before the run (other work on the machine counts).

It stops at ``--max-n`` or after the first N whose p95 exceeds the limit (150 ms by default),
and names the largest N within the limit. Bounded: loopback only, at most 40 pages, every
run under a deadline; the server and its kernels are stopped as one process group.

    python benchmarks/bench_classroom.py                     # N = 1 2 4 6 8 10 12, 60 s each
    python benchmarks/bench_classroom.py --sizes 1 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # pages in the background keep their timers running (each page is a student's screen)
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
MAX_PAGES = 40
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
# The page probes of the Note Snap browser tests: play as they play.
from tests.browser.snap_helpers import SOMETHING_TO_DO_JS, TIMINGS_JS  # noqa: E402

READ_JS = """(root) => {
  const face = root.querySelector('.mg-snap-card');
  return {phase: root.dataset.phase,
          number: face && face.dataset.shownAt ? Number(face.dataset.number) : null,
          shown_at: face && face.dataset.shownAt ? Number(face.dataset.shownAt) : null};
}"""
WAIT_UNTIL_JS = """async ([shownAt, delay]) => {
  const until = shownAt + delay;
  while (performance.now() < until) {
    await new Promise((r) => setTimeout(r, Math.max(1, until - performance.now())));
  }
}"""


@dataclass
class Student:
    """One page's figures."""

    startup_s: float | None = None
    answers_ms: list[float] = field(default_factory=list)
    unanswered: int = 0
    games: int = 0
    error: str | None = None
    page: Any = None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path, log: Path, warm: int = 0) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "musicgames.classroom", "--ip", "127.0.0.1",
             "--port", str(port), "--class-folder", str(folder), "--warm", str(warm)],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the classroom server exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return process, port
        time.sleep(0.25)
    stop_server(process)
    raise SystemExit("the classroom server did not start in 90 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def kernels_of(server: psutil.Process) -> list[psutil.Process]:
    found = []
    for process in server.children(recursive=True):
        with contextlib.suppress(psutil.Error):  # gone, or a zombie not yet reaped
            if any("ipykernel" in part for part in process.cmdline()):
                found.append(process)
    return found


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def chromium_processes() -> list[psutil.Process]:
    found = []
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in process.name().lower():
                found.append(process)
    return found


async def play(browser: Any, url: str, seconds: float, student: Student,
               start_line: asyncio.Event, stop_at: list[float]) -> None:
    context = await browser.new_context(viewport={"width": 1100, "height": 800})
    page = await context.new_page()
    page.set_default_timeout(120_000)
    student.page = page
    try:
        opened = time.monotonic()
        await page.goto(url)
        root = page.locator(".mg-snap")
        await root.locator(".mg-snap-seat").first.wait_for()
        student.startup_s = time.monotonic() - opened
        await start_line.wait()  # everyone plays at the same time
        await root.locator(".mg-snap-title").click()
        handle = await root.element_handle()
        handled: list[int] = []
        while time.monotonic() < stop_at[0]:
            try:
                await page.wait_for_function(SOMETHING_TO_DO_JS, arg=[handle, handled],
                                             timeout=15_000, polling="raf")
            except Exception:  # nothing to do for 15 s: look again
                continue
            table = await root.evaluate(READ_JS)
            if table["phase"] == "over":
                student.games += 1
                await root.locator(".mg-snap-new").first.click()
                await root.locator(".mg-snap-title").click()
                handled.clear()
            elif table["phase"] == "flip":
                await page.keyboard.press("Enter")
                await page.wait_for_timeout(50)
            elif table["number"] is not None:
                handled.append(table["number"])
                await page.evaluate(WAIT_UNTIL_JS, [table["shown_at"], 250])
                await page.keyboard.press("Space")
        await page.wait_for_timeout(1500)  # the last answers come in
        for record in await root.evaluate(TIMINGS_JS):
            if record.get("via") != "key":
                continue
            if record.get("answer_at") is None:
                student.unanswered += 1
            else:
                student.answers_ms.append(record["answer_at"] - record["event_at"])
    except Exception as err:  # report, do not hide: the row says how many pages failed
        student.error = f"{type(err).__name__}: {str(err).splitlines()[0][:160]}"


async def leave(student: Student) -> None:
    """Leave the app (Voila then shuts its kernel down) and close the student's browser."""
    if student.page is None:
        return
    with contextlib.suppress(Exception):
        await student.page.goto("about:blank")
    with contextlib.suppress(Exception):
        await student.page.context.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def run_size(n: int, port: int, server: psutil.Process, seconds: float) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    load_before = os.getloadavg()
    earlier = {p.pid for p in kernels_of(server)}
    students = [Student() for _ in range(n)]
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                           args=CHROMIUM_ARGS)
        start_line = asyncio.Event()
        stop_at = [float("inf")]
        tasks = [
            asyncio.create_task(play(
                browser,
                f"http://127.0.0.1:{port}/voila/render/note-snap.ipynb?student=bench-{n}-{i}",
                seconds, students[i], start_line, stop_at))
            for i in range(n)
        ]
        # wait until every table is drawn (or a page failed), then everyone plays
        deadline = time.monotonic() + 60 + 15 * n
        while (any(s.startup_s is None and s.error is None for s in students)
               and time.monotonic() < deadline):
            await asyncio.sleep(0.2)
        kernels = [k for k in kernels_of(server) if k.pid not in earlier]
        browsers = chromium_processes()
        cpu_server_0 = cpu_seconds([server, *kernels])
        cpu_browser_0 = cpu_seconds(browsers)
        psutil.cpu_percent()
        wall_0 = time.monotonic()
        stop_at[0] = wall_0 + seconds
        start_line.set()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=seconds + 120)
        wall = time.monotonic() - wall_0
        machine = psutil.cpu_percent() * psutil.cpu_count()
        cpu_server = (cpu_seconds([server, *kernels]) - cpu_server_0) / wall * 100
        cpu_browser = (cpu_seconds(browsers) - cpu_browser_0) / wall * 100
        rss, uss = [], []
        for kernel in kernels:
            with contextlib.suppress(psutil.Error):
                info = kernel.memory_full_info()
                rss.append(info.rss / 2**20)
                uss.append(info.uss / 2**20)
        await asyncio.gather(*(leave(s) for s in students))
        await browser.close()
    for _ in range(40):  # the kernels of the pages left stop (no kernel outlives its page)
        if not [k for k in kernels_of(server) if k.pid not in earlier]:
            break
        await asyncio.sleep(0.25)
    answers = [ms for s in students for ms in s.answers_ms]
    startups = [s.startup_s for s in students if s.startup_s is not None]
    return {
        "n": n, "slaps": len(answers), "unanswered": sum(s.unanswered for s in students),
        "failed": sum(s.error is not None for s in students),
        "errors": [s.error for s in students if s.error],
        "p50": percentile(answers, 50), "p95": percentile(answers, 95),
        "max": max(answers) if answers else float("nan"),
        "startup": statistics.median(startups) if startups else float("nan"),
        "kernels": len(kernels), "left_over": len(earlier),
        "rss": statistics.mean(rss) if rss else float("nan"),
        "uss": statistics.mean(uss) if uss else float("nan"),
        "cpu_server": cpu_server, "cpu_browser": cpu_browser, "cpu_machine": machine,
        "load": load_before[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 6, 8, 10, 12])
    parser.add_argument("--seconds", type=float, default=60.0, help="play time per size")
    parser.add_argument("--limit-ms", type=float, default=150.0, help="the p95 to stay under")
    parser.add_argument("--warm", type=int, default=0,
                        help="kernels the server keeps started ahead per app (its --warm)")
    parser.add_argument("--keep-going", action="store_true",
                        help="measure every size, even past the first one over the limit")
    options = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"bench_classroom: needs Chromium at {CHROMIUM}; skipped")
        return 0
    sizes = [n for n in options.sizes if 1 <= n <= MAX_PAGES]
    with tempfile.TemporaryDirectory(prefix="musicgames-bench-classroom-") as tmp:
        process, port = start_server(Path(tmp) / "class", Path(tmp) / "server.log",
                                     options.warm)
        if options.warm:
            time.sleep(10 + 5 * options.warm)  # let the server start its kernels ahead
        server = psutil.Process(process.pid)
        print(f"classroom load test: {psutil.cpu_count()} cores, "
              f"{psutil.virtual_memory().total / 2**30:.1f} GiB, Note Snap, "
              f"{options.seconds:.0f} s of play per size, {options.warm} kernel(s) started ahead "
              "per app, Chromium headless on this machine too")
        header = (f"{'N':>3} {'slaps':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
                  f"{'start s':>7} {'RSS MiB':>8} {'USS MiB':>8} {'CPU srv%':>8} "
                  f"{'CPU chr%':>8} {'CPU all%':>8} {'load':>5}")
        print(header)
        best = None
        try:
            for n in sizes:
                # the previous size's kernels are shut down when its pages close
                row = asyncio.run(run_size(n, port, server, options.seconds))
                print(f"{row['n']:>3} {row['slaps']:>6} {row['p50']:>7.0f} {row['p95']:>7.0f} "
                      f"{row['max']:>7.0f} {row['startup']:>7.1f} {row['rss']:>8.0f} "
                      f"{row['uss']:>8.0f} {row['cpu_server']:>8.0f} {row['cpu_browser']:>8.0f} "
                      f"{row['cpu_machine']:>8.0f} {row['load']:>5.1f}", flush=True)
                if row["kernels"] != n or row["left_over"]:
                    print(f"    kernels: {row['kernels']} for this size, {row['left_over']} "
                          "left over from before", flush=True)
                if row["failed"] or row["unanswered"]:
                    print(f"    {row['failed']} page(s) failed, {row['unanswered']} slap(s) "
                          f"unanswered: {row['errors'][:2]}", flush=True)
                within = (row["p95"] <= options.limit_ms and not row["failed"]
                          and row["slaps"] > 0)
                if within:
                    best = n
                elif not options.keep_going:
                    break
                time.sleep(3)
        finally:
            stop_server(process)
    if best is None:
        print(f"no class size tried kept p95 within {options.limit_ms:.0f} ms")
    else:
        print(f"largest class size with p95 <= {options.limit_ms:.0f} ms: {best}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
