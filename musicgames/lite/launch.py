"""Opening a game in the student's browser, on the static site (see :mod:`musicgames.lite`).

The site's play pages run ``open_app("note-snap", "student=Ana&language=es&naming=letters")``
in the browser's Python, with the choices the start page made. The game is the classroom's
app (:func:`musicgames.classroom.kernel.open_app`): the same heading, the same student's
file, the same link back to the start page. Here the "server" is the browser itself, so this
says what a classroom server would say to its kernels:

* the choices of the start page (``student``, ``language``, ``naming``), as the query of the
  app's address;
* the class folder, a folder of the browser's own, kept in its storage from one visit to the
  next (:mod:`musicgames.lite.keeping`); a hand-in is a download of the student's file;
* the drawings made when the site was built (staves and word widths): nothing is engraved or
  measured in the browser;
* the start page's address, next to the game's page.

>>> import os
>>> saved = dict(os.environ)
>>> settle("student=Ana&language=es", drawings=None)
>>> os.environ["QUERY_STRING"], os.environ["MUSICGAMES_APP"]
('student=Ana&language=es', '1')
>>> os.environ.clear(); os.environ.update(saved)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from musicgames import appmode
from musicgames.kept import DRAWINGS_ENV
from musicgames.widgets.hand_in import DOWNLOAD_ENV

__all__ = [
    "START_PAGE",
    "drawings_folder",
    "kept_app",
    "mend_page_nulls",
    "open_app",
    "settle",
    "with_hand_in",
    "without",
]

#: The start page, from the page a game opens in (``repl/index.html``): the site's root.
START_PAGE = "../"


def drawings_folder() -> Path | None:
    """The folder of the drawings made when the site was built, if this Python has them."""
    try:
        import musicgames_drawings
    except ImportError:
        return None
    return Path(musicgames_drawings.__file__).parent


def settle(address: str, *, drawings: Path | None) -> None:
    """Tell this Python what a classroom server tells its kernels (see the module's notes)."""
    os.environ[appmode.APP_ENV] = "1"
    os.environ["QUERY_STRING"] = address
    folder = Path(tempfile.gettempdir()) / "musicgames-class"
    folder.mkdir(exist_ok=True)
    os.environ[appmode.CLASS_FOLDER_ENV] = str(folder)
    os.environ[DOWNLOAD_ENV] = "1"
    # The classroom's apps find the start page at the server's base address.
    os.environ["VOILA_BASE_URL"] = START_PAGE
    if drawings is not None:
        os.environ[DRAWINGS_ENV] = str(drawings)


def without(value: Any, null: object) -> Any:
    """``value`` (a page's message: dicts, lists, plain values) with every ``null`` in it
    made ``None``.

    >>> NULL = object()
    >>> without({"call": NULL, "keys": [1, NULL], "seq": 3}, NULL)
    {'call': None, 'keys': [1, None], 'seq': 3}
    """
    if value is null:
        return None
    if isinstance(value, dict):
        return {key: without(item, null) for key, item in value.items()}
    if isinstance(value, list):
        return [without(item, null) for item in value]
    return value


def mend_page_nulls() -> None:
    """In the browser's kernel a page's ``null`` reaches Python as Pyodide's ``jsnull``,
    not ``None``: the widgets, which read ``None`` for a choice not made (Note Snap's
    automatic call), get ``None`` again. Elsewhere it does nothing."""
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

    handle.mends_nulls = True  # type: ignore[attr-defined]
    Widget._handle_msg = handle


def open_app(app: str, address: str = "") -> Any:
    """The game ``app`` (``"note-snap"``, ``"keyboard-duel"``) for the student and choices
    in ``address`` (``"student=Ana&language=es&naming=letters"``), ready to show."""
    mend_page_nulls()
    settle(address, drawings=drawings_folder())
    from musicgames.classroom.kernel import open_app as classroom_app

    return kept_app(lambda: classroom_app(app))


def kept_app(opening: Callable[[], Any]) -> Any:
    """The app ``opening`` makes (a classroom app's box: its heading first), with the
    student's answers kept in the browser and the hand-in line under the heading.

    In the browser the answers of earlier visits are fetched first, before the app opens
    the student's file: the box returned is filled a moment later. Elsewhere the app opens
    at once (nothing is kept)."""
    from musicgames.lite import keeping

    folder = appmode.class_folder()
    keeper = keeping.in_this_browser(folder) if folder is not None else None
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
    hand_in = HandInDownload(store, language=page_settings()["language"], kept=kept)
    box.children = (heading, hand_in, *rest)
    return box
