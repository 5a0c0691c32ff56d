"""Every key of the string catalogue (``musicgames/strings/*.json``) has its text in English,
Spanish and French, with the same ``{placeholders}``, the same markup and, for counted
words, both forms (``.one`` and ``.other``).

The files are read as they are written, so the check does not depend on which languages the
pages may be shown in yet.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

STRINGS = Path(__file__).resolve().parent.parent / "musicgames" / "strings"
#: The languages every key is written in.
LANGUAGES = ("en", "es", "fr")
FILES = sorted(path.name for path in STRINGS.glob("*.json"))
#: Markup a text may carry, which a translation keeps: markdown bold and italics, keys.
_MARKUP = re.compile(r"\*\*|(?<!\*)\*(?!\*)|`|\n")


def catalogue(name: str) -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((STRINGS / name).read_text(encoding="utf-8"))
    return data


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in ``text``."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def problems(key: str, by_language: dict[str, str]) -> list[str]:
    """What is wrong with one key's texts: a missing language, other placeholders, other
    markup than the English."""
    found = [f"{key}: no {language!r} text" for language in LANGUAGES
             if not isinstance(by_language.get(language), str) or not by_language[language]]
    if found:
        return found
    english = by_language["en"]
    for language in LANGUAGES[1:]:
        text = by_language[language]
        if placeholders(text) != placeholders(english):
            found.append(f"{key} ({language}): placeholders {sorted(placeholders(text))}, "
                         f"English has {sorted(placeholders(english))}")
        if sorted(_MARKUP.findall(text)) != sorted(_MARKUP.findall(english)):
            found.append(f"{key} ({language}): markup differs from the English")
    return found


@pytest.mark.parametrize("name", FILES)
def test_every_key_has_english_spanish_and_french_with_the_same_placeholders(name: str) -> None:
    wrong = [p for key, texts in catalogue(name).items() for p in problems(key, texts)]
    assert wrong == []


@pytest.mark.parametrize("name", FILES)
def test_counted_words_have_both_forms_in_every_language(name: str) -> None:
    """A counted text (one with ``{count}``) ending ``.one`` or ``.other`` has its other
    form too, and both are written in every language."""
    texts = catalogue(name)
    counted = [k for k, by_language in texts.items() if k.endswith((".one", ".other"))
               and "count" in placeholders(by_language["en"])]
    lone = [k for k in counted
            if f"{k.rsplit('.', 1)[0]}.{'other' if k.endswith('.one') else 'one'}" not in texts]
    assert lone == []
    assert [k for k in counted if set(LANGUAGES) - set(texts[k])] == []


def test_the_check_finds_a_missing_french_text_and_a_changed_placeholder() -> None:
    assert problems("k", {"en": "{n} cards", "es": "{n} cartas", "fr": "{n} cartes"}) == []
    assert problems("k", {"en": "{n} cards", "es": "{n} cartas"}) == ["k: no 'fr' text"]
    assert problems("k", {"en": "{n} cards", "es": "{n} cartas", "fr": "{count} cartes"}) == [
        "k (fr): placeholders ['count'], English has ['n']"]
    assert problems("k", {"en": "**Keys**", "es": "**Teclas**", "fr": "Touches"}) == [
        "k (fr): markup differs from the English"]


def one_forms_with_a_written_one(texts: dict[str, dict[str, str]]) -> list[str]:
    """``.one`` texts that write the number 1 where their ``.other`` form says ``{count}``.
    French says the singular for 0 as for 1 ("0 élève, 1 élève, 2 élèves"), so the ``.one``
    form must show the count it is given, never a written 1."""
    return [f"{key} ({language})" for key, by_language in texts.items()
            if key.endswith(".one") and f"{key[:-4]}.other" in texts
            and "count" in placeholders(texts[f"{key[:-4]}.other"]["en"])
            for language, text in by_language.items()
            if re.search(r"\b1\b", re.sub(r"\{\w+\}", " ", text))]


@pytest.mark.parametrize("name", FILES)
def test_the_singular_of_a_counted_word_shows_its_count(name: str) -> None:
    assert one_forms_with_a_written_one(catalogue(name)) == []


def test_the_singular_check_finds_a_written_one() -> None:
    texts = {"k.one": {"en": "You missed 1 match.", "fr": "Tu as manqué {count} correspondance."},
             "k.other": {"en": "You missed {count} matches."}}
    assert one_forms_with_a_written_one(texts) == ["k.one (en)"]
