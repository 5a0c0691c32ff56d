"""Engraved music symbols for matplotlib figures: SMuFL glyphs from verovio's own fonts.

verovio ships each glyph of its SMuFL fonts (Leipzig by default) as an SVG outline; this
module reads one (with svgpath2mpl) into a :class:`matplotlib.path.Path` in staff spaces, so a
chart can draw a real treble clef rather than letters that stand for one.

>>> box = glyph_path("gClef").get_extents()   # from the G line: 4.3 spaces up, 2.6 down
>>> float(round(box.y1, 1)), float(round(box.y0, 1))
(4.3, -2.6)
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.path import Path

__all__ = ["GLYPHS", "glyph_path"]

#: SMuFL code points of the glyphs used here, by their SMuFL names.
GLYPHS: dict[str, str] = {
    "gClef": "E050", "fClef": "E062", "cClef": "E05C",
    "accidentalFlat": "E260", "accidentalNatural": "E261", "accidentalSharp": "E262",
    "accidentalDoubleSharp": "E263", "accidentalDoubleFlat": "E264",
}
#: A SMuFL font has 4 staff spaces to the em, and verovio's glyphs 1,000 units to the em.
_UNITS_PER_SPACE = 250.0


def _outline(code: str, font: str) -> str:
    folder = resources.files("verovio") / "data" / font
    text = (folder / f"{code}.xml").read_text(encoding="utf-8")
    match = re.search(r'\sd="([^"]+)"', text)
    if match is None:
        raise ValueError(f"glyph {code} of {font} has no outline")
    return match.group(1)


@cache
def glyph_path(name: str, font: str = "Leipzig") -> Path:
    """The outline of a SMuFL glyph (``"gClef"``, ``"accidentalFlat"``, …) in staff spaces,
    its origin where the glyph sits on the staff (for the treble clef: on the G line; for an
    accidental: at the height of its note's head, the glyph starting at x = 0), y upwards.

    >>> flat = glyph_path("accidentalFlat").get_extents()   # the bowl round the note's line
    >>> float(round(flat.x0, 2)), float(round(flat.x1, 2)), float(round(flat.y0, 1))
    (0.0, 0.79, -0.7)
    """
    from matplotlib.transforms import Affine2D
    from svgpath2mpl import parse_path

    code = GLYPHS.get(name, name)
    # The outlines are in font units, y upwards (verovio flips them for SVG): to spaces.
    return parse_path(_outline(code, font)).transformed(
        Affine2D().scale(1 / _UNITS_PER_SPACE))
