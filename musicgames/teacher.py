"""The teacher's dashboard: a class folder read, shown and exported without editing code.

:func:`class_dashboard` shows a folder box with a *Read the folder* button, the naming of
notes and chords (Do Re Mi or C D E, used in every table and chart, the "weakest" column
too), a choice of student, *Export CSV* and *Export the class report (HTML)* buttons, and
below them: the files that were not read and why, the class table, per-lesson completion,
and the charts. Exports are written to the export folder (the notebook's folder unless
another is given), never into the class folder.

In a notebook: ``class_dashboard()`` (a demo class until a folder is read), or
``class_dashboard("class-4b", naming="letters", language="es")``.
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets
from IPython.display import display

from musicgames.i18n import LANGUAGES, counted, text
from musicgames.progress.class_folder import open_class
from musicgames.progress.csv_files import export_csv
from musicgames.progress.errors import ProgressError
from musicgames.progress.report import ClassProgress
from musicgames.theory import Naming
from musicgames.widgets.key_guard import keep_keys

__all__ = ["ClassDashboard", "class_dashboard"]


class ClassDashboard(ipywidgets.VBox):
    """See the module's description; its words, tables and charts are in English, Spanish or French
    (the language buttons at its top). ``folder``: the class folder (``None``: a demo class);
    ``export_to``: where exports are written (default: the current folder)."""

    def __init__(
        self,
        folder: str | os.PathLike[str] | None = None,
        *,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
        export_to: str | os.PathLike[str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.export_to = Path(export_to) if export_to is not None else Path.cwd()
        self.languages = ipywidgets.ToggleButtons(
            options=[(text("language.name", code), code) for code in LANGUAGES],
            value=language,
            style={"button_width": "90px"},
        )
        self.folder = ipywidgets.Text(
            value="" if folder is None else str(folder),
            layout=ipywidgets.Layout(width="100%", max_width="640px"),
            style={"description_width": "initial"},
        )
        self.load_button = ipywidgets.Button(icon="folder-open")
        self.naming = ipywidgets.ToggleButtons(
            options=[("Do Re Mi", "solfege"), ("C D E", "letters")],
            value=Naming(naming).value,
            style={"button_width": "90px"},
        )
        self.student = ipywidgets.Dropdown()
        self.csv_button = ipywidgets.Button(icon="download")
        self.html_button = ipywidgets.Button(
            icon="download", layout=ipywidgets.Layout(width="auto")
        )
        self._label()
        self.status = ipywidgets.HTML()
        self.tables = ipywidgets.Output()
        self.charts = ipywidgets.Output()
        self.klass: ClassProgress = ClassProgress((), ())
        self.load_button.on_click(lambda _b: self.load())
        self.csv_button.on_click(lambda _b: self._export(self.export_csv))
        self.html_button.on_click(lambda _b: self._export(self.export_html))
        self.naming.observe(lambda _change: self.redraw(), names="value")
        self.languages.observe(lambda _change: self._relabel(), names="value")
        self.student.observe(lambda _change: self.show_charts(), names="value")
        super().__init__(
            [
                self.languages,
                ipywidgets.HBox([self.folder, self.load_button]),
                self.naming,
                ipywidgets.HBox([self.student, self.csv_button, self.html_button]),
                self.status,
                self.tables,
                self.charts,
            ],
            **kwargs,
        )
        self.add_class("mg-class-dashboard")
        keep_keys(self)  # no key pressed on its buttons or menus runs or adds a cell
        self.load()

    @property
    def language(self) -> str:
        """The language of the dashboard, its tables, charts and exports."""
        return str(self.languages.value)

    def _t(self, key: str, **values: object) -> str:
        return text(key, self.language, **values)

    def _label(self) -> None:
        t = self._t
        self.folder.placeholder = t("teacher.folder.placeholder")
        self.folder.description = t("teacher.folder")
        self.load_button.description = t("teacher.load")
        self.naming.description = t("teacher.naming")
        self.student.description = t("teacher.student")
        self.csv_button.description = t("teacher.export_csv")
        self.html_button.description = t("teacher.export_html")

    def _relabel(self) -> None:
        self._label()
        self.load()

    def _say(self, *lines: str) -> None:
        self.status.value = "<br>".join(escape(line) for line in lines)

    # -- what the buttons do ------------------------------------------------------------------
    def load(self) -> None:
        """Read the folder in the box (a demo class when it is empty) and show it."""
        folder = self.folder.value.strip()
        try:
            self.klass = open_class(folder or None)
        except ProgressError:
            self._say(self._t("teacher.not_folder", folder=folder))
            return
        where = self._t("teacher.demo") if not folder else self._t(
            "teacher.read", folder=folder,
            students=counted("teacher.students", len(self.klass.students), self.language),
            answers=counted("teacher.answers", len(self.klass.answers), self.language))
        skipped = len(self.klass.skipped)
        more = self._t("teacher.not_read", count=skipped) if skipped else self._t(
            "teacher.all_read")
        self._say(where, more)
        whole = self._t("teacher.whole_class")
        self.student.options = [(whole, "")] + [(s, s) for s in self.klass.students]
        self.student.value = ""
        self.redraw()

    def redraw(self) -> None:
        """Draw the tables and charts again (after a new folder or naming)."""
        naming = self.naming.value
        self.tables.clear_output()
        with self.tables:
            language = self.language
            if self.klass.skipped:
                display(ipywidgets.HTML(f"<h3>{escape(self._t('teacher.section.not_read'))}</h3>"))
                display(self.klass.not_read(language))
            display(ipywidgets.HTML(f"<h3>{escape(self._t('teacher.section.class'))}</h3>"))
            display(self.klass.table(naming=naming, language=language))
            display(ipywidgets.HTML(f"<h3>{escape(self._t('teacher.section.lessons'))}</h3>"))
            display(self.klass.lessons_table(language=language))
        self.show_charts()

    def show_charts(self) -> None:
        """Draw the charts of the class or of the student chosen."""
        self.charts.clear_output()
        if not self.klass.answers:
            return
        with self.charts:
            display(ipywidgets.HTML(f"<h3>{escape(self._t('teacher.section.report'))}</h3>"))
            display(
                self.klass.report(
                    self.student.value or None, naming=self.naming.value, language=self.language
                )
            )

    def export_csv(self) -> Path:
        """Write every answer of the class to ``class-progress.csv``; return its path."""
        path = self.export_to / "class-progress.csv"
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        export_csv(self.klass.answers, temporary)
        os.replace(temporary, path)
        return path

    def export_html(self) -> Path:
        """Write the class report to ``class-report.html``; return its path."""
        return self.klass.export_html(
            self.export_to / "class-report.html", self.naming.value, self.language
        )

    def _export(self, how: Any) -> None:
        try:
            path = how()
        except (OSError, ProgressError) as err:
            why = getattr(err, "strerror", None) or str(err)
            self._say(self._t("teacher.export_failed", path=self.export_to, why=why))
            return
        self._say(self._t("teacher.exported", path=path))


def class_dashboard(
    folder: str | os.PathLike[str] | None = None,
    *,
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    export_to: str | os.PathLike[str] | None = None,
) -> ClassDashboard:
    """The teacher's dashboard over ``folder`` (``None``: a demo class until a folder is
    given in its box)."""
    return ClassDashboard(folder, naming=naming, language=language, export_to=export_to)
