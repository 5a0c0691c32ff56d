"""What the widgets ask the page to play: frequencies from music21, A4 = 440 Hz."""

from __future__ import annotations

from pathlib import Path

import pytest
from music21 import pitch as m21pitch

from musicgames import ALL_TRIADS, CARD_NOTES
from musicgames.i18n import catalogue
from musicgames.sound import A4_HZ, chord, frequency, notes, sound_strings
from musicgames.widgets._assets import joined


def _equal_tempered(midi: int) -> float:
    return A4_HZ * 2 ** ((midi - 69) / 12)


def test_a4_is_440_and_middle_c_is_do3() -> None:
    assert frequency("La3") == 440.0 == frequency("A4")
    assert frequency("Do3") == pytest.approx(261.6256, abs=1e-4)


@pytest.mark.parametrize("note", CARD_NOTES, ids=[n.solfege for n in CARD_NOTES])
def test_card_note_frequencies_are_equal_temperament(note: object) -> None:
    hz = notes([note])["hz"][0]  # type: ignore[list-item]
    assert hz == pytest.approx(_equal_tempered(note.midi), abs=0.006)  # type: ignore[attr-defined]
    assert hz == pytest.approx(m21pitch.Pitch(note.scientific).frequency, abs=0.006)  # type: ignore[attr-defined]


def test_every_triad_tone_has_its_equal_tempered_frequency() -> None:
    for t in ALL_TRIADS:
        sound = chord(t)
        assert sound["broken"] is False
        assert sound["hz"] == [round(_equal_tempered(n.midi), 2) for n in t.tones]
        assert chord(t, broken=True)["broken"] is True


def test_every_key_and_spelling_sounds_as_music21_says_to_the_last_digit() -> None:
    for midi in range(128):
        assert frequency(midi) == m21pitch.Pitch(midi=midi).frequency, midi
    spelled = [*CARD_NOTES, *(n for t in ALL_TRIADS for n in t.tones)]
    for note in spelled:
        assert frequency(note) == m21pitch.Pitch(note.scientific).frequency, note
    with pytest.raises(ValueError):
        frequency(128)


def test_a_note_snap_table_opens_without_loading_music21() -> None:
    """Each student's kernel in the classroom makes a table: music21 (half a second and
    tens of MiB per kernel) is not needed for its sounds."""
    import subprocess
    import sys

    probe = ("import sys\n"
             "from musicgames.widgets.note_snap import play_note_snap\n"
             "game = play_note_snap(seed=1)\n"
             "assert game.sounds['notes'], 'no sounds'\n"
             "print(any(m.split('.')[0] == 'music21' for m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"


def test_spelling_does_not_change_the_sound() -> None:
    assert frequency("Fa#3") == frequency("Solb3")
    assert frequency("Si#3") == frequency("Do4")


def test_sound_strings_exist_in_both_languages() -> None:
    english, spanish = sound_strings("en"), sound_strings("es")
    assert set(english) == set(spanish) == set(catalogue("en", "sound."))
    assert english["sound.first_click"] != spanish["sound.first_click"]


def test_every_sound_string_the_module_uses_is_in_the_catalogue() -> None:
    import re

    used = set(re.findall(r'"(sound\.[a-z_.]+)"', joined("_sound.js")))
    assert used and used <= set(sound_strings("en")), used - set(sound_strings("en"))


def test_the_drill_plays_the_note_after_each_answer_and_offers_it_on_demand() -> None:
    from musicgames.widgets.note_drill import NoteDrill

    drill = NoteDrill(["La3"], questions=1, seed=3)
    drill.receive({"type": "start"})
    assert drill.question["sound"] == {"hz": [440.0], "broken": False}
    assert drill.question["svg"].startswith("<svg")
    drill.receive({"type": "answer", "number": 1, "via": "name", "value": 5, "response_ms": 900})
    assert drill.feedback["sound"] == {"hz": [440.0], "broken": False}
    assert "svg" not in drill.feedback


def test_name_what_you_hear_asks_without_the_staff_and_keeps_its_own_items(
    tmp_path: Path,
) -> None:
    from musicgames.progress import ProgressStore, read_answers
    from musicgames.widgets._practice import SettingsError
    from musicgames.widgets.note_drill import NoteDrill

    store = ProgressStore(tmp_path / "p.sqlite3", student="ana")
    drill = NoteDrill(["Do3", "Sol3"], ask="ear", questions=1, seed=3, progress=store)
    assert drill.options["ask"] == "ear"
    drill.receive({"type": "start"})
    assert drill.question["svg"] == ""
    note = drill.current
    assert drill.question["sound"]["hz"] == [round(440 * 2 ** ((note.midi - 69) / 12), 2)]
    answer = {"type": "answer", "number": 1, "via": "keyboard", "value": 0, "response_ms": 900}
    drill.receive(answer)
    assert drill.feedback["svg"].startswith("<svg")  # the note heard, shown after the answer
    assert [r.item for r in read_answers(tmp_path / "p.sqlite3")] == [f"ear:{note.solfege}"]
    with pytest.raises(SettingsError, match="'eye'"):
        NoteDrill(ask="eye")


def test_every_quiz_question_can_be_heard_block_and_broken() -> None:
    from musicgames.theory import triad
    from musicgames.widgets.chord_quiz import ChordTonesQuiz

    quiz = ChordTonesQuiz(["Bb major"], mode="name", questions=1, seed=2)
    quiz.receive({"type": "start"})
    bb = triad("Bb")
    assert quiz.question["sound"] == {"block": chord(bb), "broken": chord(bb, broken=True)}
    quiz.receive({"type": "answer", "number": 1, "choice": 0, "response_ms": 900})
    assert quiz.feedback["sound"] == chord(bb)


@pytest.mark.parametrize("language", ["en", "es"])
def test_major_or_minor_by_ear_only(language: str) -> None:
    from musicgames.theory import triad
    from musicgames.widgets.chord_quiz import ChordTonesQuiz, QuizMode

    quiz = ChordTonesQuiz(["F minor"], mode="ear", questions=2, seed=2, language=language)
    quiz.receive({"type": "start"})
    assert quiz.kind is QuizMode.EAR
    question = quiz.question
    assert "svg" not in question and "keyboard" not in question  # nothing to see
    assert question["choices"] == [
        {"en": "Major", "es": "Mayor"}[language],
        {"en": "Minor", "es": "Menor"}[language],
    ]
    assert question["sound"]["block"] == chord(triad("F", "minor"))
    quiz.receive({"type": "answer", "number": 1, "choice": 1, "response_ms": 1500})
    assert quiz.feedback["correct"] is True and quiz.feedback["right_choice"] == 1
    assert quiz.feedback["tones"] == "Fa – La♭ – Do"
    quiz.receive({"type": "next", "number": 1})
    quiz.receive({"type": "answer", "number": 2, "choice": 0, "response_ms": 1500})
    assert quiz.feedback["correct"] is False
    assert quiz.feedback["given"] == {"en": "Major", "es": "Mayor"}[language]


def test_an_ear_answer_out_of_range_is_refused_and_changes_nothing() -> None:
    from musicgames.widgets.chord_quiz import ChordTonesQuiz

    quiz = ChordTonesQuiz(["C major"], mode="ear", questions=1, seed=2)
    quiz.receive({"type": "start"})
    quiz.receive({"type": "answer", "number": 1, "choice": 2, "response_ms": 900})
    assert quiz.feedback == {}
    assert quiz.refused[-1] == ("answer", "choice 2 is not 0 (major) or 1 (minor)")


def test_a_soft_short_sound_and_its_limits() -> None:
    from musicgames.theory import triad

    soft = chord(triad("Do"), level=0.4, length=0.5)
    assert soft["level"] == 0.4 and soft["length"] == 0.5 and len(soft["hz"]) == 3
    with pytest.raises(ValueError, match="level=1.5"):
        notes(["Do3"], level=1.5)
    with pytest.raises(ValueError, match="length=0"):
        notes(["Do3"], length=0)
