"""The teacher's view of a class: :class:`ClassProgress` (what a class folder holds) with its
tables, one page per student or for the whole class (:class:`Report`, figures as images), and
the whole class report as one HTML file."""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from musicgames.progress.answers import Answer
from musicgames.progress.charts import plot_days, plot_items, plot_notes
from musicgames.progress.errors import ProgressError
from musicgames.progress.lesson_stats import lesson_completion, lesson_title_or_id
from musicgames.progress.stats import daily_stats, item_stats, student_stats
from musicgames.progress.tables import Table
from musicgames.progress.words import percent_said, word
from musicgames.theory import Naming

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["ClassProgress", "NotRead", "Report"]


class NotRead(NamedTuple):
    """A file (or a line of one) that a class folder's reading passed over.

    ``why`` is the full story for a developer (in English); ``reason`` and ``values`` say it
    for a teacher in either language: the words ``report.why.<reason>`` of the string
    catalogue, filled in with ``values`` (see :meth:`ClassProgress.not_read`).
    """

    file: str
    why: str
    reason: str = "other"
    values: tuple[tuple[str, object], ...] = ()

    def said(self, language: str = "en") -> str:
        """Why, in the teacher's language."""
        return word(f"report.why.{self.reason}", language, **dict(self.values))


@dataclass(frozen=True)
class ClassProgress:
    """Everything read from a class folder: the answers, and the files that were skipped."""

    answers: tuple[Answer, ...]
    skipped: tuple[NotRead, ...]

    def not_read(self, language: str = "en") -> Table:
        """The files (or lines) that were not read, and why, in ``language``: empty when all
        is well."""
        headers = (word("report.col.file", language), word("report.col.why", language))
        rows = tuple((item.file, item.said(language)) for item in self.skipped)
        return Table(headers, rows, word("report.caption.not_read", language))

    @property
    def students(self) -> list[str]:
        """The students' names, sorted."""
        return sorted({a.student for a in self.answers})

    def of(self, student: str) -> list[Answer]:
        """One student's answers."""
        return [a for a in self.answers if a.student == student]

    def table(
        self,
        activity: str | None = None,
        naming: Naming | str | None = None,
        language: str = "en",
    ) -> Table:
        """One line per student: answers, right, median time, days, last day, weakest item
        (notes and chords in ``naming`` when given)."""
        return Table.of(
            student_stats(self.answers, activity),
            caption=word("report.caption.class", language),
            naming=naming,
            language=language,
        )

    def items_table(
        self,
        student: str | None = None,
        activity: str | None = None,
        naming: Naming | str | None = None,
    ) -> Table:
        """Per item (note, chord) for one student, or for the whole class."""
        rows = self.answers if student is None else self.of(student)
        return Table.of(item_stats(rows, activity), caption=student or "Class", naming=naming)

    def days_table(self, student: str | None = None, activity: str | None = None) -> Table:
        """Per day for one student, or for the whole class."""
        rows = self.answers if student is None else self.of(student)
        return Table.of(daily_stats(rows, activity), caption=student or "Class")

    def lessons_table(
        self, exercises: dict[str, Sequence[str]] | None = None, language: str = "en"
    ) -> Table:
        """Per student and lesson: exercises answered out of the lesson's, and right answers
        (see :func:`lesson_completion`)."""
        rows = []
        for s in lesson_completion(self.answers, exercises):
            done = f"{s.done} / {s.total}" if s.total is not None else str(s.done)
            share = percent_said(s.right / s.answers, language) if s.answers else "–"
            rows.append((s.student, lesson_title_or_id(s.lesson, language), done, str(s.answers),
                         share))
        columns = ("student", "lesson", "exercises", "answers", "right")
        headers = tuple(word(f"report.col.{c}", language) for c in columns)
        return Table(headers, tuple(rows), word("report.caption.lessons", language))

    def report(
        self,
        student: str | None = None,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
    ) -> Report:
        """One student's page (or the class's): tables and figures for the drill and quiz,
        notes and chords named in ``naming``, words in ``language``."""
        if student is not None and student not in self.students:
            raise ProgressError(f"no answers of {student!r} here: the students are {self.students}")
        rows = self.answers if student is None else self.of(student)
        who = student or word("report.who.class", language)
        parts: list[Table | Figure] = []
        if student is None:
            parts.append(self.table(naming=naming, language=language))
        title = word("report.chart.days", language, who=who)
        parts.append(plot_days(rows, title=title, language=language))
        if any(a.activity == "drill" for a in rows):
            title = word("report.chart.notes", language, who=who)
            parts.append(plot_notes(rows, title=title, naming=naming, language=language))
            caption = word("report.caption.notes", language, who=who)
            parts.append(
                Table.of(item_stats(rows, "drill"), caption, naming=naming, language=language)
            )
        if any(a.activity == "quiz" for a in rows):
            title = word("report.chart.chords", language, who=who)
            parts.append(
                plot_items(rows, activity="quiz", title=title, naming=naming, language=language)
            )
        return Report(who, tuple(parts))

    def reports(self, naming: Naming | str = Naming.SOLFEGE, language: str = "en") -> Report:
        """A :meth:`report` per student, one after another."""
        return Report(
            word("report.each", language),
            tuple(self.report(s, naming=naming, language=language) for s in self.students),
        )

    def export_html(
        self,
        target: str | os.PathLike[str],
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
    ) -> Path:
        """Write the class report — the class, lessons, then each student — as one HTML file
        that opens in any browser (figures inside it as images); return its path."""
        path = Path(target)
        parts: list[Any] = [
            self.report(naming=naming, language=language),
            self.lessons_table(language=language),
        ]
        if self.skipped:
            parts.append(self.not_read(language))
        parts.append(self.reports(naming=naming, language=language))
        title = word("report.title", language)
        body = Report(title, tuple(parts))._repr_html_()
        page = (
            f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:1000px;margin:auto}"
            "table.mg-table{border-collapse:collapse;margin:8px 0}"
            ".mg-table td,.mg-table th{border:1px solid #ccc;padding:2px 8px}"
            "img{max-width:100%}</style></head><body>"
            f"{body}</body></html>"
        )
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(page, encoding="utf-8")
        os.replace(temporary, path)
        return path


@dataclass(frozen=True)
class Report:
    """Tables and figures under a heading; shows itself as HTML (figures as PNG images)."""

    title: str
    parts: tuple[Any, ...]

    def _repr_html_(self) -> str:
        html = [f"<h3>{escape(self.title)}</h3>"]
        for part in self.parts:
            if isinstance(part, (Table, Report)):
                html.append(part._repr_html_())
            else:
                png = base64.b64encode(part._repr_png_()).decode("ascii")
                html.append(f'<img alt="{escape(self.title)}" src="data:image/png;base64,{png}"/>')
        return "<div class=\"mg-report\">" + "".join(html) + "</div>"
