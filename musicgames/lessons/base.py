"""What every lesson is built on: its settings (naming, language, size, sound, the
student), the names it gives notes and chords, and how it asks a question and keeps the
answer in the student's progress file.

The exercises and drawings are in their own modules (:mod:`~musicgames.lessons.drawings`,
:mod:`~musicgames.lessons.reading_notes`, :mod:`~musicgames.lessons.chords`,
:mod:`~musicgames.lessons.sharps_and_flats`); :class:`~musicgames.lessons.lesson.Lesson`
brings them together.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from musicgames.i18n import text
from musicgames.lessons.exercises import SIZES, Exercise, LessonError, Question
from musicgames.progress.answers import lesson_item
from musicgames.progress.errors import ProgressError
from musicgames.progress.store import open_progress
from musicgames.theory import Naming, Note, Triad, triad

__all__ = [
    "BLACK_PCS",
    "NOTES_PER_ROW",
    "OCTAVE_NAME_SIZE",
    "ROLES",
    "Figure",
    "LessonBase",
    "as_triad",
    "spellings",
]

#: A chord's tones by their role, in order.
ROLES = ("root", "third", "fifth")
#: The pitch classes of the black keys (Do♯, Re♯, Fa♯, Sol♯, La♯).
BLACK_PCS = (1, 3, 6, 8, 10)
#: The size of a white key's name with its octave ("Sol3"), in the keyboard's units (a
#: white key is 24 wide): 11 px on the page when three octaves fit a 560 px column.
OCTAVE_NAME_SIZE = 10
#: Named notes on one staff at most; more go on a second staff below.
NOTES_PER_ROW = 8


class Figure(str):
    """HTML of several drawings (staves one under another) that a notebook shows as HTML."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def spellings(names: Iterable[str]) -> frozenset[tuple[str, int]]:
    """Note spellings (``"Fa#"``, ``"Sib"``, ``"Do"``) as (letter, sign) pairs.

    >>> sorted(spellings(["Fa#", "Sib"]))
    [('B', -1), ('F', 1)]
    """
    return frozenset((n.step, n.alter) for n in (Note.parse(f"{name}3") for name in names))


def as_triad(chord: Triad | str) -> Triad:
    """A triad, or a chord's name (``"Re minor"``; the quality defaults to major) as one."""
    if isinstance(chord, Triad):
        return chord
    root, _, quality = chord.strip().partition(" ")
    return triad(root, quality.strip() or "major")


class LessonBase:
    """A lesson's settings and how it asks: ``student`` (a name) keeps the answers in the
    student's progress file (see :mod:`musicgames.progress`); ``record=False`` records
    nothing. ``seed`` makes the exercises the same every time."""

    def __init__(
        self,
        naming: Naming | str = Naming.SOLFEGE,
        *,
        language: str = "en",
        student: str | None = None,
        seed: int | None = 1,
        record: bool = True,
        size: str = "normal",
        sound: bool = True,
    ) -> None:
        self.naming = Naming(naming)
        self.language = language
        text("lesson.right", language)  # checks the language
        if size not in SIZES:
            raise LessonError(f"size={size!r}: use one of {', '.join(SIZES)}")
        self.size = size
        self.sound = sound
        self.seed = seed
        self.rng = random.Random(seed)
        self.lesson_id = ""
        self.progress: Any = None
        self.save_error = ""
        self.on_answer: Callable[[str, Question, int, bool], None] | None = None
        #: The spellings taught so far (``None``: any). An exercise offers no other, not
        #: even as a wrong answer, and names a key it has not taught by where it is.
        self.taught: frozenset[tuple[str, int]] | None = None
        if record:
            self.progress = open_progress(student)

    def __repr__(self) -> str:
        who = getattr(self.progress, "student", None)
        return f"Lesson(naming={self.naming.value!r}, language={self.language!r}, student={who!r})"

    def _t(self, string: str, /, **values: object) -> str:
        return text(string, self.language, **values)

    def is_taught(self, note: Note) -> bool:
        """Whether the student has been taught this spelling (Fa♯ from lesson 4 on)."""
        return self.taught is None or (note.step, note.alter) in self.taught

    @property
    def scale(self) -> float:
        """How much larger than the first version's drawings (2 = twice)."""
        return SIZES[self.size]

    # -- names ------------------------------------------------------------------------------
    def name(self, note: Note | str | int, *, octave: bool = True) -> str:
        """A note's name in the lesson's naming."""
        return Note.parse(note).label(self.naming, octave=octave, language=self.language)

    def chord_name(self, chord: Triad | str) -> str:
        """A triad's name in the lesson's naming and language ("Re major", "Re mayor")."""
        return as_triad(chord).name(self.naming, self.language)

    # -- exercises ----------------------------------------------------------------------------
    def _exercise(self, kind: str, title: str, questions: Sequence[Question]) -> Exercise:
        step = self._step
        return Exercise(
            title,
            questions,
            language=self.language,
            kind=kind,
            size=self.size,
            on_answer=lambda q, i, ok: self._answered(step, q, i, ok),
            on_listen=self._play,
            progress=self.progress,
            naming=self.naming,
        )

    player: Any = None

    def _play(self, question: Question) -> None:
        """Let the student hear the question's notes (when the lesson has a sound player)."""
        if self.player is not None and self.sound and question.sound:
            self.player.play(question.sound, broken=question.broken)

    _step = ""

    def _answered(self, step: str, question: Question, index: int, correct: bool) -> None:
        """Keep the answer in the student's progress file (activity "lesson", item
        "<lesson-id>/<exercise-id>"); a refused write is said once, the lesson goes on."""
        if self.on_answer is not None:
            self.on_answer(step, question, index, correct)
        self._play(question)
        if self.progress is None or not self.lesson_id or not step:
            return
        try:
            self.progress.record(
                activity="lesson",
                item=lesson_item(self.lesson_id, step),
                answer=question.options[index],
                correct=correct,
                response_ms=None,
            )
        except (ProgressError, OSError) as err:
            self.save_error = self._t("lesson.not_saved", why=str(err))

    def exercise(self, title: str, questions: Sequence[Question]) -> Exercise:
        """An exercise of your own questions."""
        return self._exercise("choice", title, questions)

    def choice(
        self,
        prompt: str,
        options: Sequence[str],
        answer: int | str,
        *,
        picture: str = "",
        explain: str = "",
        why: Sequence[str] = (),
        title: str | None = None,
    ) -> Exercise:
        """One multiple-choice question; ``answer`` is the right option or its index."""
        index = options.index(answer) if isinstance(answer, str) else answer
        question = Question(prompt, tuple(options), index, str(picture), explain, tuple(why))
        return self._exercise("choice", title or self._t("lesson.exercise"), [question])

    def _pick(self, options: list[str], right: str, count: int) -> tuple[tuple[str, ...], int]:
        """``count`` options from ``options``, the ``right`` one among them, shuffled."""
        others = [o for o in options if o != right]
        chosen = [right, *self.rng.sample(others, min(count - 1, len(others)))]
        self.rng.shuffle(chosen)
        return tuple(chosen), chosen.index(right)
