"""Handing in from the static site: the student's progress file as a download.

On the desktop a hand-in writes the file into a folder the teacher collects
(:class:`~musicgames.widgets.hand_in.HandInBox`). The static site has no shared folder: the
student's answers stay in their browser, and handing in gives them the very file a hand-in
writes (``ana.sqlite3``, taken with SQLite's backup, see
:meth:`~musicgames.progress.store.ProgressStore.hand_in`) as a download, which they give the
teacher as the class does (e-mail, a shared drive, a USB stick); the teacher reads a folder
of them as always. The page is sent the file's bytes and name and only saves them.

The page side also asks the browser to keep the site's storage for good
(``navigator.storage.persist()``), where answers are kept between visits.

>>> import tempfile, pathlib
>>> from musicgames.progress import ProgressStore
>>> store = ProgressStore(pathlib.Path(tempfile.mkdtemp()) / "p.sqlite3", student="Ana")
>>> box = HandInDownload(store)
>>> box.hand_in() is None, box.message.startswith("Nothing to hand in yet")
(True, True)
>>> _ = store.record("drill", "Sol3", "Sol", True, 800)
>>> name, data = box.hand_in()
>>> name, data[:15]
('ana.sqlite3', b'SQLite format 3')
>>> box.message
'Downloaded: ana.sqlite3 (answers: 1). Give this file to your teacher.'
"""

from __future__ import annotations

import tempfile
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from musicgames.i18n import text
from musicgames.progress.errors import ProgressError
from musicgames.progress.files import read_answers
from musicgames.progress.store import ProgressStore
from musicgames.widgets._assets import joined

if TYPE_CHECKING:
    from musicgames.lite.keeping import Keeper

__all__ = ["HandInDownload"]


class HandInDownload(anywidget.AnyWidget):
    """A line on where the answers are kept, and a button that downloads the student's
    progress file (``kept``: whether this browser keeps them between visits, by default as
    ``keeper`` found it; ``keeper``, the site's :class:`~musicgames.lite.keeping.Keeper`:
    the line warns while the browser refuses to keep the latest answers)."""

    _esm = joined("hand_in_download.js")
    _css = joined("hand_in_download.css")

    title = traitlets.Unicode().tag(sync=True)
    kept_line = traitlets.Unicode().tag(sync=True)
    button = traitlets.Unicode().tag(sync=True)
    message = traitlets.Unicode().tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    #: Whether the page asks the browser to keep the storage for good.
    ask_to_persist = traitlets.Bool(False).tag(sync=True)
    #: What the browser answered (``True``: kept for good).
    persisted = traitlets.Bool(False).tag(sync=True)
    #: Whether the line on keeping is a warning: the browser refused to keep the last
    #: answers (:meth:`keeping_failed`).
    warning = traitlets.Bool(False).tag(sync=True)

    def __init__(self, store: ProgressStore | None, *, language: str = "en",
                 kept: bool | None = None, keeper: Keeper | None = None) -> None:
        if kept is None:  # as the keeper found the browser's storage (kept, without one)
            kept = keeper is None or keeper.kept
        super().__init__(
            title=text("progress.handin.title", language),
            kept_line=text("progress.handin.browser" if kept else "progress.handin.not_kept",
                           language),
            button=text("progress.handin.download", language),
            ask_to_persist=kept,
        )
        self.store = store
        self.language = language
        #: The last file handed in: its name (``None`` before any).
        self.handed_in: str | None = None
        if store is None or store.student is None:
            self.disabled = True
            self._say("progress.handin.noname")
        self.on_msg(self._on_message)
        if kept and keeper is not None:  # the line warns when the browser refuses a save
            keeper.watch(self)

    def _say(self, key: str, **values: object) -> None:
        self.message = text(key, self.language, **values)

    def keeping_failed(self, failing: bool) -> None:
        """Say on the line whether the browser keeps the answers: when it refused the last
        save (its storage is full, say) the line warns that the answers given since are
        only in the open page and asks for a download; when a save works again it says
        they are kept, as before.

        >>> box = HandInDownload(None)
        >>> box.keeping_failed(True)
        >>> box.warning, box.kept_line.startswith("This browser could not keep")
        (True, True)
        >>> box.keeping_failed(False)
        >>> box.warning, box.kept_line.startswith("Your answers stay in this browser")
        (False, True)
        """
        self.warning = failing
        key = "progress.handin.not_saved" if failing else "progress.handin.browser"
        self.kept_line = text(key, self.language)

    def hand_in(self) -> tuple[str, bytes] | None:
        """The file to hand in, as a download: its name and bytes (``None`` when there is
        nothing to hand in; :attr:`message` says why)."""
        store = self.store
        if store is None or store.student is None:
            self._say("progress.handin.noname")
            return None
        if not store.answers():
            self._say("progress.handin.empty")
            return None
        with tempfile.TemporaryDirectory(prefix="musicgames-hand-in-") as folder:
            try:
                copy = store.hand_in(folder)
                data = copy.read_bytes()
                answers = len(read_answers(copy))
            except (ProgressError, OSError) as err:
                self._say("progress.handin.failed", why=getattr(err, "strerror", None) or err)
                return None
        self.handed_in = copy.name
        self._say("progress.handin.downloaded", file=copy.name, answers=answers)
        return copy.name, data

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "hand-in":
            made = self.hand_in()
            if made is not None:
                self.send({"type": "file", "name": made[0]}, [made[1]])
