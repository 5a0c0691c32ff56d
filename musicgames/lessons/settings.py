"""A lesson's settings, chosen in a panel at its top and remembered for the student.

The settings — the student's name, Do Re Mi or C D E, sound on or off, the size of the
drawings — are kept in ``lesson-settings.json`` next to the progress file, so every lesson
opens the way the student left the last one:

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> s = LessonSettings(student="Ana", naming="letters")
>>> s.save(folder)
>>> LessonSettings.load(folder)
LessonSettings(student='Ana', naming='letters', sound=True, size='normal')

A damaged or foreign file is ignored (the defaults are used), never a crash:

>>> _ = (folder / SETTINGS_FILE).write_text("[1, 2")
>>> LessonSettings.load(folder)
LessonSettings(student=None, naming='solfege', sound=True, size='normal')
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from musicgames.lessons.exercises import SIZES
from musicgames.theory import Naming

__all__ = ["SETTINGS_FILE", "LessonSettings"]

SETTINGS_FILE = "lesson-settings.json"


def _folder() -> Path:
    from musicgames.progress import data_dir

    return data_dir()


@dataclass(frozen=True)
class LessonSettings:
    """What the student chose: ``student`` (a name, or ``None``), ``naming`` ("solfege" or
    "letters"), ``sound`` (on or off), ``size`` (one of :data:`SIZES`)."""

    student: str | None = None
    naming: str = Naming.SOLFEGE.value
    sound: bool = True
    size: str = "normal"

    @classmethod
    def load(cls, folder: str | os.PathLike[str] | None = None) -> LessonSettings:
        """The remembered settings (the defaults when there are none or they are unreadable)."""
        path = Path(folder if folder is not None else _folder()) / SETTINGS_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        settings = cls()
        student = data.get("student")
        if isinstance(student, str) and student.strip() and len(student) <= 80:
            settings = replace(settings, student=student.strip())
        if data.get("naming") in {n.value for n in Naming}:
            settings = replace(settings, naming=data["naming"])
        if isinstance(data.get("sound"), bool):
            settings = replace(settings, sound=data["sound"])
        if data.get("size") in SIZES:
            settings = replace(settings, size=data["size"])
        return settings

    def save(self, folder: str | os.PathLike[str] | None = None) -> None:
        """Remember these settings (written whole, then moved into place)."""
        target = Path(folder if folder is not None else _folder())
        with contextlib.suppress(OSError):  # a read-only folder: the lesson still works
            target.mkdir(parents=True, exist_ok=True)
            part = target / (SETTINGS_FILE + ".part")
            part.write_text(json.dumps(asdict(self), ensure_ascii=False), encoding="utf-8")
            os.replace(part, target / SETTINGS_FILE)
