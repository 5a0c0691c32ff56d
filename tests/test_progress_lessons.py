"""Lesson exercises are recorded under their lesson, and the teacher sees per-lesson completion."""

from __future__ import annotations

from pathlib import Path

import pytest

from musicgames import progress
from musicgames.progress import AnswerError, ProgressStore


def test_lesson_answers_are_stored_under_lesson_and_exercise(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        item = progress.lesson_item("01-the-staff", "line-or-space")
        row = store.record("lesson", item, "line", True, 1500.0)
        assert store.answers("lesson") == [row]
        with pytest.raises(AnswerError, match="lesson-id"):
            store.record("lesson", "no exercise here", "x", True, 10.0)
        assert len(store) == 1


def test_per_lesson_completion_counts_distinct_exercises_answered(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
        for exercise, correct in [("a", True), ("a", False), ("b", True), ("x", True)]:
            store.record("lesson", f"01-the-staff/{exercise}", "?", correct, 1000.0)
        store.record("lesson", "02-octaves/a", "?", False, 1000.0)
        store.record("drill", "Sol3", "Sol", True, 700.0)
    with ProgressStore(folder / "bruno.sqlite3", student="Bruno") as store:
        store.record("drill", "Sol3", "Sol", True, 700.0)
    klass = progress.open_class(folder)
    listed = {"01-the-staff": ["a", "b", "c"], "02-octaves": ["a", "b"]}
    stats = {(s.student, s.lesson): s for s in progress.lesson_completion(klass.answers, listed)}
    assert (stats["Ana", "01-the-staff"].done, stats["Ana", "01-the-staff"].total) == (2, 3)
    assert stats["Ana", "01-the-staff"].answers == 4  # every answer counts, x too
    assert stats["Ana", "02-octaves"].completion == 0.5
    assert stats["Bruno", "01-the-staff"].done == 0  # a student who has not begun: 0 of 3
    table = klass.lessons_table(listed)
    assert ("Ana", "Lesson 1 · The staff", "2 / 3", "4", "75%") in table.rows  # its title
    # Without the lessons' list: the distinct exercises answered.
    unlisted = progress.lesson_completion(klass.answers, {})
    assert [(s.lesson, s.done, s.total) for s in unlisted] == [
        ("01-the-staff", 3, None),
        ("02-octaves", 1, None),
    ]
