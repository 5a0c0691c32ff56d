"""The chord-tones quiz: find a triad's tones on the keyboard, or name the triad shown.

Two kinds of question (``mode``):

* ``"find"`` — the quiz names a triad ("D major"); the student clicks its three tones on the
  keyboard, in any octave and any order. Right when the three keys are exactly the chord's
  root, third and fifth (by pitch class).
* ``"name"`` — the quiz shows a triad on the staff; the student picks its name from a few
  choices (click, or keys 1–4). The wrong choices are the chords easiest to mix it up with:
  the same root with the other quality, and chords sharing two of its tones.
* ``"mixed"`` (the default) — either kind, at random.

Right or wrong is shown at once, with the chord's tones coloured on the keyboard (root,
third, fifth). Chords the student misses or answers slowly come back more often (the Leitner
boxes of :mod:`musicgames.drill`). A session lasts a number of questions or a time, and ends
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
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from musicgames.drill import DrillError, DrillSession
from musicgames.i18n import catalogue, text
from musicgames.progress import ProgressSink
from musicgames.render import keyboard_svg, staff_svg
from musicgames.theory import ALL_TRIADS, LETTERS, Naming, Note, Triad, TriadError, triad
from musicgames.widgets.note_drill import (
    TIME_UP_MARGIN_S,
    MessageError,
    SettingsError,
    response_time,
    whole_number,
)

__all__ = ["DEFAULT_CHORDS", "ChordTonesQuiz", "QuizMode", "name_choices"]

_HERE = Path(__file__).parent
_REFUSED_KEPT = 200
#: A right answer slower than this does not move a chord up a Leitner box.
DEFAULT_SLOW_MS = 8000.0
#: The major and minor triads on the seven natural roots, C (Do) to B (Si).
DEFAULT_CHORDS: tuple[Triad, ...] = tuple(
    triad(letter, quality) for quality in ("major", "minor") for letter in LETTERS
)
_KEYBOARD_OCTAVES = 2


class QuizMode(str, Enum):
    """What the student does: find the tones, name the chord, or either."""

    FIND = "find"
    NAME = "name"
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


def _spell(midi: int, chord: Triad) -> Note:
    """The note of a clicked key, spelt as the chord spells it when it is a chord tone.

    >>> _spell(66, triad("D")).solfege, _spell(66, triad("Eb", "minor")).solfege
    ('Fa#3', 'Solb3')
    """
    for tone in chord.tones:
        if tone.pitch_class == midi % 12:
            return Note(tone.step, tone.alter, tone.scientific_octave + (midi - tone.midi) // 12)
    return Note.parse(midi)


class ChordTonesQuiz(anywidget.AnyWidget):
    """A quiz on major and minor triads: find their tones, or name them.

    * ``chords`` — triads (or names like ``"D major"``) to ask; default :data:`DEFAULT_CHORDS`;
    * ``mode`` — ``"find"``, ``"name"`` or ``"mixed"``; ``choices`` — names offered (2–6);
    * ``naming``, ``language``, ``questions``, ``seconds``, ``progress``, ``seed``,
      ``slow_ms``, ``clock`` — as for :class:`~musicgames.widgets.NoteDrill`.
    """

    _esm = _HERE / "chord_quiz.js"
    _css = _HERE / "chord_quiz.css"

    phase = traitlets.Unicode("ready").tag(sync=True)
    question = traitlets.Dict().tag(sync=True)
    feedback = traitlets.Dict().tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    score = traitlets.Dict().tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)

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
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.chords: tuple[Triad, ...] = tuple(dict.fromkeys(_as_triad(c) for c in chords))
        if not self.chords:
            raise SettingsError("chords is empty: give at least one triad to ask")
        try:
            self.mode = QuizMode(mode)
        except ValueError:
            raise SettingsError(f"mode {mode!r}: use 'find', 'name' or 'mixed'") from None
        if isinstance(choices, bool) or not isinstance(choices, int) or not 2 <= choices <= 6:
            raise SettingsError(f"choices={choices!r} must be a whole number from 2 to 6")
        self.choice_count = choices
        self.naming = Naming(naming)
        self.language = language
        self._lengths = (questions, seconds, slow_ms)
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._sessions = 0
        self._progress = progress
        self._clock = clock
        self._started_at: float | None = None
        self._asked: Triad | None = None
        self._kind = QuizMode.FIND
        self._choices: list[Triad] = []
        self._answered = False
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
        self.session: DrillSession[Triad] = self._new_session()
        self.strings = catalogue(language, "quiz.")
        self.options = {
            "mode": self.mode.value,
            "questions": questions,
            "seconds": seconds,
            "right_pause_ms": 1200,
            "wrong_pause_ms": 2600,
        }
        self._publish_score()
        self.on_msg(self._on_page_message)

    # -- public API -----------------------------------------------------------------------
    @property
    def current(self) -> Triad | None:
        """The triad being asked, or ``None``."""
        return self._asked

    @property
    def kind(self) -> QuizMode:
        """The kind of the question being asked: find or name."""
        return self._kind

    @property
    def choices(self) -> list[Triad]:
        """The triads offered for a name question."""
        return list(self._choices)

    def elapsed_s(self) -> float:
        """Seconds since the session started (0 before it starts)."""
        return 0.0 if self._started_at is None else self._clock() - self._started_at

    def start(self) -> None:
        """Start a new session."""
        if self.session.results or self.session.is_over():
            self.session = self._new_session()
        self._started_at = self._clock()
        self.summary = {}
        self.feedback = {}
        self._ask()

    def receive(self, content: object) -> None:
        """Handle one message from the page (a dict with a ``type``); a message that cannot
        be used changes nothing and is noted in :attr:`refused` with the reason."""
        kind = content.get("type") if isinstance(content, Mapping) else None
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None or not isinstance(content, Mapping):
            self._refuse(str(kind), f"{content!r} is not a chord quiz message")
            return
        try:
            handler(self, content)
        except (MessageError, DrillError) as err:
            self._refuse(str(kind), str(err))

    # -- flow -----------------------------------------------------------------------------
    def _t(self, key: str, **values: object) -> str:
        return text(key, self.language, **values)

    def _name(self, chord: Triad) -> str:
        return chord.name(self.naming, self.language)

    def _tones(self, chord: Triad) -> str:
        return " – ".join(n.label(self.naming, octave=False) for n in chord.tones)

    def _new_session(self) -> DrillSession[Triad]:
        questions, seconds, slow_ms = self._lengths
        self._rng = random.Random(f"chord quiz {self._seed} {self._sessions}")
        try:
            session = DrillSession(
                self.chords, self._rng, questions=questions, seconds=seconds, slow_ms=slow_ms
            )
        except DrillError as err:
            raise SettingsError(str(err)) from None
        self._sessions += 1
        return session

    def _ask(self) -> None:
        session = self.session
        if session.is_over(self.elapsed_s()):
            self._finish()
            return
        chord = session.ask(self.elapsed_s())
        self._asked = chord
        self._answered = False
        if self.mode is QuizMode.MIXED:
            self._kind = self._rng.choice((QuizMode.FIND, QuizMode.NAME))
        else:
            self._kind = self.mode
        remaining = None
        if session.seconds is not None:
            remaining = max(0.0, session.seconds - self.elapsed_s())
        question: dict[str, Any] = {
            "number": len(session.results) + 1,
            "kind": self._kind.value,
            "total": session.questions,
            "remaining_s": remaining,
        }
        if self._kind is QuizMode.FIND:
            self._choices = []
            question["prompt"] = self._t("quiz.find.prompt", chord=self._name(chord))
            question["keyboard"] = str(
                keyboard_svg(_KEYBOARD_OCTAVES, width=200 * _KEYBOARD_OCTAVES)
            )
        else:
            pool = ALL_TRIADS + self.chords
            self._choices = name_choices(chord, pool, self._rng, self.choice_count)
            question["prompt"] = self._t("quiz.name.prompt")
            question["svg"] = str(staff_svg(chord, size=130))
            question["choices"] = [self._name(c) for c in self._choices]
        self.phase = "asking"
        self.question = question

    def _finish(self) -> None:
        self.session.end()
        self._asked = None
        summary = self.session.summary()
        self.summary = {
            "asked": summary.asked,
            "right": summary.right,
            "median_ms": summary.median_ms,
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
        self.phase = "over"

    def _publish_score(self) -> None:
        results = self.session.results
        self.score = {"asked": len(results), "right": sum(1 for r in results if r.correct)}

    def _answer(self, content: Mapping[str, Any]) -> None:
        number = whole_number(content, "number")
        chord = self._asked
        if self.phase != "asking" or chord is None or self._answered:
            raise MessageError(f"question {number} is not waiting for an answer")
        if number != self.question.get("number"):
            raise MessageError(f"question {number} is over: this is {self.question.get('number')}")
        ms = response_time(content)
        feedback: dict[str, Any]
        if self._kind is QuizMode.FIND:
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
                    f"keys {keys!r} must be three different keys from 0 to {n_keys - 1}"
                )
            given_notes = [_spell(60 + k, chord) for k in sorted(keys)]
            correct = {n.pitch_class for n in given_notes} == set(chord.pitch_classes)
            wrong_keys = [k for k in sorted(keys) if (k % 12) not in chord.pitch_classes]
            stored = " ".join(n.label(Naming.LETTERS, octave=False) for n in given_notes)
            given = " – ".join(n.label(self.naming, octave=False) for n in given_notes)
            feedback = {
                "keys": sorted(keys),
                "wrong_keys": wrong_keys,
                "keyboard": str(
                    keyboard_svg(
                        _KEYBOARD_OCTAVES,
                        chord=chord,
                        labels=self.naming,
                        width=200 * _KEYBOARD_OCTAVES,
                    )
                ),
            }
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
        elapsed = self.elapsed_s()
        self.session.answer(chord, stored, correct=correct, response_ms=ms, elapsed_s=elapsed)
        self._answered = True
        if self._progress is not None:
            self._progress.record("quiz", chord.name(Naming.LETTERS), stored, correct, ms)
        feedback.update(
            {
                "number": number,
                "kind": self._kind.value,
                "correct": correct,
                "given": given,
                "answer": self._name(chord),
                "tones": self._tones(chord),
                "response_ms": ms,
            }
        )
        self.feedback = feedback
        self._publish_score()

    def _next(self, content: Mapping[str, Any]) -> None:
        number = whole_number(content, "number")
        if self.phase != "asking" or not self._answered or number != self.question.get("number"):
            raise MessageError(f"question {number} is not the one just answered")
        self._ask()

    def _time_up(self, content: Mapping[str, Any]) -> None:
        seconds = self.session.seconds
        if seconds is None or self.phase != "asking":
            raise MessageError("this session has no time limit running")
        if self.elapsed_s() < seconds - TIME_UP_MARGIN_S:
            raise MessageError(
                f"time is not up: {self.elapsed_s():.1f} s of {seconds:g} s have passed"
            )
        self._finish()

    def _refuse(self, kind: str, why: str) -> None:
        self.refused.append((kind, why))
        del self.refused[:-_REFUSED_KEPT]

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def __repr__(self) -> str:
        return (
            f"ChordTonesQuiz({len(self.chords)} chords, mode={self.mode.value!r}, "
            f"phase={self.phase!r}, answered={len(self.session.results)})"
        )


_HANDLERS: dict[str, Callable[[ChordTonesQuiz, Mapping[str, Any]], None]] = {
    "start": lambda quiz, _content: quiz.start(),
    "answer": ChordTonesQuiz._answer,
    "next": ChordTonesQuiz._next,
    "time_up": ChordTonesQuiz._time_up,
}
