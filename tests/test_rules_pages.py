"""The rules pages (``docs/rules/``) state every rule S1–S17 and D1–D16 in each language, and
the game's own rules texts agree with them.

The in-game texts that state rules — Note Snap's *How to play* (``snap.help.body``),
Keyboard Duel's Rules panel (``duel.rules.*``) and its printed rules page (the paragraphs of
``cards.faces.RULES_SECTIONS``) — cite the rules they state by number, as a refused move
does. Each citation must name a rule the pages state, the same rules in every language, and
every number such a text states must appear in the pages' sections for the rules it cites
(a panel saying "up to 7" where the rule says "at most 6" fails).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from musicgames.cards.faces import RULES_SECTIONS
from musicgames.widgets.keyboard_duel.table import RULES_KEYS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
#: The languages the pages and the catalogue are written in.
LANGUAGES = ("en", "es", "fr")
#: Each game's page, the letter of its rules and how many there are.
GAMES = {"note-snap": ("S", 17), "keyboard-duel": ("D", 16)}
#: The lettered parts of a rule (D11a–D11f), each stated on its own line of the rule.
PARTS = {"D11": "abcdef"}
#: Paragraphs of the Rules panel about the page's controls, not about the game: they need
#: cite no rule.
CONTROLS = {"duel.rules.keys"}

_HEADING = re.compile(r"^### ([SD]\d+) \S", re.M)
_ANY_HEADING = re.compile(r"^#{1,3} ", re.M)
_RULE = re.compile(r"\b([SD]\d{1,2})([a-f]?)\b")
_NUMBER = re.compile(r"\d+")


def page(game: str, language: str) -> Path:
    return DOCS / f"{game}.md" if language == "en" else DOCS / language / f"{game}.md"


@cache
def sections(game: str, language: str) -> dict[str, str]:
    """Each rule's section of a page, by rule number, in the page's order."""
    text = page(game, language).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for match in _HEADING.finditer(text):
        rest = text[match.end():]
        end = _ANY_HEADING.search(rest)
        body = match.group(0) + rest[: end.start() if end else len(rest)]
        assert match.group(1) not in found, f"{match.group(1)} twice in {page(game, language)}"
        found[match.group(1)] = body
    return found


@cache
def _catalogue() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for path in sorted((ROOT / "musicgames" / "strings").glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def rule_texts() -> list[str]:
    """Every catalogue text that states rules: each paragraph of the Rules panel and of the
    printed rules page, and Note Snap's *How to play*, one ``key#paragraph`` each."""
    keys = [k for k in RULES_KEYS if not k.endswith(".head") and k not in CONTROLS]
    keys += [k for _, paragraphs in RULES_SECTIONS for k in paragraphs if k not in keys]
    paragraphs = _catalogue()["snap.help.body"]["en"].split("\n\n")
    return keys + [f"snap.help.body#{n}" for n in range(len(paragraphs))]


def statement(name: str, language: str) -> str:
    key, _, paragraph = name.partition("#")
    text = _catalogue()[key][language]
    return text.split("\n\n")[int(paragraph)] if paragraph else text


def cited(text: str) -> set[str]:
    """The rules ``text`` cites: ``{'D11', 'D11a'}`` for "… (D11, D11a)"."""
    return {number + part for number, part in _RULE.findall(text)}


def _game_of(rule: str) -> str:
    return "note-snap" if rule.startswith("S") else "keyboard-duel"


def rule_section(rule: str, language: str) -> str:
    """The section of the pages stating ``rule`` (a lettered part: its rule's section)."""
    number = _RULE.fullmatch(rule)
    assert number is not None, rule
    return sections(_game_of(rule), language).get(number.group(1), "")


def unsupported_numbers(text: str, language: str) -> list[str]:
    """The numbers ``text`` states that no section of the rules it cites states."""
    rules = cited(text)
    plain = _RULE.sub(" ", text)
    stated = set(_NUMBER.findall(" ".join(_RULE.sub(" ", rule_section(rule, language))
                                          for rule in rules)))
    return [n for n in _NUMBER.findall(plain) if n not in stated]


def _numbers(rule_text: str) -> set[str]:
    return set(_NUMBER.findall(_RULE.sub(" ", rule_text)))


# -- the pages -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_has_a_section_on_the_page_in_each_language(game: str, language: str) -> None:
    letter, count = GAMES[game]
    found = sections(game, language)
    assert list(found) == [f"{letter}{n}" for n in range(1, count + 1)]
    short = [rule for rule, body in found.items() if len(body.split()) < 15]
    assert short == [], f"{page(game, language)}: sections with no rule stated: {short}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_lettered_part_of_a_rule_is_stated_on_its_own_line(language: str) -> None:
    for rule, parts in PARTS.items():
        body = rule_section(rule, language)
        for part in parts:
            assert re.search(rf"^- \*\*{rule}{part}\*\* \S", body, re.M), (language, rule, part)


@pytest.mark.parametrize("language", LANGUAGES[1:])
@pytest.mark.parametrize("game", GAMES)
def test_a_rule_states_the_same_numbers_in_every_language(game: str, language: str) -> None:
    english, other = sections(game, "en"), sections(game, language)
    differ = {rule: (sorted(_numbers(english[rule])), sorted(_numbers(other.get(rule, ""))))
              for rule in english if _numbers(english[rule]) != _numbers(other.get(rule, ""))}
    assert differ == {}


@pytest.mark.parametrize("game", GAMES)
def test_the_pages_link_to_each_other_and_the_readme_links_them(game: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(docs/rules/{game}.md)" in readme
    english = page(game, "en").read_text(encoding="utf-8")
    for language in LANGUAGES[1:]:
        assert f"({language}/{game}.md)" in english
        translated = page(game, language).read_text(encoding="utf-8")
        assert f"(../{game}.md)" in translated


# -- the game's rules texts ----------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", rule_texts())
def test_a_rules_text_cites_rules_that_the_pages_state(name: str, language: str) -> None:
    text = statement(name, language)
    rules = cited(text)
    assert rules, f"{name} ({language}) cites no rule: {text}"
    for rule in rules:
        assert rule_section(rule, language), f"{name} cites {rule}, which no page states"
        match = _RULE.fullmatch(rule)
        assert match is not None
        number, part = match.groups()
        if part:
            assert part in PARTS.get(number, ""), f"{name} cites {rule}: no such part"


@pytest.mark.parametrize("name", rule_texts())
def test_a_rules_text_cites_the_same_rules_in_every_language(name: str) -> None:
    assert {language: cited(statement(name, language)) for language in LANGUAGES} == {
        language: cited(statement(name, "en")) for language in LANGUAGES}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", rule_texts())
def test_the_numbers_a_rules_text_states_are_in_the_rules_it_cites(name: str,
                                                                    language: str) -> None:
    assert unsupported_numbers(statement(name, language), language) == []


def test_the_numbers_check_finds_a_text_that_disagrees_with_its_rule() -> None:
    assert unsupported_numbers("A token's power is the number of cards (up to 6) (D8).",
                               "en") == []
    assert unsupported_numbers("A token's power is the number of cards (up to 7) (D8).",
                               "en") == ["7"]
    assert unsupported_numbers("The slap window closes after 4 s (S8).", "en") == ["4"]


def test_the_panel_and_the_printed_page_cite_the_same_rules() -> None:
    """The screen's Rules panel and the paper rules page state the same rules, and where
    both say one step of the game (a turn, Place, Move, Amplify, scoring) in their own words
    (clicks on screen, cards on paper), they cite the same rules for it."""
    def union(keys: list[str]) -> set[str]:
        return set().union(*(cited(statement(k, "en")) for k in keys))

    panel = [k for k in RULES_KEYS if not k.endswith(".head") and k not in CONTROLS]
    paper = [k for _, paragraphs in RULES_SECTIONS for k in paragraphs]
    assert union(panel) == union(paper)
    for step in ("turn", "place", "move", "amplify", "score"):
        assert cited(statement(f"duel.rules.{step}", "en")) == cited(
            statement(f"cards.rules.{step}", "en")), step
    rules = {f"D{n}" for n in range(1, 16)}  # D16 (hidden cards) is the computer's concern
    assert {rule.rstrip("abcdef") for rule in union(panel)} == rules
