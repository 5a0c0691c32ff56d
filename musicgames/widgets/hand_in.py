"""A hand-in button for lessons and notebooks: one click writes the student's progress file
into the folder the teacher collects (see :meth:`musicgames.progress.ProgressStore.hand_in`).

The folder box starts with the class's hand-in folder when one is set
(:func:`musicgames.appmode.hand_in_folder`), else empty: never the notebook's own folder,
which on a shared server is the course folder every student sees. A folder that does not
exist is refused (a typing mistake is never made into a folder). When the student's progress
file already lives in the class's hand-in folder (JupyterHub), the box says there is nothing
to hand in.

>>> import tempfile, pathlib
>>> from musicgames.progress import ProgressStore
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = ProgressStore(folder / "progress.sqlite3", student="Ana")
>>> _ = store.record("drill", "Sol3", "Sol", True, 800)
>>> (folder / "class").mkdir()
>>> box = hand_in_button(store, folder / "class")
>>> box.hand_in()
>>> box.message.value
'Handed in: ana.sqlite3 in ...class (answers: 1)'
>>> box.folder.value = str(folder / "clas")
>>> box.hand_in()
>>> box.message.value
'There is no folder ...clas: check how it is written. Nothing was handed in.'

>>> hand_in_button(None).message.value
'Give your name (STUDENT = "Ana") to keep and hand in your progress.'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets

from musicgames.appmode import hand_in_folder
from musicgames.i18n import text
from musicgames.progress.errors import HandInError, ProgressError
from musicgames.progress.files import read_answers
from musicgames.progress.store import ProgressStore
from musicgames.widgets.key_guard import keep_keys

if TYPE_CHECKING:
    from musicgames.widgets.hand_in_download import HandInDownload

__all__ = ["DOWNLOAD_ENV", "HandInBox", "by_download", "hand_in_button"]

#: Set to ``"1"`` by the static site (:mod:`musicgames.lite`): there a hand-in is a download
#: of the student's file (:class:`~musicgames.widgets.hand_in_download.HandInDownload`), as
#: the site has no folder the teacher collects.
DOWNLOAD_ENV = "MUSICGAMES_HAND_IN_DOWNLOAD"


def by_download() -> bool:
    """Whether a hand-in here is a download of the student's file (the static site, as
    :data:`DOWNLOAD_ENV` says) rather than a copy into a folder."""
    return os.environ.get(DOWNLOAD_ENV, "") == "1"


class HandInBox(ipywidgets.VBox):
    """A folder box, a Hand in button and a line that says what happened."""

    def __init__(
        self,
        store: ProgressStore | None,
        folder: str | os.PathLike[str] | None = None,
        *,
        language: str = "en",
        **kwargs: Any,
    ) -> None:
        self.store = store
        self.language = language
        if folder is None:
            folder = hand_in_folder()
        self.folder = ipywidgets.Text(
            value="" if folder is None else str(folder),
            placeholder=text("progress.handin.placeholder", language),
            description=text("progress.handin.folder", language),
            layout=ipywidgets.Layout(width="100%", max_width="600px"),
        )
        self.button = ipywidgets.Button(
            description=text("progress.handin.button", language),
            icon="upload",
            button_style="primary",
            tooltip=text("progress.handin.help", language),
        )
        self.message = ipywidgets.HTML()
        self.button.on_click(lambda _button: self.hand_in())
        title = ipywidgets.HTML(f"<b>{text('progress.handin.title', language)}</b>")
        row = ipywidgets.HBox([self.folder, self.button])
        super().__init__([title, row, self.message], **kwargs)
        self.add_class("mg-hand-in")
        keep_keys(self)  # no key pressed on its button runs or adds a cell
        if store is None or store.student is None:
            self.button.disabled = True
            self.folder.disabled = True
            self._say("progress.handin.noname")
        elif folder is not None and _same_folder(Path(folder), store.path.parent):
            self.button.disabled = True
            self.folder.disabled = True
            self._say("progress.handin.kept")

    def _say(self, key: str, **values: object) -> None:
        from html import escape

        self.message.value = escape(text(key, self.language, **values), quote=False)

    def hand_in(self) -> None:
        """Hand the progress file in to the folder in the box (what the button does)."""
        if self.store is None or self.store.student is None:
            self._say("progress.handin.noname")
            return
        folder = self.folder.value.strip()
        if not folder:
            self._say("progress.handin.nofolder")
            return
        if not self.store.answers():
            self._say("progress.handin.empty")  # an empty file handed in helps nobody
            return
        try:
            target = self.store.hand_in(folder)
            answers = len(read_answers(target))
        except HandInError as err:
            if err.kind == "same":
                self._say("progress.handin.same")
            elif err.kind == "missing":
                self._say("progress.handin.missing", folder=err.folder)
            elif err.kind == "folder":
                self._say("progress.handin.notfolder", folder=err.folder, why=err.why)
            else:
                self._say("progress.handin.failed", why=err.why)
            return
        except (ProgressError, OSError) as err:
            self._say("progress.handin.failed", why=getattr(err, "strerror", None) or err)
            return
        self._say("progress.handin.done", file=target.name, answers=answers, folder=target.parent)


def _same_folder(one: Path, other: Path) -> bool:
    try:
        return one.expanduser().resolve() == other.resolve()
    except OSError:
        return False


def hand_in_button(
    store: ProgressStore | None,
    folder: str | os.PathLike[str] | None = None,
    *,
    language: str = "en",
) -> HandInBox | HandInDownload:
    """A ready-made hand-in box for ``store`` (``None``: no student name yet, the box says
    how to give one). ``folder`` fills the folder box (default: the class's hand-in folder
    when one is set, else nothing: the student types the folder the teacher gives).

    On the static site (:data:`DOWNLOAD_ENV`) it is a download of the student's file
    instead: there is no folder to hand in to."""
    if by_download():
        from musicgames.lite.keeping import this_browsers_keeper
        from musicgames.widgets.hand_in_download import HandInDownload

        # the keeper is None but in the site's browser
        return HandInDownload(store, language=language, keeper=this_browsers_keeper())
    return HandInBox(store, folder, language=language)
