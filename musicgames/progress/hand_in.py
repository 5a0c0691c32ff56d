"""Handing in: a copy of a student's progress file written into the folder the teacher
collects, named after the student, never half-written (see
:meth:`~musicgames.progress.store.ProgressStore.hand_in`, which calls :func:`hand_in_copy`).
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import unicodedata
from pathlib import Path

from musicgames.progress.errors import HandInError
from musicgames.progress.files import file_student

__all__ = ["hand_in_copy", "hand_in_name"]

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


def _hand_in_target(folder: Path, student: str) -> Path:
    name = hand_in_name(student)
    stem = name.removesuffix(".sqlite3")
    for number in range(1, 1000):
        target = folder / (name if number == 1 else f"{stem}-{number}.sqlite3")
        if not target.exists() or file_student(target) == student:
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


def hand_in_copy(
    source: sqlite3.Connection,
    lock: threading.Lock,
    own_path: Path,
    student: str,
    folder: str | os.PathLike[str],
) -> Path:
    """Copy the progress file open as ``source`` (``student``'s, at ``own_path``) into
    ``folder`` and return the copy's path; ``lock`` is held while the copy is taken.

    The copy is taken with SQLite's backup API (a consistent copy, even while another
    notebook writes), written under a temporary name and renamed into place, so the folder
    never holds half a file. A folder that is not there is refused, never made.
    """
    target_folder = Path(folder).expanduser()
    if not target_folder.exists():  # a mistyped folder is never made
        raise HandInError(target_folder, "missing", "there is no such folder")
    if not target_folder.is_dir():
        raise HandInError(target_folder, "folder", "not a folder")
    target = _hand_in_target(target_folder, student)
    if target.resolve() == own_path.resolve():
        raise HandInError(target_folder, "same", "")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        copy = sqlite3.connect(temporary, isolation_level=None)
        try:
            with lock:
                source.backup(copy)
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
