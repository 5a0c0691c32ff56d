"""Answering by playing: how a student answers (click, MIDI keyboard, microphone), and what a
played note stands for.

Every widget that asks for a note (the note drill, the chord quiz, the lessons' exercises
that ask for a note) has the same small switch: **Click**, **MIDI keyboard** or
**Microphone**. The page only reports what was played (a MIDI number, and whether it came
from the keyboard or the microphone); the kernel turns it into the written note and judges
it, exactly as it judges a click on that key.

The settings, :class:`Playing`, are the student's own: they are kept in the student's
progress file (so they follow the student from one computer of the class to another and
from one widget to the next), and a widget without a progress file keeps them for as long
as it lives. Which MIDI keyboard to listen to belongs to the computer, not to the student:
the page remembers it by name in the browser.

* **Any octave** — a note counts whatever octave it is played in. Off by default for a MIDI
  keyboard (a small keyboard may turn it on), on by default for the microphone (voices and
  many instruments sound in other octaves than written).
* **Instrument** — a transposing instrument sounds another note than the one written: a
  B♭ clarinet reading Do3 (C4) sounds Si♭2 (B♭3). The microphone hears the sounding pitch;
  the kernel takes it back to the written note, so the clarinettist plays what they read.
  A MIDI keyboard is a piano (in C): it is never transposed.
* **A4** — the tuning the microphone listens against, 415 to 446 Hz (440 by default).

>>> playing = Playing(instrument="Bb")
>>> Note.parse(playing.written(58, "microphone")).solfege   # heard Si♭2: the written Do3
'Do3'
>>> playing.written(58, "midi")                            # a keyboard is not transposed
58
>>> same_note(Note.parse("Do3"), 72, any_octave=True), same_note(Note.parse("Do3"), 72)
(True, False)
"""

from __future__ import annotations

import json
import math
import weakref
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import traitlets

from musicgames.i18n import catalogue
from musicgames.shown import short_repr
from musicgames.theory import Naming, Note
from musicgames.widgets._messages import MessageError

__all__ = [
    "A4_RANGE",
    "CHORD_WINDOW_MS",
    "INPUTS",
    "INSTRUMENTS",
    "SETTINGS_KEY",
    "SOURCES",
    "Playing",
    "PlayingInput",
    "heard_names",
    "played_midi",
    "playing_strings",
    "remember_playing",
    "remembered_playing",
    "same_note",
]

#: The ways to answer, in the switch's order: Click is the default.
INPUTS: tuple[str, ...] = ("click", "midi", "microphone")
#: Where a played note comes from.
SOURCES: tuple[str, ...] = ("midi", "microphone")
#: Instruments by the key they are in, and how far their sounding pitch lies from the
#: written one, in half steps: C (piano, flute, violin, voice) as written; B♭ (clarinet,
#: trumpet) a major second lower; E♭ (alto saxophone) a major sixth lower; F (horn) a
#: perfect fifth lower.
INSTRUMENTS: dict[str, int] = {"C": 0, "Bb": -2, "Eb": -9, "F": -7}
#: The tunings the microphone accepts for A4, in hertz.
A4_RANGE: tuple[float, float] = (415.0, 446.0)
#: A chord is played when its three tones are struck within this many milliseconds.
CHORD_WINDOW_MS = 300
#: The name the settings are kept under in the student's progress file.
SETTINGS_KEY = "playing"


@dataclass(frozen=True)
class Playing:
    """How the student answers: ``input`` (one of :data:`INPUTS`), any octave for each
    source, the ``instrument`` (a key of :data:`INSTRUMENTS`) and the tuning ``a4`` (Hz)."""

    input: str = "click"
    any_octave_midi: bool = False
    any_octave_microphone: bool = True
    instrument: str = "C"
    a4: float = 440.0

    def __post_init__(self) -> None:
        if self.input not in INPUTS:
            raise MessageError(f"input {short_repr(self.input)} is not one of {', '.join(INPUTS)}")
        for name in ("any_octave_midi", "any_octave_microphone"):
            if not isinstance(getattr(self, name), bool):
                raise MessageError(f"{name} {short_repr(getattr(self, name))} is not true or false")
        if self.instrument not in INSTRUMENTS:
            raise MessageError(
                f"instrument {short_repr(self.instrument)} is not one of {', '.join(INSTRUMENTS)}"
            )
        a4 = self.a4
        low, high = A4_RANGE
        if (
            isinstance(a4, bool)
            or not isinstance(a4, (int, float))
            or not math.isfinite(a4)
            or not low <= a4 <= high
        ):
            said = f"{a4:g}" if isinstance(a4, float) else short_repr(a4)
            raise MessageError(f"a4 {said} is not a tuning from {low:g} to {high:g} Hz")

    @classmethod
    def from_dict(cls, values: object, base: Playing | None = None) -> Playing:
        """Settings from a dict (the page's message, or the progress file), each field
        checked; fields left out keep ``base``'s (or the defaults). Unknown fields are
        refused.

        >>> Playing.from_dict({"input": "midi"}).input
        'midi'
        >>> Playing.from_dict({"a4": 500})
        Traceback (most recent call last):
        ...
        musicgames.widgets._messages.MessageError: a4 500 is not a tuning from 415 to 446 Hz
        """
        if not isinstance(values, Mapping):
            raise MessageError("the settings are not a set of named values")
        known = set(asdict(cls()))
        unknown = [str(k) for k in values if k not in known]
        if unknown:
            raise MessageError(f"unknown setting {', '.join(sorted(unknown))}")
        fields = {str(k): v for k, v in values.items()}
        if isinstance(fields.get("a4"), int) and not isinstance(fields.get("a4"), bool):
            fields["a4"] = float(fields["a4"])
        return replace(base or cls(), **fields)

    def to_dict(self) -> dict[str, Any]:
        """The settings as the page and the progress file keep them."""
        return asdict(self)

    def any_octave(self, source: str) -> bool:
        """Whether a note from ``source`` counts in any octave."""
        return self.any_octave_midi if source == "midi" else self.any_octave_microphone

    def written(self, midi: int, source: str) -> int:
        """The written note (MIDI number) a note played on ``source`` stands for: the
        microphone hears the sounding pitch of a transposing instrument and takes it back
        to the written one; a MIDI keyboard is a piano, never transposed."""
        if source != "microphone":
            return midi
        written = midi - INSTRUMENTS[self.instrument]
        return written if 0 <= written <= 127 else midi


def same_note(asked: Note, played: int, *, any_octave: bool = False) -> bool:
    """Whether the piano key ``played`` (a MIDI number) is the note ``asked``: the very key,
    or with ``any_octave`` the same pitch class in any octave."""
    if any_octave:
        return played % 12 == asked.pitch_class
    return played == asked.midi


def played_midi(content: Mapping[str, Any], key: str = "midi") -> int:
    """A MIDI note number from a page message, checked: a whole number from 0 to 127."""
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 127:
        raise MessageError(f"{key} {short_repr(value)} is not a MIDI note from 0 to 127")
    return value


def played_source(content: Mapping[str, Any]) -> str:
    """Where a played note came from (``"midi"`` or ``"microphone"``), checked."""
    source = content.get("source")
    if source not in SOURCES:
        raise MessageError(f"source {short_repr(source)} is not 'midi' or 'microphone'")
    return str(source)


def remembered_playing(progress: object) -> Playing:
    """The student's settings from their progress file (the defaults when there is none, it
    keeps none, or what it keeps cannot be used)."""
    read = getattr(progress, "setting", None)
    if not callable(read):
        return Playing()
    try:
        kept = read(SETTINGS_KEY)
        return Playing() if kept is None else Playing.from_dict(json.loads(kept))
    except Exception:  # unreadable, or settings this version cannot use: the defaults
        return Playing()


def remember_playing(progress: object, playing: Playing) -> bool:
    """Keep the settings in the student's progress file; whether they were kept."""
    write = getattr(progress, "save_setting", None)
    if not callable(write):
        return False
    write(SETTINGS_KEY, json.dumps(playing.to_dict(), sort_keys=True))
    return True


def heard_names(playing: Playing, naming: Naming | str, language: str) -> list[str]:
    """What the page names each heard pitch (MIDI 0–127) as: the written note it stands for
    on the student's instrument, with its octave, in the widget's naming.

    >>> heard_names(Playing(), "solfege", "fr")[60]
    'do3'
    >>> heard_names(Playing(instrument="Bb"), "letters", "en")[58]   # a clarinet's B♭3
    'C4'
    """
    names = []
    for midi in range(128):
        written = playing.written(midi, "microphone")
        names.append(Note.parse(written).label(naming, language=language))
    return names


def playing_strings(language: str) -> dict[str, str]:
    """The switch's words in ``language``."""
    return catalogue(language, "play.")


def playing_options() -> dict[str, Any]:
    """What the page needs to know of the rules it shows (never to judge with)."""
    return {
        "inputs": list(INPUTS),
        "instruments": list(INSTRUMENTS),
        "a4_range": list(A4_RANGE),
        "chord_window_ms": CHORD_WINDOW_MS,
    }


class PlayingInput(traitlets.HasTraits):
    """What a widget that can be answered by playing keeps: the student's :class:`Playing`
    (trait ``playing``, with what the page needs to draw the switch) and, for the
    microphone, the name of each pitch it may hear (trait ``heard``)."""

    playing = traitlets.Dict().tag(sync=True)
    heard = traitlets.List(traitlets.Unicode()).tag(sync=True)

    _answering: Playing | None = None
    _answering_store: object = None
    _answering_naming: Naming = Naming.SOLFEGE
    _answering_language: str = "en"

    def _setup_playing(self, progress: object, naming: Naming | str, language: str) -> None:
        """Take up the student's settings from ``progress`` (their progress file)."""
        self._answering_store = progress
        if progress is not None:
            _OPEN.add(self)
        self._answering_naming = Naming(naming)
        self._answering_language = language
        self._publish_playing(remembered_playing(progress))

    @property
    def answering(self) -> Playing:
        """How the student answers now."""
        return self._answering or Playing()

    def set_playing(self, values: object) -> None:
        """Change how the student answers (the switch on the page does this): the fields
        given are checked, kept for the student, and shown. Refused settings change
        nothing (:class:`MessageError`)."""
        playing = Playing.from_dict(values, self.answering)
        self._publish_playing(playing)
        # the student's other widgets open now show it too, and whether it was kept
        others = [other for other in list(_OPEN)
                  if other is not self and other._answering_store is self._answering_store]
        for other in others:
            other._publish_playing(playing)
        try:
            kept = remember_playing(self._answering_store, playing)
        except Exception as err:  # a file that cannot be written: the widget works on
            for widget in (self, *others):
                widget._playing_not_kept(err)
        else:
            if kept:
                for widget in (self, *others):
                    widget._playing_kept()

    def _playing_not_kept(self, err: BaseException) -> None:
        """The settings could not be written to the progress file."""

    def _playing_kept(self) -> None:
        """The settings were written to the progress file."""

    def _publish_playing(self, playing: Playing) -> None:
        before = self._answering
        self._answering = playing
        listens = playing.input == "microphone"
        if listens and (not self.heard or before is None
                        or before.instrument != playing.instrument):
            self.heard = heard_names(playing, self._answering_naming, self._answering_language)
        self.playing = {**playing.to_dict(), **playing_options()}

    def _written_played(self, content: Mapping[str, Any]) -> tuple[int, bool]:
        """The written note (MIDI) of a played note's message, and whether any octave
        counts for it."""
        midi = played_midi(content)
        source = played_source(content)
        playing = self.answering
        return playing.written(midi, source), playing.any_octave(source)


#: The widgets open now that keep their settings in a progress file.
_OPEN: weakref.WeakSet[PlayingInput] = weakref.WeakSet()
