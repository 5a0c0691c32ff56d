"""S17: computer players — reaction-time models and mistake rates, deciding from a seat's view."""

from __future__ import annotations

import random
import statistics

import pytest

from musicgames.games import invariant_check, load_game
from musicgames.play import play_games
from musicgames.snap import (
    LEVELS,
    Bot,
    BotLevel,
    CloseSlaps,
    ConfigError,
    Flip,
    Phase,
    SeatView,
    Slap,
    SnapConfig,
    SnapState,
    cards_of,
    new_game,
    stacked_deal,
)

DO3 = cards_of("Do3")[0]
RE3 = cards_of("Re3")[0]


def slap_view(card: int, players: int = 2, **settings: object) -> SeatView:
    """The view of seat 1 with ``card`` just flipped by seat 0 (who called Do)."""
    config = SnapConfig(players=players, **settings)  # type: ignore[arg-type]
    state = SnapState.from_deal(stacked_deal([[card]] + [[]] * (players - 1)), config)
    state.apply(Flip(0))
    return state.view(1)


def test_s17_there_are_three_levels_from_slow_and_sloppy_to_fast_and_careful() -> None:
    beginner, intermediate, expert = (LEVELS[k] for k in ("beginner", "intermediate", "expert"))
    assert beginner.mean_ms > intermediate.mean_ms > expert.mean_ms
    for rate in ("false_slap_rate", "miss_rate", "wrong_call_rate"):
        assert getattr(beginner, rate) > getattr(intermediate, rate) > getattr(expert, rate)


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_s17_reaction_times_follow_the_level_ex_gaussian(name: str) -> None:
    level = LEVELS[name]
    rng = random.Random(17)
    times = [level.draw_ms(rng) for _ in range(20_000)]
    assert min(times) >= level.floor_ms
    assert statistics.fmean(times) == pytest.approx(level.mean_ms, rel=0.03)
    # ex-Gaussian: variance sigma² + tau², and skewed to the right (mean above median)
    assert statistics.pstdev(times) == pytest.approx(
        (level.sigma_ms**2 + level.tau_ms**2) ** 0.5, rel=0.06
    )
    assert statistics.fmean(times) > statistics.median(times)


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_s17_false_slaps_and_missed_matches_happen_at_the_level_rates(name: str) -> None:
    level = LEVELS[name]
    bot = Bot(1, level, random.Random(3))
    trials = 20_000
    match_view, other_view = slap_view(DO3), slap_view(RE3)
    assert match_view.is_match and not other_view.is_match
    missed = sum(bot.react(match_view) is None for _ in range(trials)) / trials
    false = sum(bot.react(other_view) is not None for _ in range(trials)) / trials
    # a drawn time past the 2.5 s window is a miss too, so the miss rate is a floor
    assert level.miss_rate - 0.01 < missed < level.miss_rate + 0.02
    assert false == pytest.approx(level.false_slap_rate, abs=0.006)


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_s17_wrong_calls_happen_only_when_the_bot_calls_for_itself(name: str) -> None:
    level = LEVELS[name]
    self_state = new_game(random.Random(1), SnapConfig(players=2, call_modes=("self", "self")))  # type: ignore[arg-type]
    auto_state = new_game(random.Random(1), SnapConfig(players=2))
    bot = Bot(0, level, random.Random(4))
    trials = 20_000
    calls = [bot.flip(self_state.view(0)).call for _ in range(trials)]
    wrong = sum(call != "Do" for call in calls) / trials
    assert wrong == pytest.approx(level.wrong_call_rate, abs=0.006)
    assert set(calls) <= {"Do", "Re", "Si"}  # a slip skips or repeats one name
    assert all(bot.flip(auto_state.view(0)) == Flip(0) for _ in range(1000))


def test_s17_a_bot_decides_only_from_its_seat_view() -> None:
    assert "hands" not in SeatView._fields and "pile" not in " ".join(SeatView._fields)
    # two tables that look the same from the seats but hide different pile orders
    first = stacked_deal([[DO3], []])
    second = [first[0][:-1][::-1] + first[0][-1:], first[1][::-1]]
    a = SnapState.from_deal(first, SnapConfig(players=2))
    b = SnapState.from_deal(second, SnapConfig(players=2))
    assert a.pile(0) != b.pile(0)
    for state in (a, b):
        state.apply(Flip(0))
    assert a.view(1) == b.view(1)
    bot_a, bot_b = Bot(1, "beginner", random.Random(8)), Bot(1, "beginner", random.Random(8))
    assert [bot_a.choose(a.view(1)) for _ in range(50)] == [
        bot_b.choose(b.view(1)) for _ in range(50)
    ]


def test_s17_a_bot_flips_only_on_its_turn_and_slaps_each_card_once() -> None:
    state = new_game(random.Random(2), SnapConfig(players=3))
    bots = [Bot(s, "expert", random.Random(s)) for s in range(3)]
    assert bots[1].choose(state.view(1)) is None
    assert bots[0].choose(state.view(0)) == Flip(0)
    state.apply(Flip(0))
    state.apply(Slap(1, 500.0))
    assert bots[1].react(state.view(1)) is None  # it has slapped already
    state.apply(CloseSlaps())
    assert state.phase is Phase.FLIP


def test_s17_a_reaction_after_the_window_is_no_slap() -> None:
    slow = BotLevel("slow", mu_ms=3000.0, sigma_ms=10.0, tau_ms=10.0,
                    false_slap_rate=0.0, miss_rate=0.0, wrong_call_rate=0.0)
    view = slap_view(DO3, slap_window_ms=1000.0)
    assert Bot(1, slow, random.Random(1)).react(view) is None


def test_s17_levels_reject_impossible_numbers() -> None:
    with pytest.raises(ConfigError, match="miss_rate"):
        BotLevel("x", 500.0, 50.0, 100.0, false_slap_rate=0.1, miss_rate=1.5, wrong_call_rate=0)
    with pytest.raises(ConfigError, match="tau_ms"):
        BotLevel("x", 500.0, 50.0, -1.0, false_slap_rate=0.1, miss_rate=0.1, wrong_call_rate=0)
    with pytest.raises(ConfigError, match="grandmaster"):
        Bot(0, "grandmaster", random.Random(1))
    with pytest.raises(ConfigError, match="random.Random"):
        Bot(0, "expert", "5")  # type: ignore[arg-type]


def test_s17_a_class_can_pick_opponents_it_can_beat() -> None:
    table = load_game("note_snap", players=3, call_modes=("self",) * 3)
    report = play_games(table, ["beginner", "intermediate", "expert"], 150, seed=5,
                        check=invariant_check(table))
    wins = report.wins_by_bot()
    assert report.problems == 0
    assert wins["expert"] > wins["intermediate"] > wins["beginner"]
    assert sum(wins.values()) == pytest.approx(1.0)
    auto = load_game("note_snap", players=2, call_modes=("auto", "auto"))
    report = play_games(auto, ["intermediate", "intermediate"], 50, seed=6,
                        check=invariant_check(auto))
    assert report.problems == 0
