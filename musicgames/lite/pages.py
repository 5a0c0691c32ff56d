"""The site's own pages: the start page (one per language) and a page per app and per lesson
that opens it.

The start page is the classroom's (``musicgames/classroom/start.html.j2``): the student
types their name once, picks the note names, and every link (the games, the practice, the
lessons in the page's language) carries the choices.
A static site cannot read ``?language=es`` on the server, so each language has its page
(``index.html``, ``es.html``, ``fr.html``), and an address asking another language goes to
its page.

An app's page (``play/note-snap.html``) sends the browser on to JupyterLite's console with
one cell that opens the app (:func:`musicgames.lite.launch.open_app`), its code hidden:
one click on the start page, and the game plays. A lesson's page
(``play/lessons/es/01-el-pentagrama.html``) does the same with
:func:`musicgames.lite.launch.open_lesson`.

>>> page = play_page("note-snap")
>>> "open_app(" in page and "hideCodeInput" in page and "https:" not in page
True
>>> lesson = lesson_page("lessons/es/01-el-pentagrama.ipynb", "Lección 1")
>>> "open_lesson(" in lesson and '"../../../repl/index.html?' in lesson
True
>>> sorted(start_pages())
['es.html', 'fr.html', 'index.html']
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from musicgames import appmode
from musicgames.i18n import LANGUAGES, text
from musicgames.lite.launch import PLAY_FOLDER

if TYPE_CHECKING:
    from musicgames.classroom.apps import Lesson

__all__ = ["LANGUAGE_PAGES", "PLAY_FOLDER", "lesson_page", "lesson_page_address", "play_page",
           "start_pages", "write_pages"]

#: Each language's start page, at the site's root.
LANGUAGE_PAGES = {code: "index.html" if code == "en" else f"{code}.html" for code in LANGUAGES}

_PLAY_PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="icon" href="data:;base64,=">
</head>
<body>
<script>
  // The {what}, in JupyterLite's console: one cell (its code hidden) opens it with the
  // start page's choices (student, language, naming).
  (() => {{
    const asked = new URLSearchParams(location.search);
    const address = new URLSearchParams();
    for (const key of ["student", "language", "naming"]) {{
      if (asked.get(key)) address.set(key, asked.get(key));
    }}
    const code = "from musicgames.lite.launch import {opener}\\n" +
      "{call}(" + JSON.stringify({app}) + ", " + JSON.stringify(address.toString()) +
      {more} + ")";
    const repl = new URLSearchParams({{
      kernel: "python", showBanner: "0", hideCodeInput: "1", code: code }});
    location.replace("{root}repl/index.html?" + repl.toString());
  }})();
</script>
</body>
</html>
"""


def play_page(app: str) -> str:
    """The page that opens ``app`` (one of the classroom's apps: ``note-snap``,
    ``note-drill``…), in ``play/``."""
    title = text("classroom." + app.replace("-", "_"), "en")
    return _PLAY_PAGE.format(title=escape(title), what="app", opener="open_app",
                             call="open_app", app=json.dumps(app), root="../", more='""')


def lesson_page(notebook: str, title: str) -> str:
    """The page that opens the lesson ``notebook`` (``lessons/es/01-el-pentagrama.ipynb``),
    at the same place under ``play/`` (``play/lessons/es/01-el-pentagrama.html``)."""
    root = "../" * (notebook.count("/") + 1)
    # the site's own address, for the links the lesson's text writes
    site = f'", " + JSON.stringify(new URL("{root}", location.href).href)'
    # the cell awaits the lesson: the student's answers of earlier visits are fetched first
    return _PLAY_PAGE.format(title=escape(title), what="lesson", opener="open_lesson",
                             call="await open_lesson", app=json.dumps(notebook), root=root,
                             more=site)


def lesson_page_address(notebook: str) -> str:
    """Where the page that opens the lesson ``notebook`` is, from the site's root.

    >>> lesson_page_address("lessons/es/01-el-pentagrama.ipynb")
    'play/lessons/es/01-el-pentagrama.html'
    """
    return appmode.lesson_link(notebook, PLAY_FOLDER)


def start_pages(lessons: Sequence[Lesson] = ()) -> dict[str, str]:
    """The start page in every language, by file name, listing the lessons in its
    language (the English ones when it has none)."""
    import jinja2

    from musicgames.classroom.apps import APPS

    pages = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parents[1] / "classroom")),
        autoescape=True,
        keep_trailing_newline=True,
    )
    template = pages.get_template("start.html.j2")
    written = {}
    for language, file_name in LANGUAGE_PAGES.items():

        def t(key: str, _language: str = language, **values: object) -> str:
            return text(key, _language, **values)

        written[file_name] = template.render(
            t=t,
            language=language,
            languages=[(code, text("language.name", code)) for code in LANGUAGES],
            apps=APPS,
            lessons=[lesson for lesson in lessons if lesson.language == language]
            or [lesson for lesson in lessons if lesson.language == "en"],
            language_pages=LANGUAGE_PAGES,
            app_pages=PLAY_FOLDER,
            lesson_page=lesson_page_address,
        )
    return written


#: JupyterLite's settings in its root page, which its apps read from there.
_LITE_SETTINGS = re.compile(r'<script id="jupyter-config-data".*?</script>', re.S)


def write_pages(site: Path, lessons: Sequence[Lesson] = ()) -> None:
    """Write the start pages, the apps' pages and the ``lessons``' pages into the built
    ``site``. The start page takes the place of JupyterLite's root page, whose settings
    (read by every JupyterLite page from there) it carries on."""
    from musicgames.classroom.apps import APPS

    settings = _LITE_SETTINGS.search((site / "index.html").read_text(encoding="utf-8"))
    if settings is None:
        raise ValueError(f"{site / 'index.html'} is not JupyterLite's root page")
    for file_name, page in start_pages(lessons).items():
        page = page.replace("</head>", settings.group(0) + "\n</head>", 1)
        (site / file_name).write_text(page, encoding="utf-8")
    (site / PLAY_FOLDER).mkdir(exist_ok=True)
    for app in APPS:
        (site / PLAY_FOLDER / f"{app.name}.html").write_text(play_page(app.name),
                                                             encoding="utf-8")
    for lesson in lessons:
        where = site / lesson_page_address(lesson.notebook)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(lesson_page(lesson.notebook, lesson.title), encoding="utf-8")
