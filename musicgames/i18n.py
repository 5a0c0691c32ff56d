"""One catalogue of the words the widgets show, in every language of :data:`LANGUAGES`.

The strings live in JSON files in ``musicgames/strings/`` (one file per part of the project,
each mapping a key to its text per language); :func:`text` looks a key up. Numbers,
percentages, dates, month names and plural forms are the language's own, as the CLDR (through
Babel) writes them: :func:`number`, :func:`percent`, :func:`day_said`, :func:`month_name`,
:func:`counted`.

>>> text("language.name", "es")
'Español'
>>> text("language.name", "de")
Traceback (most recent call last):
...
musicgames.i18n.LanguageError: 'de' is not a language of the page: use one of 'en', 'es', 'fr'
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale

__all__ = [
    "LANGUAGES",
    "LanguageError",
    "catalogue",
    "counted",
    "day_said",
    "month_name",
    "month_said",
    "number",
    "percent",
    "plural_form",
    "text",
]

#: The languages a page can be shown in: English, (Latin-American) Spanish and French. This
#: one list drives the catalogues, the lesson notebooks (``lessons/`` and ``lessons/<code>/``),
#: every page's language choice and the tests.
LANGUAGES: tuple[str, ...] = ("en", "es", "fr")


class LanguageError(ValueError):
    """A language the catalogue does not have, or a key it does not know."""


@cache
def _all_strings() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    # The package's own folder: importlib.resources would load tempfile, shutil and the
    # compression modules with the first page's import.
    folder = Path(__file__).resolve().parent / "strings"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        for key, by_language in json.loads(entry.read_text(encoding="utf-8")).items():
            if key in merged:
                raise LanguageError(f"string {key!r} is defined twice (again in {entry.name})")
            merged[key] = by_language
    return merged


def _check(language: str) -> None:
    if language not in LANGUAGES:
        allowed = ", ".join(repr(code) for code in LANGUAGES)
        raise LanguageError(f"{language!r} is not a language of the page: use one of {allowed}")


def catalogue(language: str, prefix: str = "") -> dict[str, str]:
    """Every string (whose key starts with ``prefix``) in one language, for a page to use.
    A key without a text in that language is refused (named), never shown in another one.

    >>> catalogue("fr", "language.")
    {'language.code': 'fr', 'language.name': 'Français'}
    """
    _check(language)
    chosen = {key: by_language for key, by_language in _all_strings().items()
              if key.startswith(prefix)}
    missing = sorted(key for key, by_language in chosen.items() if language not in by_language)
    if missing:
        shown = ", ".join(repr(key) for key in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise LanguageError(f"no text in {language!r} for {len(missing)} key(s): {shown}")
    return {key: by_language[language] for key, by_language in chosen.items()}


def text(key: str, language: str = "en", **values: object) -> str:
    """The text for ``key`` in ``language``, with ``{placeholders}`` filled from ``values``.

    A sentence (a text ending in ``.``, ``!``, ``?`` or ``…``) starts with a capital even when
    it starts with a value filled in: French writes note names in lower case ("mi3"), yet a
    sentence about mi3 begins "Mi3 est sur la 1re ligne."
    """
    _check(language)
    try:
        template = _all_strings()[key][language]
    except KeyError:
        raise LanguageError(f"no text for {key!r} in {language!r}") from None
    if not values:
        return template
    said = template.format(**values)
    if template.startswith("{") and said.rstrip().endswith((".", "!", "?", "…")):
        said = said[:1].upper() + said[1:]
    return said


@cache
def _locale(language: str) -> Locale:
    """The CLDR's data for ``language`` (Babel is imported on first use: a page that counts
    nothing does not pay for it)."""
    from babel import Locale

    _check(language)
    return Locale.parse(language)


def plural_form(count: int, language: str = "en") -> str:
    """The CLDR plural category of ``count`` in ``language``: "one", "many" or "other" for
    the languages here. French says the singular for 0 and 1 ("0 élève", "1 élève"), English
    and Spanish for exactly 1; French and Spanish have a "many" form for a million or more.

    >>> [plural_form(n, "en") for n in (0, 1, 2)], [plural_form(n, "fr") for n in (0, 1, 2)]
    (['other', 'one', 'other'], ['one', 'one', 'other'])
    >>> plural_form(1_000_000, "fr")
    'many'
    """
    return str(_locale(language).plural_form(abs(count)))


def counted(key: str, count: int, language: str = "en", **values: object) -> str:
    """The words for ``count`` of something in the form the language's plural rules choose:
    the text of ``key.<category>`` (see :func:`plural_form`), or of ``key.other`` when the
    catalogue has no text for that category (as ICU message formats do: "other" is the one
    form every plural has), with ``{count}`` filled in.

    >>> counted("teacher.students", 1, "es"), counted("teacher.students", 2, "es")
    ('1 estudiante', '2 estudiantes')
    >>> counted("teacher.answers", 0)
    '0 answers'
    """
    form = plural_form(count, language)
    if form != "other" and language not in _all_strings().get(f"{key}.{form}", {}):
        form = "other"
    return text(f"{key}.{form}", language, count=count, **values)


def number(value: float, language: str = "en", digits: int | None = None) -> str:
    """``value`` written as the language writes numbers (decimal mark, grouping); with
    ``digits``, exactly that many decimals.

    >>> number(1.3, "en", 2), number(1.3, "es", 2), number(1234.5, "fr")
    ('1.30', '1,30', '1\\u202f234,5')
    """
    from babel.numbers import format_decimal

    pattern = None if digits is None else "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(value, pattern, locale=_locale(language)))


def percent(share: float, language: str = "en") -> str:
    """A share (0–1) as a whole percentage, as the language writes it.

    >>> percent(0.25, "en"), percent(0.25, "es"), percent(0.25, "fr")
    ('25%', '25\\xa0%', '25\\xa0%')
    """
    from babel.numbers import format_percent

    return str(format_percent(share, locale=_locale(language)))


def month_name(month: int, language: str = "en", *, short: bool = False) -> str:
    """The name of month 1–12 in ``language`` as it stands in a date ("le 9 septembre");
    ``short``, its abbreviation.

    >>> month_name(9, "es"), month_name(9, "fr"), month_name(1, short=True)
    ('septiembre', 'septembre', 'Jan')
    """
    from babel.dates import get_month_names

    names = get_month_names("abbreviated" if short else "wide", "format", locale=_locale(language))
    return str(names[month])


def month_said(day: date, language: str = "en") -> str:
    """The month and year of ``day``, its month shortened, as the language writes them.

    >>> month_said(date(2026, 3, 7), "en"), month_said(date(2026, 3, 7), "fr")
    ('Mar 2026', 'mars 2026')
    """
    from babel.dates import format_skeleton

    return str(format_skeleton("yMMM", day, locale=_locale(language)))


def day_said(day: date, language: str = "en") -> str:
    """A day as a table of the language writes it, its month shortened.

    >>> day_said(date(2026, 3, 7), "en"), day_said(date(2026, 3, 7), "fr")
    ('7 Mar 2026', '7 mars 2026')
    """
    from babel.dates import format_date

    return str(format_date(day, "d MMM y", locale=_locale(language)))
