"""Progress files on disk: where they live, their layout, and reading them without ever
writing to them or beside them (a teacher's class folder stays exactly as it was).

A file that is not a musicgames progress file of a layout this version knows is refused with
:class:`~musicgames.progress.errors.CorruptProgressFileError`,
:class:`~musicgames.progress.errors.ForeignDatabaseError` or
:class:`~musicgames.progress.errors.NewerProgressFileError`, and left untouched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from musicgames.progress.answers import Answer
from musicgames.progress.csv_files import read_csv
from musicgames.progress.errors import (
    CorruptProgressFileError,
    ForeignDatabaseError,
    NewerProgressFileError,
    ProgressError,
)

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "data_dir", "default_path", "read_answers"]

#: The version of the file layout, kept in ``PRAGMA user_version``.
#: 1: answers; 2: and the FSRS memory state of each item (see :mod:`musicgames.memory`).
SCHEMA_VERSION = 2
#: Marks a SQLite file as a musicgames progress file (``PRAGMA application_id``, "MGPR").
APPLICATION_ID = 0x4D475052
_SQLITE_HEADER = b"SQLite format 3\x00"
_ENV_VAR = "MUSICGAMES_DATA_DIR"
_FILE_ENV_VAR = "MUSICGAMES_PROGRESS_FILE"
#: The tables of a progress file (layout :data:`SCHEMA_VERSION`).
SCHEMA = """
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
#: The table layout 2 added (see :meth:`ProgressStore._upgrade`).
MEMORY_TABLE = SCHEMA[SCHEMA.index("CREATE TABLE memory") :].rstrip().rstrip(";")
_ANSWER_COLUMNS = {"id", "student", "time", "activity", "item", "answer", "correct", "response_ms"}
#: The columns every answer is read with, in an :class:`Answer`'s order.
SELECT_ANSWERS = (
    "SELECT student, time, activity, item, answer, correct, response_ms FROM answers"
)


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


# -- opening and checking files -----------------------------------------------------------


def untouched(path: Path, why: str) -> str:
    """Why ``path`` was refused, and that it was left as it was."""
    return (
        f"{path} is not a musicgames progress file: {why}. "
        "It was left untouched; move it away or choose another file."
    )


def check_connection(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse anything but a musicgames progress file of a version we can read."""
    app_id = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise ForeignDatabaseError(
            untouched(path, "it is an SQLite database of another program")
        )
    if version > SCHEMA_VERSION:
        raise NewerProgressFileError(
            f"{path} was written by a newer musicgames (file layout {version}, this one reads "
            f"up to {SCHEMA_VERSION}): update musicgames to read it. It was left untouched."
        )
    columns = {row[1] for row in connection.execute("PRAGMA table_info(answers)")}
    if columns != _ANSWER_COLUMNS or version < 1:
        raise CorruptProgressFileError(untouched(path, "its tables are not the expected ones"))


def check_file(path: Path) -> None:
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
def reading(path: Path) -> Iterator[sqlite3.Connection]:
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
        untouched(path, f"the files beside it kept changing while it was read ({_COPY_TRIES} "
                   "tries): another program is writing to it"), reason="busy"
    )


#: How many times :func:`reading` looks again when a write beside the file ends mid-copy.
_COPY_TRIES = 50


def _read_rows(path: Path, *, check_only: bool = False) -> list[Any]:
    """Check a progress file and read its rows, without writing to it or beside it."""
    with path.open("rb") as handle:
        header = handle.read(len(_SQLITE_HEADER))
    if header != _SQLITE_HEADER:
        raise CorruptProgressFileError(
            untouched(path, "it is not an SQLite database (it may be damaged)")
        )
    try:
        with reading(path) as connection:
            if is_empty(connection):
                if check_only:
                    return []  # an empty database: nothing to lose, it may become ours
                raise CorruptProgressFileError(untouched(path, "it is an empty database"),
                                               reason="empty")
            check_connection(connection, path)
            problems = connection.execute("PRAGMA quick_check").fetchall()
            if problems != [("ok",)]:
                raise CorruptProgressFileError(untouched(path, "it is damaged"))
            if check_only:
                return []
            return connection.execute(f"{SELECT_ANSWERS} ORDER BY time, id").fetchall()
    except sqlite3.DatabaseError as err:
        raise CorruptProgressFileError(untouched(path, f"it is damaged ({err})")) from None


def row_to_answer(row: Sequence[Any]) -> Answer:
    """A row read with :data:`SELECT_ANSWERS` as an :class:`Answer` (checked as it is made)."""
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


def is_empty(connection: sqlite3.Connection) -> bool:
    """Whether the database is empty and unmarked (a new file that may become ours)."""
    tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    app_id = connection.execute("PRAGMA application_id").fetchone()[0]
    return bool(tables == 0 and app_id == 0)


def file_student(path: Path) -> str | None:
    """The student a progress file belongs to, or ``None`` if it is not a readable one."""
    try:
        check_file(path)
        with reading(path) as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = 'student'").fetchone()
    except (ProgressError, sqlite3.Error, OSError):
        return None
    return None if row is None else str(row[0])


def read_answers(path: str | os.PathLike[str]) -> list[Answer]:
    """The rows of a progress file (``.sqlite3``) or a CSV export, read without writing."""
    target = Path(path)
    if target.suffix.lower() == ".csv":
        return read_csv(target)
    if not target.exists():
        raise ProgressError(f"{target} does not exist")
    rows = _read_rows(target)
    try:
        return [row_to_answer(r) for r in rows]
    except ProgressError as err:
        raise CorruptProgressFileError(untouched(target, f"a row is not valid ({err})")) from None
