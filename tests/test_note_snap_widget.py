"""The Note Snap widget without a browser: its handlers fed the messages the page sends.

The page's JavaScript does not run here. Each test builds a widget, sends it the messages a
view would send (``ready``, ``shown``, ``slap``, ``flip``, ``new_game``, ``display``) and
checks what the kernel decided and what it would draw. The table's run loop is given a
hand-turned clock (:class:`musicgames.snap.table.ManualClock`): a test lets time pass with
``advance``, and nothing sleeps.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import musicgames.widgets
from musicgames.i18n import text
from musicgames.snap import (
    ConfigError,
    Outcome,
    Phase,
    Reason,
    Slapped,
    SnapConfig,
    SnapState,
    stacked_deal,
)
from musicgames.snap.config import MAX_CARD_LIMIT, MAX_PLAYERS, MIN_PLAYERS
from musicgames.snap.table import SHOWN_TIMEOUT_MS, ManualClock
from musicgames.theory import Naming
from musicgames.widgets import NoteSnapWidget, play_note_snap
from musicgames.widgets.note_snap import (
    AsyncioClock,
    GameRecord,
    SeatSetting,
    SettingsError,
    SnapSettings,
)

# Card ids (see musicgames.snap.cards): the cards of Do are 0–7, Re 8–15, Mi 16–23, ...
DO3, DO4, RE3, MI3, FA3, SOL3 = 0, 3, 8, 16, 24, 32


@pytest.fixture
def widgets() -> Iterator[list[NoteSnapWidget]]:
    """Widgets made by a test, closed (timers cancelled) when it ends."""
    made: list[NoteSnapWidget] = []
    yield made
    for widget in made:
        widget.close()


def table_for(widgets: list[NoteSnapWidget], **kwargs: Any) -> NoteSnapWidget:
    """A table; a classic game unless told otherwise (no game clock among the timers), on a
    hand-turned clock."""
    kwargs.setdefault("length", "classic")
    kwargs.setdefault("clock", ManualClock())
    widget = play_note_snap(**kwargs)
    widgets.append(widget)
    return widget


def advance(widget: NoteSnapWidget, ms: float) -> None:
    """Let ``ms`` pass on the table's hand-turned clock: every timer due runs, in order."""
    clock = widget.clock
    assert isinstance(clock, ManualClock)
    clock.advance(ms)


def page_source() -> str:
    """The page's own JavaScript: the view's class comes in three files."""
    folder = Path(musicgames.widgets.__file__).parent / "note_snap"
    return "\n".join(p.read_text("utf-8") for p in sorted(folder.glob("*.js")))


def send(widget: NoteSnapWidget, kind: str, **payload: Any) -> None:
    """Send a message as the page would (the current game unless told otherwise)."""
    payload.setdefault("game", widget.game_number)
    widget.receive({"type": kind, **payload})


def card_number(widget: NoteSnapWidget) -> int:
    card = widget.table["card"]
    assert card is not None
    return int(card["number"])


def outcomes(widget: NoteSnapWidget) -> list[Outcome]:
    return [e for e in widget.state.events if isinstance(e, Outcome)]


# -- settings -----------------------------------------------------------------------------


def test_one_person_slaps_with_space_and_people_sharing_a_keyboard_with_a_l_z_m(
    widgets: list[NoteSnapWidget],
) -> None:
    alone = table_for(widgets, people=1, computers=3)
    assert [s["key"] for s in alone.table["seats"]] == ["Space", "", "", ""]
    assert [s["name"] for s in alone.table["seats"]] == [
        "You", "Computer 1", "Computer 2", "Computer 3"]
    four = table_for(widgets, people=4, computers=0)
    assert [s["key"] for s in four.table["seats"]] == ["KeyA", "KeyL", "KeyZ", "KeyM"]
    assert [s["name"] for s in four.table["seats"]] == [
        "Player 1", "Player 2", "Player 3", "Player 4"]
    chosen = table_for(widgets, people=2, computers=1, keys=["KeyL", ""])
    assert [s["key"] for s in chosen.table["seats"]] == ["KeyL", "KeyA", ""]


@pytest.mark.parametrize(
    ("changes", "what", "words"),
    [
        ({"seats": (SeatSetting(),)}, "players", "2, 3 or 4"),
        ({"seats": (SeatSetting(),) * 5}, "players", "2, 3 or 4"),
        ({"seats": (SeatSetting("person", key="KeyQ"), SeatSetting("person", key="KeyQ"))},
         "same_key", "same key: Q"),
        ({"call_mode": "shout"}, "form", "settings form"),
        ({"language": "de"}, "form", "settings form"),
        ({"naming": "german"}, "naming", "Do Re Mi or C D E"),
        ({"slap_window_ms": -1}, "ms", "Slap window (ms) must be"),
        ({"tie_window_ms": 3000.0}, "windows", "shorter than"),
        ({"seed": 1.5}, "seed", "whole number"),
        ({"opener": 3}, "opener", "one of the 3"),
        ({"length": "forever"}, "length", "classic, short or timed"),
        ({"minutes": 0}, "minutes", "120 minutes"),
    ],
)
def test_settings_that_cannot_make_a_table_are_refused_with_the_reason(
    changes: dict[str, Any], what: str, words: str
) -> None:
    """Each error comes from the catalogue, in both languages, without Python syntax."""
    with pytest.raises(SettingsError, match=re.escape(words)) as caught:
        SnapSettings(**changes)
    assert caught.value.what == f"snap.error.{what}"
    for language in ("en", "es"):
        said = caught.value.say(language)
        assert not any(mark in said for mark in ("=", "'", "[", "{", "_ms")), said


@pytest.mark.parametrize("cards", [None, 1, 40, 1000, 1001, 10_000, 10_001, 0, -1, 10**5000,
                                   True, 2.5, "40"],
                         ids=["none", "1", "40", "1000", "1001", "10000", "10001", "0", "-1",
                              "5000_digits", "true", "2.5", "text"])
def test_the_card_limit_is_checked_once_by_the_engine_and_said_in_the_page_language(
    cards: object,
) -> None:
    """The table's settings take every card limit the engine takes and refuse the rest with
    the engine's bounds, in the page's words (no second, different range)."""
    try:
        SnapConfig(card_limit=cards)  # type: ignore[arg-type]
    except ConfigError as engine:
        assert engine.setting == "card_limit"
        with pytest.raises(SettingsError) as caught:
            SnapSettings(card_limit=cards)  # type: ignore[arg-type]
        assert caught.value.what == "snap.error.card_limit"
        assert f"1 to {MAX_CARD_LIMIT}" in caught.value.say("en")
        assert f"de 1 a {MAX_CARD_LIMIT}" in caught.value.say("es")
    else:
        assert SnapSettings(card_limit=cards).config().card_limit == cards  # type: ignore[arg-type]


def test_seat_settings_check_kind_level_and_key() -> None:
    with pytest.raises(SettingsError, match="person or a computer"):
        SeatSetting("robot")
    with pytest.raises(SettingsError, match="beginner, intermediate or expert"):
        SeatSetting("computer", "grandmaster")
    with pytest.raises(SettingsError, match="kept for flipping"):
        SeatSetting("person", key="Enter")
    with pytest.raises(SettingsError, match="kept for flipping"):
        SeatSetting("person", key="Digit3")
    with pytest.raises(SettingsError, match="N is kept for"):
        SeatSetting("person", key="KeyN")  # "no match"


def test_settings_round_trip_through_the_page_form() -> None:
    settings = SnapSettings(
        seats=(SeatSetting("person"), SeatSetting("computer", "expert")),
        pace_ms=300, call_mode="self", naming=Naming.LETTERS, language="es", seed=4,
    )
    again = SnapSettings.from_dict(json.loads(json.dumps(settings.to_dict())))
    assert again.to_dict() == settings.to_dict()
    assert again.config().call_modes[1].value == "self"  # computers call for themselves


def test_s3_the_settings_form_offers_the_engines_numbers_of_players(
    widgets: list[NoteSnapWidget],
) -> None:
    """How many may sit at the table is the engine's (S3): the form is sent it, the page has
    no list of its own, and the table refuses a number exactly when the engine does."""
    widget = table_for(widgets)
    assert widget.options["players"] == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    assert not re.search(r"\[\s*2\s*,\s*3\s*,\s*4\s*\]", page_source())
    for players in range(MIN_PLAYERS - 1, MAX_PLAYERS + 2):
        seats = (SeatSetting("person"),) + (SeatSetting("computer"),) * (players - 1)
        engine_plays = MIN_PLAYERS <= players <= MAX_PLAYERS
        try:
            SnapConfig(players=players)
        except ConfigError:
            assert not engine_plays
        else:
            assert engine_plays
        if engine_plays:
            assert SnapSettings(seats=seats).config().players == players
        else:
            with pytest.raises(SettingsError, match="cannot play"):
                SnapSettings(seats=seats)


def test_s3_settings_from_the_page_start_a_new_table(widgets: list[NoteSnapWidget]) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=1)
    widget.receive({"type": "new_game", "settings": {
        "seats": [{"kind": "person", "level": "expert", "key": ""},
                  {"kind": "person", "level": "expert", "key": ""},
                  {"kind": "computer", "level": "expert", "key": ""},
                  {"kind": "computer", "level": "beginner", "key": ""}],
        "pace_ms": 300, "slap_window_ms": 1500, "tie_window_ms": 20, "call_mode": "auto",
        "naming": "letters", "language": "en", "seed": 9}})
    assert widget.game_number == 2
    assert widget.state.players == 4 and widget.state.config.slap_window_ms == 1500
    assert [s["key"] for s in widget.table["seats"]] == ["KeyA", "KeyL", "", ""]
    assert [s["level"] for s in widget.table["seats"]] == [None, None, "expert", "beginner"]
    assert widget.table["names"][:3] == ["C", "D", "E"]
    assert widget.notice == ""


def test_bad_settings_from_the_page_leave_the_game_alone_and_say_why(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=1)
    before = widget.state.to_json()
    widget.receive({"type": "new_game", "settings": {"slap_window_ms": 5, "tie_window_ms": 10}})
    assert widget.game_number == 1 and widget.state.to_json() == before
    assert "cannot start a game" in widget.notice and "tie window (10 ms)" in widget.notice
    widget.receive({"type": "new_game", "settings": {"seats": [{"kind": "person", "key": "KeyQ"},
                    {"kind": "person", "key": "KeyQ"}], "language": "es"}})
    assert widget.notice == ("Con estos ajustes no se puede jugar: "
                             "Dos personas tienen la misma tecla: Q.")
    assert widget.refused[-1][0] == "new_game"


# -- messages that cannot be used -----------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        {"type": "jump"},
        {"kind": "slap"},
        "slap",
        {"type": "slap", "game": 1, "number": 1, "seat": 0, "reaction_ms": "fast"},
        {"type": "slap", "game": 1, "number": 1, "seat": 0, "reaction_ms": -5},
        {"type": "slap", "game": 1, "number": 1, "seat": 0, "reaction_ms": float("nan")},
        {"type": "slap", "game": 1, "number": 1, "seat": True, "reaction_ms": 300},
        {"type": "slap", "game": 1, "number": 1, "seat": 1, "reaction_ms": 300},  # a computer
        {"type": "slap", "game": 1, "number": 2, "seat": 0, "reaction_ms": 300},  # no card 2
        {"type": "slap", "game": 0, "number": 1, "seat": 0, "reaction_ms": 300},  # old game
        {"type": "slap", "game": 1, "number": 1, "seat": 0, "reaction_ms": 9000},  # late
        {"type": "flip", "game": 1, "seat": 0, "call": None},  # slaps are being collected
        {"type": "flip", "game": 1, "seat": 0, "call": 7},
        {"type": "shown", "game": 1, "number": "one"},
        {"type": "new_game", "settings": [1, 2]},
        {"type": "display", "language": "de"},
    ],
)
def test_a_message_that_cannot_be_used_changes_nothing_and_is_noted(
    widgets: list[NoteSnapWidget], message: Any
) -> None:
    widget = table_for(widgets, people=1, computers=1, seed=5)
    send(widget, "flip", seat=0, call=None)
    assert widget.state.phase is Phase.SLAPS
    before, table = widget.state.to_json(), widget.table
    widget.receive(message)
    assert widget.state.to_json() == before
    assert widget.table == table
    assert len(widget.refused) == 1


# -- one slap phase -------------------------------------------------------------------------


def test_s7_a_persons_slap_on_a_match_the_last_to_slap_takes_the_pile(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0)
    widget.new_game(hands=stacked_deal([[DO3], [RE3]]))  # seat 0 flips Do3 calling Do
    send(widget, "flip", seat=0, call=None)
    assert widget.table["card"]["note"] == "Do3" and widget.table["card"]["call"] == "Do"
    number = card_number(widget)
    send(widget, "slap", number=number, seat=1, reaction_ms=312.5)
    assert widget.table["slaps"] == [[1, 312.5]]  # the kernel's answer lists the slap
    send(widget, "slap", number=number, seat=0, reaction_ms=498.0)
    # Every seat slapped, so the phase is over at once (S14); seat 0 was last (S7).
    result = widget.table["result"]
    assert result["reason"] == "last_to_slap" and result["taker"] == 0
    assert result["slaps"] == [[1, 312.5], [0, 498.0]]
    assert widget.table["phase"] == "flip" and widget.table["turn"] == 0
    assert widget.table["centre"] == 0
    card = widget.record.cards[-1]
    assert (card.note, card.called, card.match, card.reactions) == (
        "Do3", "Do", True, (498.0, 312.5))
    assert (card.outcome, card.taker, card.cards_taken) == ("last_to_slap", 0, 1)


def test_s8_a_false_slap_takes_the_pile_when_the_window_closes(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0, slap_window_ms=200)
    widget.new_game(hands=stacked_deal([[RE3], [DO3]]))  # Re3 called Do: no match
    send(widget, "ready")
    send(widget, "flip", seat=0, call=None)
    number = card_number(widget)
    send(widget, "shown", number=number)
    send(widget, "slap", number=number, seat=1, reaction_ms=150.0)
    assert widget.state.phase is Phase.SLAPS  # seat 0 has not slapped: window open
    assert widget.pending_timers == ("close",)
    advance(widget, 600)  # the window (200 ms + grace) closes in the kernel
    result = widget.table["result"]
    assert (result["reason"], result["taker"], result["match"]) == ("false_slap", 1, False)
    assert widget.record.cards[-1].reactions == (None, 150.0)
    assert widget.pending_timers == ()


def test_s12_s13_two_last_slaps_closer_than_the_tie_window_are_a_tie(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=3, computers=0, tie_window_ms=10)
    widget.new_game(hands=stacked_deal([[DO3], [RE3], [MI3]]))
    send(widget, "flip", seat=0, call=None)
    number = card_number(widget)
    send(widget, "slap", number=number, seat=2, reaction_ms=250.0)
    send(widget, "slap", number=number, seat=0, reaction_ms=400.0)
    send(widget, "slap", number=number, seat=1, reaction_ms=405.0)
    result = widget.table["result"]
    assert (result["reason"], result["taker"], result["cards_taken"]) == ("tie", None, 0)
    assert result["slaps"] == [[2, 250.0], [0, 400.0], [1, 405.0]]
    # Nobody takes the pile: the round goes on with the next seat calling Re.
    assert widget.table["centre"] == 1 and widget.table["turn"] == 1
    assert widget.table["next_call"] == "Re"
    assert widget.record.cards[-1].outcome == "tie"


def test_s10_a_wrong_call_takes_the_pile_at_once(widgets: list[NoteSnapWidget]) -> None:
    widget = table_for(widgets, people=2, computers=0, call_mode="self")
    send(widget, "flip", seat=0, call="Re")  # the first call of a round is Do
    result = widget.table["result"]
    assert (result["reason"], result["taker"], result["call"], result["expected"]) == (
        "wrong_call", 0, "Re", "Do")
    assert widget.table["phase"] == "flip" and widget.table["turn"] == 0
    send(widget, "flip", seat=0, call=None)  # calling for yourself needs a name
    assert "give the name" in widget.refused[-1][1]


def test_s9_a_match_nobody_slapped_goes_to_the_next_flipper(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0, slap_window_ms=100)
    widget.new_game(hands=stacked_deal([[DO3], [MI3]]))
    send(widget, "ready")
    send(widget, "flip", seat=0, call=None)
    send(widget, "shown", number=card_number(widget))
    advance(widget, 500)
    assert widget.table["result"]["reason"] == "match_not_slapped"
    assert widget.record.cards[-1].reactions == (None, None)
    send(widget, "flip", seat=1, call=None)
    result = widget.table["result"]
    assert (result["reason"], result["taker"], result["cards_taken"]) == (
        "missed_match", 1, 2)


def test_s13_s14_computer_slaps_are_drawn_in_python_sent_with_the_card_and_judged_by_them(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=2, level="expert")
    for seed in range(200):  # a shuffle of the computers' minds where both slap
        widget.new_game(hands=stacked_deal([[DO3], [RE3], [MI3]]), seed=seed)
        send(widget, "flip", seat=0, call=None)
        if len(widget.table["card"]["computer_slaps"]) == 2:
            break
    send(widget, "ready")
    number = card_number(widget)
    planned = dict(widget.table["card"]["computer_slaps"])
    assert set(planned) == {1, 2}
    assert not [e for e in widget.state.events if isinstance(e, Slapped)]
    send(widget, "shown", number=number)
    send(widget, "slap", number=number, seat=0, reaction_ms=90.0)
    advance(widget, max(planned.values()) + 600)
    card = widget.record.cards[-1]
    assert card.reactions[0] == 90.0
    for seat, ms in planned.items():
        assert card.reactions[seat] == ms  # exactly the times the page was sent
    assert widget.table["result"]["slaps"][0] == [0, 90.0]


def test_everyone_slapped_closes_the_phase_once_the_last_computer_slap_is_due(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, level="expert", seed=2)
    for seed in range(200):  # a shuffle whose first card the computer will slap
        widget.new_game(hands=stacked_deal([[DO3], [RE3]]), seed=seed)
        send(widget, "flip", seat=0, call=None)
        if widget.table["card"]["computer_slaps"]:
            break
    [[_, due]] = widget.table["card"]["computer_slaps"]
    send(widget, "ready")
    send(widget, "shown", number=1)
    send(widget, "slap", number=1, seat=0, reaction_ms=100.0)
    advance(widget, due / 2)
    assert widget.state.phase is Phase.SLAPS  # the computer slap is not due yet
    advance(widget, due / 2 + 300)
    assert widget.state.phase is Phase.FLIP
    assert widget.table["result"]["taker"] == 1  # the computer slapped last
    # long before the 2.5 s window would have closed
    assert widget.record.cards[-1].reactions == (100.0, due)


def test_a_card_no_page_reports_as_shown_still_has_its_window(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0, slap_window_ms=100)
    widget.new_game(hands=stacked_deal([[RE3], [DO3]]))
    send(widget, "flip", seat=0, call=None)
    advance(widget, SHOWN_TIMEOUT_MS - 300)
    assert widget.state.phase is Phase.SLAPS
    advance(widget, 300 + 100 + 250 + 300)  # the window, from the timeout
    assert widget.table["result"]["reason"] == "no_slap"


def test_a_page_that_paints_the_card_late_still_gets_its_whole_window(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0, slap_window_ms=300)
    widget.new_game(hands=stacked_deal([[RE3], [DO3]]))
    send(widget, "flip", seat=0, call=None)
    advance(widget, SHOWN_TIMEOUT_MS + 100)  # the kernel opened the window
    send(widget, "shown", number=1)  # ... and now the page says it painted the card
    advance(widget, 250)
    send(widget, "slap", number=1, seat=1, reaction_ms=240.0)
    assert widget.state.phase is Phase.SLAPS and widget.table["slaps"] == [[1, 240.0]]
    advance(widget, 500)
    assert widget.table["result"]["reason"] == "false_slap"


# -- computer players and timers ------------------------------------------------------------


def test_s15_a_computer_flips_after_the_pace_pause_once_a_page_is_ready(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, pace_ms=150, opener=1, seed=3)
    advance(widget, 300)
    assert widget.state.flips == 0  # no page yet: the game waits
    send(widget, "ready")
    assert widget.pending_timers == ("flip",)
    advance(widget, 50)
    assert widget.state.flips == 0
    advance(widget, 200)
    assert widget.state.flips == 1 and widget.table["card"]["flipper"] == 1


def test_new_game_mid_game_cancels_every_timer_so_no_computer_slap_or_flip_arrives(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=2, level="expert", pace_ms=20,
                       slap_window_ms=400, opener=1)
    for seed in range(200):  # a first card both computers will slap
        widget.new_game(hands=stacked_deal([[SOL3], [DO3], [RE3]]), seed=seed)
        widget.table_loop._computer_flips()  # what the pace timer does
        if len(widget.table["card"]["computer_slaps"]) == 2:
            break
    send(widget, "ready")
    send(widget, "shown", number=1)
    old_state, old_game = widget.state, widget.game_number
    old_events = len(old_state.events)
    assert set(widget.pending_timers) == {"close"}
    advance(widget, 50)
    # The page's New game button, with the person opening, so the new game waits.
    widget.receive({"type": "new_game", "settings": {"opener": 0}})
    assert widget.pending_timers == ()
    send(widget, "slap", game=old_game, number=1, seat=0, reaction_ms=120.0)
    assert f"game {old_game} is over" in widget.refused[-1][1]
    advance(widget, 900)  # past the old pace, slap window and computer slaps
    assert len(old_state.events) == old_events  # nothing reached the old game
    assert old_state.phase is Phase.SLAPS
    assert widget.state is not old_state and widget.state.flips == 0
    assert len(widget.state.events) == 1  # the deal, and nothing since
    assert widget.table["card"] is None and widget.table["result"] is None
    assert widget.record.cards == [] and widget.pending_timers == ()


def test_close_cancels_every_timer(widgets: list[NoteSnapWidget]) -> None:
    widget = play_note_snap(people=1, computers=1, pace_ms=50, opener=1, seed=3,
                            clock=ManualClock())
    send(widget, "ready")
    assert widget.pending_timers == ("time_up", "flip")  # a timed game: its clock too
    widget.close()
    assert widget.pending_timers == ()
    advance(widget, 150)
    assert widget.state.flips == 0


def test_the_kernels_clock_runs_each_timer_as_an_asyncio_task_replaced_by_its_name() -> None:
    """The clock a notebook's table runs on (no real time passes: each step is due at 0 ms
    and the event loop is only given its turn)."""
    heard: list[str] = []
    failed: list[str] = []

    async def play() -> None:
        clock = AsyncioClock(lambda name, err: failed.append(f"{name}: {err}"))
        clock.later("flip", 0.0, lambda: heard.append("first"))
        clock.later("flip", 0.0, lambda: heard.append("second"))  # replaces the first
        clock.later("close", 0.0, lambda: heard.append("closed"))
        clock.cancel("close")
        clock.later("shown", 0.0, lambda: 1 / 0)  # a bug in a step: reported, not raised
        assert clock.pending == ("flip", "shown")
        for _ in range(3):
            await asyncio.sleep(0)
        assert clock.pending == ()

    asyncio.run(play())
    assert heard == ["second"] and failed == ["shown: division by zero"]
    outside = AsyncioClock()
    outside.later("flip", 0.0, lambda: heard.append("never"))  # no event loop: not started
    assert outside.pending == () and outside.now() > 0


def test_a_timer_that_fails_tells_the_page_and_the_game_goes_on(
    widgets: list[NoteSnapWidget],
) -> None:
    async def play() -> None:
        widget = play_note_snap(people=1, computers=1, pace_ms=0, opener=1, seed=3,
                                length="classic")
        widgets.append(widget)
        table = widget.table_loop

        def broken() -> None:
            raise RuntimeError("a bug")

        table._computer_flips = broken  # type: ignore[method-assign]
        send(widget, "ready")
        for _ in range(3):
            await asyncio.sleep(0)
        assert widget.notice == text("snap.error.internal", "en")
        assert widget.state.flips == 0 and not widget.state.is_terminal()

    asyncio.run(play())


def test_only_the_kernels_clock_knows_asyncio_or_time() -> None:
    """The widget's other modules take their time from the clock they are given, so a test's
    hand-turned clock stands in for the kernel's everywhere."""
    package = Path(musicgames.widgets.__file__).parent / "note_snap"
    for path in sorted(package.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        imports = set(re.findall(r"^(?:import|from) (\w+)", source, flags=re.MULTILINE))
        if path.name == "clock.py":
            assert {"asyncio", "time"} <= imports
        else:
            assert not imports & {"asyncio", "time"}, path.name
        assert "time.sleep" not in source, path.name


def test_a_burst_of_50_slaps_on_one_card_counts_each_seat_once(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=4, computers=0)
    widget.new_game(hands=stacked_deal([[RE3], [MI3], [FA3], [SOL3]]))
    send(widget, "flip", seat=0, call=None)
    number = card_number(widget)
    for i in range(50):  # a held key, a double click, two views of one widget...
        send(widget, "slap", number=number, seat=i % 3 + 1, reaction_ms=200.0 + i)
    slaps = [e for e in widget.state.events if isinstance(e, Slapped)]
    assert [(s.seat, s.reaction_ms) for s in slaps] == [(1, 200.0), (2, 201.0), (3, 202.0)]
    assert len(widget.refused) == 47
    assert all("already slapped" in why for _, why in widget.refused)


def test_50_slaps_in_a_burst_on_50_cards_are_each_counted_once(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=2, computers=0, seed=8)
    sent: list[tuple[int, int, float]] = []
    while len(sent) < 100 and not widget.state.is_terminal():
        seat = widget.state.to_flip
        assert seat is not None
        send(widget, "flip", seat=seat, call=None)
        if widget.state.phase is not Phase.SLAPS:
            continue
        number = card_number(widget)
        for slapper, ms in ((0, 300.0 + number), (1, 500.0 + number)):
            for _ in range(3):  # each slap arrives three times
                send(widget, "slap", number=number, seat=slapper, reaction_ms=ms)
            sent.append((number, slapper, ms))
    slapped = [e for e in widget.state.events if isinstance(e, Slapped)]
    assert len(slapped) == len(sent) >= 100
    by_card = {c.number: c.reactions for c in widget.record.cards}
    for number, seat, ms in sent:
        assert by_card[number][seat] == ms


# -- the end of a game ----------------------------------------------------------------------


class FakeProgress:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, bool | None, float | None]] = []

    def record(self, activity: str, item: str, answer: str, correct: bool | None,
               response_ms: float | None = None) -> None:
        self.rows.append((activity, item, answer, correct, response_ms))


def test_s11_a_person_out_of_cards_wins_when_someone_else_takes_the_pile(
    widgets: list[NoteSnapWidget],
) -> None:
    progress = FakeProgress()
    widget = play_note_snap(people=2, computers=0, seed=4, progress=progress)
    widgets.append(widget)
    finished: list[GameRecord] = []
    widget.on_game_over(finished.append)
    rest = [c for c in range(56) if c != RE3]
    widget.new_game(hands=[[RE3], rest])  # seat 0 holds one card, a Re3
    send(widget, "flip", seat=0, call=None)  # Re3 called Do: not a match
    send(widget, "slap", number=1, seat=1, reaction_ms=350.0)  # seat 1 slaps: false slap
    send(widget, "slap", number=1, seat=0, reaction_ms=800.0)
    table = widget.table
    assert table["phase"] == "over" and table["winners"] == [0]
    assert table["result"]["reason"] == "false_slap" and table["result"]["taker"] == 1
    assert [r.finished for r in widget.records] == [True] and finished == widget.records
    record = finished[0].to_dict()
    assert record["winners"] == [0] and record["seed"] == 4
    replayed = SnapState.from_json(record.pop("saved"))  # the whole game replays
    assert replayed.winners == (0,) and replayed.to_json() == widget.state.to_json()
    assert record["cards"] == [{
        "number": 1, "note": "Re3", "called": "Do", "expected": "Do", "flipper": 0,
        "match": False, "reactions": [800.0, 350.0], "outcome": "false_slap", "taker": 1,
        "cards_taken": 1,
    }]
    json.dumps(record)  # plain JSON data
    assert progress.rows == []  # two people share the keyboard: no one student's progress
    send(widget, "flip", seat=1, call=None)
    assert "the game is over" in widget.refused[-1][1]


def test_one_persons_cards_go_to_the_progress_store(widgets: list[NoteSnapWidget]) -> None:
    progress = FakeProgress()
    widget = play_note_snap(people=1, computers=1, level="expert", seed=4, progress=progress)
    widgets.append(widget)
    widget.new_game(hands=stacked_deal([[DO3, RE3], [MI3, FA3]]))
    send(widget, "flip", seat=0, call=None)  # Do3 called Do: a match
    send(widget, "slap", number=1, seat=0, reaction_ms=420.0)
    widget.table_loop._close_slaps()
    assert progress.rows[0] == ("note_snap", "Do3", "slap", True, 420.0)


def test_a_cards_result_is_sent_to_the_page_before_its_progress_is_written(
    widgets: list[NoteSnapWidget],
) -> None:
    """A progress write waits for the disk (tens of ms): the page's table does not."""
    shown: list[int | None] = []

    class Watching(FakeProgress):
        def record(self, *row: Any) -> None:
            shown.append((widget.table["result"] or {}).get("number"))
            super().record(*row)

    progress = Watching()
    widget = play_note_snap(people=1, computers=1, level="expert", seed=4, progress=progress)
    widgets.append(widget)
    widget.new_game(hands=stacked_deal([[DO3, RE3], [MI3, FA3]]))
    send(widget, "flip", seat=0, call=None)  # Do3 called Do: a match
    send(widget, "slap", number=1, seat=0, reaction_ms=420.0)
    widget.table_loop._close_slaps()
    assert progress.rows == [("note_snap", "Do3", "slap", True, 420.0)] and shown == [1]


# -- the page's look ------------------------------------------------------------------------


def test_one_persons_cards_go_to_a_real_progress_store(
    widgets: list[NoteSnapWidget], tmp_path: Any
) -> None:
    from musicgames.progress import ProgressStore

    with ProgressStore(tmp_path / "ana.sqlite3", student="Ana") as store:
        widget = play_note_snap(people=1, computers=1, seed=4, progress=store)
        widgets.append(widget)
        widget.new_game(hands=[[RE3], [c for c in range(56) if c != RE3]])
        send(widget, "flip", seat=0, call=None)  # Re3 called Do: not a match
        widget.table_loop._close_slaps()  # nobody slapped: right not to (a computer may)
        rows = [(a.activity, a.item, a.answer, a.correct) for a in store.answers()]
    assert rows[0] == ("note_snap", "Re3", "no slap", True)


def test_language_and_naming_change_without_a_new_game(widgets: list[NoteSnapWidget]) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=6)
    send(widget, "flip", seat=0, call=None)
    before = widget.state.to_json()
    widget.receive({"type": "display", "language": "es", "naming": "letters"})
    assert widget.game_number == 1 and widget.state.to_json() == before
    assert widget.strings["snap.button.new_game"] == "Nueva partida"
    assert [s["name"] for s in widget.table["seats"]] == ["Tú", "Computadora 1", "Computadora 2"]
    assert widget.table["names"] == ["C", "D", "E", "F", "G", "A", "B"]
    assert widget.table["card"]["label"][-1] in "456"  # scientific octave, e.g. G4
    assert [row["labels"] for row in widget.guide["rows"]][0] == ["C4", "D4", "E4", "F4"]


def test_s2_the_guide_card_shows_all_15_notes_with_their_names(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1)
    labels = [label for row in widget.guide["rows"] for label in row["labels"]]
    assert len(labels) == 15 and labels[0] == "Do3" and labels[-1] == "Do5"
    assert all(row["svg"].startswith("<svg") for row in widget.guide["rows"])
    assert len(widget.card_svgs) == 15 and all(s.startswith("<svg") for s in
                                                widget.card_svgs.values())


def test_both_languages_have_the_same_strings() -> None:
    from musicgames.i18n import catalogue

    assert set(catalogue("en", "snap.")) == set(catalogue("es", "snap."))
    for key in catalogue("en", "snap."):
        if key.endswith(".you"):  # the wording for "you" is a variant of a sentence
            assert key.removesuffix(".you") in catalogue("en", "snap.")


def test_every_string_the_page_uses_is_in_both_languages() -> None:
    import re

    from musicgames.i18n import LANGUAGES, catalogue

    source = page_source()
    used = set(re.findall(r'"(snap\.[a-z_.]+)"', source))
    used |= {f"snap.reason.{r.value}" for r in Reason}
    counted = set(re.findall(r'pluralKey\([^,]+, "(snap\.[a-z_.]+)"', source))  # key.one…
    assert counted, "the page says counts in the forms the language's plural rules choose"
    used = (used - counted) | {f"{key}.{form}" for key in counted for form in ("one", "other")}
    for language in LANGUAGES:
        missing = used - set(catalogue(language, "snap."))
        assert not missing, (language, missing)


def test_the_widget_has_its_javascript_and_css_from_files() -> None:
    widget = NoteSnapWidget()
    try:
        assert "requestAnimationFrame" in widget._esm and "performance.now()" in widget._esm
        assert ".mg-snap" in widget._css
    finally:
        widget.close()


# -- many games through the widget ----------------------------------------------------------


@pytest.mark.slow
def test_random_games_through_the_widget_keep_every_card_and_record_every_flip(
    widgets: list[NoteSnapWidget],
) -> None:
    """Whole games, with the page's messages drawn at random (stale, doubled and broken
    ones too) and the timers' steps called directly: the table sent to the page always
    agrees with the engine, and every card flipped has exactly one record."""
    import random

    finished = 0
    for seed in range(12):
        rng = random.Random(seed)
        widget = table_for(widgets, people=2, computers=2, level=["beginner", "expert"],
                           seed=seed, call_mode=rng.choice(["auto", "self"]))
        for _step in range(3000):
            state = widget.state
            if state.is_terminal():
                break
            if state.phase is Phase.FLIP:
                seat = state.to_flip
                assert seat is not None
                if seat >= 2:
                    widget.table_loop._computer_flips()  # the pace timer's step
                else:
                    call = None if state.config.call_modes[seat].value == "auto" else (
                        state.next_call if rng.random() < 0.9 else rng.choice(["Do", "Mi"]))
                    if rng.random() < 0.1:
                        send(widget, "flip", seat=1 - seat, call=call)  # not their turn
                    send(widget, "flip", seat=seat, call=call)
            else:
                number = card_number(widget)
                for person in (0, 1):
                    if rng.random() < 0.5:
                        ms = rng.uniform(0, 3000)  # some too late for the window
                        for _ in range(rng.randint(1, 3)):
                            send(widget, "slap", number=number, seat=person, reaction_ms=ms)
                if rng.random() < 0.1:
                    send(widget, "slap", number=number - 1, seat=0, reaction_ms=100)
                    widget.receive({"type": "slap", "seat": 0})
                if widget.state.phase is Phase.SLAPS:
                    widget.table_loop._close_slaps()  # the slap window's step
            state = widget.state
            table = widget.table
            assert sum(state.hand_sizes) + len(state.centre) == 56
            assert [s["cards"] for s in table["seats"]] == list(state.hand_sizes)
            assert table["centre"] == len(state.centre) and table["phase"] == state.phase.value
            open_card = 1 if state.phase is Phase.SLAPS else 0
            assert len(widget.record.cards) + open_card == state.flips
        assert widget.state.is_terminal(), f"seed {seed}: no winner in 3000 steps"
        finished += 1
        record = widget.records[-1]
        assert record.finished and record.winners == widget.state.winners
        assert [c.number for c in record.cards] == list(range(1, widget.state.flips + 1))
    assert finished == 12


# -- v2: passing, pausing, game length, looking back, the summary ---------------------------


def test_s14_v2_no_match_from_the_person_closes_the_window_once_computers_decided(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, level="expert", seed=2)
    widget.new_game(hands=stacked_deal([[RE3], [MI3]]))  # Re3 called Do: no match
    send(widget, "ready")
    send(widget, "flip", seat=0, call=None)
    number = card_number(widget)
    send(widget, "shown", number=number)
    card = widget.table_loop.card
    assert card is not None and len(card.computer_slaps) + len(card.computer_passes) == 1
    decided = max([*card.computer_slaps.values(), *card.computer_passes.values()])
    assert widget.table["pass_key"] == "KeyN"
    send(widget, "pass", number=number, seat=0, at_ms=300.0)
    assert widget.table["passes"] == [0]
    advance(widget, decided + 400)  # far less than the 2.5 s window
    assert widget.state.phase is Phase.FLIP and widget.record.cards[-1].number == number
    send(widget, "pass", number=number, seat=0, at_ms=350.0)
    assert "no longer waiting" in widget.refused[-1][1]


def test_pause_stops_computer_flips_and_the_game_clock_and_resume_goes_on(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, pace_ms=60, opener=1, seed=3,
                       length="timed")
    send(widget, "ready")
    widget.receive({"type": "pause", "paused": True})
    assert widget.paused and widget.table["paused"] and widget.pending_timers == ()
    played = widget.played_seconds()
    advance(widget, 250)
    assert widget.state.flips == 0 and widget.played_seconds() == played
    send(widget, "flip", seat=0, call=None)
    assert "paused" in widget.refused[-1][1]
    widget.receive({"type": "pause", "paused": False})
    advance(widget, 200)
    assert widget.state.flips == 1 and widget.played_seconds() > played


def test_a_paused_card_is_shown_again_with_its_whole_window(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, seed=3)
    widget.new_game(hands=stacked_deal([[RE3], [MI3]]))
    send(widget, "ready")
    send(widget, "flip", seat=0, call=None)
    number = card_number(widget)
    send(widget, "shown", number=number)
    widget.pause()
    assert widget.table_loop.card is not None and widget.table_loop.card.shown_at is None
    widget.resume()
    send(widget, "shown", number=number)  # the page painted it again after its 3-2-1
    assert widget.refused == [] and widget.state.phase is Phase.SLAPS


def test_a_timed_game_ends_when_its_time_is_up_and_says_why(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=8, length="timed",
                       minutes=0.002)  # 0.12 s
    send(widget, "ready")
    assert 0 < widget.table["time_left_s"] <= 0.12
    advance(widget, 400)
    assert widget.state.is_terminal() and widget.state.ended_by == "time_up"
    sizes = widget.state.hand_sizes
    assert list(widget.state.winners) == [i for i, n in enumerate(sizes) if n == min(sizes)]
    assert widget.table["summary"]["ended_by"] == "time_up"
    assert widget.records[-1].finished and widget.pending_timers == ()


def test_wrong_calls_show_their_card_and_the_history_keeps_the_last_five(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, seed=4, call_mode="self")
    for _ in range(7):
        if widget.state.to_flip != 0:
            widget.table_loop._computer_flips()
            if widget.state.phase is Phase.SLAPS:
                widget.table_loop._close_slaps()
            continue
        wrong = "Re" if widget.state.next_call != "Re" else "Mi"
        send(widget, "flip", seat=0, call=wrong)  # a wrong call: no slap phase (S10)
        result = widget.table["result"]
        assert result["reason"] == "wrong_call" and result["note"]  # the card is there
        assert widget.table["history"][0]["reason"] == "wrong_call"
        assert widget.table["history"][0]["note"] == result["note"]
    history = widget.table["history"]
    assert len(history) == 5
    assert [h["number"] for h in history] == sorted((h["number"] for h in history),
                                                    reverse=True)


def test_the_summary_counts_the_persons_matches_misses_and_false_slaps(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=1, seed=1)
    widget.new_game(hands=stacked_deal([[DO3, FA3, DO4], [SOL3, RE3, MI3]]))
    plays = {1: 420.0, 3: None, 5: 650.0}  # card 1 (Do3 on Do): slap; 3: miss; 5: false
    for _ in range(6):
        if widget.state.is_terminal():
            break
        if widget.state.to_flip == 0:
            send(widget, "flip", seat=0, call=None)
        else:
            widget.table_loop._computer_flips()
        if widget.state.phase is not Phase.SLAPS:
            continue
        number = card_number(widget)
        ms = plays.get(number)
        if ms is not None:
            send(widget, "slap", number=number, seat=0, reaction_ms=ms)
        if widget.state.phase is Phase.SLAPS:
            widget.table_loop._close_slaps()
    summary = widget.summary()
    cards = widget.record.cards
    hits = [c.reactions[0] for c in cards if c.match and c.reactions[0] is not None]
    assert summary["matches"] == len(hits) and summary["mean_ms"] == round(sum(hits) / len(hits))
    assert summary["misses"] == sum(
        1 for c in cards if c.slappable_match and c.reactions[0] is None)
    assert summary["false_slaps"] == sum(
        1 for c in cards if not c.match and c.reactions[0] is not None
        and c.outcome not in ("wrong_call", "missed_match"))
    assert summary["false_slaps"] >= 1 and summary["matches"] >= 1
    falsely = [c for c in cards if not c.match and c.reactions[0] is not None
               and c.slappable]
    assert [c["number"] for c in summary["false_cards"]] == [c.number for c in falsely]
    assert (summary["false_cards"][0]["label"], summary["false_cards"][0]["call"]) == (
        "Do4", falsely[0].called)
    assert "NoteDrill" not in json.dumps(widget.table)  # no Python shown to a child


@pytest.mark.parametrize(
    "message",
    [
        None, [], "slap", {"type": 3}, {"type": "pass"}, {"type": "pass", "game": "x"},
        {"type": "pass", "game": 1, "number": 1, "seat": 0, "at_ms": float("nan")},
        {"type": "pause"}, {"type": "pause", "paused": "yes"},
        {"type": "slap", "game": 1, "number": 1, "seat": [0], "reaction_ms": 100},
        {"type": "new_game", "settings": {"seats": [{"kind": ["x"]}]}},
        {"type": "new_game", "settings": {"seats": "abc"}},
        {"type": "new_game", "settings": {"hear_cards": "yes", "length": 5}},
        {"type": "new_game", "settings": {"minutes": {"a": 1}}},
        {"type": "display", "naming": 5}, {"type": "display", "language": "xx"},
    ],
)
def test_malformed_messages_are_refused_never_raised(
    widgets: list[NoteSnapWidget], message: Any
) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=1)
    before = widget.state.to_json()
    widget.receive(message)
    assert widget.refused and widget.state.to_json() == before and widget.game_number == 1
    assert "=" not in widget.notice and "'" not in widget.notice


def test_spanish_uses_the_sources_words_and_latin_american_keys() -> None:
    """"Poner la mano" and "las cartas comunes" (the source's words), "Enter" and
    "computadora" (Latin America); none of the words a Spanish reader found awkward."""
    from musicgames.i18n import catalogue

    spanish = catalogue("es", "snap.")
    words = " ".join(spanish.values())
    for gone in ("palmada", "Intro", "Centro", "Puesto", "barajado", "nombre dicho", "no dio"):
        assert gone not in words, gone
    assert spanish["snap.key.enter"] == "Enter"
    assert "poner la mano" in spanish["snap.seat.key"]
    assert spanish["snap.centre.pile"].startswith("Cartas comunes")
    assert spanish["snap.result.missed.you"] == "Tú: no pusiste la mano"
    assert spanish["snap.title"] != catalogue("en", "snap.")["snap.title"]


def test_a_computers_wrong_call_that_names_its_card_is_no_match_anyone_missed(
    widgets: list[NoteSnapWidget],
) -> None:
    """S10: a wrong call takes the pile at once, so nobody could slap the card, even when
    the wrong name happens to be the card's name: it is not a match you missed, and the
    last-card panel and the history do not call it a match."""
    from musicgames.snap import Flip

    widget = table_for(widgets, people=1, computers=1, seed=2)
    widget.new_game(hands=stacked_deal([[RE3], [MI3]]))
    send(widget, "flip", seat=0, call=None)  # Re3 called Do: no match
    widget.table_loop._close_slaps()
    assert widget.state.to_flip == 1 and widget.state.next_call == "Re"
    widget.table_loop._flip(Flip(1, "Mi"))  # the computer calls Mi out of order, on a Mi3 card
    card = widget.record.cards[-1]
    assert (card.outcome, card.match) == ("wrong_call", True)  # the engine's facts
    assert widget.summary()["misses"] == 0
    assert widget.table["result"]["match"] is False
    assert widget.table["result"]["slappable"] is False
    assert widget.table["history"][0]["match"] is False


def end_now(widget: NoteSnapWidget) -> None:
    """End a timed game between two cards, as its clock would (TimeUp)."""
    from musicgames.snap import TimeUp

    widget._state.apply(TimeUp())
    widget._end_game()
    widget._publish()


def test_game_over_standings_give_each_seat_its_place_and_cards(
    widgets: list[NoteSnapWidget],
) -> None:
    """The end of a game ranks every seat: winners first, then the fewest cards; equal
    counts share a place ("you came 3rd with 43 cards")."""
    widget = table_for(widgets, people=1, computers=3, seed=3, length="timed")
    end_now(widget)
    standings = widget.table["standings"]
    assert [s["cards"] for s in standings] == [14, 14, 14, 14]
    assert {s["place"] for s in standings} == {1}
    assert standings[0]["name"] == "You"
    widget.new_game(hands=[list(range(0, 10)), list(range(10, 53)), list(range(53, 55)),
                           [55]])
    end_now(widget)
    assert [(s["name"], s["place"], s["cards"]) for s in widget.table["standings"]] == [
        ("Computer 3", 1, 1), ("Computer 2", 2, 2), ("You", 3, 10), ("Computer 1", 4, 43)]


def test_practise_opens_a_note_drill_of_the_notes_hesitated_on(
    widgets: list[NoteSnapWidget],
) -> None:
    """The page's "Practise these notes" button: a drill of those very notes, in the
    table's naming and language, shown by the page (no Python code shown)."""
    from musicgames.widgets.note_drill import NoteDrill

    widget = table_for(widgets, people=1, computers=1, seed=1, naming="letters",
                       language="es", length="timed")
    widget.new_game(hands=stacked_deal([[DO3, FA3, DO4], [SOL3, RE3, MI3]]))
    send(widget, "practise")
    assert widget.practice == "" and "no notes to practise" in widget.refused[-1][1]
    for _ in range(6):  # the person never slaps: every match is missed
        if widget.state.to_flip == 0:
            send(widget, "flip", seat=0, call=None)
        else:
            widget.table_loop._computer_flips()
        if widget.state.phase is Phase.SLAPS:
            widget.table_loop._close_slaps()
    end_now(widget)
    hesitated = widget.summary()["hesitated"]
    assert hesitated
    send(widget, "practise")
    drill = widget.practice_drill
    assert isinstance(drill, NoteDrill)
    assert widget.practice == f"IPY_MODEL_{drill.model_id}"
    assert [n.solfege for n in drill.notes] == hesitated
    assert (drill.naming, drill.language) == (Naming.LETTERS, "es")
    send(widget, "close_practice")  # the practice's Close button
    assert widget.practice == "" and widget.practice_drill is None
    send(widget, "practise")
    widget.new_game()
    assert widget.practice == "" and widget.practice_drill is None


def test_the_page_is_sent_whether_the_card_shown_is_a_match_as_the_rules_judge_it(
    widgets: list[NoteSnapWidget],
) -> None:
    """The page colours slaps right or wrong and plays the right/wrong sound from the
    ``match`` the kernel sends with the card (S6, decided in the engine), never by comparing
    the note with the call itself."""
    widget = table_for(widgets, people=2, computers=0)
    widget.new_game(hands=stacked_deal([[DO3, FA3 + 1, SOL3], [RE3 + 1, MI3, DO4]]))
    seen: list[bool] = []
    for _ in range(6):
        send(widget, "flip", seat=widget.table["turn"], call=None)
        card = widget.table["card"]
        assert widget.state.phase is Phase.SLAPS
        assert card["match"] is widget.state.view(0).is_match  # the engine's judgement
        seen.append(card["match"])
        number = card_number(widget)
        send(widget, "slap", number=number, seat=0, reaction_ms=300.0)
        send(widget, "slap", number=number, seat=1, reaction_ms=450.0)
        judged = outcomes(widget)[-1]
        assert judged.match is card["match"] and widget.table["card"]["match"] is card["match"]
    assert True in seen and False in seen
    page = page_source()
    assert ".note.replace(" not in page  # the page never strips the octave to judge a match


def _play_slapping(widget: NoteSnapWidget, *, false_slaps: int, flips: int = 12) -> None:
    """The person slaps every match at 400 ms (no hesitation) and ``false_slaps`` cards
    that are not a match."""
    left = false_slaps
    for _ in range(flips):
        if widget.state.is_terminal():
            return
        if widget.state.to_flip == 0:
            send(widget, "flip", seat=0, call=None)
        else:
            widget.table_loop._computer_flips()
        if widget.state.phase is not Phase.SLAPS:
            continue
        number = card_number(widget)
        if widget.table["card"]["match"]:
            send(widget, "slap", number=number, seat=0, reaction_ms=400.0)
        elif left > 0:
            left -= 1
            send(widget, "slap", number=number, seat=0, reaction_ms=500.0)
        if widget.state.phase is Phase.SLAPS:
            widget.table_loop._close_slaps()


def test_the_end_summary_praises_only_a_game_without_hesitation_false_slap_or_miss(
    widgets: list[NoteSnapWidget],
) -> None:
    """False slaps and no hesitation: no "well read!"; the falsely slapped notes are offered
    for practice (and the practice drills them). A clean game is praised."""
    widget = table_for(widgets, people=1, computers=1, seed=1, length="timed")
    widget.new_game(hands=stacked_deal([[DO3, FA3, DO4], [SOL3, RE3, MI3]]))
    _play_slapping(widget, false_slaps=1)
    end_now(widget)
    summary = widget.table["summary"]
    assert summary["false_slaps"] == 1 and summary["hesitated"] == [] and summary["misses"] == 0
    falsely = [c for c in widget.record.cards if c.slappable and not c.match
               and c.reactions[0] is not None]
    assert summary["practice"] == [falsely[0].note]
    assert "well read" not in summary["advice"] and summary["advice"] == (
        f"Notes to practise: {summary['practice_labels'][0]}.")
    send(widget, "practise")
    assert [n.solfege for n in widget.practice_drill.notes] == summary["practice"]

    widget.new_game(hands=stacked_deal([[DO3, FA3, DO4], [SOL3, RE3, MI3]]))
    _play_slapping(widget, false_slaps=0)
    end_now(widget)
    summary = widget.table["summary"]
    assert (summary["false_slaps"], summary["misses"], summary["practice"]) == (0, 0, [])
    assert summary["advice"] == "No note held you up: well read!"


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_end_summary_is_whole_sentences_each_count_singular_or_plural(
    widgets: list[NoteSnapWidget], language: str
) -> None:
    """Every sentence of the summary ends with its full stop ("…not a match. Those cards:
    …"), and one of something is said in the singular ("1 match", "1 coincidencia")."""
    widget = table_for(widgets, people=1, computers=1, seed=1, length="timed",
                       language=language)
    widget.new_game(hands=stacked_deal([[DO3, FA3, DO4], [SOL3, RE3, MI3]]))
    _play_slapping(widget, false_slaps=1, flips=2)  # Do3 called Do, then a false slap
    end_now(widget)
    summary = widget.table["summary"]
    assert summary["matches"] == 1 and summary["false_slaps"] == 1
    for line in [*summary["ended"], *summary["lines"], summary["advice"]]:
        assert line.rstrip().endswith((".", "!")), line
    one = {"en": ("(1 match).", "1 card that was not a match.", "That card:"),
           "es": ("(1 coincidencia).", "1 carta que no coincidía.", "Esa carta:")}[language]
    words = " ".join(summary["lines"])
    for part in one:
        assert part in words, words
    assert "1 matches" not in words and "1 coincidencias" not in words


def test_a_card_limit_game_says_once_how_many_cards_it_lasted(
    widgets: list[NoteSnapWidget],
) -> None:
    widget = table_for(widgets, people=1, computers=2, seed=4, length="timed", card_limit=6,
                       pace_ms=0)
    _play_slapping(widget, false_slaps=0, flips=20)
    assert widget.state.ended_by == "card_limit"
    ended = widget.table["summary"]["ended"]
    assert ended == ["The game ended after 6 cards. The fewest cards win."]
    widget.new_game()
    end_now(widget)
    assert widget.table["summary"]["ended"][1] == "0 cards were flipped."


def test_s3_the_settings_ask_the_engine_how_many_may_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's settings do not compare the number of seats themselves: they ask the
    engine's one check (S3), so a change to the rule reaches the form too."""
    from musicgames.snap import config
    from musicgames.widgets.note_snap import settings

    def only_two(players: object) -> int:
        if players != 2:
            raise config.ConfigError("only two here", setting="players")
        return 2

    monkeypatch.setattr(settings, "check_players", only_two)
    with pytest.raises(SettingsError) as caught:
        SnapSettings(seats=(SeatSetting(), SeatSetting("computer"), SeatSetting("computer")))
    assert caught.value.what == "snap.error.players"
    SnapSettings(seats=(SeatSetting(), SeatSetting("computer")))
