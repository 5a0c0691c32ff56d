"""What the widgets play: frequencies as music21 gives them, sent to the page, which makes the
sound.

The sound itself is made in the browser, with the Web Audio API (``widgets/_sound.js``): a short
piano-like tone, nothing fetched from anywhere. Python only says *what* to play, as a small
dict a widget puts in a trait or a message: the frequencies in hertz, equal temperament with
A4 = 440 Hz, computed as music21 computes them (without loading music21, which costs a
classroom kernel half a second at start), and whether a chord is played together or one tone
after another. Without a browser (a notebook run headless) nothing plays and nothing fails.

>>> frequency("La3"), round(frequency("Do3"), 2)        # A4 and middle C (Do3 = C4)
(440.0, 261.63)
>>> from musicgames.theory import triad
>>> chord(triad("Do"), broken=True)
{'hz': [261.63, 329.63, 392.0], 'broken': True}
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from musicgames.i18n import catalogue
from musicgames.theory import Note, Triad

__all__ = ["A4_HZ", "Sound", "chord", "frequency", "midi_frequency", "notes", "sound_strings"]

#: The tuning: A4 (La3) in hertz, equal temperament.
A4_HZ = 440.0
#: A semitone's ratio in equal temperament (music21's ``TWELFTH_ROOT_OF_TWO``).
SEMITONE = 2.0 ** (1 / 12)

#: What the page is asked to play: ``{"hz": [...], "broken": bool}``.
Sound = dict[str, Any]


def frequency(note: Note | str | int) -> float:
    """The frequency in hertz of a note (a Note, a name such as ``"Sol3"``, or MIDI).

    Equal temperament with A4 = 440 Hz, as music21's ``Pitch.frequency`` computes it (the
    same number: the tests compare every key); spelling does not change it: ``Fa#3`` and
    ``Solb3`` sound the same.

    >>> frequency("Fa#3") == frequency("Solb3"), round(frequency("Do5"), 2)
    (True, 1046.5)
    """
    if isinstance(note, int) and not isinstance(note, bool) and 0 <= note <= 127:
        midi = note  # a piano key: no spelling needed
    else:
        midi = Note.parse(note).midi
    return A4_HZ * SEMITONE ** (float(midi) - 69)


@lru_cache(maxsize=128)
def midi_frequency(midi: int) -> float:
    """The frequency of the piano key ``midi`` (60 = middle C), as music21 gives it, to 0.01 Hz.

    >>> midi_frequency(69), midi_frequency(60)
    (440.0, 261.63)
    """
    return round(frequency(midi), 2)


def notes(
    items: Iterable[Note | str | int],
    *,
    broken: bool = False,
    level: float | None = None,
    length: float | None = None,
) -> Sound:
    """Notes to play together (or one after another when ``broken``), rounded to 0.01 Hz.

    ``level`` (0–1) makes it softer than the widget's volume (a soft chord: 0.4), and
    ``length`` holds each tone that many seconds before it is released (default about 1 s).

    >>> notes(["Do3"])
    {'hz': [261.63], 'broken': False}
    >>> notes(["Do3", "Mi3"], level=0.4, length=0.3)
    {'hz': [261.63, 329.63], 'broken': False, 'level': 0.4, 'length': 0.3}
    """
    sound: Sound = {"hz": [round(frequency(n), 2) for n in items], "broken": broken}
    if level is not None:
        if not 0 <= level <= 1:
            raise ValueError(f"level={level!r}: a sound's level goes from 0 to 1")
        sound["level"] = level
    if length is not None:
        if not 0 < length <= 10:
            raise ValueError(f"length={length!r}: hold a tone for 0 to 10 seconds")
        sound["length"] = length
    return sound


def chord(
    triad: Triad, *, broken: bool = False, level: float | None = None, length: float | None = None
) -> Sound:
    """A triad's three tones (root, third, fifth from octave 3), together or broken."""
    return notes(triad.tones, broken=broken, level=level, length=length)


def sound_strings(language: str) -> dict[str, str]:
    """The words of the sound control (mute, volume, the first-click note), for a page.

    >>> sound_strings("es")["sound.mute"]
    'Silenciar'
    """
    return catalogue(language, "sound.")
