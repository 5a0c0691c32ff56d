"""Reading a class folder: every progress file and CSV export in it, without writing to them
or beside them; one bad file never stops the class (it is listed, with the reason). And a
made-up class to try the teacher's notebook with (:func:`demo_class`)."""

from __future__ import annotations

import os
import random
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from musicgames import theory
from musicgames.progress.answers import Answer, quoted
from musicgames.progress.csv_files import read_csv_lines
from musicgames.progress.errors import CorruptProgressFileError, ProgressError
from musicgames.progress.files import read_answers
from musicgames.progress.report import ClassProgress, NotRead
from musicgames.progress.store import ProgressStore
from musicgames.theory import CARD_NOTES, Naming

__all__ = ["PROGRESS_SUFFIXES", "demo_class", "open_class", "read_class"]

#: File name endings read as progress files in a class folder.
PROGRESS_SUFFIXES: tuple[str, ...] = (".sqlite3", ".sqlite", ".db")
#: What SQLite keeps beside a database: read with it, never on its own.
_SQLITE_BESIDE = ("-wal", "-shm", "-journal")


def _not_read(path: Path, err: BaseException) -> NotRead:
    if isinstance(err, ProgressError):
        return NotRead(path.name, str(err).replace(str(path), path.name), err.reason)
    if isinstance(err, OSError):
        return NotRead(path.name, f"{path.name} could not be opened: {err.strerror or err}",
                       "unopened")
    return NotRead(path.name, f"{path.name} could not be read ({type(err).__name__}: "
                   f"{quoted(str(err), 80)})")


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
                rows, problems = read_csv_lines(path, strict=False)
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
        folder = demo_class(Path(tempfile.mkdtemp(prefix="musicgames-demo-class-")))
    return read_class(folder)


def demo_class(folder: str | os.PathLike[str], *, seed: int = 7, students: int = 4) -> Path:
    """Fill ``folder`` with made-up progress files of a small class (for trying the teacher's
    notebook): drill and quiz answers over a week, each student with a weak note or two."""
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
                    chord = rng.choice(theory.ALL_TRIADS[:7] + theory.ALL_TRIADS[12:19])
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
