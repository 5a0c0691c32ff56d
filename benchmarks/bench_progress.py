"""How fast progress files are written and read, and how fast the drill picks questions.

Run: python benchmarks/bench_progress.py
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from musicgames import progress
from musicgames.drill import DrillSession
from musicgames.theory import CARD_NOTES


def _per_write(path: Path, journal: str, checkpoint: bool, count: int = 1000) -> float:
    """Median ms per answer written with raw sqlite3 in one journal setting (each its own
    transaction, synchronous=FULL), with a WAL checkpoint after each when asked."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(f"PRAGMA journal_mode = {journal}")
    con.execute("PRAGMA synchronous = FULL")
    con.execute("CREATE TABLE answers (a TEXT, b TEXT, c INTEGER, d REAL)")
    times = []
    for i in range(count):
        start = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO answers VALUES (?, ?, ?, ?)", ("Ana", "Sol3", i % 2, 800.0))
        con.execute("COMMIT")
        if checkpoint:
            con.execute("PRAGMA wal_checkpoint(FULL)")
        times.append((time.perf_counter() - start) * 1000)
    con.close()
    return statistics.median(times)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-progress-"))
    print("cost of one write, by SQLite setting (raw sqlite3, synchronous=FULL, median):")
    for label, journal, checkpoint in [
        ("rollback journal, DELETE (chosen)", "DELETE", False),
        ("rollback journal, TRUNCATE", "TRUNCATE", False),
        ("WAL + checkpoint after each write", "WAL", True),
        ("WAL alone (main file NOT complete)", "WAL", False),
    ]:
        ms = _per_write(folder / f"{journal}-{checkpoint}.sqlite3", journal, checkpoint)
        print(f"  {label:<38} {ms:.3f} ms")

    store = progress.ProgressStore(folder / "ana.sqlite3", student="Ana")
    times = []
    for i in range(2000):
        start = time.perf_counter()
        store.record("drill", CARD_NOTES[i % 15].solfege, "Do", i % 3 != 0, 800.0 + i)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"ProgressStore.record (own transaction, {progress.JOURNAL_MODE} journal, "
        f"synchronous=FULL): median {statistics.median(times):.3f} ms, "
        f"95th percentile {sorted(times)[int(0.95 * len(times))]:.3f} ms over {len(times)}"
    )
    (folder / "handed-in").mkdir()
    start = time.perf_counter()
    store.hand_in(folder / "handed-in")
    print(f"hand in {len(store)} answers: {(time.perf_counter() - start) * 1000:.1f} ms")
    store.close()

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
