"""Exercises: short series of multiple-choice questions that answer at once, and say why.

The chosen button turns green or red (and stays so under the mouse), the right answer turns
green, and an explanation appears: for a wrong answer it says what the chosen answer would
have been and why the right one is right. They are ipywidgets, so they work in JupyterLab,
Voila and (silently) in a headless run; tests click their buttons with ``.click()``:

>>> q = Question("How many lines?", ("4", "5"), 1, explain="Five lines, four spaces.",
...              why=("Count again: four is the number of spaces.", ""))
>>> ex = Exercise("Test", [q])
>>> ex.buttons[0].click()
>>> ex.correct, "Count again" in ex.feedback.value, "Five lines" in ex.feedback.value
(False, True, True)

A question that asks for a note can be answered by playing it (``notes``: the note each
option names); a played note answers as a click on its option:

>>> q = Question("Which note?", ("Sol", "La"), 1, notes=(Note.parse("Sol3"), Note.parse("La3")),
...              octave="never")
>>> ex = Exercise("Test", [q])
>>> ex.answer_input.listening
True
>>> ex.play(81)                # La4: the options name no octave
>>> ex.correct, ex.answer_input.listening
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as widgets

from musicgames.i18n import text
from musicgames.theory import Naming, Note
from musicgames.widgets._playing import same_note
from musicgames.widgets.answer_input import AnswerInput
from musicgames.widgets.key_guard import keep_keys

__all__ = ["SIZES", "Exercise", "LessonError", "Question", "lesson_css"]

#: Whether the octave of a played note counts (see :class:`Question`).
OCTAVE_RULES: tuple[str, ...] = ("setting", "never", "always")
#: The size settings: how much larger than the first version's drawings (staff 110 px high).
SIZES: dict[str, float] = {"normal": 2.0, "large": 2.6, "small": 1.5}


class LessonError(ValueError):
    """A lesson asked for something that cannot be shown: an answer not among the options…"""


@dataclass(frozen=True)
class Question:
    """One multiple-choice question: ``options`` are the button labels, ``answer`` the index
    of the right one; ``picture`` is SVG or HTML shown above the buttons; ``explain`` is said
    after any answer; ``why`` (one text per option, or empty) says what is wrong with a wrong
    option; ``wrong_picture`` is a small drawing shown with a wrong answer's explanation;
    ``sound`` are the notes heard after the answer (one after another if ``broken``), and
    with ``listen`` a Listen button plays them before the answer (a question by ear);
    ``explain_wrong=False`` says ``explain`` only after a right answer (when each wrong
    option's ``why`` already says it all).

    A question that asks for a note can be answered by playing it (a MIDI keyboard, the
    microphone): ``notes`` gives the note each option names (``None`` for one that names
    none), and ``octave`` whether the octave of the note played counts: ``"setting"`` (as
    the student's "any octave" setting says), ``"never"`` (the options name no octave) or
    ``"always"`` (the question is about the octave)."""

    prompt: str
    options: tuple[str, ...]
    answer: int
    picture: str = ""
    explain: str = ""
    why: tuple[str, ...] = ()
    wrong_picture: str = ""
    sound: tuple[Any, ...] = ()
    broken: bool = False
    listen: bool = False
    explain_wrong: bool = True
    notes: tuple[Note | None, ...] = ()
    octave: str = "setting"

    def __post_init__(self) -> None:
        if len(self.options) < 2:
            raise LessonError(f"{self.prompt!r}: a question needs at least two options")
        if len(set(self.options)) != len(self.options):
            raise LessonError(f"{self.prompt!r}: options {self.options!r} repeat")
        if not 0 <= self.answer < len(self.options):
            raise LessonError(
                f"{self.prompt!r}: answer {self.answer!r} is not an index of {self.options!r}"
            )
        if self.why and len(self.why) != len(self.options):
            raise LessonError(f"{self.prompt!r}: give one 'why' per option, or none")
        if self.notes and len(self.notes) != len(self.options):
            raise LessonError(f"{self.prompt!r}: give one note per option, or none")
        if self.octave not in OCTAVE_RULES:
            raise LessonError(f"octave={self.octave!r}: use one of {', '.join(OCTAVE_RULES)}")

    def option_played(self, midi: int, *, any_octave: bool = False) -> int | None:
        """The option a note played (MIDI number, the written note) answers, or ``None``
        when it names none of them. Two options may name the same key (Fa♯3 and Sol♭3):
        the key of the right answer answers right, since playing tells the key, not how it
        is spelled.

        >>> q = Question("Which note?", ("Fa♯3", "Sol♭3", "Sol3"), 0,
        ...              notes=tuple(Note.parse(n) for n in ("Fa#3", "Solb3", "Sol3")))
        >>> q.option_played(66), q.option_played(67), q.option_played(79)
        (0, 2, None)
        >>> q.option_played(79, any_octave=True)
        2
        """
        loose = self.octave == "never" or (self.octave == "setting" and any_octave)
        found = [
            index
            for index, note in enumerate(self.notes)
            if note is not None and same_note(note, midi, any_octave=loose)
        ]
        if not found:
            return None
        return self.answer if self.answer in found else found[0]


def lesson_css() -> str:
    """The lessons' look, sized for children: an exercise of size ``normal`` draws its
    staves twice the first version's size and writes in large letters (``small`` and
    ``large`` likewise). Nothing is wider than its column (pictures shrink to fit), and the
    mouse over a button never hides whether it was right (green) or wrong (red)."""
    fonts = "".join(
        f".mg-exercise.mg-size-{size}{{font-size:{14 + 2 * scale:.0f}px}}"
        for size, scale in SIZES.items()
    )
    return (
        "<style>"
        ".mg-lesson-block{max-width:100%;overflow:hidden}"
        ".mg-lesson-block svg,.mg-exercise svg,.mg-figure svg{max-width:100%;height:auto}"
        ".mg-figure{max-width:100%;overflow-x:auto;margin:4px 0}"
        ".mg-figure table{font-size:16px}"
        ".mg-exercise{border:1px solid #d8d8d8;border-radius:12px;padding:8px 14px;"
        "max-width:min(100%,800px);box-sizing:border-box;background:#fcfcfa;font-size:18px}"
        + fonts
        + ".mg-exercise .widget-html,.mg-exercise .widget-html-content{font-size:inherit;"
        "line-height:1.45}"
        ".mg-exercise-count{color:#555;margin-left:8px}"
        ".mg-exercise-prompt{font-weight:600;margin:6px 0;font-size:1.1em}"
        ".mg-exercise-picture{margin:4px 0}"
        ".mg-exercise .mg-exercise-option{font-size:1.1em;height:auto;min-height:2.2em;"
        "min-width:3.2em;padding:0.25em 0.9em;margin:4px 8px 4px 0;border-radius:8px}"
        ".mg-exercise .mg-exercise-option:disabled{opacity:0.75;cursor:default}"
        ".mg-exercise .jupyter-button.mg-right,.mg-exercise .jupyter-button.mg-right:hover,"
        ".mg-exercise .jupyter-button.mg-right:disabled{background:#2f8a4f !important;"
        "color:#fff !important;opacity:1 !important}"
        ".mg-exercise .jupyter-button.mg-wrong,.mg-exercise .jupyter-button.mg-wrong:hover,"
        ".mg-exercise .jupyter-button.mg-wrong:disabled{background:#c0392b !important;"
        "color:#fff !important;opacity:1 !important}"
        ".mg-exercise-feedback{margin:6px 0}"
        ".mg-exercise-feedback.mg-right .mg-verdict{color:#2f6b45;font-weight:700}"
        ".mg-exercise-feedback.mg-wrong .mg-verdict{color:#a3303e;font-weight:700}"
        ".mg-exercise-why{display:block;margin-top:2px}"
        ".mg-exercise-score{font-weight:700;margin-top:4px}"
        ".mg-exercise-next,.mg-exercise-listen{font-size:1em;height:auto;min-height:2em}"
        ".mg-lesson-summary-box h3{margin:8px 0 4px}"
        ".mg-run-hint,.mg-run-again{display:none}"
        ".mg-staff-row{margin:2px 0}"
        "</style>"
    )


class Exercise(widgets.VBox):
    """A series of questions, one at a time, each answered with a click and told at once.

    After the last one, the score shows, and "Try again" starts over. ``on_answer`` is called
    with ``(question, chosen_index, correct)`` as each answer is given, before the page shows
    right or wrong (so a stored answer is on disk first); ``on_answer_notes`` is for
    the sound the lesson plays after an answer.
    """

    def __init__(
        self,
        title: str,
        questions: Sequence[Question],
        *,
        language: str = "en",
        on_answer: Callable[[Question, int, bool], None] | None = None,
        on_listen: Callable[[Question], None] | None = None,
        kind: str = "choice",
        size: str = "normal",
        progress: object = None,
        naming: Naming | str = Naming.SOLFEGE,
    ) -> None:
        if not questions:
            raise LessonError(f"exercise {title!r} has no questions")
        self.title = title
        self._naming = Naming(naming)
        self.kind = kind
        self.questions = tuple(questions)
        self.language = language
        self.on_answer = on_answer
        self.on_listen = on_listen
        self.index = 0
        self.right = 0
        self.answered = False
        self.correct: bool | None = None
        self.heading = widgets.HTML()
        self.prompt = widgets.HTML()
        self.listen_button = widgets.Button(description=self._t("lesson.listen"),
                                            layout=widgets.Layout(width="auto",
                                                                align_self="flex-start"))
        self.listen_button.add_class("mg-exercise-listen")
        self.listen_button.on_click(lambda _b: self.listen())
        self.choices = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.buttons: list[widgets.Button] = []
        self.feedback = widgets.HTML()
        self.next_button = widgets.Button(description=self._t("lesson.next"),
                                          layout=widgets.Layout(width="auto",
                                                                align_self="flex-start"))
        self.next_button.add_class("mg-exercise-next")
        self.next_button.on_click(lambda _b: self.next())
        #: The "answer with" switch, when a question asks for a note (it can be played).
        self.answer_input: AnswerInput | None = None
        playable: list[Any] = []
        if any(q.notes for q in self.questions):
            self.answer_input = AnswerInput(
                on_played=lambda midi, any_octave: self.play(midi, any_octave=any_octave),
                progress=progress,
                naming=naming,
                language=language,
            )
            playable = [self.answer_input]
        super().__init__(
            [self.heading, *playable, self.prompt, self.listen_button, self.choices,
             self.feedback, self.next_button]
        )
        self.add_class("mg-exercise")
        self.add_class(f"mg-exercise-{kind.replace('_', '-')}")
        self.add_class(f"mg-size-{size if size in SIZES else 'normal'}")
        keep_keys(self)  # no key pressed on its buttons runs or adds a cell
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
            lesson_css()
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
        if self.answer_input is not None:
            self.answer_input.listening = bool(q.notes)
        self.listen_button.layout.display = None if q.listen else "none"

    def listen(self) -> None:
        """Play the question's sound (what the Listen button does)."""
        if self.on_listen is not None and self.question.sound:
            self.on_listen(self.question)

    def feedback_html(self, index: int, question: Question | None = None) -> str:
        """What the page says after option ``index`` is chosen (without the score)."""
        q = question or self.question
        correct = index == q.answer
        kind = "mg-right" if correct else "mg-wrong"
        verdict = self._t("lesson.right" if correct else "lesson.wrong")
        parts = [f'<span class="mg-verdict">{escape(verdict)}</span>']
        if not correct and q.why and q.why[index]:
            parts.append(f'<span class="mg-exercise-why">{escape(q.why[index])}</span>')
        has_why = bool(q.why and q.why[index])
        if q.explain and (correct or q.explain_wrong or not has_why):
            parts.append(f'<span class="mg-exercise-why">{escape(q.explain)}</span>')
        elif not correct and not (q.why and q.why[index]):
            answer = self._t("lesson.answer.is", answer=q.options[q.answer])
            parts.append(f'<span class="mg-exercise-why">{escape(answer)}</span>')
        picture = (
            f'<div class="mg-exercise-picture">{q.wrong_picture}</div>'
            if not correct and q.wrong_picture
            else ""
        )
        return f'<div class="mg-exercise-feedback {kind}">{" ".join(parts)}</div>{picture}'

    def choose(self, index: int) -> None:
        """Answer the question on show with option ``index`` (what a click does)."""
        if self.answered:
            return
        q = self.question
        if not 0 <= index < len(q.options):
            raise LessonError(f"option {index!r} is not one of {len(q.options)}")
        self.answered = True
        if self.answer_input is not None:
            self.answer_input.listening = False
        self.correct = index == q.answer
        self.right += int(self.correct)
        if self.on_answer is not None:  # stored before the page shows the verdict
            self.on_answer(q, index, self.correct)
        for i, button in enumerate(self.buttons):
            button.disabled = True
            if i == q.answer:
                button.button_style = "success"
                button.add_class("mg-right")
            elif i == index:
                button.button_style = "danger"
                button.add_class("mg-wrong")
        last = self.index == len(self.questions) - 1
        score = (
            f'<div class="mg-exercise-score">'
            f'{escape(self._t("lesson.done", right=self.right, total=len(self.questions)))}</div>'
            if last
            else ""
        )
        self.feedback.value = self.feedback_html(index) + score
        self.next_button.description = self._t("lesson.again" if last else "lesson.next")
        self.next_button.layout.display = None

    def play(self, midi: int, *, any_octave: bool = False) -> None:
        """Answer the question on show with a note played (the written note's MIDI number,
        60 = Do3), as a click on the option that names it; a note no option names is said
        to be none of them, and the question still waits."""
        if self.answered or not self.question.notes:
            return
        index = self.question.option_played(midi, any_octave=any_octave)
        if index is not None:
            self.choose(index)
            return
        name = Note.parse(midi).label(self._naming, language=self.language)
        said = self._t("play.not_offered", name=name)
        self.feedback.value = (
            f'<div class="mg-exercise-feedback mg-wrong"><span class="mg-exercise-why">'
            f"{escape(said)}</span></div>"
        )

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
