"""Spaced practice across days: FSRS memory states in the progress file, used by drill and quiz."""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Card, Rating

from musicgames import memory, progress
from musicgames.progress import ProgressStore
from musicgames.theory import Note
from musicgames.widgets import ChordTonesQuiz, NoteDrill

NOW = datetime.now(timezone.utc)
# Noon yesterday: answers a few minutes after it are still yesterday's, whatever the time of
# day the tests run (a day ago, run just before midnight, they fell on today).
YESTERDAY = (NOW - timedelta(days=1)).replace(hour=12, minute=0, second=0, microsecond=0)


def _at(when: datetime) -> str:
    return when.isoformat(timespec="microseconds")


def _store_missed_yesterday(path: Path) -> ProgressStore:
    """Sol3 answered right five times, Fa3 missed, both yesterday."""
    store = ProgressStore(path, student="Ana")
    for n in range(5):
        when = _at(YESTERDAY + timedelta(minutes=n))
        store.record("drill", "Sol3", "Sol", True, 800.0, time=when)
    store.record("drill", "Fa3", "Mi", False, 900.0, time=_at(YESTERDAY + timedelta(minutes=6)))
    return store


def test_an_item_missed_yesterday_is_due_before_one_answered_right_five_times(
    tmp_path: Path,
) -> None:
    with _store_missed_yesterday(tmp_path / "ana.sqlite3") as store:
        due = store.due("drill")
        assert due[0] == "Fa3"
        assert "Sol3" not in due[:1]
        # Both due (a week later): still the missed one first, most overdue first.
        later = store.due("drill", now=NOW + timedelta(days=30))
        assert later.index("Fa3") < later.index("Sol3")
        assert store.due("quiz") == []
        with pytest.raises(progress.AnswerError):
            store.due("drill", now=datetime(2026, 1, 1))  # no time zone


def test_the_memory_state_lives_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ana.sqlite3"
    _store_missed_yesterday(path).close()
    with ProgressStore(path) as again:
        assert again.due("drill")[0] == "Fa3"
    con = sqlite3.connect(path)
    rows = dict(con.execute("SELECT item, card FROM memory WHERE activity = 'drill'").fetchall())
    con.close()
    assert set(rows) == {"Sol3", "Fa3"}


def test_a_file_of_layout_1_gets_its_memory_from_its_answers(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _store_missed_yesterday(path).close()
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("DROP TABLE memory")
    con.execute("PRAGMA user_version = 1")
    con.close()
    assert len(progress.read_answers(path)) == 6  # still read as it is
    with ProgressStore(path) as store:
        assert store.due("drill")[0] == "Fa3"
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == progress.SCHEMA_VERSION
    con.close()


def test_a_drill_started_with_that_store_asks_the_missed_note_first(tmp_path: Path) -> None:
    with _store_missed_yesterday(tmp_path / "ana.sqlite3") as store:
        for seed in range(5):
            drill = NoteDrill(["Do3", "Sol3", "Fa3", "La3"], progress=store, seed=seed)
            drill.receive({"type": "start"})
            assert drill.current == Note.parse("Fa3"), seed


def test_the_drill_updates_the_same_model_and_names_the_next_review(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        drill = NoteDrill(["Sol4", "La4"], progress=store, questions=4, seed=1, language="es")
        drill.receive({"type": "start"})
        for number in range(1, 5):
            note = drill.current
            assert note is not None
            index = "CDEFGAB".index(note.step)
            drill.receive(
                {"type": "answer", "number": number, "via": "name", "value": index,
                 "response_ms": 700.0}
            )
            drill.receive({"type": "next", "number": number})
        assert drill.phase == "over"
        text = drill.summary["next_review"]
        assert text.startswith("Próximo repaso: ") and "Sol4" in text and "La4" in text
        assert set(store.memory("drill").cards) == {"Sol4", "La4"}
        in_session = drill.session.schedule.memory.cards
        stored = store.memory("drill").cards
        assert {k: c.state for k, c in in_session.items()} == {
            k: c.state for k, c in stored.items()
        }


def test_a_quiz_started_with_a_store_asks_the_missed_chord_first(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        for n in range(5):
            store.record("quiz", "C major", "C major", True, 900.0,
                         time=_at(YESTERDAY + timedelta(minutes=n)))
        store.record("quiz", "A minor", "C major", False, 900.0,
                     time=_at(YESTERDAY + timedelta(minutes=6)))
        quiz = ChordTonesQuiz(["C major", "A minor", "G major"], progress=store, seed=3)
        quiz.receive({"type": "start"})
        assert quiz.current is not None and quiz.current.name() == "A minor"


def _first_session(store: ProgressStore, language: str = "en") -> NoteDrill:
    """A first drill of Sol3, Re4, La3 and Do4: Sol3 missed once, Re4 twice, the rest right."""
    drill = NoteDrill(["Sol3", "Re4", "La3", "Do4"], progress=store, questions=10, seed=0,
                      answer_with=["names"], language=language)
    misses = {"Sol3": 1, "Re4": 2}
    drill.receive({"type": "start"})
    number = 1
    while drill.phase == "asking":
        note = drill.current
        assert note is not None
        index = "CDEFGAB".index(note.step)
        if misses.get(note.solfege, 0):
            misses[note.solfege] -= 1
            index = (index + 1) % 7
        drill.receive({"type": "answer", "number": number, "via": "name", "value": index,
                       "response_ms": 800.0})
        drill.receive({"type": "next", "number": number})
        number += 1
    assert misses == {"Sol3": 0, "Re4": 0}
    return drill


def _tomorrow_morning(now: datetime) -> datetime:
    """A quarter past midnight tomorrow, where the student is: earlier in the day than the
    session, so an item due "in a day" to the minute would not be due yet."""
    local = now.astimezone()
    midnight = datetime.combine(local.date() + timedelta(days=1), datetime.min.time())
    return (midnight + timedelta(minutes=15)).astimezone().astimezone(timezone.utc)


def test_day_one_the_missed_notes_come_first_the_next_day_most_missed_first(
    tmp_path: Path,
) -> None:
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        drill = _first_session(store)
        now = datetime.now(timezone.utc)
        assert store.due("drill", now=now) == []  # nothing more today: practised just now
        # Tomorrow, from the start of the day: the missed notes, the twice-missed first;
        # the notes answered right are not due yet.
        assert store.due("drill", now=_tomorrow_morning(now)) == ["Re4", "Sol3"]
        assert store.due("drill", now=now + timedelta(days=1)) == ["Re4", "Sol3"]
        # When all four are due, still the most-missed first.
        later = store.due("drill", now=now + timedelta(days=30))
        assert later[:2] == ["Re4", "Sol3"] and set(later[2:]) == {"La3", "Do4"}
        assert drill.summary["next_review"] == "Next review: tomorrow: Re4, Sol3"


def test_the_summary_names_the_next_day_in_spanish(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        drill = _first_session(store, language="es")
        assert drill.summary["next_review"] == "Próximo repaso: mañana: Re4, Sol3"


def test_a_state_kept_in_a_learning_step_by_an_earlier_version_moves_on_to_days(
    tmp_path: Path,
) -> None:
    """Files of the earlier version keep cards in learning steps of minutes: read as due
    (the step is over), and the next answer schedules them in days."""
    path = tmp_path / "ana.sqlite3"
    with ProgressStore(path, student="Ana") as store:
        store.record("drill", "Re4", "Mi", False, 900.0, time=_at(YESTERDAY))
    learning = ('{"card_id": 1, "state": 1, "step": 0, "stability": 0.212, "difficulty": 6.4,'
                f' "due": "{_at(YESTERDAY + timedelta(minutes=1))}",'
                f' "last_review": "{_at(YESTERDAY)}"}}')
    con = sqlite3.connect(path)
    con.execute("UPDATE memory SET card = ? WHERE item = 'Re4'", (learning,))
    con.commit()
    con.close()
    with ProgressStore(path) as store:
        assert store.due("drill") == ["Re4"]
        store.record("drill", "Re4", "Re", True, 800.0)
        card = store.memory("drill").cards["Re4"]
        assert card.state.name == "Review" and card.due - NOW >= timedelta(days=1) - timedelta(
            seconds=5
        )


@pytest.mark.parametrize("answers", [
    (Rating.Good,), (Rating.Again,), (Rating.Hard, Rating.Good),
    (Rating.Good, Rating.Good, Rating.Good), (Rating.Again, Rating.Again, Rating.Easy),
], ids=["good", "again", "hard_good", "good_x3", "again_again_easy"])
def test_the_chance_of_recall_is_fsrs_own_curve_at_whole_days(answers: tuple[Rating, ...]) -> None:
    """The memory counts time to the second, so it computes FSRS's forgetting curve itself
    (the package counts whole days); at whole days it is the package's own number, so its
    decay and factor are the scheduler's (parameter 20), not a copy that could drift."""
    card = Card()
    when = datetime(2026, 3, 2, 9, 30, tzinfo=timezone.utc)
    for answer in answers:
        card, _ = memory.scheduler().review_card(card, answer, when)
        when = card.due
    assert card.last_review is not None
    for days in (0, 1, 2, 3, 7, 30, 365):
        at = card.last_review + timedelta(days=days)
        ours = memory._chance_of_recall(card, at)
        theirs = memory.scheduler().get_card_retrievability(card, at)
        assert math.isclose(ours, theirs, rel_tol=1e-12), (days, ours, theirs)
    assert memory._chance_of_recall(card, card.last_review + timedelta(days=2)) < 1.0
