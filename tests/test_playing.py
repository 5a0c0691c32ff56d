"""Answering by playing (issue 22): the kernel's side of a note played on a MIDI keyboard or
heard by the microphone, in the note drill, the chord quiz and the lessons' exercises, and
the student's "answer with" settings.

The page only reports the MIDI number played and where it came from; everything judged here
is the kernel's. What the page does with MIDI bytes, the pedal and a hot-plugged keyboard is
checked in ``tests/browser/test_playing_browser.py``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from musicgames.i18n import LANGUAGES, text
from musicgames.lessons import Lesson
from musicgames.lessons.exercises import Exercise, Question
from musicgames.progress import ProgressStore
from musicgames.theory import Note, triad
from musicgames.widgets import ChordTonesQuiz, NoteDrill
from musicgames.widgets._playing import (
    INSTRUMENTS,
    SETTINGS_KEY,
    Playing,
    heard_names,
    remembered_playing,
)
from musicgames.widgets.answer_input import AnswerInput
from musicgames.widgets.chord_quiz import is_chord


class Rows:
    """A progress sink that keeps the answers it is given."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def record(self, activity: str, item: str, answer: str, correct: bool | None,
               response_ms: float | None = None) -> None:
        self.rows.append((activity, item, answer, correct, response_ms))


def started(notes: list[str], **options: Any) -> NoteDrill:
    drill = NoteDrill(notes, questions=1, seed=1, **options)
    drill.receive({"type": "start"})
    return drill


def play(widget: Any, midi: int, source: str = "midi", **more: Any) -> None:
    widget.receive({"type": "answer", "number": widget.question["number"], "via": "played",
                    "midi": midi, "source": source, "response_ms": 700.0, **more})


def click_key(drill: NoteDrill, key: int) -> None:
    drill.receive({"type": "answer", "number": drill.question["number"], "via": "keyboard",
                   "value": key, "response_ms": 700.0})


# -- the note drill -------------------------------------------------------------------------


@pytest.mark.parametrize("midi", [67, 65, 71, 60])  # Sol3 right; Fa3, Si3, Do3 wrong
def test_a_played_note_is_judged_exactly_as_a_click_on_that_key(midi: int) -> None:
    """Issue 22: 'a played note answers exactly as a click on that key does' — the same
    verdict, name, stored answer and explanation (a wrong note explained as a wrong click
    is), and the keyboard shows the key played."""
    clicked_rows, played_rows = Rows(), Rows()
    clicked = started(["Sol3"], progress=clicked_rows)
    played = started(["Sol3"], progress=played_rows)
    click_key(clicked, midi - 60)  # the drill's keyboard starts on Do3 (MIDI 60)
    play(played, midi)
    for field in ("correct", "given", "given_key", "answer", "explain", "key"):
        assert played.feedback[field] == clicked.feedback[field], field
    assert played.feedback["given_key"] == midi - 60
    assert [r[:4] for r in played_rows.rows] == [r[:4] for r in clicked_rows.rows]
    assert played.feedback["correct"] is (midi == 67)
    assert played.refused == []


def test_a_note_played_off_the_keyboard_on_the_page_is_judged_and_named() -> None:
    drill = started(["Sol3"])  # its keyboard: Do3 to Si3
    play(drill, 72)
    assert drill.feedback["correct"] is False and drill.feedback["given"] == "Do4"
    assert drill.feedback["given_key"] is None and drill.refused == []


def test_midi_60_is_do3() -> None:
    """Issue 22: MIDI 60 = Do3 (Franco-Belgian), as the drill names it."""
    drill = started(["Do3"])
    play(drill, 60)
    assert drill.feedback["correct"] and drill.feedback["given"] == "Do3"


def test_a_wrong_played_note_is_explained_by_where_it_sits() -> None:
    drill = started(["La3"])
    play(drill, 67)  # Sol3
    feedback = drill.feedback
    assert not feedback["correct"] and feedback["given"] == "Sol3"
    assert "2nd line" in feedback["explain"] and "La3" in feedback["explain"]


def test_any_octave_counts_the_name_in_every_octave_and_shows_it_near_the_note() -> None:
    """Issue 22: an 'any octave' option for small keyboards — off by default for a MIDI
    keyboard, on by default for the microphone."""
    drill = started(["Sol3"])
    play(drill, 79)  # Sol4, an octave up
    assert drill.feedback["correct"] is False
    drill = started(["Sol3"])
    drill.receive({"type": "input", "settings": {"any_octave_midi": True}})
    play(drill, 43)  # Sol1, on a small keyboard
    assert drill.feedback["correct"] is True
    assert drill.feedback["given"] == "Sol3" and drill.feedback["given_key"] == 7
    drill = started(["Sol3"])
    play(drill, 79, source="microphone")  # a voice an octave up
    assert drill.feedback["correct"] is True
    drill = started(["Sol3"])
    drill.receive({"type": "input", "settings": {"any_octave_microphone": False}})
    play(drill, 79, source="microphone")
    assert drill.feedback["correct"] is False


@pytest.mark.parametrize(
    ("instrument", "sounding"),
    # A player reading Do3 (C4) on each instrument sounds: in C Do3, a B♭ clarinet or
    # trumpet Si♭2, an E♭ alto saxophone Mi♭2, an F horn Fa2 (music21's transposition).
    [("C", "C4"), ("Bb", "B-3"), ("Eb", "E-3"), ("F", "F3")],
)
def test_the_microphone_takes_a_transposing_instrument_back_to_the_written_note(
    instrument: str, sounding: str
) -> None:
    """Issue 22: 'a clarinettist reading Do3 plays the written note': the sounding pitch
    heard is transposed back. The intervals are music21's (the instruments' transposition)."""
    from music21 import instrument as instruments
    from music21.pitch import Pitch

    made = {"Bb": instruments.Clarinet, "Eb": instruments.AltoSaxophone,
            "F": instruments.Horn}.get(instrument)
    if made is not None:
        interval = made().transposition
        assert Pitch("C4").transpose(interval).midi == Pitch(sounding).midi
    heard = Pitch(sounding).midi
    drill = started(["Do3"])
    drill.receive({"type": "input", "settings": {"instrument": instrument,
                                                 "any_octave_microphone": False}})
    play(drill, heard, source="microphone")
    assert drill.feedback["correct"] is True and drill.feedback["given"] == "Do3"
    assert INSTRUMENTS[instrument] == heard - 60


def test_a_midi_keyboard_is_never_transposed() -> None:
    drill = started(["Do3"])
    drill.receive({"type": "input", "settings": {"instrument": "Bb"}})
    play(drill, 58)  # Si♭2 on a MIDI keyboard is Si♭2
    assert drill.feedback["correct"] is False


def test_the_heard_names_are_the_written_notes_of_the_instrument() -> None:
    assert heard_names(Playing(), "solfege", "en")[69] == "La3"
    assert heard_names(Playing(instrument="Eb"), "solfege", "es")[51] == "Do3"
    drill = NoteDrill(["Do3"])
    assert drill.heard == []  # named only once the microphone is chosen
    drill.receive({"type": "input", "settings": {"input": "microphone", "instrument": "F"}})
    assert drill.heard[53] == "Do3"


@pytest.mark.parametrize(
    "message",
    [
        {"midi": 128, "source": "midi"},
        {"midi": -1, "source": "midi"},
        {"midi": True, "source": "midi"},
        {"midi": 60.0, "source": "midi"},
        {"midi": 60, "source": "bluetooth"},
        {"midi": 60},
    ],
)
def test_a_played_note_that_cannot_be_used_changes_nothing(message: dict[str, Any]) -> None:
    drill = started(["Do3"])
    before = (dict(drill.feedback), list(drill.session.results))
    drill.receive({"type": "answer", "number": 1, "via": "played", "response_ms": 500,
                   **message})
    assert (dict(drill.feedback), list(drill.session.results)) == before
    assert drill.refused and drill.refused[-1][0] == "answer"


# -- the chord quiz -----------------------------------------------------------------------


def find_quiz(chord: str = "D major") -> ChordTonesQuiz:
    quiz = ChordTonesQuiz([chord], mode="find", questions=1, seed=1)
    quiz.receive({"type": "start"})
    return quiz


@pytest.mark.parametrize("midis", [[62, 66, 69], [50, 78, 57], [69, 62, 66], [74, 42, 81]])
def test_a_chord_played_in_any_octave_and_voicing_is_right(midis: list[int]) -> None:
    """Issue 22: 'a chord is answered when its three tones sound together (any octave,
    any voicing)': the kernel judges the pitch classes, as it judges three clicked keys."""
    quiz = find_quiz()
    play(quiz, 0, midis=midis)
    assert quiz.feedback["correct"] is True, quiz.refused
    assert quiz.feedback["wrong_keys"] == []


def test_a_wrong_played_chord_is_explained_as_wrong_keys_are() -> None:
    clicked, played = find_quiz(), find_quiz()
    clicked.receive({"type": "answer", "number": 1, "keys": [2, 5, 9], "response_ms": 900})
    play(played, 0, midis=[62, 65, 69])  # Re Fa La: Re minor
    for field in ("correct", "given", "wrong_keys", "explain", "keys"):
        assert played.feedback[field] == clicked.feedback[field], field
    assert played.feedback["correct"] is False and "half step" in played.feedback["explain"]


def test_a_chord_is_one_set_of_pitch_classes_wherever_it_is_asked() -> None:
    """One home: a click and a played chord are judged by the same function, built on the
    triad's own pitch classes (music21)."""
    d = triad("D")
    assert is_chord(d, [62, 66, 69]) and is_chord(d, [38, 54, 93])
    assert not is_chord(d, [62, 66, 68]) and not is_chord(d, [62, 66, 74])
    from music21.chord import Chord

    made = Chord([n.to_music21() for n in d.tones])
    assert set(d.pitch_classes) == {p.pitchClass for p in made.pitches}


def test_a_chord_heard_by_the_microphone_is_transposed_back() -> None:
    quiz = find_quiz("C major")
    quiz.receive({"type": "input", "settings": {"instrument": "Bb"}})
    play(quiz, 0, source="microphone", midis=[58, 62, 65])  # a clarinet reads Do Mi Sol
    assert quiz.feedback["correct"] is True


@pytest.mark.parametrize("midis", [[62, 66], [62, 66, 69, 74], "62 66 69", [62, 66, 128]])
def test_a_played_chord_that_cannot_be_used_changes_nothing(midis: Any) -> None:
    quiz = find_quiz()
    play(quiz, 0, midis=midis)
    assert quiz.feedback == {} and quiz.session.results == []
    assert quiz.refused


# -- the student's settings ---------------------------------------------------------------


def test_click_is_the_default_and_the_settings_are_sent_to_the_page() -> None:
    drill = NoteDrill()
    assert drill.playing["input"] == "click"
    assert drill.playing["a4"] == 440.0 and drill.playing["instrument"] == "C"
    assert drill.playing["inputs"] == ["click", "midi", "microphone"]


def test_the_settings_are_remembered_in_the_students_progress_file(tmp_path: Path) -> None:
    """Issue 22: 'remembered per student' — kept in the student's progress file, so the
    next widget, and the next session with the same file, start as the student left it."""
    path = tmp_path / "ana.sqlite"
    store = ProgressStore(path, student="Ana")
    drill = NoteDrill(progress=store)
    drill.receive({"type": "input", "settings": {"input": "microphone", "instrument": "Eb",
                                                 "a4": 442}})
    quiz = ChordTonesQuiz(progress=store)
    assert quiz.playing["input"] == "microphone" and quiz.playing["instrument"] == "Eb"
    quiz.receive({"type": "input", "settings": {"input": "midi"}})
    assert drill.playing["input"] == "midi"  # the student's other widget, open, follows
    quiz.receive({"type": "input", "settings": {"input": "microphone"}})
    store.close()
    again = ProgressStore(path)
    assert remembered_playing(again) == Playing(input="microphone", instrument="Eb", a4=442.0)
    lesson_drill = NoteDrill(progress=again)
    assert lesson_drill.playing["a4"] == 442.0
    assert json.loads(again.setting(SETTINGS_KEY) or "{}")["input"] == "microphone"
    again.close()
    other = ProgressStore(tmp_path / "ben.sqlite", student="Ben")
    assert NoteDrill(progress=other).playing["input"] == "click"  # another student's own
    other.close()


@pytest.mark.parametrize(
    "settings",
    [
        {"input": "keyboard"},
        {"a4": 414.9},
        {"a4": 446.5},
        {"a4": float("nan")},
        {"a4": "440"},
        {"instrument": "G"},
        {"any_octave_midi": "yes"},
        {"volume": 3},
        "midi",
        None,
    ],
)
def test_settings_that_cannot_be_used_are_refused_and_change_nothing(
    settings: Any, tmp_path: Path
) -> None:
    store = ProgressStore(tmp_path / "p.sqlite", student="Ana")
    drill = NoteDrill(progress=store)
    before = dict(drill.playing)
    drill.receive({"type": "input", "settings": settings})
    assert drill.playing == before and drill.refused[-1][0] == "input"
    assert store.setting(SETTINGS_KEY) is None
    store.close()


@pytest.mark.parametrize("a4", [415, 446, 432.5])
def test_a4_from_415_to_446_hz(a4: float) -> None:
    drill = NoteDrill()
    drill.receive({"type": "input", "settings": {"a4": a4}})
    assert drill.playing["a4"] == a4 and drill.refused == []


def test_unreadable_kept_settings_give_the_defaults(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "p.sqlite", student="Ana")
    store.save_setting(SETTINGS_KEY, '{"input": "theremin"}')
    assert remembered_playing(store) == Playing()
    store.save_setting(SETTINGS_KEY, "not json")
    assert NoteDrill(progress=store).playing["input"] == "click"
    store.close()


# -- the lessons' exercises that ask for a note ----------------------------------------------


def lesson() -> Lesson:
    return Lesson(record=False, seed=3)


def test_every_exercise_that_asks_for_a_note_can_be_played() -> None:
    """Issue 22: 'every lesson exercise that asks for a note': naming a note on the staff,
    reading a sharp or flat, naming the coloured key, naming a chord's tone."""
    les = lesson()
    exercises = [
        les.name_notes(["Sol3", "Re4"]),
        les.read_accidentals(["Fa#3", "Sib3"]),
        les.marked_key(["Sol3"]),
        les.chord_tone(["Re major"], "third"),
        les.chord_tone(["Re major"], "root"),
    ]
    for exercise in exercises:
        assert exercise.answer_input is not None, exercise.kind
        for question in exercise.questions:
            right = question.notes[question.answer]
            assert right is not None
            assert question.option_played(right.midi) == question.answer, question.prompt
    # The others ask no note: no switch.
    assert les.line_or_space(["Sol3"]).answer_input is None
    assert les.ledger_line_count(["La4"]).answer_input is None


def test_a_played_note_answers_a_lesson_question_as_a_click_on_its_option() -> None:
    les = lesson()
    exercise = les.name_notes(["Sol3"])
    question = exercise.question
    assert question.notes[question.answer] == Note.parse("Sol3")
    switch = exercise.answer_input
    assert switch is not None and switch.listening
    switch.receive({"type": "played", "midi": 79, "source": "midi"})
    assert exercise.correct is True  # the names carry no octave: Sol4 is Sol
    wrong = les.name_notes(["Sol3"])
    other = next(i for i, n in enumerate(wrong.question.notes) if i != wrong.question.answer)
    note = wrong.question.notes[other]
    assert note is not None
    wrong.play(note.midi)
    assert wrong.correct is False
    assert "mg-wrong" in wrong.feedback.value and wrong.question.why[other] in wrong.feedback.value


def test_a_note_none_of_the_options_names_is_said_and_the_question_waits() -> None:
    exercise = lesson().marked_key(["Sol3"])
    exercise.play(30)
    assert exercise.answered is False and exercise.correct is None
    assert "not one of the answers offered" in exercise.feedback.value


def test_the_octave_question_needs_the_very_key_even_with_any_octave() -> None:
    """Naming the coloured key's octave: 'any octave' would make every option right, so
    there the octave always counts."""
    question = lesson().marked_key(["Sol3"]).question
    assert question.option_played(67, any_octave=True) == question.answer
    assert question.option_played(79, any_octave=True) != question.answer


def test_two_spellings_of_one_key_the_played_key_answers_the_right_one() -> None:
    q = Question("?", ("Fa♯3", "Sol♭3", "Sol3"), 1,
                 notes=(Note.parse("Fa#3"), Note.parse("Solb3"), Note.parse("Sol3")))
    assert q.option_played(66) == 1
    exercise = Exercise("t", [q])
    exercise.play(66)
    assert exercise.correct is True


def test_the_lessons_switch_reports_only_while_a_question_waits() -> None:
    heard: list[tuple[int, bool]] = []
    box = AnswerInput(on_played=lambda midi, octave: heard.append((midi, octave)))
    box.receive({"type": "played", "midi": 60, "source": "midi"})
    box.listening = True
    box.receive({"type": "played", "midi": 60, "source": "midi"})
    box.receive({"type": "played", "midi": 200, "source": "midi"})
    assert heard == [(60, False)] and box.refused[-1][0] == "played"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Your choice works on this page, but is not kept for next time: the progress file"
           " is busy in another notebook."),
    ("fr", "Ton choix marche sur cette page, mais il n'est pas gardé pour la prochaine fois :"
           " le fichier de progression"),
])
def test_a_lessons_switch_says_when_its_choice_cannot_be_kept(
    tmp_path: Path, language: str, said: str
) -> None:
    """The student's file is busy elsewhere: the choice still works on the page, a line
    under the switch says it is not kept and why; once a choice is kept, the line goes."""
    store = ProgressStore(tmp_path / "ana.sqlite3", student="Ana")
    box = AnswerInput(progress=store, language=language)
    busy = sqlite3.OperationalError("database is locked")

    def refuse(name: str, value: str) -> None:
        raise busy

    store.save_setting = refuse  # type: ignore[method-assign]
    box.receive({"type": "input", "settings": {"input": "midi"}})
    assert box.playing["input"] == "midi" and box.notice.startswith(said)
    # the lesson's other switch shows the choice, and says the same of it
    other = AnswerInput(progress=store, language=language)
    box.receive({"type": "input", "settings": {"input": "microphone"}})
    assert other.playing["input"] == "microphone" and other.notice.startswith(said)
    del store.save_setting
    other.receive({"type": "input", "settings": {"input": "midi"}})
    assert box.notice == other.notice == "" and remembered_playing(store).input == "midi"
    store.close()


# -- the words ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_switch_and_the_instruments_are_named_in_every_language(language: str) -> None:
    flat = {"en": "B♭", "es": "Si♭", "fr": "si♭"}[language]
    assert flat in text("play.instrument.Bb", language)
    eflat = {"en": "E♭", "es": "Mi♭", "fr": "mi♭"}[language]
    assert eflat in text("play.instrument.Eb", language)
    for key in ("play.input.click", "play.input.midi", "play.input.microphone",
                "play.any_octave", "play.midi.unsupported", "play.mic.private"):
        assert text(key, language)
    assert NoteDrill(language=language).strings["play.input.midi"] == text(
        "play.input.midi", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_that_is_not_secure_says_how_to_reach_one(language: str) -> None:
    """Over plain http from another computer (a classroom on the school's network) the
    browser gives neither MIDI nor the microphone: the switch says why, and what to open."""
    strings = NoteDrill(language=language).strings
    for key in ("play.midi.insecure", "play.mic.insecure"):
        assert "https" in strings[key] and "localhost" in strings[key]
        assert strings[key] not in (strings["play.midi.unsupported"],
                                    strings["play.mic.unsupported"])


def test_a_lessons_switch_starts_as_the_student_left_it_in_the_drill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Remembered per student across widgets: chosen in a drill, the lesson's exercises
    start with it, and a change there reaches the student's drill open beside it."""
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    les = Lesson(student="Ana", seed=3)
    drill = les.drill(["Sol3"])
    drill.receive({"type": "input", "settings": {"input": "midi", "any_octave_midi": True}})
    exercise = les.name_notes(["Sol3"])
    switch = exercise.answer_input
    assert switch is not None
    assert switch.playing["input"] == "midi" and switch.playing["any_octave_midi"] is True
    switch.receive({"type": "input", "settings": {"input": "microphone"}})
    assert drill.playing["input"] == "microphone"
    assert remembered_playing(les.progress).input == "microphone"
