"""The note drill widget, driven headless with the messages its page sends."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from musicgames.progress import ProgressStore, read_answers
from musicgames.theory import LETTERS, Note
from musicgames.widgets import NoteDrill
from musicgames.widgets.note_drill import SettingsError


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def answer_name(drill: NoteDrill, name_index: int, ms: float = 800.0, via: str = "name") -> None:
    drill.receive(
        {
            "type": "answer",
            "number": drill.question["number"],
            "via": via,
            "value": name_index,
            "response_ms": ms,
        }
    )


def answer_right(drill: NoteDrill, ms: float = 800.0) -> None:
    assert drill.current is not None
    answer_name(drill, LETTERS.index(drill.current.step), ms)


def next_question(drill: NoteDrill) -> None:
    drill.receive({"type": "next", "number": drill.question["number"]})


def state(drill: NoteDrill) -> tuple:
    return (
        drill.phase,
        dict(drill.question),
        dict(drill.feedback),
        dict(drill.score),
        list(drill.session.results),
        drill.session.schedule.state(),
    )


def test_the_drill_waits_for_start_then_asks() -> None:
    drill = NoteDrill(seed=1)
    assert drill.phase == "ready" and drill.question == {}
    assert drill.names == ["Do", "Re", "Mi", "Fa", "Sol", "La", "Si"]
    assert 'data-key="24"' in drill.keyboard  # Do3 … Do5 on three octaves of keys
    drill.receive({"type": "start"})
    assert drill.phase == "asking"
    assert drill.question["number"] == 1 and drill.question["total"] == 20
    assert drill.question["svg"].startswith("<svg")
    assert drill.current is not None


def test_a_right_name_is_shown_right_at_once_with_the_answer() -> None:
    drill = NoteDrill(["Sol3"], seed=1)
    drill.start()
    answer_name(drill, 4, ms=640.5)
    assert drill.feedback == {
        "number": 1,
        "correct": True,
        "given": "Sol",
        "given_key": None,
        "answer": "Sol",
        "name_index": 4,
        "key": 7,
        "response_ms": 640.5,
        "sound": {"hz": [392.0], "broken": False},  # Sol3 = G4, played after the answer
        "explain": "Sol3 sits on the 2nd line, where the clef curls.",  # as the lessons say
    }
    assert drill.score == {"asked": 1, "right": 1}


def test_a_wrong_key_press_shows_the_right_answer() -> None:
    drill = NoteDrill(["Fa3"], naming="letters", seed=1)
    drill.start()
    assert drill.names == list(LETTERS)
    answer_name(drill, 4, via="key")  # key 5 = G
    assert drill.feedback["correct"] is False
    assert (drill.feedback["given"], drill.feedback["answer"]) == ("G", "F")
    assert drill.session.results[0].answer == "Sol"  # stored the same in either naming


def test_on_the_keyboard_the_octave_matters() -> None:
    drill = NoteDrill(["Do3", "Do4"], questions=2, seed=3)
    drill.start()
    asked = drill.current
    assert asked is not None
    other = Note.parse("Do4") if asked == Note.parse("Do3") else Note.parse("Do3")
    wrong_key = other.midi - 60
    drill.receive(
        {"type": "answer", "number": 1, "via": "keyboard", "value": wrong_key, "response_ms": 900}
    )
    assert drill.feedback["correct"] is False
    assert drill.feedback["given"] == other.label("solfege")
    assert drill.feedback["answer"] == asked.label("solfege")  # with its octave
    assert drill.feedback["key"] == asked.midi - 60
    next_question(drill)
    asked = drill.current
    assert asked is not None
    drill.receive(
        {"type": "answer", "number": 2, "via": "keyboard", "value": asked.midi - 60,
         "response_ms": 700}
    )
    assert drill.feedback["correct"] is True


@pytest.mark.parametrize(
    "message",
    [
        {"type": "answer", "number": 2, "via": "name", "value": 0, "response_ms": 500},
        {"type": "answer", "number": 1, "via": "name", "value": 7, "response_ms": 500},
        {"type": "answer", "number": 1, "via": "name", "value": 0, "response_ms": -3},
        {"type": "answer", "number": 1, "via": "name", "value": 0, "response_ms": float("nan")},
        {"type": "answer", "number": 1, "via": "name", "value": 0, "response_ms": "fast"},
        {"type": "answer", "number": 1, "via": "name", "value": 0, "response_ms": True},
        {"type": "answer", "number": 1, "via": "name", "value": 0},
        {"type": "answer", "number": 1, "via": "voice", "value": 0, "response_ms": 500},
        {"type": "answer", "number": 1, "via": "keyboard", "value": 99, "response_ms": 500},
        {"type": "answer", "number": "1", "via": "name", "value": 0, "response_ms": 500},
        {"type": "next", "number": 1},
        {"type": "time_up"},
        {"type": "dance"},
        {"number": 1},
        "answer",
    ],
)
def test_a_message_that_does_not_apply_changes_nothing(message: object) -> None:
    drill = NoteDrill(seed=4)
    drill.start()
    before = state(drill)
    drill.receive(message)
    assert state(drill) == before
    assert len(drill.refused) == 1


def test_a_question_is_answered_once() -> None:
    drill = NoteDrill(seed=4)
    drill.start()
    answer_right(drill)
    before = state(drill)
    answer_name(drill, 0)
    assert state(drill) == before
    assert "not waiting for an answer" in drill.refused[-1][1]


def test_a_session_by_count_ends_in_a_summary(tmp_path: Path) -> None:
    drill = NoteDrill(["Do3", "Mi3", "Sol3"], questions=4, seed=9)
    drill.start()
    for n in range(4):
        assert drill.phase == "asking"
        if n == 1:
            answer_name(drill, (LETTERS.index(drill.current.step) + 1) % 7)  # type: ignore[union-attr]
        else:
            answer_right(drill, ms=1000 + n)
        next_question(drill)
    assert drill.phase == "over"
    summary = drill.summary
    assert (summary["asked"], summary["right"]) == (4, 3)
    assert sum(row["asked"] for row in summary["rows"]) == 4
    assert len(summary["practise"]) == 1 and summary["practise_svg"].startswith("<svg")
    assert drill.drill_summary().asked == 4


def test_start_again_begins_a_new_session() -> None:
    drill = NoteDrill(["Do3", "Re3"], questions=1, seed=9)
    drill.start()
    answer_right(drill)
    next_question(drill)
    assert drill.phase == "over"
    drill.receive({"type": "start"})
    assert drill.phase == "asking" and drill.session.results == [] and drill.summary == {}
    assert drill.score == {"asked": 1, "right": 1}  # until the first new answer


def test_a_timed_session_ends_when_the_kernel_agrees_time_is_up() -> None:
    clock = FakeClock()
    drill = NoteDrill(questions=None, seconds=30, seed=2, clock=clock)
    drill.start()
    assert drill.question["remaining_s"] == 30 and drill.question["total"] is None
    clock.now += 10
    answer_right(drill)
    next_question(drill)
    assert drill.question["remaining_s"] == 20
    clock.now += 5
    drill.receive({"type": "time_up"})  # the page's clock is far off: refused
    assert drill.phase == "asking" and "time is not up" in drill.refused[-1][1]
    clock.now += 14.5  # 29.5 s: within the margin
    drill.receive({"type": "time_up"})
    assert drill.phase == "over" and drill.summary["asked"] == 1


def test_an_answer_given_as_time_runs_out_counts_and_ends_the_session() -> None:
    clock = FakeClock()
    drill = NoteDrill(questions=None, seconds=30, seed=2, clock=clock)
    drill.start()
    clock.now += 31
    answer_right(drill)
    assert drill.score == {"asked": 1, "right": 1}
    next_question(drill)
    assert drill.phase == "over"


def test_answers_go_to_the_progress_file(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        drill = NoteDrill(["Fa3", "Sol3"], questions=2, seed=5, progress=store)
        drill.start()
        first = drill.current
        answer_right(drill, ms=720)
        next_question(drill)
        second = drill.current
        answer_name(drill, 0, ms=1500)  # Do: wrong for Fa and Sol
    rows = read_answers(path)
    assert [(r.activity, r.item, r.answer, r.correct, r.response_ms) for r in rows] == [
        ("drill", first.solfege, first.syllable, True, 720.0),  # type: ignore[union-attr]
        ("drill", second.solfege, "Do", False, 1500.0),  # type: ignore[union-attr]
    ]


def test_a_student_who_always_misses_fa_sees_fa_more_often_in_the_widget() -> None:
    drill = NoteDrill(questions=50, seed=11)
    drill.start()
    while drill.phase == "asking":
        note = drill.current
        assert note is not None
        index = LETTERS.index(note.step)
        answer_name(drill, index if note.syllable != "Fa" else (index + 1) % 7)
        next_question(drill)
    counts: Counter[str] = Counter(r.item.syllable for r in drill.session.results)
    assert sum(counts.values()) == 50
    assert counts["Fa"] > max(c for name, c in counts.items() if name != "Fa")


def test_answering_only_with_names_or_only_on_the_keyboard() -> None:
    names_only = NoteDrill(answer_with=["names"], seed=1)
    assert names_only.keyboard == "" and names_only.options["answer_with"] == ["names"]
    names_only.start()
    names_only.receive(
        {"type": "answer", "number": 1, "via": "keyboard", "value": 0, "response_ms": 500}
    )
    assert "answered with the names" in names_only.refused[-1][1]
    keys_only = NoteDrill(answer_with=["keyboard"], seed=1)
    keys_only.start()
    answer_name(keys_only, 0)
    assert "answered on the keyboard" in keys_only.refused[-1][1]


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"notes": []}, "notes is empty"),
        ({"answer_with": ["voice"]}, "answer_with"),
        ({"answer_with": []}, "answer_with"),
        ({"questions": 0}, "questions=0"),
        ({"questions": None, "seconds": None}, "give a number of questions"),
    ],
)
def test_bad_settings_raise(kwargs: dict, why: str) -> None:
    with pytest.raises(SettingsError, match=why):
        NoteDrill(**kwargs)


def test_the_page_strings_come_from_the_catalogue_in_both_languages() -> None:
    english = NoteDrill(seed=1)
    spanish = NoteDrill(seed=1, language="es")
    assert english.strings["drill.start"] == "Start"
    assert spanish.strings["drill.start"] == "Empezar"
    assert set(english.strings) == set(spanish.strings)
    js = (Path(__file__).parents[1] / "musicgames" / "widgets" / "note_drill.js").read_text()
    used = set(re.findall(r'"(drill\.[a-z.]+)"', js))
    assert used <= set(english.strings), used - set(english.strings)


# -- explained as the lessons explain -----------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_answer_is_explained_in_the_lessons_words(language: str) -> None:
    """The drill says why, with the very sentences of the lessons' "Name the note"."""
    from musicgames.lessons import Lesson

    lesson = Lesson(language=language, record=False)
    exercise = lesson.name_notes(["La3"], choices=7)
    question = exercise.questions[0]
    said = dict(zip(question.options, question.why, strict=True))

    drill = NoteDrill(["La3"], questions=2, seed=1, language=language, answer_with=["names"])
    drill.receive({"type": "start"})
    answer_name(drill, LETTERS.index("G"))  # "Sol" for La3
    assert drill.feedback["explain"] == said["Sol"]
    assert ("sits on the 2nd line" if language == "en" else "está en la 2.ª línea") in said["Sol"]
    drill.receive({"type": "next", "number": 1})
    answer_right(drill)
    assert drill.feedback["explain"] == question.explain  # "La3 sits in the 2nd space."
    assert drill.feedback["explain"] == (
        "La3 sits in the 2nd space." if language == "en" else "La3 está en el 2.º espacio."
    )


def test_a_key_of_the_wrong_octave_is_explained_by_where_it_sits() -> None:
    drill = NoteDrill(["Sol3", "Sol4"], questions=1, seed=1, answer_with=["keyboard"])
    drill.receive({"type": "start"})
    asked = drill.current
    assert asked is not None
    other = Note.parse("Sol4" if asked == Note.parse("Sol3") else "Sol3")
    answer_name(drill, other.midi - Note.parse("Do3").midi, via="keyboard")
    way = "lower" if other.midi > asked.midi else "higher"
    assert drill.feedback["explain"].startswith(f"{other.solfege} ")
    assert drill.feedback["explain"].endswith(f"7 steps {way}: it is {asked.solfege}.")


def test_the_drill_staff_follows_the_lessons_size_setting() -> None:
    from musicgames.lessons import open_lesson
    from musicgames.render import staff_svg

    lesson = open_lesson("01-the-staff", "en", remember=False, record=False)
    lesson.settings()
    block = lesson.show("drill")
    sizes = {}
    for size in ("small", "large", "normal"):
        lesson.controls["size"].value = size
        drill = block.children[0]
        assert isinstance(drill, NoteDrill)
        drill.receive({"type": "start"})
        assert drill.current is not None
        assert drill.question["svg"] == str(staff_svg(drill.current, size=drill.staff_size))
        sizes[size] = drill.staff_size
    # As large as the lesson's own exercises draw their staff at each size.
    assert sizes == {"small": 165, "normal": 220, "large": 286}
    with pytest.raises(SettingsError, match="staff_size"):
        NoteDrill(staff_size=10_000)
