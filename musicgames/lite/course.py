"""The course on the static site: every lesson, in every language, made ready at build time.

The lessons are what the classroom serves (:mod:`musicgames.classroom.apps`), made the same
way: their notebooks are written from the course (:func:`musicgames.lessons.build.build`,
what ``python -m musicgames.lessons build`` writes), then made ready to be shown as apps
(cells for JupyterLab only left out, the sentences asking to run cells taken out, the
student's file opened first: :func:`musicgames.classroom.apps.build_app_folder`). The site
ships them as a small data package (:data:`LESSONS_PACKAGE`), and in the browser
:func:`musicgames.lite.launch.open_lesson` runs their cells.

>>> lessons = lesson_list()
>>> [lesson.notebook for lesson in lessons if lesson.title.startswith("Lección 1 ")]
['lessons/es/01-el-pentagrama.ipynb']
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from musicgames.classroom.apps import Lesson, build_app_folder, find_lessons

__all__ = ["LESSONS_PACKAGE", "lesson_files", "lesson_list", "make_lessons"]

#: The top-level name of the site's wheel of lessons (a package of data files); the
#: lessons are in its folder ``lessons/`` as the classroom's app folder holds them.
LESSONS_PACKAGE = "musicgames_lessons"


def make_lessons(folder: Path) -> list[Lesson]:
    """Write every lesson, made ready to be shown as an app, into ``folder/lessons/``
    (``lessons/es/``, ``lessons/fr/``); returns them with their titles and languages."""
    shutil.rmtree(folder, ignore_errors=True)
    from musicgames.lessons.build import build

    with tempfile.TemporaryDirectory() as written:
        build(Path(written))
        return build_app_folder(folder, find_lessons(Path(written) / "lessons"))


def lesson_list() -> list[Lesson]:
    """The lessons of the site (made in a folder that is thrown away)."""
    with tempfile.TemporaryDirectory() as folder:
        return make_lessons(Path(folder) / "apps")


def lesson_files(folder: Path) -> dict[str, bytes]:
    """The files of the lessons wheel: the lessons :func:`make_lessons` wrote in ``folder``."""
    files = {f"{LESSONS_PACKAGE}/__init__.py":
             b'"""The lessons, made ready for the site when it was built (musicgames.lite)."""\n'}
    for path in sorted((folder / "lessons").rglob("*.ipynb")):
        files[f"{LESSONS_PACKAGE}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    return files
