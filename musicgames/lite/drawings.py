"""The drawings the browser cannot make, made at build time: staves and word widths.

In the browser there is no verovio (compiled) to engrave a staff and no Pillow to measure a
word, so the build makes them with the desktop's own renderer (:mod:`musicgames.render`,
:mod:`musicgames.fonts`) into a folder of kept drawings (:mod:`musicgames.kept`), and the
site ships that folder as a small wheel of its own. In the browser the same functions read
what was made; they decide nothing themselves.

The staves are the ones the games draw: each game is opened here in every language and
naming, as a student would open it, and every staff it engraves is kept. The widths are
those of every note name a key can carry (:func:`note_names`).

>>> names = note_names()
>>> "Sol♯" in names and "F♯" in names and "ré♭" in names and "Si𝄫" in names
True
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from musicgames.kept import DRAWINGS_ENV, ENGRAVER_FILE, WIDTHS_FILE

__all__ = ["DRAWINGS_PACKAGE", "drawings_files", "make_drawings", "note_names"]

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
def _keeping_in(folder: Path) -> Iterator[None]:
    """Draw with ``folder`` as the folder of kept drawings (and nothing remembered from
    before, so every drawing asked for lands there)."""
    from musicgames import render

    before = os.environ.get(DRAWINGS_ENV)
    os.environ[DRAWINGS_ENV] = str(folder)
    render._staff_svg_cached.cache_clear()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DRAWINGS_ENV, None)
        else:
            os.environ[DRAWINGS_ENV] = before
        render._staff_svg_cached.cache_clear()


def _open_the_games() -> None:
    """Open each game as a student would, in every language and naming, and close it."""
    from musicgames.i18n import LANGUAGES
    from musicgames.theory import Naming
    from musicgames.widgets.keyboard_duel import play_keyboard_duel
    from musicgames.widgets.note_snap import play_note_snap

    for language in LANGUAGES:
        for naming in Naming:
            play_note_snap(people=1, computers=2, level="beginner", language=language,
                           naming=naming).close()
            play_keyboard_duel(language=language, naming=naming).close()


def make_drawings(folder: Path) -> Path:
    """Fill ``folder`` with the games' staves, the engraver's version and the note names'
    widths; returns ``folder``."""
    from importlib.metadata import version

    from musicgames.fonts import measured_widths

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("staff-*.svg"):
        old.unlink()
    with _keeping_in(folder):
        _open_the_games()
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
