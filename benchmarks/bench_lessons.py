"""How long a lesson takes to appear, headless: its page built with every step shown.

Prints, per lesson and language: the time to open the lesson and show its settings, every
step (drawings, exercises, drills, games) and its summary — the Python side of "Run all"
without the kernel's start — the first time in the process (drawings not yet cached) and
again; then the time to build the twelve notebooks from the course.

    python benchmarks/bench_lessons.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from musicgames.lessons import open_lesson
from musicgames.lessons.build import build
from musicgames.lessons.course import COURSE


def show_all(lesson_id: str, language: str) -> float:
    """Seconds to open one lesson and show every step of it."""
    start = time.perf_counter()
    lesson = open_lesson(lesson_id, language, remember=False, record=False)
    lesson.settings()
    for step in lesson.plan.steps:
        lesson.show(step)
    lesson.summary()
    return time.perf_counter() - start


def main() -> None:
    print(f"{'lesson':<26}{'lang':<6}{'first (s)':>10}{'again (s)':>10}{'steps':>7}")
    again_all = []
    for plan in COURSE:
        for language in ("en", "es"):
            first = show_all(plan.id, language)
            again = statistics.median(show_all(plan.id, language) for _ in range(3))
            again_all.append(again)
            print(f"{plan.id:<26}{language:<6}{first:>10.3f}{again:>10.3f}{len(plan.steps):>7}")
    print(f"median of 'again' over the twelve: {statistics.median(again_all):.3f} s")
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        written = build(Path(folder))
        print(f"build {len(written)} notebooks: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
