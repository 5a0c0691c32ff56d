"""The site's own pages: the start page (one per language) and a page per game that opens it.

The start page is the classroom's (``musicgames/classroom/start.html.j2``): the student
types their name once, picks the note names, and every game link carries the choices.
A static site cannot read ``?language=es`` on the server, so each language has its page
(``index.html``, ``es.html``, ``fr.html``), and an address asking another language goes to
its page.

A game's page (``play/note-snap.html``) sends the browser on to JupyterLite's console with
one cell that opens the game (:func:`musicgames.lite.launch.open_app`), its code hidden:
one click on the start page, and the game plays.

>>> page = play_page("note-snap")
>>> "open_app(" in page and "hideCodeInput" in page and "https:" not in page
True
>>> sorted(start_pages())
['es.html', 'fr.html', 'index.html']
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from musicgames.i18n import LANGUAGES, text

__all__ = ["GAMES", "LANGUAGE_PAGES", "play_page", "start_pages", "write_pages"]

#: The apps the site opens (the classroom's games).
GAMES = ("note-snap", "keyboard-duel")
#: Each language's start page, at the site's root.
LANGUAGE_PAGES = {code: "index.html" if code == "en" else f"{code}.html" for code in LANGUAGES}
#: Where the game pages are, from the start page.
PLAY_FOLDER = "play/"

_PLAY_PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="icon" href="data:;base64,=">
</head>
<body>
<script>
  // The game, in JupyterLite's console: one cell (its code hidden) opens it with the
  // start page's choices (student, language, naming).
  (() => {{
    const asked = new URLSearchParams(location.search);
    const address = new URLSearchParams();
    for (const key of ["student", "language", "naming"]) {{
      if (asked.get(key)) address.set(key, asked.get(key));
    }}
    const code = "from musicgames.lite.launch import open_app\\n" +
      "open_app(" + JSON.stringify({app}) + ", " + JSON.stringify(address.toString()) + ")";
    const repl = new URLSearchParams({{
      kernel: "python", showBanner: "0", hideCodeInput: "1", code: code }});
    location.replace("../repl/index.html?" + repl.toString());
  }})();
</script>
</body>
</html>
"""


def play_page(app: str) -> str:
    """The page that opens ``app`` (one of :data:`GAMES`)."""
    title = text("classroom." + app.replace("-", "_"), "en")
    return _PLAY_PAGE.format(title=title, app=json.dumps(app))


def start_pages() -> dict[str, str]:
    """The start page in every language, by file name."""
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
            apps=[app for app in APPS if app.name in GAMES],
            lessons=[],
            language_pages=LANGUAGE_PAGES,
            app_pages=PLAY_FOLDER,
        )
    return written


#: JupyterLite's settings in its root page, which its apps read from there.
_LITE_SETTINGS = re.compile(r'<script id="jupyter-config-data".*?</script>', re.S)


def write_pages(site: Path) -> None:
    """Write the start pages and the game pages into the built ``site``. The start page
    takes the place of JupyterLite's root page, whose settings (read by every JupyterLite
    page from there) it carries on."""
    settings = _LITE_SETTINGS.search((site / "index.html").read_text(encoding="utf-8"))
    if settings is None:
        raise ValueError(f"{site / 'index.html'} is not JupyterLite's root page")
    for file_name, page in start_pages().items():
        page = page.replace("</head>", settings.group(0) + "\n</head>", 1)
        (site / file_name).write_text(page, encoding="utf-8")
    (site / PLAY_FOLDER).mkdir(exist_ok=True)
    for app in GAMES:
        (site / PLAY_FOLDER / f"{app}.html").write_text(play_page(app), encoding="utf-8")
