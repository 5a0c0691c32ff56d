"""A lesson's settings and everything it shows: drawings, exercises that explain, play.

A lesson names notes one way throughout (Do Re Mi or C D E), in one language:

>>> lesson = Lesson(naming="letters", record=False)
>>> lesson.name("Sol3"), lesson.name("Sol3", octave=False)
('G4', 'G')
>>> ex = lesson.line_or_space(["Mi3", "Fa3"])
>>> ex.buttons[0].description, ex.buttons[1].description
('on a line', 'in a space')
>>> ex.buttons[1].click()          # Mi3 (E4) sits on the bottom line
>>> ex.correct
False
>>> "E4 sits on the 1st line (the bottom one)" in ex.feedback.value
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

from musicgames.i18n import counted, text
from musicgames.lessons.exercises import SIZES, Exercise, LessonError, Question
from musicgames.lessons.facts import (
    chord_third_words,
    half_steps,
    heard_words,
    ledger_lines,
    named_why,
    named_wrong,
    nearest_named,
    on_a_line,
    staff_place,
    where,
)
from musicgames.render import (
    CHORD_TONE_COLOURS,
    READABLE_KEY_PX,
    Drawing,
    keyboard_svg,
    staff_svg,
)
from musicgames.snap import call_index, is_match, next_call
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, Naming, Note, Triad, triad

__all__ = ["NOTES_PER_ROW", "Figure", "Lesson", "spellings"]

_ROLES = ("root", "third", "fifth")
_BLACK_PCS = (1, 3, 6, 8, 10)


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


def _triad(chord: Triad | str) -> Triad:
    if isinstance(chord, Triad):
        return chord
    root, _, quality = chord.strip().partition(" ")
    return triad(root, quality.strip() or "major")


class Lesson:
    """One lesson's settings — naming, language, size, sound, the student — and what it
    shows. ``student`` (a name) keeps the answers in the student's progress file (see
    :mod:`musicgames.progress`); ``record=False`` records nothing. ``seed`` makes the
    exercises the same every time."""

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
            from musicgames.progress import open_progress

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

    # -- names and drawings -----------------------------------------------------------------
    def name(self, note: Note | str | int, *, octave: bool = True) -> str:
        """A note's name in the lesson's naming."""
        return Note.parse(note).label(self.naming, octave=octave)

    def chord_name(self, chord: Triad | str) -> str:
        """A triad's name in the lesson's naming and language ("Re major", "Re mayor")."""
        return _triad(chord).name(self.naming, self.language)

    def staff(
        self, notes: Any, *, labels: bool = False, size: float = 1.0
    ) -> Drawing | Figure:
        """Notes (or a chord: a triad, or a tuple of notes) on the treble staff, with their
        names under them if ``labels``; ``size`` 1 is an exercise's staff at this lesson's
        size setting. More than :data:`NOTES_PER_ROW` named notes go on several staves, one
        under the other, so that a narrow page does not shrink their names out of reading."""
        height = int(110 * self.scale * size)
        naming = self.naming if labels else None
        if labels and isinstance(notes, list) and len(notes) > NOTES_PER_ROW:
            rows = -(-len(notes) // NOTES_PER_ROW)
            per_row = -(-len(notes) // rows)
            staves = "".join(
                f'<div class="mg-staff-row">'
                f"{staff_svg(notes[start:start + per_row], size=height, labels=naming)}</div>"
                for start in range(0, len(notes), per_row)
            )
            return Figure(f'<div class="mg-staff-rows">{staves}</div>')
        return staff_svg(notes, size=height, labels=naming)

    def _staff_size(self) -> int:
        """The height in pixels of an exercise's staff at this lesson's size setting."""
        return int(110 * self.scale)

    def keyboard(
        self,
        octaves: int = 2,
        *,
        highlight: Any = (),
        chord: Triad | str | Sequence[Triad | str | None] | None = None,
        labels: bool = True,
        lowest: Note | str = "Do3",
        width: int | None = None,
        octave_labels: bool = False,
        black_labels: bool | None = None,
        spelled_by: Triad | None = None,
    ) -> Drawing:
        """A piano keyboard starting on ``lowest``, names on the white keys if ``labels``
        (with octave numbers if ``octave_labels``); ``highlight`` colours keys (a list, or a
        mapping to colours), ``chord`` colours a triad's root, third and fifth (in every
        octave; or one triad per octave, ``None`` for a plain one); ``black_labels=False``
        leaves the black keys unnamed (when their name is the question); ``spelled_by``
        names the keys as that triad does, without colouring them."""
        chords: Triad | list[Triad | None] | None
        if chord is None or isinstance(chord, (Triad, str)):
            chords = _triad(chord) if chord is not None else None
        else:
            chords = [_triad(c) if c is not None else None for c in chord]
        svg = keyboard_svg(
            octaves,
            lowest=lowest,
            highlight=highlight,
            chord=chords,
            labels=self.naming if labels else None,
            black_labels=black_labels,
            spelled_by=spelled_by,
            width=width or self._keyboard_width(140, octaves),
        )
        if labels and octave_labels:
            svg = Drawing(self._with_octaves(svg))
        return svg

    def _keyboard_width(self, per_octave: float, octaves: int) -> int:
        """A keyboard's width on the page: ``per_octave`` at the first version's size, grown
        with the size setting, at most 800 px — and never so narrow that a key's name is
        under 11 px (a white key at least :data:`READABLE_KEY_PX` wide)."""
        wanted = max(per_octave * self.scale, 7 * READABLE_KEY_PX) * octaves
        return int(min(800, wanted))

    def _with_octaves(self, svg: str) -> str:
        """Write each white key's name with its octave number ("Do3", not "Do")."""

        def named(match: re.Match[str]) -> str:
            note = Note.parse(match.group(1))
            return f"{match.group(0)[: -len(match.group(3)) - 7]}{escape(self.name(note))}</text>"

        return re.sub(
            r'data-note="([A-G]-?\d+)"([^>]*)/><text[^>]*>([^<]*)</text>', named, svg
        ).replace('font-size="9"', f'font-size="{OCTAVE_NAME_SIZE}"')

    def _chord_keys(self, chord: Triad, *, black_labels: bool | None = False) -> Drawing:
        """Two octaves from Do3 with this very root, third and fifth in their colours (the
        black keys unnamed: the text names the chord's tones as its key spells them)."""
        colours = dict(zip(chord.tones, CHORD_TONE_COLOURS, strict=True))
        return self.keyboard(2, highlight=colours, black_labels=black_labels)

    def octave_table(self, notes: Iterable[Note | str] = CARD_NOTES) -> Any:
        """A table of notes in both numberings: Franco-Belgian solfège and scientific
        letters."""
        from musicgames.progress import Table

        rows = tuple(
            (n.label(Naming.SOLFEGE), n.label(Naming.LETTERS))
            for n in (Note.parse(x) for x in notes)
        )
        headers = (self._t("lesson.col.solfege"), self._t("lesson.col.letters"))
        return Table(headers, rows)

    def _interval(self, low: Note, high: Note) -> str:
        from music21.interval import Interval

        interval = Interval(low.to_music21(), high.to_music21())
        words = self._t(f"lesson.interval.{interval.name}")
        return self._t("lesson.interval.with_steps", name=words, n=interval.semitones)

    def triad_table(self, chords: Iterable[Triad | str]) -> Any:
        """Each triad's root, third and fifth, with the intervals music21 measures between
        them: a major third is 4 half steps, a minor third 3, a perfect fifth 7."""
        from musicgames.progress import Table

        rows = []
        for chord in (_triad(c) for c in chords):
            rows.append(
                (
                    self.chord_name(chord),
                    self.name(chord.root, octave=False),
                    self.name(chord.third, octave=False),
                    self.name(chord.fifth, octave=False),
                    self._interval(chord.root, chord.third),
                    self._interval(chord.root, chord.fifth),
                )
            )
        headers = tuple(
            self._t(f"lesson.col.{key}")
            for key in ("chord", "root", "third", "fifth", "root_third", "root_fifth")
        )
        return Table(headers, tuple(rows))

    def piano_cards(self, *chords: Triad | str) -> Drawing:
        """Piano cards side by side as on the Keyboard Duel board (two in a game): the chord
        tones coloured, the root marked fff, the third ff, the fifth f."""
        cards = [self._card(chord) for chord in chords]
        marks: dict[int, str] = {}
        for octave, card in enumerate(cards):
            for pitch_class, mark in card.marks.items():
                marks[12 * octave + pitch_class] = mark
        return keyboard_svg(
            len(cards),
            chord=[card.triad for card in cards],
            labels=self.naming,
            marks=marks,
            width=self._keyboard_width(150, len(cards)),
        )

    def _card(self, chord: Triad | str) -> Any:
        """The Keyboard Duel piano card of a triad (any spelling of its tones)."""
        from musicgames.duel.cards import PIANO_CARDS

        wanted = _triad(chord)
        for card in PIANO_CARDS:
            if card.triad.pitch_classes == wanted.pitch_classes:
                return card
        raise LessonError(f"{chord!r} is not a piano card")  # pragma: no cover - all 24 are

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
        from musicgames.progress import ProgressError, lesson_item

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

    def line_or_space(self, notes: Iterable[Note | str]) -> Exercise:
        """"Is this note on a line or in a space?" for each note."""
        options = (self._t("lesson.line"), self._t("lesson.space"))
        questions = []
        for note in (Note.parse(n) for n in notes):
            line = on_a_line(note)
            if line:
                why = "lesson.los.ledger" if ledger_lines(note) else "lesson.los.line"
            else:
                why = "lesson.los.space"
            questions.append(
                Question(
                    self._t("lesson.line_or_space.prompt"),
                    options,
                    0 if line else 1,
                    str(self.staff(note)),
                    self._t(why, name=self.name(note), where=where(note, self.language)),
                    wrong_picture=str(self.staff(note, labels=True, size=0.8)),
                    sound=(note,),
                )
            )
        return self._exercise("line_or_space", self._t("lesson.line_or_space.title"), questions)

    def name_notes(
        self, notes: Iterable[Note | str], *, questions: int | None = None, choices: int = 4
    ) -> Exercise:
        """"Which note is this?" — a note on the staff, names to choose from (no octave). A
        wrong name is explained by where that note would sit, and how far it is."""
        pool = [Note.parse(n) for n in notes]
        if questions is not None:
            pool = [self.rng.choice(pool) for _ in range(questions)] if questions else []
        names = [self.name(n, octave=False) for n in CARD_NOTES[:7]]
        items = []
        for note in pool:
            right = self.name(note, octave=False)
            options, index = self._pick(names, right, choices)
            why = []
            for option in options:
                if option == right:
                    why.append("")
                    continue
                other = nearest_named(LETTERS[names.index(option)], note)
                why.append(named_wrong(note, other, self.language, self.naming))
            items.append(
                Question(
                    self._t("lesson.name.prompt"),
                    options,
                    index,
                    str(self.staff(note)),
                    named_why(note, self.language, self.naming),
                    tuple(why),
                    wrong_picture=str(self.staff(note, labels=True, size=0.8)),
                    sound=(note,),
                    explain_wrong=False,
                )
            )
        return self._exercise("name_notes", self._t("lesson.name.title"), items)

    def octave_names(self, notes: Iterable[Note | str]) -> Exercise:
        """"This note is Sol3 in solfège: what is it in letter names?" (and the other way
        round with letters), with the neighbouring octave numbers as wrong answers."""
        items = []
        for note in (Note.parse(n) for n in notes):
            shown_naming = self.naming
            other = Naming.LETTERS if shown_naming is Naming.SOLFEGE else Naming.SOLFEGE
            right = note.label(other)
            base = note.label(other, octave=False)
            number = note.scientific_octave if other is Naming.LETTERS else note.octave
            options = [f"{base}{number - 1}", right, f"{base}{number + 1}"]
            self.rng.shuffle(options)
            why = [
                ""
                if o == right
                else self._t(
                    "lesson.octave.off.low" if o < right else "lesson.octave.off.high", chosen=o
                )
                for o in options
            ]
            items.append(
                Question(
                    self._t(f"lesson.octave.prompt.{other.value}", name=note.label(shown_naming)),
                    tuple(options),
                    options.index(right),
                    str(self.staff(note)),
                    self._t(
                        "lesson.octave.why",
                        solfege=note.label(Naming.SOLFEGE),
                        letters=note.label(Naming.LETTERS),
                    ),
                    tuple(why),
                    sound=(note,),
                )
            )
        return self._exercise("octave_names", self._t("lesson.octave.title"), items)

    def ledger_line_count(self, notes: Iterable[Note | str]) -> Exercise:
        """"How many ledger lines does this note need?" — explained by where the note sits
        and by its neighbour on the staff."""
        items = []
        for note in (Note.parse(n) for n in notes):
            count = ledger_lines(note)
            place = staff_place(note)
            said = self._t("lesson.ledger.where", name=self.name(note),
                           where=where(note, self.language))
            if place in (-0.5, 4.5):  # just outside: the staff line next to it is enough
                neighbour = Note.parse("Mi3" if place < 0 else "Fa4")
                said += " " + self._t("lesson.ledger.none.outside", other=self.name(neighbour),
                                      where=where(neighbour, self.language))
                picture = self.staff([note, neighbour], labels=True, size=0.8)
            elif count == 0:
                said += " " + self._t("lesson.ledger.none.inside")
                picture = self.staff(note, labels=True, size=0.8)
            else:
                said += " " + self._t("lesson.ledger.some", n=count)
                picture = self.staff(note, labels=True, size=0.8)
            items.append(
                Question(
                    self._t("lesson.ledger.prompt", name=self.name(note)),
                    ("0", "1", "2", "3"),
                    count,
                    str(self.staff(note)),
                    said,
                    wrong_picture=str(picture),
                    sound=(note,),
                )
            )
        return self._exercise("ledger_line_count", self._t("lesson.ledger.title"), items)

    def marked_key(self, notes: Iterable[Note | str], *, octaves: int = 3) -> Exercise:
        """"Which note is the coloured key?" — with octave numbers, so the octave matters."""
        items = []
        for note in (Note.parse(n) for n in notes):
            right = self.name(note)
            base = self.name(note, octave=False)
            number = note.octave if self.naming is Naming.SOLFEGE else note.scientific_octave
            options = [f"{base}{number + k}" for k in (-1, 0, 1)]
            self.rng.shuffle(options)
            do = Note("C", 0, note.scientific_octave)
            why = [
                ""
                if o == right
                else self._t("lesson.key.off.low" if o < right else "lesson.key.off.high",
                             chosen=o)
                for o in options
            ]
            items.append(
                Question(
                    self._t("lesson.key.prompt"),
                    tuple(options),
                    options.index(right),
                    str(self.keyboard(octaves, highlight=[note], labels=False)),
                    self._t("lesson.key.why", name=right, do=self.name(do),
                            nth=self._t(f"lesson.nth.{note.octave - 2}")),
                    tuple(why),
                    wrong_picture=str(
                        self.keyboard(octaves, highlight=[note], octave_labels=True,
                                      black_labels=False)
                    ),
                    sound=(note,),
                )
            )
        return self._exercise("marked_key", self._t("lesson.key.title"), items)

    def chord_quality(self, chords: Iterable[Triad | str]) -> Exercise:
        """"Major or minor?" — each triad on the staff and the keyboard, its root red, its
        third yellow, its fifth blue; explained by counting half steps."""
        options = (self._t("lesson.major"), self._t("lesson.minor"))
        items = []
        for chord in (_triad(c) for c in chords):
            picture = f"{self.staff(chord, size=0.8)}<br>{self._chord_keys(chord)}"
            said = chord_third_words(chord, self.language, self.naming)
            other = "minor" if chord.quality == "major" else "major"
            why = [
                "" if (i == 0) == (chord.quality == "major")
                else self._t(f"lesson.quality.would.{other}")
                for i in range(2)
            ]
            items.append(
                Question(
                    self._t("lesson.quality.prompt"),
                    options,
                    0 if chord.quality == "major" else 1,
                    picture,
                    said,
                    tuple(why),
                    sound=chord.tones,
                )
            )
        return self._exercise("chord_quality", self._t("lesson.quality.title"), items)

    def by_ear(self, chords: Iterable[Triad | str]) -> Exercise:
        """"Listen: major or minor?" — the chord is only heard (Listen plays it); after the
        answer it is shown and explained by its third."""
        options = (self._t("lesson.major"), self._t("lesson.minor"))
        items = []
        for chord in (_triad(c) for c in chords):
            said = heard_words(chord, self.language, self.naming)
            items.append(
                Question(
                    self._t("lesson.ear.prompt"),
                    options,
                    0 if chord.quality == "major" else 1,
                    "",
                    said,
                    wrong_picture=str(self._chord_keys(chord)),
                    sound=chord.tones,
                    listen=True,
                )
            )
        return self._exercise("by_ear", self._t("lesson.ear.title"), items)

    def chord_tone(self, chords: Iterable[Triad | str], which: str = "third") -> Exercise:
        """"What is the third (fifth) of Re major?" with note names to choose from. The root
        is asked without naming the chord (the name would give it away): "These three keys
        are a piano card's chord tones: which is the root, the key marked fff?"."""
        if which not in _ROLES:
            raise LessonError(f"which={which!r}: use 'root', 'third' or 'fifth'")
        items = []
        for chord in (_triad(c) for c in chords):
            tone = getattr(chord, which)
            right = self.name(tone, octave=False)
            roles = {self.name(t, octave=False): r for t, r in zip(chord.tones, _ROLES,
                                                                     strict=True)}
            candidates = [*roles]
            if which != "root":  # a key a half step away: the third of the other quality
                candidates.append(self.name(self._half_step_from(tone, chord), octave=False))
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right][:3]
            self.rng.shuffle(options)
            why = []
            for option in options:
                if option == right:
                    why.append("")
                elif option in roles:
                    why.append(self._t("lesson.tone.is_other", chosen=option,
                                       role=self._t(f"lesson.role.{roles[option]}"),
                                       chord=self.chord_name(chord)))
                else:
                    why.append(self._t("lesson.tone.half_step", chosen=option, right=right))
            if which == "root":
                prompt = self._t("lesson.tone.prompt.root")
                picture = str(self._tones_in_any_order(chord))
                wrong_picture = str(self.piano_cards(chord))
            else:
                prompt = self._t(f"lesson.tone.prompt.{which}", chord=self.chord_name(chord))
                picture = wrong_picture = ""
            items.append(
                Question(
                    prompt,
                    tuple(options),
                    options.index(right),
                    picture,
                    self._t(
                        f"lesson.tone.why.{which}",
                        chord=self.chord_name(chord),
                        tones=" – ".join(self.name(t, octave=False) for t in chord.tones),
                        root=self.name(chord.root, octave=False),
                        tone=right,
                        letters=" ".join(self._letters_from(chord.root, which)),
                    ),
                    tuple(why),
                    wrong_picture=wrong_picture,
                    sound=chord.tones,
                )
            )
        return self._exercise("chord_tone", self._t(f"lesson.tone.title.{which}"), items)

    def _half_step_from(self, tone: Note, chord: Triad) -> Note:
        """The note a half step from a chord tone (down in a major chord, up in a minor
        one), spelled as the student has been taught: Mi♭ from Mi, but Si (not Do♭) from
        Do."""
        shift = 1 if chord.quality == "minor" else -1
        if abs(tone.alter + shift) <= 1:
            spelled = Note(tone.step, tone.alter + shift, tone.scientific_octave)
            if self.is_taught(spelled):
                return spelled
        return Note.parse(tone.midi + shift)

    def _tones_in_any_order(self, chord: Triad) -> Drawing:
        """A triad's three keys in one colour, named as the chord names them, the lowest key
        picked at random (root, third or fifth), so neither the colours nor the order tell
        the root: it may be the lowest, middle or top key."""
        lowest = self.rng.randrange(3)
        tones = chord.tones[lowest:] + chord.tones[:lowest]
        midis = [60 + tones[0].pitch_class]
        for tone in tones[1:]:  # each tone the next key of its name up
            midis.append(midis[-1] + (tone.pitch_class - midis[-1]) % 12)
        keys = [Note.parse(midi) for midi in midis]
        return self.keyboard(2, highlight=keys, spelled_by=chord)

    def _letters_from(self, root: Note, which: str) -> list[str]:
        """The note names counted from the root up to the third (3) or the fifth (5)."""
        count = {"root": 1, "third": 3, "fifth": 5}[which]
        start = LETTERS.index(root.step)
        names = SYLLABLES if self.naming is Naming.SOLFEGE else LETTERS
        return [names[(start + k) % 7] for k in range(count)]

    # -- sharps and flats ----------------------------------------------------------------------
    def _sharp_name(self, midi: int) -> str:
        """A key's name going up: a white key's own name, a black key's sharp (Fa♯)."""
        if midi % 12 not in _BLACK_PCS:
            return self.name(Note.parse(midi), octave=False)
        below = Note.parse(midi - 1)
        return self.name(Note(below.step, 1, below.scientific_octave), octave=False)

    def _flat_name(self, midi: int) -> str:
        """A black key's flat name (Sol♭): the white key above it, lowered."""
        above = Note.parse(midi + 1)
        return self.name(Note(above.step, -1, above.scientific_octave), octave=False)

    def _key_on_the_way(self, midi: int) -> str:
        """A key passed while counting half steps: its name, or "black key" while sharps
        are not taught yet."""
        if midi % 12 in _BLACK_PCS and not self.is_taught(Note.parse(midi)):
            return self._t("lesson.half.black_key")
        return self._sharp_name(midi)

    def half_steps(self, pairs: Iterable[tuple[Note | str, Note | str]]) -> Exercise:
        """"How many half steps from Re up to Fa?" — both keys coloured; explained by the
        moves from key to key, black keys included (each move is one half step: the keys
        counted with both ends are one more, and a wrong answer that counted them says so)."""
        items = []
        for low_name, high_name in pairs:
            low, high = Note.parse(low_name), Note.parse(high_name)
            n = half_steps(low, high)
            path = " → ".join(self._key_on_the_way(m) for m in range(low.midi, high.midi + 1))
            options = tuple(str(k) for k in range(1, 6))
            said = counted(
                "lesson.half.why",
                n,
                self.language,
                low=self.name(low, octave=False),
                high=self.name(high, octave=False),
                path=path,
            )
            if n == 1 and low.is_natural and high.is_natural:
                said += " " + self._t("lesson.half.no_black")
            counted_keys = self._t("lesson.half.keys", low=self.name(low, octave=False),
                                   high=self.name(high, octave=False), keys=n + 1, n=n)
            why = tuple(counted_keys if int(o) == n + 1 else "" for o in options)
            colours = {low: CHORD_TONE_COLOURS[0], high: CHORD_TONE_COLOURS[2]}
            items.append(
                Question(
                    self._t("lesson.half.prompt", low=self.name(low, octave=False),
                            high=self.name(high, octave=False)),
                    options,
                    n - 1,
                    str(self.keyboard(1 if high.midi < 72 else 2, highlight=colours,
                                      black_labels=False)),
                    said,
                    why if any(why) else (),
                    sound=(low, high),
                    broken=True,
                )
            )
        return self._exercise("half_steps", self._t("lesson.half.title"), items)

    def black_key_names(self, notes: Iterable[Note | str]) -> Exercise:
        """"What are the two names of the coloured black key?" — Fa♯ = Sol♭."""
        items = []
        pairs = [
            self._t("lesson.same_key", a=self._sharp_name(60 + pc), b=self._flat_name(60 + pc))
            for pc in _BLACK_PCS
        ]
        for note in (Note.parse(n) for n in notes):
            if note.pitch_class not in _BLACK_PCS:
                raise LessonError(f"{note.solfege} is not a black key")
            right = pairs[_BLACK_PCS.index(note.pitch_class)]
            options, index = self._pick(pairs, right, 4)
            below, above = Note.parse(note.midi - 1), Note.parse(note.midi + 1)
            items.append(
                Question(
                    self._t("lesson.black.prompt"),
                    options,
                    index,
                    str(self.keyboard(1, highlight=[note.midi - 60], black_labels=False)),
                    self._t(
                        "lesson.black.why",
                        low=self.name(below, octave=False),
                        high=self.name(above, octave=False),
                        sharp=self._sharp_name(note.midi),
                        flat=self._flat_name(note.midi),
                    ),
                    sound=(note,),
                )
            )
        return self._exercise("black_key_names", self._t("lesson.black.title"), items)

    def read_accidentals(self, notes: Iterable[Note | str]) -> Exercise:
        """"Which note is this?" for notes with a ♯ or ♭ on the staff."""
        items = []
        for note in (Note.parse(n) for n in notes):
            if note.is_natural:
                raise LessonError(f"{note.solfege} has no sharp or flat")
            natural = Note(note.step, 0, note.scientific_octave)
            opposite = Note(note.step, -note.alter, note.scientific_octave)
            neighbour_step = LETTERS[(LETTERS.index(note.step) + note.alter) % 7]
            neighbour = Note(neighbour_step, -note.alter, note.scientific_octave)
            neighbour_natural = Note(neighbour_step, 0, note.scientific_octave)
            candidates = (note, natural, opposite, neighbour, neighbour_natural)
            names = [self.name(n) for n in candidates if self.is_taught(n)]
            options = list(dict.fromkeys(names))[:4]
            self.rng.shuffle(options)
            sign = "sharp" if note.alter > 0 else "flat"
            items.append(
                Question(
                    self._t("lesson.name.prompt"),
                    tuple(options),
                    options.index(self.name(note)),
                    str(self.staff(note)),
                    self._t(
                        f"lesson.accidental.why.{sign}",
                        where=where(natural, self.language),
                        natural=self.name(natural),
                        name=self.name(note),
                    ),
                    sound=(note,),
                )
            )
        return self._exercise("read_accidentals", self._t("lesson.accidental.title"), items)

    def enharmonic(self, notes: Iterable[Note | str]) -> Exercise:
        """"Fa♯ is the same key as…?" — the other name of a black key."""
        items = []
        for note in (Note.parse(n) for n in notes):
            if note.is_natural:
                raise LessonError(f"{note.solfege} has no sharp or flat")
            index = LETTERS.index(note.step)
            other_step = LETTERS[(index + note.alter) % 7]
            octave = note.scientific_octave + (
                1 if (note.step, note.alter) == ("B", 1)
                else -1 if (note.step, note.alter) == ("C", -1)
                else 0
            )
            other = Note(other_step, -note.alter, octave)
            wrong = [
                Note(note.step, -note.alter, note.scientific_octave),
                Note(other_step, note.alter, octave),
                Note(LETTERS[(index - note.alter) % 7], 0, note.scientific_octave),
                Note(other_step, 0, octave),
            ]
            names = [self.name(n, octave=False) for n in (other, *wrong) if self.is_taught(n)]
            options = list(dict.fromkeys(names))[:4]
            self.rng.shuffle(options)
            low = self._sharp_name(min(note.midi, other.midi) - 1)
            items.append(
                Question(
                    self._t("lesson.enharmonic.prompt", name=self.name(note, octave=False)),
                    tuple(options),
                    options.index(self.name(other, octave=False)),
                    "",
                    self._t(
                        "lesson.enharmonic.why",
                        name=self.name(note, octave=False),
                        other=self.name(other, octave=False),
                        low=low,
                        high=self.name(Note.parse(note.midi + 1), octave=False),
                    ),
                    wrong_picture=str(self.keyboard(1, highlight=[note.midi % 12])),
                    sound=(note,),
                )
            )
        return self._exercise("enharmonic", self._t("lesson.enharmonic.title"), items)

    def spell_in_chord(self, items: Iterable[tuple[Triad | str, int]]) -> Exercise:
        """"In Re major, is the black key between Fa and Sol called Fa♯ or Sol♭?" — the
        answer is how the chord's key names it (:meth:`Triad.spell`), explained by the
        letters."""
        questions = []
        for chord_name, pitch_class in items:
            chord = _triad(chord_name)
            right_note = chord.spell(pitch_class)
            midi = 60 + pitch_class % 12
            options = (self._sharp_name(midi), self._flat_name(midi))
            right = self.name(right_note, octave=False)
            if right not in options:
                raise LessonError(f"{chord!r} spells {pitch_class} as {right}, not a black key")
            roles = {t.pitch_class: r for t, r in zip(chord.tones, _ROLES, strict=True)}
            if pitch_class % 12 in roles:
                role = roles[pitch_class % 12]
                said = self._t(
                    "lesson.spell.why.tone",
                    chord=self.chord_name(chord),
                    tones=" – ".join(self.name(t, octave=False) for t in chord.tones),
                    role=self._t(f"lesson.role.{role}"),
                    letter=self.name(Note(right_note.step, 0, 4), octave=False),
                    name=right,
                )
            else:
                said = self._t(
                    "lesson.spell.why.scale",
                    chord=self.chord_name(chord),
                    scale=" ".join(self._scale(chord)),
                    name=right,
                )
            below = self.name(Note.parse(midi - 1), octave=False)
            above = self.name(Note.parse(midi + 1), octave=False)
            questions.append(
                Question(
                    self._t("lesson.spell.prompt", chord=self.chord_name(chord), low=below,
                            high=above),
                    options,
                    options.index(right),
                    str(self._chord_keys(chord)),
                    said,
                    sound=chord.tones,
                )
            )
        return self._exercise("spell_in_chord", self._t("lesson.spell.title"), questions)

    def _scale(self, chord: Triad) -> list[str]:
        """The seven notes of the chord's key (major, or natural minor), each letter once."""
        from music21.key import Key

        tonic = chord.root.to_music21().name
        key = Key(tonic if chord.quality == "major" else tonic.lower())
        return [self.name(chord.spell(p.pitchClass), octave=False) for p in key.pitches[:7]]

    # -- Note Snap: the call cycle and matches ---------------------------------------------
    def _syllable_name(self, syllable: str) -> str:
        return self.name(Note.parse(f"{syllable}3"), octave=False)

    def call_cycle(self, calls: Iterable[str]) -> Exercise:
        """"The last call was Sol. What is called next?" — Do Re Mi Fa Sol La Si, then Do
        again. ``calls`` are solfège syllables or letters."""
        cycle = [self._syllable_name(s) for s in SYLLABLES]
        items = []
        for call in calls:
            index = LETTERS.index(Note.parse(f"{call}3" if call[-1:].isalpha() else call).step)
            right = cycle[call_index(next_call(SYLLABLES[index]))]  # the game's rule (S5)
            options, answer = self._pick(cycle, right, 4)
            items.append(
                Question(
                    self._t("lesson.cycle.prompt", call=cycle[index]),
                    options,
                    answer,
                    "",
                    self._t("lesson.cycle.why", call=cycle[index], next=right,
                            cycle=" ".join(cycle), first=cycle[0]),
                )
            )
        return self._exercise("call_cycle", self._t("lesson.cycle.title"), items)

    def match_or_not(self, pairs: Iterable[tuple[str, Note | str]]) -> Exercise:
        """"The call is Re. Is this card a match?" for (call, card note) pairs: a match when
        the card's name is the name called, in any octave."""
        options = (self._t("lesson.match.yes"), self._t("lesson.match.no"))
        items = []
        for call, card in pairs:
            note = Note.parse(card)
            called = Note.parse(f"{call}3" if call[-1:].isalpha() else call)
            match = is_match(note, called.syllable)  # the game's own rule (S6)
            why = "lesson.match.why.yes" if match else "lesson.match.why.no"
            items.append(
                Question(
                    self._t("lesson.match.prompt", call=self.name(called, octave=False)),
                    options,
                    0 if match else 1,
                    str(self.staff(note)),
                    self._t(why, card=self.name(note), call=self.name(called, octave=False),
                            where=where(note, self.language)),
                    sound=(note,),
                )
            )
        return self._exercise("match_or_not", self._t("lesson.match.title"), items)

    # -- Keyboard Duel: what a key is worth ----------------------------------------------------
    def key_worth(self, chord: Triad | str, notes: Iterable[Note | str]) -> Exercise:
        """"On the Re major card, what is the key Fa♯ worth?" — ×3 for the root (fff), ×2 for
        the third (ff), ×1 for the fifth (f) and for every unmarked key."""
        card = self._card(chord)
        options = ("×1", "×2", "×3")
        tones = " – ".join(self.name(t, octave=False) for t in card.triad.tones)
        roles = {t.pitch_class: r for t, r in zip(card.triad.tones, _ROLES, strict=True)}
        items = []
        for note in (Note.parse(n) for n in notes):
            multiplier = card.multiplier(note.pitch_class)
            mark = card.marks.get(note.pitch_class, "")
            name = self.name(card.triad.spell(note.pitch_class), octave=False)
            if mark:
                said = self._t("lesson.worth.why.mark", note=name, mark=mark, n=multiplier,
                               role=self._t(f"lesson.role.{roles[note.pitch_class]}"),
                               chord=self.chord_name(card.triad))
            else:
                said = self._t("lesson.worth.why.plain", note=name, n=multiplier, tones=tones,
                               chord=self.chord_name(card.triad))
            items.append(
                Question(
                    self._t("lesson.worth.prompt", chord=self.chord_name(card.triad), note=name),
                    options,
                    multiplier - 1,
                    str(self.piano_cards(card.triad)),
                    said,
                )
            )
        return self._exercise("key_worth", self._t("lesson.worth.title"), items)

    def token_score(self, tokens: Iterable[tuple[Triad | str, Note | str, int]]) -> Exercise:
        """"A token of power 2 stands on Fa♯ of the Re major card: what does it score?" —
        power × the key's multiplier (the game's own rule, ``kernel.token_points``)."""
        from musicgames.duel import kernel

        items = []
        for chord, key, power in tokens:
            card = self._card(chord)
            note = Note.parse(key)
            multiplier = card.multiplier(note.pitch_class)
            right = str(kernel.token_points(power, multiplier))
            candidates = ([str(kernel.token_points(power, m)) for m in (1, 2, 3)]
                          + [str(power + multiplier)])
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right]
            self.rng.shuffle(options)
            why = [
                "" if o == right else self._t("lesson.score.add") if o == str(power + multiplier)
                and right != str(power + multiplier) else ""
                for o in options
            ]
            items.append(
                Question(
                    self._t(
                        "lesson.score.prompt",
                        power=power,
                        note=self.name(note, octave=False),
                        chord=self.chord_name(card.triad),
                    ),
                    tuple(options),
                    options.index(right),
                    "",
                    self._t("lesson.score.why", note=self.name(note, octave=False), n=multiplier,
                            power=power, total=right, chord=self.chord_name(card.triad)),
                    tuple(why) if any(why) else (),
                )
            )
        return self._exercise("token_score", self._t("lesson.score.title"), items)

    # -- drills, quizzes and games ---------------------------------------------------------------
    def drill(self, notes: Iterable[Note | str] = CARD_NOTES, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.NoteDrill` in the lesson's naming and language, its
        staff as large as the exercises' (the Size setting), writing to the student's
        progress file. ``options`` go to the drill."""
        from musicgames.widgets.note_drill import NoteDrill

        options.setdefault("progress", self.progress)
        options.setdefault("staff_size", self._staff_size())
        return NoteDrill(notes, naming=self.naming, language=self.language, **options)

    def quiz(self, chords: Iterable[Triad | str] | None = None, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.ChordTonesQuiz` in the lesson's naming and language
        (its staff at the Size setting)."""
        from musicgames.widgets.chord_quiz import DEFAULT_CHORDS, ChordTonesQuiz

        options.setdefault("progress", self.progress)
        options.setdefault("staff_size", self._staff_size())
        return ChordTonesQuiz(
            DEFAULT_CHORDS if chords is None else chords,
            naming=self.naming,
            language=self.language,
            **options,
        )

    def note_snap(
        self,
        *,
        people: int = 1,
        computers: int = 1,
        level: str = "beginner",
        length: str = "short",
        **options: Any,
    ) -> Any:
        """A game of Note Snap in the lesson's naming and language, writing to the
        student's progress file. A lesson's game is ``short`` by default: it ends when
        someone empties their hand, or someone holds 40 cards (then the fewest cards win);
        ``options`` are other :class:`~musicgames.widgets.note_snap.SnapSettings` fields."""
        from musicgames.widgets.note_snap import NoteSnapWidget, SnapSettings

        seats = [{"kind": "person"}] * people + [{"kind": "computer", "level": level}] * computers
        settings = SnapSettings.from_dict(
            {
                "seats": seats,
                "length": length,
                "naming": self.naming.value,
                "language": self.language,
                **options,
            }
        )
        return NoteSnapWidget(settings, progress=self.progress)

    def keyboard_duel(self, opponent: str | None = None, **options: Any) -> Any:
        """A game of Keyboard Duel (see :func:`musicgames.widgets.play_keyboard_duel`),
        writing the student's placements, duels, rounds and games to their progress file."""
        from musicgames.widgets import play_keyboard_duel

        options.setdefault("progress", self.progress)
        return play_keyboard_duel(
            opponent, naming=self.naming, language=self.language, **options
        )
