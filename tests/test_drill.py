"""The adaptive drill schedule (Leitner boxes) and drill sessions, without any widget."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from musicgames.drill import (
    BOXES,
    DrillError,
    DrillSession,
    LeitnerSchedule,
    SessionOverError,
    UnknownItemError,
    WrongQuestionError,
)
from musicgames.theory import CARD_NOTES, Note


def run(session: DrillSession[Note], right, ms) -> None:  # type: ignore[no-untyped-def]
    """Answer every question of a session like a simulated student."""
    while not session.is_over():
        note = session.ask()
        session.answer(note, "?", correct=right(note), response_ms=ms(note))


def test_a_student_who_always_misses_fa_sees_fa_more_often_within_50_questions() -> None:
    totals: Counter[str] = Counter()
    for seed in range(100):
        session = DrillSession(CARD_NOTES, random.Random(seed), questions=50)
        run(session, right=lambda n: n.syllable != "Fa", ms=lambda n: 800.0)
        by_name: Counter[str] = Counter()
        for note, count in session.counts().items():
            by_name[note.syllable] += count
        assert sum(by_name.values()) == 50
        others = {name: count for name, count in by_name.items() if name != "Fa"}
        assert by_name["Fa"] > max(others.values()), (seed, by_name)
        totals.update({n.solfege: c for n, c in session.counts().items()})
    # Per note, on average: each Fa comes far more often than any other note.
    fa_notes = [totals["Fa3"], totals["Fa4"]]
    other_notes = [count for name, count in totals.items() if not name.startswith("Fa")]
    assert min(fa_notes) > 2 * max(other_notes)


def test_without_adaptivity_fa_would_not_stand_out() -> None:
    """The control: a student who gets everything right sees every name about equally."""
    by_name: Counter[str] = Counter()
    for seed in range(100):
        session = DrillSession(CARD_NOTES, random.Random(seed), questions=50)
        run(session, right=lambda n: True, ms=lambda n: 800.0)
        for note, count in session.counts().items():
            by_name[note.syllable] += count
    per_note = {name: by_name[name] / (3 if name == "Do" else 2) for name in by_name}
    assert max(per_note.values()) < 1.3 * min(per_note.values())


def test_notes_answered_slowly_come_back_more_often() -> None:
    counts: Counter[str] = Counter()
    for seed in range(100):
        session = DrillSession(CARD_NOTES, random.Random(seed), questions=50)
        run(session, right=lambda n: True, ms=lambda n: 5000.0 if n.syllable == "Sol" else 900.0)
        counts.update({n.solfege: c for n, c in session.counts().items()})
    others = [c for name, c in counts.items() if not name.startswith("Sol")]
    assert min(counts["Sol3"], counts["Sol4"]) > 1.5 * max(others)


def test_leitner_moves() -> None:
    schedule = LeitnerSchedule(["a", "b"], random.Random(0), slow_ms=1000)
    assert schedule.boxes() == {"a": 1, "b": 1}
    for _ in range(7):
        schedule.record("a", correct=True, response_ms=500)
    assert schedule.box("a") == BOXES  # up one box each time, at most 5
    schedule.record("a", correct=True, response_ms=1500)
    assert schedule.box("a") == BOXES  # slow but right: stays
    schedule.record("b", correct=True, response_ms=None)
    assert schedule.box("b") == 2  # untimed counts as quick
    schedule.record("b", correct=True, response_ms=1001)
    assert schedule.box("b") == 2
    schedule.record("a", correct=False, response_ms=100)
    assert schedule.box("a") == 1  # wrong: back to box 1
    assert [schedule.weight(i) for i in "ab"] == [16, 8]


def test_a_missed_item_comes_back_within_three_questions() -> None:
    items = [f"n{i}" for i in range(10)]
    for seed in range(50):
        schedule = LeitnerSchedule(items, random.Random(seed))
        first = schedule.next_item()
        schedule.record(first, correct=False, response_ms=100)
        following = [schedule.next_item() for _ in range(3)]
        assert first in following, (seed, first, following)  # by weight, or as the retry


def test_the_same_item_is_never_asked_twice_in_a_row() -> None:
    schedule = LeitnerSchedule(["a", "b", "c"], random.Random(3))
    asked = []
    for _ in range(300):
        item = schedule.next_item()
        asked.append(item)
        schedule.record(item, correct=item != "a", response_ms=100)
    assert all(x != y for x, y in zip(asked, asked[1:], strict=False))
    single = LeitnerSchedule(["only"], random.Random(3))
    assert [single.next_item() for _ in range(3)] == ["only"] * 3


def test_the_same_seed_gives_the_same_questions() -> None:
    def questions(seed: int) -> list[Note]:
        session = DrillSession(CARD_NOTES, random.Random(seed), questions=30)
        run(session, right=lambda n: n.octave == 3, ms=lambda n: 1000.0)
        return [r.item for r in session.results]

    assert questions(5) == questions(5)
    assert questions(5) != questions(6)


def test_a_session_by_count() -> None:
    session = DrillSession("abc", random.Random(0), questions=3)
    run(session, right=lambda n: True, ms=lambda n: 100.0)  # type: ignore[arg-type]
    assert len(session.results) == 3
    assert [r.number for r in session.results] == [1, 2, 3]
    with pytest.raises(SessionOverError):
        session.ask()


def test_a_session_by_time() -> None:
    session = DrillSession("abc", random.Random(0), questions=None, seconds=60)
    item = session.ask(elapsed_s=10)
    session.answer(item, item, correct=True, response_ms=700, elapsed_s=12)
    assert not session.is_over(elapsed_s=59.9)
    item = session.ask(elapsed_s=59.9)
    # An answer given just as time runs out still counts: the question was asked in time.
    session.answer(item, item, correct=False, response_ms=700, elapsed_s=61)
    assert session.is_over(elapsed_s=61)
    with pytest.raises(SessionOverError):
        session.ask(elapsed_s=61)
    assert len(session.results) == 2


def test_ending_a_session_drops_the_open_question() -> None:
    session = DrillSession("abc", random.Random(0), questions=None, seconds=30)
    item = session.ask(elapsed_s=0)
    session.end()
    assert session.is_over() and session.current is None
    with pytest.raises(SessionOverError):
        session.answer(item, item, correct=True, response_ms=10)


def test_a_count_or_a_time_whichever_ends_first() -> None:
    session = DrillSession("ab", random.Random(0), questions=5, seconds=10)
    assert session.is_over(elapsed_s=10)
    assert not session.is_over(elapsed_s=9)


def test_answering_another_question_raises_and_changes_nothing() -> None:
    session = DrillSession(["Do", "Re", "Mi"], random.Random(1), questions=5)
    asked = session.ask()
    other = next(i for i in session.items if i != asked)
    boxes = session.schedule.boxes()
    with pytest.raises(WrongQuestionError, match=f"{other!r} was answered, but {asked!r}"):
        session.answer(other, other, correct=True, response_ms=10)
    assert session.results == [] and session.current == asked
    assert session.schedule.boxes() == boxes
    assert session.ask() == asked  # the same question until it is answered


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"questions": 0}, "questions=0"),
        ({"questions": None, "seconds": None}, "give a number of questions"),
        ({"seconds": -5}, "seconds=-5"),
        ({"slow_ms": 0}, "slow_ms=0"),
    ],
)
def test_bad_settings_raise(kwargs: dict, why: str) -> None:
    with pytest.raises(DrillError, match=why):
        DrillSession("abc", random.Random(0), **kwargs)


def test_bad_items_and_times_raise() -> None:
    with pytest.raises(DrillError, match="at least one item"):
        LeitnerSchedule([], random.Random(0))
    schedule = LeitnerSchedule("ab", random.Random(0))
    with pytest.raises(UnknownItemError, match="'z' is not one of"):
        schedule.record("z", correct=True)
    with pytest.raises(DrillError, match="response_ms=-1"):
        schedule.record("a", correct=True, response_ms=-1)
    assert schedule.boxes() == {"a": 1, "b": 1}


def test_the_summary_puts_the_weakest_first() -> None:
    session = DrillSession(["Do", "Re", "Mi", "Fa"], random.Random(0), questions=None, seconds=99)
    plan = [("Do", True, 500), ("Re", False, 900), ("Mi", True, 4000), ("Re", False, 700)]
    for item, right, ms in plan:
        session.current = item  # the test chooses the questions
        session.answer(item, "x", correct=right, response_ms=ms)
    summary = session.summary()
    assert (summary.asked, summary.right, summary.median_ms) == (4, 2, 800.0)
    assert [(s.item, s.asked, s.right, s.median_ms) for s in summary.items] == [
        ("Do", 1, 1, 500.0),
        ("Re", 2, 0, 800.0),
        ("Mi", 1, 1, 4000.0),
    ]
    assert summary.to_practise == ("Re", "Mi")  # wrong first, then slow
    assert summary.accuracy == 0.5


@pytest.mark.slow
def test_random_sessions_keep_their_invariants() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        items = rng.sample(CARD_NOTES, rng.randint(1, len(CARD_NOTES)))
        session = DrillSession(items, random.Random(rng.random()), questions=rng.randint(1, 40))
        while not session.is_over():
            note = session.ask()
            assert note in items
            session.answer(note, "x", correct=rng.random() < 0.7, response_ms=rng.uniform(0, 6000))
            assert all(1 <= b <= BOXES for b in session.schedule.boxes().values())
        summary = session.summary()
        assert summary.asked == len(session.results) == session.questions
        assert sum(session.counts().values()) == summary.asked
        assert sum(row.asked for row in summary.items) == summary.asked
        assert set(summary.to_practise) <= {row.item for row in summary.items}
