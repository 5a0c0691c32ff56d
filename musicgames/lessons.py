"""What the lesson notebooks call: drawings in the lesson's naming, exercises with feedback.

A lesson notebook sets its naming once at the top and makes a :class:`Lesson`; every drawing,
exercise, drill and game it shows then names notes that way (Do Re Mi or C D E):

>>> lesson = Lesson(naming="letters")
>>> lesson.name("Sol3"), lesson.name("Sol3", octave=False)
('G4', 'G')

Exercises are short series of multiple-choice questions that answer at once: the chosen
button turns green or red, the right answer and a short explanation appear, then the next
question. They are ipywidgets, so they work in JupyterLab, Voila and (silently) in a
headless run; tests click their buttons with ``.click()``:

>>> ex = lesson.line_or_space(["Mi3", "Fa3"])
>>> ex.buttons[0].description, ex.buttons[1].description
('on a line', 'in a space')
>>> ex.buttons[0].click()          # Mi3 (E4) sits on the bottom line
>>> ex.correct, ex.right
(True, 1)
>>> "Right!" in ex.feedback.value
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as widgets

from musicgames.i18n import text
from musicgames.render import Drawing, keyboard_svg, staff_svg
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, Naming, Note, Triad, triad

__all__ = [
    "Exercise",
    "Lesson",
    "LessonError",
    "Question",
    "ledger_lines",
    "staff_place",
]


class LessonError(ValueError):
    """A lesson asked for something that cannot be shown: an answer not among the options…"""


# -- facts about the staff ----------------------------------------------------------------


def staff_place(note: Note | str) -> float:
    """Where a note sits on the treble staff, counted in lines from the bottom line (Mi3/E4)
    as 0 to the top line (Fa4/F5) as 4; spaces are halves.

    >>> staff_place("Mi3"), staff_place("Sol3"), staff_place("Do4"), staff_place("Do3")
    (0.0, 1.0, 2.5, -1.0)
    """
    n = Note.parse(note)
    return (n.scientific_octave * 7 + LETTERS.index(n.step) - (4 * 7 + 2)) / 2


def on_a_line(note: Note | str) -> bool:
    """Whether a note sits on a line (a staff line or a ledger line) rather than in a space.

    >>> on_a_line("Sol3"), on_a_line("La3"), on_a_line("Do3")
    (True, False, True)
    """
    return staff_place(note) == int(staff_place(note))


def ledger_lines(note: Note | str) -> int:
    """How many short ledger lines a note needs below or above the treble staff.

    >>> [ledger_lines(n) for n in ("Do3", "Re3", "Sol4", "La4", "Si4", "Do5")]
    [1, 0, 0, 1, 1, 2]
    """
    place = staff_place(note)
    if place < 0:
        return int(-place)
    if place > 4:
        return int(place) - 4
    return 0


# -- exercises ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """One multiple-choice question: ``options`` are the button labels, ``answer`` the index
    of the right one; ``picture`` is SVG or HTML shown above the buttons."""

    prompt: str
    options: tuple[str, ...]
    answer: int
    picture: str = ""
    explain: str = ""

    def __post_init__(self) -> None:
        if len(self.options) < 2:
            raise LessonError(f"{self.prompt!r}: a question needs at least two options")
        if len(set(self.options)) != len(self.options):
            raise LessonError(f"{self.prompt!r}: options {self.options!r} repeat")
        if not 0 <= self.answer < len(self.options):
            raise LessonError(
                f"{self.prompt!r}: answer {self.answer!r} is not an index of {self.options!r}"
            )


_EXERCISE_STYLE = (
    "<style>.mg-exercise{border:1px solid #d8d8d8;border-radius:10px;padding:6px 12px;"
    "max-width:760px;background:#fcfcfa}.mg-exercise-count{color:#666;margin-left:8px}"
    ".mg-exercise-prompt{font-weight:600;margin:4px 0}</style>"
)


class Exercise(widgets.VBox):
    """A series of questions, one at a time, each answered with a click and told at once.

    After the last one, the score shows, and "Try again" starts over. ``on_answer`` is called
    with ``(question, chosen_index, correct)`` after each answer.
    """

    def __init__(
        self,
        title: str,
        questions: Sequence[Question],
        *,
        language: str = "en",
        on_answer: Callable[[Question, int, bool], None] | None = None,
    ) -> None:
        if not questions:
            raise LessonError(f"exercise {title!r} has no questions")
        self.title = title
        self.questions = tuple(questions)
        self.language = language
        self.on_answer = on_answer
        self.index = 0
        self.right = 0
        self.answered = False
        self.correct: bool | None = None
        self.heading = widgets.HTML()
        self.prompt = widgets.HTML()
        self.choices = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.buttons: list[widgets.Button] = []
        self.feedback = widgets.HTML()
        self.next_button = widgets.Button(description=self._t("lesson.next"))
        self.next_button.add_class("mg-exercise-next")
        self.next_button.on_click(lambda _b: self.next())
        super().__init__(
            [self.heading, self.prompt, self.choices, self.feedback, self.next_button]
        )
        self.add_class("mg-exercise")
        self._show()

    def _t(self, string: str, /, **values: object) -> str:
        return text(string, self.language, **values)

    @property
    def question(self) -> Question:
        """The question on show."""
        return self.questions[self.index]

    def _show(self) -> None:
        q = self.question
        self.answered = False
        self.correct = None
        counter = self._t("lesson.question", n=self.index + 1, total=len(self.questions))
        self.heading.value = (
            _EXERCISE_STYLE
            + f'<div class="mg-exercise-title"><b>{escape(self.title)}</b> '
            f'<span class="mg-exercise-count">{escape(counter)}</span></div>'
        )
        picture = f'<div class="mg-exercise-picture">{q.picture}</div>' if q.picture else ""
        self.prompt.value = f'<div class="mg-exercise-prompt">{escape(q.prompt)}</div>{picture}'
        self.buttons = []
        for index, label in enumerate(q.options):
            button = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
            button.add_class("mg-exercise-option")
            button.on_click(lambda _b, i=index: self.choose(i))
            self.buttons.append(button)
        self.choices.children = tuple(self.buttons)
        self.feedback.value = ""
        self.next_button.layout.display = "none"

    def choose(self, index: int) -> None:
        """Answer the question on show with option ``index`` (what a click does)."""
        if self.answered:
            return
        q = self.question
        if not 0 <= index < len(q.options):
            raise LessonError(f"option {index!r} is not one of {len(q.options)}")
        self.answered = True
        self.correct = index == q.answer
        self.right += int(self.correct)
        for i, button in enumerate(self.buttons):
            button.disabled = True
            if i == q.answer:
                button.button_style = "success"
                button.add_class("mg-right")
            elif i == index:
                button.button_style = "danger"
                button.add_class("mg-wrong")
        if self.correct:
            verdict = self._t("lesson.right")
        else:
            verdict = self._t("lesson.wrong", answer=q.options[q.answer])
        kind = "mg-right" if self.correct else "mg-wrong"
        explain = f" {escape(q.explain)}" if q.explain else ""
        last = self.index == len(self.questions) - 1
        score = (
            f'<div class="mg-exercise-score">'
            f'{escape(self._t("lesson.done", right=self.right, total=len(self.questions)))}</div>'
            if last
            else ""
        )
        self.feedback.value = (
            f'<div class="mg-exercise-feedback {kind}" style="font-weight:600;'
            f'color:{"#2f6b45" if self.correct else "#a3303e"}">{escape(verdict)}{explain}</div>'
            + score
        )
        self.next_button.description = self._t("lesson.again" if last else "lesson.next")
        self.next_button.layout.display = None
        if self.on_answer is not None:
            self.on_answer(q, index, self.correct)

    def next(self) -> None:
        """Go on to the next question (or start again after the last)."""
        if not self.answered:
            return
        if self.index == len(self.questions) - 1:
            self.index = 0
            self.right = 0
        else:
            self.index += 1
        self._show()

    def __repr__(self) -> str:
        return f"Exercise({self.title!r}, {len(self.questions)} questions, right={self.right})"


# -- a lesson -----------------------------------------------------------------------------


_ORDINALS = ("lesson.ordinal.1", "lesson.ordinal.2", "lesson.ordinal.3", "lesson.ordinal.4",
             "lesson.ordinal.5")


class Lesson:
    """One lesson's settings — naming, language, the student — and what it shows.

    ``student`` (a name) keeps the drills', quizzes' and games' answers in the student's
    progress file (see :mod:`musicgames.progress`); ``None`` records nothing unless the
    progress file already has a name. ``seed`` makes the exercises the same every time.
    """

    def __init__(
        self,
        naming: Naming | str = Naming.SOLFEGE,
        *,
        language: str = "en",
        student: str | None = None,
        seed: int | None = 1,
        record: bool = True,
    ) -> None:
        self.naming = Naming(naming)
        self.language = language
        text("lesson.right", language)  # checks the language
        self.rng = random.Random(seed)
        self.progress: Any = None
        if record:
            from musicgames.progress import open_progress

            self.progress = open_progress(student)

    def __repr__(self) -> str:
        who = getattr(self.progress, "student", None)
        return f"Lesson(naming={self.naming.value!r}, language={self.language!r}, student={who!r})"

    def _t(self, string: str, /, **values: object) -> str:
        return text(string, self.language, **values)

    # -- names and drawings -----------------------------------------------------------------
    def name(
        self, note: Note | str | int, *, octave: bool = True, chord: Triad | str | None = None
    ) -> str:
        """A note's name in the lesson's naming; with ``chord``, spelled in the chord's key
        (:meth:`Triad.spell`: B♭ in B♭ major whether it was given as A♯ or B♭)."""
        parsed = Note.parse(note)
        if chord is not None:
            parsed = _triad(chord).spell_midi(parsed.midi)
        return parsed.label(self.naming, octave=octave)

    def chord_name(self, chord: Triad | str) -> str:
        """A triad's name in the lesson's naming and language ("Re major", "D major")."""
        return _triad(chord).name(self.naming, self.language)

    def staff(
        self, notes: Any, *, labels: bool = False, size: int = 110
    ) -> Drawing:
        """Notes (or a chord: a triad, or a tuple of notes) on the treble staff, with their
        names under them if ``labels``."""
        return staff_svg(notes, size=size, labels=self.naming if labels else None)

    def keyboard(
        self,
        octaves: int = 2,
        *,
        highlight: Iterable[Note | str | int] = (),
        chord: Triad | str | Sequence[Triad | str | None] | None = None,
        labels: bool = True,
        lowest: Note | str = "Do3",
        width: int | None = None,
    ) -> Drawing:
        """A piano keyboard starting on ``lowest``, names on the white keys if ``labels``;
        ``highlight`` colours keys, ``chord`` colours a triad's root, third and fifth (in
        every octave; or give one triad per octave, ``None`` for a plain one)."""
        chords: Triad | list[Triad | None] | None
        if chord is None or isinstance(chord, (Triad, str)):
            chords = _triad(chord) if chord is not None else None
        else:
            chords = [_triad(c) if c is not None else None for c in chord]
        return keyboard_svg(
            octaves,
            lowest=lowest,
            highlight=list(highlight),
            chord=chords,
            labels=self.naming if labels else None,
            width=width or 190 * octaves,
        )

    def octave_table(self, notes: Iterable[Note | str] = CARD_NOTES) -> Any:
        """A table of notes in both numberings: Franco-Belgian solfège, scientific letters,
        and the MIDI number."""
        from musicgames.progress import Table

        rows = tuple(
            (n.label(Naming.SOLFEGE), n.label(Naming.LETTERS), str(n.midi))
            for n in (Note.parse(x) for x in notes)
        )
        headers = (self._t("lesson.col.solfege"), self._t("lesson.col.letters"), "MIDI")
        return Table(headers, rows)

    def triad_table(self, chords: Iterable[Triad | str]) -> Any:
        """Each triad's root, third and fifth, with the intervals music21 measures between
        them: a major third is 4 semitones, a minor third 3, a perfect fifth 7."""
        from music21.interval import Interval

        from musicgames.progress import Table

        rows = []
        for chord in (_triad(c) for c in chords):
            root, third, fifth = (t.to_music21() for t in chord.tones)
            rows.append(
                (
                    self.chord_name(chord),
                    self.name(chord.root, octave=False),
                    self.name(chord.third, octave=False),
                    self.name(chord.fifth, octave=False),
                    f"{Interval(root, third).niceName} ({Interval(root, third).semitones})",
                    f"{Interval(root, fifth).niceName} ({Interval(root, fifth).semitones})",
                )
            )
        headers = tuple(
            self._t(f"lesson.col.{key}")
            for key in ("chord", "root", "third", "fifth", "root_third", "root_fifth")
        )
        return Table(headers, tuple(rows))

    # -- exercises ----------------------------------------------------------------------------
    def exercise(self, title: str, questions: Sequence[Question]) -> Exercise:
        """An exercise of your own questions."""
        return Exercise(title, questions, language=self.language)

    def choice(
        self,
        prompt: str,
        options: Sequence[str],
        answer: int | str,
        *,
        picture: str = "",
        explain: str = "",
        title: str | None = None,
    ) -> Exercise:
        """One multiple-choice question; ``answer`` is the right option or its index."""
        index = options.index(answer) if isinstance(answer, str) else answer
        question = Question(prompt, tuple(options), index, str(picture), explain)
        return Exercise(title or self._t("lesson.exercise"), [question], language=self.language)

    def _pick(self, options: list[str], right: str, count: int) -> tuple[tuple[str, ...], int]:
        others = [o for o in dict.fromkeys(options) if o != right]
        chosen = self.rng.sample(others, min(count - 1, len(others))) + [right]
        self.rng.shuffle(chosen)
        return tuple(chosen), chosen.index(right)

    def line_or_space(self, notes: Iterable[Note | str]) -> Exercise:
        """"Is this note on a line or in a space?" for each note."""
        options = (self._t("lesson.line"), self._t("lesson.space"))
        questions = []
        for note in (Note.parse(n) for n in notes):
            line = on_a_line(note)
            place = staff_place(note)
            if line and 0 <= place <= 4:
                why = self._t("lesson.line.which", n=self._t(_ORDINALS[int(place)]))
            elif line:
                why = self._t("lesson.line.ledger")
            else:
                why = self._t("lesson.space.why")
            questions.append(
                Question(
                    self._t("lesson.line_or_space.prompt"),
                    options,
                    0 if line else 1,
                    str(self.staff(note)),
                    f"{self.name(note)}: {why}",
                )
            )
        return Exercise(self._t("lesson.line_or_space.title"), questions, language=self.language)

    def name_notes(
        self, notes: Iterable[Note | str], *, questions: int | None = None, choices: int = 4
    ) -> Exercise:
        """"Which note is this?" — a note on the staff, names to choose from (no octave)."""
        pool = [Note.parse(n) for n in notes]
        if questions is not None:
            pool = [self.rng.choice(pool) for _ in range(questions)] if questions else []
        names = [self.name(n, octave=False) for n in CARD_NOTES]
        items = []
        for note in pool:
            right = self.name(note, octave=False)
            options, index = self._pick(names, right, choices)
            items.append(
                Question(
                    self._t("lesson.name.prompt"),
                    options,
                    index,
                    str(self.staff(note)),
                    self._t("lesson.name.why", name=self.name(note)),
                )
            )
        return Exercise(self._t("lesson.name.title"), items, language=self.language)

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
            items.append(
                Question(
                    self._t(
                        f"lesson.octave.prompt.{other.value}", name=note.label(shown_naming)
                    ),
                    tuple(options),
                    options.index(right),
                    str(self.staff(note)),
                    self._t("lesson.octave.why"),
                )
            )
        return Exercise(self._t("lesson.octave.title"), items, language=self.language)

    def ledger_line_count(self, notes: Iterable[Note | str]) -> Exercise:
        """"How many ledger lines does this note need?" for each note."""
        items = []
        for note in (Note.parse(n) for n in notes):
            count = ledger_lines(note)
            items.append(
                Question(
                    self._t("lesson.ledger.prompt", name=self.name(note)),
                    ("0", "1", "2", "3"),
                    count,
                    str(self.staff(note)),
                    self._t("lesson.ledger.why", name=self.name(note), n=count),
                )
            )
        return Exercise(self._t("lesson.ledger.title"), items, language=self.language)

    def marked_key(self, notes: Iterable[Note | str], *, octaves: int = 3) -> Exercise:
        """"Which note is the marked key?" — with octave numbers, so the octave matters."""
        items = []
        for note in (Note.parse(n) for n in notes):
            right = self.name(note)
            base = self.name(note, octave=False)
            number = note.octave if self.naming is Naming.SOLFEGE else note.scientific_octave
            options = [f"{base}{number + k}" for k in (-1, 0, 1)]
            self.rng.shuffle(options)
            items.append(
                Question(
                    self._t("lesson.key.prompt"),
                    tuple(options),
                    options.index(right),
                    str(self.keyboard(octaves, highlight=[note], labels=False)),
                    self._t("lesson.key.why", name=right),
                )
            )
        return Exercise(self._t("lesson.key.title"), items, language=self.language)

    def chord_quality(self, chords: Iterable[Triad | str]) -> Exercise:
        """"Major or minor?" — each triad on the staff and the keyboard."""
        options = (self._t("lesson.major"), self._t("lesson.minor"))
        items = []
        for chord in (_triad(c) for c in chords):
            semitones = (chord.third.midi - chord.root.midi) % 12
            picture = f"{self.staff(chord)}<br>{self.keyboard(2, highlight=chord.tones)}"
            items.append(
                Question(
                    self._t("lesson.quality.prompt"),
                    options,
                    0 if chord.quality == "major" else 1,
                    picture,
                    self._t(
                        f"lesson.quality.why.{chord.quality}",
                        chord=self.chord_name(chord),
                        n=semitones,
                    ),
                )
            )
        return Exercise(self._t("lesson.quality.title"), items, language=self.language)

    def chord_tone(self, chords: Iterable[Triad | str], which: str = "third") -> Exercise:
        """"What is the third (root, fifth) of Re major?" with note names to choose from."""
        if which not in ("root", "third", "fifth"):
            raise LessonError(f"which={which!r}: use 'root', 'third' or 'fifth'")
        items = []
        for chord in (_triad(c) for c in chords):
            tone = getattr(chord, which)
            right = self.name(tone, octave=False)
            wrong = [self.name(t, octave=False) for t in chord.tones if t != tone]
            neighbour = Note.parse(tone.midi + (1 if chord.quality == "minor" else -1))
            candidates = wrong + [self.name(neighbour, octave=False, chord=chord)]
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right][:3]
            self.rng.shuffle(options)
            items.append(
                Question(
                    self._t(f"lesson.tone.prompt.{which}", chord=self.chord_name(chord)),
                    tuple(options),
                    options.index(right),
                    "",
                    self._t(
                        "lesson.tone.why",
                        chord=self.chord_name(chord),
                        tones=" – ".join(self.name(t, octave=False) for t in chord.tones),
                    ),
                )
            )
        return Exercise(self._t(f"lesson.tone.title.{which}"), items, language=self.language)

    # -- Note Snap: the call cycle and matches ---------------------------------------------
    def _syllable_name(self, syllable: str) -> str:
        return self.name(Note.parse(f"{syllable}3"), octave=False)

    def call_cycle(self, calls: Iterable[str]) -> Exercise:
        """"The last call was Sol. What is called next?" — the Note Snap cycle Do Re Mi Fa Sol
        La Si, then Do again (rule S5). ``calls`` are solfège syllables or letters."""
        cycle = [self._syllable_name(s) for s in SYLLABLES]
        items = []
        for call in calls:
            index = LETTERS.index(Note.parse(f"{call}3" if call[-1:].isalpha() else call).step)
            right = cycle[(index + 1) % 7]
            options, answer = self._pick(cycle, right, 4)
            items.append(
                Question(
                    self._t("lesson.cycle.prompt", call=cycle[index]),
                    options,
                    answer,
                    "",
                    self._t("lesson.cycle.why", cycle=" ".join(cycle)),
                )
            )
        return Exercise(self._t("lesson.cycle.title"), items, language=self.language)

    def match_or_not(self, pairs: Iterable[tuple[str, Note | str]]) -> Exercise:
        """"The call is Re. Is this card a match?" for (call, card note) pairs: a match when
        the card's name is the name called, in any octave (rule S6)."""
        options = (self._t("lesson.match.yes"), self._t("lesson.match.no"))
        items = []
        for call, card in pairs:
            note = Note.parse(card)
            called = Note.parse(f"{call}3" if call[-1:].isalpha() else call)
            match = called.step == note.step
            why = "lesson.match.why.yes" if match else "lesson.match.why.no"
            items.append(
                Question(
                    self._t("lesson.match.prompt", call=self.name(called, octave=False)),
                    options,
                    0 if match else 1,
                    str(self.staff(note)),
                    self._t(why, card=self.name(note), call=self.name(called, octave=False)),
                )
            )
        return Exercise(self._t("lesson.match.title"), items, language=self.language)

    # -- Keyboard Duel: what a key is worth ----------------------------------------------------
    def piano_cards(self, *chords: Triad | str) -> Drawing:
        """Piano cards side by side as on the Keyboard Duel board (two in a game): the chord
        tones coloured, the root marked fff, the third ff, the fifth f (rule D4)."""
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
            width=210 * len(cards),
        )

    def _card(self, chord: Triad | str) -> Any:
        """The Keyboard Duel piano card of a triad (any spelling of its tones)."""
        from musicgames.duel.cards import PIANO_CARDS

        wanted = _triad(chord)
        for card in PIANO_CARDS:
            if card.triad.pitch_classes == wanted.pitch_classes:
                return card
        raise LessonError(f"{chord!r} is not a piano card")  # pragma: no cover - all 24 are

    def key_worth(self, chord: Triad | str, notes: Iterable[Note | str]) -> Exercise:
        """"On the Re major card, what is the key Fa♯ worth?" — ×3 for the root (fff), ×2 for
        the third (ff), ×1 for the fifth (f) and for every unmarked key (rules D4, D13)."""
        card = self._card(chord)
        options = ("×1", "×2", "×3")
        items = []
        for note in (Note.parse(n) for n in notes):
            multiplier = card.multiplier(note.pitch_class)
            mark = card.marks.get(note.pitch_class, "")
            why = "lesson.worth.why.mark" if mark else "lesson.worth.why.plain"
            items.append(
                Question(
                    self._t(
                        "lesson.worth.prompt",
                        chord=self.chord_name(card.triad),
                        note=self.name(note, octave=False, chord=card.triad),
                    ),
                    options,
                    multiplier - 1,
                    str(self.piano_cards(card.triad)),
                    self._t(why, mark=mark, n=multiplier),
                )
            )
        return Exercise(self._t("lesson.worth.title"), items, language=self.language)

    def token_score(self, tokens: Iterable[tuple[Triad | str, Note | str, int]]) -> Exercise:
        """"A token of power 2 stands on Fa♯ of the Re major card: what does it score?" —
        power × the key's multiplier (rule D13)."""
        items = []
        for chord, key, power in tokens:
            card = self._card(chord)
            note = Note.parse(key)
            multiplier = card.multiplier(note.pitch_class)
            right = str(power * multiplier)
            candidates = [str(power * m) for m in (1, 2, 3)] + [str(power + multiplier)]
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right]
            self.rng.shuffle(options)
            items.append(
                Question(
                    self._t(
                        "lesson.score.prompt",
                        power=power,
                        note=self.name(note, octave=False, chord=card.triad),
                        chord=self.chord_name(card.triad),
                    ),
                    tuple(options),
                    options.index(right),
                    "",
                    self._t("lesson.score.why", power=power, n=multiplier, total=right),
                )
            )
        return Exercise(self._t("lesson.score.title"), items, language=self.language)

    # -- drills, quizzes and games ---------------------------------------------------------------
    def drill(self, notes: Iterable[Note | str] = CARD_NOTES, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.NoteDrill` in the lesson's naming and language,
        writing to the student's progress file. ``options`` go to the drill."""
        from musicgames.widgets.note_drill import NoteDrill

        options.setdefault("progress", self.progress)
        return NoteDrill(notes, naming=self.naming, language=self.language, **options)

    def quiz(self, chords: Iterable[Triad | str] | None = None, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.ChordTonesQuiz` in the lesson's naming and language."""
        from musicgames.widgets.chord_quiz import DEFAULT_CHORDS, ChordTonesQuiz

        options.setdefault("progress", self.progress)
        return ChordTonesQuiz(
            DEFAULT_CHORDS if chords is None else chords,
            naming=self.naming,
            language=self.language,
            **options,
        )

    def note_snap(self, **options: Any) -> Any:
        """A game of Note Snap (see :func:`musicgames.widgets.play_note_snap`)."""
        from musicgames.widgets import play_note_snap

        options.setdefault("progress", self.progress)
        return play_note_snap(naming=self.naming, language=self.language, **options)

    def keyboard_duel(self, opponent: str | None = None, **options: Any) -> Any:
        """A game of Keyboard Duel (see :func:`musicgames.widgets.play_keyboard_duel`),
        writing the student's placements, duels, rounds and games to their progress file."""
        from musicgames.widgets import play_keyboard_duel

        options.setdefault("progress", self.progress)
        return play_keyboard_duel(
            opponent, naming=self.naming, language=self.language, **options
        )


def _triad(chord: Triad | str) -> Triad:
    if isinstance(chord, Triad):
        return chord
    root, _, quality = chord.strip().partition(" ")
    return triad(root, quality.strip() or "major")
