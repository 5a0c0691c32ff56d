"""The spaced drill schedule (FSRS memory states) and drill sessions, without any widget."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, datetime, timedelta, timezone

import pytest
from fsrs import State

from musicgames.drill import (
    DrillError,
    DrillSession,
    SessionOverError,
    SpacedSchedule,
    UnknownItemError,
    WrongQuestionError,
)
from musicgames.memory import Memory
from musicgames.theory import CARD_NOTES, Note
from musicgames.widgets._practice import next_review_text

DAY = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


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


def test_answers_move_the_memory_state_again_hard_good() -> None:
    clock = [DAY]
    schedule = SpacedSchedule(
        ["a", "b", "c"], random.Random(0), slow_ms=1000, clock=lambda: clock[0]
    )
    assert schedule.new_items() == ["a", "b", "c"] and schedule.due() == []
    schedule.record("a", correct=True, response_ms=500)  # Good
    schedule.record("b", correct=True, response_ms=1500)  # right but slow: Hard
    schedule.record("c", correct=False, response_ms=100)  # Again
    cards = schedule.memory.cards
    stability = {item: card.stability for item, card in cards.items()}
    assert stability["c"] < stability["b"] < stability["a"]  # the weaker, the sooner
    assert cards["c"].due <= cards["b"].due < cards["a"].due
    schedule.record("a", correct=True, response_ms=None)  # untimed counts as quick
    assert cards["a"].state is State.Review and cards["a"].due - DAY >= timedelta(days=1)
    clock[0] = DAY + timedelta(minutes=30)
    assert schedule.due() == []  # reviews are days apart: nothing comes due within minutes
    clock[0] = DAY + timedelta(days=1)
    assert schedule.due() == ["c", "b"]  # the next day: the missed one first, then the slow one
    assert schedule.new_items() == []


def test_the_schedule_starts_with_what_is_due_then_new_items() -> None:
    memory = Memory()
    memory.review("Fa3", correct=False, response_ms=900, when=DAY - timedelta(days=1))
    for minute in range(5):
        when = DAY - timedelta(days=1, minutes=10 - minute)
        memory.review("Sol3", correct=True, response_ms=900, when=when)
    notes = [Note.parse(n) for n in ("Do3", "Sol3", "Fa3", "La3")]
    schedule = SpacedSchedule(
        notes, random.Random(4), memory=memory, key=lambda n: n.solfege, clock=lambda: DAY
    )
    assert [n.solfege for n in schedule.due()] == ["Fa3"]  # Sol3, right five times, is not
    asked = []
    for _ in range(3):
        asked.append(schedule.next_item())
        schedule.record(asked[-1], correct=True, response_ms=800)
    assert asked[0].solfege == "Fa3"
    assert {n.solfege for n in asked[1:]} == {"Do3", "La3"}  # then the new ones


def test_a_missed_item_comes_back_within_three_questions() -> None:
    items = [f"n{i}" for i in range(10)]
    for seed in range(50):
        schedule = SpacedSchedule(items, random.Random(seed))
        first = schedule.next_item()
        schedule.record(first, correct=False, response_ms=100)
        following = [schedule.next_item() for _ in range(3)]
        assert first in following, (seed, first, following)  # by weight, or as the retry


def test_the_same_item_is_never_asked_twice_in_a_row() -> None:
    schedule = SpacedSchedule(["a", "b", "c"], random.Random(3))
    asked = []
    for _ in range(300):
        item = schedule.next_item()
        asked.append(item)
        schedule.record(item, correct=item != "a", response_ms=100)
    assert all(x != y for x, y in zip(asked, asked[1:], strict=False))
    single = SpacedSchedule(["only"], random.Random(3))
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
    state = session.schedule.state()
    with pytest.raises(WrongQuestionError, match=f"{other!r} was answered, but {asked!r}"):
        session.answer(other, other, correct=True, response_ms=10)
    assert session.results == [] and session.current == asked
    assert session.schedule.state() == state
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
        SpacedSchedule([], random.Random(0))
    schedule = SpacedSchedule("ab", random.Random(0))
    with pytest.raises(UnknownItemError, match="'z' is not one of"):
        schedule.record("z", correct=True)
    with pytest.raises(DrillError, match="response_ms=-1"):
        schedule.record("a", correct=True, response_ms=-1)
    with pytest.raises(DrillError, match="response_ms=nan"):
        schedule.record("a", correct=True, response_ms=float("nan"))
    assert schedule.state()["cards"] == {}


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
    # Tomorrow: the missed one first, then the slow one; the quick right one later.
    assert summary.next_review_days == 1 and summary.next_review == ("Re", "Mi")


def test_the_summary_names_the_next_review_day() -> None:
    clock = [DAY]
    session = DrillSession(["Do", "Re"], random.Random(0), questions=4, clock=lambda: clock[0])
    for _ in range(4):  # answered right twice each: due again in days
        item = session.ask()
        session.answer(item, item, correct=True, response_ms=500)
        clock[0] += timedelta(minutes=15)
    summary = session.summary()
    assert summary.next_review_days is not None and summary.next_review_days >= 1
    assert set(summary.next_review) <= {"Do", "Re"} and summary.next_review


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
            assert set(session.schedule.memory.cards) <= {str(n) for n in items}
        summary = session.summary()
        assert summary.asked == len(session.results) == session.questions
        assert sum(session.counts().values()) == summary.asked
        assert sum(row.asked for row in summary.items) == summary.asked
        assert set(summary.to_practise) <= {row.item for row in summary.items}


@pytest.mark.parametrize(
    ("days", "day", "language", "said"),
    [
        (1, date(2026, 3, 3), "en", "Next review: tomorrow: Re4, Sol3"),
        (1, date(2026, 3, 3), "es", "Próximo repaso: mañana: Re4, Sol3"),
        (3, date(2026, 3, 5), "en", "Next review: in 3 days: Re4, Sol3"),
        (3, date(2026, 3, 5), "es", "Próximo repaso: en 3 días: Re4, Sol3"),
        (12, date(2026, 3, 14), "en", "Next review: on 14 March: Re4, Sol3"),
        (12, date(2026, 3, 14), "es", "Próximo repaso: el 14 de marzo: Re4, Sol3"),
        (40, date(2027, 1, 9), "es", "Próximo repaso: el 9 de enero de 2027: Re4, Sol3"),
    ],
)
def test_the_next_review_is_said_as_a_person_would(
    days: int, day: date, language: str, said: str
) -> None:
    assert next_review_text(days, day, ["Re4", "Sol3"], language) == said
