"""The note drill: a note on the staff, the student names it; notes they miss come back.

The student answers by clicking a name, pressing keys 1–7 (1 = Do/C … 7 = Si/B), or clicking
the note's key on the keyboard. Right or wrong is shown at once, with the right answer and
why, in the lessons' words. The questions follow the spaced schedule of
:mod:`musicgames.drill`: given the student's progress store it starts with the notes due for
review, then new ones; missed or slow notes come back sooner. A session lasts a number of
questions or a time; a summary ends it.

The rules live here; the page (``note_drill.js``) draws what it is sent and reports what the
student did. It times each answer itself: when a note arrives it is put on the page, then in
the next ``requestAnimationFrame`` the time is read with ``performance.now()``; the time of the
click or key press minus that is sent as ``response_ms``.

A name counts as right when it is the note's name (any octave: the names have no octave
numbers); a key on the keyboard counts as right only when it is that very key (the octave
matters there). A note played on a MIDI keyboard or heard by the microphone
(``via: "played"``, :mod:`musicgames.widgets._playing`) answers exactly as a click on that
key does, unless the student chose "any octave"; the microphone's note is first taken back
to the written one for a transposing instrument.

The page's messages can be fed in by hand, which is how the tests drive the widget:

>>> drill = NoteDrill(["Sol3", "Fa3"], questions=2, seed=1)
>>> drill.receive({"type": "start"})
>>> drill.question["number"], drill.current.solfege
(1, 'Fa3')
>>> drill.receive({"type": "answer", "number": 1, "via": "name", "value": 3,
...                "response_ms": 850.0})
>>> drill.feedback["correct"], drill.feedback["answer"]
(True, 'Fa')
>>> drill.receive({"type": "next", "number": 1})
>>> drill.receive({"type": "answer", "number": 2, "via": "keyboard", "value": 5,
...                "response_ms": 1200.0})
>>> drill.feedback["correct"], drill.feedback["given"], drill.feedback["answer"]
(False, 'Fa3', 'Sol3')
>>> drill.receive({"type": "next", "number": 2})
>>> drill.phase, drill.summary["asked"], drill.summary["right"]
('over', 2, 1)

Played on a MIDI keyboard (60 = Do3, as in the Franco-Belgian naming):

>>> drill = NoteDrill(["Sol3"], questions=1, seed=1)
>>> drill.receive({"type": "start"})
>>> drill.receive({"type": "answer", "number": 1, "via": "played", "midi": 67,
...                "source": "midi", "response_ms": 900.0})
>>> drill.feedback["correct"], drill.feedback["given"], drill.feedback["given_key"]
(True, 'Sol3', 7)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import traitlets

from musicgames.drill import DEFAULT_SLOW_MS, DrillSummary
from musicgames.i18n import catalogue
from musicgames.lessons.facts import named_why, named_wrong, nearest_named
from musicgames.progress.sink import ProgressSink
from musicgames.render import keyboard_svg, staff_svg
from musicgames.shown import short_repr
from musicgames.sound import notes, sound_strings
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, SYLLABLES_BY_LANGUAGE, Naming, Note
from musicgames.widgets._assets import joined
from musicgames.widgets._playing import playing_strings, same_note
from musicgames.widgets._practice import (
    STAFF_SIZE,
    Judged,
    MessageError,
    PracticeWidget,
    SettingsError,
    response_time,
    staff_height,
    whole_number,
)

__all__ = [
    "ANSWER_WAYS",
    "ASK_WAYS",
    "MessageError",
    "NoteDrill",
    "ProgressSink",
    "SettingsError",
]

#: The ways to answer: name buttons (and keys 1–7), and the keyboard.
ANSWER_WAYS: tuple[str, ...] = ("names", "keyboard")
#: The ways to ask: the note on the staff, or only its sound ("name what you hear").
ASK_WAYS: tuple[str, ...] = ("staff", "ear")


def names_for(naming: Naming, language: str = "en") -> list[str]:
    """The seven answer names in scale order, in the naming system chosen (solfège as the
    language spells it: ré in French)."""
    if naming is Naming.LETTERS:
        return list(LETTERS)
    return list(SYLLABLES_BY_LANGUAGE.get(language, SYLLABLES))


def keyboard_span(notes: Iterable[Note]) -> tuple[Note, int]:
    """The C to start a keyboard on and how many octaves it needs to show ``notes``."""
    midis = [n.midi for n in notes]
    low = min(midis) - min(midis) % 12
    octaves = (max(midis) - low) // 12 + 1
    return Note.parse(low), octaves


class NoteDrill(PracticeWidget[Note]):
    """A drill of note reading on the treble staff.

    * ``notes`` — the notes to ask (default: the 15 card notes Do3–Do5);
    * ``naming`` — names in solfège (Do Re Mi) or letters (C D E); ``language`` — 'en'/'es'/'fr';
    * ``questions`` / ``seconds`` — the session's length: a number of questions, a time, or
      both (whichever ends first);
    * ``answer_with`` — ``"names"`` (buttons and keys 1–7), ``"keyboard"``, or both;
    * ``ask`` — ``"staff"``: the note is shown on the staff (and can be heard on demand);
      ``"ear"``: name what you hear — the note is only played (again on demand), and shown
      on the staff after the answer. Ear answers are their own items in the progress file
      (``"ear:Sol3"``). In both, the note is played after each answer;
    * ``progress`` — a :class:`musicgames.progress.ProgressStore`: each answer is stored;
    * ``seed`` — the same questions every time; ``slow_ms`` — a right answer slower than
      this counts as hard (the note comes back sooner); ``clock`` — seconds, for timed
      sessions (tests pass a fake one);
    * ``staff_size`` — the staff's height in pixels (a lesson passes its Size setting's).
    * ``intro`` — what this session practises, said before Start (a lesson says what its
      exercise is about); without it, the drill's own words.

    Each answer is explained as the lessons explain it: where the note sits ("La3 sits in
    the 2nd space."), and for a wrong answer where the chosen note would sit and how far
    from it this one is (:mod:`musicgames.lessons.facts`).
    """

    _esm = joined("_dom.js", "_focus.js", "_sound.js", "_midi.js", "vendor/fft.js",
                  "vendor/pitchy.js", "_microphone.js", "_play_input.js", "_practice.js",
                  "note_drill.js")
    _css = joined("_focus.css", "_sound.css", "_play_input.css", "_practice.css",
                  "note_drill.css")
    _title = "note drill"
    _activity = "drill"

    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    keyboard = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        notes: Iterable[Note | str | int] = CARD_NOTES,
        *,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
        questions: int | None = 20,
        seconds: float | None = None,
        answer_with: Iterable[str] = ANSWER_WAYS,
        ask: str = "staff",
        progress: ProgressSink | None = None,
        seed: int | None = None,
        slow_ms: float = DEFAULT_SLOW_MS,
        clock: Callable[[], float] = time.monotonic,
        staff_size: int = STAFF_SIZE,
        intro: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.staff_size = staff_height(staff_size)
        self.notes: tuple[Note, ...] = tuple(dict.fromkeys(Note.parse(n) for n in notes))
        if not self.notes:
            raise SettingsError("notes is empty: give at least one note to ask")
        self.naming = Naming(naming)
        self.language = language
        ways = tuple(answer_with)
        unknown = [w for w in ways if w not in ANSWER_WAYS]
        if unknown or not ways:
            raise SettingsError(
                f"answer_with {ways!r}: choose from {', '.join(ANSWER_WAYS)} (at least one)"
            )
        self.answer_with = ways
        if ask not in ASK_WAYS:
            raise SettingsError(f"ask {ask!r}: use 'staff' (read the note) or 'ear' (hear it)")
        self.ask = ask
        self._setup_session(
            self.notes,
            questions=questions,
            seconds=seconds,
            slow_ms=slow_ms,
            seed=seed,
            progress=progress,
            clock=clock,
        )
        self._lowest, octaves = keyboard_span(self.notes)
        self.strings = {**catalogue(language, "drill."), **sound_strings(language),
                        **playing_strings(language),
                        **catalogue(language, "language.")}  # the code: numbers and plurals
        self._say_intro(intro, "drill", language)
        self.names = names_for(self.naming, self.language)
        if "keyboard" in ways:
            self.keyboard = str(keyboard_svg(octaves, lowest=self._lowest, width=190 * octaves))
        self.options = {
            "answer_with": list(ways),
            "ask": ask,
            "questions": questions,
            "seconds": seconds,
            "right_pause_ms": 700,
            "wrong_pause_ms": 4000,  # time to read why (Enter goes on at once)
        }
        self._publish_score()
        self.on_msg(self._on_page_message)

    def drill_summary(self) -> DrillSummary[Note]:
        """The summary of the session so far."""
        return self.session.summary()

    # -- the drill's questions, answers and summary ---------------------------------------
    def _question_for(
        self, note: Note, *, number: int, total: int | None, remaining_s: float | None
    ) -> dict[str, Any]:
        by_ear = self.ask == "ear"
        return {
            "number": number,
            "svg": "" if by_ear else self._staff(note),
            "sound": notes([note]),
            "total": total,
            "remaining_s": remaining_s,
        }

    def _judge(self, note: Note, number: int, content: Mapping[str, Any]) -> Judged:
        via = content.get("via")
        value = 0 if via == "played" else whole_number(content, "value")
        ms = response_time(content)
        if via in ("name", "key"):
            if "names" not in self.answer_with:
                raise MessageError("this drill is answered on the keyboard")
            if not 0 <= value < 7:
                raise MessageError(f"name number {value} is not between 0 and 6")
            given = self.names[value]
            stored = SYLLABLES[value]
            correct = LETTERS[value] == note.step
            given_key = None
            chosen = nearest_named(LETTERS[value], note)  # where that name would put it
        elif via in ("keyboard", "played"):
            any_octave = False
            if via == "played":  # a MIDI keyboard or the microphone: the note it stands for
                midi, any_octave = self._written_played(content)
            elif "keyboard" not in self.answer_with:
                raise MessageError("this drill is answered with the names")
            elif not 0 <= value < self._keyboard_keys():
                raise MessageError(f"key {value} is not on the keyboard")
            else:
                midi = self._lowest.midi + value
            correct = same_note(note, midi, any_octave=any_octave)
            if any_octave:  # shown in the asked note's octave, where it is compared
                midi = note.midi + (midi - note.midi + 6) % 12 - 6
            key = Note.parse(midi)
            given = key.label(self.naming, language=self.language)
            stored = key.solfege
            given_key = midi - self._lowest.midi
            if not 0 <= given_key < self._keyboard_keys():
                given_key = None  # played off the keyboard on the page
            chosen = key
        else:
            raise MessageError(
                f"via {short_repr(via)} is not 'name', 'key', 'keyboard' or 'played'"
            )
        by_name = via in ("name", "key")
        feedback = {
            "number": number,
            "correct": correct,
            "given": given,
            "given_key": given_key,
            "answer": note.label(self.naming, octave=not by_name, language=self.language),
            "name_index": LETTERS.index(note.step),
            "key": note.midi - self._lowest.midi,
            "response_ms": ms,
            "sound": notes([note]),
            "explain": named_why(note, self.language, self.naming)
            if correct
            else named_wrong(note, chosen, self.language, self.naming),
        }
        if self.ask == "ear":  # after the answer, the note heard is shown on the staff
            feedback["svg"] = self._staff(note)
        return Judged(stored, correct, ms, feedback)

    def _keyboard_keys(self) -> int:
        return keyboard_span(self.notes)[1] * 12

    def _summary_rows(self, summary: DrillSummary[Note]) -> dict[str, Any]:
        rows = [
            {
                "label": self._label(row.item),
                "asked": row.asked,
                "right": row.right,
                "median_ms": row.median_ms,
            }
            for row in summary.items
        ]
        practise = list(summary.to_practise)
        return {
            "rows": rows,
            "practise": [self._label(n) for n in practise],
            "practise_svg": "".join(self._practise_staff(n) for n in practise[:8]),
        }

    def _staff(self, note: Note) -> str:
        """A question's note on the staff (and an ear question's, once answered)."""
        return str(staff_svg(note, size=self.staff_size))

    def _practise_staff(self, note: Note) -> str:
        """A note to practise, in the summary: on a smaller staff of its own, named (one
        staff per note, so that every drawing the summary can show is known ahead)."""
        return str(staff_svg(note, size=self.staff_size * 110 // 130, labels=self.naming,
                             language=self.language))

    def staves(self) -> list[str]:
        return [drawing for note in self.notes
                for drawing in (self._staff(note), self._practise_staff(note))]

    def _progress_item(self, note: Note) -> str:
        # Naming a note heard is another skill than reading it: its own item (and memory).
        return f"ear:{note.solfege}" if self.ask == "ear" else note.solfege

    def _label(self, note: Note) -> str:
        return note.label(self.naming, language=self.language)

    def __repr__(self) -> str:
        return (
            f"NoteDrill({len(self.notes)} notes, naming={self.naming.value!r}, "
            f"phase={self.phase!r}, answered={len(self.session.results)})"
        )
