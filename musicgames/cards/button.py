"""A box for the teacher's notebook that makes both printed decks with one click.

>>> import tempfile
>>> box = deck_button(tempfile.mkdtemp(), language="es")
>>> box.button.description, box.paper.value, box.naming.value, box.deck_language.value
('Crear las barajas', 'a4', 'solfege', 'es')
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets

from musicgames.cards import ConverterMissingError, make_deck
from musicgames.cards.layout import PAPERS
from musicgames.i18n import LANGUAGES, text
from musicgames.theory import Naming
from musicgames.widgets.key_guard import keep_keys

__all__ = ["DeckButton", "deck_button"]

#: The file each game's deck is written to, in the chosen folder.
FILE_NAMES = {"snap": "note-snap-cards-{paper}.pdf", "duel": "keyboard-duel-cards-{paper}.pdf"}


class DeckButton(ipywidgets.VBox):
    """Paper, note names, the cards' language, card backs, a folder and a button that writes
    both PDFs there. The box speaks ``language``; the cards default to it."""

    def __init__(
        self,
        folder: str | os.PathLike[str] | None = None,
        *,
        language: str = "en",
        **kwargs: Any,
    ) -> None:
        self.language = language
        wide = ipywidgets.Layout(width="100%", max_width="600px")
        self.folder = ipywidgets.Text(
            value=str(folder if folder is not None else Path.cwd()),
            description=text("cards.maker.folder", language), layout=wide,
        )
        self.paper = ipywidgets.Dropdown(
            options=[(p.upper() if p == "a4" else p.capitalize(), p) for p in PAPERS],
            value="a4", description=text("cards.maker.paper", language),
        )
        self.naming = ipywidgets.Dropdown(
            options=[(text(f"duel.naming.{n.value}", language), n.value) for n in Naming],
            value=Naming.SOLFEGE.value, description=text("duel.label.naming", language),
        )
        self.deck_language = ipywidgets.Dropdown(
            options=[(text("language.name", code), code) for code in LANGUAGES],
            value=language, description=text("duel.label.language", language),
        )
        self.backs = ipywidgets.Checkbox(value=False,
                                         description=text("cards.maker.backs", language))
        self.button = ipywidgets.Button(description=text("cards.maker.button", language),
                                        button_style="primary")
        self.message = ipywidgets.HTML()
        self.button.on_click(lambda _button: self.make())
        title = ipywidgets.HTML(f"<b>{escape(text('cards.maker.title', language))}</b>")
        options = ipywidgets.HBox([self.paper, self.naming, self.deck_language, self.backs])
        super().__init__([title, self.folder, options, self.button, self.message], **kwargs)
        self.add_class("mg-deck-button")
        keep_keys(self)  # no key pressed on its menus or button runs or adds a cell

    def _say(self, key: str, **values: object) -> None:
        self.message.value = escape(text(key, self.language, **values), quote=False)

    def make(self) -> list[Path]:
        """Write both decks into the folder (what the button does); returns the files."""
        folder = Path(self.folder.value.strip() or ".").expanduser()
        self._say("cards.maker.working")
        written: list[Path] = []
        try:
            for game, name in FILE_NAMES.items():
                written.append(make_deck(
                    game, folder / name.format(paper=self.paper.value), paper=self.paper.value,
                    naming=self.naming.value, language=self.deck_language.value,
                    back=self.backs.value,
                ))
        except ConverterMissingError:
            self._say("cards.maker.missing")
            return written
        except (OSError, RuntimeError, ValueError) as err:
            self._say("cards.maker.failed", why=getattr(err, "strerror", None) or err)
            return written
        self._say("cards.maker.done", files=", ".join(p.name for p in written),
                  folder=folder.resolve())
        return written


def deck_button(folder: str | os.PathLike[str] | None = None, *, language: str = "en"
                ) -> DeckButton:
    """The deck maker box; ``folder`` is where the PDFs go (default: the notebook's folder)."""
    return DeckButton(folder, language=language)
