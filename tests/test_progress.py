"""Progress files: writing, reading, CSV, class folders, refusing files that are not ours."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import pytest

from musicgames import progress
from musicgames.i18n import LANGUAGES
from musicgames.progress import (
    Answer,
    AnswerError,
    CorruptProgressFileError,
    ForeignDatabaseError,
    NewerProgressFileError,
    ProgressCsvError,
    ProgressStore,
    StudentNameError,
    stats,
    words,
)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in a folder and its bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- writing and reading -----------------------------------------------------------------------


def test_a_new_file_uses_a_rollback_journal_and_has_our_marks(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "ana.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        store.record("drill", "Sol3", "Sol", True, 900)
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert con.execute("PRAGMA user_version").fetchone()[0] == progress.SCHEMA_VERSION
        assert con.execute("PRAGMA application_id").fetchone()[0] == progress.APPLICATION_ID
    finally:
        con.close()


def test_rows_come_back_as_written(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        first = store.record("drill", "Fa3", "Mi", False, 1234.5)
        second = store.record("note_snap", "game", "won", None)
        assert store.answers() == [first, second]
        assert store.answers("drill") == [first]
        assert len(store) == 2
    assert first.student == "Ana" and first.correct is False and first.response_ms == 1234.5
    assert second.correct is None and second.response_ms is None
    assert progress.read_answers(tmp_path / "p.sqlite3") == [first, second]


def test_time_is_utc_iso(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        row = store.record("quiz", "C major", "C major", True, 2000)
    assert row.time.endswith("+00:00")
    assert abs(
        datetime.fromisoformat(row.time).timestamp() - time.time()
    ) < 60


def test_the_student_name_is_set_once(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        assert store.student is None
        with pytest.raises(StudentNameError, match="no student name"):
            store.record("drill", "Do3", "Do", True)
        store.set_student("Ana")
        store.set_student("Ana")  # the same name again is fine
        with pytest.raises(StudentNameError, match="belongs to 'Ana', not 'Bruno'"):
            store.set_student("Bruno")
    with ProgressStore(path) as again:
        assert again.student == "Ana"
    with pytest.raises(StudentNameError, match="belongs to 'Ana'"):
        ProgressStore(path, student="Bruno")


@pytest.mark.parametrize("name", ["", "   ", " Ana", "a\nb", "x" * 81])
def test_unusable_student_names_are_refused(tmp_path: Path, name: str) -> None:
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        with pytest.raises(StudentNameError):
            store.set_student(name)
        assert store.student is None


def _open_handles(path: Path) -> list[str]:
    """The open files of this process that are ``path`` (Linux's /proc; else none known)."""
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        pytest.skip("this system does not list a process's open files")
    found = []
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target == str(path):
            found.append(target)
    return found


@pytest.mark.parametrize("name", ["", " Ana", "a\nb", "x" * 81])
def test_a_refused_name_leaves_no_file_and_no_open_connection(tmp_path: Path, name: str) -> None:
    path = tmp_path / "new.sqlite3"
    with pytest.raises(StudentNameError):
        ProgressStore(path, student=name)
    assert list(tmp_path.iterdir()) == []  # no nameless file, no lock file beside it
    # Another student's file: refused, and the file is not left open either.
    with ProgressStore(path, student="Ana"):
        pass
    with pytest.raises(StudentNameError, match="belongs to 'Ana'"):
        ProgressStore(path, student="Bruno")
    assert _open_handles(path) == []


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("piano", "Do3", "Do", True, 10), "activity 'piano'"),
        (("drill", "", "Do", True, 10), "item '' is empty"),
        (("drill", "Do3", "Do", True, -1), "response_ms=-1"),
        (("drill", "Do3", "Do", True, float("nan")), "response_ms=nan"),
        (("drill", "Do3", "Do", "yes", 10), "correct='yes'"),
    ],
)
def test_bad_answers_raise_and_store_nothing(tmp_path: Path, args: tuple, why: str) -> None:
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        store.record("drill", "Re3", "Re", True, 500)
        before = store.answers()
        with pytest.raises(AnswerError, match=why):
            store.record(*args)
        assert store.answers() == before


def test_the_data_folder_can_be_moved_with_an_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path / "class"))
    assert progress.default_path() == tmp_path / "class" / "progress.sqlite3"
    with ProgressStore(student="Ana") as store:
        assert store.path == tmp_path / "class" / "progress.sqlite3"
    monkeypatch.delenv("MUSICGAMES_DATA_DIR")
    assert progress.data_dir().name == "musicgames"


def test_open_progress_records_nothing_without_a_name(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    assert progress.open_progress(None, path) is None
    assert not path.exists()
    store = progress.open_progress("Ana", path)
    assert store is not None and store.student == "Ana"
    store.close()
    again = progress.open_progress(None, path)  # the name is in the file now
    assert again is not None and again.student == "Ana"
    again.close()


# -- two writers at once -----------------------------------------------------------------------

_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from musicgames.progress import ProgressStore

    path, who, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    while not go.exists():
        time.sleep(0.001)
    store = ProgressStore(path, student="Ana")
    for i in range(1000):
        store.record("drill", f"{who}-{i}", "Do", i % 2 == 0, float(i))
        time.sleep(0.001)  # a moment between answers, as a person (or a game) leaves
    store.close()
    """
)


@pytest.mark.slow  # two processes, 2,000 durable writes
def test_two_processes_writing_1000_answers_each_lose_none(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"  # not there yet: both processes race to create it
    go = tmp_path / "go"
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), who, str(go)])
        for who in ("first", "second")
    ]
    time.sleep(0.5)  # both are started and waiting
    go.touch()
    for writer in writers:
        assert writer.wait(timeout=120) == 0
    rows = progress.read_answers(path)
    assert len(rows) == 2000
    for who in ("first", "second"):
        assert sorted(int(a.item.split("-")[1]) for a in rows if a.item.startswith(who)) == list(
            range(1000)
        )
    # The two really wrote at the same time: their times overlap, their rows interleave.
    spans = {
        who: (min(a.time for a in rows if a.item.startswith(who)),
              max(a.time for a in rows if a.item.startswith(who)))
        for who in ("first", "second")
    }
    assert max(s for s, _ in spans.values()) < min(e for _, e in spans.values()), spans
    con = sqlite3.connect(path)
    order = [r[0].split("-")[0] for r in con.execute("SELECT item FROM answers ORDER BY id")]
    con.close()
    switches = sum(1 for a, b in zip(order, order[1:], strict=False) if a != b)
    assert switches > 10, switches


# -- CSV ---------------------------------------------------------------------------------------


def _varied_rows(store: ProgressStore) -> list[Answer]:
    return [
        store.record("drill", "Sol3", "Sol", True, 812.25),
        store.record("drill", "Fa3", 'Mi, "maybe"', False, 2000),
        store.record("quiz", "F♯ minor", "F♯ A C♯", True, None),
        store.record("keyboard_duel", "game", "won 41–37\nagainst Casual", None, None),
        store.record("note_snap", "slap", "Do4", True, 0.0),
    ]


def test_csv_export_round_trips(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "a.sqlite3", student="Chloé") as store:
        rows = _varied_rows(store)
        assert store.export_csv(tmp_path / "a.csv") == len(rows)
    assert progress.read_csv(tmp_path / "a.csv") == rows
    with ProgressStore(tmp_path / "copy.sqlite3") as copy:
        assert copy.import_csv(tmp_path / "a.csv") == len(rows)
        assert copy.student == "Chloé"
        assert copy.answers() == rows
        assert copy.import_csv(tmp_path / "a.csv") == 0  # rows already there are skipped
        assert copy.answers() == rows
        text = io.StringIO()
        copy.export_csv(text)
    assert text.getvalue() == (tmp_path / "a.csv").read_bytes().decode("utf-8")


def test_csv_import_refuses_another_students_rows(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "a.sqlite3", student="Ana") as store:
        store.record("drill", "Do3", "Do", True, 100)
        store.export_csv(tmp_path / "a.csv")
    with ProgressStore(tmp_path / "b.sqlite3", student="Bruno") as other:
        with pytest.raises(StudentNameError, match="belongs to 'Bruno', not 'Ana'"):
            other.import_csv(tmp_path / "a.csv")
        assert other.answers() == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("name,score\nAna,3\n", "the first line must be the header"),
        (",".join(progress.CSV_COLUMNS) + "\nAna,2026-01-01T00:00:00+00:00,drill,Do3,Do,yes,1\n",
         "line 2: correct 'yes'"),
        (",".join(progress.CSV_COLUMNS) + "\nAna,yesterday,drill,Do3,Do,1,1\n",
         "line 2: time 'yesterday'"),
        (",".join(progress.CSV_COLUMNS) + "\nAna,2026-01-01T00:00:00+00:00,drill,Do3\n",
         "line 2: 4 cells"),
        (",".join(progress.CSV_COLUMNS) + "\nAna,2026-01-01T00:00:00,drill,Do3,Do,1,1\n",
         "in UTC"),
    ],
)
def test_a_bad_csv_names_the_line(text: str, why: str) -> None:
    with pytest.raises(ProgressCsvError, match=why):
        progress.read_csv(io.StringIO(text))


# -- files that are not ours -------------------------------------------------------------------


def test_a_file_of_random_bytes_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(bytes(range(256)) * 40)
    before = snapshot(tmp_path)
    with pytest.raises(CorruptProgressFileError, match="not an SQLite database") as info:
        ProgressStore(path, student="Ana")
    assert str(path) in str(info.value) and "left untouched" in str(info.value)
    with pytest.raises(CorruptProgressFileError):
        progress.read_answers(path)
    assert snapshot(tmp_path) == before


def test_a_damaged_progress_file_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        for i in range(300):
            store.record("drill", f"item-{i}", "x" * 100, True, 1.0)
    data = bytearray(path.read_bytes())
    page_size = 4096
    assert len(data) > 3 * page_size
    data[page_size : 3 * page_size] = b"\xff" * (2 * page_size)  # wipe two pages
    path.write_bytes(bytes(data))
    before = snapshot(tmp_path)
    with pytest.raises(CorruptProgressFileError, match="damaged"):
        ProgressStore(path)
    with pytest.raises(CorruptProgressFileError, match="damaged"):
        progress.read_answers(path)
    assert snapshot(tmp_path) == before


def test_a_foreign_sqlite_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "recipes.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    con.execute("INSERT INTO recipes VALUES ('soup', 30)")
    con.commit()
    con.close()
    before = snapshot(tmp_path)
    with pytest.raises(ForeignDatabaseError, match="SQLite database of another program"):
        ProgressStore(path, student="Ana")
    with pytest.raises(ForeignDatabaseError):
        progress.read_answers(path)
    assert snapshot(tmp_path) == before


def test_a_foreign_database_with_an_answers_table_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "quiz.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE answers (id INTEGER, student TEXT)")
    con.commit()
    con.close()
    before = snapshot(tmp_path)
    with pytest.raises(ForeignDatabaseError):
        ProgressStore(path)
    assert snapshot(tmp_path) == before


def test_a_file_from_a_newer_version_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    ProgressStore(path, student="Ana").close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {progress.SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    before = snapshot(tmp_path)
    with pytest.raises(NewerProgressFileError, match="newer musicgames"):
        ProgressStore(path)
    assert snapshot(tmp_path) == before


def test_an_empty_file_becomes_a_progress_file(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    path.touch()
    with ProgressStore(path, student="Ana") as store:
        store.record("drill", "Do3", "Do", True)
    assert len(progress.read_answers(path)) == 1


def test_nothing_is_unpickled_or_evaluated() -> None:
    modules = sorted(Path(progress.__file__).parent.glob("*.py"))
    assert len(modules) > 1  # the package, read whole
    for module in modules:
        source = module.read_text(encoding="utf-8")
        for word in ("import pickle", "pickle.load", "eval(", "exec(", "marshal"):
            assert word not in source, module.name


# -- a class folder ----------------------------------------------------------------------------


def test_a_class_folder_is_read_and_bad_files_are_skipped_untouched(tmp_path: Path) -> None:
    progress.demo_class(tmp_path, students=3)
    with ProgressStore(tmp_path / "extra.sqlite3", student="Zoé") as store:
        store.record("drill", "Do3", "Do", True, 500)
        store.export_csv(tmp_path / "zoe-export.csv")  # the same rows again, as CSV
    (tmp_path / "broken.sqlite3").write_bytes(b"not a database")
    (tmp_path / "readme.txt").write_text("not a progress file")
    before = snapshot(tmp_path)
    klass = progress.read_class(tmp_path)
    assert klass.students == ["Ana", "Bruno", "Chloé", "Zoé"]
    assert [item.file for item in klass.skipped] == ["broken.sqlite3", "readme.txt"]
    assert [item.reason for item in klass.skipped] == ["damaged", "kind"]
    assert "not an SQLite database" in klass.skipped[0].why
    assert "not a progress file" in klass.skipped[1].why
    assert len(klass.of("Zoé")) == 1  # the same answer in the file and its export counts once
    assert len(klass.of("Ana")) == 6 * 30
    assert snapshot(tmp_path) == before


def test_the_demo_class_is_the_same_for_the_same_seed(tmp_path: Path) -> None:
    one = progress.read_class(progress.demo_class(tmp_path / "one"))
    two = progress.read_class(progress.demo_class(tmp_path / "two"))
    assert one.answers == two.answers


# -- numbers and figures -----------------------------------------------------------------------


def _rows(*specs: tuple[str, bool, float, str]) -> list[Answer]:
    return [
        Answer("Ana", f"{day}T10:{i:02d}:00.000000+00:00", "drill", item, "?", right, ms)
        for i, (item, right, ms, day) in enumerate(specs)
    ]


def test_item_and_day_stats() -> None:
    rows = _rows(
        ("Sol3", True, 800, "2026-03-02"),
        ("Sol3", False, 1200, "2026-03-02"),
        ("Sol3", True, 1000, "2026-03-03"),
        ("Do3", True, 500, "2026-03-03"),
    )
    items = progress.item_stats(rows)
    assert [(s.item, s.count, s.right, s.median_ms) for s in items] == [
        ("Do3", 1, 1, 500.0),
        ("Sol3", 3, 2, 1000.0),
    ]
    days = progress.daily_stats(rows)
    assert [(str(d.day), d.count, d.accuracy, d.median_ms) for d in days] == [
        ("2026-03-02", 2, 0.5, 1000.0),
        ("2026-03-03", 2, 1.0, 750.0),
    ]
    (line,) = progress.student_stats(rows)
    assert (line.student, line.count, line.right, line.days, line.weakest) == (
        "Ana",
        4,
        3,
        2,
        "Sol3",
    )
    table = progress.Table.of(items, caption="Ana")
    assert "<td>Sol3</td><td>3</td><td>67%</td><td>1.00 s</td>" in table._repr_html_()
    assert "Sol3" in str(table)


def test_events_without_right_or_wrong_are_not_counted() -> None:
    when = "2026-03-02T10:00:00.000000+00:00"
    rows = [Answer("Ana", when, "note_snap", "game", "won", None, None)]
    assert progress.item_stats(rows) == []


def test_the_note_figure_draws_each_note_on_the_staff_coloured_by_accuracy() -> None:
    from matplotlib.patches import Ellipse

    rows = _rows(
        ("Do3", True, 500, "2026-03-02"),
        ("Do5", False, 900, "2026-03-02"),
        ("C major", True, 900, "2026-03-02"),  # not a note: left out of the staff
    )
    fig = progress.plot_notes(rows)
    (ax,) = [a for a in fig.axes if a.get_title()]
    heads = [p for p in ax.patches if isinstance(p, Ellipse)]
    assert [h.center[1] for h in heads] == [-1.0, 6.0]  # Do3 below the staff, Do5 above
    low, high = (h.get_facecolor() for h in heads)
    assert low[1] > low[0] and high[0] > high[1]  # right = green, wrong = red
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "Do3" in texts and "100%" in texts and "0.5s" in texts
    ledger_lines = [ln for ln in ax.lines if len(ln.get_xdata()) == 2 and ln.get_xdata()[0] > 1]
    assert {ln.get_ydata()[0] for ln in ledger_lines} == {-1.0, 5.0, 6.0}
    fig.savefig(io.BytesIO(), format="svg")


def test_the_other_figures_draw(tmp_path: Path) -> None:
    klass = progress.read_class(progress.demo_class(tmp_path))
    for fig in (
        progress.plot_days(klass.answers),
        progress.plot_items(klass.answers, activity="quiz"),
        progress.plot_notes(klass.of("Ana"), naming="letters"),
        progress.plot_notes([]),
        progress.plot_days([]),
    ):
        out = io.BytesIO()
        fig.savefig(out, format="png")
        assert out.getvalue().startswith(b"\x89PNG")


@pytest.mark.parametrize(("language", "months", "not_shown"), [
    ("es", {"feb", "mar", "abr"}, {"Feb", "Mar", "Apr"}),
    ("en", {"Feb", "Mar", "Apr"}, {"feb", "abr"}),
    ("fr", {"févr.", "mars", "avr."}, {"Feb", "Mar", "Apr", "feb", "abr"}),
])
def test_the_days_chart_names_the_months_in_the_teachers_language(
    language: str, months: set[str], not_shown: set[str]
) -> None:
    days = [f"2026-{month:02d}-{day:02d}T10:00:00+00:00" for month in (1, 2, 3, 4)
            for day in (5, 15, 25)]
    answers = [Answer("Ana", day, "drill", "Do3", "Do", True, 800.0) for day in days]
    fig = progress.plot_days(answers, language=language)
    fig.canvas.draw()
    axis = fig.axes[0].xaxis
    words = set(" ".join([t.get_text() for t in axis.get_ticklabels()]
                         + [axis.get_offset_text().get_text()]).replace("-", " ").split())
    assert months <= words and not (not_shown & words), words


def test_a_class_report_shows_tables_and_figures(tmp_path: Path) -> None:
    klass = progress.open_class(progress.demo_class(tmp_path, students=2))
    assert klass.students == ["Ana", "Bruno"]
    html = klass.report("Ana")._repr_html_()
    assert html.count("<img") == 3 and "data:image/png;base64," in html  # days, notes, chords
    assert "<table" in html
    everyone = klass.reports()._repr_html_()
    assert everyone.count("<h3>") == 3 and everyone.count("<img") == 6
    assert "<td>Ana</td>" in klass.table()._repr_html_()
    assert [row[0] for row in klass.days_table("Bruno").rows][0] == "2 Mar 2026"
    assert klass.items_table(activity="quiz").rows
    with pytest.raises(progress.ProgressError, match="no answers of 'Zoé'"):
        klass.report("Zoé")


def test_open_class_without_a_folder_makes_a_demo_class() -> None:
    klass = progress.open_class()
    assert len(klass.students) == 4 and not klass.skipped


def test_figures_show_themselves_in_a_notebook() -> None:
    fig = progress.plot_days([])
    assert fig._repr_png_().startswith(b"\x89PNG")  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_list_of_month_names_serves_the_report_chart_and_next_review(language: str) -> None:
    """The month names live in one place, the CLDR's: a report's dates and the days chart
    shorten them (Sep, sept, sept.), the next review says them in full."""
    from datetime import date

    from musicgames.i18n import _all_strings, month_name
    from musicgames.widgets._practice import next_review_text

    strings = _all_strings()
    assert "chart.months" not in strings and "progress.next.months" not in strings
    for month in range(1, 13):
        full = month_name(month, language)
        short = month_name(month, language, short=True)
        assert full.startswith(short.rstrip(".")) and 3 <= len(short) <= 5
        assert words.day_said(date(2026, month, 7), language) == (
            f"7 {short} 2026")
        day = {"en": "9 ", "es": "9 de ", "fr": "9 "}[language]
        assert f"{day}{full}" in next_review_text(40, date(2027, month, 9), ["Do4"], language)


def test_the_teachers_tables_put_notes_in_the_order_note_itself_keeps() -> None:
    from musicgames.theory import Note

    names = ["Sol#3", "Lab3", "Do#3", "Reb3", "Si#3", "Do4", "Mi3", "Fab3", "D major", "Do3"]
    notes = sorted(Note.parse(n) for n in names if n != "D major")
    assert sorted(names, key=stats._note_order) == [n.solfege for n in notes] + ["D major"]
