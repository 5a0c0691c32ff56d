"""The chord-tones quiz: find a triad's tones on the keyboard, or name the triad shown.

Three kinds of question (``mode``):

* ``"find"`` — the quiz names a triad ("D major"); the student clicks its three tones on the
  keyboard, in any octave and any order — or plays them together on a MIDI keyboard (struck
  within :data:`~musicgames.widgets._playing.CHORD_WINDOW_MS` of each other, any voicing),
  or one after another to the microphone. Right when the three notes are exactly the
  chord's root, third and fifth (by pitch class: :func:`is_chord`).
* ``"name"`` — the quiz shows a triad on the staff; the student picks its name from a few
  choices (click, or keys 1–4). The wrong choices are the chords easiest to mix it up with:
  the same root with the other quality, and chords sharing two of its tones.
* ``"ear"`` — major or minor? By ear only: the page plays the triad (nothing is shown) and
  the student picks "major" or "minor" (click, or keys 1–2); the chord can be heard again,
  together or broken.
* ``"mixed"`` (the default) — "find" or "name", at random.

Every question can be heard on demand, block and broken (``question["sound"]``), and the
chord is played after each answer (``feedback["sound"]``); the page makes the sound.

Right or wrong is shown at once, with the chord's tones coloured on the keyboard (root,
third, fifth). Chords the student misses or answers slowly come back sooner (the spaced
schedule of :mod:`musicgames.drill`, from the student's progress when given a store).
A session lasts a number of questions or a time, and ends
in a summary. Response times are measured in the page, as in the note drill.

>>> quiz = ChordTonesQuiz(["D major"], mode="find", questions=1, seed=1)
>>> quiz.receive({"type": "start"})
>>> quiz.question["prompt"]
'Click the three notes of Re major'
>>> quiz.receive({"type": "answer", "number": 1, "keys": [2, 6, 9], "response_ms": 2400})
>>> quiz.feedback["correct"], quiz.feedback["tones"]
(True, 'Re – Fa♯ – La')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any

from musicgames.drill import DrillSummary
from musicgames.i18n import catalogue, text
from musicgames.lessons.facts import chord_third_words, heard_words
from musicgames.progress.sink import ProgressSink
from musicgames.render import keyboard_svg, staff_svg
from musicgames.shown import short_repr
from musicgames.sound import chord as sound_chord
from musicgames.sound import sound_strings
from musicgames.theory import ALL_TRIADS, LETTERS, Naming, Note, Triad, TriadError, triad
from musicgames.widgets._assets import joined
from musicgames.widgets._playing import playing_strings
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

__all__ = ["DEFAULT_CHORDS", "ChordTonesQuiz", "QuizMode", "is_chord", "name_choices"]

#: A right answer slower than this counts as hard: the chord comes back sooner.
DEFAULT_SLOW_MS = 8000.0
#: The major and minor triads on the seven natural roots, C (Do) to B (Si).
DEFAULT_CHORDS: tuple[Triad, ...] = tuple(
    triad(letter, quality) for quality in ("major", "minor") for letter in LETTERS
)
_KEYBOARD_OCTAVES = 2
#: The answers of an "ear" question, in the order of their buttons (keys 1 and 2).
_QUALITIES: tuple[str, str] = ("major", "minor")


#: The page's keyboard starts on Do3 (MIDI 60).
_LOWEST_KEY = 60


def is_chord(chord: Triad, midis: Iterable[int]) -> bool:
    """Whether the notes (MIDI numbers, any octave, any voicing, in any order, doubled or
    not) are exactly the chord's tones: the same pitch classes as its root, third and
    fifth. A click on three keys and a chord played on a MIDI keyboard are judged here.

    >>> is_chord(triad("D"), [62, 66, 69]), is_chord(triad("D"), [78, 50, 57])
    (True, True)
    >>> is_chord(triad("D"), [62, 65, 69]), is_chord(triad("D"), [62, 74, 66])
    (False, False)
    """
    return {m % 12 for m in midis} == set(chord.pitch_classes)


def _on_keyboard(midi: int) -> int:
    """Where a played note shows on the page's keyboard: its own key when the keyboard has
    it, else the key of its name in the keyboard's first octave."""
    key = midi - _LOWEST_KEY
    return key if 0 <= key < 12 * _KEYBOARD_OCTAVES else midi % 12


class QuizMode(str, Enum):
    """What the student does: find the tones, name the chord, or either."""

    FIND = "find"
    NAME = "name"
    EAR = "ear"
    MIXED = "mixed"


def _as_triad(chord: Triad | str) -> Triad:
    if isinstance(chord, Triad):
        return chord
    if not isinstance(chord, str):
        raise SettingsError(f"{chord!r} is not a triad or a name like 'D major'")
    root, _, quality = chord.strip().partition(" ")
    try:
        return triad(root, quality.strip() or "major")
    except (TriadError, ValueError) as err:
        raise SettingsError(f"{chord!r} is not a triad: {err}") from None


def name_choices(
    answer: Triad, pool: Iterable[Triad], rng: random.Random, count: int
) -> list[Triad]:
    """``count`` chords to choose from, the answer among them, in random order.

    The others are the chords most like the answer: the same root with the other quality
    first, then those sharing two tones, then one; ties are broken at random.

    >>> picks = name_choices(triad("C"), ALL_TRIADS, random.Random(0), 4)
    >>> sorted(t.name() for t in picks)
    ['A minor', 'C major', 'C minor', 'E minor']
    """
    target = set(answer.pitch_classes)
    seen = {frozenset(target)}
    scored = []
    for chord in pool:
        tones = frozenset(chord.pitch_classes)
        if tones in seen:
            continue
        seen.add(tones)
        parallel = chord.root.pitch_class == answer.root.pitch_class
        shared = len(target & tones)
        scored.append((not parallel, -shared, rng.random(), chord))
    scored.sort(key=lambda row: row[:3])
    picks = [answer] + [row[3] for row in scored[: count - 1]]
    rng.shuffle(picks)
    return picks


class ChordTonesQuiz(PracticeWidget[Triad]):
    """A quiz on major and minor triads: find their tones, or name them.

    * ``chords`` — triads (or names like ``"D major"``) to ask; default :data:`DEFAULT_CHORDS`;
    * ``mode`` — ``"find"``, ``"name"`` or ``"mixed"``; ``choices`` — names offered (2–6);
    * ``naming``, ``language``, ``questions``, ``seconds``, ``progress``, ``seed``,
      ``slow_ms``, ``clock``, ``staff_size``, ``intro`` — as for
      :class:`~musicgames.widgets.NoteDrill`.

    Each answer is explained as the lessons explain it (:mod:`musicgames.lessons.facts`):
    the chord's quality by its third ("Re major: from Re to Fa♯ is 4 half steps: a major
    third."), a wrong key a half step from a chord tone as such, and a chord heard by why
    it sounds bright or dark.
    """

    _esm = joined("_dom.js", "_focus.js", "_sound.js", "_midi.js", "vendor/fft.js",
                  "vendor/pitchy.js", "_microphone.js", "_play_input.js", "_practice.js",
                  "chord_quiz.js")
    _css = joined("_focus.css", "_sound.css", "_play_input.css", "_practice.css",
                  "chord_quiz.css")
    _title = "chord quiz"
    _activity = "quiz"

    def __init__(
        self,
        chords: Iterable[Triad | str] = DEFAULT_CHORDS,
        *,
        mode: QuizMode | str = QuizMode.MIXED,
        choices: int = 4,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
        questions: int | None = 10,
        seconds: float | None = None,
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
        self.chords: tuple[Triad, ...] = tuple(dict.fromkeys(_as_triad(c) for c in chords))
        if not self.chords:
            raise SettingsError("chords is empty: give at least one triad to ask")
        try:
            self.mode = QuizMode(mode)
        except ValueError:
            raise SettingsError(f"mode {mode!r}: use 'find', 'name', 'ear' or 'mixed'") from None
        if isinstance(choices, bool) or not isinstance(choices, int) or not 2 <= choices <= 6:
            raise SettingsError(f"choices={choices!r} must be a whole number from 2 to 6")
        self.choice_count = choices
        self.naming = Naming(naming)
        self.language = language
        self._kind = QuizMode.FIND
        self._choices: list[Triad] = []
        self._setup_session(
            self.chords,
            questions=questions,
            seconds=seconds,
            slow_ms=slow_ms,
            seed=seed,
            progress=progress,
            clock=clock,
        )
        self.strings = {**catalogue(language, "quiz."), **sound_strings(language),
                        **playing_strings(language),
                        **catalogue(language, "language.")}  # the code: numbers and plurals
        self._say_intro(intro, "quiz", language)
        self.options = {
            "mode": self.mode.value,
            "questions": questions,
            "seconds": seconds,
            "right_pause_ms": 1200,
            "wrong_pause_ms": 4500,  # time to read why (Enter goes on at once)
        }
        self._publish_score()
        self.on_msg(self._on_page_message)

    # -- public API -----------------------------------------------------------------------
    @property
    def kind(self) -> QuizMode:
        """The kind of the question being asked: find or name."""
        return self._kind

    @property
    def choices(self) -> list[Triad]:
        """The triads offered for a name question."""
        return list(self._choices)

    # -- the quiz's questions, answers and summary ----------------------------------------
    def _t(self, key: str, **values: object) -> str:
        return text(key, self.language, **values)

    def _name(self, chord: Triad) -> str:
        return chord.name(self.naming, self.language)

    def _note(self, note: Note) -> str:
        """A tone's name without octave, in the quiz's naming, as its language spells it."""
        return note.label(self.naming, octave=False, language=self.language)

    def _tones(self, chord: Triad) -> str:
        return " – ".join(self._note(n) for n in chord.tones)

    def _question_for(
        self, chord: Triad, *, number: int, total: int | None, remaining_s: float | None
    ) -> dict[str, Any]:
        if self.mode is QuizMode.MIXED:
            self._kind = self._rng.choice((QuizMode.FIND, QuizMode.NAME))
        else:
            self._kind = self.mode
        question: dict[str, Any] = {
            "number": number,
            "kind": self._kind.value,
            "total": total,
            "remaining_s": remaining_s,
            "sound": {"block": sound_chord(chord), "broken": sound_chord(chord, broken=True)},
        }
        if self._kind is QuizMode.EAR:
            self._choices = []
            question["prompt"] = self._t("quiz.ear.prompt")
            question["choices"] = [self._t(f"quiz.ear.{q}") for q in _QUALITIES]
        elif self._kind is QuizMode.FIND:
            self._choices = []
            question["prompt"] = self._t("quiz.find.prompt", chord=self._name(chord))
            question["keyboard"] = str(
                keyboard_svg(_KEYBOARD_OCTAVES, width=200 * _KEYBOARD_OCTAVES)
            )
        else:
            pool = ALL_TRIADS + self.chords
            self._choices = name_choices(chord, pool, self._rng, self.choice_count)
            question["prompt"] = self._t("quiz.name.prompt")
            question["svg"] = self._staff(chord)
            question["choices"] = [self._name(c) for c in self._choices]
        return question

    def _summary_rows(self, summary: DrillSummary[Triad]) -> dict[str, Any]:
        return {
            "rows": [
                {
                    "label": self._name(row.item),
                    "tones": self._tones(row.item),
                    "asked": row.asked,
                    "right": row.right,
                    "median_ms": row.median_ms,
                }
                for row in summary.items
            ],
            "practise": [self._name(c) for c in summary.to_practise],
        }

    def _staff(self, chord: Triad) -> str:
        """A "name it" question's chord on the staff."""
        return str(staff_svg(chord, size=self.staff_size))

    def staves(self) -> list[str]:
        # only "name it" questions show a staff
        if self.mode in (QuizMode.NAME, QuizMode.MIXED):
            return [self._staff(chord) for chord in self.chords]
        return []

    def _judge(self, chord: Triad, number: int, content: Mapping[str, Any]) -> Judged:
        ms = response_time(content)
        feedback: dict[str, Any]
        if self._kind is QuizMode.FIND:
            if content.get("via") == "played":
                midis = self._played_chord(content)
                keys = [_on_keyboard(m) for m in midis]
            else:
                keys = self._clicked_keys(content)
                midis = [_LOWEST_KEY + k for k in keys]
            given_notes = [chord.spell_midi(m) for m in sorted(midis)]
            correct = is_chord(chord, midis)
            wrong_keys = [k for k in sorted(keys) if (k % 12) not in chord.pitch_classes]
            stored = " ".join(n.label(Naming.LETTERS, octave=False) for n in given_notes)
            given = " – ".join(self._note(n) for n in given_notes)
            feedback = {
                "keys": sorted(keys),
                "wrong_keys": wrong_keys,
                "keyboard": str(
                    keyboard_svg(
                        _KEYBOARD_OCTAVES,
                        chord=chord,
                        labels=self.naming,
                        black_labels=True,  # narrower than the default's keys; names fit
                        width=200 * _KEYBOARD_OCTAVES,
                        language=self.language,
                    )
                ),
            }
        elif self._kind is QuizMode.EAR:
            choice = whole_number(content, "choice")
            if not 0 <= choice < len(_QUALITIES):
                raise MessageError(f"choice {choice} is not 0 (major) or 1 (minor)")
            stored = _QUALITIES[choice]
            correct = stored == chord.quality
            given = self._t(f"quiz.ear.{stored}")
            feedback = {"choice": choice, "right_choice": _QUALITIES.index(chord.quality)}
        else:
            choice = whole_number(content, "choice")
            if not 0 <= choice < len(self._choices):
                offered = len(self._choices)
                raise MessageError(f"choice {choice} is not one of the {offered} offered")
            picked = self._choices[choice]
            correct = picked == chord
            stored = picked.name(Naming.LETTERS)
            given = self._name(picked)
            feedback = {"choice": choice, "right_choice": self._choices.index(chord)}
        feedback.update(
            {
                "number": number,
                "kind": self._kind.value,
                "correct": correct,
                "given": given,
                "answer": self._name(chord),
                "tones": self._tones(chord),
                "response_ms": ms,
                "sound": sound_chord(chord),
                "explain": self._explain(chord, correct, feedback.get("wrong_keys", [])),
            }
        )
        return Judged(stored, correct, ms, feedback)

    def _clicked_keys(self, content: Mapping[str, Any]) -> list[int]:
        """The three keys clicked on the page's keyboard (0 = its lowest Do), checked."""
        keys = content.get("keys")
        n_keys = 12 * _KEYBOARD_OCTAVES
        if (
            not isinstance(keys, list)
            or len(keys) != 3
            or any(isinstance(k, bool) or not isinstance(k, int) for k in keys)
            or len(set(keys)) != 3
            or any(not 0 <= k < n_keys for k in keys)
        ):
            raise MessageError(
                f"keys {short_repr(keys)} must be three different keys from 0 to {n_keys - 1}"
            )
        return list(keys)

    def _played_chord(self, content: Mapping[str, Any]) -> list[int]:
        """The written notes (MIDI) of a chord played on a MIDI keyboard (struck together)
        or sung or played note by note to the microphone, checked: three notes."""
        midis = content.get("midis")
        if not isinstance(midis, list) or len(midis) != 3:
            raise MessageError(f"midis {short_repr(midis)} must be the three notes played")
        return [
            self._written_played({"midi": m, "source": content.get("source")})[0]
            for m in midis
        ]

    def _explain(self, chord: Triad, correct: bool, wrong_keys: list[int]) -> str:
        """Why, in the lessons' words: the chord's third (or, heard, why it sounds bright or
        dark); before it, each wrong key a half step from one of the chord's tones."""
        if self._kind is QuizMode.EAR:
            return heard_words(chord, self.language, self.naming)
        said = []
        for key in [] if correct else wrong_keys:
            near = [t for t in chord.tones if (key - t.pitch_class) % 12 in (1, 11)]
            if near:
                chosen = self._note(chord.spell_midi(_LOWEST_KEY + key))
                right = self._note(near[0])
                said.append(self._t("lesson.tone.half_step", chosen=chosen, right=right))
        said.append(chord_third_words(chord, self.language, self.naming))
        return " ".join(said)

    def _progress_item(self, chord: Triad) -> str:
        return chord.name(Naming.LETTERS)

    def _label(self, chord: Triad) -> str:
        return self._name(chord)

    def __repr__(self) -> str:
        return (
            f"ChordTonesQuiz({len(self.chords)} chords, mode={self.mode.value!r}, "
            f"phase={self.phase!r}, answered={len(self.session.results)})"
        )
