"""One home per Note Snap rule: the engine computes it, everything else asks the engine.

Each test would fail if a second copy of the rule came back where one could: the lessons,
the table (the widget's Python and its page's JavaScript) and the simulation."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from collections import Counter
from pathlib import Path

import pytest

import musicgames.widgets.note_snap as widget_module
from musicgames.cards import pages
from musicgames.i18n import LANGUAGES
from musicgames.lessons.lesson import Lesson
from musicgames.snap import CALL_CYCLE, SnapConfig, guide_card, is_match, next_call
from musicgames.snap.config import (
    DEFAULT_FLIP_PAUSE_MS,
    DEFAULT_SLAP_WINDOW_MS,
    DEFAULT_TIE_WINDOW_MS,
)
from musicgames.snap.state import SnapState
from musicgames.snap.table import Table
from musicgames.theory import CARD_NOTES, Note
from musicgames.widgets.note_snap import (
    SHARED_KEYS,
    SOLO_KEY,
    SnapSettings,
    default_keys,
    play_note_snap,
)

simulate_module = importlib.import_module("musicgames.snap.simulate")
faces = importlib.import_module("musicgames.cards.faces")
widget_home = importlib.import_module("musicgames.widgets.note_snap.widget")
#: The page's own JavaScript (the view's class comes in three files) and the widget's Python
#: (a package: every module of it).
WIDGET = Path(widget_module.__file__).parent
PAGE = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WIDGET.glob("*.js")))
WIDGET_SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WIDGET.glob("*.py")))


def _code(text: str) -> str:
    """JavaScript without its comments."""
    return re.sub(r"//[^\n]*", "", text)


# -- S2: the guide card ---------------------------------------------------------------------


def _printed_guide_labels(naming: str, language: str) -> list[str]:
    """The names under the notes of the printed guide card (drawn once, used twice)."""
    page = pages("snap", naming=naming, language=language)[-1]
    return re.findall(r">([^<>\s]+\d)</tspan>", page)


def _table_guide_labels(naming: str, language: str) -> list[str]:
    widget = play_note_snap(people=1, computers=1, seed=1, naming=naming, language=language)
    try:
        return [label for row in widget.guide["rows"] for label in row["labels"]]
    finally:
        widget.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("naming", ["solfege", "letters"])
def test_s2_the_table_and_the_printed_card_show_the_engines_guide_card(
    naming: str, language: str
) -> None:
    named = [label for _, label in guide_card(naming, language)]
    assert len(named) == 15 and ("ré3" in named) == (naming == "solfege" and language == "fr")
    assert _table_guide_labels(naming, language) == named
    assert Counter(_printed_guide_labels(naming, language)) == Counter(
        {label: 2 for label in named})  # two cards on the page


def test_s2_the_table_and_the_printed_card_ask_guide_card_and_lay_out_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given another guide card, both show it: neither names the notes itself."""

    def other(naming: str = "solfege", language: str = "en") -> tuple[tuple[Note, str], ...]:
        return tuple((note, f"x{number}") for number, (note, _) in
                     enumerate(guide_card(naming, language)))

    monkeypatch.setattr(widget_home, "guide_card", other)
    monkeypatch.setattr(faces, "guide_card_notes", other)
    for language in LANGUAGES:
        wanted = [f"x{number}" for number in range(15)]
        assert _table_guide_labels("solfege", language) == wanted
        assert sorted(set(_printed_guide_labels("solfege", language))) == sorted(wanted)


# -- S5: the name called next ---------------------------------------------------------------


def test_s5_the_lessons_and_the_engine_call_the_next_name_as_the_rule_says() -> None:
    exercise = Lesson(record=False).call_cycle(list(CALL_CYCLE))
    for call, question in zip(CALL_CYCLE, exercise.questions, strict=True):
        assert question.options[question.answer] == next_call(call), call
    assert "next_call(" in inspect.getsource(Lesson.call_cycle)
    assert "% 7" not in inspect.getsource(Lesson.call_cycle)
    state_source = inspect.getsource(importlib.import_module("musicgames.snap.state"))
    assert "% _CYCLE_LENGTH" not in state_source and "next_call(" in state_source


# -- S6: is it a match ----------------------------------------------------------------------


def test_s6_the_lessons_judge_a_match_as_the_game_does() -> None:
    pairs = [(call, note.solfege) for call in CALL_CYCLE for note in CARD_NOTES]
    exercise = Lesson(record=False).match_or_not(pairs)
    for (call, note), question in zip(pairs, exercise.questions, strict=True):
        card = next(n for n in CARD_NOTES if n.solfege == note)
        assert (question.answer == 0) == is_match(card, call), (call, note)
    source = inspect.getsource(Lesson.match_or_not)
    assert "is_match(" in source and ".step ==" not in source


def test_s6_the_page_reads_the_match_it_is_sent_and_judges_none() -> None:
    code = _code(PAGE)
    assert "card.match" in code
    # no comparison of a card's name or note with a call, and no copy of the call cycle's
    # names used to judge one
    assert not re.search(r"(note|name|syllable)\w*\s*[!=]==?\s*[\w.]*call", code)
    assert not re.search(r"call\w*\s*[!=]==?\s*[\w.]*(note|name|syllable)", code)
    assert ".syllable ==" not in WIDGET_SOURCE and "CARD_NAMES" not in WIDGET_SOURCE


# -- S14 v2: the window's early close ---------------------------------------------------------


def test_s14_the_page_does_not_decide_when_the_window_closes_early() -> None:
    code = _code(PAGE)
    assert "checkAllDecided" not in code
    assert not re.search(r"seats\w*\s*\.\s*every\s*\(", code)


def test_s14_the_table_the_simulation_and_the_engine_ask_the_one_early_close() -> None:
    assert "early_close_ms(" in inspect.getsource(Table._close_early_if_all_decided)
    assert "closes_early(" in inspect.getsource(simulate_module.play_game)
    state_source = inspect.getsource(SnapState)
    assert state_source.count("closes_early(") == 2  # after a slap, after a pass
    assert "(1 << self._n) - 1" not in state_source
    # the widget runs its table with that loop, and has no early close of its own
    assert "Table(" in WIDGET_SOURCE and "early_close" not in WIDGET_SOURCE
    assert "len(card.computer_slaps) + len(card.computer_passes)" not in WIDGET_SOURCE


# -- pace and windows: the settings' defaults and checks ------------------------------------


def test_the_table_takes_its_time_settings_defaults_from_the_engine() -> None:
    engine = SnapConfig()
    table = SnapSettings()
    assert (table.pace_ms, table.slap_window_ms, table.tie_window_ms) == (
        engine.flip_pause_ms, engine.slap_window_ms, engine.tie_window_ms)
    assert (engine.flip_pause_ms, engine.slap_window_ms, engine.tie_window_ms) == (
        DEFAULT_FLIP_PAUSE_MS, DEFAULT_SLAP_WINDOW_MS, DEFAULT_TIE_WINDOW_MS)
    defaults = inspect.signature(play_note_snap).parameters
    assert defaults["pace_ms"].default == engine.flip_pause_ms
    assert defaults["slap_window_ms"].default == engine.slap_window_ms
    assert defaults["tie_window_ms"].default == engine.tie_window_ms
    fields = {f.name: f.default for f in dataclasses.fields(SnapSettings)}
    assert fields["slap_window_ms"] == engine.slap_window_ms
    assert not re.search(r"\b(2500|800|10)\.0\b", WIDGET_SOURCE), "a time default copied by hand"


@pytest.mark.parametrize(
    ("changes", "engine"),
    [({"pace_ms": float("nan")}, {"flip_pause_ms": float("nan")}),
     ({"slap_window_ms": -1}, {"slap_window_ms": -1}),
     ({"tie_window_ms": True}, {"tie_window_ms": True}),
     ({"slap_window_ms": 5, "tie_window_ms": 10}, {"slap_window_ms": 5, "tie_window_ms": 10})],
)
def test_the_table_refuses_a_time_setting_exactly_when_the_engine_does(
    changes: dict[str, object], engine: dict[str, object]
) -> None:
    with pytest.raises(ValueError):
        SnapConfig(**engine)  # type: ignore[arg-type]
    with pytest.raises(widget_module.SettingsError):
        SnapSettings(**changes)  # type: ignore[arg-type]
    source = inspect.getsource(SnapSettings)
    assert "isfinite" not in source.split("def __post_init__")[1].split("minutes")[0]


# -- the default slap keys -------------------------------------------------------------------


def test_the_default_slap_keys_are_one_python_constant_the_page_is_sent() -> None:
    assert default_keys(1) == (SOLO_KEY,) and default_keys(4) == SHARED_KEYS
    code = _code(PAGE)
    for key in SHARED_KEYS:
        assert f'"{key}"' not in code and f"'{key}'" not in code, key
    assert "default_keys" in code
    widget = play_note_snap(people=1, computers=1, seed=1)
    try:
        sent = widget.options["default_keys"]
        assert sent == {str(n): list(default_keys(n)) for n in range(1, 5)}
        assert widget.settings.keys() == (SOLO_KEY, "")
    finally:
        widget.close()
