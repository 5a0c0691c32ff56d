"""open_class reads what teachers really collect, and lists what it cannot read."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from musicgames import progress
from musicgames.progress import Answer, ProgressStore

HEADER = ",".join(progress.CSV_COLUMNS)
TIME = "2026-03-02T09:00:00.000000+00:00"


def _line(student: str, item: str = "Sol3", sep: str = ",", ms: str = "812.5") -> str:
    return sep.join([student, TIME, "drill", item, "Sol", "1", ms])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_class_folder_as_teachers_collect_it(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    # Excel on Windows, "CSV": Windows-1252, CRLF.
    (folder / "jose.csv").write_bytes(f"{HEADER}\r\n{_line('José')}\r\n".encode("cp1252"))
    # Excel "CSV UTF-8": a byte-order mark.
    (folder / "zoe.csv").write_bytes(f"\ufeff{HEADER}\r\n{_line('Zoë')}\r\n".encode())
    # European Excel: semicolons and a decimal comma.
    semi = HEADER.replace(",", ";")
    (folder / "noemi.csv").write_bytes(
        f"{semi}\r\n{_line('Noémi', sep=';', ms='812,5')}\r\n".encode("cp1252")
    )
    # A 200 kB field: that line is not read (and named), the others are.
    long_line = _line("Íñigo", item="x" * 200_000)
    (folder / "inigo.csv").write_text(f"{HEADER}\n{_line('Íñigo')}\n{long_line}\n")
    (folder / "junk.sqlite3").write_bytes(b"\x00\xff" * 500)
    (folder / "junk.csv").write_bytes(b"\x00\x01\x02 not, a, csv")
    (folder / "empty.sqlite3").write_bytes(b"")
    (folder / "empty.csv").write_bytes(b"")
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    # A progress file handed in with its -wal and -shm, and a -wal without its database.
    with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 700.0)
    (folder / "ana.sqlite3-shm").write_bytes(b"\x00" * 100)
    (folder / "ana.sqlite3-wal").write_bytes(b"stray")
    (folder / "lost.sqlite3-wal").write_bytes(b"stray")
    before = _snapshot(folder)

    klass = progress.open_class(folder)

    assert klass.students == ["Ana", "José", "Noémi", "Zoë", "Íñigo"]
    assert [a.response_ms for a in klass.of("Noémi")] == [812.5]
    assert len(klass.of("Íñigo")) == 1
    not_read = {item.file: item.why for item in klass.skipped}
    assert set(not_read) == {
        "inigo.csv",
        "junk.sqlite3",
        "junk.csv",
        "empty.sqlite3",
        "empty.csv",
        "photo.jpg",
        "lost.sqlite3-wal",
    }
    assert "line 3" in not_read["inigo.csv"] and len(not_read["inigo.csv"]) < 300
    assert "empty" in not_read["empty.sqlite3"] and "empty" in not_read["empty.csv"]
    assert "not an SQLite database" in not_read["junk.sqlite3"]
    assert "header" in not_read["junk.csv"]
    assert "lost.sqlite3" in not_read["lost.sqlite3-wal"]
    assert {item.file: item.reason for item in klass.skipped} == {
        "inigo.csv": "line", "junk.sqlite3": "damaged", "junk.csv": "header",
        "empty.sqlite3": "empty", "empty.csv": "empty", "photo.jpg": "kind",
        "lost.sqlite3-wal": "beside"}
    table = klass.not_read()
    assert ("photo.jpg", not_read["photo.jpg"]) in table.rows
    assert ("inigo.csv", "line 3 is not an answer") in table.rows
    # The teacher's table in Spanish says every reason in Spanish.
    spanish = klass.not_read("es")
    assert spanish.headers == ("archivo", "por qué no se leyó")
    assert ("inigo.csv", "la línea 3 no es una respuesta") in spanish.rows
    assert ("lost.sqlite3-wal", "una parte que SQLite guarda junto a lost.sqlite3, que no "
            "está aquí: entrega el archivo lost.sqlite3") in spanish.rows
    assert ("empty.csv", "el archivo está vacío") in spanish.rows
    assert [file for file, _ in spanish.rows] == [file for file, _ in table.rows]
    assert all(es != en for (_, es), (_, en) in zip(spanish.rows, table.rows, strict=True))
    assert "<table" in table._repr_html_()
    assert _snapshot(folder) == before  # nothing written, nothing beside


def test_a_progress_file_handed_in_with_its_wal_counts_the_wals_rows(tmp_path: Path) -> None:
    source = tmp_path / "live.sqlite3"
    with ProgressStore(source, student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 700.0)
    con = sqlite3.connect(source, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute(
        "INSERT INTO answers (student, time, activity, item, answer, correct, response_ms) "
        f"VALUES ('Ana', '{TIME}', 'drill', 'La3', 'La', 1, 900)"
    )
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(source, folder / "ana.sqlite3")
    shutil.copyfile(f"{source}-wal", folder / "ana.sqlite3-wal")
    con.close()
    before = _snapshot(folder)
    klass = progress.open_class(folder)
    assert len(klass.of("Ana")) == 2 and klass.skipped == ()
    assert _snapshot(folder) == before


def test_csv_reading_detects_the_encoding() -> None:
    assert progress.decode_csv("José".encode("cp1252")) == ("José", "cp1252")
    assert progress.decode_csv("José".encode()) == ("José", "utf-8")
    assert progress.decode_csv("\ufeffJosé".encode()) == ("José", "utf-8-sig")
    assert progress.decode_csv("José".encode("utf-16")) == ("José", "utf-16")
    assert progress.decode_csv(b"\x81") == ("\x81", "latin-1")


def test_a_strict_csv_read_still_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(f"{HEADER}\n{_line('Ana')}\n{_line('Ana', ms='soon')}\n")
    try:
        progress.read_csv(path)
    except progress.ProgressCsvError as err:
        assert "line 3" in str(err) and "soon" in str(err)
    else:  # pragma: no cover - the assertion is the test
        raise AssertionError("a bad line was read")


def test_an_export_round_trips_through_a_semicolon_csv(tmp_path: Path) -> None:
    row = Answer("Ana", TIME, "quiz", "F♯ minor", 'F♯; A "C♯"', False, 1234.25)
    path = tmp_path / "semi.csv"
    with path.open("w", encoding="cp1252", errors="replace", newline="") as handle:
        import csv

        writer = csv.writer(handle, delimiter=";")
        writer.writerow(progress.CSV_COLUMNS)
        writer.writerow([*row.to_csv_row()[:6], "1234,25"])
    read = progress.read_csv(path)
    assert [(a.student, a.response_ms, a.correct) for a in read] == [("Ana", 1234.25, False)]


def test_a_wal_mode_file_of_an_older_version_is_read_without_a_trace(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    path = folder / "ana.sqlite3"
    with ProgressStore(tmp_path / "source.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 700.0)
        store.hand_in(folder)
    con = sqlite3.connect(path, isolation_level=None)
    assert con.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    con.close()  # the last connection folds the WAL in and removes it
    before = _snapshot(folder)
    assert list(before) == ["ana.sqlite3"]
    klass = progress.open_class(folder)
    assert klass.students == ["Ana"] and klass.skipped == ()
    assert _snapshot(folder) == before
