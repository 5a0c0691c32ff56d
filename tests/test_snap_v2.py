"""Note Snap v2: passing and the early close of the slap window (S14 v2), game lengths,
human-like computer players, and games of classroom length.

Card ids: the deck is in name order, eight cards a name, so card ``8 * i`` is the first
card named ``CALL_CYCLE[i]`` (0 Do3, 8 Re3, 16 Mi3, 24 Fa3, ...).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from musicgames.games import invariant_check, load_game
from musicgames.play import play_games
from musicgames.snap import (
    LEVELS,
    Bot,
    CallMode,
    CloseSlaps,
    ConfigError,
    DoubleSlapError,
    Ended,
    Flip,
    GameLength,
    Pass,
    Passed,
    Phase,
    PhaseError,
    ReactionTimeError,
    Reason,
    Slap,
    SnapConfig,
    SnapState,
    TimeUp,
    action_from_json,
    action_to_json,
    check_invariants,
    from_events,
    new_game,
    play_game,
    stacked_deal,
)
from musicgames.snap.actions import ActionError
from musicgames.snap.simulate import TablePace, game_minutes

DO, RE, MI = 0, 8, 16
SOL, SI = 32, 48


def _game(first_flips: list[list[int]], **config: object) -> SnapState:
    players = len(first_flips)
    return SnapState.from_deal(stacked_deal(first_flips), SnapConfig(players=players, **config))


def test_s14_v2_the_window_closes_once_every_seat_slapped_or_passed() -> None:
    game = _game([[RE], [MI], [DO + 1]])  # seat 0 flips Re3 calling Do: no match
    game.apply(Flip(0))
    assert game.apply(Pass(1, 640.0)) == (Passed(1, 640.0),)
    assert game.phase is Phase.SLAPS and game.passed == (1,)
    game.apply(Pass(0, 700.0))
    events = game.apply(Pass(2, 910.0))
    outcome = events[-1]
    assert outcome.reason is Reason.NO_SLAP and outcome.taker is None
    assert game.phase is Phase.FLIP and game.to_flip == 1
    assert check_invariants(game) == []


def test_s14_v2_closing_early_never_changes_who_takes_the_pile() -> None:
    """A pass on a match counts as not slapping: the same seat takes the pile as when the
    window closes with that seat silent."""
    early = _game([[DO], [MI], [RE]])  # seat 0 flips Do3 calling Do: a match
    late = early.clone()
    for game in (early, late):
        game.apply(Flip(0))
        game.apply(Slap(2, 500.0))
        game.apply(Slap(0, 650.0))
    outcome_early = early.apply(Pass(1, 800.0))[-1]
    outcome_late = late.apply(CloseSlaps())[-1]
    assert outcome_early.taker == outcome_late.taker == 1
    assert outcome_early.reason is outcome_late.reason is Reason.LAST_TO_SLAP


def test_s14_v2_a_pass_is_final_and_bad_passes_change_nothing() -> None:
    game = _game([[RE], [MI], [DO + 1]])
    with pytest.raises(PhaseError):
        game.apply(Pass(1, 100.0))
    game.apply(Flip(0))
    game.apply(Pass(1, 300.0))
    saved = game.to_json()
    for bad, error in ((Slap(1, 400.0), DoubleSlapError), (Pass(1, 500.0), DoubleSlapError),
                       (Pass(2, 9000.0), ReactionTimeError), (Pass(2, -1.0), ReactionTimeError)):
        with pytest.raises(error, match="S14"):
            game.apply(bad)
        assert game.to_json() == saved


def test_passes_save_load_and_replay() -> None:
    game = _game([[RE], [MI], [DO + 1]])
    game.apply(Flip(0))
    game.apply(Pass(2, 300.0))
    game.apply(Slap(1, 420.0))
    game.apply(CloseSlaps())
    assert SnapState.from_json(game.to_json()).to_json() == game.to_json()
    assert from_events(game.events, game.config).to_json() == game.to_json()
    assert action_from_json(action_to_json(Pass(2, 300.0))) == Pass(2, 300.0)
    with pytest.raises(ActionError):
        action_from_json(["pass", 1])


def test_short_game_the_first_to_empty_a_hand_wins_at_once() -> None:
    # Seat 0 holds one card (a Re: no match on Do); it flips it and nobody slaps.
    piles = stacked_deal([[RE], [MI]])
    piles[1] = piles[0][:-1] + piles[1]
    piles[0] = piles[0][-1:]
    game = SnapState.from_deal(piles, SnapConfig(players=2, length=GameLength.SHORT))
    game.apply(Flip(0))
    events = game.apply(CloseSlaps())
    assert game.is_terminal() and game.winners == (0,) and game.ended_by == "hand_emptied"
    assert isinstance(events[-1], Ended) and game.centre  # no need for an empty centre
    assert check_invariants(game) == []
    classic = SnapState.from_deal(piles, SnapConfig(players=2))
    classic.apply(Flip(0))
    classic.apply(CloseSlaps())
    assert not classic.is_terminal()  # S11: seat 0 waits for someone to take the pile


def test_short_game_ends_when_a_hand_reaches_the_limit() -> None:
    piles = stacked_deal([[RE], [MI]])
    piles = [piles[0][-1:] + piles[1][:20], piles[1][20:] + piles[0][:-1]]
    piles[0].append(piles[0].pop(0))  # seat 0's top card: the Re
    game = SnapState.from_deal(piles, SnapConfig(players=2, length=GameLength.SHORT,
                                                 hand_limit=36))
    assert game.hand_sizes == (21, 35)
    game.apply(Flip(0))
    game.apply(Slap(1, 400.0))  # a false slap: seat 1 takes the card and holds 36
    game.apply(CloseSlaps())
    assert game.is_terminal() and game.ended_by == "hand_limit" and game.winners == (0,)
    assert check_invariants(game) == []


def test_timed_game_time_up_between_cards_and_fewest_cards_win() -> None:
    game = _game([[RE], [MI], [DO + 1]], length=GameLength.TIMED)
    assert TimeUp() in game.legal_actions()
    game.apply(Flip(0))
    with pytest.raises(PhaseError):
        game.apply(TimeUp())
    game.apply(Slap(2, 400.0))  # a false slap: seat 2 takes 1 card
    game.apply(CloseSlaps())
    game.apply(TimeUp())
    assert game.winners == (0,) and game.ended_by == "time_up"
    assert check_invariants(game) == []
    assert from_events(game.events, game.config).to_json() == game.to_json()
    classic = _game([[RE], [MI], [DO + 1]])
    with pytest.raises(ActionError, match="no time limit"):
        classic.apply(TimeUp())


def test_card_limit_ends_the_game_once_that_many_cards_are_judged() -> None:
    """A lesson's game "ends after 40 cards": with ``card_limit`` the game ends as soon as
    that many cards have been flipped and the last one judged; the fewest cards win."""
    game = _game([[RE], [SOL], [SI]], length=GameLength.SHORT, card_limit=3)
    game.apply(Flip(0))  # Re called Do: no match
    game.apply(CloseSlaps())
    game.apply(Flip(1))  # Sol called Re
    game.apply(CloseSlaps())
    game.apply(Flip(2))  # Si called Mi: the third card, open for slaps
    game.apply(Slap(0, 300.0))  # a false slap
    assert not game.is_terminal()  # not before the card is judged
    events = game.apply(CloseSlaps())  # seat 0 takes the centre pile (S8)
    assert isinstance(events[-1], Ended) and events[-1].reason == "card_limit"
    assert game.is_terminal() and game.ended_by == "card_limit" and game.flips == 3
    sizes = game.hand_sizes
    assert game.winners == tuple(s for s in range(3) if sizes[s] == min(sizes))
    assert check_invariants(game) == []
    assert SnapState.from_json(game.to_json()).to_json() == game.to_json()
    assert from_events(game.events, game.config).to_json() == game.to_json()
    for bad in (0, -1, 2.5, True, "40", 10**400):
        with pytest.raises(ConfigError, match="card_limit"):
            SnapConfig(players=2, card_limit=bad)  # type: ignore[arg-type]


def test_game_length_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="length"):
        SnapConfig(players=2, length="forever")
    with pytest.raises(ConfigError, match="hand_limit"):
        SnapConfig(players=2, hand_limit=80)
    with pytest.raises(ConfigError, match="time_limit_s"):
        SnapConfig(players=2, time_limit_s=0)
    config = SnapConfig(players=3, length="timed", time_limit_s=120)
    assert SnapConfig.from_dict(config.to_dict()) == config


def test_s17_two_bots_of_one_level_have_their_own_speed() -> None:
    bots = [Bot(seat, "expert", random.Random(seed)) for seat, seed in ((0, 11), (1, 12))]
    assert bots[0].speed != bots[1].speed
    speeds = [Bot(0, "expert", random.Random(n)).speed for n in range(400)]
    assert 0.08 < statistics.pstdev(speeds) < 0.16  # about 12 % between people
    game = new_game(random.Random(5), SnapConfig(players=3))
    game.apply(Flip(0))
    times = []
    for _ in range(200):  # each card's times drawn on their own per seat
        a, b = (bot.decide(game.view(bot.seat)) for bot in bots)
        times.append((a.at_ms if isinstance(a, Pass) else a.reaction_ms,
                      b.at_ms if isinstance(b, Pass) else b.reaction_ms))
    close = sum(abs(x - y) < 10 for x, y in times)
    assert close < 40
    assert abs(statistics.correlation([x for x, _ in times], [y for _, y in times])) < 0.2


def test_s17_a_beginner_errs_about_once_every_15_to_20_cards() -> None:
    """Counted in simulated games at a table of three: false slaps, misses and wrong calls
    of one beginner seat, per card flipped."""
    errors = cards = 0
    config = SnapConfig(players=3, call_modes=(CallMode.SELF,) * 3)
    for seed in range(60):
        state = play_game(["beginner", "intermediate", "intermediate"], seed, config=config,
                          check=False).state
        cards += state.flips
        for event in state.events:
            if type(event).__name__ != "Outcome":
                continue
            false_slap = event.reason is Reason.FALSE_SLAP and event.taker == 0
            wrong_call = event.reason is Reason.WRONG_CALL and event.flipper == 0
            if false_slap or wrong_call:
                errors += 1
            elif event.match and 0 not in {s.seat for s in event.slaps}:
                errors += 1  # a miss (or too slow to slap within the window)
    per = cards / errors
    assert 13 <= per <= 22, f"one beginner error every {per:.1f} cards"
    assert 15 <= 1 / LEVELS["beginner"].errors_per_card(3) <= 20


def test_simulate_reports_still_play_whole_games() -> None:
    table = load_game("note_snap", players=3, call_modes=("self",) * 3)
    report = play_games(table, ["beginner", "beginner", "expert"], 30, seed=3,
                        check=invariant_check(table))
    assert report.games == 30 and report.problems == 0 and report.unfinished == 0


def test_a_game_against_two_beginners_at_default_settings_lasts_under_six_minutes() -> None:
    """The widget's default table (one person, two beginners) simulated in table time, the
    person played by an intermediate computer player who never presses "no match" (the
    slowest case: every non-match then stays open for the whole window)."""
    from musicgames.widgets.note_snap.settings import SnapSettings, table_seats

    settings = SnapSettings(seats=table_seats(1, 2, "beginner", None))
    config = settings.config()
    pace = TablePace(flip_ms=settings.pace_ms, passes=(False, True, True))
    minutes = game_minutes(["intermediate", "beginner", "beginner"], 200, seed=13,
                           config=config, pace=pace)
    median = statistics.median(minutes)
    assert 4.0 <= median < 6.0, f"median {median:.1f} min"
    assert max(minutes) < 6.0


def test_lesson_3s_game_ends_after_40_cards_and_lasts_at_most_3_minutes() -> None:
    """Lesson 3 promises a short game that ends "after 40 cards": simulated in table time
    with the lesson's own settings (a person and a beginner), the person played by a
    beginner or an intermediate computer player who never presses "no match" (the slowest
    case), no game lasts more than 3 minutes and none flips more than 40 cards."""
    from musicgames.lessons.page import open_lesson

    lesson = open_lesson("03-reading-fast", "en", remember=False, record=False)
    game = lesson.show("note-snap").children[0]
    settings = game.settings
    config = settings.config()
    for person in ("beginner", "intermediate"):
        pace = TablePace(flip_ms=settings.pace_ms, passes=(False, True))
        minutes = game_minutes([person, "beginner"], 150, seed=3, config=config, pace=pace)
        assert max(minutes) <= 3.0, f"{person}: longest {max(minutes):.2f} min"
    states = [play_game(["beginner", "beginner"], seed, config=config, check=True).state
              for seed in range(40)]
    assert all(s.flips <= 40 and s.is_terminal() for s in states)
    assert any(s.ended_by == "card_limit" for s in states)
    game.close()


def test_the_short_game_of_settings_is_lesson_3s_game_and_lasts_at_most_3_minutes() -> None:
    """"Short" in Settings ends after 40 cards flipped too, as lesson 3's game does: at the
    default table (a person and two beginners, the person played by a beginner or an
    intermediate computer player who never presses "no match": the slowest case) no game
    lasts more than 3 minutes or flips more than 40 cards."""
    from musicgames.widgets.note_snap.settings import SnapSettings, table_seats

    settings = SnapSettings(seats=table_seats(1, 2, "beginner", None), length="short")
    config = settings.config()
    assert config.card_limit == 40 and config.length is GameLength.SHORT
    lesson = SnapSettings.from_dict({"seats": [{"kind": "person"}, {"kind": "computer"}],
                                     "length": "short", "card_limit": 40})
    assert replace(lesson.config(), players=3, call_modes=config.call_modes) == config
    for person in ("beginner", "intermediate"):
        pace = TablePace(flip_ms=settings.pace_ms, passes=(False, True, True))
        minutes = game_minutes([person, "beginner", "beginner"], 150, seed=5, config=config,
                               pace=pace)
        assert max(minutes) <= 3.0, f"{person}: longest {max(minutes):.2f} min"
    states = [play_game(["beginner"] * 3, seed, config=config, check=True).state
              for seed in range(40)]
    assert all(s.flips <= 40 and s.is_terminal() for s in states)


def test_lesson_3s_game_ends_when_someone_holds_40_and_the_readme_says_so() -> None:
    """Lesson 3's game (short, 40-card limit) ends when a player holds 40 cards, even before
    40 cards are flipped; the README's lesson list names all three ways it ends."""
    others = [card for card in range(56) if card != RE]
    piles = [others[:16] + [RE], others[16:]]  # seat 0 flips the Re; seat 1 holds 39
    game = SnapState.from_deal(piles, SnapConfig(players=2, length=GameLength.SHORT,
                                                 card_limit=40))
    assert game.hand_sizes == (17, 39) and game.config.hand_limit == 40
    game.apply(Flip(0))  # called Do: no match
    game.apply(Slap(1, 400.0))  # a false slap: seat 1 takes the card and holds 40
    game.apply(CloseSlaps())
    assert game.is_terminal() and game.ended_by == "hand_limit" and game.flips == 1
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    said = " ".join(readme[readme.index("- Lesson 3's Note Snap game"):].split("\n- ")[0].split())
    assert "empties their hand" in said and "holds 40 cards" in said, said
    assert "40 cards have been flipped" in said, said
