"""The run loop of a Note Snap table (musicgames.snap.table), on a hand-turned clock: the
computer players' pause (S15), the slap window and its early close (S14), pauses and a
timed game's end — with nothing sleeping."""

from __future__ import annotations

import pytest

from musicgames.snap import (
    Bot,
    Flip,
    GameLength,
    Outcome,
    Phase,
    Reason,
    SnapConfig,
    SnapError,
    SnapState,
    new_game,
    stacked_deal,
)
from musicgames.snap.table import GRACE_MS, SETTLE_MS, SHOWN_TIMEOUT_MS, ManualClock, Table

DO, RE, MI = 0, 8, 16


def _table(first_flips: list[list[int]], computers: tuple[int, ...], **config: object
           ) -> tuple[Table, ManualClock, list[Outcome]]:
    players = len(first_flips)
    state = SnapState.from_deal(stacked_deal(first_flips), SnapConfig(players=players, **config))
    clock = ManualClock()
    judged: list[Outcome] = []
    bots = {seat: Bot(seat, "expert", seat) for seat in computers}
    table = Table(state, bots, clock, on_card=lambda outcomes, _flip: judged.extend(outcomes))
    return table, clock, judged


def test_s15_a_computer_player_flips_after_its_pause_and_a_person_when_it_likes() -> None:
    table, clock, _ = _table([[RE], [MI]], computers=(0,), flip_pause_ms=300.0)
    table.start()
    clock.advance(299.0)
    assert table.state.flips == 0
    clock.advance(1.0)
    assert table.state.flips == 1 and table.card is not None


def test_s14_the_window_opens_when_the_page_paints_the_card_and_closes_after_it() -> None:
    table, clock, judged = _table([[RE], [MI]], computers=())
    table.start()
    table.flip(0)
    assert table.state.phase is Phase.SLAPS and "shown" in clock.pending
    clock.advance(500.0)
    table.shown(1)
    window = table.state.config.slap_window_ms
    clock.advance(window + GRACE_MS - 1)
    assert not judged
    clock.advance(1)
    assert [o.reason for o in judged] == [Reason.NO_SLAP]


def test_s14_no_page_painting_the_card_opens_the_window_all_the_same() -> None:
    table, clock, judged = _table([[RE], [MI]], computers=())
    table.start()
    table.flip(0)
    clock.advance(SHOWN_TIMEOUT_MS + table.state.config.slap_window_ms + GRACE_MS)
    assert [o.reason for o in judged] == [Reason.NO_SLAP]


def test_s14_v2_once_every_seat_decided_the_card_is_judged_soon_after() -> None:
    table, clock, judged = _table([[DO], [MI], [RE]], computers=(2,))
    table.start()
    table.flip(0)  # Do3 called Do: a match
    table.shown(1)
    due = max([*table.card.computer_slaps.values(), *table.card.computer_passes.values()])  # type: ignore[union-attr]
    table.slap(0, 1, 400.0)
    table.slap(1, 1, 450.0)
    clock.advance(due + SETTLE_MS - 1)
    assert not judged
    clock.advance(1)
    assert judged and judged[0].match


def test_a_pause_stops_the_computer_players_and_the_clock() -> None:
    table, clock, _ = _table([[RE], [MI]], computers=(0, 1), length=GameLength.TIMED,
                             time_limit_s=60.0)
    table.start()
    table.pause()
    clock.advance(10_000.0)
    assert table.state.flips == 0 and table.played_seconds() == 0.0
    table.resume()
    clock.advance(1_000.0)
    assert table.state.flips == 1 and table.played_seconds() == pytest.approx(1.0)


def test_a_timed_game_ends_between_two_cards_when_its_time_is_up() -> None:
    state = new_game(4, SnapConfig(players=2, length=GameLength.TIMED, time_limit_s=30.0))
    clock = ManualClock()
    table = Table(state, {0: Bot(0, "expert", 1), 1: Bot(1, "expert", 2)}, clock)
    table.start()
    clock.advance(60_000.0)
    assert state.is_terminal() and state.ended_by == "time_up"
    assert clock.pending == ()


def test_a_person_out_of_turn_or_on_a_stale_card_is_refused_and_nothing_changes() -> None:
    table, clock, _ = _table([[RE], [MI]], computers=())
    table.start()
    before = table.state.to_json()
    with pytest.raises(SnapError):
        table.flip(1)
    with pytest.raises(SnapError):
        table.slap(0, 1, 300.0)
    assert table.state.to_json() == before
    table.flip(0)
    with pytest.raises(SnapError):
        table.slap(1, 7, 300.0)  # not the card shown


def test_whole_games_of_computer_players_run_to_the_end_without_sleeping() -> None:
    for seed in range(5):
        state = new_game(seed, SnapConfig(players=3, call_modes=("self",) * 3,
                                          length=GameLength.SHORT, card_limit=60))
        clock = ManualClock()
        table = Table(state, {s: Bot(s, "intermediate", seed * 10 + s) for s in range(3)},
                      clock)
        table.start()
        for _ in range(10_000):
            if state.is_terminal():
                break
            clock.advance(100.0)
        assert state.is_terminal() and clock.pending == ()
        assert Flip(0) not in state.legal_actions()
