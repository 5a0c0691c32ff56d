"""Sheets of cards: paper sizes, the grid of cards on a page, cut marks and card backs.

Everything is SVG measured in millimetres: a page is ``<svg width="210mm" height="297mm"
viewBox="0 0 210 297">``, and a card face is an SVG fragment drawn in the card's own box
(0, 0)–(width, height), which :func:`sheet` moves into its place on the page.

>>> A4.width, LETTER.height, paper("letter") is LETTER
(210.0, 279.4, True)
>>> grid = Grid.fit(A4, POKER)
>>> grid.columns, grid.rows, grid.per_page
(3, 3, 9)
>>> Grid.fit(LETTER, POKER.turned()).per_page   # landscape piano cards, 2 × 4
8

Cut marks sit in the margin, in line with every edge of the grid (cards are butted, so one
cut serves two cards); a light outline is drawn round each card as well. Nothing is printed
within :data:`PRINTER_MARGIN` (5 mm) of the paper's edge, where most printers cannot print:
the footer line goes under the grid, or along the left margin when the margin under the grid
is too narrow for it and the cut marks (nine cards on Letter paper). Backs are laid out
mirrored left to right, so a sheet printed on both sides (flip on the long edge) puts each
back behind its own front.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

__all__ = [
    "A4",
    "LETTER",
    "PAPERS",
    "POKER",
    "CardSize",
    "Grid",
    "PRINTER_MARGIN",
    "Paper",
    "PaperError",
    "footer_line",
    "page_svg",
    "paper",
    "sheet",
    "sheets",
    "unique_ids",
]

#: The font every printed word is set in: DejaVu Sans has ♯ ♭ ↑ ↓ and the Spanish letters.
FONT = "DejaVu Sans, Verdana, sans-serif"


class PaperError(ValueError):
    """A paper size this module does not know."""


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait, in millimetres."""

    name: str
    width: float
    height: float


@dataclass(frozen=True)
class CardSize:
    """A card's size in millimetres."""

    width: float
    height: float

    def turned(self) -> CardSize:
        """The same card lying on its side (landscape)."""
        return CardSize(self.height, self.width)


A4 = Paper("a4", 210.0, 297.0)
LETTER = Paper("letter", 215.9, 279.4)
PAPERS: dict[str, Paper] = {p.name: p for p in (A4, LETTER)}
#: The usual playing-card size (2.5 × 3.5 inches), the size of card sleeves.
POKER = CardSize(63.0, 88.0)

_MARK_GAP = 1.5  # mm between the grid and a cut mark, down to 0.5 when the margin is narrow
_MARK_LENGTH = 5.0  # mm, shortened when the margin is narrow
_MARK_SHORTEST = 2.0  # mm: a cut mark no shorter than this is easy to see and to line up
#: mm at every edge of the paper where nothing is printed: most printers cannot print there.
PRINTER_MARGIN = 5.0
#: mm next to the printer's margin kept for the footer line (its letters are 2.2 mm).
FOOTER_BAND = 3.0
_FOOTER_SIZE = 2.2
_FOOTER_ASCENT = 0.95 * _FOOTER_SIZE  # DejaVu Sans: accented capitals reach this high
_FOOTER_DESCENT = 0.24 * _FOOTER_SIZE  # and descenders below it


def paper(name: str | Paper) -> Paper:
    """The paper called ``name`` (``'a4'`` or ``'letter'``, any case).

    >>> paper("legal")
    Traceback (most recent call last):
    ...
    musicgames.cards.layout.PaperError: paper 'legal' is not known: use one of 'a4', 'letter'
    """
    if isinstance(name, Paper):
        return name
    found = PAPERS.get(str(name).strip().lower())
    if found is None:
        allowed = ", ".join(repr(p) for p in PAPERS)
        raise PaperError(f"paper {name!r} is not known: use one of {allowed}")
    return found


@dataclass(frozen=True)
class Grid:
    """Where the cards of one size go on one page: a centred grid of butted cards."""

    paper: Paper
    card: CardSize
    columns: int
    rows: int

    @classmethod
    def fit(cls, paper: Paper, card: CardSize, margin: float = 7.0) -> Grid:
        """As many cards as fit with at least ``margin`` mm round the grid for cut marks."""
        columns = int((paper.width - 2 * margin) // card.width)
        rows = int((paper.height - 2 * margin) // card.height)
        if columns < 1 or rows < 1:
            raise PaperError(f"a {card.width}×{card.height} mm card does not fit {paper.name}")
        return cls(paper, card, columns, rows)

    @property
    def per_page(self) -> int:
        """Cards on one page."""
        return self.columns * self.rows

    @property
    def left(self) -> float:
        """The x of the grid's left edge (mm)."""
        return (self.paper.width - self.columns * self.card.width) / 2

    @property
    def top(self) -> float:
        """The y of the grid's top edge (mm)."""
        return (self.paper.height - self.rows * self.card.height) / 2

    def origin(self, slot: int, *, mirrored: bool = False) -> tuple[float, float]:
        """The top-left corner of slot ``slot`` (row by row); mirrored for the back."""
        row, column = divmod(slot, self.columns)
        if mirrored:
            column = self.columns - 1 - column
        return (self.left + column * self.card.width, self.top + row * self.card.height)

    @property
    def footer_under(self) -> bool:
        """Whether the footer line fits under the grid, with cut marks of a useful length
        between the two; if not, it runs along the left margin (see :meth:`cut_marks`).

        >>> Grid.fit(A4, POKER).footer_under, Grid.fit(LETTER, POKER).footer_under
        (True, False)
        """
        below = self.paper.height - self.top - self.rows * self.card.height
        return below - PRINTER_MARGIN - FOOTER_BAND >= _MARK_SHORTEST + 0.5

    def cut_marks(self, *, footer: bool = False) -> str:
        r"""Short lines in the margin, in line with every edge between and around the cards,
        none nearer the paper's edge than :data:`PRINTER_MARGIN`; with ``footer``, the
        marks on the footer's side stop short of the footer's band.

        >>> marks = Grid.fit(LETTER, POKER).cut_marks(footer=True)
        >>> xs = [float(x) for x in re.findall(r'x[12]="([\d.]+)"', marks)]
        >>> ys = [float(y) for y in re.findall(r'y[12]="([\d.]+)"', marks)]
        >>> min(xs) >= PRINTER_MARGIN + FOOTER_BAND, max(xs) <= LETTER.width - PRINTER_MARGIN
        (True, True)
        >>> min(ys) >= PRINTER_MARGIN, max(ys) <= LETTER.height - PRINTER_MARGIN
        (True, True)
        """
        right = self.left + self.columns * self.card.width
        bottom = self.top + self.rows * self.card.height
        room = self.left - PRINTER_MARGIN
        left_room = room - (FOOTER_BAND if footer and not self.footer_under else 0.0)
        below_room = self.paper.height - bottom - PRINTER_MARGIN
        below_room -= FOOTER_BAND if footer and self.footer_under else 0.0
        lines: list[str] = []
        for i in range(self.columns + 1):
            x = self.left + i * self.card.width
            gap, length = _mark(self.top - PRINTER_MARGIN)
            lines.append(_line(x, self.top - gap - length, x, self.top - gap))
            gap, length = _mark(below_room)
            lines.append(_line(x, bottom + gap, x, bottom + gap + length))
        for j in range(self.rows + 1):
            y = self.top + j * self.card.height
            gap, length = _mark(left_room)
            lines.append(_line(self.left - gap - length, y, self.left - gap, y))
            gap, length = _mark(room)
            lines.append(_line(right + gap, y, right + gap + length, y))
        return f'<g class="cut-marks" stroke="#000" stroke-width="0.25">{"".join(lines)}</g>'


def _mark(room: float) -> tuple[float, float]:
    """The gap from the grid and the length of a cut mark in ``room`` mm of margin: the gap
    narrows first, so that the mark keeps a useful length.

    >>> _mark(12.0), _mark(2.7)
    ((1.5, 5.0), (0.7, 2.0))
    """
    gap = round(min(_MARK_GAP, max(0.5, room - _MARK_SHORTEST)), 2)
    return gap, round(min(_MARK_LENGTH, room - gap), 2)


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}"/>'


def page_svg(paper: Paper, body: str) -> str:
    """A whole page: an SVG document of the paper's size, in millimetres."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.1" width="{paper.width}mm" height="{paper.height}mm" '
        f'viewBox="0 0 {paper.width} {paper.height}">'
        f'<rect width="{paper.width}" height="{paper.height}" fill="#fff"/>{body}</svg>'
    )


def footer_line(paper: Paper, text: str, *, under: bool = True) -> str:
    r"""The footer line, centred at the foot of the page just inside the printer's margin;
    or, not ``under``, along the left margin, reading upwards.

    >>> float(re.search(r' y="([\d.]+)"', footer_line(A4, "Note Snap")).group(1))
    291.47
    """
    if under:
        x, y, turn = paper.width / 2, paper.height - PRINTER_MARGIN - _FOOTER_DESCENT, ""
    else:
        x, y = PRINTER_MARGIN + _FOOTER_ASCENT, paper.height / 2
        turn = f' transform="rotate(-90 {x:.2f} {y:.2f})"'
    return (
        f'<text x="{x:.2f}" y="{y:.2f}"{turn} font-family="{FONT}" font-size="{_FOOTER_SIZE}" '
        f'fill="#555" text-anchor="middle">{escape(text)}</text>'
    )


#: A card face: draws one card in its own box, (0, 0) to (width, height), as SVG.
Face = Callable[[CardSize], str]


_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(id="|#)([A-Za-z_][\w.-]*)')


def unique_ids(svg: str, suffix: str) -> str:
    """``svg`` with every id it defines, and every reference to one (``href="#…"`` and the
    style sheets' ``#…`` selectors), suffixed: cards repeated on a page keep distinct ids.

    >>> unique_ids('<g id="a"><use href="#a" fill="#fab"/></g>', "-2")
    '<g id="a-2"><use href="#a-2" fill="#fab"/></g>'
    """
    ids = set(_ID.findall(svg))
    if not ids:
        return svg
    return _REFERENCE.sub(
        lambda m: m.group(1) + m.group(2) + suffix if m.group(2) in ids else m.group(0), svg
    )


def sheet(grid: Grid, faces: Sequence[Face], *, footer: str = "", back: bool = False) -> str:
    """One page of cards: the faces in grid order (or backs, mirrored), cut marks, a footer."""
    if len(faces) > grid.per_page:
        raise ValueError(f"{len(faces)} cards do not fit one page of {grid.per_page}")
    parts = [grid.cut_marks(footer=bool(footer))]
    for slot, face in enumerate(faces):
        x, y = grid.origin(slot, mirrored=back)
        parts.append(
            f'<g transform="translate({x:.2f} {y:.2f})">'
            f'<rect width="{grid.card.width}" height="{grid.card.height}" fill="none" '
            'stroke="#bbb" stroke-width="0.2"/>'
            f"{unique_ids(face(grid.card), f'-{slot}')}</g>"
        )
    if footer:
        parts.append(footer_line(grid.paper, footer, under=grid.footer_under))
    return page_svg(grid.paper, "".join(parts))


def sheets(
    grid: Grid,
    faces: Sequence[Face],
    *,
    footer: str = "",
    back: Face | None = None,
) -> list[str]:
    """Pages holding every face; with ``back``, each page is followed by its backs."""
    pages: list[str] = []
    for start in range(0, len(faces), grid.per_page):
        chunk = faces[start : start + grid.per_page]
        pages.append(sheet(grid, chunk, footer=footer))
        if back is not None:
            pages.append(sheet(grid, [back] * len(chunk), back=True))
    return pages
