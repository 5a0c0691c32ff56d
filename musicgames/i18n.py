"""One catalogue of the words the widgets show, in English and Spanish.

The strings live in JSON files in ``musicgames/strings/`` (one file per part of the project,
each mapping a key to its text per language); :func:`text` looks a key up.

>>> text("language.name", "es")
'Español'
>>> text("language.name", "fr")
Traceback (most recent call last):
...
musicgames.i18n.LanguageError: 'fr' is not a language of the page: use one of 'en', 'es'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

__all__ = ["LANGUAGES", "LanguageError", "catalogue", "counted", "month_name", "text"]

#: The languages a page can be shown in.
LANGUAGES: tuple[str, ...] = ("en", "es")


class LanguageError(ValueError):
    """A language the catalogue does not have, or a key it does not know."""


@cache
def _all_strings() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    folder = resources.files("musicgames") / "strings"
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

    >>> catalogue("en", "language.")
    {'language.name': 'English'}
    """
    _check(language)
    return {
        key: by_language[language]
        for key, by_language in _all_strings().items()
        if key.startswith(prefix)
    }


def text(key: str, language: str = "en", **values: object) -> str:
    """The text for ``key`` in ``language``, with ``{placeholders}`` filled from ``values``."""
    _check(language)
    try:
        template = _all_strings()[key][language]
    except KeyError:
        raise LanguageError(f"no text for {key!r} in {language!r}") from None
    return template.format(**values) if values else template


def counted(key: str, count: int, language: str = "en", **values: object) -> str:
    """The words for ``count`` of something, singular or plural: the text of ``key.one``
    when ``count`` is 1 and of ``key.other`` otherwise (English and Spanish both say the
    singular for exactly one: "1 student", "0 students"; "1 estudiante", "2 estudiantes"),
    with ``{count}`` filled in.

    >>> counted("teacher.students", 1, "es"), counted("teacher.students", 2, "es")
    ('1 estudiante', '2 estudiantes')
    >>> counted("teacher.answers", 0)
    '0 answers'
    """
    form = "one" if count == 1 else "other"
    return text(f"{key}.{form}", language, count=count, **values)


def month_name(month: int, language: str = "en", *, short: bool = False) -> str:
    """The name of month 1–12 in ``language``; ``short``, its first three letters, as
    English and Spanish both shorten it (the days chart and a report's dates).

    >>> month_name(9, "es"), month_name(9, "es", short=True), month_name(1, short=True)
    ('septiembre', 'sep', 'Jan')
    """
    name = text("months", language).split()[month - 1]
    return name[:3] if short else name
