"""The drawings the browser cannot make, made at build time: staves and word widths.

In the browser there is no verovio (compiled) to engrave a staff and no Pillow to measure a
word, so the build makes them with the desktop's own renderer (:mod:`musicgames.render`,
:mod:`musicgames.fonts`) into a folder of kept drawings (:mod:`musicgames.kept`), and the
site ships that folder as a small wheel of its own. In the browser the same functions read
what was made; they decide nothing themselves.

The staves are the ones the site can show: each of the classroom's apps (the games, the
note drill, the chord quiz) and every lesson of the course is opened here in every
language and naming (a lesson also at every size), as a student would open it, every step
of a lesson shown; the drills and quizzes among them draw every staff they can show
(:meth:`~musicgames.widgets._practice.PracticeWidget.staves`), and every staff engraved is
kept. The widths are those of every note name a key can carry (:func:`note_names`).

>>> names = note_names()
>>> "Sol♯" in names and "F♯" in names and "ré♭" in names and "Si𝄫" in names
True
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from musicgames.kept import DRAWINGS_ENV, ENGRAVER_FILE, WIDTHS_FILE

__all__ = ["DRAWINGS_PACKAGE", "drawings_files", "make_drawings", "note_names", "open_everything"]

#: The top-level name of the site's wheel of drawings (a package of data files).
DRAWINGS_PACKAGE = "musicgames_drawings"


def note_names() -> list[str]:
    """Every name a key can be given: each letter with no, one or two sharps or flats, in
    both namings and every language, without octave."""
    from musicgames.i18n import LANGUAGES
    from musicgames.theory import LETTERS, Naming, Note

    names = {
        Note(step, alter, 4).label(naming, octave=False, language=language)
        for step in LETTERS for alter in (-2, -1, 0, 1, 2)
        for naming in Naming for language in LANGUAGES
    }
    return sorted(names)


@contextlib.contextmanager
def _keeping_in(folder: Path) -> Iterator[set[Path]]:
    """Draw with ``folder`` as the folder of kept drawings (and nothing remembered from
    before, so every drawing asked for is made there, or found there from an earlier
    build); gives the set of the staves asked for, filled as they are."""
    from musicgames import render

    before = os.environ.get(DRAWINGS_ENV)
    os.environ[DRAWINGS_ENV] = str(folder)
    render._staff_svg_cached.cache_clear()
    find = render._kept_drawing
    asked: set[Path] = set()

    def kept(mei: str, size: int) -> Path | None:
        path = find(mei, size)
        if path is not None:
            asked.add(path)
        return path

    render._kept_drawing = kept
    try:
        yield asked
    finally:
        render._kept_drawing = find
        if before is None:
            os.environ.pop(DRAWINGS_ENV, None)
        else:
            os.environ[DRAWINGS_ENV] = before
        render._staff_svg_cached.cache_clear()


def _inside(widget: Any) -> Iterator[Any]:
    """``widget`` and every widget it holds."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _inside(child)


def _apps() -> Iterator[Any]:
    """Each of the classroom's apps, opened as the start page opens it, in every language
    and naming."""
    from musicgames.classroom.apps import APPS
    from musicgames.classroom.kernel import make_app
    from musicgames.i18n import LANGUAGES
    from musicgames.theory import Naming

    for language in LANGUAGES:
        for naming in Naming:
            for app in APPS:
                yield make_app(app.name, None, {"language": language, "naming": naming.value})


def _course() -> Iterator[Any]:
    """Every lesson in every language, naming and size, all of it shown: its settings,
    each step, its summary."""
    from musicgames.i18n import LANGUAGES
    from musicgames.lessons.course import COURSE
    from musicgames.lessons.exercises import SIZES
    from musicgames.lessons.page import LessonPage
    from musicgames.lessons.settings import LessonSettings
    from musicgames.theory import Naming

    for plan in COURSE:
        for language in LANGUAGES:
            for naming in Naming:
                for size in SIZES:
                    page = LessonPage(plan, language, LessonSettings(None, naming.value,
                                                                     False, size),
                                      remember=False, record=False)
                    yield page.settings()
                    for step in plan.steps:
                        yield page.show(step)
                    yield page.summary()


def _every_staff(practice: Any) -> None:
    practice.staves()


def open_everything(then: Callable[[Any], None] = _every_staff) -> None:
    """Open every app and every lesson the site has, in every way a student can, so that
    every staff they show is drawn (and kept, where drawings are kept); ``then`` is done
    with each drill and quiz among them (by default: draw every staff it can show).
    Everything opened is closed again."""
    for shown in itertools.chain(_apps(), _course()):
        inside = list(_inside(shown))
        for widget in inside:
            if callable(getattr(widget, "staves", None)):
                then(widget)
        for widget in inside:
            widget.close()


def make_drawings(folder: Path) -> Path:
    """Fill ``folder`` with every staff the site can show, the engraver's version and the
    note names' widths; returns ``folder``. Staves already there from an earlier build are
    kept if they are still asked for (the same notes, size and engraver), and only those."""
    from importlib.metadata import version

    from musicgames.fonts import measured_widths

    folder.mkdir(parents=True, exist_ok=True)
    with _keeping_in(folder) as asked:
        open_everything()
    for old in [*folder.glob("staff-*.svg"), *folder.glob("*.part")]:
        if old not in asked:
            old.unlink()
    (folder / ENGRAVER_FILE).write_text(version("verovio") + "\n", encoding="utf-8")
    widths = {"regular": measured_widths(note_names())}
    (folder / WIDTHS_FILE).write_text(
        json.dumps(widths, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
        encoding="utf-8")
    return folder


def drawings_files(folder: Path) -> dict[str, bytes]:
    """The files of the drawings wheel: ``folder``'s drawings as a data package."""
    files = {f"{DRAWINGS_PACKAGE}/__init__.py":
             b'"""Staves and word widths made when the site was built (musicgames.lite)."""\n'}
    for path in sorted(folder.iterdir()):
        if path.is_file() and not path.name.endswith(".part"):
            files[f"{DRAWINGS_PACKAGE}/{path.name}"] = path.read_bytes()
    return files
