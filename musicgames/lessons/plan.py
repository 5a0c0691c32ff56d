"""The shape of a lesson's one definition: its text in every language and its steps.

A lesson is written once, as a :class:`Plan`: markdown cells (:class:`Md`, the languages
side by side, each named by its code) and steps (:class:`Step`: a drawing, an exercise or a
game, named by an id). The notebooks ``lessons/NN-*.ipynb`` (English) and
``lessons/<code>/NN-*.ipynb`` (every other language of :data:`musicgames.i18n.LANGUAGES`)
are built from it (``python -m musicgames.lessons build``), so the languages cannot drift
apart.

>>> t = T(en="Line or space?", es="¿Línea o espacio?", fr="Ligne ou interligne ?")
>>> t["fr"]
'Ligne ou interligne ?'
>>> T(en="Line", es="Línea")["fr"]
Traceback (most recent call last):
...
musicgames.i18n.LanguageError: no 'fr' text for T(en='Line', …)
>>> Step("lines", "staff", ["Mi3", "Sol3"], labels=True).kind
'staff'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from musicgames.i18n import LANGUAGES, LanguageError

__all__ = ["EXERCISE_KINDS", "PLAY_KINDS", "Md", "Plan", "Step", "T", "resolve", "texts_of",
           "untranslated"]

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


class T:
    """One text in several languages, each given by its code: ``T(en="…", es="…", fr="…")``
    (Spanish is Latin-American; French as a teacher in France or Belgium writes it). A code
    that is not in :data:`~musicgames.i18n.LANGUAGES` is refused; a language left out is
    refused when its text is asked for (and :func:`untranslated` finds it first)."""

    __slots__ = ("_texts",)

    def __init__(self, **texts: str) -> None:
        unknown = sorted(set(texts) - set(LANGUAGES))
        if unknown:
            raise LanguageError(f"T() has text in {', '.join(map(repr, unknown))}: not a "
                                f"language of the course ({', '.join(LANGUAGES)})")
        self._texts = texts

    def __getitem__(self, language: str) -> str:
        try:
            return self._texts[language]
        except KeyError:
            raise LanguageError(f"no {language!r} text for {self!r}") from None

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages this text is written in."""
        return tuple(self._texts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, T) and self._texts == other._texts

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._texts.items())))

    def __repr__(self) -> str:
        first = next(iter(self._texts.items()), None)
        if first is None:
            return "T()"
        start = first[1] if len(first[1]) <= 30 else first[1][:30] + "…"
        return f"T({first[0]}={start!r}, …)"


@dataclass(frozen=True)
class Md:
    """A markdown cell, in every language. ``teaches`` lists the note spellings this text
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
    """One lesson: ``id`` (like ``"04-sharps-and-flats"``, the same in every language),
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

    def href(self, language: str, to: str) -> str:
        """The link from this lesson's notebook in ``language`` to its notebook in ``to``:
        English lessons live in ``lessons/``, the others in ``lessons/<code>/``.

        >>> from musicgames.lessons.course import COURSE
        >>> plan = COURSE[0]
        >>> plan.href("en", "es"), plan.href("es", "en"), plan.href("es", "fr")
        ('es/01-el-pentagrama.ipynb', '../01-the-staff.ipynb', '../fr/01-la-portee.ipynb')
        """
        up = "" if language == "en" else "../"
        return f"{up}{'' if to == 'en' else to + '/'}{self.files[to]}"


def texts_of(value: Any) -> Iterator[T]:
    """Every :class:`T` in ``value`` (a plan, a cell, a step's arguments), in order."""
    if isinstance(value, T):
        yield value
    elif isinstance(value, Plan):
        yield value.files
        for cell in value.cells:
            yield from texts_of(cell)
        yield from texts_of(value.learned)
        yield value.next
    elif isinstance(value, Md):
        yield value.text
    elif isinstance(value, Step):
        yield from texts_of(value.args)
        yield from texts_of(value.kwargs)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from texts_of(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts_of(item)


def untranslated(plan: Plan) -> list[str]:
    """What of ``plan`` lacks a language of :data:`~musicgames.i18n.LANGUAGES`: one line per
    text, naming the languages it lacks (an empty list when the lesson is whole)."""
    return [f"{plan.id}: {t!r} has no {', '.join(missing)}"
            for t in texts_of(plan)
            if (missing := [code for code in LANGUAGES if code not in t.languages])]
