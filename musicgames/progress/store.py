"""A student's progress file, open for writing: :class:`ProgressStore` records each answer
as its own transaction, written through to the file before ``record`` returns.

Every answer is written through a rollback journal with ``synchronous=FULL``: a copy of the
file alone, made at any moment after ``record`` returned, holds the answer, even if the
notebook that wrote it was killed. Several notebooks of one student can write to the file at
the same time; each waits for the others' short writes.
"""

from __future__ import annotations

import io
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from musicgames import memory
from musicgames.memory import Memory
from musicgames.progress.answers import ACTIVITIES, Answer, check_name, quoted, utc_now
from musicgames.progress.csv_files import export_csv, read_csv
from musicgames.progress.errors import (
    AnswerError,
    CorruptProgressFileError,
    ProgressError,
    StudentNameError,
)
from musicgames.progress.files import (
    APPLICATION_ID,
    MEMORY_TABLE,
    SCHEMA,
    SCHEMA_VERSION,
    SELECT_ANSWERS,
    check_connection,
    check_file,
    default_path,
    is_empty,
    row_to_answer,
    untouched,
)
from musicgames.progress.hand_in import hand_in_copy

if TYPE_CHECKING:
    from fsrs import Card

__all__ = ["JOURNAL_MODE", "WRITE_TIMEOUT_S", "ProgressStore", "open_progress"]

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
    if not hasattr(fcntl, "flock"):  # the browser's Python (one process): SQLite's alone
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
    for statement in SCHEMA.split(";"):  # not executescript: that would commit first
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
    except (OSError, AttributeError):  # AttributeError: a Python with no os.link (a browser's)
        path.touch()  # no hard links here: an empty file, filled in by _prepare
    finally:
        temporary.unlink()


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
            check_name(student)  # before anything touches the disk
        self.path = Path(path) if path is not None else default_path()
        self.timeout = WRITE_TIMEOUT_S if timeout is None else float(timeout)
        self._lock = threading.Lock()
        if not self.path.exists():
            _create(self.path)
        if self.path.stat().st_size > 0:
            # not in the middle of another notebook's write
            with _writers_queue(self.path, self.timeout, create=False):
                check_file(self.path)
        self._connection = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        try:
            self._prepare()
        except sqlite3.DatabaseError as err:
            self._connection.close()
            why = untouched(self.path, f"it is damaged ({err})")
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
            if is_empty(con):  # an empty file given to us: make it a progress file
                _write_schema(con)
            else:
                check_connection(con, self.path)
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
        con.execute(MEMORY_TABLE)
        rows = [row_to_answer(r) for r in con.execute(f"{SELECT_ANSWERS} ORDER BY time, id")]
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
        check_name(name)
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

    # -- the student's settings -----------------------------------------------------------
    def setting(self, name: str) -> str | None:
        """A setting the student chose, kept in the file under ``name`` (``None``: never
        chosen). The widgets keep how the student answers (click, MIDI keyboard or
        microphone, and its options) here, so it follows the student."""
        with self._lock:
            row = self._connection.execute(
                "SELECT value FROM meta WHERE key = ?", (f"setting:{name}",)
            ).fetchone()
        return None if row is None else str(row[0])

    def save_setting(self, name: str, value: str) -> None:
        """Keep a setting of the student's under ``name`` (replacing the one kept)."""
        with self._lock, _writers_queue(self.path, self.timeout):
            self._connection.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                (f"setting:{name}", value),
            )

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
        row = Answer(student, time or utc_now(), activity, item, answer, correct, response_ms)
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
                rows = self._connection.execute(f"{SELECT_ANSWERS} ORDER BY time, id").fetchall()
            else:
                rows = self._connection.execute(
                    f"{SELECT_ANSWERS} WHERE activity = ? ORDER BY time, id", (activity,)
                ).fetchall()
        return [row_to_answer(r) for r in rows]

    def memory(self, activity: str) -> Memory:
        """The memory state (FSRS) of every item of ``activity`` answered so far."""
        if activity not in ACTIVITIES:
            raise AnswerError(f"activity {quoted(activity)} is not one of {', '.join(ACTIVITIES)}")
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
        ``ana-pérez.sqlite3``, see :func:`~musicgames.progress.hand_in.hand_in_name`). It is
        taken with SQLite's backup API (a consistent copy, even while another notebook
        writes), written under a temporary name and renamed into place, so the folder never
        holds half a file. A copy handed in before by the same student is replaced; a file of
        the same name that is someone else's (or not a progress file) is left alone and
        ``-2``, ``-3``, … is added.
        """
        student = self.student
        if student is None:
            raise StudentNameError(
                f"{self.path} has no student name yet: call set_student('Name') first"
            )
        return hand_in_copy(self._connection, self._lock, self.path, student, folder)

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
