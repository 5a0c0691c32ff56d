"""Print-and-play: both games as cards to print, cut out and play at a table.

``python -m musicgames.cards snap|duel --out FILE.pdf [--paper a4|letter]
[--naming solfege|letters] [--language en|es|fr] [--back]`` writes a PDF:

- **Note Snap**: the 56 note cards of the deck (S1), each showing its note on the staff
  twice, once turned 180° for the player across the table, and a page of the two guide
  cards (S2) with all 15 notes named, in two rows;
- **Keyboard Duel**: a one-page rules summary, the 42 Compose cards (D5), the 24 piano
  cards with their chord tones coloured and marked fff, ff, f (D3, D4) and every key named
  in the chord's key, and a sheet of Dice Tokens, five per player in both colours.

Cards are poker size (63 × 88 mm), nine to a page (piano cards lie landscape, eight to a
page), with cut marks in the margin; ``--back`` follows each sheet with the sheet of its
backs, mirrored for printing on both sides (flip on the long edge). Staves are verovio's
engraving placed as vectors.

>>> from musicgames.cards import make_deck
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:                      # doctest: +SKIP
...     make_deck("snap", pathlib.Path(tmp) / "snap.pdf", paper="letter").name
'snap.pdf'
"""

from __future__ import annotations

from pathlib import Path

from musicgames.cards.decks import GAMES, duel_pages, snap_pages
from musicgames.cards.layout import A4, LETTER, PAPERS, Paper, PaperError
from musicgames.cards.pdf import ConverterMissingError, svg_pages_to_pdf
from musicgames.theory import Naming

__all__ = [
    "A4",
    "GAMES",
    "LETTER",
    "PAPERS",
    "ConverterMissingError",
    "GameError",
    "Paper",
    "PaperError",
    "duel_pages",
    "make_deck",
    "pages",
    "snap_pages",
]


class GameError(ValueError):
    """A game that has no printed deck."""


def pages(
    game: str,
    *,
    paper: Paper | str = "a4",
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    back: bool = False,
) -> list[str]:
    """The SVG pages of a game's printed deck (``'snap'`` or ``'duel'``).

    >>> len(pages("duel", paper="letter", back=True))   # rules, 5 + 5, 3 + 3, tokens
    18
    >>> pages("chess")
    Traceback (most recent call last):
    ...
    musicgames.cards.GameError: game 'chess' has no printed deck: use 'snap' or 'duel'
    """
    if game == "snap":
        return snap_pages(paper, naming=naming, language=language, back=back)
    if game == "duel":
        return duel_pages(paper, naming=naming, language=language, back=back)
    raise GameError(f"game {game!r} has no printed deck: use 'snap' or 'duel'")


def make_deck(
    game: str,
    out: str | Path,
    *,
    paper: Paper | str = "a4",
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    back: bool = False,
) -> Path:
    """Write a game's printed deck as a PDF at ``out`` and return its path."""
    drawn = pages(game, paper=paper, naming=naming, language=language, back=back)
    return svg_pages_to_pdf(drawn, out)
