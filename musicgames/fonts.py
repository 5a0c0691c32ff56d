"""How wide words are: measured in DejaVu Sans, the font the project writes in.

matplotlib ships the font and Pillow measures it, so a printed card's paragraph is wrapped,
and a key's name fitted on its key, by the widths the words really have.

>>> text_width("Do", size=10) < text_width("Sol", size=10)
True
>>> round(text_width("M", size=1), 2)  # an em's share: "M" is a wide letter
0.86
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Any

__all__ = ["FAMILY", "text_width"]

#: The font family to name in SVG: the measured font first, then fonts of about its widths.
FAMILY = "DejaVu Sans, Verdana, sans-serif"


@cache
def _font(bold: bool) -> Any:
    import matplotlib
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name), 100)


@lru_cache(maxsize=4096)  # a board names the same few keys again and again
def text_width(text: str, *, size: float, bold: bool = False) -> float:
    """The width of ``text`` set at font size ``size``, in the unit of ``size`` (mm on a
    printed card, user units in an SVG drawing)."""
    return float(_font(bold).getlength(text)) * size / 100
