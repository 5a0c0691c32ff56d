"""Words on printed cards: SVG ``<text>`` set in DejaVu Sans, and lines wrapped to a width.

SVG does not wrap text, so paragraphs are broken into lines here, measured with the same
font the page is printed in (:func:`musicgames.fonts.text_width`).

>>> wrap("Three rounds. Each round you place five tokens.", width=50, size=4)
['Three rounds. Each', 'round you place five', 'tokens.']
>>> text_width("Do", size=10) < text_width("Sol", size=10)
True
"""

from __future__ import annotations

from html import escape

from musicgames.cards.layout import FONT
from musicgames.fonts import text_width

__all__ = ["paragraph", "svg_text", "text_width", "wrap"]


def wrap(text: str, *, width: float, size: float, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` mm (a longer word gets its own line)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size=size, bold=bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def svg_text(
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    anchor: str = "start",
    bold: bool = False,
    fill: str = "#000",
    extra: str = "",
) -> str:
    """One line of text with its baseline at ``y`` (mm)."""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size}"{weight} '
        f'fill="{fill}" text-anchor="{anchor}"{extra}>{escape(text)}</text>'
    )


def paragraph(
    x: float,
    y: float,
    text: str,
    *,
    width: float,
    size: float,
    leading: float = 1.3,
    anchor: str = "start",
    bold: bool = False,
    fill: str = "#000",
) -> tuple[str, float]:
    """A wrapped paragraph whose first baseline is ``y``; returns the SVG and the next free y."""
    parts = []
    for line in wrap(text, width=width, size=size, bold=bold):
        parts.append(svg_text(x, y, line, size=size, anchor=anchor, bold=bold, fill=fill))
        y += size * leading
    return "".join(parts), y
