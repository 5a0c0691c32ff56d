"""Lesson helpers (exercises with feedback) and the lesson notebooks' shape."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import nbformat
import pytest

from musicgames.lessons import (
    Exercise,
    Lesson,
    LessonError,
    Question,
    ledger_lines,
    on_a_line,
    staff_place,
)
from musicgames.progress import read_answers
from musicgames.theory import CARD_NOTES, LETTERS, Note, triad
from musicgames.widgets.chord_quiz import DEFAULT_CHORDS

ROOT = Path(__file__).parents[1]
LESSONS = sorted((ROOT / "lessons").glob("*.ipynb"))
NOTEBOOKS = [*LESSONS, ROOT / "notebooks" / "teacher.ipynb"]


@pytest.fixture
def lesson() -> Lesson:
    return Lesson(record=False)


def three_questions() -> list[Question]:
    return [
        Question("One?", ("a", "b"), 0, explain="Because."),
        Question("Two?", ("a", "b", "c"), 2),
        Question("Three?", ("x", "y"), 1),
    ]


# -- the exercise widget ---------------------------------------------------------------------


def test_a_right_click_is_told_at_once() -> None:
    ex = Exercise("Test", three_questions())
    ex.buttons[0].click()
    assert ex.correct is True and ex.right == 1
    assert "Right!" in ex.feedback.value and "Because." in ex.feedback.value
    assert "mg-right" in ex.feedback.value
    assert ex.buttons[0].button_style == "success"
    assert all(b.disabled for b in ex.buttons)
    assert ex.next_button.layout.display is None  # "Next question" appears


def test_a_wrong_click_shows_the_right_answer() -> None:
    answers: list[tuple[str, int, bool]] = []
    ex = Exercise(
        "Test", three_questions(), on_answer=lambda q, i, ok: answers.append((q.prompt, i, ok))
    )
    ex.buttons[1].click()
    assert ex.correct is False and ex.right == 0
    assert "Not quite: the answer is a." in ex.feedback.value
    assert (ex.buttons[0].button_style, ex.buttons[1].button_style) == ("success", "danger")
    ex.buttons[0].click()  # a second click on the same question changes nothing
    assert ex.right == 0 and answers == [("One?", 1, False)]


def test_questions_follow_one_another_and_end_in_a_score() -> None:
    ex = Exercise("Test", three_questions())
    ex.next()  # not answered yet: stays
    assert ex.index == 0
    ex.buttons[0].click()
    ex.next_button.click()
    assert ex.index == 1 and "question 2 of 3" in ex.heading.value
    ex.buttons[2].click()
    ex.next()
    ex.buttons[0].click()  # wrong
    assert "Done: 2 of 3 right." in ex.feedback.value
    assert ex.next_button.description == "Try again"
    ex.next()
    assert (ex.index, ex.right) == (0, 0)


def test_the_exercise_speaks_spanish() -> None:
    ex = Exercise("Prueba", three_questions(), language="es")
    ex.buttons[1].click()
    assert "No del todo: la respuesta es a." in ex.feedback.value


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("Q", ("a",), 0), "at least two options"),
        (("Q", ("a", "a"), 0), "repeat"),
        (("Q", ("a", "b"), 2), "answer 2"),
    ],
)
def test_bad_questions_raise(args: tuple, why: str) -> None:
    with pytest.raises(LessonError, match=why):
        Question(*args)


def test_an_exercise_needs_questions() -> None:
    with pytest.raises(LessonError, match="no questions"):
        Exercise("Empty", [])


# -- facts the exercises teach --------------------------------------------------------------


def test_lines_and_spaces_of_the_treble_staff() -> None:
    lines = [n.solfege for n in CARD_NOTES if on_a_line(n) and 0 <= staff_place(n) <= 4]
    spaces = [n.solfege for n in CARD_NOTES if not on_a_line(n) and 0 < staff_place(n) < 4]
    assert lines == ["Mi3", "Sol3", "Si3", "Re4", "Fa4"]
    assert spaces == ["Fa3", "La3", "Do4", "Mi4"]
    assert staff_place("Sol3") == 1  # the line the Sol clef curls around: the 2nd


def test_ledger_lines_of_the_card_notes() -> None:
    counts = {n.solfege: ledger_lines(n) for n in CARD_NOTES if ledger_lines(n)}
    assert counts == {"Do3": 1, "La4": 1, "Si4": 1, "Do5": 2}
    assert ledger_lines("La2") == 2 and ledger_lines("Si2") == 1


def test_the_line_or_space_answers(lesson: Lesson) -> None:
    ex = lesson.line_or_space(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == ("on a line" if on_a_line(note) else "in a space")
        assert q.picture.startswith("<svg")


def test_the_name_answers_in_either_naming() -> None:
    for naming, names in (("solfege", ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")),
                          ("letters", LETTERS)):
        lesson = Lesson(naming, record=False)
        ex = lesson.name_notes(CARD_NOTES, choices=4)
        for note, q in zip(CARD_NOTES, ex.questions, strict=True):
            assert q.options[q.answer] == names[LETTERS.index(note.step)]
            assert len(q.options) == 4 and set(q.options) <= set(names)
    assert len(Lesson(record=False).name_notes(CARD_NOTES, questions=6).questions) == 6


def test_the_octave_answers_are_one_apart(lesson: Lesson) -> None:
    ex = lesson.octave_names(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == note.label("letters")
        assert note.solfege in q.prompt.replace("♯", "#")
    letters = Lesson("letters", record=False).octave_names(["C4"])
    (q,) = letters.questions
    assert q.options[q.answer] == "Do3" and "C4" in q.prompt


def test_the_ledger_answers(lesson: Lesson) -> None:
    ex = lesson.ledger_line_count(CARD_NOTES)
    assert [int(q.options[q.answer]) for q in ex.questions] == [ledger_lines(n) for n in CARD_NOTES]


def test_the_marked_key_answers(lesson: Lesson) -> None:
    ex = lesson.marked_key(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == note.solfege
        key = note.midi - 60
        marked = re.search(rf'data-key="{key}"[^>]*fill="(#[0-9a-f]+)"', q.picture)
        assert marked and marked.group(1) not in ("#ffffff", "#222222")


def test_the_chord_answers(lesson: Lesson) -> None:
    quality = lesson.chord_quality(DEFAULT_CHORDS)
    for chord, q in zip(DEFAULT_CHORDS, quality.questions, strict=True):
        assert q.options[q.answer] == chord.quality
    for which in ("root", "third", "fifth"):
        tones = lesson.chord_tone(DEFAULT_CHORDS, which)
        for chord, q in zip(DEFAULT_CHORDS, tones.questions, strict=True):
            assert q.options[q.answer] == getattr(chord, which).label("solfege", octave=False)
            assert len(set(q.options)) == len(q.options) >= 3
    with pytest.raises(LessonError, match="which='seventh'"):
        lesson.chord_tone(DEFAULT_CHORDS, "seventh")


def test_the_call_cycle_answers() -> None:
    for naming, cycle in (("solfege", ["Do", "Re", "Mi", "Fa", "Sol", "La", "Si"]),
                          ("letters", list(LETTERS))):
        ex = Lesson(naming, record=False).call_cycle(["Do", "Sol", "Si", "G"])
        answers = [q.options[q.answer] for q in ex.questions]
        assert answers == [cycle[1], cycle[5], cycle[0], cycle[5]]  # Si wraps round to Do


def test_the_match_answers_ignore_the_octave(lesson: Lesson) -> None:
    ex = lesson.match_or_not([("Do", "Do3"), ("Do", "Do5"), ("Re", "Mi3"), ("Sol", "Sol4")])
    assert [q.answer for q in ex.questions] == [0, 0, 1, 0]  # 0 = slap, 1 = hands still


def test_what_keys_are_worth_follows_rule_d4(lesson: Lesson) -> None:
    ex = lesson.key_worth("Re major", ["Re3", "Fa#3", "La3", "Mi3", "Sol3"])
    assert [q.options[q.answer] for q in ex.questions] == ["×3", "×2", "×1", "×1", "×1"]
    scores = lesson.token_score(
        [("Re major", "Re3", 2), ("La minor", "Do3", 3), ("Sol major", "Re3", 4),
         ("Mi minor", "Mi3", 1), ("C# major", "Db3", 2)]
    )
    assert [q.options[q.answer] for q in scores.questions] == ["6", "6", "4", "3", "6"]
    for q in scores.questions:
        assert len(set(q.options)) == len(q.options)


def test_piano_cards_are_marked_fff_ff_f(lesson: Lesson) -> None:
    svg = lesson.piano_cards("Re major", "La minor")
    marks = re.findall(r'class="mg-mark"[^>]*>(f+)<', svg)
    assert sorted(marks) == sorted(["fff", "ff", "f"] * 2)


def test_the_triad_table_measures_with_music21(lesson: Lesson) -> None:
    table = lesson.triad_table(["Re major", "La minor"])
    assert table.rows[0][1:] == ("Re", "Fa♯", "La", "Major Third (4)", "Perfect Fifth (7)")
    assert table.rows[1][4] == "Minor Third (3)"


def test_the_naming_setting_reaches_drawings_drills_and_quizzes() -> None:
    lesson = Lesson("letters", record=False)
    assert ">G<" in lesson.keyboard(1)
    assert lesson.drill(questions=3).names == list(LETTERS)
    quiz = lesson.quiz(["D major"], mode="find", questions=1)
    quiz.start()
    assert quiz.question["prompt"].endswith("D major")
    assert lesson.chord_name(triad("Re")) == "D major"
    assert lesson.name(Note.parse("Do3")) == "C4"


def test_a_named_student_keeps_their_drill_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    assert Lesson().progress is None  # no name, no file: nothing recorded
    assert not (tmp_path / "progress.sqlite3").exists()
    lesson = Lesson(student="Ana")
    drill = lesson.drill(["Sol3"], questions=1, seed=1)
    drill.start()
    drill.receive({"type": "answer", "number": 1, "via": "name", "value": 4, "response_ms": 700})
    lesson.progress.close()
    (row,) = read_answers(tmp_path / "progress.sqlite3")
    assert (row.student, row.activity, row.item, row.correct) == ("Ana", "drill", "Sol3", True)


# -- the notebooks ----------------------------------------------------------------------------


def test_every_lesson_string_has_english_and_spanish() -> None:
    strings = json.loads((ROOT / "musicgames" / "strings" / "lessons.json").read_text("utf-8"))
    for key, by_language in strings.items():
        assert set(by_language) == {"en", "es"}, key
        fields = [set(re.findall(r"\{(\w+)\}", t)) for t in by_language.values()]
        assert fields[0] == fields[1], key


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lessons_only_import_and_call_musicgames(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert nb.cells[0].cell_type == "markdown" and "By the end of this lesson" in nb.cells[0].source
    settings = nb.cells[1].source
    assert 'NAMING = "solfege"' in settings  # the naming is one setting at the top
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                assert module and module.split(".")[0] == "musicgames", (path.name, module)
            assert not isinstance(
                node,
                (ast.FunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While, ast.If),
            ), (path.name, cell.source)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lessons_have_three_exercises_and_end_in_play(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    exercises = [
        c for c in code[:-1]  # the last cell is the game or drill the lesson ends in
        if re.search(r"lesson\.(choice|line_or_space|name_notes|octave_names|ledger_line_count|"
                     r"marked_key|chord_quality|chord_tone|call_cycle|match_or_not|key_worth|"
                     r"token_score|drill|quiz)\(", c)
    ]
    assert len(exercises) >= 3
    assert re.search(r"lesson\.(drill|quiz|note_snap|keyboard_duel)\(", code[-1])
