"""Malformed messages to every widget's handler: each is refused with a reason, nothing is
raised, and the game or drill goes on. Also: progress writes that fail, and hints without a
running event loop."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from musicgames.widgets import (
    ChordTonesQuiz,
    NoteDrill,
    play_keyboard_duel,
    play_note_snap,
)

HUGE = 10**400
BAD_VALUES: list[Any] = [
    [],
    [1, 2],
    {},
    {"type": "start"},
    None,
    HUGE,
    -HUGE,
    math.nan,
    math.inf,
    "x" * 5000,
    True,
    -1,
    2**63,
]
NOT_MESSAGES: list[Any] = [None, [], "start", 42, HUGE, math.nan, [{"type": "start"}]]
BAD_TYPES: list[Any] = [None, [], {}, ["start"], {"start": 1}, HUGE, math.nan, "", "x" * 5000]


def _variants(
    template: dict[str, Any], optional: set[str], valid: set[tuple[str, str]]
) -> Iterator[tuple[str, Any, bool]]:
    """(field, value, must be refused) for every field of a message replaced by each bad
    value, and each field missing (``value`` is ``...``). ``optional`` fields may be None or
    missing; ``valid`` lists (field, repr(value)) pairs that are real messages."""
    for field in template:
        if field == "type":
            continue
        for value in BAD_VALUES:
            allowed = (field in optional and value is None) or (field, repr(value)) in valid
            yield field, value, not allowed
        yield field, ..., field not in optional


def _fuzz(
    widget: Any,
    templates: list[dict[str, Any]],
    optional: set[str],
    valid: set[tuple[str, str]] = frozenset(),  # type: ignore[assignment]
) -> int:
    """Send every malformed variant of every template; return how many were sent."""
    sent = 0
    for content in NOT_MESSAGES:
        before = len(widget.refused)
        widget.receive(content)
        assert len(widget.refused) == before + 1, content
        sent += 1
    for kind in BAD_TYPES:
        before = len(widget.refused)
        widget.receive({"type": kind})
        assert len(widget.refused) == before + 1, kind
        sent += 1
    for template in templates:
        for field, value, refused in _variants(template, optional, valid):
            message = dict(template)
            if value is ...:
                del message[field]
            else:
                message[field] = value
            before = len(widget.refused)
            widget.receive(message)  # never raises
            if refused:
                assert len(widget.refused) == before + 1, (message, widget.refused[-1:])
                kind, why = widget.refused[-1]
                assert why and len(why) < 400  # a reason, never a 5,000-character echo
            sent += 1
    return sent


# -- the note drill and the chord quiz ----------------------------------------------------------


def _answer_drill(drill: NoteDrill) -> None:
    note = drill.current
    assert note is not None
    number = drill.question["number"]
    index = "CDEFGAB".index(note.step)
    drill.receive({"type": "answer", "number": number, "via": "name", "value": index,
                   "response_ms": 700.0})
    assert drill.feedback["correct"] is True
    drill.receive({"type": "next", "number": number})


def test_the_note_drill_refuses_malformed_messages_and_goes_on() -> None:
    drill = NoteDrill(questions=5, seed=2)
    drill.receive({"type": "start"})
    number = drill.question["number"]
    templates = [
        {"type": "answer", "number": number, "via": "name", "value": 1, "response_ms": 800.0},
        {"type": "answer", "number": number, "via": "keyboard", "value": 3, "response_ms": 800},
        {"type": "next", "number": number},
    ]
    asked = drill.current
    assert _fuzz(drill, templates, optional=set()) > 100
    assert drill.current == asked and drill.session.results == []  # nothing changed
    for _ in range(5):
        _answer_drill(drill)
    assert drill.phase == "over" and drill.summary["right"] == 5


def test_the_drill_and_the_quiz_quote_a_refused_value_as_every_refusal_does() -> None:
    """Their refusals quote what they were sent with :func:`musicgames.shown.short_repr`,
    as the games' do: a number too long to write is named by its size."""
    import musicgames.widgets._practice as practice
    from musicgames.shown import short_repr

    assert not hasattr(practice, "shown")  # no second way of quoting a value
    drill, quiz = NoteDrill(questions=2, seed=1), ChordTonesQuiz(mode="name", questions=2, seed=1)
    for widget in (drill, quiz):
        widget.receive({"type": "start"})
        number = widget.question["number"]
        for value in (10**5000, "x" * 5000, [[[[[[1]]]]]]):
            widget.receive({"type": "answer", "number": number, "via": "name", "value": 1,
                            "choice": 0, "response_ms": value})
            assert widget.refused[-1][1].startswith(f"response_ms {short_repr(value)} "), \
                widget.refused[-1]
    drill.receive({"type": "answer", "number": drill.question["number"], "via": 10**5000,
                   "value": 1, "response_ms": 500.0})
    assert short_repr(10**5000) in drill.refused[-1][1]


def test_the_chord_quiz_refuses_malformed_messages_and_goes_on() -> None:
    for mode in ("find", "name"):
        quiz = ChordTonesQuiz(["C major", "D minor"], mode=mode, questions=2, seed=1)
        quiz.receive({"type": "start"})
        number = quiz.question["number"]
        templates = [
            {"type": "answer", "number": number, "keys": [0, 4, 7], "response_ms": 800.0},
            {"type": "answer", "number": number, "choice": 0, "response_ms": 800.0},
            {"type": "next", "number": number},
        ]
        _fuzz(quiz, templates, optional={"keys", "choice"} if mode else set())
        for bad_keys in ([0, 4, HUGE], [0, 4, math.nan], [[0], 4, 7], ["0", "4", "7"], [0] * 10**4):
            before = len(quiz.refused)
            quiz.receive({"type": "answer", "number": number, "keys": bad_keys,
                          "choice": None, "response_ms": 800.0})
            assert len(quiz.refused) == before + 1
        assert quiz.session.results == []
        chord = quiz.current
        assert chord is not None
        if mode == "find":
            keys = sorted({(n.midi - 60) % 12 for n in chord.tones})
            answer: dict[str, Any] = {"keys": keys}
        else:
            answer = {"choice": quiz.choices.index(chord)}
        quiz.receive({"type": "answer", "number": number, "response_ms": 900.0, **answer})
        assert quiz.feedback["correct"] is True


# -- Note Snap ------------------------------------------------------------------------------------


def test_note_snap_refuses_malformed_messages_and_goes_on() -> None:
    game = play_note_snap(people=2, computers=0, seed=3)
    try:
        number = game.game_number
        templates = [
            {"type": "shown", "game": number, "number": 1},
            {"type": "slap", "game": number, "number": 1, "seat": 0, "reaction_ms": 300},
            {"type": "flip", "game": number, "seat": 0, "call": None},
            {"type": "new_game", "settings": {"slap_window_ms": 500}},
            {"type": "display", "language": "es", "naming": "letters"},
        ]
        _fuzz(game, templates, optional={"call", "language", "naming", "settings"},
              valid={("settings", "{}")})
        # (new_game with default settings is a real message: a new game began)
        before = len(game.refused)
        game.receive({"type": "flip", "game": game.game_number, "seat": 0, "call": None})
        assert len(game.refused) == before and game.table["phase"] == "slaps"  # still playing
    finally:
        game.close()


# -- Keyboard Duel --------------------------------------------------------------------------------


def test_keyboard_duel_refuses_malformed_messages_and_goes_on() -> None:
    game = play_keyboard_duel(seed=3, pause=0)
    try:
        templates = [
            {"type": "act", "seq": 1, "action": {"type": "end_turn"}},
            {"type": "act", "action": {"type": "place", "cards": [3, 35], "key": 0}},
            {"type": "new_game", "opponent": "sharp"},
            {"type": "settings", "naming": "letters", "language": "es"},
        ]
        _fuzz(game, templates, optional={"seq", "naming", "language"})
        for action in ({"type": ["place"]}, {"type": "place", "cards": [HUGE], "key": 0},
                       {"type": "place", "cards": [3], "key": math.nan}, [[[]]]):
            before = len(game.refused)
            game.receive({"type": "act", "action": action})
            assert len(game.refused) == before + 1
        game.receive({"type": "settings", "naming": "letters"})
        assert game.refused[-1:] != [("settings", "")]
    finally:
        game.close()


# -- progress writes that fail --------------------------------------------------------------------


class FailingStore:
    """A progress sink whose every write fails as a full disk or a locked file does."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.calls = 0

    def record(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1
        raise self.error


@pytest.mark.parametrize(
    ("error", "english", "spanish"),
    [
        (sqlite3.OperationalError("database or disk is full"), "the disk is full",
         "el disco está lleno"),
        (sqlite3.OperationalError("database is locked"), "busy in another notebook",
         "ocupado en otro cuaderno"),
        (OSError(28, "No space left on device"), "the disk is full", "el disco está lleno"),
    ],
)
def test_the_drill_goes_on_when_progress_cannot_be_written(
    error: Exception, english: str, spanish: str
) -> None:
    for language, words in (("en", english), ("es", spanish)):
        store = FailingStore(error)
        drill = NoteDrill(questions=3, seed=1, progress=store, language=language)
        drill.receive({"type": "start"})
        for _ in range(3):
            _answer_drill(drill)
        assert drill.phase == "over" and store.calls == 3
        assert words in drill.notice
        start = "Progress not saved" if language == "en" else "Progreso no guardado"
        assert drill.notice.startswith(start)
        assert len(drill.progress_errors) == 3  # noted each time, said once


def test_the_quiz_goes_on_when_progress_cannot_be_written() -> None:
    store = FailingStore(sqlite3.OperationalError("database is locked"))
    quiz = ChordTonesQuiz(["C major"], mode="name", questions=1, seed=1, progress=store)
    quiz.receive({"type": "start"})
    chord = quiz.current
    assert chord is not None
    quiz.receive({"type": "answer", "number": 1, "choice": quiz.choices.index(chord),
                  "response_ms": 900.0})
    assert quiz.feedback["correct"] is True and "Progress not saved" in quiz.notice


def test_note_snap_goes_on_when_progress_cannot_be_written() -> None:
    from musicgames.snap import stacked_deal

    do3, re3, mi3, fa3 = 0, 8, 16, 24  # card ids (musicgames.snap.cards)
    for language, start in (("en", "Progress not saved: the disk is full"),
                            ("es", "Progreso no guardado: el disco está lleno")):
        store = FailingStore(sqlite3.OperationalError("database or disk is full"))
        game = play_note_snap(people=1, computers=1, level="expert", seed=4, progress=store,
                              language=language)
        try:
            game.new_game(hands=stacked_deal([[do3, re3], [mi3, fa3]]))
            game.receive({"type": "flip", "game": game.game_number, "seat": 0, "call": None})
            game.receive({"type": "slap", "game": game.game_number, "number": 1, "seat": 0,
                          "reaction_ms": 420.0})
            game.table_loop._close_slaps()
            assert store.calls == 1
            assert game.notice.startswith(start)
            assert game.table["phase"] != "over" or game.state.winners  # the game went on
            assert game.refused == []
        finally:
            game.close()


# -- Note.parse and saved games ---------------------------------------------------------------


def test_note_parse_answers_a_6000_character_string_at_once() -> None:
    import time

    from musicgames.theory import Note, NoteError

    for text in ("Do" + "9" * 5000, "x" * 6000, "Do" + " " * 3000 + "#" * 3000, "Sol" + "♯" * 6000):
        start = time.perf_counter()
        with pytest.raises(NoteError) as caught:
            Note.parse(text)
        assert time.perf_counter() - start < 0.5  # (figures: benchmarks; this catches a hang)
        message = str(caught.value)
        # the message quotes the input's start (cut short by musicgames.shown.short_repr)
        assert message.startswith(repr(text[:32])[:-1]) and len(message) < 400
    assert Note.parse("  Sol3 ") == Note.parse("G4")


def _saved_snap_game() -> dict[str, Any]:
    import json
    import random

    from musicgames.snap import Flip, new_game

    state = new_game(random.Random(1))
    state.apply(Flip(0, None))
    return dict(json.loads(state.to_json()))


def _numbers(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _numbers(value, (*path, index))
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield path


def test_a_saved_snap_game_with_huge_numbers_is_a_clear_save_error() -> None:
    import copy
    import json

    from musicgames.snap import SnapState
    from musicgames.snap.errors import SaveError

    saved = _saved_snap_game()
    paths = list(_numbers(saved))
    assert len(paths) > 50
    for path in paths:
        for huge in (HUGE, -HUGE):
            data = copy.deepcopy(saved)
            where = data
            for key in path[:-1]:
                where = where[key]
            where[path[-1]] = huge
            for form in (data, json.dumps(data)):
                with pytest.raises(SaveError, match="saved game"):
                    SnapState.from_json(form)


# -- Keyboard Duel hints and the event loop -----------------------------------------------------


def _unretrieved(loop_errors: list[dict[str, Any]]) -> list[str]:
    messages = [str(e.get("message")) for e in loop_errors]
    return [m for m in messages if "never retrieved" in m]


def test_a_hint_without_a_running_event_loop_is_worked_out_at_once() -> None:
    game = play_keyboard_duel("casual", seed=4, pause=0.0)
    try:
        state = game.state
        assert state is not None
        game.receive({"type": "hint", "seq": 1})  # no event loop runs here
        assert game.table["hint"] is not None
        assert not [r for r in game.refused if r[0] == "hint"]
    finally:
        game.close()


def test_a_hint_that_finishes_after_the_turn_ended_leaves_no_task_exception() -> None:
    import asyncio
    import gc

    from musicgames.duel import DuelError
    from musicgames.widgets.keyboard_duel.messages import MessageError

    errors: list[dict[str, Any]] = []

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, ctx: errors.append(ctx))
        game = play_keyboard_duel("casual", seed=4, pause=0.0)
        real_choose = game._choose

        def slow_then_fail(player: Any, view: Any) -> Any:
            import time

            time.sleep(0.05)  # the person acts meanwhile
            raise DuelError("the position changed under the hint")

        game._choose = slow_then_fail  # type: ignore[method-assign]
        game.receive({"type": "hint"})
        state = game.state
        assert state is not None
        game._choose = real_choose  # type: ignore[method-assign]
        action = state.legal_actions()[0]
        game.receive({"type": "act", "action": action.to_json()})  # the turn goes on without it
        await game.settle()
        assert game.table["hint"] is None
        assert not [r for r in game.refused if r[0] == "task"]

        # A hint whose work fails while its turn still stands is refused, not lost.
        def fails(player: Any, view: Any) -> Any:
            raise MessageError("no hint")

        await game.settle()
        if game.state is not None and game.state.seat_to_act == 0:
            game._choose = fails  # type: ignore[method-assign]
            game.receive({"type": "hint"})
            await game.settle()
            assert game.refused[-1] == ("hint", "no hint")
        game.close()
        await asyncio.sleep(0)

    asyncio.run(scenario())
    gc.collect()
    assert _unretrieved(errors) == []


def test_a_drill_whose_progress_file_stays_locked_goes_on(tmp_path: Any) -> None:
    import time

    from musicgames.progress import ProgressStore

    path = tmp_path / "ana.sqlite3"
    with ProgressStore(path, student="Ana", timeout=0.2) as store:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # another notebook holds the file
        try:
            drill = NoteDrill(questions=2, seed=1, progress=store, language="es")
            drill.receive({"type": "start"})
            started = time.perf_counter()
            _answer_drill(drill)
            assert time.perf_counter() - started < 5
            assert drill.notice.startswith("Progreso no guardado: el archivo de progreso está")
        finally:
            other.execute("ROLLBACK")
            other.close()
        _answer_drill(drill)  # the file is free again: this answer is kept
        assert drill.phase == "over" and len(store) == 1


def test_every_widget_refuses_a_message_with_the_one_message_error() -> None:
    """One class for a page's unusable message, whichever widget refuses it (not one each)."""
    from musicgames.widgets import _practice, chord_quiz, note_drill
    from musicgames.widgets._messages import MessageError
    from musicgames.widgets.keyboard_duel import messages as duel_messages
    from musicgames.widgets.note_snap import messages as snap_messages

    for module in (_practice, chord_quiz, note_drill, duel_messages, snap_messages):
        assert getattr(module, "MessageError", MessageError) is MessageError, module.__name__
    package = Path(__file__).resolve().parents[1] / "musicgames"
    defined = [p for p in package.rglob("*.py") if "class MessageError" in p.read_text("utf-8")]
    assert [p.name for p in defined] == ["_messages.py"]


def test_a_note_snap_table_that_failed_to_start_still_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game that could not be set up (here its run loop) leaves a widget that Python
    closes as it frees it: closing must not raise a second error over the first."""
    from musicgames.widgets.note_snap import widget as snap_widget

    def no_table(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no table today")

    monkeypatch.setattr(snap_widget, "Table", no_table)
    table = snap_widget.NoteSnapWidget.__new__(snap_widget.NoteSnapWidget)
    with pytest.raises(RuntimeError, match="no table today"):
        table.__init__()  # type: ignore[misc]
    assert table.comm is not None  # the widget was made, and is open
    table.close()
    assert table.comm is None  # closed: the page is told, nothing left open
