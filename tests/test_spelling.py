"""Tones spelled in a chord's key (``Triad.spell``), checked against music21's keys."""

from __future__ import annotations

import pytest
from music21 import key as m21key

from musicgames import ALL_TRIADS, Naming, TriadError, triad
from musicgames.theory import Triad

_IDS = [t.name() for t in ALL_TRIADS]
_WHITE = {0, 2, 4, 5, 7, 9, 11}


def _music21_key(t: Triad) -> m21key.Key:
    """The chord's key, built from music21 names only (major, or natural minor)."""
    tonic = t.to_music21().root().name  # type: ignore[attr-defined]
    return m21key.Key(tonic if t.quality == "major" else tonic.lower())


def test_there_are_24_triads_to_check() -> None:
    assert len(ALL_TRIADS) == 24


@pytest.mark.parametrize("t", ALL_TRIADS, ids=_IDS)
def test_chord_tones_are_spelled_as_the_triad_spells_them(t: Triad) -> None:
    for tone in t.tones:
        spelled = t.spell(tone.pitch_class)
        assert (spelled.step, spelled.alter) == (tone.step, tone.alter)
        assert spelled.octave == 3


@pytest.mark.parametrize("t", ALL_TRIADS, ids=_IDS)
def test_scale_tones_are_spelled_as_music21_key_pitches(t: Triad) -> None:
    key = _music21_key(t)
    assert key.mode == t.quality
    for pitch in key.pitches[:7]:
        spelled = t.spell(pitch.pitchClass)
        assert spelled.to_music21().name == pitch.name, (t.name(), pitch.name)


@pytest.mark.parametrize("t", ALL_TRIADS, ids=_IDS)
def test_chromatic_tones_follow_the_stated_rule(t: Triad) -> None:
    key = _music21_key(t)
    in_scale = {p.pitchClass for p in key.pitches}
    for pc in set(range(12)) - in_scale:
        spelled = t.spell(pc)
        assert spelled.pitch_class == pc
        if pc in _WHITE:
            assert spelled.alter == 0, (t.name(), spelled)
        else:
            assert abs(spelled.alter) == 1, (t.name(), spelled)
        if key.sharps < 0 and t.quality == "major":
            assert spelled.alter <= 0, f"{spelled.solfege} (a sharp) in {t.name()}"


@pytest.mark.parametrize("t", ALL_TRIADS, ids=_IDS)
def test_twelve_pitch_classes_get_twelve_names_that_sound_right(t: Triad) -> None:
    notes = [t.spell(pc) for pc in range(12)]
    assert [n.pitch_class for n in notes] == list(range(12))
    assert len({(n.step, n.alter) for n in notes}) == 12


def test_flat_key_chords_never_name_their_tones_with_sharps() -> None:
    for t in ALL_TRIADS:
        if _music21_key(t).sharps < 0:
            for pc in {p.pitchClass for p in _music21_key(t).pitches}:
                assert t.spell(pc).alter <= 0, (t.name(), t.spell(pc))


def test_the_issue_examples() -> None:
    bb, f_minor, eb = triad("Bb"), triad("F", "minor"), triad("Eb")
    assert bb.tone_name(10) == "Si♭" and bb.tone_name(10, "letters") == "B♭"
    assert [f_minor.tone_name(pc) for pc in f_minor.pitch_classes] == ["Fa", "La♭", "Do"]
    assert [eb.tone_name(pc) for pc in eb.pitch_classes] == ["Mi♭", "Sol", "Si♭"]


def test_minor_keys_raise_their_leading_tone_and_sixth() -> None:
    assert triad("D", "minor").spell(1).solfege == "Do#3"
    assert triad("G", "minor").spell(6).solfege == "Fa#3"
    assert triad("A", "minor").spell(8).scientific == "G#4"


def test_c_major_chromatic_notes_are_the_harmonic_chromatic_scale() -> None:
    c = triad("C")
    names = [c.tone_name(pc, Naming.LETTERS) for pc in (1, 3, 6, 8, 10)]
    assert names == ["D♭", "E♭", "F♯", "A♭", "B♭"]


def test_spell_midi_keeps_the_pitch_in_every_octave() -> None:
    for t in ALL_TRIADS:
        for midi in range(36, 97):
            note = t.spell_midi(midi)
            assert note.midi == midi
            assert (note.step, note.alter) == (t.spell(midi % 12).step, t.spell(midi % 12).alter)


def test_keys_beyond_the_24_still_spell_without_double_accidentals_off_the_scale() -> None:
    a_sharp = triad("A#")  # seven sharps and more: Gx is a scale tone
    assert a_sharp.spell(9).label("letters", octave=False) == "G𝄪"
    assert all(abs(a_sharp.spell(pc).alter) <= 2 for pc in range(12))


@pytest.mark.parametrize("bad", [-1, 12, 1.5, "3", True, None])
def test_bad_pitch_classes_are_triad_errors_naming_the_input(bad: object) -> None:
    with pytest.raises(TriadError, match=repr(bad).replace(".", r"\.")):
        triad("C").spell(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 128, 60.0, False])
def test_bad_midi_keys_are_triad_errors(bad: object) -> None:
    with pytest.raises(TriadError, match="MIDI key"):
        triad("C").spell_midi(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("t", ALL_TRIADS, ids=_IDS)
def test_keyboards_name_every_key_as_the_chord_spells_it(t: Triad) -> None:
    import re

    from musicgames.render import keyboard_svg

    for naming in Naming:
        svg = keyboard_svg(1, chord=t, labels=naming, width=340)
        names = re.findall(r"<text[^>]*>([^<]+)</text>", svg)
        assert names == [t.tone_name(pc, naming) for pc in (0, 2, 4, 5, 7, 9, 11)] + [
            t.tone_name(pc, naming) for pc in (1, 3, 6, 8, 10)
        ]


def test_black_key_names_can_be_left_off_and_are_off_on_small_boards() -> None:
    from musicgames.render import keyboard_svg

    bb = triad("Bb")
    assert "mg-black-label" in keyboard_svg(1, chord=bb, labels="letters", width=340)
    assert "mg-black-label" not in keyboard_svg(
        1, chord=bb, labels="letters", width=340, black_labels=False
    )
    assert "mg-black-label" not in keyboard_svg(2, chord=bb, labels="letters", width=280)
    assert "mg-black-label" in keyboard_svg(
        2, chord=bb, labels="letters", width=280, black_labels=True
    )



def test_the_only_sharps_in_flat_keys_are_the_raised_degrees_the_docstring_lists() -> None:
    sharps = {
        t.name(): [t.tone_name(pc, Naming.LETTERS) for pc in range(12) if t.spell(pc).alter > 0]
        for t in ALL_TRIADS
        if _music21_key(t).sharps < 0
    }
    assert {name: found for name, found in sharps.items() if found} == {
        "C minor": ["F♯"],
        "D minor": ["C♯", "F♯", "G♯"],
        "G minor": ["C♯", "F♯"],
    }
