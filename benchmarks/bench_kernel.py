"""What a student's kernel costs once its app is open: CPU time and memory, in a real kernel.

For each of the classroom's apps, a fresh IPython kernel (as Voila starts one for a student)
opens the app as the classroom does (``musicgames.classroom.kernel.make_app``), then stays
idle for two seconds (music21's own notebook set-up, where it runs, starts a second after
music21 is imported). The figures are the kernel's CPU time since it started, its memory
(RSS, and USS: what it shares with no other process, the memory each more student adds) and
whether pyplot was imported on the way, the median of ``--runs`` kernels. Run it on another
copy of the project (``--source DIR``, e.g. an older commit unpacked with ``git archive``)
to compare.

    python benchmarks/bench_kernel.py
    python benchmarks/bench_kernel.py --source /tmp/musicgames-before --runs 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import psutil
from jupyter_client.manager import start_new_kernel

APPS = ("note-snap", "keyboard-duel", "note-drill", "chord-quiz")

_OPEN = """
import sys, time
from musicgames.classroom.kernel import make_app
app = make_app({app!r}, None, {{"language": "en", "naming": "solfege"}})
time.sleep(2)
print("matplotlib.pyplot" in sys.modules)
"""


def one_kernel(app: str, source: Path) -> tuple[float, float, float, bool]:
    """CPU seconds, RSS and USS in MiB, and whether pyplot was imported, for one kernel."""
    env = dict(os.environ, PYTHONPATH=str(source))
    manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=str(source))
    printed: list[str] = []
    try:
        client.execute_interactive(
            _OPEN.format(app=app), timeout=120,
            output_hook=lambda msg: printed.append(msg["content"].get("text", ""))
            if msg["msg_type"] == "stream" else None)
        kernel = psutil.Process(manager.provisioner.process.pid)  # type: ignore[union-attr]
        cpu = kernel.cpu_times()
        memory = kernel.memory_full_info()
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    mib = 2**20
    return (cpu.user + cpu.system, memory.rss / mib, memory.uss / mib,
            "".join(printed).split()[-1] == "True")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args(argv)
    print(f"a kernel with one app open, from {options.source.name or options.source} "
          f"(median of {options.runs} kernels; load {os.getloadavg()[0]:.1f})")
    print(f"  {'app':14} {'CPU s':>6} {'RSS MiB':>8} {'USS MiB':>8}  pyplot imported")
    started = time.perf_counter()
    for app in APPS:
        runs = [one_kernel(app, options.source) for _ in range(options.runs)]
        cpu, rss, uss = (statistics.median(run[i] for run in runs) for i in range(3))
        pyplot = "yes" if any(run[3] for run in runs) else "no"
        print(f"  {app:14} {cpu:6.2f} {rss:8.1f} {uss:8.1f}  {pyplot}")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
