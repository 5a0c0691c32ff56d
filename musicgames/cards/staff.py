"""Verovio's staves placed on a printed card as vectors, at one scale for every card.

:func:`musicgames.render.staff_svg` engraves a note; here that SVG is nested inside the
card's SVG (an ``<svg>`` element with its own viewBox), scaled so that the staff is
``staff_height`` mm tall and its middle line lies where the card wants it, whatever ledger
lines the note needs. The music font's glyphs stay what verovio writes: ``<path>`` outlines
in ``<defs>``, drawn with ``<use>``, so they reach the PDF as vector paths (no font file and
no bitmap). Their links are written ``xlink:href`` as well, which every SVG reader follows.

>>> from musicgames.render import staff_svg
>>> svg = nested_staff(staff_svg("Sol3"), centre_x=30, middle_y=20, staff_height=12)
>>> svg.startswith("<svg id=") and 'xlink:href="#E0A2' in svg and "<image" not in svg
True
>>> geometry(staff_svg("Sol3")).staff_height > 0
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["StaffGeometry", "geometry", "nested_staff"]

_OUTER = re.compile(r'^<svg[^>]*?viewBox="0 0 ([\d.]+) ([\d.]+)"[^>]*>', re.S)
_INNER = re.compile(r'class="definition-scale"[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"')
_MARGIN = re.compile(r'class="page-margin" transform="translate\(([\d.]+), ([\d.]+)\)"')
_LINES = re.compile(r'class="staff">\s*((?:<path d="M[\d.]+ [\d.]+ L[\d.]+ [\d.]+"[^>]*>\s*){5})')
_SERIF = "DejaVu Serif, Times, serif"
_ID = re.compile(r'^<svg[^>]*? id="([^"]+)"')
_LINE_Y = re.compile(r'd="M[\d.]+ ([\d.]+) L')


@dataclass(frozen=True)
class StaffGeometry:
    """Where the staff lies in a verovio drawing, in the drawing's outer viewBox units."""

    width: float
    height: float
    staff_top: float
    staff_height: float


def geometry(svg: str) -> StaffGeometry:
    """Read the drawing's size and its first staff's top line and height from verovio's SVG."""
    outer, inner = _OUTER.search(svg), _INNER.search(svg)
    margin, lines = _MARGIN.search(svg), _LINES.search(svg)
    if outer is None or inner is None or margin is None or lines is None:
        raise ValueError("not a one-staff drawing from verovio: no staff lines found")
    width, height = float(outer.group(1)), float(outer.group(2))
    ratio = width / float(inner.group(1))
    ys = [float(y) for y in _LINE_Y.findall(lines.group(1))]
    top = (float(margin.group(2)) + min(ys)) * ratio
    return StaffGeometry(width, height, top, (max(ys) - min(ys)) * ratio)


def nested_staff(svg: str, *, centre_x: float, middle_y: float, staff_height: float) -> str:
    """The drawing as an ``<svg>`` element for a card: staff ``staff_height`` mm tall, its
    middle line at ``middle_y`` and the drawing centred on ``centre_x`` (all in mm)."""
    g = geometry(svg)
    scale = staff_height / g.staff_height
    width, height = g.width * scale, g.height * scale
    x = centre_x - width / 2
    y = middle_y - (g.staff_top + g.staff_height / 2) * scale
    body = svg[_OUTER.search(svg).end() :]  # type: ignore[union-attr]  # checked in geometry
    body = body.replace(' href="#', ' xlink:href="#')
    # The note names under a guide card's staves: a serif every machine with DejaVu has.
    body = body.replace('font-family="Times, serif"', f'font-family="{_SERIF}"')
    ident = _ID.search(svg)  # verovio's style sheet selects by the drawing's id: keep it
    id_attr = f' id="{ident.group(1)}"' if ident else ""
    return (
        f'<svg{id_attr} x="{x:.3f}" y="{y:.3f}" width="{width:.3f}" height="{height:.3f}" '
        f'viewBox="0 0 {g.width} {g.height}" overflow="visible">{body}'
    )
