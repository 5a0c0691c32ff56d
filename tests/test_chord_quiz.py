"""The chord-tones quiz widget, driven headless with the messages its page sends."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from musicgames.progress import ProgressStore, read_answers
from musicgames.theory import ALL_TRIADS, Triad, triad
from musicgames.widgets import ChordTonesQuiz
from musicgames.widgets.chord_quiz import DEFAULT_CHORDS, QuizMode, name_choices
from musicgames.widgets.note_drill import SettingsError


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def tone_keys(chord: Triad, octave: int = 0) -> list[int]:
    return [12 * octave + pc for pc in chord.pitch_classes]


def find(quiz: ChordTonesQuiz, keys: list[int], ms: float = 2000.0) -> None:
    quiz.receive(
        {"type": "answer", "number": quiz.question["number"], "keys": keys, "response_ms": ms}
    )


def choose(quiz: ChordTonesQuiz, index: int, ms: float = 1500.0) -> None:
    quiz.receive(
        {"type": "answer", "number": quiz.question["number"], "choice": index, "response_ms": ms}
    )


def answer_right(quiz: ChordTonesQuiz) -> None:
    chord = quiz.current
    assert chord is not None
    if quiz.kind is QuizMode.FIND:
        find(quiz, tone_keys(chord))
    else:
        choose(quiz, quiz.choices.index(chord))


def next_question(quiz: ChordTonesQuiz) -> None:
    quiz.receive({"type": "next", "number": quiz.question["number"]})


def state(quiz: ChordTonesQuiz) -> tuple:
    return (
        quiz.phase,
        dict(quiz.question),
        dict(quiz.feedback),
        dict(quiz.score),
        list(quiz.session.results),
        quiz.session.schedule.state(),
    )


def test_default_chords_are_major_and_minor_on_the_natural_roots() -> None:
    assert len(DEFAULT_CHORDS) == 14
    assert {c.quality for c in DEFAULT_CHORDS} == {"major", "minor"}
    assert all(c.root.alter == 0 for c in DEFAULT_CHORDS)


def test_a_find_question_names_the_chord_and_shows_a_keyboard() -> None:
    quiz = ChordTonesQuiz(["G major"], mode="find", seed=1)
    quiz.start()
    assert quiz.question["kind"] == "find"
    assert quiz.question["prompt"] == "Click the three notes of Sol major"
    assert quiz.question["keyboard"].count('class="mg-key ') == 24


@pytest.mark.parametrize("octaves", [(0, 0, 0), (1, 0, 1), (0, 1, 1)])
def test_the_tones_in_any_octave_and_order_are_right(octaves: tuple[int, int, int]) -> None:
    quiz = ChordTonesQuiz(["A minor"], mode="find", seed=1)
    quiz.start()
    chord = triad("A", "minor")
    keys = [12 * o + pc for o, pc in zip(octaves, chord.pitch_classes, strict=True)]
    find(quiz, list(reversed(keys)))
    feedback = quiz.feedback
    assert feedback["correct"] is True and feedback["wrong_keys"] == []
    assert feedback["tones"] == "La – Do – Mi"
    assert 'fill="#d1495b"' in feedback["keyboard"]  # the root coloured


@pytest.mark.parametrize("naming", ["solfege", "letters"])
def test_the_answer_keyboard_names_its_black_keys_readably(naming: str) -> None:
    """After an answer, every black key of the keyboard has its name, in the chord's
    spelling, at least 11 px high on the page, and about as wide as the key at most."""
    from musicgames.fonts import text_width
    from musicgames.render import READABLE_PX

    quiz = ChordTonesQuiz(["Eb major"], mode="find", naming=naming, seed=1)
    quiz.start()
    find(quiz, [3, 7, 10])
    svg = quiz.feedback["keyboard"]
    page_width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))
    view_width = float(re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+)', svg).group(1))
    scale = page_width / view_width  # page pixels per unit of the drawing
    blacks = re.findall(r'class="mg-key mg-black"[^>]* x="([\d.]+)"[^>]* width="([\d.]+)"', svg)
    names = re.findall(
        r'<text class="mg-black-label" x="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]+)<',
        svg)
    assert len(blacks) == 10
    for left, width in blacks:
        on_key = [(float(size), line) for x, size, line in names
                  if float(left) < float(x) < float(left) + float(width)]
        assert on_key, f"the black key at {left} has no name"
        for size, line in on_key:
            assert size * scale >= READABLE_PX, (line, size * scale)
            # within half a pixel on the page of the key's own width
            assert text_width(line, size=size) <= float(width) + 0.5 / scale, line
    spelled = " ".join(line for _, _, line in names)
    assert "♭" in spelled and "♯" not in spelled, spelled  # as Mi♭ major spells them


def test_clicked_chord_tones_are_spelt_as_the_chord_spells_them() -> None:
    quiz = ChordTonesQuiz(["Eb major"], mode="find", naming="letters", seed=1)
    quiz.start()
    find(quiz, [3, 7, 10])
    assert quiz.feedback["correct"] is True
    assert quiz.feedback["given"] == "E♭ – G – B♭"


def test_wrong_tones_are_shown_with_the_right_ones() -> None:
    quiz = ChordTonesQuiz(["D major"], mode="find", naming="letters", seed=1)
    quiz.start()
    find(quiz, [2, 5, 9])  # D F A: D minor
    feedback = quiz.feedback
    assert feedback["correct"] is False
    assert feedback["wrong_keys"] == [5]
    assert (feedback["given"], feedback["answer"], feedback["tones"]) == (
        "D – F – A",
        "D major",
        "D – F♯ – A",
    )
    assert quiz.session.results[0].answer == "D F A"


def test_a_name_question_offers_the_answer_among_close_chords() -> None:
    quiz = ChordTonesQuiz(["C major"], mode="name", seed=4)
    quiz.start()
    question = quiz.question
    assert question["kind"] == "name" and question["svg"].startswith("<svg")
    assert len(question["choices"]) == 4 == len(set(question["choices"]))
    assert triad("C", "major") in quiz.choices and triad("C", "minor") in quiz.choices
    wrong = next(i for i, c in enumerate(quiz.choices) if c != triad("C", "major"))
    choose(quiz, wrong)
    assert quiz.feedback["correct"] is False
    assert quiz.feedback["right_choice"] == quiz.choices.index(triad("C", "major"))
    assert quiz.feedback["answer"] == "Do major"


def test_name_choices_never_repeat_the_same_tones() -> None:
    rng = random.Random(5)
    for chord in ALL_TRIADS:
        picks = name_choices(chord, ALL_TRIADS + DEFAULT_CHORDS, rng, 5)
        assert chord in picks and len(picks) == 5
        assert len({frozenset(p.pitch_classes) for p in picks}) == 5
        parallel = [p for p in picks if p.root.pitch_class == chord.root.pitch_class]
        assert len(parallel) == 2  # the same root with the other quality is always offered


def test_mixed_mode_asks_both_kinds() -> None:
    quiz = ChordTonesQuiz(questions=30, seed=8)
    kinds = Counter()
    quiz.start()
    while quiz.phase == "asking":
        kinds[quiz.kind] += 1
        answer_right(quiz)
        next_question(quiz)
    assert kinds[QuizMode.FIND] > 5 and kinds[QuizMode.NAME] > 5
    assert quiz.summary["asked"] == quiz.summary["right"] == 30
    assert quiz.summary["practise"] == []


@pytest.mark.parametrize(
    "answer",
    [
        {"keys": [0, 4]},
        {"keys": [0, 4, 4]},
        {"keys": [0, 4, 24]},
        {"keys": [0, 4, -1]},
        {"keys": [0, 4, True]},
        {"keys": "0 4 7"},
        {"choice": 0},
        {},
    ],
)
def test_a_bad_find_answer_changes_nothing(answer: dict) -> None:
    quiz = ChordTonesQuiz(mode="find", seed=3)
    quiz.start()
    before = state(quiz)
    quiz.receive({"type": "answer", "number": 1, "response_ms": 1000, **answer})
    assert state(quiz) == before and len(quiz.refused) == 1


@pytest.mark.parametrize(
    "message",
    [
        {"type": "answer", "number": 1, "choice": 4, "response_ms": 1000},
        {"type": "answer", "number": 1, "choice": -1, "response_ms": 1000},
        {"type": "answer", "number": 1, "keys": [0, 4, 7], "response_ms": 1000},
        {"type": "answer", "number": 2, "choice": 0, "response_ms": 1000},
        {"type": "answer", "number": 1, "choice": 0, "response_ms": -1},
        {"type": "next", "number": 1},
        {"type": "time_up"},
        {"type": "hello"},
        None,
    ],
)
def test_a_bad_name_message_changes_nothing(message: object) -> None:
    quiz = ChordTonesQuiz(mode="name", seed=3)
    quiz.start()
    before = state(quiz)
    quiz.receive(message)
    assert state(quiz) == before and len(quiz.refused) == 1


def test_answers_go_to_the_progress_file(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.sqlite3", student="Ana") as store:
        quiz = ChordTonesQuiz(["F major"], mode="find", questions=2, seed=1, progress=store)
        quiz.start()
        find(quiz, [5, 9, 12], ms=3100)
        next_question(quiz)
        find(quiz, [5, 8, 12], ms=2500)
        next_question(quiz)
    assert quiz.phase == "over"
    rows = read_answers(tmp_path / "p.sqlite3")
    assert [(r.activity, r.item, r.answer, r.correct, r.response_ms) for r in rows] == [
        ("quiz", "F major", "F A C", True, 3100.0),
        ("quiz", "F major", "F A♭ C", False, 2500.0),  # not a chord tone: A♭ in F, never G♯
    ]
    assert quiz.summary["practise"] == ["Fa major"]


def test_chords_the_student_misses_come_back_more_often() -> None:
    quiz = ChordTonesQuiz(mode="find", questions=40, seed=2)
    quiz.start()
    while quiz.phase == "asking":
        chord = quiz.current
        assert chord is not None
        if chord == triad("E", "minor"):
            find(quiz, [4, 8, 11])  # always plays E major instead
        else:
            answer_right(quiz)
        next_question(quiz)
    counts = Counter(r.item for r in quiz.session.results)
    assert counts[triad("E", "minor")] > max(
        c for chord, c in counts.items() if chord != triad("E", "minor")
    )


def test_a_timed_quiz() -> None:
    clock = FakeClock()
    quiz = ChordTonesQuiz(questions=None, seconds=60, seed=1, clock=clock)
    quiz.start()
    clock.now += 20
    answer_right(quiz)
    next_question(quiz)
    assert quiz.question["remaining_s"] == 40
    quiz.receive({"type": "time_up"})
    assert quiz.phase == "asking"
    clock.now += 40
    quiz.receive({"type": "time_up"})
    assert quiz.phase == "over" and quiz.summary["asked"] == 1


def test_start_again_begins_a_new_session() -> None:
    quiz = ChordTonesQuiz(questions=1, seed=1)
    quiz.start()
    answer_right(quiz)
    next_question(quiz)
    assert quiz.phase == "over"
    quiz.receive({"type": "start"})
    assert quiz.phase == "asking" and quiz.session.results == []


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"chords": []}, "chords is empty"),
        ({"chords": ["H major"]}, "'H major' is not a triad"),
        ({"chords": ["C diminished"]}, "not a triad"),
        ({"mode": "guess"}, "mode 'guess'"),
        ({"choices": 1}, "choices=1"),
        ({"choices": 7}, "choices=7"),
        ({"questions": 0}, "questions=0"),
    ],
)
def test_bad_settings_raise(kwargs: dict, why: str) -> None:
    with pytest.raises(SettingsError, match=why):
        ChordTonesQuiz(**kwargs)


def test_spanish_page() -> None:
    quiz = ChordTonesQuiz(["D major"], mode="find", language="es", seed=1)
    quiz.start()
    assert quiz.question["prompt"] == "Haz clic en las tres notas de Re mayor"
    english = ChordTonesQuiz(seed=1)
    assert set(quiz.strings) == set(english.strings)
    js = (Path(__file__).parents[1] / "musicgames" / "widgets" / "chord_quiz.js").read_text()
    used = set(re.findall(r'"(quiz\.[a-z.]+)"', js))
    assert used and used <= set(english.strings), used - set(english.strings)


# -- explained as the lessons explain -----------------------------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_chord_is_explained_in_the_lessons_words(language: str) -> None:
    from musicgames.lessons import Lesson

    lesson = Lesson(language=language, record=False)
    by_third = lesson.chord_quality(["D major"]).questions[0].explain
    by_ear = lesson.by_ear(["A minor"]).questions[0].explain

    quiz = ChordTonesQuiz(["D major"], mode="name", questions=1, seed=2, language=language)
    quiz.receive({"type": "start"})
    wrong = next(i for i, c in enumerate(quiz.choices) if c != triad("D"))
    quiz.receive({"type": "answer", "number": 1, "choice": wrong, "response_ms": 900})
    assert quiz.feedback["explain"] == by_third  # "Re major: from Re to Fa♯ is 4 half steps…"

    quiz = ChordTonesQuiz(["A minor"], mode="ear", questions=1, seed=2, language=language)
    quiz.receive({"type": "start"})
    quiz.receive({"type": "answer", "number": 1, "choice": 0, "response_ms": 900})
    assert quiz.feedback["explain"] == by_ear  # "It was La minor: …, so it sounds dark."


def test_a_wrong_key_a_half_step_from_a_tone_is_named_as_such() -> None:
    quiz = ChordTonesQuiz(["D major"], mode="find", questions=1, seed=1)
    quiz.receive({"type": "start"})
    quiz.receive({"type": "answer", "number": 1, "keys": [2, 5, 9], "response_ms": 900})
    assert quiz.feedback["explain"] == (
        "Fa is a half step away from Fa♯: it is not in the chord. "
        "Re major: from Re to Fa♯ is 4 half steps: a major third."
    )


def test_the_quiz_staff_follows_the_lessons_size_setting() -> None:
    from musicgames.lessons import Lesson
    from musicgames.render import staff_svg

    for size, height in (("small", 165), ("large", 286)):
        quiz = Lesson(record=False, size=size).quiz(["D major"], mode="name", questions=1)
        quiz.receive({"type": "start"})
        assert quiz.staff_size == height
        assert quiz.question["svg"] == str(staff_svg(triad("D"), size=height))
