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


def _small_class(tmp_path: Path) -> Path:
    """Two students with a few answers, and a damaged file: Ana's report has every chart and
    table, Bruno's only his days (the fewest charts to draw that still show every kind)."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "junk.sqlite3").write_bytes(b"junk")
    with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 1300.0)
        store.record("drill", "Fa3", "Mi", False, 1250.0)
        store.record("quiz", "D major", "D major", False, 900.0)
        store.record("lesson", "01-the-staff/line-or-space", "line", True, 900.0)
    with ProgressStore(folder / "bruno.sqlite3", student="Bruno") as store:
        store.record("lesson", "01-the-staff/line-or-space", "space", False, 2100.0)
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
    folder = _small_class(tmp_path)
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
    folder = _small_class(tmp_path)
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
