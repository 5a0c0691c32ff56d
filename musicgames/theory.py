"""Notes and chords: the music theory every game and lesson stands on.

Notes are named two ways in this project:

* **Franco-Belgian solfège** — Do Re Mi Fa Sol La Si with an octave number in which
  middle C is **Do3**;
* **scientific letter names** — C D E F G A B with an octave number in which middle C is
  **C4** (music21 uses this numbering too).

So the Franco-Belgian octave is always one less than the scientific one:

>>> sol = Note.parse("Sol3")
>>> sol
Note.parse('Sol3')
>>> sol.scientific, sol.midi, sol.octave, sol.scientific_octave
('G4', 67, 3, 4)
>>> Note.parse("G4") == sol == Note.parse(67)
True
>>> [n.solfege for n in CARD_NOTES[:3]], CARD_NOTES[-1].scientific
(['Do3', 'Re3', 'Mi3'], 'C6')

Chords come from music21:

>>> c = triad("Re", "minor")
>>> [t.solfege for t in c.tones]
['Re3', 'Fa3', 'La3']
>>> c.name(Naming.LETTERS), c.name(Naming.SOLFEGE)
('D minor', 'Re minor')
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache, total_ordering
from typing import TYPE_CHECKING, Any

from musicgames.shown import short_repr

if TYPE_CHECKING:  # music21 is imported lazily: it takes a moment to load.
    from music21.pitch import Pitch

__all__ = [
    "ALL_TRIADS",
    "CARD_NOTES",
    "LETTERS",
    "SYLLABLES",
    "Naming",
    "Note",
    "NoteError",
    "Triad",
    "TriadError",
    "draw_staves_with",
    "franco_belgian_to_music21_octave",
    "music21_to_franco_belgian_octave",
    "syllable_for_letter",
    "letter_for_syllable",
    "triad",
    "load_music21",
]

#: The seven letter names, in scale order from C.
LETTERS: tuple[str, ...] = ("C", "D", "E", "F", "G", "A", "B")
#: The seven solfège syllables, in the same order: ``SYLLABLES[i]`` names ``LETTERS[i]``.
SYLLABLES: tuple[str, ...] = ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")
#: The syllables as each language of the pages writes them; a language not listed writes
#: :data:`SYLLABLES`. French writes note names as common nouns, in lower case, and accents
#: ré: "do3", "ré♭4", "un accord de ré majeur".
SYLLABLES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "fr": ("do", "ré", "mi", "fa", "sol", "la", "si"),
}

_LETTER_PITCH_CLASS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_SYLLABLE_TO_LETTER = {s.lower(): letter for s, letter in zip(SYLLABLES, LETTERS, strict=True)}
_SYLLABLE_TO_LETTER["ré"] = "D"  # the French spelling, accepted on input
_ACCIDENTAL_ALTER = {"#": 1, "♯": 1, "b": -1, "♭": -1, "x": 2, "𝄪": 2, "𝄫": -2}
_ALTER_ASCII = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
_ALTER_SIGN = {-2: "𝄫", -1: "♭", 0: "", 1: "♯", 2: "𝄪"}

_ACCEPTED_FORMS = (
    "use solfège with an octave like 'Sol3' (Do3 = middle C) "
    "or a letter name like 'G4' (C4 = middle C), or a MIDI number 0–127"
)
_SOLFEGE_RE = re.compile(r"^(sol|do|ré|re|mi|fa|la|si)\s*([#♯b♭x𝄪𝄫]*)\s*(-?\d+)?$", re.IGNORECASE)
_LETTER_RE = re.compile(r"^([a-g])\s*([#♯b♭x𝄪𝄫]*)\s*(-?\d+)?$", re.IGNORECASE)


def load_music21() -> None:
    """Import music21 for this project (each use imports it lazily: it takes a moment to
    load), without the set-up it starts by itself in a notebook's kernel.

    Imported in a kernel, music21 starts a timer that a second later imports pyplot, turns
    matplotlib's interactive mode on and makes every inline figure "retina". Nothing here
    needs it (the teacher's charts are bare Figures, drawn without pyplot), and it cost each
    kernel about 0.9 s of CPU and 40 MiB (``benchmarks/bench_kernel.py``). When music21 was
    imported already (by a notebook's own code), it is left as that import set it up.
    """
    if "music21" in sys.modules:
        return
    import music21

    timer = getattr(getattr(music21, "ipython21", None), "t", None)
    if isinstance(timer, threading.Timer):
        timer.cancel()


class NoteError(ValueError):
    """A text or number that is not a note this project can name.

    The message quotes the input and shows the forms that are accepted.
    """


class TriadError(ValueError):
    """A triad that cannot be built: an unknown quality, say."""


class Naming(str, Enum):
    """How note names are shown: solfège (Do Re Mi) or letters (C D E)."""

    SOLFEGE = "solfege"
    LETTERS = "letters"


def franco_belgian_to_music21_octave(octave: int) -> int:
    """Convert a Franco-Belgian octave number to music21's (scientific) one.

    In Franco-Belgian numbering middle C is Do3; in scientific numbering, which music21
    uses, it is C4. The scientific number is always one more.

    >>> franco_belgian_to_music21_octave(3)
    4
    >>> franco_belgian_to_music21_octave(-1)
    0
    """
    return octave + 1


def music21_to_franco_belgian_octave(octave: int) -> int:
    """Convert a music21 (scientific) octave number to the Franco-Belgian one.

    >>> music21_to_franco_belgian_octave(4)
    3
    """
    return octave - 1


def syllable_for_letter(letter: str) -> str:
    """The solfège syllable of a letter name.

    >>> syllable_for_letter("G")
    'Sol'
    """
    try:
        return SYLLABLES[LETTERS.index(letter.upper())]
    except ValueError:
        raise NoteError(
            f"{short_repr(letter)} is not a letter name: use one of {' '.join(LETTERS)}"
        ) from None


def letter_for_syllable(syllable: str) -> str:
    """The letter name of a solfège syllable (any case).

    >>> letter_for_syllable("sol")
    'G'
    """
    try:
        return _SYLLABLE_TO_LETTER[syllable.strip().lower()]
    except (KeyError, AttributeError):
        raise NoteError(
            f"{short_repr(syllable)} is not a solfège syllable: use one of {' '.join(SYLLABLES)}"
        ) from None


#: No note name is longer than this ("Sol𝄫𝄫 -10", with room); longer text is refused at once.
_MAX_NAME = 32


def _bad(text: object, why: str = "") -> NoteError:
    reason = f" ({why})" if why else ""
    return NoteError(f"{short_repr(text)} is not a note name{reason}: {_ACCEPTED_FORMS}")


@total_ordering
@dataclass(frozen=True)
class Note:
    """One pitch: a letter ``step``, an ``alter`` (sharps +, flats −) and an octave.

    Notes are compared and sorted by pitch (MIDI number), then by spelling, so
    ``Fa#3`` and ``Solb3`` sort together but are different notes.

    >>> Note.parse("Fa#3") < Note.parse("Sol3")
    True
    >>> sorted({Note.parse("Do4"), Note.parse("C4")})
    [Note.parse('Do3'), Note.parse('Do4')]
    """

    step: str
    alter: int
    scientific_octave: int

    def __post_init__(self) -> None:
        if self.step not in _LETTER_PITCH_CLASS:
            raise _bad(self.step, "the step must be a capital letter C D E F G A B")
        if self.alter not in _ALTER_ASCII:
            raise _bad(self.alter, "at most a double sharp or double flat")
        if not 0 <= self.midi <= 127:
            raise _bad(
                f"{self.step}{_ALTER_ASCII[self.alter]}{self.scientific_octave}",
                "outside MIDI 0–127",
            )

    # -- building ---------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | int | Note) -> Note:
        """Read a note from solfège (``'Sol3'``), a letter name (``'G4'``) or MIDI (67).

        >>> Note.parse("SOL 3") == Note.parse("sol3") == Note.parse("G4")
        True
        >>> Note.parse("Si♭3").scientific
        'Bb4'
        >>> Note.parse(61).solfege
        'Do#3'
        >>> Note.parse("H3")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        musicgames.theory.NoteError: 'H3' is not a note name: use solfège with an octave ...
        """
        if isinstance(text, Note):
            return text
        if isinstance(text, bool):
            raise _bad(text, "a yes/no value is not a note")
        if isinstance(text, int):
            if not 0 <= text <= 127:
                raise _bad(text, "MIDI numbers go from 0 to 127")
            load_music21()
            from music21.pitch import Pitch

            return cls.from_music21(Pitch(midi=text))
        if not isinstance(text, str):
            raise _bad(text, f"a {type(text).__name__} is not a note name")
        return _parse_name(text, octave_required=True)

    @classmethod
    def from_music21(cls, pitch: Pitch) -> Note:
        """Make a Note from a ``music21.pitch.Pitch`` (its implicit octave if it has none).

        >>> from music21.pitch import Pitch
        >>> Note.from_music21(Pitch("E-5"))
        Note.parse('Mib4')
        """
        alter = pitch.alter
        if alter != int(alter):
            raise _bad(pitch.nameWithOctave, "microtones are not supported")
        return cls(pitch.step, int(alter), _octave_of(pitch))

    def to_music21(self) -> Pitch:
        """This note as a ``music21.pitch.Pitch``.

        >>> Note.parse("Sib3").to_music21()
        <music21.pitch.Pitch B-4>
        """
        load_music21()
        from music21.pitch import Pitch

        return Pitch(step=self.step, octave=self.scientific_octave, accidental=self.alter)  # type: ignore[arg-type]

    # -- names --------------------------------------------------------------------------
    @property
    def midi(self) -> int:
        """The MIDI number: middle C (Do3, C4) is 60."""
        return (self.scientific_octave + 1) * 12 + _LETTER_PITCH_CLASS[self.step] + self.alter

    @property
    def pitch_class(self) -> int:
        """0 for C, 1 for C♯/D♭, … 11 for B."""
        return self.midi % 12

    @property
    def octave(self) -> int:
        """The Franco-Belgian octave number (middle C is Do3)."""
        return music21_to_franco_belgian_octave(self.scientific_octave)

    @property
    def syllable(self) -> str:
        """The solfège syllable of the note's letter, without accidental or octave."""
        return syllable_for_letter(self.step)

    @property
    def solfege(self) -> str:
        """Franco-Belgian solfège with octave, in plain text: ``'Sol3'``, ``'Fa#3'``."""
        return f"{self.syllable}{_ALTER_ASCII[self.alter]}{self.octave}"

    @property
    def scientific(self) -> str:
        """Scientific letter name with octave, in plain text: ``'G4'``, ``'F#4'``."""
        return f"{self.step}{_ALTER_ASCII[self.alter]}{self.scientific_octave}"

    @property
    def is_natural(self) -> bool:
        """True for a note without sharp or flat."""
        return self.alter == 0

    def label(
        self, naming: Naming | str = Naming.SOLFEGE, *, octave: bool = True, language: str = "en"
    ) -> str:
        """The note's name for display, with real sharp and flat signs; in solfège, spelled
        as ``language`` writes the syllables (:data:`SYLLABLES_BY_LANGUAGE`: ré in French).

        >>> n = Note.parse("F#4")
        >>> n.label(Naming.SOLFEGE), n.label("letters"), n.label(Naming.LETTERS, octave=False)
        ('Fa♯3', 'F♯4', 'F♯')
        >>> Note.parse("Reb4").label(language="es"), Note.parse("Reb4").label(language="fr")
        ('Re♭4', 'ré♭4')
        """
        naming = Naming(naming)
        if naming is Naming.SOLFEGE:
            syllables = SYLLABLES_BY_LANGUAGE.get(language, SYLLABLES)
            base, number = syllables[LETTERS.index(self.step)], self.octave
        else:
            base, number = self.step, self.scientific_octave
        return f"{base}{_ALTER_SIGN[self.alter]}{number if octave else ''}"

    def __repr__(self) -> str:
        return f"Note.parse({self.solfege!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Note):
            return NotImplemented
        return self._sort_key() < other._sort_key()

    def _sort_key(self) -> tuple[int, int, int]:
        return (self.midi, LETTERS.index(self.step), self.alter)

    def _repr_svg_(self) -> str | None:
        """The note on a staff, as a notebook shows it (see :func:`draw_staves_with`)."""
        return None if _staff_drawing is None else _staff_drawing([self])


def _octave_of(pitch: Pitch) -> int:
    """A music21 pitch's octave, or its implicit one (4) when it has none."""
    return int(pitch.octave if pitch.octave is not None else pitch.implicitOctave)


def _parse_name(text: str, *, octave_required: bool, default_octave: int = 4) -> Note:
    """Parse solfège or a letter name; without an octave use ``default_octave`` (scientific)."""
    if len(text) > 4 * _MAX_NAME:  # not a name: answer at once, whatever its length
        raise _bad(text, f"{len(text)} characters is too long for a note name")
    cleaned = text.strip()
    if len(cleaned) > _MAX_NAME:
        raise _bad(text, f"{len(cleaned)} characters is too long for a note name")
    solfege = _SOLFEGE_RE.match(cleaned)
    letters = None if solfege else _LETTER_RE.match(cleaned)
    match = solfege or letters
    if match is None:
        raise _bad(text)
    name, accidentals, number = match.groups()
    if number is None and octave_required:
        raise _bad(text, "the octave number is missing")
    try:
        alter = _accidentals_to_alter(accidentals)
    except NoteError:
        why = f"{short_repr(accidentals)} is not a sharp, a flat or a double one"
        raise _bad(text, why) from None
    if solfege:
        step = _SYLLABLE_TO_LETTER[name.lower()]
        octave = (
            franco_belgian_to_music21_octave(int(number)) if number is not None else default_octave
        )
    else:
        step = name.upper()
        octave = int(number) if number is not None else default_octave
    try:
        return Note(step, alter, octave)
    except NoteError as err:
        raise _bad(text, "outside MIDI 0–127") from err


def _accidentals_to_alter(accidentals: str) -> int:
    """Turn accidental signs into a number of semitones: at most a double sharp or flat,
    each of them one of music21's accidentals (the tests check it; music21 itself is not
    loaded, which would cost a classroom kernel half a second at start)."""
    if not accidentals:
        return 0
    signs = {_ACCIDENTAL_ALTER[c] for c in accidentals}
    total = sum(_ACCIDENTAL_ALTER[c] for c in accidentals)
    if len(signs) > 1 and not signs <= {1, 2} and not signs <= {-1, -2}:
        raise NoteError(accidentals)  # mixed sharps and flats
    if total not in _ALTER_ASCII:
        raise NoteError(accidentals)
    return total


#: The 15 natural notes on the Note Snap cards, Do3 (middle C) up to Do5, in order.
CARD_NOTES: tuple[Note, ...] = tuple(
    Note(step, 0, octave) for octave in (4, 5) for step in LETTERS
) + (Note("C", 0, 6),)


# -- chords -------------------------------------------------------------------------------

_QUALITY_WORDS = {
    "en": {"major": "major", "minor": "minor"},
    "es": {"major": "mayor", "minor": "menor"},
    "fr": {"major": "majeur", "minor": "mineur"},
}


@dataclass(frozen=True)
class Triad:
    """A major or minor triad: root, third and fifth, as music21 spells them.

    Build one with :func:`triad`. Its tones sit from the root upward, the root in
    octave 3 (Do3 … Si3, scientific 4).

    >>> t = triad("G", "major")
    >>> t.root, t.third, t.fifth
    (Note.parse('Sol3'), Note.parse('Si3'), Note.parse('Re4'))
    >>> t.pitch_classes
    (7, 11, 2)
    """

    root: Note
    third: Note
    fifth: Note
    quality: str

    @property
    def tones(self) -> tuple[Note, Note, Note]:
        """Root, third and fifth, low to high."""
        return (self.root, self.third, self.fifth)

    @property
    def pitch_classes(self) -> tuple[int, int, int]:
        """The pitch classes (0 = C … 11 = B) of root, third and fifth."""
        return (self.root.pitch_class, self.third.pitch_class, self.fifth.pitch_class)

    @property
    def key_name(self) -> str:
        """The chord's key in music21's notation: ``'B-'`` (B♭ major), ``'c#'`` (C♯ minor).

        >>> triad("Bb").key_name, triad("C#", "minor").key_name
        ('B-', 'c#')
        """
        tonic = self.root.to_music21().name
        return tonic if self.quality == "major" else tonic.lower()

    def spell(self, pitch_class: int) -> Note:
        """The pitch class ``pitch_class`` (0 = C … 11 = B) spelled in the chord's key, octave 3.

        The chord's key is the major key of a major triad and the natural minor key of a
        minor one (B♭ major → B♭ major; F minor → F minor, four flats). Then:

        1. the chord's own tones are spelled exactly as the triad spells them;
        2. the other scale tones are spelled as the key signature spells them (as
           music21's ``key.Key(...).pitches``);
        3. a note outside the scale (chromatic) — the rule chosen here:

           * a **white key keeps its plain letter name**: E in E♭ major, C in C♯ minor,
             never F♭ or B♯ for a note outside the key;
           * a **black key is spelled as in the key's harmonic chromatic scale**, the usual
             textbook spelling of chromatic notes in a key, the same going up and down:
             degrees 1 ♭2 2 ♭3 3 4 ♯4 5 ♭6 6 ♭7 7 from the tonic. So flat keys get flats
             (G♭ in F major, D♭ in E♭ major), sharp keys sharps (A♯ in E major), and a minor
             key's raised sixth and seventh are the ones harmony books write (C♯, the
             leading tone of D minor; F♯ in G minor). C major gets D♭ E♭ F♯ A♭ B♭. The
             only sharps in a flat key are such raised degrees of its minor keys (C minor:
             F♯; D minor: C♯ F♯ G♯; G minor: C♯ F♯), never a tone of the chord or its scale.
           * Should that spelling need a double sharp or flat (only in keys beyond seven
             sharps or flats), the key signature's sign is used instead.

        "Octave 3" is the Franco-Belgian octave of the letter (Do3 = middle C), so B♯ is
        ``Si#3`` and C♭ is ``Dob3``; :meth:`spell_midi` spells a key at its own pitch.

        >>> bb = triad("Si♭", "major")
        >>> [bb.spell(pc).solfege for pc in (10, 2, 5, 3, 9)]   # chord tones, then scale tones
        ['Sib3', 'Re3', 'Fa3', 'Mib3', 'La3']
        >>> [bb.spell(pc).label("letters", octave=False) for pc in (1, 6, 8, 4)]  # chromatic
        ['D♭', 'G♭', 'A♭', 'E']
        >>> [triad("F", "minor").spell(pc).solfege for pc in (5, 8, 0)]
        ['Fa3', 'Lab3', 'Do3']
        >>> triad("D", "minor").spell(1).solfege     # the leading tone of D minor
        'Do#3'
        >>> triad("C").spell(12)
        Traceback (most recent call last):
        ...
        musicgames.theory.TriadError: pitch class 12 is not one of 0 (C) to 11 (B)
        """
        if isinstance(pitch_class, bool) or not isinstance(pitch_class, int):
            raise TriadError(f"pitch class {short_repr(pitch_class)} is not a whole number "
                             "from 0 to 11")
        if not 0 <= pitch_class <= 11:
            raise TriadError(f"pitch class {short_repr(pitch_class)} is not one of 0 (C) "
                             "to 11 (B)")
        step, alter = _key_spellings(self)[pitch_class]
        return Note(step, alter, 4)

    def spell_midi(self, midi: int) -> Note:
        """The piano key ``midi`` (60 = middle C) spelled in the chord's key, at its pitch.

        Spelled as :meth:`spell` spells its pitch class, with the octave that keeps the
        pitch: in C♯ minor, MIDI 72 (a C) is spelled ``Do4``, in C♯ major ``Si#3``.

        >>> triad("C#", "minor").spell_midi(72).solfege, triad("C#").spell_midi(72).solfege
        ('Do4', 'Si#3')
        """
        if isinstance(midi, bool) or not isinstance(midi, int) or not 0 <= midi <= 127:
            raise TriadError(f"MIDI key {short_repr(midi)} is not a whole number from 0 to 127")
        note = self.spell(midi % 12)
        return Note(note.step, note.alter, note.scientific_octave + (midi - note.midi) // 12)

    def tone_name(
        self,
        pitch_class: int,
        naming: Naming | str = Naming.SOLFEGE,
        *,
        octave: bool = False,
        language: str = "en",
    ) -> str:
        """The name of a pitch class (or, with ``octave=True``, of a MIDI key) in this chord.

        The words the pages show for a key or a tone in the chord's context: spelled by
        :meth:`spell`, written in either naming with real ♯ and ♭ signs, solfège as
        ``language`` spells it (ré in French).

        >>> eb = triad("Eb")
        >>> eb.tone_name(3), eb.tone_name(10, "letters"), eb.tone_name(70, octave=True)
        ('Mi♭', 'B♭', 'Si♭3')
        >>> triad("D").tone_name(2, language="fr")
        'ré'
        """
        if octave:
            return self.spell_midi(pitch_class).label(naming, language=language)
        return self.spell(pitch_class).label(naming, octave=False, language=language)

    def name(self, naming: Naming | str = Naming.LETTERS, language: str = "en") -> str:
        """The chord's name: root without octave, then the quality.

        English by default; ``language="es"`` gives the Spanish words, ``"fr"`` the French.

        >>> t = triad("D", "major")
        >>> t.name(), t.name(Naming.SOLFEGE, "es"), t.name(Naming.SOLFEGE, "fr")
        ('D major', 'Re mayor', 'ré majeur')
        """
        words = _QUALITY_WORDS.get(language)
        if words is None:
            known = ", ".join(repr(code) for code in _QUALITY_WORDS)
            raise TriadError(f"{short_repr(language)} is not a language here: use {known}")
        return f"{self.root.label(naming, octave=False, language=language)} {words[self.quality]}"

    def to_music21(self) -> object:
        """The triad as a ``music21.chord.Chord``."""
        load_music21()
        from music21.chord import Chord

        return Chord([n.to_music21() for n in self.tones])

    def __repr__(self) -> str:
        return f"triad({self.root.scientific[:-1]!r}, {self.quality!r})"

    def _repr_svg_(self) -> str | None:
        """The chord on a staff, as a notebook shows it (see :func:`draw_staves_with`)."""
        return None if _staff_drawing is None else _staff_drawing([list(self.tones)])


def triad(root: str | Note, quality: str = "major") -> Triad:
    """The major or minor triad on ``root``, built and checked by music21.

    ``root`` may be solfège or a letter name, with or without an octave (without one the
    root is placed in octave 3, around middle C).

    >>> triad("Mib", "major").tones
    (Note.parse('Mib3'), Note.parse('Sol3'), Note.parse('Sib3'))
    >>> triad("Do", "diminished")
    Traceback (most recent call last):
    ...
    musicgames.theory.TriadError: 'diminished' is not a triad quality here: use 'major' or 'minor'
    """
    if quality not in ("major", "minor"):
        raise TriadError(f"{short_repr(quality)} is not a triad quality here: "
                         "use 'major' or 'minor'")
    if isinstance(root, Note):
        root_note = root
    elif isinstance(root, str):
        root_note = _parse_name(root, octave_required=False)
    else:
        raise _bad(root, f"a {type(root).__name__} is not a note name")
    return _build_triad(root_note, quality)


#: The intervals above the root that make each quality of triad.
_TRIAD_INTERVALS = {"major": ("M3", "P5"), "minor": ("m3", "P5")}


@cache
def _build_triad(root: Note, quality: str) -> Triad:
    load_music21()
    from music21.chord import Chord
    from music21.interval import Interval

    bottom = root.to_music21()
    # music21 spells each interval above the root: a major third above E♭ is G, never F𝄪
    chord = Chord([bottom, *(Interval(name).transposePitch(bottom)
                             for name in _TRIAD_INTERVALS[quality])])
    tones = [Note(p.step, int(p.alter), _octave_of(p))
             for p in (chord.root(), chord.third, chord.fifth)]
    if chord.quality != quality:  # music21 is the judge of what it built
        raise TriadError(f"music21 built a {chord.quality} chord for {root.scientific} {quality}")
    return Triad(tones[0], tones[1], tones[2], quality)


_WHITE_PITCH_CLASSES = frozenset(_LETTER_PITCH_CLASS.values())
#: Harmonic chromatic scale: for each number of semitones above the tonic, how many letters.
_CHROMATIC_DEGREE = (0, 1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6)


def _alter_between(pitch_class: int, letter: str) -> int:
    """The alteration (−6…+5) that makes ``letter`` sound ``pitch_class``."""
    return (pitch_class - _LETTER_PITCH_CLASS[letter] + 6) % 12 - 6


@cache
def _key_spellings(chord: Triad) -> tuple[tuple[str, int], ...]:
    """(step, alter) for pitch classes 0…11 in the chord's key; see :meth:`Triad.spell`."""
    load_music21()
    from music21.key import Key

    key = Key(chord.key_name)
    spelled: dict[int, tuple[str, int]] = {}
    for pitch in key.pitches[:7]:
        spelled[pitch.pitchClass] = (pitch.step, int(pitch.alter))
    for tone in chord.tones:
        spelled[tone.pitch_class] = (tone.step, tone.alter)
    tonic = LETTERS.index(chord.root.step)
    for pc in range(12):
        if pc in spelled:
            continue
        if pc in _WHITE_PITCH_CLASSES:
            letter = LETTERS[[_LETTER_PITCH_CLASS[x] for x in LETTERS].index(pc)]
            spelled[pc] = (letter, 0)
            continue
        letter = LETTERS[(tonic + _CHROMATIC_DEGREE[(pc - chord.root.pitch_class) % 12]) % 7]
        alter = _alter_between(pc, letter)
        if abs(alter) != 1:  # beyond seven sharps or flats: the key signature's sign
            sign = 1 if key.sharps > 0 else -1
            letter = next(x for x in LETTERS if _alter_between(pc, x) == sign)
            alter = sign
        spelled[pc] = (letter, alter)
    return tuple(spelled[pc] for pc in range(12))


#: How notes and chords draw themselves on a staff in a notebook: :mod:`musicgames.render`
#: gives its :func:`~musicgames.render.staff_svg` when it is loaded (``import musicgames``
#: loads it), so the music model holds no drawing code and never imports it.
_staff_drawing: Callable[[list[Any]], str] | None = None


def draw_staves_with(draw: Callable[[list[Any]], str]) -> None:
    """Let notes and chords show themselves in a notebook as the staff ``draw`` engraves
    (``draw`` is given a list of notes, or a list holding a chord's notes as one list).

    >>> import musicgames.render
    >>> Note.parse("Sol3")._repr_svg_() == musicgames.render.staff_svg("Sol3")
    True
    """
    global _staff_drawing
    _staff_drawing = draw


_MAJOR_ROOTS = ("C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B")
_MINOR_ROOTS = ("C", "C#", "D", "Eb", "E", "F", "F#", "G", "G#", "A", "Bb", "B")

@cache
def _all_triads() -> tuple[Triad, ...]:
    """The 24 major and minor triads, built on first use (music21 takes a moment to load)."""
    return tuple(triad(root, "major") for root in _MAJOR_ROOTS) + tuple(
        triad(root, "minor") for root in _MINOR_ROOTS
    )

if TYPE_CHECKING:
    #: The 24 major and minor triads: the 12 major ones from C upward, then the 12 minor ones,
    #: roots spelt as in their usual key signatures. Built on first use, so importing this
    #: module does not load music21.
    ALL_TRIADS: tuple[Triad, ...]


def __getattr__(name: str) -> tuple[Triad, ...]:
    """``ALL_TRIADS`` is built when first asked for (``import musicgames`` stays light).

    >>> from musicgames.theory import ALL_TRIADS
    >>> len(ALL_TRIADS), ALL_TRIADS[0], ALL_TRIADS[12]
    (24, triad('C', 'major'), triad('C', 'minor'))
    """
    if name == "ALL_TRIADS":
        return _all_triads()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
