"""Where the widgets and lessons send answers: anything with a ``record`` method
(:class:`ProgressSink`), and what to tell the person, once, when a write fails.

This is all a widget needs of the progress package: it records answers and never reads
files, draws charts or builds reports.
"""

from __future__ import annotations

from typing import Any, Protocol

from musicgames.i18n import text

__all__ = ["ProgressSink", "not_saved_notice", "why_not_saved"]


class ProgressSink(Protocol):
    """Where the widgets send answers and game events: anything with this ``record``.

    :class:`~musicgames.progress.store.ProgressStore` fits; so does a small test double that
    keeps the rows in a list.
    """

    def record(
        self,
        activity: str,
        item: str,
        answer: str,
        correct: bool | None,
        response_ms: float | None = None,
    ) -> Any: ...


def why_not_saved(err: BaseException, language: str = "en") -> str:
    """Why a progress write failed, in words for the person (English or Spanish): a full
    disk, a file busy in another notebook, a file that cannot be written, or else in general.

    >>> import sqlite3
    >>> why_not_saved(sqlite3.OperationalError("database is locked"), "es")
    'el archivo de progreso está ocupado en otro cuaderno'
    """
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
    return text("progress.not_saved", language, why=why_not_saved(err, language))
