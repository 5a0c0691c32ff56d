"""How fast progress files are written and read, and how fast the drill picks questions.

Run: python benchmarks/bench_progress.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from musicgames import progress
from musicgames.drill import DrillSession
from musicgames.theory import CARD_NOTES


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-progress-"))
    store = progress.ProgressStore(folder / "ana.sqlite3", student="Ana")
    times = []
    for i in range(2000):
        start = time.perf_counter()
        store.record("drill", CARD_NOTES[i % 15].solfege, "Do", i % 3 != 0, 800.0 + i)
        times.append((time.perf_counter() - start) * 1000)
    store.close()
    print(
        f"record one answer (own transaction, WAL): median {statistics.median(times):.3f} ms, "
        f"95th percentile {sorted(times)[int(0.95 * len(times))]:.3f} ms over {len(times)}"
    )

    start = time.perf_counter()
    rows = progress.read_answers(folder / "ana.sqlite3")
    print(f"read {len(rows)} answers back: {(time.perf_counter() - start) * 1000:.1f} ms")

    klass = folder / "class"
    progress.demo_class(klass, students=8)
    start = time.perf_counter()
    read = progress.read_class(klass)
    print(
        f"read a class folder of {len(read.students)} files, {len(read.answers)} answers: "
        f"{(time.perf_counter() - start) * 1000:.1f} ms"
    )
    start = time.perf_counter()
    read.report()._repr_html_()
    print(f"class report (tables and 3 figures as PNG): {(time.perf_counter() - start):.2f} s")

    session = DrillSession(CARD_NOTES, random.Random(1), questions=100_000)
    start = time.perf_counter()
    while not session.is_over():
        note = session.ask()
        session.answer(note, "x", correct=note.step != "F", response_ms=900.0)
    per = (time.perf_counter() - start) / 100_000 * 1e6
    print(f"drill: choose a question and record its answer: {per:.1f} µs each")


if __name__ == "__main__":
    main()
