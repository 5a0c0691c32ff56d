"""What can go wrong with a progress file or an answer: one error class per kind of trouble,
all of them a :class:`ProgressError` (a ``ValueError``) with a ``reason`` word a teacher's
table can say in the teacher's language."""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "AnswerError",
    "CorruptProgressFileError",
    "ForeignDatabaseError",
    "HandInError",
    "NewerProgressFileError",
    "ProgressCsvError",
    "ProgressError",
    "StudentNameError",
]


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
