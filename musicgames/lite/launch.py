"""Opening a game in the student's browser, on the static site (see :mod:`musicgames.lite`).

The site's play pages run ``open_app("note-snap", "student=Ana&language=es&naming=letters")``
in the browser's Python, with the choices the start page made. The game is the classroom's
app (:func:`musicgames.classroom.kernel.open_app`): the same heading, the same student's
file, the same link back to the start page. Here the "server" is the browser itself, so this
says what a classroom server would say to its kernels:

* the choices of the start page (``student``, ``language``, ``naming``), as the query of the
  app's address;
* the class folder, a folder of the browser's own (answers are kept for as long as the page
  is open);
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
from pathlib import Path
from typing import Any

from musicgames import appmode
from musicgames.kept import DRAWINGS_ENV

__all__ = ["START_PAGE", "drawings_folder", "open_app", "settle"]

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
    # The classroom's apps find the start page at the server's base address.
    os.environ["VOILA_BASE_URL"] = START_PAGE
    if drawings is not None:
        os.environ[DRAWINGS_ENV] = str(drawings)


def open_app(app: str, address: str = "") -> Any:
    """The game ``app`` (``"note-snap"``, ``"keyboard-duel"``) for the student and choices
    in ``address`` (``"student=Ana&language=es&naming=letters"``), ready to show."""
    settle(address, drawings=drawings_folder())
    from musicgames.classroom.kernel import open_app as classroom_app

    return classroom_app(app)
