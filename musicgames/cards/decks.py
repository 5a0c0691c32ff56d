"""The printed decks, page by page, as SVG: what goes on each sheet and in which order.

>>> pages = snap_pages("a4")
>>> len(pages)   # 56 cards at 9 a page, then the page of two guide cards
8
>>> len(snap_pages("letter", back=True))   # each sheet of cards followed by its backs
15
>>> len(duel_pages("a4"))   # rules, 42 Compose cards (5 pages), 24 piano cards (3), tokens
10
"""

from __future__ import annotations

from musicgames.cards.faces import (
    GUIDE,
    compose_back,
    compose_card,
    guide_card,
    piano_back,
    piano_card,
    rules_page,
    snap_back,
    snap_card,
    token_sheet,
)
from musicgames.cards.layout import POKER, Grid, Paper, paper, sheet, sheets
from musicgames.duel.cards import COMPOSE_DECK, PIANO_CARDS
from musicgames.i18n import LANGUAGES, LanguageError, text
from musicgames.snap.cards import DECK
from musicgames.theory import Naming

__all__ = ["GAMES", "duel_pages", "snap_pages"]

#: The games that have print-and-play decks.
GAMES: tuple[str, ...] = ("snap", "duel")


def _check(naming: Naming | str, language: str) -> Naming:
    if language not in LANGUAGES:
        allowed = ", ".join(repr(code) for code in LANGUAGES)
        raise LanguageError(f"language {language!r} is not known: use one of {allowed}")
    try:
        return Naming(naming)
    except ValueError:
        allowed = ", ".join(repr(n.value) for n in Naming)
        raise ValueError(f"naming {naming!r} is not known: use one of {allowed}") from None


def snap_pages(
    paper_name: Paper | str = "a4",
    *,
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    back: bool = False,
) -> list[str]:
    """Note Snap: the 56 note cards of :data:`musicgames.snap.cards.DECK` (S1), then a page of
    two guide cards (S2). With ``back``, each sheet of note cards is followed by its backs."""
    chosen = _check(naming, language)
    page = paper(paper_name)
    grid = Grid.fit(page, POKER)
    faces = [snap_card(note) for note in DECK]
    footer = text("cards.footer.snap", language, count=len(DECK))
    pages = sheets(grid, faces, footer=footer, back=snap_back(language) if back else None)
    guides = Grid.fit(page, GUIDE)
    guide = guide_card(chosen, language)
    pages.append(sheet(guides, [guide] * min(2, guides.per_page),
                       footer=text("cards.footer.guide", language)))
    return pages


def duel_pages(
    paper_name: Paper | str = "a4",
    *,
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    back: bool = False,
) -> list[str]:
    """Keyboard Duel: the rules on one page, the 42 Compose cards (D5), the 24 piano cards with
    their marks (D3, D4) and a sheet of Dice Tokens, five for each player."""
    chosen = _check(naming, language)
    page = paper(paper_name)
    pages = [rules_page(page, chosen, language)]
    compose = [compose_card(card, chosen, language) for card in COMPOSE_DECK]
    pages += sheets(
        Grid.fit(page, POKER),
        compose,
        footer=text("cards.footer.compose", language, count=len(compose)),
        back=compose_back(language) if back else None,
    )
    pianos = [piano_card(card, chosen, language) for card in PIANO_CARDS]
    pages += sheets(
        Grid.fit(page, POKER.turned()),
        pianos,
        footer=text("cards.footer.piano", language, count=len(pianos)),
        back=piano_back(language) if back else None,
    )
    pages.append(token_sheet(page, language))
    return pages
