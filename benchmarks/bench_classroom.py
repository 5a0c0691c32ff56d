"""How many students can one computer serve? A load test of the classroom server.

For each class size N it starts ``python -m musicgames.classroom`` afresh on 127.0.0.1 (a
free port, a throw-away class folder; ``--warm`` passed on), has the whole class open Note
Snap at the same moment, plays for ``--seconds``, and has everyone leave. The students are
either

* ``--clients protocol`` (the default): light clients in this process, one per student,
  that speak the page's own protocol (``benchmarks/classroom_client.py``): the app's page
  with its cookies, the kernel's websocket, the widget's messages with a player's timing
  (a card every 2–3 s: "shown" for each card painted, a slap on most matches, "no match" or
  a false slap on others, Enter on their turn; half the class calls the names themselves,
  1–7, chosen in Settings). Each flip, slap and "no match" is timed from the moment it is
  sent to the kernel's table answering it. The students' browsers do not run here: what is
  measured is the server alone, as in a classroom where they run on the students' devices.
* ``--clients browser``: headless Chromium pages on this machine (a few: they cost the
  server's CPU), each pressing keys; the time is the page's own, key press to the answer
  drawn (rule S13's clock) — what a student sees, browser included.

It prints, per N: the answers' p50/p95/p99/max in ms; start-up (every student opening at
once: the median and the slowest time until the student's table could be drawn — the
widgets' state received — or, with browsers, was drawn); each kernel's memory (RSS, and USS:
what it alone holds); CPU in % of one core during play: the server, its kernels (together
and per student), the clients (this process, or the Chromium pages), the whole machine; and
the load average before the size. A size is within the goal when p95 ≤ ``--limit-ms``, the
slowest table came within ``--start-limit-s``, no student failed and every answer came.
It stops after the first size over the goal (``--keep-going``: measures every size) and
names the largest size within it.

It exits with 1 if a student could not open or play (the error is printed), 2 if a server
did not start. Every server it starts runs in its own process group; on the way out (also
on Ctrl+C) the server and every kernel it started are stopped, and the bench checks that
none is left.

    python benchmarks/bench_classroom.py                                # 1,8,…,48 students
    python benchmarks/bench_classroom.py --students 1,4,8 --seconds 20  # a quick look
    python benchmarks/bench_classroom.py --students 4 --warm 4          # kernels ready ahead
    python benchmarks/bench_classroom.py --clients browser --students 1,2,4
    python benchmarks/bench_classroom.py --students 8 --profile prof/   # cProfile each kernel
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
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from classroom_client import ProtocolStudent  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # pages in the background keep their timers running (each page is a student's screen)
    "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
SIZES = (1, 8, 16, 24, 32, 40, 48)
#: The answers timed: what a student's key press sends (Enter or 1–7, Space, N). The game's
#: start ("ready", sent by the page itself) and a new game are counted apart.
KEYS = ("flip", "slap", "pass")
MOST_STUDENTS = {"protocol": 80, "browser": 24}
SERVER_START_S = 90.0
#: ``--profile``: a ``sitecustomize`` put first on the server's ``PYTHONPATH`` (kernels
#: inherit it) profiles each kernel with cProfile: SIGUSR1 starts afresh (the bench sends it
#: when play starts), SIGUSR2 writes the figures since to ``<dir>/kernel-<pid>.prof`` (the
#: bench sends it when play ends); a kernel that never got SIGUSR2 writes them as it exits.
PROFILE_HOOK = textwrap.dedent('''\
    import os, sys
    def _command():
        try:
            with open("/proc/self/cmdline", "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return " ".join(sys.argv)
    if os.environ.get("MUSICGAMES_BENCH_PROFILE") and "ipykernel" in _command():
        import atexit, cProfile, signal
        _profile = [cProfile.Profile()]
        _written = []
        _where = os.path.join(os.environ["MUSICGAMES_BENCH_PROFILE"],
                              f"kernel-{os.getpid()}.prof")
        def _afresh(*_):
            _profile[0].disable()
            _profile[0] = cProfile.Profile()
            _profile[0].enable()
        def _write(*_):
            _profile[0].disable()
            _profile[0].dump_stats(_where)
            _written.append(True)
        signal.signal(signal.SIGUSR1, _afresh)
        signal.signal(signal.SIGUSR2, _write)
        atexit.register(lambda: None if _written else _write())
        _profile[0].enable()
''')


# -- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A classroom server started by the bench, and every process it started."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    seen: dict[int, psutil.Process] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def main(self) -> psutil.Process:
        return self.seen.setdefault(self.process.pid, psutil.Process(self.process.pid))

    def kernels(self) -> list[psutil.Process]:
        """The server's kernels now (each remembered, to be stopped at the end)."""
        found = []
        with contextlib.suppress(psutil.Error):
            for child in self.main().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if any("ipykernel" in part for part in child.cmdline()):
                        found.append(self.seen.setdefault(child.pid, child))
        return found


def start_server(workdir: Path, warm: int, profile: Path | None) -> Server:
    port = free_port()
    env = dict(os.environ)
    paths = [str(REPO), env.get("PYTHONPATH", "")]
    if profile is not None:
        hook = workdir / "profile-hook"
        hook.mkdir(parents=True, exist_ok=True)
        (hook / "sitecustomize.py").write_text(PROFILE_HOOK)
        paths.insert(0, str(hook))
        env["MUSICGAMES_BENCH_PROFILE"] = str(profile.resolve())
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env["JUPYTER_RUNTIME_DIR"] = str(workdir / "runtime")
    env["MUSICGAMES_DATA_DIR"] = str(workdir / "data")
    log = workdir / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "musicgames.classroom", "--ip", "127.0.0.1",
             "--port", str(port), "--class-folder", str(workdir / "class"),
             "--warm", str(warm)],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    server = Server(process, port, log)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ServerError(f"the classroom server exited:\n{log.read_text()[-3000:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                return server
            time.sleep(0.25)
        raise ServerError(f"the classroom server did not start in {SERVER_START_S:.0f} s")
    except BaseException:  # not started, or stopped from outside meanwhile: nothing is left
        stop_server(server)
        raise


def stop_server(server: Server) -> int:
    """Stop the server (it stops its kernels), then anything it started that is left;
    returns how many processes had to be killed."""
    server.kernels()  # remember every kernel before the server goes
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.process.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait()
    left = [p for p in server.seen.values() if p.pid != server.process.pid and _running(p)]
    for process in left:
        with contextlib.suppress(psutil.Error):
            process.terminate()
    _, alive = psutil.wait_procs(left, timeout=10)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(alive, timeout=5)
    return len(left)


def _running(process: psutil.Process) -> bool:
    with contextlib.suppress(psutil.Error):
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    return False


class ServerError(RuntimeError):
    """The classroom server did not start."""


def wait_for_warm(server: Server, warm: int, apps: int = 4) -> None:
    """With ``--warm N``: wait until the server's kernels started ahead are running and
    quiet (each has run its app's notebook up to waiting for its student)."""
    deadline = time.monotonic() + 60 + 15 * warm * apps
    while time.monotonic() < deadline:
        kernels = server.kernels()
        if len(kernels) >= warm * apps and cpu_seconds_over(kernels, 1.0) < 0.05 * len(kernels):
            return
        time.sleep(1.0)


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def cpu_seconds_over(processes: list[psutil.Process], seconds: float) -> float:
    before = cpu_seconds(processes)
    time.sleep(seconds)
    return cpu_seconds(processes) - before


def memory(kernels: list[psutil.Process]) -> tuple[float, float]:
    rss, uss = [], []
    for kernel in kernels:
        with contextlib.suppress(psutil.Error):
            info = kernel.memory_full_info()
            rss.append(info.rss / 2**20)
            uss.append(info.uss / 2**20)
    return (statistics.mean(rss) if rss else float("nan"),
            statistics.mean(uss) if uss else float("nan"))


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``; NaN for none.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50), percentile([1.0, 2.0], 99)
    (3.0, 2.0)
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# -- one class size ------------------------------------------------------------------------


@dataclass
class Row:
    """One class size's figures."""

    n: int
    answers: list[float] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)
    unanswered: int = 0
    startups: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # what a student's table said went wrong
    cards: int = 0
    kernels: int = 0
    rss: float = float("nan")
    uss: float = float("nan")
    cpu_server: float = float("nan")
    cpu_kernels: float = float("nan")
    cpu_clients: float = float("nan")
    cpu_machine: float = float("nan")
    load: float = float("nan")
    asset_mib: float = 0.0
    killed: int = 0
    open_cpu: tuple[float, float] = (float("nan"), float("nan"))  # server, kernels: CPU s
    pids: list[int] = field(default_factory=list)  # the server and its kernels

    def within(self, limit_ms: float, start_limit_s: float) -> bool:
        return (not self.errors and not self.unanswered and bool(self.answers)
                and percentile(self.answers, 95) <= limit_ms
                and len(self.startups) == self.n and max(self.startups) <= start_limit_s)


class Meter:
    """CPU of the server, its kernels, the clients and the machine over a stretch of time."""

    def __init__(self, server: Server, clients: list[psutil.Process]) -> None:
        self.server, self.clients = server, clients
        self.kernels = server.kernels()
        self.cpu = (cpu_seconds([server.main()]), cpu_seconds(self.kernels),
                    cpu_seconds(clients))
        psutil.cpu_percent()
        self.wall = time.monotonic()

    def stop(self, row: Row) -> None:
        wall = time.monotonic() - self.wall
        now = (cpu_seconds([self.server.main()]), cpu_seconds(self.kernels),
               cpu_seconds(self.clients))
        row.cpu_machine = psutil.cpu_percent() * psutil.cpu_count()
        row.cpu_server, row.cpu_kernels, row.cpu_clients = (
            (after - before) / wall * 100 for before, after in zip(self.cpu, now, strict=True))


async def protocol_class(n: int, server: Server, options: argparse.Namespace,
                         row: Row) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)
    sessions = [aiohttp.ClientSession(connector=connector, connector_owner=False,
                                      cookie_jar=aiohttp.CookieJar(unsafe=True))
                for _ in range(n)]  # each student's browser: cookies of its own
    students = [
        ProtocolStudent(server.url, f"bench-{n}-{i}", seed=1000 * n + i,
                        call_mode="self" if i < round(n * options.self_call) else "auto",
                        assets=not options.no_assets, http=sessions[i])
        for i in range(n)
    ]
    failed: dict[int, str] = {}

    async def guarded(i: int, step: Any, limit_s: float) -> None:
        if i in failed:
            step.close()  # a student who could not open does not play
            return
        try:
            await asyncio.wait_for(step, limit_s)
        except asyncio.TimeoutError:  # one stuck student is reported, the others go on
            failed[i] = f"stuck for {limit_s:g} s {students[i].stage}"
        except Exception as err:  # report, do not hide: the row says how many failed
            said = str(err).splitlines()[0][:200] if str(err) else ""
            failed[i] = f"{type(err).__name__}: {said}"

    try:
        opening = cpu_seconds([server.main()])
        # everyone opens the app at the same moment
        opening_s = options.start_limit_s * 2 + 60
        await asyncio.gather(*(guarded(i, s.open(), opening_s) for i, s in enumerate(students)))
        await asyncio.gather(*(guarded(i, s.start_playing(), opening_s)
                               for i, s in enumerate(students)))
        meter = Meter(server, [psutil.Process()])
        row.open_cpu = (meter.cpu[0] - opening, meter.cpu[1])  # kernels: all since their start
        if options.profile is not None:  # from now on: play
            for kernel in meter.kernels:
                with contextlib.suppress(psutil.Error):
                    kernel.send_signal(signal.SIGUSR1)
        until = time.perf_counter() + options.seconds
        await asyncio.gather(*(guarded(i, s.play(until), options.seconds + 60)
                               for i, s in enumerate(students)))
        meter.stop(row)
        row.kernels = len(meter.kernels)
        row.rss, row.uss = memory(meter.kernels)
        if options.profile is not None:
            for kernel in meter.kernels:
                with contextlib.suppress(psutil.Error):
                    kernel.send_signal(signal.SIGUSR2)
            await asyncio.sleep(2.0)
    finally:
        await asyncio.gather(*(s.leave() for s in students), return_exceptions=True)
        await asyncio.gather(*(h.close() for h in sessions), return_exceptions=True)
        await connector.close()
    for student in students:
        figures = student.figures
        if figures.table_s is not None:
            row.startups.append(figures.table_s)
        row.answers.extend(ms for kind, ms in figures.answers if kind in KEYS)
        for kind, ms in figures.answers:
            row.by_kind[kind] = row.by_kind.get(kind, 0) + 1
            row.slowest[kind] = max(ms, row.slowest.get(kind, 0.0))
        row.unanswered += len(figures.unanswered)
        row.cards += figures.cards
        row.asset_mib += figures.asset_bytes / 2**20
        row.notices.extend(f"{figures.name}: {notice}" for notice in figures.notices)
    row.errors = [f"{students[i].name}: {why}" for i, why in sorted(failed.items())]


# The page probes of the Note Snap browser tests: play as they play.
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
class PageStudent:
    """One Chromium page's figures."""

    startup_s: float | None = None
    answers_ms: list[float] = field(default_factory=list)
    unanswered: int = 0
    cards: int = 0
    error: str | None = None
    page: Any = None


async def _browser_play(browser: Any, url: str, student: PageStudent,
                        start_line: asyncio.Event, stop_at: list[float]) -> None:
    from tests.browser.snap_helpers import SOMETHING_TO_DO_JS, TIMINGS_JS

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
                await root.locator(".mg-snap-new").first.click()
                await root.locator(".mg-snap-title").click()
                handled.clear()
            elif table["phase"] == "flip":
                await page.keyboard.press("Enter")
                await page.wait_for_timeout(50)
            elif table["number"] is not None:
                handled.append(table["number"])
                student.cards += 1
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


async def _browser_leave(student: PageStudent) -> None:
    """Leave the app (Voila then shuts its kernel down) and close the student's browser."""
    if student.page is None:
        return
    with contextlib.suppress(Exception):
        await student.page.goto("about:blank")
    with contextlib.suppress(Exception):
        await student.page.context.close()


def _chromium_processes() -> list[psutil.Process]:
    found = []
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in process.name().lower():
                found.append(process)
    return found


async def browser_class(n: int, server: Server, options: argparse.Namespace,
                        row: Row) -> None:
    from playwright.async_api import async_playwright

    students = [PageStudent() for _ in range(n)]
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                           args=CHROMIUM_ARGS)
        try:
            start_line = asyncio.Event()
            stop_at = [float("inf")]
            tasks = [asyncio.create_task(_browser_play(
                browser, f"{server.url}voila/render/note-snap.ipynb?student=bench-{n}-{i}",
                students[i], start_line, stop_at)) for i in range(n)]
            deadline = time.monotonic() + options.start_limit_s * 4 + 120
            while (any(s.startup_s is None and s.error is None for s in students)
                   and time.monotonic() < deadline):
                await asyncio.sleep(0.2)
            meter = Meter(server, _chromium_processes())
            stop_at[0] = time.monotonic() + options.seconds
            start_line.set()
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=options.seconds + 120)
            meter.stop(row)
            row.kernels = len(meter.kernels)
            row.rss, row.uss = memory(meter.kernels)
        finally:
            await asyncio.gather(*(_browser_leave(s) for s in students))
            await browser.close()
    for student in students:
        if student.startup_s is not None:
            row.startups.append(student.startup_s)
        row.answers.extend(student.answers_ms)
        row.by_kind["slap"] = row.by_kind.get("slap", 0) + len(student.answers_ms)
        row.slowest["slap"] = max([row.slowest.get("slap", 0.0), *student.answers_ms])
        row.unanswered += student.unanswered
        row.cards += student.cards
    row.errors = [f"page {i}: {s.error}" for i, s in enumerate(students) if s.error]


def measure(n: int, options: argparse.Namespace, workdir: Path | None = None) -> Row:
    """One class size on a server of its own (its files in ``workdir``, else a temporary
    folder)."""
    row = Row(n, load=os.getloadavg()[0])
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="musicgames-bench-classroom-")))
        server = start_server(workdir, options.warm, options.profile)
        try:
            if options.warm:
                wait_for_warm(server, options.warm)
            run = protocol_class if options.clients == "protocol" else browser_class
            asyncio.run(run(n, server, options, row))
            # the students left: their kernels stop (no kernel outlives its page)
            deadline = time.monotonic() + 30
            while len(server.kernels()) > options.warm * 4 and time.monotonic() < deadline:
                time.sleep(0.5)
            if len(server.kernels()) > options.warm * 4:
                row.errors.append(f"{len(server.kernels()) - options.warm * 4} kernel(s) kept "
                                  "running after their students left")
        finally:
            row.killed = stop_server(server)
            row.pids = sorted(server.seen)
            if row.errors:  # what the server said of it
                row.errors.extend(server_complaints(server.log))
    return row


def server_complaints(log: Path, most: int = 12) -> list[str]:
    """The server log's warnings and errors (Tornado's ``[W …]``/``[E …]`` lines and the
    lines of a traceback's last line), the first ``most`` of them."""
    said = []
    with contextlib.suppress(OSError):
        for text in log.read_text(errors="replace").splitlines():
            if text.startswith(("[W ", "[E ", "[C ")) or "Error:" in text:
                said.append("server: " + text[:300])
    return said[:most]


# -- the report ----------------------------------------------------------------------------


COLUMNS = (f"{'N':>3} {'answers':>7} {'p50 ms':>6} {'p95 ms':>6} {'p99 ms':>6} {'max ms':>6} "
           f"{'start s':>7} {'all in s':>8} {'RSS MiB':>7} {'USS MiB':>7} {'srv %':>5} "
           f"{'krn %':>5} {'/each':>5} {'cli %':>5} {'all %':>5} {'load':>5}")


def line(row: Row) -> str:
    a = row.answers
    start = statistics.median(row.startups) if row.startups else float("nan")
    slowest = max(row.startups) if row.startups else float("nan")
    each = row.cpu_kernels / row.n if row.n else float("nan")
    return (f"{row.n:>3} {len(a):>7} {percentile(a, 50):>6.0f} {percentile(a, 95):>6.0f} "
            f"{percentile(a, 99):>6.0f} {max(a) if a else float('nan'):>6.0f} {start:>7.1f} "
            f"{slowest:>8.1f} {row.rss:>7.0f} {row.uss:>7.0f} {row.cpu_server:>5.0f} "
            f"{row.cpu_kernels:>5.0f} {each:>5.1f} {row.cpu_clients:>5.0f} "
            f"{row.cpu_machine:>5.0f} {row.load:>5.1f}")


def sizes(text: str) -> list[int]:
    """``--students 1,8,16``: the class sizes, in order.

    >>> sizes("1,8, 16"), sizes("4")
    ([1, 8, 16], [4])
    """
    try:
        chosen = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list like 1,8,16") from None
    if not chosen or any(n < 1 for n in chosen):
        raise argparse.ArgumentTypeError("class sizes are whole numbers from 1")
    return chosen


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Columns: answers (flips, slaps, 'no match' answered), their p50/p95/p99/max; "
               "start s / all in s: median / slowest time from opening the app to the table "
               "(everyone at once); RSS/USS: memory per kernel; CPU in %% of one core during "
               "play: srv the server, krn its kernels (/each: per student), cli the clients, "
               "all the machine; load: load average before the size.")
    parser.add_argument("--clients", choices=("protocol", "browser"), default="protocol",
                        help="students as light protocol clients (the server alone; the "
                             "default) or as Chromium pages on this machine")
    parser.add_argument("--students", type=sizes, default=list(SIZES), metavar="N,N,…",
                        help="class sizes to measure (default 1,8,16,24,32,40,48)")
    parser.add_argument("--sizes", type=int, nargs="+", dest="students", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=60.0, help="play time per size")
    parser.add_argument("--limit-ms", type=float, default=150.0, help="the p95 to stay under")
    parser.add_argument("--start-limit-s", type=float, default=60.0,
                        help="the time within which every student's table must come")
    parser.add_argument("--warm", type=int, default=0,
                        help="kernels the server keeps started ahead per app (its --warm)")
    parser.add_argument("--self-call", type=float, default=0.5, metavar="FRACTION",
                        help="protocol students who call the names themselves (default 0.5)")
    parser.add_argument("--no-assets", action="store_true",
                        help="protocol students do not fetch the page's scripts and styles")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="profile every kernel with cProfile into DIR/kernel-<pid>.prof")
    parser.add_argument("--keep-going", action="store_true",
                        help="measure every size, even past the first one over the goal")
    options = parser.parse_args(argv)
    too_many = [n for n in options.students if n > MOST_STUDENTS[options.clients]]
    if too_many:
        parser.error(f"at most {MOST_STUDENTS[options.clients]} {options.clients} students")
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    if options.clients == "browser" and not Path(CHROMIUM).exists():
        print(f"bench_classroom: needs Chromium at {CHROMIUM}; skipped")
        return 0
    if options.profile is not None:
        options.profile.mkdir(parents=True, exist_ok=True)
    # a stop from outside (SIGTERM) unwinds like Ctrl+C: servers and kernels are stopped
    signal.signal(signal.SIGTERM, _interrupted)
    who = ("protocol clients in this process (the students' browsers are not on this "
           "machine)" if options.clients == "protocol"
           else "headless Chromium pages on this machine")
    print(f"classroom load test: {psutil.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.1f} GiB; Note Snap, {options.seconds:g} s "
          f"of play per size, everyone opening at once, {options.warm} kernel(s) started "
          f"ahead per app; students: {who}")
    print(COLUMNS, flush=True)
    best: int | None = None
    failed = False
    for n in options.students:
        try:
            row = measure(n, options)
        except ServerError as err:
            print(f"bench_classroom: {err}", file=sys.stderr)
            return 2
        except (Exception, KeyboardInterrupt) as err:  # its server is stopped: say why
            print(f"bench_classroom: {n} students: {type(err).__name__}: {err}",
                  file=sys.stderr)
            return 1
        print(line(row), flush=True)
        kinds = ", ".join(f"{count} {kind} (slowest {row.slowest.get(kind, 0):.0f} ms)"
                          for kind, count in sorted(row.by_kind.items()))
        pace = options.seconds / (row.cards / n) if row.cards else float("nan")
        print(f"    {row.cards} cards played (one every {pace:.1f} s per student); "
              f"answered: {kinds or 'nothing'}; "
              f"{row.unanswered} unanswered; {row.kernels} kernels"
              + (f"; page assets {row.asset_mib / max(1, n):.1f} MiB each"
                 if row.asset_mib else "")
              + (f"; {row.killed} process(es) left by the server were stopped"
                 if row.killed else ""), flush=True)
        if row.open_cpu[0] == row.open_cpu[0]:  # measured (protocol students)
            print(f"    opening the app: {row.open_cpu[0] / n:.2f} s of the server's CPU and "
                  f"{row.open_cpu[1] / n:.2f} s of the kernel's per student", flush=True)
        for notice in row.notices[:3]:
            print(f"    the table said: {notice}", flush=True)
        for error in row.errors[:5]:
            print(f"    failed: {error}", flush=True)
        if len(row.errors) > 5:
            print(f"    … and {len(row.errors) - 5} more", flush=True)
        failed = failed or bool(row.errors)
        if row.within(options.limit_ms, options.start_limit_s):
            best = n
        elif not options.keep_going:
            break
    goal = (f"p95 <= {options.limit_ms:g} ms and every table within "
            f"{options.start_limit_s:g} s")
    if best is None:
        print(f"no class size tried kept {goal}")
    else:
        print(f"largest class size with {goal}: {best}")
    if options.profile is not None:
        print(f"kernel profiles: {options.profile}/kernel-*.prof "
              "(python -m pstats FILE, then: sort tottime, stats 30)")
    return 1 if failed else 0


def _interrupted(*_: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
