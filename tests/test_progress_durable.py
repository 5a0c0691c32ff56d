"""Progress files are complete at every moment, and a hand-in cannot go wrong."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from musicgames import progress
from musicgames.progress import HandInError, ProgressStore, StudentNameError, files, hand_in

# A writer that records N answers, says so after each, and then waits to be killed.
_KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from musicgames.progress import ProgressStore

    path, count = sys.argv[1], int(sys.argv[2])
    store = ProgressStore(path, student="Ana")
    for i in range(count):
        store.record("drill", f"Sol3-{i}", "Sol", i % 2 == 0, 700.0 + i)
        print(i + 1, flush=True)
    time.sleep(600)
    """
)


def _rows_in_copy_of_main_file(path: Path, tmp_path: Path) -> int:
    """Copy the main file alone (none of what SQLite may keep beside it) and count rows."""
    copy_folder = tmp_path / "copy"
    copy_folder.mkdir()
    copy = copy_folder / "handed-in.sqlite3"
    shutil.copyfile(path, copy)
    assert sorted(p.name for p in copy_folder.iterdir()) == ["handed-in.sqlite3"]
    return len(progress.read_answers(copy))


@pytest.mark.parametrize("count", [1, 137])
def test_a_copy_of_the_main_file_holds_every_answer_after_sigkill(
    tmp_path: Path, count: int
) -> None:
    path = tmp_path / "progress.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(path), str(count)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        said = [writer.stdout.readline().strip() for _ in range(count)]
        assert said[-1] == str(count)  # record() returned N times
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    assert _rows_in_copy_of_main_file(path, tmp_path) == count


_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from musicgames.progress import ProgressStore

    path, who, go, count = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
    go.with_name(f"ready-{who}").touch()  # imported: ready to write at the word go
    while not go.exists():
        time.sleep(0.001)
    started = time.time()
    store = ProgressStore(path, student="Ana")
    for i in range(count):
        store.record("drill", f"{who}-{i}", "Do", i % 2 == 0, float(i))
    store.close()
    print(started, time.time())
    """
)


@pytest.mark.slow
def test_four_processes_writing_500_answers_each_at_once_lose_none(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"  # not there yet: the processes race to create it
    go = tmp_path / "go"
    names = ("first", "second", "third", "fourth")
    count = 500
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), who, str(go), str(count)],
                         stdout=subprocess.PIPE, text=True)
        for who in names
    ]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"ready-{who}").exists() for who in names):
        assert time.monotonic() < deadline, "the writers did not start"
        time.sleep(0.01)
    go.touch()  # all four start writing together, however long each took to start
    spans = []
    for writer in writers:
        out, _ = writer.communicate(timeout=300)
        assert writer.returncode == 0
        spans.append([float(t) for t in out.split()])
    # They really wrote at the same time: every writer started before any had finished
    # (SQLite may let one finish its rows before another's first gets in; that is fair).
    assert max(start for start, _ in spans) < min(end for _, end in spans), spans
    assert _rows_in_copy_of_main_file(path, tmp_path) == 4 * count
    rows = progress.read_answers(path)
    for who in names:
        numbers = sorted(int(a.item.split("-")[1]) for a in rows if a.item.startswith(who))
        assert numbers == list(range(count))
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("shared")) == [
        "shared.sqlite3"
    ]


def test_a_journal_that_vanishes_while_the_file_is_read_is_looked_for_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another notebook's write ends between seeing its -journal and copying it: the reader
    # looks again (it once raised FileNotFoundError while a second notebook opened the file).
    path = tmp_path / "ana.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 700.0)
    real = files._companions
    looks: list[int] = []

    def a_journal_the_first_time(file: Path) -> list[Path]:
        looks.append(1)
        return [Path(f"{file}-journal")] if len(looks) == 1 else real(file)

    monkeypatch.setattr(files, "_companions", a_journal_the_first_time)
    assert [a.item for a in progress.read_answers(path)] == ["Sol3"]
    assert len(looks) == 2
    with ProgressStore(path) as again:  # a second notebook opening the file
        assert len(again) == 1


def test_a_file_of_an_older_version_in_wal_mode_is_folded_in_and_switched(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute(
        "INSERT INTO answers (student, time, activity, item, answer, correct, response_ms) "
        "VALUES ('Ana', '2026-01-01T00:00:00.000000+00:00', 'drill', 'La3', 'La', 1, 900)"
    )
    # As an older version left it: the last rows only in the -wal file.
    shutil.copyfile(path, tmp_path / "snapshot.sqlite3")
    shutil.copyfile(f"{path}-wal", tmp_path / "snapshot.sqlite3-wal")
    con.close()
    old = tmp_path / "snapshot.sqlite3"
    assert len(progress.read_answers(old)) == 2  # the WAL's rows are read
    with ProgressStore(old, student="Ana") as store:
        assert len(store) == 2
        store.record("drill", "Si3", "Si", True, 800)
    assert not Path(f"{old}-wal").exists()
    copy = tmp_path / "alone"
    copy.mkdir()
    shutil.copyfile(old, copy / "old.sqlite3")
    assert len(progress.read_answers(copy / "old.sqlite3")) == 3


# -- hand-in -----------------------------------------------------------------------------------


def test_hand_in_writes_one_self_contained_file_named_after_the_student(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "progress.sqlite3", student="José Pérez")
    for i in range(5):
        store.record("drill", "Sol3", "Sol", True, 800.0 + i)
    folder = tmp_path / "class"
    folder.mkdir()
    target = store.hand_in(folder)
    assert target == folder / "josé-pérez.sqlite3"
    assert sorted(p.name for p in folder.iterdir()) == ["josé-pérez.sqlite3"]
    store.record("drill", "La3", "La", False, 900.0)  # the store goes on
    assert len(progress.read_answers(target)) == 5
    again = store.hand_in(folder)  # handing in again replaces the student's own copy
    assert again == target and len(progress.read_answers(target)) == 6
    store.close()
    read = progress.open_class(folder)
    assert read.students == ["José Pérez"] and read.skipped == ()


def test_hand_in_never_overwrites_another_students_file_or_a_foreign_one(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.sqlite3").write_bytes(b"not a progress file")
    with ProgressStore(tmp_path / "a.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        first = store.hand_in(folder)
    with ProgressStore(tmp_path / "b.sqlite3", student="ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        second = store.hand_in(folder)
    assert (folder / "ana.sqlite3").read_bytes() == b"not a progress file"
    assert (first.name, second.name) == ("ana-2.sqlite3", "ana-3.sqlite3")


def test_hand_in_without_a_name_or_to_a_file_is_refused(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store, pytest.raises(StudentNameError):
        store.hand_in(tmp_path / "class")
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    store = ProgressStore(tmp_path / "q.sqlite3", student="Ana")
    with store, pytest.raises(HandInError, match="cannot hand in"):
        store.hand_in(blocker)
    assert blocker.read_text() == "x"


def test_a_failed_hand_in_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(hand_in.os, "replace", disk_full)
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        with pytest.raises(HandInError, match="No space left on device"):
            store.hand_in(folder)
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Ana", "ana.sqlite3"),
        ("Chloé Dubois", "chloé-dubois.sqlite3"),
        ("../../x", "x.sqlite3"),
        ("con", "con-student.sqlite3"),
        ("a/b\\c:d*e", "a-b-c-d-e.sqlite3"),
        ("?", "student.sqlite3"),
    ],
)
def test_hand_in_names_are_safe(name: str, file: str) -> None:
    assert progress.hand_in_name(name) == file


# -- the hand-in button ------------------------------------------------------------------------


def test_the_hand_in_button_hands_in_and_says_so_in_both_languages(tmp_path: Path) -> None:
    from musicgames.widgets import hand_in_button

    (tmp_path / "class").mkdir()
    with ProgressStore(tmp_path / "progress.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        box = hand_in_button(store, tmp_path / "class", language="es")
        box.button.click()
        assert box.message.value.startswith("Entregado: ana.sqlite3 en ")
        assert (tmp_path / "class" / "ana.sqlite3").is_file()
        box.folder.value = str(tmp_path / "progress.sqlite3")  # a file, not a folder
        box.button.click()
        assert "no se puede usar como carpeta" in box.message.value
        box.folder.value = str(tmp_path)  # where the progress file itself lives
        english = hand_in_button(store, tmp_path)
        store_file_named_like_target = tmp_path / "ana.sqlite3"
        assert not store_file_named_like_target.exists()
        english.button.click()
        assert english.message.value.startswith("Handed in: ana.sqlite3")


def test_a_folder_that_does_not_exist_is_refused_never_made(tmp_path: Path) -> None:
    (tmp_path / "class-4b").mkdir()
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        with pytest.raises(HandInError, match="no such folder") as refused:
            store.hand_in(tmp_path / "class-4v")  # mistyped
        assert refused.value.kind == "missing"
        with pytest.raises(HandInError):
            store.hand_in(tmp_path / "class-4b" / "new" / "deeper")
    assert not (tmp_path / "class-4v").exists()
    assert list((tmp_path / "class-4b").iterdir()) == []


def test_the_hand_in_box_refuses_a_mistyped_folder_in_the_students_language(
    tmp_path: Path,
) -> None:
    from musicgames.widgets import hand_in_button

    (tmp_path / "class-4b").mkdir()
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        for language, said in (("es", "No existe la carpeta "), ("en", "There is no folder ")):
            box = hand_in_button(store, tmp_path / "class-4v", language=language)
            box.button.click()
            assert box.message.value.startswith(said), box.message.value
            assert "class-4v" in box.message.value
    assert not (tmp_path / "class-4v").exists()


def test_the_hand_in_box_hands_in_no_empty_file_and_says_why(tmp_path: Path) -> None:
    """A student who answered before giving a name has an empty file: it is not handed in
    as if it were done, and the box says why, in the student's language."""
    from musicgames.widgets import hand_in_button

    (tmp_path / "class-4b").mkdir()
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        for language, said in (("es", "Todavía no hay nada"), ("en", "Nothing to hand in yet")):
            box = hand_in_button(store, tmp_path / "class-4b", language=language)
            box.button.click()
            assert box.message.value.startswith(said), box.message.value
        assert list((tmp_path / "class-4b").iterdir()) == []
        store.record("drill", "Sol3", "Sol", True, 800.0)
        box.button.click()
        assert box.message.value.startswith("Handed in"), box.message.value
    assert [f.name for f in (tmp_path / "class-4b").iterdir()] == ["ana.sqlite3"]


def test_the_hand_in_box_starts_in_the_class_hand_in_folder_never_the_lessons_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames import appmode
    from musicgames.widgets import hand_in_button

    course = tmp_path / "course"  # the lesson's folder: on a hub, every student sees it
    course.mkdir()
    monkeypatch.chdir(course)
    monkeypatch.delenv(appmode.HAND_IN_FOLDER_ENV, raising=False)
    monkeypatch.delenv(appmode.APP_ENV, raising=False)
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 800.0)
        box = hand_in_button(store)  # no class folder set: the student types the teacher's
        assert box.folder.value == "" and box.folder.placeholder
        box.button.click()
        assert box.message.value == "Write the folder to hand in to."
        hand_in = tmp_path / "hand-in" / "4b"
        hand_in.mkdir(parents=True)
        monkeypatch.setenv(appmode.HAND_IN_FOLDER_ENV, str(hand_in))
        box = hand_in_button(store, language="es")
        assert box.folder.value == str(hand_in)
        box.button.click()
        assert box.message.value.startswith("Entregado: ana.sqlite3 en ")
        assert [p.name for p in hand_in.iterdir()] == ["ana.sqlite3"]
    assert list(course.iterdir()) == []


def test_a_progress_file_kept_in_the_hand_in_folder_has_nothing_to_hand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On JupyterHub the student's progress file is their file in the class's hand-in folder."""
    from musicgames import appmode
    from musicgames.widgets import hand_in_button

    hand_in = tmp_path / "hand-in" / "3b"
    hand_in.mkdir(parents=True)
    monkeypatch.setenv(appmode.HAND_IN_FOLDER_ENV, str(hand_in))
    with ProgressStore(hand_in / "ana.sqlite3", student="Ana") as store:
        for language, said in (("en", "Your answers are saved straight into"),
                               ("es", "Tus respuestas se guardan directamente")):
            box = hand_in_button(store, language=language)
            assert box.button.disabled and box.message.value.startswith(said)


def test_the_hand_in_button_without_a_student_explains_how_to_give_one() -> None:
    from musicgames.widgets import hand_in_button

    box = hand_in_button(None, language="es")
    assert box.button.disabled
    assert box.message.value.startswith("Escribe tu nombre")
