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
musicgames.progress.CorruptProgressFileError: ...notes.sqlite3 is not a musicgames progress file: \
it is not an SQLite database (it may be damaged). It was left untouched; ...

Nothing read from disk is ever unpickled or evaluated: rows are plain SQL values and CSV text.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timezone
from functools import cache
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from musicgames import memory
from musicgames.memory import Memory
from musicgames.theory import LETTERS, Naming, Note, NoteError

if TYPE_CHECKING:
    from fsrs import Card
    from matplotlib.figure import Figure
    from matplotlib.path import Path as Outline

__all__ = [
    "ACTIVITIES",
    "CSV_COLUMNS",
    "SCHEMA_VERSION",
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
    "ProgressError",
    "ProgressCsvError",
    "ProgressSink",
    "ProgressStore",
    "Report",
    "StudentNameError",
    "StudentStats",
    "Table",
    "daily_stats",
    "data_dir",
    "default_path",
    "demo_class",
    "csv_cell",
    "csv_text",
    "export_csv",
    "hand_in_name",
    "lesson_completion",
    "lesson_item",
    "item_label",
    "item_stats",
    "open_class",
    "not_saved_notice",
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

#: What a row can be about: the note drill, the chord-tones quiz, the two games, and the
#: lessons' exercises (item ``"<lesson-id>/<exercise-id>"``, see :func:`lesson_item`).
ACTIVITIES: tuple[str, ...] = ("drill", "quiz", "note_snap", "keyboard_duel", "lesson")
#: The version of the file layout, kept in ``PRAGMA user_version``.
#: 1: answers; 2: and the FSRS memory state of each item (see :mod:`musicgames.memory`).
SCHEMA_VERSION = 2
#: Marks a SQLite file as a musicgames progress file (``PRAGMA application_id``, "MGPR").
APPLICATION_ID = 0x4D475052
#: The columns of an exported CSV file, in order.
CSV_COLUMNS: tuple[str, ...] = (
    "student",
    "time",
    "activity",
    "item",
    "answer",
    "correct",
    "response_ms",
)
#: File name endings read as progress files in a class folder.
PROGRESS_SUFFIXES: tuple[str, ...] = (".sqlite3", ".sqlite", ".db")
#: How SQLite keeps a write until it is in the file: a rollback journal, deleted at commit,
#: so the main file alone is complete once a write returns (see benchmarks/bench_progress.py
#: for what it costs against WAL with a checkpoint after each write).
JOURNAL_MODE = "DELETE"
#: How long a write waits for other notebooks' writes before it gives up (seconds). Writes
#: take about a millisecond, but SQLite's waiting is not first-come first-served: under a
#: stress of four processes writing as fast as they can, one may wait several seconds. No
#: row may be lost to that, so the wait is long; a file held for longer than this is
#: reported ("progress not saved") and play goes on.
WRITE_TIMEOUT_S = 30.0
_SQLITE_HEADER = b"SQLite format 3\x00"
_ENV_VAR = "MUSICGAMES_DATA_DIR"
_FILE_ENV_VAR = "MUSICGAMES_PROGRESS_FILE"
_MAX_NAME = 80
_MAX_TEXT = 200
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE answers (
    id INTEGER PRIMARY KEY,
    student TEXT NOT NULL,
    time TEXT NOT NULL,
    activity TEXT NOT NULL,
    item TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER CHECK (correct IN (0, 1)),
    response_ms REAL
);
CREATE INDEX answers_by_time ON answers (time);
CREATE TABLE memory (
    activity TEXT NOT NULL,
    item TEXT NOT NULL,
    card TEXT NOT NULL,
    PRIMARY KEY (activity, item)
);
"""
_MEMORY_TABLE = _SCHEMA[_SCHEMA.index("CREATE TABLE memory") :].rstrip().rstrip(";")
_ANSWER_COLUMNS = {"id", "student", "time", "activity", "item", "answer", "correct", "response_ms"}


# -- errors -------------------------------------------------------------------------------


class ProgressError(ValueError):
    """Something about a progress file or an answer that cannot be used.

    ``reason`` says why in a word a teacher's table can put in either language
    (``report.why.<reason>`` in the string catalogue; see :meth:`ClassProgress.not_read`).
    """

    reason = "other"

    def __init__(self, *args: object, reason: str | None = None) -> None:
        super().__init__(*args)
        if reason is not None:
            self.reason = reason


class CorruptProgressFileError(ProgressError):
    """The file is not an SQLite database, or it is damaged. It is never overwritten."""

    reason = "damaged"


class ForeignDatabaseError(ProgressError):
    """The file is an SQLite database of some other program. It is never overwritten."""

    reason = "foreign"


class NewerProgressFileError(ProgressError):
    """The file was written by a newer musicgames whose layout this one does not know."""

    reason = "newer"


class StudentNameError(ProgressError):
    """A missing or unusable student name, or a file that belongs to another student."""


class AnswerError(ProgressError):
    """An answer row with a bad value: an unknown activity, a negative time, …"""


class HandInError(ProgressError):
    """A hand-in that could not be written (a folder that cannot be made, a full disk, …).
    Nothing is left behind in the folder. ``kind`` is ``"missing"`` (no such folder),
    ``"folder"`` (not a usable folder), ``"same"`` (the folder of the progress file itself)
    or ``"write"``; ``why`` is the system's reason."""

    def __init__(self, folder: Path, kind: str, why: str) -> None:
        self.folder, self.kind, self.why = folder, kind, why
        if kind == "same":
            message = f"cannot hand in to {folder}: it holds this very progress file"
        else:
            message = f"cannot hand in to {folder}: {why}"
        super().__init__(message)


class ProgressCsvError(ProgressError):
    """A CSV file that is not a musicgames progress export (the message names the line)."""


# -- where files live ---------------------------------------------------------------------


def data_dir() -> Path:
    """The folder progress files go in: ``$MUSICGAMES_DATA_DIR`` if set, else the user's
    data folder for musicgames (``platformdirs.user_data_dir``)."""
    override = os.environ.get(_ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("musicgames", appauthor=False))


def default_path() -> Path:
    """The default progress file: ``$MUSICGAMES_PROGRESS_FILE`` if set (the classroom server
    sets it to the student's own file in the class folder), else ``progress.sqlite3`` in
    :func:`data_dir`."""
    override = os.environ.get(_FILE_ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return data_dir() / "progress.sqlite3"


# -- one row --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One answer (or game event) of one student.

    ``time`` is UTC in ISO 8601; ``correct`` is ``None`` for an event that is neither right
    nor wrong (a game won, say); ``response_ms`` is ``None`` when nothing was timed.
    """

    student: str
    time: str
    activity: str
    item: str
    answer: str
    correct: bool | None
    response_ms: float | None

    def __post_init__(self) -> None:
        _check_name(self.student)
        _check_time(self.time)
        if self.activity not in ACTIVITIES:
            allowed = ", ".join(ACTIVITIES)
            raise AnswerError(f"activity {_quote(self.activity)} is not one of {allowed}")
        for field_name in ("item", "answer"):
            value = getattr(self, field_name)
            if not isinstance(value, str) or len(value) > _MAX_TEXT:
                raise AnswerError(
                    f"{field_name} {_quote(value)} must be text of at most {_MAX_TEXT} characters"
                )
        if not self.item:
            raise AnswerError("item '' is empty: say what was asked (a note, a chord, …)")
        if self.activity == "lesson" and not _LESSON_ITEM.fullmatch(self.item):
            raise AnswerError(
                f"lesson item {_quote(self.item)} must be '<lesson-id>/<exercise-id>', "
                "like '01-the-staff/line-or-space'"
            )
        if self.correct is not None and not isinstance(self.correct, bool):
            raise AnswerError(f"correct={_quote(self.correct)} must be True, False or None")
        ms = self.response_ms
        if ms is not None and (
            isinstance(ms, bool)
            or not isinstance(ms, (int, float))
            or not math.isfinite(ms)
            or ms < 0
        ):
            raise AnswerError(
                f"response_ms={_quote(ms)} must be a number of milliseconds ≥ 0 or None"
            )

    @property
    def day(self) -> date:
        """The (UTC) day of the answer."""
        return datetime.fromisoformat(self.time).date()

    def to_csv_row(self) -> list[str]:
        """The answer as the text cells of one CSV line (see :data:`CSV_COLUMNS`). The cells
        of text a person typed or chose (student, item, answer) are written so a spreadsheet
        cannot run them as a formula (see :func:`csv_cell`)."""
        correct = "" if self.correct is None else str(int(self.correct))
        ms = "" if self.response_ms is None else repr(float(self.response_ms))
        student, item, answer = (csv_cell(text) for text in (self.student, self.item, self.answer))
        return [student, self.time, self.activity, item, answer, correct, ms]


#: What a spreadsheet may read as the start of a formula (OWASP, "CSV Injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _guarded(text: str) -> bool:
    """Whether a text cell is written with a ``'`` in front (see :func:`csv_cell`)."""
    if text.startswith(_FORMULA_STARTS):
        return not _PLAIN_NUMBER.fullmatch(text)
    return text.startswith("'") and _guarded(text[1:])


def csv_cell(text: str) -> str:
    """A text cell as the CSV export writes it: one that a spreadsheet would take for a
    formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a
    ``'`` in front, as OWASP advises, so Excel, LibreOffice and Google Sheets show it as text
    and never run it. A plain number (``-3``, ``+2.5``) is left as it is: no formula can
    start from it, and the teacher's spreadsheet still reads it as the number it is. A cell
    that already starts with ``'`` before such text gets one more, so reading the file
    back (:func:`read_csv`) gives every cell exactly as it was.

    >>> [csv_cell(t) for t in ("Ana", "=SUM(A1:A9)", "@SUM(A1)", "-3", "-1+1")]
    ['Ana', "'=SUM(A1:A9)", "'@SUM(A1)", '-3', "'-1+1"]
    >>> all(csv_text(csv_cell(t)) == t for t in ("'=1", "''+2", "'Ana", "-3", "\t=1"))
    True
    """
    return f"'{text}" if _guarded(text) else text


def csv_text(cell: str) -> str:
    """A text cell of a CSV export read back: the ``'`` :func:`csv_cell` put in front of
    formula-like text is taken off again."""
    return cell[1:] if cell.startswith("'") and _guarded(cell[1:]) else cell


def _quote(value: object, limit: int = 40) -> str:
    """A value as messages quote it: its repr, cut to ``limit`` characters.

    >>> _quote("x" * 200_000, limit=10)
    "'xxxxxxx… (200002 characters)"
    """
    text = repr(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 2]}… ({len(text)} characters)"


_LESSON_ITEM = re.compile(r"[\w.-]{1,80}/[\w.-]{1,80}")


def lesson_item(lesson: str, exercise: str) -> str:
    """The item a lesson exercise's answers are stored under: ``"<lesson-id>/<exercise-id>"``.

    Lessons record each judged answer with ``record("lesson", lesson_item(...), answer,
    correct, response_ms)``; the teacher's notebook counts, per lesson, the distinct
    exercises answered (see :func:`lesson_completion`).

    >>> lesson_item("01-the-staff", "line-or-space")
    '01-the-staff/line-or-space'
    >>> lesson_item("01 the staff", "x")
    Traceback (most recent call last):
    ...
    musicgames.progress.AnswerError: lesson item '01 the staff/x' must be \
'<lesson-id>/<exercise-id>', like '01-the-staff/line-or-space'
    """
    item = f"{lesson}/{exercise}"
    if not _LESSON_ITEM.fullmatch(item):
        raise AnswerError(
            f"lesson item {item!r} must be '<lesson-id>/<exercise-id>', "
            "like '01-the-staff/line-or-space'"
        )
    return item


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise StudentNameError(f"student name {_quote(name)} is empty: give the student's name")
    if len(name) > _MAX_NAME or any(ord(c) < 32 for c in name) or name != name.strip():
        raise StudentNameError(
            f"student name {_quote(name)} must be at most {_MAX_NAME} characters on one line, "
            "without spaces at either end"
        )
    return name


def _check_time(value: object) -> None:
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise AnswerError(f"time {_quote(value)} is not an ISO 8601 time") from None
    if not isinstance(value, str) or parsed.utcoffset() != timezone.utc.utcoffset(None):
        raise AnswerError(f"time {_quote(value)} must be an ISO 8601 time in UTC (+00:00)")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# -- opening and checking files -----------------------------------------------------------


def _untouched(path: Path, why: str) -> str:
    return (
        f"{path} is not a musicgames progress file: {why}. "
        "It was left untouched; move it away or choose another file."
    )


def _check_connection(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse anything but a musicgames progress file of a version we can read."""
    app_id = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise ForeignDatabaseError(
            _untouched(path, "it is an SQLite database of another program")
        )
    if version > SCHEMA_VERSION:
        raise NewerProgressFileError(
            f"{path} was written by a newer musicgames (file layout {version}, this one reads "
            f"up to {SCHEMA_VERSION}): update musicgames to read it. It was left untouched."
        )
    columns = {row[1] for row in connection.execute("PRAGMA table_info(answers)")}
    if columns != _ANSWER_COLUMNS or version < 1:
        raise CorruptProgressFileError(_untouched(path, "its tables are not the expected ones"))


def _check_file(path: Path) -> None:
    """Check an existing, non-empty file without writing to it."""
    _read_rows(path, check_only=True)


def _companions(path: Path) -> list[Path]:
    """The files SQLite may keep beside ``path`` that can hold part of its content: a
    ``-wal`` file (progress files of older versions, or of other programs) and a non-empty
    ``-journal`` (a write that was cut short, to be rolled back)."""
    found = []
    for suffix in ("-wal", "-journal"):
        companion = Path(f"{path}{suffix}")
        try:
            if companion.is_file() and companion.stat().st_size > 0:
                found.append(companion)
        except OSError:
            continue
    return found


@contextmanager
def _reading(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection for reading ``path`` that never writes next to it.

    With nothing beside it, the file is complete as it stands. A file in rollback-journal
    mode (as this version writes them) is opened ``mode=ro``: SQLite's shared lock keeps a
    notebook's write from changing it mid-read, and no file is made beside it. A file in
    WAL mode (older versions) is opened ``immutable``, since a WAL reader would make files
    beside it. Either way a teacher's class folder stays as it was. With a ``-wal`` or
    ``-journal`` beside it, the file and those are copied to a temporary folder and opened
    there, so rows still in a WAL are read (a stray WAL that does not belong to the file is
    ignored by SQLite) and a cut-short write is rolled back, in the copy only.
    """
    for _look in range(_COPY_TRIES):
        companions = _companions(path)
        if not companions:
            with path.open("rb") as handle:
                header = handle.read(20)
            wal_mode = len(header) == 20 and header[18] == 2  # file format versions: 2 is WAL
            mode = "immutable=1" if wal_mode else "mode=ro"
            connection = sqlite3.connect(
                f"{path.resolve().as_uri()}?{mode}", uri=True, timeout=30
            )
            try:
                yield connection
            finally:
                connection.close()
            return
        with tempfile.TemporaryDirectory(prefix="musicgames-read-") as folder:
            copy = Path(folder) / "progress.sqlite3"
            try:
                shutil.copyfile(path, copy)
                for companion in companions:
                    shutil.copyfile(companion, Path(f"{copy}{companion.name[len(path.name):]}"))
            except FileNotFoundError:
                # A notebook's write finished while we copied: its journal is gone, and the
                # file may have changed under the copy. Look again.
                continue
            connection = sqlite3.connect(copy, timeout=30)
            try:
                yield connection
            finally:
                connection.close()
            return
    raise CorruptProgressFileError(
        _untouched(path, f"the files beside it kept changing while it was read ({_COPY_TRIES} "
                   "tries): another program is writing to it"), reason="busy"
    )


#: How many times :func:`_reading` looks again when a write beside the file ends mid-copy.
_COPY_TRIES = 50


def _read_rows(path: Path, *, check_only: bool = False) -> list[Any]:
    """Check a progress file and read its rows, without writing to it or beside it."""
    with path.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if header != _SQLITE_HEADER:
        raise CorruptProgressFileError(
            _untouched(path, "it is not an SQLite database (it may be damaged)")
        )
    try:
        with _reading(path) as connection:
            if _is_empty(connection):
                if check_only:
                    return []  # an empty database: nothing to lose, it may become ours
                raise CorruptProgressFileError(_untouched(path, "it is an empty database"),
                                               reason="empty")
            _check_connection(connection, path)
            problems = connection.execute("PRAGMA quick_check").fetchall()
            if problems != [("ok",)]:
                raise CorruptProgressFileError(_untouched(path, "it is damaged"))
            if check_only:
                return []
            return connection.execute(f"{_SELECT} ORDER BY time, id").fetchall()
    except sqlite3.DatabaseError as err:
        raise CorruptProgressFileError(_untouched(path, f"it is damaged ({err})")) from None


def _row_to_answer(row: Sequence[Any]) -> Answer:
    student, time, activity, item, answer, correct, response_ms = row
    return Answer(
        student,
        time,
        activity,
        item,
        answer,
        None if correct is None else bool(correct),
        None if response_ms is None else float(response_ms),
    )


def _is_empty(connection: sqlite3.Connection) -> bool:
    tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    app_id = connection.execute("PRAGMA application_id").fetchone()[0]
    return bool(tables == 0 and app_id == 0)


@contextmanager
def _writers_queue(path: Path, timeout: float, *, create: bool = True) -> Iterator[None]:
    """Writers of one file take turns through an OS file lock (``.name.lock`` beside it),
    where the system has one: a waiting writer is woken when the lock is free, rather than
    polling SQLite's lock and perhaps losing the race again and again (which can starve a
    writer for seconds when several notebooks write at full speed). Waiting ends after
    ``timeout`` seconds; SQLite's own locking still guards the file either way. With
    ``create=False`` the lock file is only used when writers already made it (nothing new is
    put beside a file that is not ours yet)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: SQLite's locking alone
        yield
        return
    lock_path = path.with_name(f".{path.name}.lock")
    try:
        handle = os.open(lock_path, os.O_RDWR | (os.O_CREAT if create else 0), 0o644)
    except OSError:
        yield  # a read-only folder, say: SQLite's locking alone
        return
    try:
        deadline = time.monotonic() + timeout
        locked = False
        while not locked:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break  # go on: SQLite's busy timeout decides
                time.sleep(0.001)
        yield
    finally:
        os.close(handle)  # releases the lock


def _card_or_none(text: object) -> Card | None:
    """A stored memory state, or ``None`` when the row is damaged (it starts over)."""
    try:
        return memory.card_from_json(str(text))
    except memory.MemoryError_:
        return None


def _write_schema(connection: sqlite3.Connection) -> None:
    for statement in _SCHEMA.split(";"):  # not executescript: that would commit first
        if statement.strip():
            connection.execute(statement)
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _create(path: Path) -> None:
    """Make a new, empty progress file at ``path`` in one step.

    The file is built under a temporary name and then hard-linked into place, which fails
    if the name exists: so a file at ``path`` is never half-made, and when two processes
    create it at once, one wins and both use its file. (Where hard links are not possible,
    an empty file is made and filled in place, inside a transaction.)
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    connection = sqlite3.connect(temporary, isolation_level=None)
    try:
        connection.execute(f"PRAGMA journal_mode = {JOURNAL_MODE}")
        connection.execute("BEGIN")
        _write_schema(connection)
        connection.execute("COMMIT")
    finally:
        connection.close()
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass  # someone else made it first: theirs is used
    except OSError:
        path.touch()  # no hard links here: an empty file, filled in by _prepare
    finally:
        temporary.unlink()


_SELECT = "SELECT student, time, activity, item, answer, correct, response_ms FROM answers"


class ProgressSink(Protocol):
    """Where the widgets send answers and game events: anything with this ``record``.

    :class:`ProgressStore` fits; so does a small test double that keeps the rows in a list.
    """

    def record(
        self,
        activity: str,
        item: str,
        answer: str,
        correct: bool | None,
        response_ms: float | None = None,
    ) -> Any: ...


class ProgressStore:
    """A student's progress file, open for writing.

    ``path`` defaults to :func:`default_path`. A missing (or empty) file is created; an
    existing one must be a musicgames progress file, or :class:`CorruptProgressFileError`,
    :class:`ForeignDatabaseError` or :class:`NewerProgressFileError` is raised and the file
    is left exactly as it was. ``student`` sets the student's name if the file has none yet;
    a file that already belongs to someone else raises :class:`StudentNameError`. A name that
    cannot be used is refused before the file is opened or made: nothing is left behind.

    Each :meth:`record` is its own transaction, so several processes (a drill and a game in
    two notebooks) can write to one file at the same time without losing a row: a write
    waits up to ``timeout`` seconds (:data:`WRITE_TIMEOUT_S`) for the others' (each takes
    about a millisecond), then raises ``sqlite3.OperationalError`` ("database is locked"),
    which the widgets report once ("progress not saved: …") and play on.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        student: str | None = None,
        timeout: float | None = None,
    ):
        if student is not None:
            _check_name(student)  # before anything touches the disk
        self.path = Path(path) if path is not None else default_path()
        self.timeout = WRITE_TIMEOUT_S if timeout is None else float(timeout)
        self._lock = threading.Lock()
        if not self.path.exists():
            _create(self.path)
        if self.path.stat().st_size > 0:
            # not in the middle of another notebook's write
            with _writers_queue(self.path, self.timeout, create=False):
                _check_file(self.path)
        self._connection = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        try:
            self._prepare()
        except sqlite3.DatabaseError as err:
            self._connection.close()
            why = _untouched(self.path, f"it is damaged ({err})")
            raise CorruptProgressFileError(why) from None
        except ProgressError:
            self._connection.close()
            raise
        if student is not None:
            try:
                self.set_student(student)
            except BaseException:  # another student's file: refused, and nothing left open
                self._connection.close()
                raise

    def _prepare(self) -> None:
        con = self._connection
        con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        con.execute("BEGIN IMMEDIATE")  # one process at a time decides whether to create
        try:
            if _is_empty(con):  # an empty file given to us: make it a progress file
                _write_schema(con)
            else:
                _check_connection(con, self.path)
                if con.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    self._upgrade()
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        con.execute("PRAGMA synchronous = FULL")
        self._switch_journal()

    def _upgrade(self) -> None:
        """Bring a file of layout 1 to layout 2 (in the open transaction): add the memory
        table and fill it from the answers already there, oldest first."""
        con = self._connection
        con.execute(_MEMORY_TABLE)
        rows = [_row_to_answer(r) for r in con.execute(f"{_SELECT} ORDER BY time, id")]
        self._update_memory(rows)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _update_memory(self, rows: Iterable[Answer]) -> None:
        """Update the memory state of each judged answer's item (in the open transaction)."""
        con = self._connection
        cards: dict[tuple[str, str], Card | None] = {}
        for a in rows:
            if a.correct is None:
                continue
            key = (a.activity, a.item)
            if key not in cards:
                found = con.execute(
                    "SELECT card FROM memory WHERE activity = ? AND item = ?", key
                ).fetchone()
                cards[key] = _card_or_none(found[0]) if found else None
            when = datetime.fromisoformat(a.time)
            cards[key] = memory.review(
                cards[key], a.correct, a.response_ms, when, memory.slow_ms_for(a.activity)
            )
        con.executemany(
            "INSERT OR REPLACE INTO memory (activity, item, card) VALUES (?, ?, ?)",
            [(act, item, memory.card_to_json(c)) for (act, item), c in cards.items() if c],
        )

    def _switch_journal(self) -> None:
        """Use the rollback journal (a file of an older version may be in WAL mode: it is
        switched, and its WAL folded in, as soon as no other notebook has it open; until
        then each write is checkpointed into the file)."""
        mode = self._connection.execute(f"PRAGMA journal_mode = {JOURNAL_MODE}").fetchone()
        self._wal = str(mode[0]).lower() == "wal"

    def _written_through(self) -> None:
        """After a commit: make sure the main file alone holds it."""
        if self._wal:
            self._switch_journal()
        if self._wal:
            self._connection.execute("PRAGMA wal_checkpoint(FULL)")

    # -- the student ----------------------------------------------------------------------
    @property
    def student(self) -> str | None:
        """The student this file belongs to, or ``None`` before a name was set."""
        with self._lock:
            row = self._connection.execute(
                "SELECT value FROM meta WHERE key = 'student'"
            ).fetchone()
        return None if row is None else str(row[0])

    def set_student(self, name: str) -> None:
        """Set the student's name, once. Setting the same name again is fine."""
        _check_name(name)
        with self._lock:
            con = self._connection
            con.execute("BEGIN IMMEDIATE")
            try:
                row = con.execute("SELECT value FROM meta WHERE key = 'student'").fetchone()
                if row is None:
                    con.execute("INSERT INTO meta (key, value) VALUES ('student', ?)", (name,))
                elif row[0] != name:
                    raise StudentNameError(
                        f"{self.path} belongs to {row[0]!r}, not {name!r}: "
                        "each student keeps their own progress file"
                    )
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise

    # -- writing --------------------------------------------------------------------------
    def record(
        self,
        activity: str,
        item: str,
        answer: str,
        correct: bool | None,
        response_ms: float | None = None,
        *,
        time: str | None = None,
    ) -> Answer:
        """Store one answer (or game event) now, and return it.

        ``time`` (UTC, ISO 8601) defaults to the present moment.
        """
        student = self.student
        if student is None:
            raise StudentNameError(
                f"{self.path} has no student name yet: call set_student('Name') first"
            )
        row = Answer(student, time or _now(), activity, item, answer, correct, response_ms)
        self._insert([row])
        return row

    def _insert(self, rows: Iterable[Answer]) -> int:
        answers = list(rows)
        values = [
            (
                a.student,
                a.time,
                a.activity,
                a.item,
                a.answer,
                None if a.correct is None else int(a.correct),
                a.response_ms,
            )
            for a in answers
        ]
        with self._lock, _writers_queue(self.path, self.timeout):
            con = self._connection
            con.execute("BEGIN IMMEDIATE")
            try:
                con.executemany(
                    "INSERT INTO answers (student, time, activity, item, answer, correct, "
                    "response_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
                self._update_memory(answers)
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
            self._written_through()
        return len(values)

    # -- reading --------------------------------------------------------------------------
    def answers(self, activity: str | None = None) -> list[Answer]:
        """Every stored row, oldest first (only one activity's if ``activity`` is given)."""
        if activity is not None and activity not in ACTIVITIES:
            raise AnswerError(f"activity {activity!r} is not one of {', '.join(ACTIVITIES)}")
        with self._lock:
            if activity is None:
                rows = self._connection.execute(f"{_SELECT} ORDER BY time, id").fetchall()
            else:
                rows = self._connection.execute(
                    f"{_SELECT} WHERE activity = ? ORDER BY time, id", (activity,)
                ).fetchall()
        return [_row_to_answer(r) for r in rows]

    def memory(self, activity: str) -> Memory:
        """The memory state (FSRS) of every item of ``activity`` answered so far."""
        if activity not in ACTIVITIES:
            raise AnswerError(f"activity {_quote(activity)} is not one of {', '.join(ACTIVITIES)}")
        with self._lock:
            rows = self._connection.execute(
                "SELECT item, card FROM memory WHERE activity = ?", (activity,)
            ).fetchall()
        cards = {str(item): c for item, text in rows if (c := _card_or_none(text)) is not None}
        return Memory(cards, slow_ms=memory.slow_ms_for(activity))

    def due(self, activity: str, now: datetime | None = None) -> list[str]:
        """The items of ``activity`` due for review at ``now`` (default: the present moment),
        most overdue first — the lowest chance of recall first (see :mod:`musicgames.memory`).

        >>> import tempfile, pathlib
        >>> from datetime import datetime, timedelta, timezone
        >>> day = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
        >>> store = ProgressStore(pathlib.Path(tempfile.mkdtemp()) / "p.sqlite3", student="Ana")
        >>> for n in range(5):
        ...     _ = store.record("drill", "La3", "La", True, 800,
        ...                      time=(day + timedelta(minutes=n)).isoformat())
        >>> _ = store.record("drill", "Sol3", "Fa", False, 800, time=day.isoformat())
        >>> store.due("drill", now=day + timedelta(days=1))
        ['Sol3']
        """
        when = datetime.now(timezone.utc) if now is None else now
        if when.tzinfo is None:
            raise AnswerError("now must be a time with a time zone (UTC)")
        return self.memory(activity).due(when.astimezone(timezone.utc))

    def __len__(self) -> int:
        with self._lock:
            return int(self._connection.execute("SELECT count(*) FROM answers").fetchone()[0])

    # -- CSV --------------------------------------------------------------------------------
    def export_csv(self, target: str | os.PathLike[str] | io.TextIOBase) -> int:
        """Write every row to a CSV file (or open text file); return how many."""
        return export_csv(self.answers(), target)

    def import_csv(self, source: str | os.PathLike[str] | io.TextIOBase) -> int:
        """Add the rows of an exported CSV file; rows already stored are skipped.

        All rows must be this file's student's (the name is taken from the CSV if the file
        has none yet). Returns how many rows were added.
        """
        rows = read_csv(source)
        names = {a.student for a in rows}
        if len(names) > 1:
            raise StudentNameError(
                f"the CSV holds answers of {len(names)} students ({', '.join(sorted(names))}): "
                "a progress file keeps one student's"
            )
        if names:
            self.set_student(names.pop())
        present = set(self.answers())
        new = [a for a in rows if a not in present]
        return self._insert(new) if new else 0

    # -- handing in -------------------------------------------------------------------------
    def hand_in(self, folder: str | os.PathLike[str]) -> Path:
        """Write a copy of this file into ``folder`` for the teacher; return its path.

        ``folder`` must exist: a folder that is not there (a typing mistake, most likely) is
        refused, never made, so a hand-in cannot land where the teacher does not look.

        The copy is one self-contained file named after the student (``Ana Pérez`` →
        ``ana-pérez.sqlite3``, see :func:`hand_in_name`). It is taken with SQLite's backup
        API (a consistent copy, even while another notebook writes), written under a
        temporary name and renamed into place, so the folder never holds half a file. A copy
        handed in before by the same student is replaced; a file of the same name that is
        someone else's (or not a progress file) is left alone and ``-2``, ``-3``, … is added.
        """
        student = self.student
        if student is None:
            raise StudentNameError(
                f"{self.path} has no student name yet: call set_student('Name') first"
            )
        target_folder = Path(folder).expanduser()
        if not target_folder.exists():  # a mistyped folder is never made
            raise HandInError(target_folder, "missing", "there is no such folder")
        if not target_folder.is_dir():
            raise HandInError(target_folder, "folder", "not a folder")
        target = _hand_in_target(target_folder, student)
        if target.resolve() == self.path.resolve():
            raise HandInError(target_folder, "same", "")
        temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            copy = sqlite3.connect(temporary, isolation_level=None)
            try:
                with self._lock:
                    self._connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # self-contained, whatever ours is
                copy.execute("PRAGMA synchronous = FULL")
            finally:
                copy.close()
            with temporary.open("rb+") as handle:
                os.fsync(handle.fileno())
            os.replace(temporary, target)
            _sync_folder(target_folder)
        except (OSError, sqlite3.Error) as err:
            temporary.unlink(missing_ok=True)
            why = getattr(err, "strerror", None) or str(err)
            raise HandInError(target_folder, "write", why) from None
        return target

    # -- closing --------------------------------------------------------------------------
    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._connection.close()

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProgressStore({str(self.path)!r})"


_RESERVED_NAMES = {"con", "prn", "aux", "nul"} | {
    f"{kind}{n}" for kind in ("com", "lpt") for n in range(1, 10)
}


def hand_in_name(student: str) -> str:
    """The file name a student's progress is handed in under: lower case, letters (accents
    kept), digits, ``-`` and ``_`` only, at most 60 characters, then ``.sqlite3``.

    >>> hand_in_name("Ana Pérez"), hand_in_name("../../etc/passwd"), hand_in_name("  ?! ")
    ('ana-pérez.sqlite3', 'etc-passwd.sqlite3', 'student.sqlite3')
    """
    text = unicodedata.normalize("NFC", str(student)).lower()
    text = re.sub(r"[^\w-]+", "-", text).strip("-_")[:60].strip("-_")
    if not text:
        text = "student"
    if text in _RESERVED_NAMES:
        text = f"{text}-student"
    return f"{text}.sqlite3"


def _file_student(path: Path) -> str | None:
    """The student a progress file belongs to, or ``None`` if it is not a readable one."""
    try:
        _check_file(path)
        with _reading(path) as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = 'student'").fetchone()
    except (ProgressError, sqlite3.Error, OSError):
        return None
    return None if row is None else str(row[0])


def _hand_in_target(folder: Path, student: str) -> Path:
    name = hand_in_name(student)
    stem = name.removesuffix(".sqlite3")
    for number in range(1, 1000):
        target = folder / (name if number == 1 else f"{stem}-{number}.sqlite3")
        if not target.exists() or _file_student(target) == student:
            return target
    raise HandInError(folder, "write", f"999 files named like {name} are there already")


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows it)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def why_not_saved(err: BaseException, language: str = "en") -> str:
    """Why a progress write failed, in words for the person (English or Spanish): a full
    disk, a file busy in another notebook, a file that cannot be written, or else in general.

    >>> why_not_saved(sqlite3.OperationalError("database is locked"), "es")
    'el archivo de progreso está ocupado en otro cuaderno'
    """
    from musicgames.i18n import text

    message = str(err).lower()
    if "full" in message or "no space" in message:
        key = "progress.why.full"
    elif "locked" in message or "busy" in message:
        key = "progress.why.locked"
    elif "readonly" in message or "read-only" in message or isinstance(err, PermissionError):
        key = "progress.why.readonly"
    else:
        key = "progress.why.other"
    return text(key, language)


def not_saved_notice(err: BaseException, language: str = "en") -> str:
    """The line a widget shows once when progress could not be written: "Progress not
    saved: the disk is full. You can keep playing." """
    from musicgames.i18n import text

    return text("progress.not_saved", language, why=why_not_saved(err, language))


def open_progress(
    student: str | None = None, path: str | os.PathLike[str] | None = None
) -> ProgressStore | None:
    """The progress store for lessons: the default file (or ``path``) with ``student``'s name.

    Returns ``None`` (nothing is recorded) when no name is given and the file has none yet.
    """
    target = Path(path) if path is not None else default_path()
    if student is None and not (target.exists() and target.stat().st_size > 0):
        return None
    store = ProgressStore(target, student=student)
    if store.student is None:
        store.close()
        return None
    return store


def read_answers(path: str | os.PathLike[str]) -> list[Answer]:
    """The rows of a progress file (``.sqlite3``) or a CSV export, read without writing."""
    target = Path(path)
    if target.suffix.lower() == ".csv":
        return read_csv(target)
    if not target.exists():
        raise ProgressError(f"{target} does not exist")
    rows = _read_rows(target)
    try:
        return [_row_to_answer(r) for r in rows]
    except ProgressError as err:
        raise CorruptProgressFileError(_untouched(target, f"a row is not valid ({err})")) from None


# -- CSV ------------------------------------------------------------------------------------


def export_csv(answers: Iterable[Answer], target: str | os.PathLike[str] | io.TextIOBase) -> int:
    """Write answers as CSV (a header line, then one line per answer); return how many."""
    if isinstance(target, io.TextIOBase):
        return _write_csv(answers, target)
    with Path(target).open("w", newline="", encoding="utf-8") as handle:
        return _write_csv(answers, handle)


def _write_csv(answers: Iterable[Answer], handle: Any) -> int:
    writer = csv.writer(handle)
    writer.writerow(CSV_COLUMNS)
    count = 0
    for answer in answers:
        writer.writerow(answer.to_csv_row())
        count += 1
    return count


def read_csv(source: str | os.PathLike[str] | io.TextIOBase) -> list[Answer]:
    """Read answers from a CSV export, checking every cell (a bad line raises
    :class:`ProgressCsvError` naming it).

    A file is read as spreadsheets save it: UTF-8 with or without a byte-order mark, UTF-16
    with one, or else Windows-1252 (Latin-1) — see :func:`decode_csv`; with commas,
    semicolons (European Excel, where ``812,5`` is a number) or tabs between cells.
    """
    answers, problems = _read_csv(source, strict=True)
    return answers


def decode_csv(data: bytes) -> tuple[str, str]:
    """The text of a CSV file's bytes and the encoding it was read in.

    A byte-order mark says UTF-8 or UTF-16; text that is valid UTF-8 is UTF-8 (text in
    another encoding almost never is, once it has accents); anything else is read as
    Windows-1252, the encoding Excel on Windows saves "CSV" in (bytes Windows-1252 leaves
    undefined are read as Latin-1).

    >>> decode_csv("José".encode("cp1252")), decode_csv("\ufeffJosé".encode("utf-8"))
    (('José', 'cp1252'), ('José', 'utf-8-sig'))
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


#: The longest CSV cell read (the csv module's own limit is 128 kB); longer cells are
#: reported as a bad line, not as a crash.
CSV_FIELD_LIMIT = 16 * 1024 * 1024
_MAX_CSV_BYTES = 256 * 1024 * 1024


def _read_csv(
    source: str | os.PathLike[str] | io.TextIOBase, *, strict: bool
) -> tuple[list[Answer], list[tuple[int, str]]]:
    if isinstance(source, io.TextIOBase):
        return _parse_csv(source.read(), "<text>", strict=strict)
    path = Path(source)
    size = path.stat().st_size
    if size == 0:
        raise ProgressCsvError(f"{path.name} is empty (0 bytes)", reason="empty")
    if size > _MAX_CSV_BYTES:
        raise ProgressCsvError(f"{path.name} is too large for a progress export ({size} bytes)",
                               reason="large")
    text, _encoding = decode_csv(path.read_bytes())
    return _parse_csv(text, path.name, strict=strict)


def _delimiter(first_line: str) -> str:
    for delimiter in (",", ";", "\t"):
        cells = next(csv.reader([first_line], delimiter=delimiter), [])
        if tuple(cell.strip() for cell in cells) == CSV_COLUMNS:
            return delimiter
    return ","


def _parse_csv(text: str, name: str, *, strict: bool
               ) -> tuple[list[Answer], list[tuple[int, str]]]:
    """The answers of a CSV text, and (when not ``strict``) the lines that were not read:
    each line's number and why."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    if not text.strip():
        raise ProgressCsvError(f"{name} is empty", reason="empty")
    first_line = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    delimiter = _delimiter(first_line)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
    except csv.Error as err:
        raise ProgressCsvError(f"{name}, line 1: {err}", reason="header") from None
    if header is None or tuple(cell.strip() for cell in header) != CSV_COLUMNS:
        raise ProgressCsvError(
            f"{name}: the first line must be the header {','.join(CSV_COLUMNS)}, "
            f"not {_quote(first_line, 60)}", reason="header"
        )
    answers: list[Answer] = []
    problems: list[tuple[int, str]] = []
    line_number = 1
    while True:
        line_number = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            problem = f"{name}, line {line_number}: {err}"
            if strict:
                raise ProgressCsvError(problem) from None
            problems.append((line_number, problem))
            break  # the reader cannot go on after a broken cell
        if not any(cell.strip() for cell in cells):
            continue  # an empty line, as spreadsheets leave at the end
        try:
            answers.append(_csv_answer(cells, delimiter))
        except ValueError as err:
            problem = f"{name}, line {line_number}: {err}"
            if strict:
                raise ProgressCsvError(problem) from None
            problems.append((line_number, problem))
    return answers, problems


def _csv_answer(cells: list[str], delimiter: str) -> Answer:
    if len(cells) != len(CSV_COLUMNS):
        raise ProgressCsvError(f"{len(cells)} cells, expected {len(CSV_COLUMNS)}")
    student, time, activity, item, answer, correct_text, ms_text = cells
    try:
        correct = {"": None, "1": True, "0": False}[correct_text.strip()]
    except KeyError:
        raise ProgressCsvError(f"correct {_quote(correct_text)} must be 1, 0 or empty") from None
    ms_text = ms_text.strip()
    if delimiter != ",":
        ms_text = ms_text.replace(",", ".")  # a decimal comma, as European Excel writes
    try:
        ms = float(ms_text) if ms_text else None
    except ValueError:
        raise ProgressCsvError(f"response_ms {_quote(ms_text)} is not a number") from None
    return Answer(csv_text(student), time.strip(), activity.strip(), csv_text(item),
                  csv_text(answer), correct, ms)


# -- a class folder -------------------------------------------------------------------------


class NotRead(NamedTuple):
    """A file (or a line of one) that a class folder's reading passed over.

    ``why`` is the full story for a developer (in English); ``reason`` and ``values`` say it
    for a teacher in either language: the words ``report.why.<reason>`` of the string
    catalogue, filled in with ``values`` (see :meth:`ClassProgress.not_read`).
    """

    file: str
    why: str
    reason: str = "other"
    values: tuple[tuple[str, object], ...] = ()

    def said(self, language: str = "en") -> str:
        """Why, in the teacher's language."""
        return _w(f"report.why.{self.reason}", language, **dict(self.values))


@dataclass(frozen=True)
class ClassProgress:
    """Everything read from a class folder: the answers, and the files that were skipped."""

    answers: tuple[Answer, ...]
    skipped: tuple[NotRead, ...]

    def not_read(self, language: str = "en") -> Table:
        """The files (or lines) that were not read, and why, in ``language``: empty when all
        is well."""
        headers = (_w("report.col.file", language), _w("report.col.why", language))
        rows = tuple((item.file, item.said(language)) for item in self.skipped)
        return Table(headers, rows, _w("report.caption.not_read", language))

    @property
    def students(self) -> list[str]:
        """The students' names, sorted."""
        return sorted({a.student for a in self.answers})

    def of(self, student: str) -> list[Answer]:
        """One student's answers."""
        return [a for a in self.answers if a.student == student]

    def table(
        self,
        activity: str | None = None,
        naming: Naming | str | None = None,
        language: str = "en",
    ) -> Table:
        """One line per student: answers, right, median time, days, last day, weakest item
        (notes and chords in ``naming`` when given)."""
        return Table.of(
            student_stats(self.answers, activity),
            caption=_w("report.caption.class", language),
            naming=naming,
            language=language,
        )

    def items_table(
        self,
        student: str | None = None,
        activity: str | None = None,
        naming: Naming | str | None = None,
    ) -> Table:
        """Per item (note, chord) for one student, or for the whole class."""
        rows = self.answers if student is None else self.of(student)
        return Table.of(item_stats(rows, activity), caption=student or "Class", naming=naming)

    def days_table(self, student: str | None = None, activity: str | None = None) -> Table:
        """Per day for one student, or for the whole class."""
        rows = self.answers if student is None else self.of(student)
        return Table.of(daily_stats(rows, activity), caption=student or "Class")

    def lessons_table(
        self, exercises: dict[str, Sequence[str]] | None = None, language: str = "en"
    ) -> Table:
        """Per student and lesson: exercises answered out of the lesson's, and right answers
        (see :func:`lesson_completion`)."""
        rows = []
        for s in lesson_completion(self.answers, exercises):
            done = f"{s.done} / {s.total}" if s.total is not None else str(s.done)
            share = _percent(s.right / s.answers, language) if s.answers else "–"
            rows.append((s.student, _lesson_title(s.lesson, language), done, str(s.answers),
                         share))
        columns = ("student", "lesson", "exercises", "answers", "right")
        headers = tuple(_w(f"report.col.{c}", language) for c in columns)
        return Table(headers, tuple(rows), _w("report.caption.lessons", language))

    def report(
        self,
        student: str | None = None,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
    ) -> Report:
        """One student's page (or the class's): tables and figures for the drill and quiz,
        notes and chords named in ``naming``, words in ``language``."""
        if student is not None and student not in self.students:
            raise ProgressError(f"no answers of {student!r} here: the students are {self.students}")
        rows = self.answers if student is None else self.of(student)
        who = student or _w("report.who.class", language)
        parts: list[Table | Figure] = []
        if student is None:
            parts.append(self.table(naming=naming, language=language))
        title = _w("report.chart.days", language, who=who)
        parts.append(plot_days(rows, title=title, language=language))
        if any(a.activity == "drill" for a in rows):
            title = _w("report.chart.notes", language, who=who)
            parts.append(plot_notes(rows, title=title, naming=naming, language=language))
            caption = _w("report.caption.notes", language, who=who)
            parts.append(
                Table.of(item_stats(rows, "drill"), caption, naming=naming, language=language)
            )
        if any(a.activity == "quiz" for a in rows):
            title = _w("report.chart.chords", language, who=who)
            parts.append(
                plot_items(rows, activity="quiz", title=title, naming=naming, language=language)
            )
        return Report(who, tuple(parts))

    def reports(self, naming: Naming | str = Naming.SOLFEGE, language: str = "en") -> Report:
        """A :meth:`report` per student, one after another."""
        return Report(
            _w("report.each", language),
            tuple(self.report(s, naming=naming, language=language) for s in self.students),
        )

    def export_html(
        self,
        target: str | os.PathLike[str],
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
    ) -> Path:
        """Write the class report — the class, lessons, then each student — as one HTML file
        that opens in any browser (figures inside it as images); return its path."""
        path = Path(target)
        parts: list[Any] = [
            self.report(naming=naming, language=language),
            self.lessons_table(language=language),
        ]
        if self.skipped:
            parts.append(self.not_read(language))
        parts.append(self.reports(naming=naming, language=language))
        title = _w("report.title", language)
        body = Report(title, tuple(parts))._repr_html_()
        page = (
            f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:1000px;margin:auto}"
            "table.mg-table{border-collapse:collapse;margin:8px 0}"
            ".mg-table td,.mg-table th{border:1px solid #ccc;padding:2px 8px}"
            "img{max-width:100%}</style></head><body>"
            f"{body}</body></html>"
        )
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(page, encoding="utf-8")
        os.replace(temporary, path)
        return path


@dataclass(frozen=True)
class Report:
    """Tables and figures under a heading; shows itself as HTML (figures as PNG images)."""

    title: str
    parts: tuple[Any, ...]

    def _repr_html_(self) -> str:
        import base64

        html = [f"<h3>{escape(self.title)}</h3>"]
        for part in self.parts:
            if isinstance(part, (Table, Report)):
                html.append(part._repr_html_())
            else:
                png = base64.b64encode(part._repr_png_()).decode("ascii")
                html.append(f'<img alt="{escape(self.title)}" src="data:image/png;base64,{png}"/>')
        return "<div class=\"mg-report\">" + "".join(html) + "</div>"


_SQLITE_BESIDE = ("-wal", "-shm", "-journal")


def _not_read(path: Path, err: BaseException) -> NotRead:
    if isinstance(err, ProgressError):
        return NotRead(path.name, str(err).replace(str(path), path.name), err.reason)
    if isinstance(err, OSError):
        return NotRead(path.name, f"{path.name} could not be opened: {err.strerror or err}",
                       "unopened")
    return NotRead(path.name, f"{path.name} could not be read ({type(err).__name__}: "
                   f"{_quote(str(err), 80)})")


def read_class(folder: str | os.PathLike[str]) -> ClassProgress:
    """Read every progress file (``.sqlite3``, ``.sqlite``, ``.db``) and CSV export in a
    folder, without writing to them or beside them.

    One bad file never stops the class: whatever cannot be read — a file of another kind, an
    empty file, a damaged database, a CSV line that is not an answer, a ``-wal`` file whose
    database is missing — is listed in ``skipped`` (see :meth:`ClassProgress.not_read`) with
    the reason; the rest is read. A ``-wal`` file next to its database is read with it (its
    rows count). Hidden files (``.name``) are passed over. The same answer found twice (a
    progress file and its CSV export) counts once.
    """
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise ProgressError(f"{root} is not a folder")
    answers: dict[Answer, None] = {}
    skipped: list[NotRead] = []
    try:
        entries = sorted(root.iterdir())
    except OSError as err:
        raise ProgressError(f"{root} cannot be read: {err.strerror or err}") from None
    names = {entry.name for entry in entries}
    for path in entries:
        if path.name.startswith(".") or not path.is_file():
            continue
        beside = next((end for end in _SQLITE_BESIDE if path.name.endswith(end)), None)
        if beside is not None:
            main = path.name[: -len(beside)]
            if main not in names:
                skipped.append(NotRead(
                    path.name, f"a part SQLite keeps beside {main}, which is not here: "
                    f"hand in {main} itself", "beside", (("main", main),)))
            continue  # read with its database
        suffix = path.suffix.lower()
        if suffix not in (*PROGRESS_SUFFIXES, ".csv"):
            skipped.append(NotRead(
                path.name, "not a progress file (.sqlite3, .sqlite, .db) or a CSV export",
                "kind"))
            continue
        try:
            if suffix == ".csv":
                rows, problems = _read_csv(path, strict=False)
                for line, problem in problems:
                    skipped.append(NotRead(path.name, problem, "line", (("line", line),)))
            else:
                if path.stat().st_size == 0:
                    raise CorruptProgressFileError(f"{path.name} is empty (0 bytes)",
                                                   reason="empty")
                rows = read_answers(path)
            answers.update(dict.fromkeys(rows))
        except Exception as err:  # one bad file never stops the class
            skipped.append(_not_read(path, err))
    ordered = sorted(answers, key=lambda a: (a.time, a.student))
    return ClassProgress(tuple(ordered), tuple(skipped))


def open_class(folder: str | os.PathLike[str] | None = None) -> ClassProgress:
    """Read a class folder; without one, make a small demo class in a new temporary folder
    (see :func:`demo_class`) and read that, so the teacher's notebook can be tried out."""
    if folder is None:
        import tempfile

        folder = demo_class(Path(tempfile.mkdtemp(prefix="musicgames-demo-class-")))
    return read_class(folder)


def demo_class(folder: str | os.PathLike[str], *, seed: int = 7, students: int = 4) -> Path:
    """Fill ``folder`` with made-up progress files of a small class (for trying the teacher's
    notebook): drill and quiz answers over a week, each student with a weak note or two."""
    import random

    from musicgames.theory import ALL_TRIADS, CARD_NOTES

    rng = random.Random(seed)
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    names = ["Ana", "Bruno", "Chloé", "Dmitri", "Emma", "Farid", "Grace", "Hugo"][:students]
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    for number, name in enumerate(names):
        weak = set(rng.sample(range(len(CARD_NOTES)), 2))
        path = root / f"{name.lower()}.sqlite3"
        with ProgressStore(path, student=name) as store:
            rows = []
            for day in range(6):
                skill = 0.55 + 0.07 * day + 0.03 * number
                for question in range(25):
                    when = start.replace(day=start.day + day, minute=question)
                    index = rng.randrange(len(CARD_NOTES))
                    note = CARD_NOTES[index]
                    chance = skill - (0.35 if index in weak else 0.0)
                    right = rng.random() < chance
                    answer = note if right else rng.choice([n for n in CARD_NOTES if n != note])
                    ms = rng.lognormvariate(7.2 - 0.05 * day + (0.4 if index in weak else 0), 0.3)
                    rows.append(
                        Answer(
                            name,
                            when.isoformat(timespec="microseconds"),
                            "drill",
                            note.solfege,
                            answer.syllable,
                            right,
                            round(ms, 1),
                        )
                    )
                for question in range(5):
                    when = start.replace(day=start.day + day, hour=10, minute=question)
                    chord = rng.choice(ALL_TRIADS[:7] + ALL_TRIADS[12:19])
                    right = rng.random() < skill
                    rows.append(
                        Answer(
                            name,
                            when.isoformat(timespec="microseconds"),
                            "quiz",
                            chord.name(Naming.LETTERS),
                            chord.name(Naming.LETTERS) if right else "?",
                            right,
                            round(rng.lognormvariate(8.0, 0.3), 1),
                        )
                    )
            store._insert(rows)
    return root


# -- numbers ----------------------------------------------------------------------------------


class _Tally:
    """Answers counted: ``count`` of them, ``right`` of those right."""

    count: int
    right: int

    @property
    def accuracy(self) -> float:
        """The share of right answers, 0.0 to 1.0."""
        return self.right / self.count if self.count else 0.0


@dataclass(frozen=True)
class ItemStats(_Tally):
    """How one item (a note, a chord) went: answers, right ones, median response time."""

    item: str
    count: int
    right: int
    median_ms: float | None


@dataclass(frozen=True)
class DayStats(_Tally):
    """How one day went."""

    day: date
    count: int
    right: int
    median_ms: float | None


@dataclass(frozen=True)
class StudentStats(_Tally):
    """A line of the class table."""

    student: str
    count: int
    right: int
    median_ms: float | None
    days: int
    last_day: date | None
    weakest: str | None


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _judged(answers: Iterable[Answer], activity: str | None) -> list[Answer]:
    return [
        a
        for a in answers
        if a.correct is not None and (activity is None or a.activity == activity)
    ]


def _note_order(item: str) -> tuple[int, Note | None, str]:
    """Where an item goes in a table or on the staff chart: notes low to high, two names of
    one key by letter, as :class:`Note` orders them (Do♯3 before Re♭3, Sol♯3 before La♭3),
    then other items by name.

    >>> sorted(["Lab3", "Sol#3", "Reb3", "Do#3", "D major", "Sol3"], key=_note_order)
    ['Do#3', 'Reb3', 'Sol3', 'Sol#3', 'Lab3', 'D major']
    """
    try:
        return (0, Note.parse(item), item)  # Note's own order
    except NoteError:
        return (1, None, item)


def _tally(rows: Sequence[Answer]) -> tuple[int, int, float | None]:
    """Answers, right answers and median response time of some rows."""
    return (
        len(rows),
        sum(1 for a in rows if a.correct),
        _median([a.response_ms for a in rows if a.response_ms is not None]),
    )


def item_stats(answers: Iterable[Answer], activity: str | None = None) -> list[ItemStats]:
    """Per item: answers, right answers and median response time, notes low to high then
    other items by name. Only rows that are right or wrong count."""
    groups: dict[str, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.item, []).append(a)
    return [
        ItemStats(
            item,
            *_tally(rows),
        )
        for item, rows in sorted(groups.items(), key=lambda kv: _note_order(kv[0]))
    ]


def daily_stats(answers: Iterable[Answer], activity: str | None = None) -> list[DayStats]:
    """Per (UTC) day: answers, right answers and median response time, oldest first."""
    groups: dict[date, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.day, []).append(a)
    return [
        DayStats(
            day,
            *_tally(rows),
        )
        for day, rows in sorted(groups.items())
    ]


def student_stats(answers: Iterable[Answer], activity: str | None = None) -> list[StudentStats]:
    """One line per student: answers, accuracy, median time, active days, weakest item."""
    groups: dict[str, list[Answer]] = {}
    for a in _judged(answers, activity):
        groups.setdefault(a.student, []).append(a)
    table = []
    for student, rows in sorted(groups.items()):
        items = [s for s in item_stats(rows) if s.count >= 3]
        weakest = min(items, key=lambda s: (s.accuracy, -(s.median_ms or 0))) if items else None
        days = {a.day for a in rows}
        table.append(
            StudentStats(
                student,
                *_tally(rows),
                len(days),
                max(days) if days else None,
                weakest.item if weakest else None,
            )
        )
    return table


@dataclass(frozen=True)
class LessonStats:
    """How far one student got in one lesson: distinct exercises answered (``done``) out of
    the lesson's exercises (``total``; ``None`` when the lesson's list is not known), and the
    share of their answers that were right."""

    student: str
    lesson: str
    done: int
    total: int | None
    answers: int
    right: int

    @property
    def completion(self) -> float | None:
        """``done / total``, or ``None`` without a total."""
        return min(1.0, self.done / self.total) if self.total else None


def _lesson_exercises() -> dict[str, tuple[str, ...]]:
    """The exercises of each lesson, as :mod:`musicgames.lessons` lists them in
    ``LESSON_EXERCISES`` (lesson id → exercise ids); empty while it lists none."""
    try:
        from musicgames import lessons
    except ImportError:  # pragma: no cover - the lessons module is part of the package
        return {}
    listed = getattr(lessons, "LESSON_EXERCISES", None)
    if not isinstance(listed, dict):
        return {}
    return {str(k): tuple(str(e) for e in v) for k, v in listed.items()}


def _lesson_title(lesson: str, language: str) -> str:
    """A lesson's title in ``language`` (its id when the lessons do not know it)."""
    try:
        from musicgames.lessons import lesson_title
    except ImportError:  # pragma: no cover - the lessons module is part of the package
        return lesson
    try:
        return lesson_title(lesson, language)
    except ValueError:  # a lesson of another version of the course
        return lesson


def lesson_completion(
    answers: Iterable[Answer], exercises: dict[str, Sequence[str]] | None = None
) -> list[LessonStats]:
    """Per student and lesson: distinct exercises answered, out of the lesson's exercises.

    ``exercises`` maps a lesson id to its exercise ids (default: ``LESSON_EXERCISES`` of
    :mod:`musicgames.lessons`, when it has one). Every lesson of that list is shown for
    every student, answered or not; without a list, only the lessons answered.

    >>> rows = [Answer("Ana", "2026-03-02T09:00:00+00:00", "lesson", f"01-the-staff/{e}",
    ...                "x", e != "b", 900.0) for e in ("a", "b", "b")]
    >>> [(s.lesson, s.done, s.total, s.completion) for s in lesson_completion(
    ...     rows, {"01-the-staff": ["a", "b", "c", "d"], "02-octaves": ["a"]})]
    [('01-the-staff', 2, 4, 0.5), ('02-octaves', 0, 1, 0.0)]
    """
    listed = _lesson_exercises() if exercises is None else {
        k: tuple(v) for k, v in exercises.items()
    }
    done: dict[tuple[str, str], set[str]] = {}
    tallies: dict[tuple[str, str], list[int]] = {}
    students: set[str] = set()
    for a in answers:
        students.add(a.student)
        if a.activity != "lesson" or a.correct is None:
            continue
        lesson, _, exercise = a.item.partition("/")
        key = (a.student, lesson)
        done.setdefault(key, set()).add(exercise)
        tally = tallies.setdefault(key, [0, 0])
        tally[0] += 1
        tally[1] += int(a.correct)
    keys = set(done)
    for student in students:
        keys.update((student, lesson) for lesson in listed)
    table = []
    for student, lesson in sorted(keys):
        known = listed.get(lesson)
        answered = done.get((student, lesson), set())
        count = len(answered & set(known)) if known is not None else len(answered)
        answers_count, right = tallies.get((student, lesson), [0, 0])
        total = len(known) if known is not None else None
        table.append(LessonStats(student, lesson, count, total, answers_count, right))
    return table


def _w(key: str, language: str, **values: object) -> str:
    """A word of the teacher's tables and charts, in English or Spanish."""
    from musicgames.i18n import text

    return text(key, language, **values)


def _day_said(day: date, language: str) -> str:
    """A day as the teacher's language writes it: "7 Mar 2026", "7 mar 2026" (the month
    names the days chart uses).

    >>> _day_said(date(2026, 3, 7), "es"), _day_said(date(2026, 3, 7), "en")
    ('7 mar 2026', '7 Mar 2026')
    """
    from musicgames.i18n import month_name

    month = month_name(day.month, language, short=True)
    return _w("report.date", language, day=day.day, month=month, year=day.year)


def _seconds(ms: float | None, language: str, digits: int = 2) -> str:
    """Milliseconds as seconds, with the language's decimal mark: "1.30 s", "1,30 s"."""
    if ms is None:
        return "–"
    shown = f"{ms / 1000:.{digits}f}"
    return f"{shown.replace('.', ',') if language == 'es' else shown} s"


def _percent(share: float, language: str) -> str:
    return f"{share:.0%}".replace("%", " %") if language == "es" else f"{share:.0%}"


def item_label(item: str, naming: Naming | str | None = None, language: str = "en") -> str:
    """An item as a person reads it in one naming: a note (``Sol3`` → ``G4`` in letters) or a
    chord (``C major`` → ``Do mayor`` in solfège, Spanish); anything else as it is. ``None``
    keeps the item as stored.

    >>> item_label("Sol3", "letters"), item_label("C major", "solfege", "es")
    ('G4', 'Do mayor')
    >>> item_label("01-the-staff/a", "letters")
    '01-the-staff/a'
    """
    if naming is None:
        return item
    naming = Naming(naming)
    try:
        return Note.parse(item).label(naming)
    except NoteError:
        pass
    root, _, quality = item.partition(" ")
    if quality in ("major", "minor"):
        from musicgames.theory import TriadError, triad

        try:
            return triad(root, quality).name(naming, language)
        except (TriadError, NoteError, ValueError):
            return item
    return item


@dataclass(frozen=True)
class Table:
    """A small table that shows itself as HTML in a notebook."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""

    @classmethod
    def of(
        cls,
        stats: Sequence[ItemStats | DayStats | StudentStats],
        caption: str = "",
        naming: Naming | str | None = None,
        language: str = "en",
    ) -> Table:
        """A table of :func:`item_stats`, :func:`daily_stats` or :func:`student_stats`; items
        (and the weakest item) in ``naming`` when given (see :func:`item_label`), headers
        and numbers in ``language``."""
        rows: list[tuple[str, ...]] = []
        headers: tuple[str, ...] = ()
        columns: tuple[str, ...]
        for s in stats:
            ms = _seconds(s.median_ms, language)
            share = _percent(s.accuracy, language)
            if isinstance(s, ItemStats):
                columns = ("item", "answers", "right", "median")
                rows.append((item_label(s.item, naming, language), str(s.count), share, ms))
            elif isinstance(s, DayStats):
                columns = ("day", "answers", "right", "median")
                rows.append((_day_said(s.day, language), str(s.count), share, ms))
            else:
                columns = ("student", "answers", "right", "median", "days", "last", "weakest")
                last = _day_said(s.last_day, language) if s.last_day else "–"
                weakest = item_label(s.weakest, naming, language) if s.weakest else "–"
                rows.append((s.student, str(s.count), share, ms, str(s.days), last, weakest))
            headers = tuple(_w(f"report.col.{c}", language) for c in columns)
        return cls(headers, tuple(rows), caption)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in self.headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in self.rows
        )
        caption = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        return f'<table class="mg-table">{caption}<thead><tr>{head}</tr></thead>{body}</table>'

    def __str__(self) -> str:
        widths = [
            max([len(h)] + [len(r[i]) for r in self.rows]) for i, h in enumerate(self.headers)
        ]
        lines = ["  ".join(h.ljust(w) for h, w in zip(self.headers, widths, strict=True))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in self.rows]
        return "\n".join(([self.caption] if self.caption else []) + lines)


# -- figures (matplotlib, imported on first use) --------------------------------------------


@cache
def _chart_class() -> type[Figure]:
    """A matplotlib Figure that shows itself in a notebook (a bare Figure made without
    pyplot would show only its text form)."""
    from matplotlib.figure import Figure

    class Chart(Figure):
        def _repr_png_(self) -> bytes:
            out = io.BytesIO()
            self.savefig(out, format="png", dpi=100)
            return out.getvalue()

    return Chart


def _new_figure(width: float, height: float) -> Figure:
    return _chart_class()(figsize=(width, height), layout="constrained")


def _staff_position(note: Note) -> float:
    """Where a note sits on the treble staff, in line spacings above the bottom line (Mi3)."""
    diatonic = note.scientific_octave * 7 + LETTERS.index(note.step)
    return (diatonic - (4 * 7 + 2)) / 2


#: music21's accidental names and their SMuFL glyphs.
_ACCIDENTALS = {"double-sharp": "accidentalDoubleSharp", "sharp": "accidentalSharp",
                "natural": "accidentalNatural", "flat": "accidentalFlat",
                "double-flat": "accidentalDoubleFlat"}
_NOTE_STEP = 1.6  # staff spaces from one note to the next
_FIRST_NOTE = 3.8  # the first note's x: its head clear of the clef
_NOTEHEAD_HALF = 0.6  # half the width of the chart's notehead
_ACCIDENTAL_GAP = 0.25  # between an accidental and its notehead, as verovio engraves it


def _signs_shown(notes: Sequence[Note]) -> list[str | None]:
    """The accidental engraved before each note, the chart read as one line of music
    (music21's ``makeAccidentals``): a sharp or flat note has its sign, and a natural note
    after a sharp or flat of the same letter and octave has a natural (♮) cancelling it.

    >>> from musicgames.theory import Note
    >>> _signs_shown([Note.parse(n) for n in ("Mib3", "Mi3", "Fa3", "Mi4")])
    ['flat', 'natural', None, None]
    """
    from music21.note import Note as Music21Note
    from music21.stream import Stream

    line: Stream[Music21Note] = Stream()
    for note in notes:
        line.append(Music21Note(note.to_music21()))
    line.makeAccidentals(inPlace=True, cautionaryPitchClass=False)
    return [
        sign.name if (sign := engraved.pitch.accidental) is not None and sign.displayStatus
        else None
        for engraved in line.notes
    ]


def _staff_places(notes: Sequence[Note]) -> list[tuple[float, Outline | None]]:
    """Where each note goes along the staff (x, in staff spaces) and, for a note with an
    engraved accidental (:func:`_signs_shown`), its outline put in place: left of the
    notehead, at the height of the head, as engraved music has it. A note with an
    accidental moves right by the sign's width, so the sign never touches the note or clef
    before it.

    >>> from musicgames.theory import Note
    >>> [(round(x, 2), sign is not None) for x, sign in
    ...  _staff_places([Note.parse("Fa3"), Note.parse("Sol#3")])]
    [(3.8, False), (6.44, True)]
    """
    from matplotlib.transforms import Affine2D

    from musicgames.smufl import glyph_path

    places: list[tuple[float, Outline | None]] = []
    x = _FIRST_NOTE - _NOTE_STEP
    for note, sign in zip(notes, _signs_shown(notes), strict=True):
        x += _NOTE_STEP
        name = _ACCIDENTALS.get(sign) if sign is not None else None
        if name is None:
            places.append((x, None))
            continue
        glyph = glyph_path(name)
        width = float(glyph.get_extents().x1)
        x += width + _ACCIDENTAL_GAP
        right = x - _NOTEHEAD_HALF - _ACCIDENTAL_GAP
        moved = glyph.transformed(Affine2D().translate(right - width, _staff_position(note)))
        places.append((x, moved))
    return places


def plot_notes(
    answers: Iterable[Answer],
    *,
    naming: Naming | str = Naming.SOLFEGE,
    title: str | None = None,
    activity: str | None = "drill",
    language: str = "en",
) -> Figure:
    """Each note answered, drawn on a treble staff: its colour is the share of right answers
    (red to green), and under it stand its name, that share and the median response time.
    Items that are not notes are left out (see :func:`plot_items` for those)."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.patches import Ellipse

    naming = Naming(naming)
    stats = []
    for s in item_stats(answers, activity):
        try:
            stats.append((Note.parse(s.item), s))
        except NoteError:
            continue
    places = _staff_places([note for note, _ in stats])
    width = max(places[-1][0] + 1.0 if places else 0.0, _FIRST_NOTE + 4 * _NOTE_STEP + 1.0)
    fig = _new_figure(1.5 + 3.8 * (width + 0.4) / 14.5, 3.8)
    ax = fig.add_subplot()
    ax.set_title(title if title is not None else _w("chart.title.notes", language))
    ax.set_axis_off()
    for line in range(5):
        ax.plot([0, width], [line, line], color="#333", linewidth=1)
    from matplotlib.patches import PathPatch
    from matplotlib.transforms import Affine2D

    from musicgames.smufl import glyph_path

    clef = glyph_path("gClef").transformed(Affine2D().translate(0.3, 1.0))  # on the G line
    ax.add_patch(PathPatch(clef, facecolor="#222", edgecolor="none"))
    cmap = colormaps["RdYlGn"]
    norm = Normalize(0, 1)
    for (note, s), (x, accidental) in zip(stats, places, strict=True):
        y = _staff_position(note)
        if accidental is not None:
            ax.add_patch(PathPatch(accidental, facecolor="#222", edgecolor="none"))
        ledger = -1.0
        while ledger >= y:
            ax.plot([x - 0.75, x + 0.75], [ledger, ledger], color="#333", linewidth=1)
            ledger -= 1
        ledger = 5.0
        while ledger <= y:
            ax.plot([x - 0.75, x + 0.75], [ledger, ledger], color="#333", linewidth=1)
            ledger += 1
        ax.add_patch(
            Ellipse(
                (x, y),
                1.2,
                0.95,
                angle=-15,
                facecolor=cmap(norm(s.accuracy)),
                edgecolor="#111",
                linewidth=1.2,
            )
        )
        ms = _seconds(s.median_ms, language, digits=1).replace(" s", "s")  # compact
        ax.text(
            x,
            -3.2,
            f"{note.label(naming)}\n{_percent(s.accuracy, language)}\n{ms}\n×{s.count}",
            ha="center",
            va="top",
            fontsize=8,
        )
    if not stats:
        ax.text(
            width / 2, 2, _w("chart.no_answers", language), ha="center", va="center", color="#777"
        )
    ax.set_xlim(-0.2, width + 0.2)
    ax.set_ylim(-7.5, 7)
    ax.set_aspect("equal")
    fig.colorbar(
        ScalarMappable(norm, cmap), ax=ax, label=_w("chart.right", language), shrink=0.7
    )
    return fig


def plot_items(
    answers: Iterable[Answer],
    *,
    activity: str | None = None,
    title: str | None = None,
    naming: Naming | str | None = None,
    language: str = "en",
) -> Figure:
    """Two bar charts side by side: the share of right answers and the median response time
    for each item (notes low to high, then chords and other items by name)."""
    stats = item_stats(answers, activity)
    fig = _new_figure(9, max(2.5, 0.3 * len(stats) + 1.2))
    left, right = fig.subplots(1, 2, sharey=True)
    names = [item_label(s.item, naming, language) for s in stats]
    positions = list(range(len(stats)))
    left.barh(positions, [s.accuracy * 100 for s in stats], color="#66a182")
    left.set_xlim(0, 100)
    left.set_xlabel(_w("chart.right_pct", language))
    left.set_yticks(positions, names)
    left.invert_yaxis()
    right.barh(
        positions,
        [(s.median_ms or 0) / 1000 for s in stats],
        color="#00798c",
    )
    right.set_xlabel(_w("chart.median_s", language))
    fig.suptitle(title if title is not None else _w("chart.title.items", language))
    return fig


def _concise_dates(locator: Any, language: str) -> Any:
    """matplotlib's concise date formatter for ``locator``, its month names in ``language``.

    Python formats dates in the C locale whatever the computer's language, so ``%b`` always
    writes ``Jan`` … ``Dec``: each is swapped for the language's own abbreviation.
    """
    from matplotlib.dates import ConciseDateFormatter

    from musicgames.i18n import month_name

    english = [month_name(month, "en", short=True) for month in range(1, 13)]
    local = {name: month_name(month, language, short=True)
             for month, name in enumerate(english, start=1)}
    names = re.compile(r"\b(" + "|".join(english) + r")\b")

    def said(label: str) -> str:
        return names.sub(lambda match: local[match.group(0)], label)

    class LocalDates(ConciseDateFormatter):
        def __call__(self, x: float, pos: int | None = None) -> str:
            return said(super().__call__(x, pos))

        def format_ticks(self, values: Any) -> list[str]:
            return [said(label) for label in super().format_ticks(values)]

        def get_offset(self) -> str:
            return said(super().get_offset())

    return LocalDates(locator)


def plot_days(
    answers: Iterable[Answer],
    *,
    activity: str | None = None,
    title: str | None = None,
    language: str = "en",
) -> Figure:
    """Progress over days: the share of right answers and the median response time per day,
    with the number of answers each day as bars."""
    stats = daily_stats(answers, activity)
    fig = _new_figure(8, 3.6)
    ax = fig.add_subplot()
    from matplotlib.dates import AutoDateLocator, date2num

    days = [float(date2num(s.day)) for s in stats]
    ax.bar(days, [s.count for s in stats], color="#dddddd", label=_w("chart.answers", language))
    ax.set_ylabel(_w("chart.answers_per_day", language))
    share = ax.twinx()
    share.plot(
        days,
        [s.accuracy * 100 for s in stats],
        "o-",
        color="#66a182",
        label=_w("chart.right_short", language),
    )
    share.set_ylim(0, 105)
    share.set_ylabel(_w("chart.right_pct", language), color="#3d7a55")
    time_axis = ax.twinx()
    time_axis.spines["right"].set_position(("axes", 1.12))
    time_axis.plot(
        days,
        [(s.median_ms or math.nan) / 1000 for s in stats],
        "s--",
        color="#d1495b",
        label=_w("chart.median", language),
    )
    time_axis.set_ylim(bottom=0)
    time_axis.set_ylabel(_w("chart.median_s", language), color="#d1495b")
    ax.set_title(title if title is not None else _w("chart.title.days", language))
    locator = AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(_concise_dates(locator, language))
    if not stats:
        ax.text(
            0.5, 0.5, _w("chart.no_answers", language), transform=ax.transAxes, ha="center",
            color="#777",
        )
    return fig

