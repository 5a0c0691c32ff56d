"""Engraved music symbols for matplotlib figures: SMuFL glyphs from verovio's own fonts.

verovio ships each glyph of its SMuFL fonts (Leipzig by default) as an SVG outline; this
module reads one and turns it into a :class:`matplotlib.path.Path` in staff spaces, so a
chart can draw a real treble clef rather than letters that stand for one.

>>> box = glyph_path("gClef").get_extents()   # from the G line: 4.3 spaces up, 2.6 down
>>> float(round(box.y1, 1)), float(round(box.y0, 1))
(4.3, -2.6)
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.path import Path

__all__ = ["GLYPHS", "glyph_path"]

#: SMuFL code points of the glyphs used here, by their SMuFL names.
GLYPHS: dict[str, str] = {"gClef": "E050", "fClef": "E062", "cClef": "E05C"}
#: A SMuFL font has 4 staff spaces to the em, and verovio's glyphs 1,000 units to the em.
_UNITS_PER_SPACE = 250.0
_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _outline(code: str, font: str) -> str:
    folder = resources.files("verovio") / "data" / font
    text = (folder / f"{code}.xml").read_text(encoding="utf-8")
    match = re.search(r'\sd="([^"]+)"', text)
    if match is None:
        raise ValueError(f"glyph {code} of {font} has no outline")
    return match.group(1)


@cache
def glyph_path(name: str, font: str = "Leipzig") -> Path:
    """The outline of a SMuFL glyph (``"gClef"``, …) in staff spaces, its origin where the
    glyph sits on the staff (for the treble clef: on the G line), y upwards."""
    from matplotlib.path import Path

    code = GLYPHS.get(name, name)
    tokens = _TOKEN.findall(_outline(code, font))
    vertices: list[tuple[float, float]] = []
    codes: list[Any] = []
    x = y = 0.0
    start = (0.0, 0.0)
    last_control: tuple[float, float] | None = None
    command = ""
    index = 0

    def numbers(count: int) -> list[float]:
        nonlocal index
        values = [float(t) for t in tokens[index : index + count]]
        index += count
        return values

    while index < len(tokens):
        token = tokens[index]
        if token.isalpha():
            command = token
            index += 1
            if command in "Zz":
                codes.append(Path.CLOSEPOLY)
                vertices.append(start)
                x, y = start
                last_control = None
                continue
        relative = command.islower()
        kind = command.upper()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        if kind == "M":
            nx, ny = numbers(2)
            x, y = ox + nx, oy + ny
            start = (x, y)
            codes.append(Path.MOVETO)
            vertices.append((x, y))
            command = "l" if relative else "L"  # further pairs are lines
            last_control = None
        elif kind == "L":
            nx, ny = numbers(2)
            x, y = ox + nx, oy + ny
            codes.append(Path.LINETO)
            vertices.append((x, y))
            last_control = None
        elif kind == "H":
            (nx,) = numbers(1)
            x = ox + nx
            codes.append(Path.LINETO)
            vertices.append((x, y))
            last_control = None
        elif kind == "V":
            (ny,) = numbers(1)
            y = oy + ny
            codes.append(Path.LINETO)
            vertices.append((x, y))
            last_control = None
        elif kind in "CS":
            if kind == "C":
                x1, y1, x2, y2, nx, ny = numbers(6)
                first = (ox + x1, oy + y1)
            else:
                x2, y2, nx, ny = numbers(4)
                first = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (
                    x, y)
            second = (ox + x2, oy + y2)
            x, y = ox + nx, oy + ny
            codes += [Path.CURVE4] * 3
            vertices += [first, second, (x, y)]
            last_control = second
        else:
            raise ValueError(f"glyph {code}: path command {command!r} is not read here")
    # The outlines are in font units, y upwards (verovio flips them for SVG): to spaces.
    scaled = [(vx / _UNITS_PER_SPACE, vy / _UNITS_PER_SPACE) for vx, vy in vertices]
    return Path(scaled, codes)
