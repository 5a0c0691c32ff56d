"""How wide words are: measured in DejaVu Sans, the font the project writes in.

matplotlib ships the font and Pillow measures it, so a printed card's paragraph is wrapped,
and a key's name fitted on its key, by the widths the words really have. Where neither is
installed (the static site, in the browser), the widths Pillow measured ahead of time are
read from the folder of kept drawings (:mod:`musicgames.kept`), and only the words measured
there can be asked for.

>>> text_width("Do", size=10) < text_width("Sol", size=10)
True
>>> round(text_width("M", size=1), 2)  # an em's share: "M" is a wide letter
0.86
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from musicgames.kept import DRAWINGS_ENV, WIDTHS_FILE, kept_folder

__all__ = ["FAMILY", "UnmeasuredTextError", "measured_widths", "text_width"]

#: The font family to name in SVG: the measured font first, then fonts of about its widths.
FAMILY = "DejaVu Sans, Verdana, sans-serif"


@cache
def _font(bold: bool) -> Any:
    import matplotlib
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name), 100)


class UnmeasuredTextError(LookupError):
    """A width asked for where no font can be measured, of a text not measured ahead."""


@cache
def _kept_widths() -> dict[str, dict[str, float]]:
    folder = kept_folder()
    if folder is None:
        return {}
    try:
        kept: dict[str, dict[str, float]] = json.loads(
            (folder / WIDTHS_FILE).read_text(encoding="utf-8"))
    except OSError:
        return {}
    return kept


def _width_at_100(text: str, bold: bool) -> float:
    """``text``'s width at font size 100: measured, or read from the kept widths."""
    try:
        font = _font(bold)
    except ImportError:
        width = _kept_widths().get("bold" if bold else "regular", {}).get(text)
        if width is None:
            raise UnmeasuredTextError(
                f"{text!r} cannot be measured here (no Pillow) and is not among the widths "
                f"kept in {DRAWINGS_ENV}'s {WIDTHS_FILE}") from None
        return float(width)
    return float(font.getlength(text))


def measured_widths(texts: list[str], *, bold: bool = False) -> dict[str, float]:
    """Each text's width at font size 100, measured now: what a folder of kept drawings
    holds for a process that cannot measure (see :data:`musicgames.kept.WIDTHS_FILE`)."""
    font = _font(bold)
    return {text: float(font.getlength(text)) for text in texts}


@lru_cache(maxsize=4096)  # a board names the same few keys again and again
def text_width(text: str, *, size: float, bold: bool = False) -> float:
    """The width of ``text`` set at font size ``size``, in the unit of ``size`` (mm on a
    printed card, user units in an SVG drawing)."""
    return _width_at_100(text, bold) * size / 100
