"""Write the lesson notebooks from the course's one definition.

``python -m musicgames.lessons build`` writes ``lessons/NN-*.ipynb`` (English) and
``lessons/<code>/NN-*.ipynb`` for every other language of :data:`musicgames.i18n.LANGUAGES`
(``es/``, ``fr/``) from :data:`musicgames.lessons.course.COURSE`: the same steps in the same
order, outputs cleared, every code cell's source hidden
(``metadata.jupyter.source_hidden``), so a student reads no code. ``--check`` writes nothing
and fails when a committed notebook differs from a fresh build.

>>> from musicgames.lessons import plan_of
>>> nb = notebook(plan_of("01-the-staff"), "es")
>>> nb.cells[1].source.splitlines()[0], nb.cells[1].source.splitlines()[-1]
('# Ajustes', 'lesson.settings()')
>>> nb.cells[1].metadata.jupyter.source_hidden
True
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from musicgames.i18n import LANGUAGES, LanguageError, text
from musicgames.lessons.course import COURSE
from musicgames.lessons.page import LessonPage
from musicgames.lessons.plan import Md, Plan, Step, texts_of
from musicgames.lessons.settings import LessonSettings

__all__ = ["build", "language_links", "main", "notebook", "notebook_path", "notebook_text",
           "run_hint"]

_KERNEL = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                   "name": "python3"},
    "language_info": {"name": "python"},
}


def _code(source: str, cell_id: str) -> nbformat.NotebookNode:
    cell = new_code_cell(source, metadata={"jupyter": {"source_hidden": True}})
    cell.id = cell_id
    return cell



def language_links(plan: Plan, language: str) -> str:
    """The links from a lesson to itself in the other languages, each named in its own
    language (" · " between them).

    >>> from musicgames.lessons import plan_of
    >>> language_links(plan_of("01-the-staff"), "es")
    '[English](../01-the-staff.ipynb) · [Français](../fr/01-la-portee.ipynb)'
    """
    return " · ".join(f"[{text('language.name', other)}]({plan.href(language, other)})"
                      for other in LANGUAGES if other != language)


def _comment(plan: Plan, step: Step, language: str) -> str:
    """The first line of a step's cell, all that JupyterLab shows of a hidden cell: what the
    step is, in the lesson's language (never code)."""
    if step.is_exercise:
        lesson = LessonPage(plan, language, LessonSettings(), remember=False, record=False)
        return lesson.title(step.id)
    return text("lesson.cell.play" if step.is_play else "lesson.cell.figure", language)


def run_hint(language: str) -> str:
    """The line atop a lesson saying how to start it (``lesson.run_hint`` in the catalogue),
    with the button to press in bold. JupyterLab's dialog is in English, so its words are
    quoted as it shows them.

    >>> "asks “Restart Kernel?”, press <b>Restart</b>." in run_hint("en")
    True
    """
    return text("lesson.run_hint", language, restart="<b>Restart</b>")


def notebook(plan: Plan, language: str) -> nbformat.NotebookNode:
    """The notebook of one lesson in one language. Each code cell starts with a comment
    saying what it shows (JupyterLab shows that first line of a hidden cell). A lesson with
    a text not written in ``language`` is refused, never built with another language's."""
    missing = [t for t in texts_of(plan) if language not in t.languages]
    if missing:
        raise LanguageError(f"{plan.id}: no {language!r} text for {missing[0]!r}"
                            + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
    cells = []
    first = True
    for index, item in enumerate(plan.cells):
        cell_id = f"{plan.id[:2]}-{language}-{index:02d}"
        if isinstance(item, Md):
            source = item.text[language]
            if first:
                source += (
                    f"\n\n{language_links(plan, language)}\n\n"
                    f'<div class="mg-run-hint">{run_hint(language)}</div>'
                )
            cell = new_markdown_cell(source)
            cell.id = cell_id
            cells.append(cell)
            if first:
                cells.append(
                    _code(
                        f"# {text('lesson.cell.settings', language)}\n"
                        "from musicgames.lessons import open_lesson\n\n"
                        f'lesson = open_lesson("{plan.id}", "{language}")\n'
                        "lesson.settings()",
                        f"{plan.id[:2]}-{language}-settings",
                    )
                )
            first = False
        else:
            comment = _comment(plan, item, language)
            cells.append(_code(f'# {comment}\nlesson.show("{item.id}")', cell_id))
    cells.append(
        _code(
            f"# {text('lesson.cell.summary', language)}\nlesson.summary()",
            f"{plan.id[:2]}-{language}-summary",
        )
    )
    nb = new_notebook(cells=cells, metadata=dict(_KERNEL))
    nb.nbformat_minor = 5
    return nb


def notebook_path(root: Path, plan: Plan, language: str) -> Path:
    """Where a lesson's notebook lives: ``lessons/`` (English) or ``lessons/<code>/``."""
    folder = root / "lessons" if language == "en" else root / "lessons" / language
    return folder / plan.files[language]


def notebook_text(plan: Plan, language: str) -> str:
    """The notebook as the file holds it."""
    return nbformat.writes(notebook(plan, language)) + "\n"


def build(root: Path, *, check: bool = False) -> list[Path]:
    """Write (or with ``check``, compare) every lesson notebook; return the paths that
    changed (or differ)."""
    changed = []
    for plan in COURSE:
        for language in LANGUAGES:
            path = notebook_path(root, plan, language)
            wanted = notebook_text(plan, language)
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current == wanted:
                continue
            changed.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(wanted, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.lessons",
        description="Write the lesson notebooks (lessons/, lessons/es/, lessons/fr/…) "
                    "from the course.",
    )
    parser.add_argument("command", choices=["build"])
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the repository (default: the current folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if a notebook differs from a fresh build")
    args = parser.parse_args(argv)
    changed = build(args.root, check=args.check)
    verb = "differs from the course" if args.check else "written"
    for path in changed:
        print(f"{path.relative_to(args.root)}: {verb}")
    if not changed:
        print("every lesson notebook matches the course")
    return 1 if (args.check and changed) else 0



if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
