"""How the teacher's tables and charts say things in the teacher's language: words from the
string catalogue, days, seconds, percentages, and items (notes, chords) in a naming."""

from __future__ import annotations

from datetime import date

from musicgames.i18n import month_name, text
from musicgames.theory import Naming, Note, NoteError, TriadError, triad

__all__ = ["day_said", "item_label", "percent_said", "seconds_said", "word"]


def word(key: str, language: str, **values: object) -> str:
    """A word of the teacher's tables and charts, in English or Spanish."""
    return text(key, language, **values)


def day_said(day: date, language: str) -> str:
    """A day as the teacher's language writes it: "7 Mar 2026", "7 mar 2026" (the month
    names the days chart uses).

    >>> day_said(date(2026, 3, 7), "es"), day_said(date(2026, 3, 7), "en")
    ('7 mar 2026', '7 Mar 2026')
    """
    month = month_name(day.month, language, short=True)
    return word("report.date", language, day=day.day, month=month, year=day.year)


def seconds_said(ms: float | None, language: str, digits: int = 2) -> str:
    """Milliseconds as seconds, with the language's decimal mark: "1.30 s", "1,30 s"."""
    if ms is None:
        return "–"
    shown = f"{ms / 1000:.{digits}f}"
    return f"{shown.replace('.', ',') if language == 'es' else shown} s"


def percent_said(share: float, language: str) -> str:
    """A share as a percentage, as the language writes it: "67%", "67 %"."""
    return f"{share:.0%}".replace("%", " %") if language == "es" else f"{share:.0%}"


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
        return Note.parse(item).label(naming)
    except NoteError:
        pass
    root, _, quality = item.partition(" ")
    if quality in ("major", "minor"):
        try:
            return triad(root, quality).name(naming, language)
        except (TriadError, NoteError, ValueError):
            return item
    return item
