"""The shape of a lesson's one definition: its text in both languages and its steps.

A lesson is written once, as a :class:`Plan`: markdown cells (:class:`Md`, English and
Spanish side by side) and steps (:class:`Step`: a drawing, an exercise or a game, named by
an id). The notebooks ``lessons/NN-*.ipynb`` and ``lessons/es/NN-*.ipynb`` are built from
it (``python -m musicgames.lessons build``), so the two languages cannot drift apart.

>>> t = T("Line or space?", "¿Línea o espacio?")
>>> t["es"]
'¿Línea o espacio?'
>>> Step("lines", "staff", ["Mi3", "Sol3"], labels=True).kind
'staff'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["EXERCISE_KINDS", "PLAY_KINDS", "Md", "Plan", "Step", "T", "resolve"]

#: Steps that are exercises (recorded as activity "lesson", item "<lesson-id>/<step-id>").
EXERCISE_KINDS = frozenset(
    {
        "choice",
        "line_or_space",
        "name_notes",
        "octave_names",
        "ledger_line_count",
        "marked_key",
        "chord_quality",
        "chord_tone",
        "call_cycle",
        "match_or_not",
        "key_worth",
        "token_score",
        "half_steps",
        "black_key_names",
        "read_accidentals",
        "enharmonic",
        "spell_in_chord",
        "by_ear",
    }
)
#: Steps that are play: a drill, a quiz or a game.
PLAY_KINDS = frozenset({"drill", "quiz", "note_snap", "keyboard_duel"})


@dataclass(frozen=True)
class T:
    """One text in English and in (Latin-American) Spanish."""

    en: str
    es: str

    def __getitem__(self, language: str) -> str:
        return str(getattr(self, language))


@dataclass(frozen=True)
class Md:
    """A markdown cell, in both languages. ``teaches`` lists the note spellings this text
    teaches (like ``"Fa#"``, ``"Sib"``): from here on the lesson's exercises may use them,
    as answers and as wrong answers; before it, they do not."""

    text: T
    teaches: tuple[str, ...] = ()


class Step:
    """A code cell: ``lesson.show(id)``, which calls the lesson's method ``kind`` with these
    arguments (any :class:`T` among them in the lesson's language)."""

    def __init__(self, id: str, kind: str, *args: Any, **kwargs: Any) -> None:
        self.id = id
        self.kind = kind
        self.args = args
        self.kwargs = kwargs

    @property
    def is_exercise(self) -> bool:
        return self.kind in EXERCISE_KINDS

    @property
    def is_play(self) -> bool:
        return self.kind in PLAY_KINDS

    def __repr__(self) -> str:
        return f"Step({self.id!r}, {self.kind!r})"


def resolve(value: Any, language: str) -> Any:
    """``value`` with every :class:`T` in it replaced by its text in ``language``."""
    if isinstance(value, T):
        return value[language]
    if isinstance(value, list):
        return [resolve(v, language) for v in value]
    if isinstance(value, tuple):
        return tuple(resolve(v, language) for v in value)
    if isinstance(value, dict):
        return {k: resolve(v, language) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Plan:
    """One lesson: ``id`` (like ``"04-sharps-and-flats"``, the same in both languages),
    file names per language, its cells in order, what the student learned, what comes next."""

    id: str
    files: T
    cells: tuple[Md | Step, ...]
    learned: tuple[T, ...]
    next: T
    practise: tuple[str, ...] = field(default=())

    @property
    def steps(self) -> dict[str, Step]:
        return {c.id: c for c in self.cells if isinstance(c, Step)}

    def taught_before(self, step_id: str) -> tuple[str, ...]:
        """The spellings this lesson's text has taught before step ``step_id``."""
        taught: list[str] = []
        for cell in self.cells:
            if isinstance(cell, Step) and cell.id == step_id:
                break
            if isinstance(cell, Md):
                taught.extend(cell.teaches)
        return tuple(taught)

    @property
    def taught(self) -> tuple[str, ...]:
        """Every spelling this lesson teaches."""
        return tuple(s for c in self.cells if isinstance(c, Md) for s in c.teaches)

    @property
    def exercises(self) -> list[str]:
        """The ids of the lesson's exercises, in order."""
        return [c.id for c in self.cells if isinstance(c, Step) and c.is_exercise]
