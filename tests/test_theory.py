"""Notes Do3–Do5 and triads, checked against music21."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from music21 import chord as m21chord
from music21 import pitch as m21pitch

from musicgames import (
    ALL_TRIADS,
    CARD_NOTES,
    Naming,
    Note,
    NoteError,
    TriadError,
    franco_belgian_to_music21_octave,
    triad,
)

CARD_TABLE = [
    # solfège, scientific, MIDI
    ("Do3", "C4", 60),
    ("Re3", "D4", 62),
    ("Mi3", "E4", 64),
    ("Fa3", "F4", 65),
    ("Sol3", "G4", 67),
    ("La3", "A4", 69),
    ("Si3", "B4", 71),
    ("Do4", "C5", 72),
    ("Re4", "D5", 74),
    ("Mi4", "E5", 76),
    ("Fa4", "F5", 77),
    ("Sol4", "G5", 79),
    ("La4", "A5", 81),
    ("Si4", "B5", 83),
    ("Do5", "C6", 84),
]


def test_card_notes_are_the_15_naturals_do3_to_do5_in_order() -> None:
    assert [(n.solfege, n.scientific, n.midi) for n in CARD_NOTES] == CARD_TABLE
    assert list(CARD_NOTES) == sorted(CARD_NOTES)
    assert all(n.is_natural for n in CARD_NOTES)


@pytest.mark.parametrize(("solfege", "scientific", "midi"), CARD_TABLE)
def test_card_note_named_in_every_system_agrees_with_music21(
    solfege: str, scientific: str, midi: int
) -> None:
    note = Note.parse(solfege)
    assert Note.parse(scientific) == note == Note.parse(midi)
    m21 = m21pitch.Pitch(scientific)
    assert note.to_music21().nameWithOctave == m21.nameWithOctave
    assert note.midi == m21.midi == midi
    assert note.step == m21.step
    assert note.scientific_octave == m21.octave
    assert note.octave == m21.octave - 1
    assert Note.from_music21(m21) == note
    assert note.label(Naming.SOLFEGE) == solfege
    assert note.label(Naming.LETTERS) == scientific


def test_middle_c_is_do3_and_c4_and_midi_60() -> None:
    assert Note.parse("Do3") == Note.parse("C4") == Note.parse(60)
    assert franco_belgian_to_music21_octave(3) == 4


@pytest.mark.parametrize(
    ("text", "scientific"),
    [
        ("Sol3", "G4"),
        ("sol3", "G4"),
        ("SOL 3", "G4"),
        ("Fa#3", "F#4"),
        ("Fa♯3", "F#4"),
        ("Sib3", "Bb4"),
        ("Si♭3", "Bb4"),
        ("Ré3", "D4"),
        ("G4", "G4"),
        ("F#4", "F#4"),
        ("Bb3", "Bb3"),
        ("bb3", "Bb3"),
        ("g4", "G4"),
        ("Fa##3", "F##4"),
        ("Do-1", "C0"),
    ],
)
def test_parse_accepts_every_documented_form(text: str, scientific: str) -> None:
    assert Note.parse(text).scientific == scientific


@settings(deadline=None)  # speed is measured in benchmarks/, not here: a busy worker is slow
@given(st.integers(min_value=0, max_value=127))
def test_every_midi_number_round_trips_through_both_systems(midi: int) -> None:
    note = Note.parse(midi)
    assert note.midi == midi
    assert Note.parse(note.solfege) == note
    assert Note.parse(note.scientific) == note
    assert Note.parse(note.label(Naming.SOLFEGE)) == note
    assert Note.parse(note.label(Naming.LETTERS)) == note
    assert note.to_music21().midi == midi
    assert Note.from_music21(note.to_music21()) == note
    assert eval(repr(note), {"Note": Note}) == note  # the repr is runnable


def test_every_accidental_a_name_may_carry_is_music21s() -> None:
    """Double flat to double sharp, each as music21 reads it; nothing beyond."""
    for signs in ("bb", "b", "", "#", "##", "♭♭", "♭", "♯", "♯♯", "𝄫", "𝄪"):
        note = Note.parse(f"Sol{signs}3")
        assert note.alter == m21pitch.Accidental(note.alter).alter
        assert note.midi == note.to_music21().midi  # music21 counts its key
    for refused in ("Sol###3", "Solbbb3", "Sol#b3"):
        with pytest.raises(NoteError):
            Note.parse(refused)


def test_all_128_midi_numbers_round_trip() -> None:
    for midi in range(128):
        note = Note.parse(midi)
        assert Note.parse(note.solfege).midi == midi
        assert Note.parse(note.scientific).midi == midi


def test_notes_are_frozen_hashable_and_ordered() -> None:
    a, b = Note.parse("Mi3"), Note.parse("Fa3")
    assert a < b and b > a and a <= a
    assert len({a, Note.parse("E4"), b}) == 2
    with pytest.raises(AttributeError):
        a.alter = 1  # type: ignore[misc]
    # Enharmonic notes sort together but stay different notes.
    assert Note.parse("Fa#3") != Note.parse("Solb3")
    assert Note.parse("Fa#3").midi == Note.parse("Solb3").midi


BAD_INPUTS: list[object] = [
    "",
    " ",
    "H3",
    "h3",
    "X4",
    "Sol",
    "G",
    "Do",
    "Dó3",
    "Sol3.5",
    "Sol 3 3",
    "Sol-",
    "Soll3",
    "Sool3",
    "Do#b3",
    "C#b4",
    "Do###3",
    "Cbbb4",
    "C#-4",
    "Do13",
    "C11",
    "Do-3",
    "C-2",
    "G9x",
    "#4",
    "4",
    "3Sol",
    "Sol3#",
    "Mi♯♭3",
    128,
    -1,
    1000,
]


@pytest.mark.parametrize("bad", BAD_INPUTS)
def test_bad_input_gives_note_error_quoting_it(bad: object) -> None:
    with pytest.raises(NoteError) as caught:
        Note.parse(bad)  # type: ignore[arg-type]
    message = str(caught.value)
    assert repr(bad) in message
    assert "'Sol3' (Do3 = middle C)" in message and "'G4'" in message


@pytest.mark.parametrize("bad", [None, 3.5, True, ["Sol3"]])
def test_non_text_inputs_give_note_error(bad: object) -> None:
    with pytest.raises(NoteError):
        Note.parse(bad)  # type: ignore[arg-type]


def test_note_error_is_a_value_error() -> None:
    assert issubclass(NoteError, ValueError)


def test_surrounding_spaces_are_forgiven() -> None:
    assert Note.parse(" Sol3 ") == Note.parse("Sol3")


# -- triads ----------------------------------------------------------------------------------


def test_bad_input_table_is_large() -> None:
    assert len(BAD_INPUTS) >= 30


def test_all_triads_are_24_distinct_major_and_minor() -> None:
    assert len(ALL_TRIADS) == 24
    assert len({(t.root.pitch_class, t.quality) for t in ALL_TRIADS}) == 24
    assert sum(t.quality == "major" for t in ALL_TRIADS) == 12


@pytest.mark.parametrize("t", ALL_TRIADS, ids=lambda t: t.name())
def test_triad_tones_agree_with_music21(t: object) -> None:
    from musicgames import Triad

    assert isinstance(t, Triad)
    chord = m21chord.Chord([n.to_music21() for n in t.tones])
    assert chord.quality == t.quality
    assert chord.root().nameWithOctave == t.root.to_music21().nameWithOctave
    assert chord.third.nameWithOctave == t.third.to_music21().nameWithOctave
    assert chord.fifth.nameWithOctave == t.fifth.to_music21().nameWithOctave
    assert chord.isMajorTriad() == (t.quality == "major")
    assert chord.isMinorTriad() == (t.quality == "minor")
    assert t.pitch_classes == tuple(p.pitchClass for p in (chord.root(), chord.third, chord.fifth))
    assert t.root < t.third < t.fifth


def test_triads_are_spelled_as_music21s_chord_symbols_spell_them() -> None:
    """A second judge from music21: its chord symbol ("E-", "g#m") names the same tones."""
    from music21.harmony import ChordSymbol

    for t in ALL_TRIADS:
        symbol = ChordSymbol(root=t.root.to_music21().name, kind=t.quality)
        assert [p.name for p in symbol.pitches] == [n.to_music21().name for n in t.tones], t


def test_triad_accepts_either_naming_system_with_or_without_octave() -> None:
    assert triad("Re", "major") == triad("D", "major") == triad("Re3", "major")
    assert triad("D4", "major") == triad("Re3", "major")
    assert triad("La", "minor").name(Naming.SOLFEGE, "es") == "La menor"
    assert triad("Sib", "major").name() == "B♭ major"


@pytest.mark.parametrize(
    ("root", "quality", "error"),
    [
        ("H", "major", NoteError),
        ("", "minor", NoteError),
        ("Do", "diminished", TriadError),
        ("Do", "Major", TriadError),
        (12, "major", NoteError),
    ],
)
def test_bad_triads_give_clear_errors(root: object, quality: str, error: type) -> None:
    with pytest.raises(error) as caught:
        triad(root, quality)  # type: ignore[arg-type]
    assert issubclass(error, ValueError)
    assert repr(root) in str(caught.value) or repr(quality) in str(caught.value)


HUGE = 10**5000  # too long for Python to write out: repr() of it raises ValueError


@pytest.mark.parametrize(("ask", "error"), [
    (lambda: triad("C").spell(HUGE), TriadError),
    (lambda: triad("C").spell(-HUGE), TriadError),
    (lambda: triad("C").spell_midi(HUGE), TriadError),
    (lambda: triad("C", HUGE), TriadError),  # type: ignore[arg-type]
    (lambda: Note.parse(HUGE), NoteError),  # type: ignore[arg-type]
    (lambda: Note.parse("Do" * 5000), NoteError),
], ids=["spell", "spell_minus", "spell_midi", "quality", "parse_number", "parse_long_text"])
def test_a_huge_input_is_named_by_its_size_in_the_theory_error(
        ask: Callable[[], object], error: type[ValueError]) -> None:
    with pytest.raises(error) as caught:
        ask()
    message = str(caught.value)
    assert len(message) < 400, message
    if "Do" not in message[:10]:
        assert "3900 digits" in message


def _printed_in_a_kernel(code: str) -> str:
    """What ``code`` prints when run in a fresh IPython kernel, as a notebook runs it."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    printed: list[str] = []

    def keep(message: dict[str, Any]) -> None:
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    try:
        client.execute_interactive(code, timeout=60, output_hook=keep)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return "".join(printed)


#: Once music21's notebook set-up is done, if it was not called off (a timer it starts in a
#: kernel, a second after its import): has pyplot been imported, and is matplotlib in
#: interactive mode?
_PYPLOT_AFTER = """
import sys, matplotlib, music21
music21.ipython21.t.join(60)
print('matplotlib.pyplot' in sys.modules, matplotlib.is_interactive())
"""


@pytest.mark.slow  # starts two kernels
def test_music21_imported_by_musicgames_in_a_kernel_leaves_matplotlib_alone() -> None:
    """A chord built in a notebook imports music21 without its notebook set-up (pyplot
    imported, interactive mode on, "retina" figures a second later): a kernel does not pay
    for it. A notebook that imports music21 itself gets music21's set-up as before."""
    ours = _printed_in_a_kernel("from musicgames.theory import triad\ntriad('Re')" + _PYPLOT_AFTER)
    assert ours.split() == ["False", "False"]
    theirs = _printed_in_a_kernel("import music21\nfrom musicgames.theory import triad\n"
                                  "triad('Re')" + _PYPLOT_AFTER)
    assert theirs.split() == ["True", "True"]
