"""Stored progress: one row per answer or game event, in a small SQLite file per student.

Each student has one progress file (SQLite). Every answer is its own transaction, written
through to the file itself before :meth:`ProgressStore.record` returns (a rollback journal,
``synchronous=FULL``): a copy of the file alone, made at any moment after that, holds the
answer, even if the notebook that wrote it was killed. Several notebooks of one student can
write to the file at the same time; each waits for the others' short writes. The file lives
in the user's data folder unless another path is given, or the ``MUSICGAMES_DATA_DIR``
environment variable names another folder (for a class on a shared drive, or for tests).
The student's name is stored in the file once; every row carries it, so files from a whole
class can be read together.

>>> import tempfile, pathlib
>>> from musicgames.progress import ProgressStore, item_stats, read_answers
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
...     _ = store.record("drill", "Sol3", "Sol", correct=True, response_ms=850)
...     _ = store.record("drill", "Fa3", "Mi", correct=False, response_ms=1900)
...     [(a.item, a.answer, a.correct) for a in store.answers()]
[('Sol3', 'Sol', True), ('Fa3', 'Mi', False)]
>>> summary = item_stats(read_answers(folder / "ana.sqlite3"))
>>> [(s.item, s.count, s.accuracy, s.median_ms) for s in summary]
[('Fa3', 1, 0.0, 1900.0), ('Sol3', 1, 1.0, 850.0)]

A file that is not a progress file is refused with a clear message and left exactly as it was:

>>> _ = (folder / "notes.sqlite3").write_bytes(b"shopping list: milk, eggs")
>>> ProgressStore(folder / "notes.sqlite3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.progress.errors.CorruptProgressFileError: ...notes.sqlite3 is not a musicgames \
progress file: it is not an SQLite database (it may be damaged). It was left untouched; ...

Nothing read from disk is ever unpickled or evaluated: rows are plain SQL values and CSV text.

The package, one job per module (each name below is imported from its module on first use,
so a widget that records answers loads neither the teacher's reports nor their charts):

* :mod:`~musicgames.progress.errors` — what can go wrong, one class per kind;
* :mod:`~musicgames.progress.answers` — one answer (:class:`Answer`) and its checks;
* :mod:`~musicgames.progress.sink` — what widgets record answers into, and what they say
  when a write fails;
* :mod:`~musicgames.progress.files` — where files live, their layout, reading them;
* :mod:`~musicgames.progress.store` — :class:`ProgressStore`, the file open for writing;
* :mod:`~musicgames.progress.hand_in` — a copy handed in to the teacher's folder;
* :mod:`~musicgames.progress.csv_files` — CSV export and import;
* :mod:`~musicgames.progress.class_folder` — reading a whole class folder;
* :mod:`~musicgames.progress.stats` and :mod:`~musicgames.progress.lesson_stats` — numbers
  per item, day, student and lesson;
* :mod:`~musicgames.progress.words`, :mod:`~musicgames.progress.tables`,
  :mod:`~musicgames.progress.charts`, :mod:`~musicgames.progress.report` — the teacher's
  tables, charts and report, in the teacher's language.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from musicgames.progress.answers import (
        ACTIVITIES,
        CSV_COLUMNS,
        Answer,
        csv_cell,
        csv_text,
        lesson_item,
    )
    from musicgames.progress.charts import plot_days, plot_items, plot_notes
    from musicgames.progress.class_folder import (
        PROGRESS_SUFFIXES,
        demo_class,
        open_class,
        read_class,
    )
    from musicgames.progress.csv_files import CSV_FIELD_LIMIT, decode_csv, export_csv, read_csv
    from musicgames.progress.errors import (
        AnswerError,
        CorruptProgressFileError,
        ForeignDatabaseError,
        HandInError,
        NewerProgressFileError,
        ProgressCsvError,
        ProgressError,
        StudentNameError,
    )
    from musicgames.progress.files import (
        APPLICATION_ID,
        SCHEMA_VERSION,
        data_dir,
        default_path,
        read_answers,
    )
    from musicgames.progress.hand_in import hand_in_name
    from musicgames.progress.lesson_stats import LessonStats, lesson_completion
    from musicgames.progress.report import ClassProgress, NotRead, Report
    from musicgames.progress.sink import ProgressSink, not_saved_notice, why_not_saved
    from musicgames.progress.stats import (
        DayStats,
        ItemStats,
        StudentStats,
        daily_stats,
        item_stats,
        student_stats,
    )
    from musicgames.progress.store import (
        JOURNAL_MODE,
        WRITE_TIMEOUT_S,
        ProgressStore,
        open_progress,
    )
    from musicgames.progress.tables import Table
    from musicgames.progress.words import item_label

__all__ = [
    "ACTIVITIES",
    "APPLICATION_ID",
    "CSV_COLUMNS",
    "CSV_FIELD_LIMIT",
    "JOURNAL_MODE",
    "PROGRESS_SUFFIXES",
    "SCHEMA_VERSION",
    "WRITE_TIMEOUT_S",
    "Answer",
    "AnswerError",
    "ClassProgress",
    "CorruptProgressFileError",
    "DayStats",
    "ForeignDatabaseError",
    "HandInError",
    "ItemStats",
    "LessonStats",
    "NewerProgressFileError",
    "NotRead",
    "ProgressCsvError",
    "ProgressError",
    "ProgressSink",
    "ProgressStore",
    "Report",
    "StudentNameError",
    "StudentStats",
    "Table",
    "csv_cell",
    "csv_text",
    "daily_stats",
    "data_dir",
    "decode_csv",
    "default_path",
    "demo_class",
    "export_csv",
    "hand_in_name",
    "item_label",
    "item_stats",
    "lesson_completion",
    "lesson_item",
    "not_saved_notice",
    "open_class",
    "open_progress",
    "plot_days",
    "plot_items",
    "plot_notes",
    "read_answers",
    "read_class",
    "read_csv",
    "student_stats",
    "why_not_saved",
]

#: The module each public name lives in (imported when the name is first asked for).
_WHERE = {
    "AnswerError": "musicgames.progress.errors",
    "CorruptProgressFileError": "musicgames.progress.errors",
    "ForeignDatabaseError": "musicgames.progress.errors",
    "HandInError": "musicgames.progress.errors",
    "NewerProgressFileError": "musicgames.progress.errors",
    "ProgressCsvError": "musicgames.progress.errors",
    "ProgressError": "musicgames.progress.errors",
    "StudentNameError": "musicgames.progress.errors",
    "ACTIVITIES": "musicgames.progress.answers",
    "CSV_COLUMNS": "musicgames.progress.answers",
    "Answer": "musicgames.progress.answers",
    "csv_cell": "musicgames.progress.answers",
    "csv_text": "musicgames.progress.answers",
    "lesson_item": "musicgames.progress.answers",
    "ProgressSink": "musicgames.progress.sink",
    "not_saved_notice": "musicgames.progress.sink",
    "why_not_saved": "musicgames.progress.sink",
    "APPLICATION_ID": "musicgames.progress.files",
    "SCHEMA_VERSION": "musicgames.progress.files",
    "data_dir": "musicgames.progress.files",
    "default_path": "musicgames.progress.files",
    "read_answers": "musicgames.progress.files",
    "JOURNAL_MODE": "musicgames.progress.store",
    "WRITE_TIMEOUT_S": "musicgames.progress.store",
    "ProgressStore": "musicgames.progress.store",
    "open_progress": "musicgames.progress.store",
    "hand_in_name": "musicgames.progress.hand_in",
    "CSV_FIELD_LIMIT": "musicgames.progress.csv_files",
    "decode_csv": "musicgames.progress.csv_files",
    "export_csv": "musicgames.progress.csv_files",
    "read_csv": "musicgames.progress.csv_files",
    "PROGRESS_SUFFIXES": "musicgames.progress.class_folder",
    "demo_class": "musicgames.progress.class_folder",
    "open_class": "musicgames.progress.class_folder",
    "read_class": "musicgames.progress.class_folder",
    "DayStats": "musicgames.progress.stats",
    "ItemStats": "musicgames.progress.stats",
    "StudentStats": "musicgames.progress.stats",
    "daily_stats": "musicgames.progress.stats",
    "item_stats": "musicgames.progress.stats",
    "student_stats": "musicgames.progress.stats",
    "LessonStats": "musicgames.progress.lesson_stats",
    "lesson_completion": "musicgames.progress.lesson_stats",
    "item_label": "musicgames.progress.words",
    "Table": "musicgames.progress.tables",
    "plot_days": "musicgames.progress.charts",
    "plot_items": "musicgames.progress.charts",
    "plot_notes": "musicgames.progress.charts",
    "ClassProgress": "musicgames.progress.report",
    "NotRead": "musicgames.progress.report",
    "Report": "musicgames.progress.report",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'musicgames.progress' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
