"""Answers that last on the static site, and its hand-in, without a browser: the keeping of
the class folder in the browser's storage (musicgames.lite.keeping) against a stand-in for
IndexedDB that stores a folder the way IDBFS does (every file at once, or nothing), and the
hand-in as a download whose file the teacher's code reads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from musicgames.lite import keeping
from musicgames.lite.keeping import Keeper
from musicgames.memory import next_review
from musicgames.progress import store as store_module
from musicgames.progress.store import ProgressStore

DAY = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


class ReloadedError(RuntimeError):
    """The page was reloaded in the middle of a save (IndexedDB aborts its transaction)."""


class Storage:
    """One site's IndexedDB, as IDBFS uses it: each file's bytes and time, all replaced in
    one transaction (all of them or none)."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, int]] = {}
        self.lock = asyncio.Lock()
        self.stores = 0
        self.reload_during_store = False


class Shelf:
    """One tab's view of :class:`Storage` (a folder of its own), synced as IDBFS syncs."""

    def __init__(self, storage: Storage, folder: Path) -> None:
        self.storage = storage
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    async def fetch(self) -> None:
        await asyncio.sleep(0)
        for name, (data, mtime) in self.storage.files.items():
            path = self.folder / name
            if not path.exists() or path.stat().st_mtime_ns != mtime:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                os.utime(path, ns=(mtime, mtime))
        for path in self.folder.rglob("*"):
            if path.is_file() and self._name(path) not in self.storage.files:
                path.unlink()

    def _name(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    async def store(self) -> None:
        snapshot = {self._name(p): (p.read_bytes(), p.stat().st_mtime_ns)
                    for p in self.folder.rglob("*") if p.is_file()}
        await asyncio.sleep(0)  # the transaction runs
        if self.storage.reload_during_store:
            raise ReloadedError("the page went away")
        self.storage.files = snapshot
        self.storage.stores += 1

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        async with self.storage.lock:
            yield


class Tab:
    """A student's tab on the site: its class folder in memory, kept in ``storage``."""

    count = 0

    def __init__(self, storage: Storage, root: Path) -> None:
        Tab.count += 1
        here = root / f"tab-{Tab.count}"
        self.keeper = Keeper(Shelf(storage, here / "kept"), here / "class")

    async def open(self) -> ProgressStore:
        """Ana's progress file in this tab, after the kept files are loaded."""
        await self.keeper.load()
        return ProgressStore(self.keeper.class_folder / "ana.sqlite3", student="Ana")


@pytest.fixture
def told() -> Iterator[list[Keeper]]:
    """Every keeper in the list is told of each write (as the site's one keeper is)."""
    keepers: list[Keeper] = []

    def tell(path: Path) -> None:
        for keeper in keepers:
            keeper.written(path)

    store_module.WRITE_HOOKS.append(tell)
    try:
        yield keepers
    finally:
        store_module.WRITE_HOOKS.remove(tell)


def run(work: Any) -> Any:
    return asyncio.run(work)


def test_the_store_tells_its_hooks_of_each_answer_and_setting(tmp_path: Path) -> None:
    heard: list[Path] = []
    store_module.WRITE_HOOKS.append(heard.append)
    try:
        with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
            assert heard == []
            store.record("drill", "Sol3", "Sol", True, 800)
            store.save_setting("answer-with", "midi")
    finally:
        store_module.WRITE_HOOKS.remove(heard.append)
    assert heard == [tmp_path / "ana.sqlite3"] * 2


def test_answers_are_written_where_python_has_no_flock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's Python has ``fcntl`` without ``flock``: answers are written all the
    same (SQLite's own locking alone, as on Windows)."""
    import fcntl

    monkeypatch.delattr(fcntl, "flock")
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800)
        store.save_setting("answer-with", "midi")
    with ProgressStore(tmp_path / "ana.sqlite3") as again:
        assert len(again) == 1 and again.setting("answer-with") == "midi"


def test_answers_survive_a_reload(tmp_path: Path, told: list[Keeper]) -> None:
    storage = Storage()

    async def visit_one() -> None:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        store = await tab.open()
        assert tab.keeper.kept
        store.record("drill", "Sol3", "Sol", True, 800)
        store.record("drill", "La3", "Si", False, 1200)
        await tab.keeper.settled()
        store.close()
        told.remove(tab.keeper)

    async def visit_two() -> list[tuple[str, str, bool | None]]:
        tab = Tab(storage, tmp_path)  # a new page: nothing in memory
        assert not (tab.keeper.class_folder / "ana.sqlite3").exists()
        with await tab.open() as store:
            return [(a.student, a.item, a.correct) for a in store.answers()]

    run(visit_one())
    assert list(storage.files) == ["ana.sqlite3"]
    assert run(visit_two()) == [("Ana", "Sol3", True), ("Ana", "La3", False)]


def test_a_review_due_tomorrow_is_due_after_a_reload_with_a_later_clock(
    tmp_path: Path, told: list[Keeper]
) -> None:
    """The spaced review reads the stored answers: what was due tomorrow on the first day
    is due on the next day's visit, and not before."""
    storage = Storage()
    items = ["Sol3", "La3"]
    answered = DAY + timedelta(minutes=6)

    async def first_day() -> tuple[int, tuple[str, ...], date]:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        with await tab.open() as store:
            for n in range(4):
                store.record("drill", "La3", "La", True, 800,
                             time=(DAY + timedelta(minutes=n)).isoformat())
            store.record("drill", "Sol3", "Fa", False, 900,
                         time=(DAY + timedelta(minutes=5)).isoformat())
            store.record("drill", "Sol3", "Sol", True, 900, time=answered.isoformat())
            await tab.keeper.settled()
            ahead = next_review(store.memory("drill"), items, answered)
        told.remove(tab.keeper)
        assert ahead is not None
        return ahead.days, ahead.items, ahead.day

    async def visit(now: datetime) -> list[str]:
        tab = Tab(storage, tmp_path)
        with await tab.open() as store:
            return store.due("drill", now=now)

    days, tomorrows, day = run(first_day())
    assert days == 1 and tomorrows
    assert not set(tomorrows) & set(run(visit(answered + timedelta(minutes=1))))
    next_noon = datetime.combine(day, time(12)).astimezone()  # noon of that day, here
    assert set(tomorrows) <= set(run(visit(next_noon)))


def test_two_tabs_of_one_student_lose_no_answer(tmp_path: Path, told: list[Keeper]) -> None:
    storage = Storage()

    async def two_tabs() -> list[str]:
        one, two = Tab(storage, tmp_path), Tab(storage, tmp_path)
        first = await one.open()
        second = await two.open()
        # each tab's keeper hears only its own writes (each tab is its own Python)
        told.append(one.keeper)
        first.record("drill", "Do4", "Do", True, 700)
        await one.keeper.settled()
        told.clear()
        told.append(two.keeper)
        second.record("drill", "Mi4", "Mi", True, 700)
        await two.keeper.settled()
        told.clear()
        told.append(one.keeper)
        first.record("drill", "Re4", "Re", True, 700)
        await one.keeper.settled()
        told.clear()
        assert [a.item for a in first.answers()] == ["Do4", "Mi4", "Re4"]  # the other's too
        first.close()
        second.close()
        later = Tab(storage, tmp_path)
        with await later.open() as store:
            return [a.item for a in store.answers()]

    assert run(two_tabs()) == ["Do4", "Mi4", "Re4"]


def test_a_tab_merges_the_other_tabs_answers_into_its_spaced_review(
    tmp_path: Path, told: list[Keeper]
) -> None:
    storage = Storage()

    async def two_tabs() -> list[str]:
        one, two = Tab(storage, tmp_path), Tab(storage, tmp_path)
        first, second = await one.open(), await two.open()
        told.append(two.keeper)
        second.record("drill", "Mi4", "Fa", False, 900, time=DAY.isoformat())
        await two.keeper.settled()
        told.clear()
        told.append(one.keeper)
        first.record("drill", "Do4", "Do", True, 700, time=DAY.isoformat())
        await one.keeper.settled()
        told.clear()
        due = first.due("drill", now=DAY + timedelta(days=1))
        first.close()
        second.close()
        return due

    assert "Mi4" in run(two_tabs())


def test_a_reload_in_the_middle_of_a_save_leaves_the_last_whole_copy(
    tmp_path: Path, told: list[Keeper]
) -> None:
    storage = Storage()

    async def interrupted() -> None:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        with await tab.open() as store:
            store.record("drill", "Sol3", "Sol", True, 800)
            await tab.keeper.settled()
            storage.reload_during_store = True
            store.record("drill", "La3", "La", True, 800)
            await tab.keeper.settled()
        assert tab.keeper.failure is not None and "went away" in tab.keeper.failure
        told.remove(tab.keeper)

    async def reloaded() -> list[str]:
        tab = Tab(storage, tmp_path)
        with await tab.open() as store:  # opens: the kept file is whole
            return [a.item for a in store.answers()]

    run(interrupted())
    storage.reload_during_store = False
    assert run(reloaded()) == ["Sol3"]


def test_a_copy_cut_short_leaves_the_kept_file_as_it_was(
    tmp_path: Path, told: list[Keeper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept folder holds whole files only (the copy is made beside and renamed), so
    whatever IndexedDB stores of it is whole."""
    storage = Storage()

    def broken_copy(source: Path, target: Path) -> None:
        partial = target.with_name(f".{target.name}.new")
        partial.write_bytes(source.read_bytes()[:100])
        partial.unlink()
        raise sqlite3.OperationalError("disk I/O error")

    async def cut_short() -> bytes:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        with await tab.open() as store:
            store.record("drill", "Sol3", "Sol", True, 800)
            await tab.keeper.settled()
            kept = (tab.keeper.shelf.folder / "ana.sqlite3").read_bytes()
            monkeypatch.setattr(keeping, "_copy_database", broken_copy)
            store.record("drill", "La3", "La", True, 800)
            await tab.keeper.settled()
            assert tab.keeper.failure is not None
            assert (tab.keeper.shelf.folder / "ana.sqlite3").read_bytes() == kept
            assert sorted(p.name for p in tab.keeper.shelf.folder.iterdir()) == ["ana.sqlite3"]
        told.remove(tab.keeper)
        return kept

    kept = run(cut_short())
    assert storage.files["ana.sqlite3"][0] == kept


def test_writes_during_a_save_are_kept_by_one_more_save(
    tmp_path: Path, told: list[Keeper]
) -> None:
    storage = Storage()

    async def quick_answers() -> int:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        with await tab.open() as store:
            for n in range(6):
                store.record("drill", f"Do{n}", "Do", True, 500)
            await tab.keeper.settled()
            answers = len(store.answers())
        told.remove(tab.keeper)
        return answers

    assert run(quick_answers()) == 6
    assert storage.stores <= 2
    later = Tab(storage, tmp_path)

    async def count() -> int:
        with await later.open() as store:
            return len(store)

    assert run(count()) == 6


def test_a_browser_that_keeps_nothing_is_said_and_play_goes_on(
    tmp_path: Path, told: list[Keeper]
) -> None:
    class NoStorage(Shelf):
        async def fetch(self) -> None:
            raise RuntimeError("IndexedDB is not available")

    async def play() -> None:
        keeper = Keeper(NoStorage(Storage(), tmp_path / "kept"), tmp_path / "class")
        told.append(keeper)
        assert await keeper.load() is False
        assert keeper.loaded and not keeper.kept and "IndexedDB" in str(keeper.failure)
        (tmp_path / "class").mkdir()
        with ProgressStore(tmp_path / "class" / "ana.sqlite3", student="Ana") as store:
            store.record("drill", "Sol3", "Sol", True, 800)
            await keeper.settled()
            assert len(store) == 1
        told.remove(keeper)

    run(play())


class FullStorage(Storage):
    """A site's IndexedDB that refuses to store while ``full`` (its quota used up)."""

    def __init__(self) -> None:
        super().__init__()
        self.full = False


class FullShelf(Shelf):
    storage: FullStorage

    async def store(self) -> None:
        if self.storage.full:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        await super().store()


def test_a_save_the_browser_refuses_is_said_on_the_hand_in_line_until_one_works(
    tmp_path: Path, told: list[Keeper]
) -> None:
    """The storage is full for two answers: the site's hand-in line warns that they are only
    in the page and asks for a download; the next save that works keeps them all, and the
    line says so again."""
    from musicgames.widgets.hand_in_download import HandInDownload

    storage = FullStorage()
    told_lines: list[bool] = []

    class Spy:
        def keeping_failed(self, failing: bool) -> None:
            told_lines.append(failing)

    spy = Spy()

    async def play() -> None:
        keeper = Keeper(FullShelf(storage, tmp_path / "kept"), tmp_path / "class")
        told.append(keeper)
        assert await keeper.load() is True
        keeper.watch(spy)
        with ProgressStore(tmp_path / "class" / "ana.sqlite3", student="Ana") as store:
            box = HandInDownload(store, language="es", keeper=keeper)
            store.record("drill", "Do3", "Do", True, 500)
            await keeper.settled()
            assert not box.warning and keeper.failure is None and storage.stores == 1
            storage.full = True
            store.record("drill", "Re3", "Re", True, 500)
            await keeper.settled()
            assert box.warning and "QuotaExceededError" in str(keeper.failure)
            assert box.kept_line.startswith("Este navegador no pudo guardar tus últimas")
            # a page opened meanwhile (a lesson's hand-in) warns from the start
            assert HandInDownload(store, language="fr", keeper=keeper).kept_line.startswith(
                "Ce navigateur n'a pas pu garder tes dernières réponses")
            store.record("drill", "Mi3", "Mi", False, 900)
            await keeper.settled()
            assert storage.stores == 1 and len(store) == 3  # the page still has them all
            storage.full = False
            store.record("drill", "Fa3", "Fa", True, 500)
            await keeper.settled()
            assert not box.warning and keeper.failure is None and storage.stores == 2
            assert box.kept_line.startswith("Tus respuestas quedan en este navegador")
        told.remove(keeper)

    run(play())
    # one warning while it failed, one all-clear when it worked again: not one each answer
    assert told_lines == [True, False]
    later = Tab(storage, tmp_path)

    async def count() -> list[str]:
        with await later.open() as store:
            return [answer.item for answer in store.answers()]

    assert run(count()) == ["Do3", "Re3", "Mi3", "Fa3"]  # the answers given while it was full


def test_the_warning_stays_until_the_answers_a_refused_save_left_are_stored(
    tmp_path: Path, told: list[Keeper]
) -> None:
    """The storage refuses Re3's save; once it has room, the next save of anything (the
    lesson's settings, say) stores the progress file too before the line says all is kept."""
    storage = FullStorage()

    async def play() -> list[bool]:
        keeper = Keeper(FullShelf(storage, tmp_path / "kept"), tmp_path / "class")
        told.append(keeper)
        await keeper.load()
        failing: list[bool] = []

        class Line:
            def keeping_failed(self, now: bool) -> None:
                failing.append(now)

        class Broken:
            def keeping_failed(self, now: bool) -> None:
                raise RuntimeError("a line that breaks")

        line, broken = Line(), Broken()
        keeper.watch(broken)  # told first or not, it stops neither the save nor the others
        keeper.watch(line)
        with ProgressStore(tmp_path / "class" / "ana.sqlite3", student="Ana") as store:
            store.record("drill", "Do3", "Do", True, 500)
            await keeper.settled()
            storage.full = True
            store.record("drill", "Re3", "Re", True, 500)
            await keeper.settled()
            storage.full = False
            settings = tmp_path / "class" / ".lesson-settings" / "ana.json"
            settings.parent.mkdir()
            settings.write_text('{"size": "large"}')
            keeper.written(settings)
            await keeper.settled()
        told.remove(keeper)
        return failing

    assert run(play()) == [True, False]
    later = Tab(storage, tmp_path)

    async def count() -> list[str]:
        with await later.open() as store:
            return [answer.item for answer in store.answers()]

    assert run(count()) == ["Do3", "Re3"]
    assert ".lesson-settings/ana.json" in storage.files


def test_a_closed_hand_in_line_is_no_longer_told(tmp_path: Path) -> None:
    import gc

    from musicgames.widgets.hand_in_download import HandInDownload

    keeper = Keeper(Shelf(Storage(), tmp_path / "kept"), tmp_path / "class")
    run(keeper.load())
    box = HandInDownload(None, keeper=keeper)
    assert list(keeper._watchers) == [box]
    box.close()
    del box
    gc.collect()
    assert list(keeper._watchers) == []


def test_a_lessons_settings_are_kept_for_the_next_visit(
    tmp_path: Path, told: list[Keeper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the site a lesson's settings (sound, size) are the student's own file in the class
    folder, kept in the browser as the answers are: the next visit opens as Ana left it."""
    from musicgames import appmode
    from musicgames.lessons.settings import LessonSettings

    storage = Storage()
    monkeypatch.setenv(appmode.APP_ENV, "1")
    monkeypatch.setenv("QUERY_STRING", "student=Ana&language=es")

    async def visit(choose: LessonSettings | None) -> LessonSettings:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        monkeypatch.setenv(appmode.CLASS_FOLDER_ENV, str(tab.keeper.class_folder))
        await tab.keeper.load()
        found = LessonSettings.load()
        if choose is not None:
            choose.save()
            await tab.keeper.settled()
        told.remove(tab.keeper)
        return found

    chosen = LessonSettings(naming="letters", sound=False, size="large")
    assert run(visit(chosen)) == LessonSettings()  # the first visit: the defaults
    assert sorted(storage.files) == [".lesson-settings/ana.json"]
    assert run(visit(None)) == chosen  # the next visit, a new Python: as Ana left it
    # the last chosen is the one kept
    assert run(visit(LessonSettings(size="small"))) == chosen
    assert run(visit(None)) == LessonSettings(size="small")


def test_only_the_class_folders_progress_files_are_kept(
    tmp_path: Path, told: list[Keeper]
) -> None:
    storage = Storage()

    async def elsewhere() -> None:
        tab = Tab(storage, tmp_path)
        told.append(tab.keeper)
        await tab.keeper.load()
        with ProgressStore(tmp_path / "elsewhere.sqlite3", student="Ana") as store:
            store.record("drill", "Sol3", "Sol", True, 800)
            await tab.keeper.settled()
        told.remove(tab.keeper)

    run(elsewhere())
    assert storage.files == {} and storage.stores == 0


def test_outside_the_browser_nothing_is_kept(tmp_path: Path) -> None:
    assert keeping.in_this_browser(tmp_path) is None


# -- handing in --------------------------------------------------------------------------


def test_the_sites_hand_in_downloads_the_file_the_teacher_reads(tmp_path: Path) -> None:
    from musicgames.progress import open_class
    from musicgames.widgets.hand_in_download import HandInDownload

    with ProgressStore(tmp_path / "progress" / "x.sqlite3", student="José Pérez") as store:
        store.record("drill", "Sol3", "Sol", True, 800)
        store.record("drill", "La3", "Si", False, 1500)
        box = HandInDownload(store, language="es")
        sent: list[tuple[Any, Any]] = []
        box.send = lambda content, buffers=None: sent.append((content, buffers))
        box._on_message(box, {"type": "hand-in"}, [])
    [(content, buffers)] = sent
    assert content == {"type": "file", "name": "josé-pérez.sqlite3"}
    assert box.message.startswith("Descargado: josé-pérez.sqlite3 (respuestas: 2)")
    class_folder = tmp_path / "downloads"
    class_folder.mkdir()
    (class_folder / content["name"]).write_bytes(buffers[0])
    klass = open_class(class_folder)
    assert not klass.skipped, klass.skipped
    assert [(a.student, a.item, a.correct) for a in klass.answers] == [
        ("José Pérez", "Sol3", True), ("José Pérez", "La3", False)]


def test_the_sites_hand_in_says_when_there_is_nothing_to_hand_in(tmp_path: Path) -> None:
    from musicgames.widgets.hand_in_download import HandInDownload

    assert HandInDownload(None, language="fr").disabled
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        box = HandInDownload(store, language="fr", kept=False)
        assert box.hand_in() is None and box.message.startswith("Rien à rendre")
        assert box.kept_line.startswith("Ce navigateur ne garde pas") and not box.ask_to_persist


def test_on_the_site_the_hand_in_button_is_a_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.widgets.hand_in import DOWNLOAD_ENV, HandInBox, hand_in_button
    from musicgames.widgets.hand_in_download import HandInDownload

    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        assert isinstance(hand_in_button(store, tmp_path), HandInBox)
        monkeypatch.setenv(DOWNLOAD_ENV, "1")
        assert isinstance(hand_in_button(store, tmp_path), HandInDownload)


def test_a_lessons_hand_in_on_the_site_says_what_this_browser_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lesson's hand-in line (``hand_in_button``) on the site speaks of the site's keeper:
    a browser that refused storage at the start keeps nothing, and the line says so."""
    from musicgames.widgets.hand_in import DOWNLOAD_ENV, hand_in_button

    class NoStorage(Shelf):
        async def fetch(self) -> None:
            raise RuntimeError("IndexedDB is not available")

    monkeypatch.setenv(DOWNLOAD_ENV, "1")
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        refused = Keeper(NoStorage(Storage(), tmp_path / "kept"), tmp_path / "class")
        run(refused.load())
        monkeypatch.setattr(keeping, "_KEEPER", refused)
        line = hand_in_button(store).kept_line
        assert line.startswith("This browser does not keep your answers once the page")
        keeper = Keeper(Shelf(Storage(), tmp_path / "kept2"), tmp_path / "class")
        run(keeper.load())
        monkeypatch.setattr(keeping, "_KEEPER", keeper)
        box = hand_in_button(store)
        assert box.kept_line.startswith("Your answers stay in this browser")
        assert list(keeper._watchers) == [box]


def test_a_site_app_has_the_hand_in_under_its_heading(
    app_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.classroom.kernel import close_app, open_app
    from musicgames.lite import launch
    from musicgames.widgets.hand_in_download import HandInDownload

    monkeypatch.setenv("QUERY_STRING", "student=Ana&language=es")
    box = launch.with_hand_in(open_app("note-drill"), kept=True)
    heading, hand_in, drill = box.children
    assert "Ana" in heading.value and type(drill).__name__ == "NoteDrill"
    assert isinstance(hand_in, HandInDownload) and hand_in.store is drill._progress
    assert hand_in.kept_line.startswith("Tus respuestas quedan en este navegador")
    assert hand_in.ask_to_persist
    close_app(box)
