"""A lesson's settings, chosen in a panel at its top and remembered for the student.

The settings — the student's name, Do Re Mi or C D E, sound on or off, the size of the
drawings — are kept in ``lesson-settings.json`` next to the progress file, so every lesson
opens the way the student left the last one. In a classroom app (one server, many students)
each student's settings are their own: kept in the class folder under the student's name
(:func:`settings_path`), and not kept at all for a page opened without a student.

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

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from musicgames import appmode
from musicgames.appmode import CLASS_SETTINGS_FOLDER
from musicgames.lessons.exercises import SIZES
from musicgames.progress.files import data_dir
from musicgames.progress.store import WRITE_HOOKS
from musicgames.theory import Naming

__all__ = ["CLASS_SETTINGS_FOLDER", "SETTINGS_FILE", "LessonSettings", "settings_path"]

SETTINGS_FILE = "lesson-settings.json"


def settings_path(folder: str | os.PathLike[str] | None = None) -> Path | None:
    """Where the settings are kept: ``lesson-settings.json`` in ``folder``, else in the
    musicgames data folder; in a classroom app, the file of the student who opened the page
    (named as their progress file is), and none for a page without a student."""
    if folder is not None:
        return Path(folder) / SETTINGS_FILE
    if appmode.in_app():
        name, root = appmode.student(), appmode.class_folder()
        if name is None or root is None:
            return None
        return appmode.student_file(name, root / CLASS_SETTINGS_FOLDER).with_suffix(".json")
    return data_dir() / SETTINGS_FILE


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
        path = settings_path(folder)
        if path is None:
            return cls()
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
        """Remember these settings (written whole, then moved into place); nowhere for a
        classroom page without a student. Those told of the progress files' writes are told
        of this one too (:data:`~musicgames.progress.store.WRITE_HOOKS`: on the static site
        the settings are kept in the browser with the answers)."""
        path = settings_path(folder)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_name(path.name + ".part")
            part.write_text(json.dumps(asdict(self), ensure_ascii=False), encoding="utf-8")
            os.replace(part, path)
        except OSError:  # a read-only folder: the lesson still works
            return
        for hook in WRITE_HOOKS:
            hook(path)
