"""What the classroom serves: the apps' notebooks, written into one folder at start-up.

The games, the drill and the quiz get a one-cell notebook each, which calls
:func:`musicgames.classroom.kernel.open_app`. The lessons are found at run time (a folder of
``NN-*.ipynb`` notebooks) and copied with what only makes sense in JupyterLab taken out:

* cells tagged ``lab-only`` are left out;
* sentences that tell the reader to run cells (``Run ▸ Run All Cells``, ``Shift + Enter``),
  and blocks of class ``mg-run-hint``, are left out of text cells — in an app everything
  has already run;
* a first cell is added that opens the student's own progress file in the class folder
  (:func:`musicgames.classroom.kernel.begin_lesson`), so the lesson's drills and quizzes
  record there; it speaks the lesson's own language (a lesson under ``es/`` is Spanish,
  whatever the address says).

>>> strip_run_instructions("Read this. Run the cell below (**Shift + Enter**): you play.")
'Read this.'
>>> strip_run_instructions('Hi.\\n\\n<div class="mg-run-hint">Press ⏩.</div>')
'Hi.'
>>> strip_run_instructions("| a | b |\\n|---|---|")
'| a | b |\\n|---|---|'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from musicgames.i18n import LANGUAGES

__all__ = [
    "APPS",
    "LAB_ONLY_TAG",
    "App",
    "Lesson",
    "build_app_folder",
    "find_lessons",
    "strip_run_instructions",
]

#: Cells with this tag are shown in JupyterLab only, never in the classroom's apps.
LAB_ONLY_TAG = "lab-only"


@dataclass(frozen=True)
class App:
    """One of the classroom's apps: its notebook's file name and its catalogue keys."""

    name: str
    section: str  # "games" or "practice"

    @property
    def notebook(self) -> str:
        return f"{self.name}.ipynb"

    @property
    def title_key(self) -> str:
        return "classroom." + self.name.replace("-", "_")


#: The games and practice apps, in the start page's order.
APPS: tuple[App, ...] = (
    App("note-snap", "games"),
    App("keyboard-duel", "games"),
    App("note-drill", "practice"),
    App("chord-quiz", "practice"),
)


@dataclass(frozen=True)
class Lesson:
    """A lesson notebook served as an app: its path under the app folder, its title and
    its language."""

    notebook: str
    title: str
    language: str = "en"


_RUN_SENTENCE = re.compile(
    r"\b(run|running|re-run|rerun|ejecuta\w*|corre)\b[^.!?]*"
    r"\b(cells?|notebook|celdas?|cuaderno|libreta)\b"
    r"|shift\s*\+\s*enter|may[úu]s\w*\s*\+\s*enter|\bRun\s*▸|ejecuta todo|⏩",
    re.IGNORECASE,
)
#: A block the lessons show in JupyterLab only, until their cells have run.
_RUN_HINT = re.compile(r"<(div|p|span)\b[^>]*\bmg-run-hint\b[^>]*>.*?</\1>", re.S | re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def strip_run_instructions(markdown: str) -> str:
    """``markdown`` without the sentences that ask to run cells (paragraph by paragraph;
    paragraphs without such a sentence are kept exactly as they were)."""
    kept: list[str] = []
    for paragraph in re.split(r"(\n\s*\n)", _RUN_HINT.sub("", markdown)):
        if not _RUN_SENTENCE.search(paragraph):
            kept.append(paragraph)
            continue
        sentences = [s for s in _SENTENCE_END.split(paragraph) if not _RUN_SENTENCE.search(s)]
        kept.append(" ".join(sentences))
    return "".join(kept).strip()


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _code_cell(source: str) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": source,
    }


def _notebook(cells: list[dict[str, Any]], metadata: dict[str, Any] | None = None) -> str:
    meta = metadata or {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    return json.dumps(
        {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5},
        ensure_ascii=False,
        indent=1,
    )


def app_notebook(app: App) -> str:
    """The one-cell notebook of a game or practice app."""
    cell = _code_cell(
        f"from musicgames.classroom.kernel import open_app\n\nopen_app({app.name!r})"
    )
    cell["id"] = app.name
    return _notebook([cell])


def lesson_for_app(notebook: dict[str, Any], language: str = "en") -> dict[str, Any]:
    """A lesson notebook (as loaded from JSON) in ``language``, made ready to be served as
    an app."""
    cells: list[dict[str, Any]] = []
    for cell in notebook.get("cells", []):
        if LAB_ONLY_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.get("cell_type") == "markdown":
            text = strip_run_instructions(_source(cell))
            if not text:
                continue
            cell = {**cell, "source": text}
        cells.append(cell)
    first = _code_cell(
        f"from musicgames.classroom.kernel import begin_lesson\n\nbegin_lesson({language!r})"
    )
    first["id"] = "musicgames-classroom-student"
    return {**notebook, "cells": [first, *cells]}


def _title(notebook: dict[str, Any], fallback: str) -> str:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        for line in _source(cell).splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return fallback


def find_lessons(folder: Path | None) -> list[Path]:
    """The lesson notebooks in ``folder`` (``NN-name.ipynb``, in order), then those of its
    language folders (``es/NN-nombre.ipynb``); none without a folder."""
    if folder is None or not folder.is_dir():
        return []
    found = sorted(folder.glob("[0-9]*.ipynb"))
    for language in LANGUAGES:
        if language != "en" and (folder / language).is_dir():
            found.extend(sorted((folder / language).glob("[0-9]*.ipynb")))
    return found


def build_app_folder(target: Path, lessons: Iterable[Path] = ()) -> list[Lesson]:
    """Write the apps' notebooks and the lessons (made ready for apps) into ``target``.

    A lesson in a folder named after a language (``es/``) keeps that folder, and that
    language. Returns the lessons served, with their titles (their first ``#`` heading).
    """
    target.mkdir(parents=True, exist_ok=True)
    for app in APPS:
        (target / app.notebook).write_text(app_notebook(app), encoding="utf-8")
    served: list[Lesson] = []
    for path in lessons:
        language = path.parent.name if path.parent.name in LANGUAGES else "en"
        where = "lessons" if language == "en" else f"lessons/{language}"
        (target / where).mkdir(parents=True, exist_ok=True)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        ready = lesson_for_app(notebook, language)
        (target / where / path.name).write_text(
            _notebook(ready["cells"], ready.get("metadata")), encoding="utf-8"
        )
        served.append(Lesson(f"{where}/{path.name}", _title(notebook, path.stem), language))
    return served
