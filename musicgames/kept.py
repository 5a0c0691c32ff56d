"""Drawings and measurements made once and kept in a folder, for processes that cannot (or
need not) make them again.

The classroom server gives its kernels one such folder for as long as it runs, so a class's
cards are engraved once between them. The static site (:mod:`musicgames.lite`) ships one made
at build time: there the browser has no engraver (verovio) and no font measurer (Pillow), and
only reads what was made. One renderer decides; the other reads its output.

The folder holds the staves (``staff-<key>.svg``, written by :mod:`musicgames.render`), and in
a folder made ahead of time, :data:`ENGRAVER_FILE` (the verovio version that engraved them)
and :data:`WIDTHS_FILE` (words' widths, see :func:`musicgames.fonts.text_width`).

>>> import os
>>> os.environ.pop(DRAWINGS_ENV, None) and None
>>> kept_folder() is None
True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DRAWINGS_ENV", "ENGRAVER_FILE", "WIDTHS_FILE", "kept_folder"]

#: The environment variable naming the folder where drawings are kept.
DRAWINGS_ENV = "MUSICGAMES_DRAWINGS"
#: In a folder made ahead of time: the version of verovio that engraved its staves.
ENGRAVER_FILE = "engraver.txt"
#: In a folder made ahead of time: ``{"regular"|"bold": {text: width}}``, each text's width
#: at font size 100 in DejaVu Sans, as Pillow measured it.
WIDTHS_FILE = "widths.json"


def kept_folder() -> Path | None:
    """The folder of kept drawings, when this process was given one."""
    folder = os.environ.get(DRAWINGS_ENV)
    return Path(folder) if folder else None
