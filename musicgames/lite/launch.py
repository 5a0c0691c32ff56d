"""Opening an app or a lesson in the student's browser, on the static site (see
:mod:`musicgames.lite`).

The site's play pages run ``open_app("note-snap", "student=Ana&language=es&naming=letters")``
in the browser's Python, with the choices the start page made. The app (a game, the note
drill, the chord quiz) is the classroom's (:func:`musicgames.classroom.kernel.open_app`): the
same heading, the same student's file, the same link back to the start page. A lesson's page
runs ``open_lesson("lessons/es/01-el-pentagrama.ipynb", …)``: the lesson as the classroom
serves it, made ready when the site was built (:mod:`musicgames.lite.course`), its cells run
one after the other (:func:`run_cells`: its text shown, its drawings, exercises and games
displayed). Here the "server" is the browser itself, so this says what a classroom server
would say to its kernels:

* the choices of the start page (``student``, ``language``, ``naming``), as the query of the
  app's address;
* the class folder, a folder of the browser's own, kept in its storage from one visit to the
  next (:mod:`musicgames.lite.keeping`); a hand-in is a download of the student's file;
* the drawings made when the site was built (staves and word widths): nothing is engraved or
  measured in the browser;
* the start page's address, next to the game's page;
* for a lesson, where the pages of the other lessons are (its links to itself in the other
  languages open those pages, with the student's choices).

>>> import os
>>> saved = dict(os.environ)
>>> settle("student=Ana&language=es", drawings=None)
>>> os.environ["QUERY_STRING"], os.environ["MUSICGAMES_APP"]
('student=Ana&language=es', '1')
>>> os.environ.clear(); os.environ.update(saved)
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import posixpath
import re
import tempfile
from collections.abc import Callable, Iterable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

from musicgames import appmode
from musicgames.kept import DRAWINGS_ENV
from musicgames.theory import load_music21
from musicgames.widgets.hand_in import DOWNLOAD_ENV

if TYPE_CHECKING:
    from musicgames.lite import keeping

__all__ = [
    "PLAY_FOLDER",
    "START_PAGE",
    "drawings_folder",
    "kept_app",
    "lesson_language",
    "lessons_folder",
    "mend_page_nulls",
    "open_app",
    "open_lesson",
    "quiet_music21",
    "run_cells",
    "settle",
    "site_links",
    "with_hand_in",
    "with_nulls",
    "without",
]

#: The start page, from the page a game opens in (``repl/index.html``): the site's root.
START_PAGE = "../"
#: Where the pages that open the apps and lessons are, from the site's root.
PLAY_FOLDER = "play/"


def drawings_folder() -> Path | None:
    """The folder of the drawings made when the site was built, if this Python has them."""
    try:
        import musicgames_drawings
    except ImportError:
        return None
    return Path(musicgames_drawings.__file__).parent


def lessons_folder() -> Path | None:
    """The folder of the lessons made ready when the site was built, if this Python has
    them (it holds ``lessons/…``)."""
    try:
        import musicgames_lessons
    except ImportError:
        return None
    return Path(musicgames_lessons.__file__).parent


def lesson_language(path: str) -> str:
    """The language of the lesson at ``path`` (``lessons/es/…`` is Spanish).

    >>> lesson_language("lessons/es/01-el-pentagrama.ipynb")
    'es'
    >>> lesson_language("lessons/01-the-staff.ipynb")
    'en'
    """
    from musicgames.i18n import LANGUAGES

    folder = posixpath.basename(posixpath.dirname(path))
    return folder if folder in LANGUAGES else "en"


def _lesson_pages(path: str, site: str = "") -> str:
    """The folder of the pages of the lessons in the folder of the lesson at ``path``: its
    whole address on the ``site`` (the site's root address), or without one, from the page
    a lesson is shown in."""
    return f"{site or START_PAGE}{PLAY_FOLDER}{posixpath.dirname(path)}/"


_NOTEBOOK_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]+\.ipynb)\)")


def site_links(markdown: str, path: str, address: str, site: str = "") -> str:
    """``markdown`` of the lesson at ``path`` with its links to other lessons pointing at
    the site's pages for them, each keeping the student's choices in ``address`` (in the
    linked lesson's language); whole addresses on the ``site`` (its root's address) when
    it is given: the console the lesson is shown in would take a link from its own folder
    for one to a file of its own. Each is written as a link that opens in the same tab
    (JupyterLab opens a whole address in a new tab unless the link says otherwise), as
    the start page's links and the lesson's own language links do.

    >>> link = site_links("[English](../01-the-staff.ipynb) · [x](https://a.org/b)",
    ...                   "lessons/es/01-el-pentagrama.ipynb", "student=Ana&language=es")
    >>> link.startswith('<a href="../play/lessons/01-the-staff.html?student=Ana&amp;language=en"')
    True
    >>> link.endswith(' target="_self">English</a> · [x](https://a.org/b)')
    True
    >>> site_links("[English](../01-the-staff.ipynb)", "lessons/es/01-el-pentagrama.ipynb",
    ...            "student=Ana", "http://127.0.0.1:8000/").split('"')[1]
    'http://127.0.0.1:8000/play/lessons/01-the-staff.html?student=Ana&amp;language=en'
    """
    pages = _lesson_pages(path, site)

    def linked(match: re.Match[str]) -> str:
        words, href = match.group(1), match.group(2)
        page = appmode.lesson_link(href, pages)
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href))
        query = dict(parse_qsl(address))
        query["language"] = lesson_language(target)
        whole = escape(f"{page}?{urlencode(query)}")
        return f'<a href="{whole}" target="_self">{escape(words, quote=False)}</a>'

    return _NOTEBOOK_LINK.sub(linked, markdown)


def run_cells(cells: Iterable[dict[str, Any]], namespace: dict[str, Any],
              show_markdown: Any = None) -> None:
    """Run a notebook's ``cells`` as a notebook would, in ``namespace``: a text cell is
    shown (``show_markdown``, Markdown by default), a code cell runs, and the value of its
    last line, if it is an expression, is displayed.

    >>> shown = []
    >>> run_cells([{"cell_type": "markdown", "source": "# Hi"},
    ...            {"cell_type": "code", "source": ["x = 2\\n", "x * 3"]}], {},
    ...           show_markdown=shown.append)
    6
    >>> shown
    ['# Hi']
    """
    from IPython.display import Markdown, display

    for cell in cells:
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "markdown":
            if show_markdown is None:
                display(Markdown(source))
            else:
                show_markdown(source)
        elif cell.get("cell_type") == "code":
            tree = ast.parse(source)
            last = tree.body[-1] if tree.body else None
            if isinstance(last, ast.Expr):
                tree.body.pop()
            exec(compile(tree, "<lesson>", "exec"), namespace)  # the lesson's own cells
            if isinstance(last, ast.Expr):
                value = eval(compile(ast.Expression(last.value), "<lesson>", "eval"), namespace)
                if value is not None:
                    display(value)


def quiet_music21() -> None:
    """Load music21 without the note it writes when numpy and matplotlib are missing (that
    some of its functions may need them): the site has neither, on purpose, and nothing a
    student opens needs them; a student would only read a warning in the page."""
    with contextlib.redirect_stderr(io.StringIO()):
        load_music21()


def settle(address: str, *, drawings: Path | None, start_page: str = START_PAGE) -> None:
    """Tell this Python what a classroom server tells its kernels (see the module's notes);
    ``start_page``: the start page's address (by default from the page an app opens in)."""
    os.environ[appmode.APP_ENV] = "1"
    os.environ["QUERY_STRING"] = address
    folder = Path(tempfile.gettempdir()) / "musicgames-class"
    folder.mkdir(exist_ok=True)
    os.environ[appmode.CLASS_FOLDER_ENV] = str(folder)
    os.environ[DOWNLOAD_ENV] = "1"
    # The classroom's apps find the start page at the server's base address.
    os.environ["VOILA_BASE_URL"] = start_page
    if drawings is not None:
        os.environ[DRAWINGS_ENV] = str(drawings)


def without(value: Any, null: object) -> Any:
    """``value`` (a page's message: dicts, lists, plain values) with every ``null`` in it
    made ``None``.

    >>> NULL = object()
    >>> without({"call": NULL, "keys": [1, NULL], "seq": 3}, NULL)
    {'call': None, 'keys': [1, None], 'seq': 3}
    """
    return _replaced(value, null, None)


def with_nulls(value: Any, null: object) -> Any:
    """``value`` (a widget's message to the page) with every ``None`` in it made ``null``.

    >>> NULL = object()
    >>> with_nulls({"state": {"display": None, "width": "auto"}, "keys": [None]}, NULL) == {
    ...     "state": {"display": NULL, "width": "auto"}, "keys": [NULL]}
    True
    """
    return _replaced(value, None, null)


def _replaced(value: Any, old: object, new: object) -> Any:
    """``value`` (dicts, lists, plain values) with every ``old`` in it (by identity) made
    ``new``."""
    if value is old:
        return new
    if isinstance(value, dict):
        return {key: _replaced(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, old, new) for item in value]
    return value


def mend_page_nulls() -> None:
    """In the browser's kernel a page's ``null`` reaches Python as Pyodide's ``jsnull``,
    not ``None``, and a ``None`` sent to the page is dropped rather than sent as ``null``:
    the widgets, which read ``None`` for a choice not made (Note Snap's automatic call),
    get ``None`` again, and a ``None`` they set (a button shown again: its layout's
    ``display`` back to ``None``) reaches the page as ``null``. Elsewhere it does
    nothing."""
    try:
        from pyodide.ffi import jsnull
    except ImportError:
        return
    from ipywidgets import Widget

    original = Widget._handle_msg
    if getattr(original, "mends_nulls", False):
        return

    def handle(self: Widget, msg: dict[str, Any]) -> Any:
        return original(self, without(msg, jsnull))

    send = Widget._send

    def sent(self: Widget, msg: Any, buffers: Any = None) -> Any:
        return send(self, with_nulls(msg, jsnull), buffers)

    handle.mends_nulls = True  # type: ignore[attr-defined]
    Widget._handle_msg = handle
    Widget._send = sent


def open_app(app: str, address: str = "") -> Any:
    """The game ``app`` (``"note-snap"``, ``"keyboard-duel"``) for the student and choices
    in ``address`` (``"student=Ana&language=es&naming=letters"``), ready to show."""
    mend_page_nulls()
    settle(address, drawings=drawings_folder())
    if app != "note-snap":  # Note Snap plays without music21; the others load it
        quiet_music21()
    from musicgames.classroom.kernel import open_app as classroom_app

    return kept_app(lambda: classroom_app(app))


def kept_app(opening: Callable[[], Any]) -> Any:
    """The app ``opening`` makes (a classroom app's box: its heading first), with the
    student's answers kept in the browser and the hand-in line under the heading.

    In the browser the answers of earlier visits are fetched first, before the app opens
    the student's file: the box returned is filled a moment later. Elsewhere the app opens
    at once (nothing is kept)."""
    from musicgames.lite import keeping

    keeper = _keeper()
    if keeper is None or keeper.loaded:
        return with_hand_in(opening(), kept=keeper is not None and keeper.kept)
    import ipywidgets

    box = ipywidgets.VBox(layout=ipywidgets.Layout(width="100%"))
    loading = keeper

    async def fill() -> None:
        await loading.load()
        box.children = (with_hand_in(opening(), kept=loading.kept),)

    keeping.soon(fill())
    return box


def _keeper() -> keeping.Keeper | None:
    """The keeper of the class folder in this browser (``None`` outside the browser)."""
    from musicgames.lite import keeping

    folder = appmode.class_folder()
    return keeping.in_this_browser(folder) if folder is not None else None


def with_hand_in(box: Any, *, kept: bool) -> Any:
    """A classroom app's ``box`` with the hand-in line (a download of the student's file,
    :class:`~musicgames.widgets.hand_in_download.HandInDownload`) after its heading; as it
    is when no student is named (the app asks the name first)."""
    from musicgames.classroom.kernel import page_settings
    from musicgames.progress.store import ProgressStore
    from musicgames.widgets.hand_in_download import HandInDownload

    name = appmode.student()
    if name is None or len(getattr(box, "children", ())) < 2:
        return box
    heading, *rest = box.children
    store = getattr(rest[-1], "_progress", None)
    if not isinstance(store, ProgressStore):
        store = appmode.student_store(name)
    hand_in = HandInDownload(store, language=page_settings()["language"], kept=kept,
                             keeper=_keeper())
    box.children = (heading, hand_in, *rest)
    return box


async def open_lesson(path: str, address: str = "", site: str = "") -> None:
    """Show the lesson at ``path`` (``"lessons/es/01-el-pentagrama.ipynb"``) for the student
    and choices in ``address``: its cells run here, one after the other, as the classroom's
    page of that lesson runs them. ``site`` is the site's root address (the page's links to
    the start page and the other lessons are written whole with it).

    In the browser the answers of earlier visits are fetched first (as for an app, see
    :func:`kept_app`), before the lesson opens the student's file; the page's cell awaits
    this (``await open_lesson(…)``)."""
    from IPython.display import Markdown, display

    mend_page_nulls()
    settle(address, drawings=drawings_folder(), start_page=site or START_PAGE)
    keeper = _keeper()
    if keeper is not None and not keeper.loaded:
        await keeper.load()
    quiet_music21()
    os.environ[appmode.LESSON_PAGES_ENV] = _lesson_pages(path, site)
    folder = lessons_folder()
    if folder is None:
        raise FileNotFoundError("this Python has no lessons (musicgames_lessons)")
    notebook = json.loads((folder / path).read_text(encoding="utf-8"))
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    namespace: dict[str, Any] = shell.user_ns if shell is not None else {}
    run_cells(notebook["cells"], namespace, show_markdown=lambda text: display(
        Markdown(site_links(text, path, address, site))))
