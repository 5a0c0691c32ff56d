"""How the teacher's tables and charts say things in the teacher's language: words from the
string catalogue, days, seconds, percentages, and items (notes, chords) in a naming."""

from __future__ import annotations

from datetime import date

from musicgames import i18n
from musicgames.i18n import text
from musicgames.theory import Naming, Note, NoteError, TriadError, triad

__all__ = ["day_said", "item_label", "percent_said", "seconds_said", "word"]


def word(key: str, language: str, **values: object) -> str:
    """A word of the teacher's tables and charts, in the teacher's language."""
    return text(key, language, **values)


def day_said(day: date, language: str) -> str:
    """A day as the teacher's language writes it (CLDR): "7 Mar 2026", "7 mar 2026",
    "7 mars 2026" (the month names the days chart uses).

    >>> day_said(date(2026, 3, 7), "es"), day_said(date(2026, 3, 7), "en")
    ('7 mar 2026', '7 Mar 2026')
    """
    return i18n.day_said(day, language)


def seconds_said(ms: float | None, language: str, digits: int = 2) -> str:
    """Milliseconds as seconds, with the language's decimal mark: "1.30 s", "1,30 s".

    >>> seconds_said(1300, "en"), seconds_said(1300, "fr")
    ('1.30 s', '1,30 s')
    """
    if ms is None:
        return "–"
    return f"{i18n.number(ms / 1000, language, digits)} s"


def percent_said(share: float, language: str) -> str:
    """A share as a percentage, as the language writes it (CLDR): "67%", "67 %"."""
    return i18n.percent(share, language)


def item_label(item: str, naming: Naming | str | None = None, language: str = "en") -> str:
    """An item as a person reads it in one naming: a note (``Sol3`` → ``G4`` in letters) or a
    chord (``C major`` → ``Do mayor`` in solfège, Spanish); anything else as it is. ``None``
    keeps the item as stored.

    >>> item_label("Sol3", "letters"), item_label("C major", "solfege", "es")
    ('G4', 'Do mayor')
    >>> item_label("01-the-staff/a", "letters")
    '01-the-staff/a'
    """
    if naming is None:
        return item
    naming = Naming(naming)
    try:
        return Note.parse(item).label(naming, language=language)
    except NoteError:
        pass
    root, _, quality = item.partition(" ")
    if quality in ("major", "minor"):
        try:
            return triad(root, quality).name(naming, language)
        except (TriadError, NoteError, ValueError):
            return item
    return item
