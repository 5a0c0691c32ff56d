"""App mode: what the classroom server tells its kernels, and the light ``import musicgames``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from musicgames import appmode, progress


def test_outside_the_classroom_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv(appmode.APP_ENV, raising=False)
    monkeypatch.delenv(appmode.CLASS_FOLDER_ENV, raising=False)
    monkeypatch.setenv("QUERY_STRING", "student=Ana")
    assert not appmode.in_app()
    assert appmode.student() is None  # a query string alone is not the classroom
    assert appmode.class_folder() is None
    with pytest.raises(appmode.NotANameError, match="no class folder"):
        appmode.student_file("Ana")


def test_the_student_comes_from_the_apps_address(
    app_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUERY_STRING", "student=Mar%C3%ADa+Jos%C3%A9&x=1")
    assert appmode.in_app()
    assert appmode.student() == "María José"
    assert appmode.class_folder() == app_env
    assert appmode.student_file("María José") == app_env / "maría-josé.sqlite3"


def test_under_jupyterhub_the_student_is_the_hub_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(appmode.APP_ENV, raising=False)
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    assert not appmode.in_app()
    assert appmode.student() == "ana"
    monkeypatch.setenv("JUPYTERHUB_USER", "")
    assert appmode.student() is None


def test_in_a_classroom_app_the_address_names_the_student(
    app_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTERHUB_USER", "teacher")  # a classroom served from a hub server
    monkeypatch.setenv("QUERY_STRING", "student=Ana")
    assert appmode.student() == "Ana"


@pytest.mark.parametrize("query", ["", "x=1", "student=", "student=%20%20", "student=..."])
def test_no_usable_name_is_no_student(
    app_env: Path, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    monkeypatch.setenv("QUERY_STRING", query)
    assert appmode.student() is None


def test_names_never_escape_the_class_folder(app_env: Path) -> None:
    for name in ("../../etc/passwd", "a/b", "..\\x", "Ana\x00"):
        path = appmode.student_file(name)
        assert path.parent == app_env
        assert "/" not in path.name and "\\" not in path.name and "\x00" not in path.name


def test_different_students_get_different_files(app_env: Path) -> None:
    names = ["Ana", "Ana María", "Bruno", "José", "Jose", "李明", "Zoë"]
    files = {appmode.student_file(n) for n in names}
    assert len(files) == len(names)


def test_progress_default_path_follows_the_classroom(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MUSICGAMES_PROGRESS_FILE", raising=False)
    assert progress.default_path() == tmp_path / "data" / "progress.sqlite3"
    monkeypatch.setenv("MUSICGAMES_PROGRESS_FILE", str(tmp_path / "class" / "ana.sqlite3"))
    assert progress.default_path() == tmp_path / "class" / "ana.sqlite3"


def test_import_musicgames_does_not_load_music21() -> None:
    code = (
        "import sys, musicgames, musicgames.widgets.note_snap; "
        "print('music21' in sys.modules); "
        "print(len(musicgames.ALL_TRIADS)); print('music21' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "24", "True"]
