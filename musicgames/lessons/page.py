"""A lesson notebook's page: the settings panel at the top, each step, the summary at the end.

A lesson notebook holds no teaching code. Its first cell opens the lesson and shows the
settings; every other code cell shows one step of the lesson's plan by its id:

>>> lesson = open_lesson("01-the-staff", "es", remember=False, record=False)
>>> block = lesson.show("line-or-space")
>>> ex = block.children[0]
>>> ex.buttons[1].click()          # Mi3 sits on a line, not in a space
>>> "Mi3 está en la 1.ª línea (la de abajo)" in ex.feedback.value
True
>>> lesson.results
{'line-or-space': [False]}

When the settings change (Do Re Mi or C D E, the size), every step is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from html import escape
from typing import Any
from urllib.parse import urlencode

import ipywidgets as widgets

from musicgames import appmode
from musicgames.i18n import LANGUAGES, text
from musicgames.lessons.base import spellings
from musicgames.lessons.course import COURSE
from musicgames.lessons.exercises import SIZES, Exercise, LessonError, Question, lesson_css
from musicgames.lessons.lesson import Lesson
from musicgames.lessons.plan import Md, Plan, Step, resolve
from musicgames.lessons.settings import LessonSettings
from musicgames.progress.errors import ProgressError
from musicgames.progress.store import open_progress
from musicgames.theory import SYLLABLES, SYLLABLES_BY_LANGUAGE, Naming, Note
from musicgames.widgets.hand_in import by_download, hand_in_button
from musicgames.widgets.key_guard import keep_keys
from musicgames.widgets.lesson_sound import LessonSound

__all__ = ["LessonPage", "lesson_exercises", "lesson_title", "open_lesson", "plan_of"]


#: The catalogue key of each kind of exercise's title (``lesson.<key>.title``).
_TITLE_KEYS = {
    "line_or_space": "line_or_space",
    "name_notes": "name",
    "octave_names": "octave",
    "ledger_line_count": "ledger",
    "marked_key": "key",
    "chord_quality": "quality",
    "call_cycle": "cycle",
    "match_or_not": "match",
    "key_worth": "worth",
    "token_score": "score",
    "half_steps": "half",
    "by_ear": "ear",
    "black_key_names": "black",
    "read_accidentals": "accidental",
    "enharmonic": "enharmonic",
    "spell_in_chord": "spell",
}


def _course() -> tuple[Plan, ...]:
    return COURSE


def plan_of(lesson_id: str) -> Plan:
    """The plan of a lesson by its id (``"04-sharps-and-flats"``)."""
    for plan in _course():
        if plan.id == lesson_id:
            return plan
    known = ", ".join(p.id for p in _course())
    raise LessonError(f"there is no lesson {lesson_id!r}: the lessons are {known}")


def lesson_exercises() -> dict[str, list[str]]:
    """Every lesson's exercises, in order: ``{lesson id: [exercise id, …]}``. A lesson
    exercise's answers are recorded with activity ``"lesson"`` and item
    ``"<lesson id>/<exercise id>"``, so a teacher can see which a student has done.

    >>> lesson_exercises()["01-the-staff"]
    ['staff-lines', 'line-or-space', 'clef', 'name-notes']
    """
    return {plan.id: plan.exercises for plan in _course()}


def lesson_title(lesson_id: str, language: str = "en") -> str:
    """A lesson's title in ``language``, as the heading of its notebook says it (what a
    teacher's tables show instead of the lesson's id).

    >>> lesson_title("01-the-staff", "es")
    'Lección 1 · El pentagrama'
    """
    plan = plan_of(lesson_id)
    heading = next(c for c in plan.cells if isinstance(c, Md)).text[language]
    return heading.strip().splitlines()[0].lstrip("#").strip()


#: Hides a widget output whose model is gone (JupyterLab's "Error displaying widget: model
#: not found" in a reopened lesson) in a notebook that holds run-again lines.
_HIDE_LOST_WIDGETS = (
    "<style>.jp-Notebook:has(.mg-run-again) "
    ".jp-OutputArea-output.jupyter-widgets:not(:has(*)){display:none}</style>"
)


def _run_again_line(language: str) -> str:
    """What a lesson cell shows when its widget is gone: a notebook saved with its outputs
    and opened again keeps them, but not the kernel that drew them. While the lesson runs,
    its style hides this line; in an app (Voila, the classroom) there is none."""
    import os

    if appmode.in_app() or os.environ.get("VOILA_KERNEL_ID"):
        return ""
    said = escape(text("lesson.run_again", language))
    return f'<div class="mg-run-again" lang="{language}">{_HIDE_LOST_WIDGETS}{said}</div>'


class _Shown:
    """A lesson cell's widget, shown after its run-again line (:func:`_run_again_line`)."""

    run_again = ""

    def _ipython_display_(self) -> None:
        from IPython.display import display

        if self.run_again:
            display({"text/html": self.run_again}, raw=True)
        display(self._repr_mimebundle_(), raw=True)  # type: ignore[attr-defined]


class _Box(_Shown, widgets.VBox):
    """A box of a lesson page (the settings, the summary)."""


class _Block(_Shown, widgets.VBox):
    """One step's output, drawn again when the settings change."""

    def __init__(self, make: Callable[[], Any]) -> None:
        super().__init__()
        self.add_class("mg-lesson-block")
        self._make = make
        self.refresh()

    def refresh(self) -> None:
        shown = self._make()
        self.children = (shown,)


def _as_widget(shown: Any) -> widgets.Widget:
    if isinstance(shown, widgets.Widget):
        return shown
    html = shown._repr_html_() if hasattr(shown, "_repr_html_") else str(shown)
    figure = widgets.HTML(f'<div class="mg-figure">{html}</div>')
    figure.add_class("mg-figure-box")
    return figure


class LessonPage(Lesson):
    """A lesson as its notebook shows it: :meth:`settings`, :meth:`show` for each step of
    its plan, :meth:`summary` at the end. Make one with :func:`open_lesson`."""

    def __init__(
        self,
        plan: Plan,
        language: str = "en",
        settings: LessonSettings | None = None,
        *,
        remember: bool = True,
        record: bool = True,
    ) -> None:
        chosen = settings or (LessonSettings.load() if remember else LessonSettings())
        in_app = appmode.in_app()
        if in_app:  # the page's own address: its student, and the start page's naming
            chosen = replace(chosen, student=appmode.student())
            naming = appmode.address_value("naming")
            if naming in {n.value for n in Naming}:
                chosen = replace(chosen, naming=naming)
        super().__init__(
            chosen.naming, language=language, record=False, size=chosen.size,
            sound=chosen.sound,
        )
        self.plan = plan
        self.lesson_id = plan.id
        self.remember = remember
        self.record = record
        self.chosen = chosen
        self.results: dict[str, list[bool]] = {}
        self.titles: dict[str, str] = {}
        self._blocks: list[_Block] = []
        self._summaries: list[_Block] = []
        self._panel: widgets.VBox | None = None
        self.store_problem = ""
        self.on_answer = self._note
        #: In a classroom app the page records for the student in its address, or for
        #: nobody: never for a name remembered from another page or typed in this one.
        self.in_app = in_app
        self.student = chosen.student if in_app else (appmode.student() or chosen.student)
        self._open_store()

    def __repr__(self) -> str:
        return f"open_lesson({self.lesson_id!r}, {self.language!r})"

    # -- the student's progress file ----------------------------------------------------------
    def _open_store(self) -> None:
        if self.progress is not None:
            self.progress.close()
            self.progress = None
        self.store_problem = ""
        if not self.record or not self.student:
            return
        try:
            folder = appmode.class_folder() if appmode.in_app() else None
            if folder is not None:  # the file the student's games write to, whatever spelling
                self.progress = appmode.student_store(self.student, folder)
            else:
                self.progress = open_progress(self.student)
        except (ProgressError, ValueError, OSError):
            self.progress = None
            self.store_problem = self._t("lesson.settings.refused", name=self.student)

    def _note(self, step: str, question: Question, index: int, correct: bool) -> None:
        self.results.setdefault(step, []).append(correct)
        for block in self._summaries:
            block.refresh()

    # -- steps ----------------------------------------------------------------------------------
    def _taught_by(self, step: Step) -> frozenset[tuple[str, int]]:
        """The spellings the course has taught before this step: earlier lessons, then the
        text above the step in this one."""
        names: list[str] = []
        for plan in _course():
            if plan.id == self.plan.id:
                break
            names.extend(plan.taught)
        return spellings([*names, *self.plan.taught_before(step.id)])

    def _build(self, step: Step) -> widgets.Widget:
        self.rng = random.Random(f"{self.seed}/{self.lesson_id}/{step.id}")
        self.taught = self._taught_by(step)
        self._step = step.id
        args = resolve(step.args, self.language)
        kwargs = resolve(step.kwargs, self.language)
        if step.kind == "choice":
            kwargs.setdefault("picture", "")
            kwargs["picture"] = self._picture(kwargs["picture"])
        shown = getattr(self, step.kind)(*args, **kwargs)
        self._step = ""
        if isinstance(shown, Exercise):
            self.titles[step.id] = shown.title
        return _as_widget(shown)

    def _picture(self, spec: Any) -> str:
        """A choice question's picture: ``("staff", notes)`` or ``("keyboard", notes)``."""
        if not spec:
            return ""
        kind, notes = spec
        if kind == "staff":
            return str(self.staff(notes))
        return str(self.keyboard(1, highlight=notes))

    def show(self, step_id: str) -> widgets.Widget:
        """Show one step of the lesson: a drawing, an exercise, a drill or a game."""
        steps = self.plan.steps
        if step_id not in steps:
            raise LessonError(
                f"lesson {self.lesson_id!r} has no step {step_id!r}: it has {', '.join(steps)}"
            )
        step = steps[step_id]
        block = _Block(lambda: self._build(step))
        block.run_again = _run_again_line(self.language)
        block.add_class(f"mg-step-{step.kind.replace('_', '-')}")
        self._blocks.append(block)
        return block

    # -- settings -------------------------------------------------------------------------------
    def settings(self) -> widgets.VBox:
        """The settings panel: the student's name, Do Re Mi or C D E, sound, size, and a
        link to the same lesson in the other language. Changes are remembered."""
        t = self._t
        style = widgets.HTML(lesson_css())
        name = widgets.Text(
            value=self.student or "",
            placeholder=t("lesson.settings.name.placeholder"),
            description=t("lesson.settings.name"),
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="min(100%, 340px)"),
        )
        if self.in_app:  # the start page asked the name once; the page's first line says it
            name.disabled = True
            name.layout.display = "none"
        status = widgets.HTML(self._status())
        naming = widgets.ToggleButtons(
            options=[(" ".join(SYLLABLES_BY_LANGUAGE.get(self.language, SYLLABLES)[:3]),
                      Naming.SOLFEGE.value), ("C D E", Naming.LETTERS.value)],
            value=self.naming.value,
            description=t("lesson.settings.naming"),
            style={"description_width": "initial", "button_width": "auto"},
        )
        sound = widgets.Checkbox(value=self.sound, description=t("lesson.settings.sound"),
                                 indent=False, layout=widgets.Layout(width="auto"))
        self.player = LessonSound(language=self.language, enabled=self.sound)
        size = widgets.ToggleButtons(
            options=[(t(f"lesson.settings.size.{s}"), s) for s in ("small", "normal", "large")],
            value=self.size,
            description=t("lesson.settings.size"),
            style={"description_width": "initial", "button_width": "auto"},
        )
        link = widgets.HTML(self._language_link())

        def changed(_change: object = None) -> None:
            self.naming = Naming(naming.value)
            self.sound = bool(sound.value)
            if self.player is not None:
                self.player.enabled = self.sound
            self.size = str(size.value)
            typed = " ".join(str(name.value).split())
            if not self.in_app and typed != (self.student or ""):
                self.student = typed or None
                self._open_store()
            status.value = self._status()
            link.value = self._language_link()
            self.chosen = LessonSettings(self.student, self.naming.value, self.sound, self.size)
            if self.remember:
                # in a classroom app, in the student's own settings file (the name is not kept)
                saved = replace(self.chosen, student=None) if self.in_app else self.chosen
                saved.save()
            for block in [*self._blocks, *self._summaries]:
                block.refresh()

        for control in (name, naming, sound, size):
            control.observe(changed, names="value")
        rows = [
            style,
            widgets.HTML(f"<b>{escape(t('lesson.settings.title'))}</b>"),
            widgets.HBox([name, status], layout=widgets.Layout(flex_flow="row wrap",
                                                               align_items="center")),
            widgets.HBox([naming, sound, self.player],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([size, link], layout=widgets.Layout(flex_flow="row wrap",
                                                             align_items="center")),
        ]
        panel = _Box(rows, layout=widgets.Layout(max_width="100%"))
        panel.run_again = _run_again_line(self.language)
        panel.add_class("mg-lesson-settings")
        keep_keys(panel)  # no key pressed on its buttons runs or adds a cell
        self._panel = panel
        self.controls = {"name": name, "naming": naming, "sound": sound, "size": size}
        return panel

    def _language_link(self) -> str:
        """The links to this lesson in the other languages, each named in its own language.
        In a classroom app each keeps the page's student and the naming chosen, so the
        student goes on recording as themselves (a page without a student stays without
        one); it also tells the page the naming chosen (``data-musicgames-naming``), which
        the page's other links to the classroom's apps keep."""
        links = []
        for other in LANGUAGES:
            if other == self.language:
                continue
            href = appmode.lesson_link(self.plan.href(self.language, other))
            chosen = ""
            if self.in_app:
                query = {"student": self.student, "language": other,
                         "naming": self.naming.value}
                href += "?" + urlencode({k: v for k, v in query.items() if v})
                chosen = f' data-musicgames-naming="{escape(self.naming.value)}"'
            links.append(f'<a class="mg-lesson-language" href="{escape(href)}" target="_self" '
                         f'lang="{other}"{chosen}>'
                         f'{escape(text("language.name", other))}</a>')
        return " · ".join(links)

    def _status(self) -> str:
        if self.store_problem:
            return f'<span class="mg-lesson-status">{escape(self.store_problem)}</span>'
        if self.in_app:  # the classroom's line at the top of the page says whose answers
            return ""
        if self.progress is not None:
            said = self._t("lesson.settings.kept", name=self.student)
        else:
            said = self._t("lesson.settings.not_kept")
        return f'<span class="mg-lesson-status">{escape(said)}</span>'

    # -- the end of the lesson ------------------------------------------------------------------
    def summary(self) -> widgets.Widget:
        """What the student learned in this lesson, and what to practise next: exercises
        missed or not done yet here, and (with a student set) what is due for review; then
        the button that hands the student's answers in to the teacher."""
        said = _Block(lambda: widgets.HTML(self._summary_html()))
        self._summaries.append(said)
        hand_in = _Block(self._hand_in)
        self._blocks.append(hand_in)
        box = _Box([said, hand_in], layout=widgets.Layout(max_width="100%"))
        box.run_again = _run_again_line(self.language)
        box.add_class("mg-lesson-summary")
        return box

    def _hand_in(self) -> widgets.Widget:
        """The hand-in box for the student's progress file (in a classroom app the answers
        already go to the class folder: nothing to hand in; on the static site, where the
        answers stay in the browser, it is a download of the file)."""
        if appmode.in_app() and not by_download():
            return widgets.HTML("")
        if self.progress is None:
            note = self._t("lesson.summary.handin.noname")
            return widgets.HTML(f'<p class="mg-lesson-status">{escape(note)}</p>')
        return hand_in_button(self.progress, language=self.language)

    def title(self, step_id: str) -> str:
        """An exercise's title, as its heading shows it."""
        if step_id in self.titles:
            return self.titles[step_id]
        step = self.plan.steps[step_id]
        if step.kind == "choice":
            return str(resolve(step.kwargs.get("title", ""), self.language)) or step_id
        if step.kind == "chord_tone":
            which = step.args[1] if len(step.args) > 1 else step.kwargs.get("which", "third")
            return self._t(f"lesson.tone.title.{which}")
        return self._t(f"lesson.{_TITLE_KEYS[step.kind]}.title")

    def _summary_html(self) -> str:
        t = self._t
        learned = "".join(f"<li>{escape(x[self.language])}</li>" for x in self.plan.learned)
        practise: list[str] = []
        missed = [s for s, r in self.results.items() if not all(r)]
        if missed:
            names = ", ".join(self.title(s) for s in missed)
            practise.append(t("lesson.summary.missed", exercises=names))
        undone = [s for s in self.plan.exercises if s not in self.results]
        if self.results and undone:
            names = ", ".join(self.title(s) for s in undone)
            practise.append(t("lesson.summary.undone", exercises=names))
        practise.extend(self._due())
        practise.append(self.plan.next[self.language])
        items = "".join(f"<li>{escape(p)}</li>" for p in practise)
        return (
            '<div class="mg-lesson-summary-box">'
            f"<h3>{escape(t('lesson.summary.learned'))}</h3><ul>{learned}</ul>"
            f"<h3>{escape(t('lesson.summary.next'))}</h3><ul>{items}</ul></div>"
        )

    def _due(self) -> list[str]:
        """What the student's progress file says is due for review (when it can say)."""
        due = getattr(self.progress, "due", None)
        if not callable(due):
            return []
        said = []
        for activity in self.plan.practise:
            try:
                items = list(due(activity))[:6]
            except Exception:  # noqa: BLE001 - a summary never breaks the lesson
                continue
            if items:
                names = ", ".join(self._item_name(i) for i in items)
                said.append(self._t(f"lesson.summary.due.{activity}", items=names))
        return said

    def _item_name(self, item: str) -> str:
        try:
            return self.name(Note.parse(item))
        except ValueError:
            pass
        try:
            return self.chord_name(item)
        except ValueError:
            return item


def open_lesson(
    lesson_id: str,
    language: str = "en",
    *,
    remember: bool = True,
    record: bool = True,
    settings: LessonSettings | None = None,
) -> LessonPage:
    """Open a lesson of the course in ``language`` (one of LANGUAGES), with the settings the
    student chose last time (``remember=False``: the defaults, and nothing remembered)."""
    if settings is not None and settings.size not in SIZES:
        raise LessonError(f"size={settings.size!r}: use one of {', '.join(SIZES)}")
    return LessonPage(plan_of(lesson_id), language, settings, remember=remember, record=record)
