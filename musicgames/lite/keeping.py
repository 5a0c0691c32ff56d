"""Answers that last on the static site: the class folder kept in the browser's own storage.

In the browser, Python's files live in memory and are gone when the page closes. SQLite
works there (on JupyterLite's notebook drive it does not: "database disk image is
malformed"), so the students' progress files are written in memory, in the class folder,
exactly as on the desktop; this module keeps a copy of each in the browser's IndexedDB and
brings it back on the next visit:

* **at the start**, before any progress file is opened, the kept copies are fetched and put
  in the class folder (:meth:`Keeper.load`): the answers of earlier visits, and with them
  the spaced review's memory of each item (both are in the file);
* **after each write** (the store tells :data:`musicgames.progress.store.WRITE_HOOKS`), a
  consistent copy of the file (SQLite's backup) replaces the one in the kept folder, and the
  kept folder is written to IndexedDB (:meth:`Keeper.save`). Emscripten's IDBFS writes every
  changed file in **one IndexedDB transaction**: either the whole new file is stored or the
  old one stays. A reload in the middle of a save leaves the last complete copy, never half
  a file; only the answers given since that copy are lost (at most the last few, a save
  takes milliseconds).
* **two tabs of one student** each have their own copy in memory. A save takes the
  browser's lock of the kept folder (Web Locks, shared by every tab of the site), fetches
  the kept copy, adds to this tab's file the answers the other tab kept that it lacks, and
  stores the result: no tab's answers are lost, and each tab's spaced review counts the
  other's answers from its next save on. (Where the browser has no Web Locks, as on a plain
  ``http://`` address other than this computer's, saves are not locked: two saves at the
  same moment can drop the other tab's last answers until that tab saves again.)
* **the student's lesson settings** (sound, the drawings' size, :mod:`musicgames.lessons.
  settings`) are kept the same way, each time they change, so a lesson opens the next visit
  as the student left the last one; the last chosen, in any tab, is the one kept.
* **a save that fails** (the browser's storage is full, say) is tried again at the next
  answer, with the whole file; meanwhile the answers stay in the page, and the hand-in line
  says they are not kept and asks for a download (:meth:`Keeper.watch`).

The browser is asked to keep the storage for good (``navigator.storage.persist()``) by the
hand-in line's page side, which runs in the page (a worker cannot ask).

Outside the browser nothing is kept (:func:`in_this_browser` is ``None``); the tests give a
:class:`Keeper` a stand-in for the browser's storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import weakref
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any, Protocol

from musicgames.appmode import CLASS_SETTINGS_FOLDER
from musicgames.progress.errors import ProgressError
from musicgames.progress.files import read_answers
from musicgames.progress.store import WRITE_HOOKS, ProgressStore

__all__ = [
    "KEPT_FOLDER",
    "LOCK_NAME",
    "BrowserShelf",
    "Keeper",
    "Shelf",
    "Watcher",
    "in_this_browser",
    "soon",
    "this_browsers_keeper",
]

#: Where the browser's storage is seen as a folder. It names the IndexedDB database too, so
#: it never changes (another name would be another, empty, storage).
KEPT_FOLDER = Path("/musicgames-progress")
#: The name of the lock every tab of the site takes to save (Web Locks).
LOCK_NAME = "musicgames-progress"


class Watcher(Protocol):
    """What is told when keeping starts to fail or works again (the site's hand-in line)."""

    def keeping_failed(self, failing: bool) -> None: ...


class Shelf(Protocol):
    """The browser's storage, seen as the folder ``folder``: :meth:`fetch` puts in it what
    is stored, :meth:`store` stores what it holds (all of it or nothing), :meth:`hold`
    takes the lock all tabs of the site share."""

    folder: Path

    async def fetch(self) -> None: ...

    async def store(self) -> None: ...

    def hold(self) -> contextlib.AbstractAsyncContextManager[None]: ...


#: The browser's side of :class:`BrowserShelf`, run in the kernel's worker: IDBFS mounted at
#: the folder, its two ways of syncing as promises, and the Web Lock as a promise of the
#: function that lets it go.
_BROWSER_JS = """
(FS, path) => {
  const IDBFS = FS.filesystems.IDBFS;
  FS.mkdirTree(path);
  FS.mount(IDBFS, {}, path);
  const mount = FS.lookupPath(path).node.mount;
  const sync = (populate) => new Promise((resolve, reject) =>
    IDBFS.syncfs(mount, populate, (error) => (error ? reject(error) : resolve(true))));
  const hold = (name) => new Promise((held) => {
    const locks = globalThis.navigator && globalThis.navigator.locks;
    if (!locks) { held(() => {}); return; }
    locks.request(name, () => new Promise((release) => held(release)));
  });
  return { fetch: () => sync(true), store: () => sync(false), hold };
}
"""


class BrowserShelf:
    """The browser's IndexedDB, through Emscripten's IDBFS mounted at ``folder`` (in the
    browser's Python only)."""

    def __init__(self, folder: Path = KEPT_FOLDER) -> None:
        import pyodide_js
        from pyodide.code import run_js

        self.folder = folder
        self._js: Any = run_js(_BROWSER_JS)(pyodide_js.FS, str(folder))

    async def fetch(self) -> None:
        await self._js.fetch()

    async def store(self) -> None:
        await self._js.store()

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        release = await self._js.hold(LOCK_NAME)
        try:
            yield
        finally:
            release()


def _copy_database(source: Path, target: Path) -> None:
    """Put a consistent copy of the SQLite file ``source`` at ``target`` in one step
    (SQLite's backup into a file beside ``target``, then renamed onto it)."""
    temporary = target.with_name(f".{target.name}.new")
    try:
        with contextlib.closing(sqlite3.connect(source)) as reading, \
                contextlib.closing(sqlite3.connect(temporary)) as copy:
            reading.backup(copy)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def _copy_file(source: Path, target: Path) -> None:
    """Put a copy of ``source`` at ``target`` in one step (written beside it, then renamed
    onto it), making its folder if need be."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.new")
    try:
        temporary.write_bytes(source.read_bytes())
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


class Keeper:
    """Keeps the progress files of ``class_folder``, and the students' lesson settings in
    it, on ``shelf`` (see the module's notes).

    :attr:`kept` says whether answers are kept: ``False`` until :meth:`load` found the
    browser's storage answering (a browser that refuses it, as some private windows do,
    keeps answers for as long as the page is open only).
    """

    def __init__(self, shelf: Shelf, class_folder: Path) -> None:
        self.shelf = shelf
        self.class_folder = class_folder
        self.loaded = False
        self.kept = False
        #: Why the last load or save failed (``None``: it did not).
        self.failure: str | None = None
        self._waiting: set[str] = set()
        #: The files a failed save did not store: stored with the next save.
        self._unsaved: set[str] = set()
        self._saving: asyncio.Future[None] | None = None
        self._stored: dict[str, tuple[int, int]] = {}
        self._adding = False
        self._watchers: weakref.WeakSet[Watcher] = weakref.WeakSet()

    def watch(self, watcher: Watcher) -> None:
        """Tell ``watcher`` now whether keeping fails, and each time it starts to fail
        (:attr:`failure` is set: the browser's storage refused a save, when it is full, say)
        or works again: the hand-in line tells the student. A watcher that is gone (a
        closed page's widget) is no longer told."""
        self._watchers.add(watcher)
        if self.kept and self.failure is not None:
            watcher.keeping_failed(True)

    async def load(self) -> bool:
        """Put the kept progress files into the class folder (those not there already);
        ``True`` when the browser's storage answered."""
        try:
            async with self.shelf.hold():
                await self.shelf.fetch()
                self.class_folder.mkdir(parents=True, exist_ok=True)
                for kept in sorted(self.shelf.folder.glob("*.sqlite3")):
                    self._stored[kept.name] = self._stamp(kept)
                    mine = self.class_folder / kept.name
                    if not mine.exists():
                        _copy_database(kept, mine)
                for kept in sorted(self.shelf.folder.glob(f"{CLASS_SETTINGS_FOLDER}/*.json")):
                    mine = self.class_folder / CLASS_SETTINGS_FOLDER / kept.name
                    if not mine.exists():
                        _copy_file(kept, mine)
        except Exception as error:  # no storage (a private window, say): kept while open
            self.failure = f"{type(error).__name__}: {error}"
            self.kept = False
        else:
            self.kept = True
        self.loaded = True
        return self.kept

    def written(self, path: Path) -> None:
        """What the store (or a lesson's settings) tells after a write to ``path``: keep it
        soon (writes that come while a save runs are kept by one more save after it)."""
        if not self.kept or self._adding:
            return
        name = self._kept_name(path)
        if name is None:
            return
        self._waiting.add(name)
        if self._saving is None or self._saving.done():
            self._saving = soon(self._save_waiting())

    async def settled(self) -> None:
        """Wait until every write told so far is kept."""
        while self._saving is not None and not self._saving.done():
            await asyncio.shield(self._saving)

    async def _save_waiting(self) -> None:
        while self._waiting:
            # with the files a failed save left: the warning goes only once they are stored
            names = sorted(self._waiting | self._unsaved)
            self._waiting.clear()
            was_failing = self.failure is not None
            try:
                await self.save(names)
            except Exception as error:  # the page plays on; the next save tries again
                self.failure = f"{type(error).__name__}: {error}"
                self._unsaved.update(names)
            else:
                self.failure = None
                self._unsaved.clear()
            if was_failing != (self.failure is not None):
                self._tell_watchers()

    def _tell_watchers(self) -> None:
        for watcher in list(self._watchers):
            with contextlib.suppress(Exception):  # one broken line stops no save
                watcher.keeping_failed(self.failure is not None)

    def _kept_name(self, path: Path) -> str | None:
        """What ``path`` is kept as (its place in the class folder), if it is kept: a
        progress file of the class folder, or a student's lesson settings."""
        folder = path.resolve().parent
        if path.suffix == ".sqlite3" and folder == self.class_folder.resolve():
            return path.name
        settings = (self.class_folder / CLASS_SETTINGS_FOLDER).resolve()
        if path.suffix == ".json" and folder == settings:
            return f"{CLASS_SETTINGS_FOLDER}/{path.name}"
        return None

    async def save(self, names: list[str]) -> None:
        """Store the files ``names`` of the class folder: each progress file with the
        answers another tab kept in it since (see the module's notes), a student's lesson
        settings as they are now (the last chosen, in any tab)."""
        async with self.shelf.hold():
            await self.shelf.fetch()
            for name in names:
                mine = self.class_folder / name
                if not mine.exists():
                    continue
                kept = self.shelf.folder / name
                if mine.suffix == ".json":
                    _copy_file(mine, kept)
                    continue
                if kept.exists() and self._stamp(kept) != self._stored.get(name):
                    self._add_kept_answers(kept, mine)
                _copy_database(mine, kept)
                self._stored[name] = self._stamp(kept)
            await self.shelf.store()

    def _add_kept_answers(self, kept: Path, mine: Path) -> None:
        """Add to ``mine`` the answers of ``kept`` (another tab's copy) it lacks."""
        try:
            theirs = read_answers(kept)
        except ProgressError:
            return  # not a progress file any more: ours replaces it
        store = ProgressStore(mine)
        self._adding = True
        try:
            present = set(store.answers())
            new = [answer for answer in theirs if answer not in present]
            if new:
                store._insert(new)  # the file's own writing: memory (FSRS) updated too
        finally:
            self._adding = False
            store.close()

    @staticmethod
    def _stamp(path: Path) -> tuple[int, int]:
        """What tells one stored copy from another: its time and size."""
        found = path.stat()
        return found.st_mtime_ns, found.st_size


_KEEPER: Keeper | None = None


def in_this_browser(class_folder: Path) -> Keeper | None:
    """The keeper of ``class_folder`` in the browser's storage (made once, and told of
    every write from then on); ``None`` outside the browser."""
    global _KEEPER
    if sys.platform != "emscripten":
        return None
    if _KEEPER is None:
        _KEEPER = Keeper(BrowserShelf(), class_folder)
        WRITE_HOOKS.append(_KEEPER.written)
    return _KEEPER


def this_browsers_keeper() -> Keeper | None:
    """The keeper :func:`in_this_browser` made (``None`` before, and outside the browser)."""
    return _KEEPER


def soon(work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """Run ``work`` on the kernel's event loop (the browser's, in the site), as the games'
    timers do."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # called from outside the loop
        loop = asyncio.get_event_loop()
    return loop.create_task(work)
