"""What the widgets ask the page to play: frequencies from music21, A4 = 440 Hz."""

from __future__ import annotations

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
