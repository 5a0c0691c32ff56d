"""Many seeded random games: computer players and random actions, illegal ones mixed in.

The suite plays a seeded sample (``SAMPLE_SEEDS``: it reaches every line of the engine that
the full soak reaches); ``make soak`` plays all ``SOAK_SEEDS``.

After every action every invariant is checked (``check_invariants``): all 56 cards in the
piles and the centre, turn order, the call cycle, the S9 flag, winners only without cards.
Every illegal action must raise its typed error and leave ``to_json()`` unchanged; every
game must end. Also: save mid-game, load, continue = the same game; same seed and actions
= the same game.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

import pytest

from musicgames.snap import (
    LEVELS,
    ActionError,
    Bot,
    CallError,
    CallMode,
    CallModeError,
    CloseSlaps,
    DoubleSlapError,
    Flip,
    Flipped,
    GameOverError,
    LateSlapError,
    NotYourTurnError,
    Outcome,
    Pass,
    Phase,
    PhaseError,
    ReactionTimeError,
    Reason,
    SaveError,
    SeatError,
    Slap,
    SnapConfig,
    SnapError,
    SnapState,
    check_invariants,
    new_game,
    play_game,
    replay,
)

SOAK_SEEDS = range(10_000)  # make soak (pytest --soak): before a release
# The suite's sample: every line of the engine that the 10,000 games reach, these reach too;
# game 1169 is the first in which nobody can flip and the flipper takes the pile back (S16).
SAMPLE_SEEDS = (*range(200), 1169)
MAX_FLIPS = 100_000
ILLEGAL_RATE = 0.03
ILLEGAL_PER_GAME = 6
LEVEL_NAMES = sorted(LEVELS)

Maker = Callable[[SnapState, random.Random], tuple[object, type[SnapError]] | None]


def _other_seat(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    seat = state.to_flip
    if seat is None:
        return None
    others = [s for s in range(state.players) if s != seat]
    return Flip(rng.choice(others)), NotYourTurnError


def _missing_seat(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]]:
    seat = rng.choice([-1, state.players, state.players + 3, "1", 1.0, None])
    action = Flip(seat) if state.phase is Phase.FLIP else Slap(seat, 300.0)  # type: ignore[arg-type]
    return action, SeatError


def _slap_now(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    if state.phase is not Phase.FLIP:
        return None
    return rng.choice([Slap(0, 200.0), CloseSlaps()]), PhaseError


def _flip_now(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    if state.phase is not Phase.SLAPS:
        return None
    return Flip(rng.randrange(state.players)), PhaseError


def _bad_time(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    if state.phase is not Phase.SLAPS:
        return None
    seat = rng.choice(state.legal_actions().slappers)
    window = state.config.slap_window_ms
    ms, error = rng.choice(
        [
            (-0.5, ReactionTimeError),
            (math.nan, ReactionTimeError),
            ("fast", ReactionTimeError),
            (window + 0.25, LateSlapError),
        ]
    )
    return Slap(seat, ms), error  # type: ignore[arg-type]


def _double_slap(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    if not state.slaps:
        return None
    return Slap(rng.choice(state.slaps).seat, 100.0), DoubleSlapError


def _bad_call(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]] | None:
    seat = state.to_flip
    if seat is None:
        return None
    if state.config.call_modes[seat] is CallMode.AUTO:
        return Flip(seat, rng.choice(["Do", "Re"])), CallModeError
    return rng.choice([(Flip(seat, None), CallModeError), (Flip(seat, "Ut"), CallError),
                       (Flip(seat, "Sol4"), CallError)])


def _not_an_action(state: SnapState, rng: random.Random) -> tuple[object, type[SnapError]]:
    return rng.choice(["flip", None, ("slap", 0, 300.0)]), ActionError


MAKERS: list[Maker] = [
    _other_seat, _missing_seat, _slap_now, _flip_now, _bad_time, _double_slap, _bad_call,
    _not_an_action,
]


def try_illegal(state: SnapState, rng: random.Random, saved: str) -> None:
    made = rng.choice(MAKERS)(state, rng)
    if made is None:
        return
    action, error = made
    if state.is_terminal() and not isinstance(action, str | None | tuple):
        error = GameOverError
    with pytest.raises(error):
        state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == saved, f"{action!r} changed the game"


def checked_apply(state: SnapState, action: object) -> None:
    seat_to_flip, call = state.to_flip, state.next_call
    events = state.apply(action)  # type: ignore[arg-type]
    if isinstance(action, Flip):  # turn order and the call cycle, seen from outside
        flipped = events[0]
        assert isinstance(flipped, Flipped)
        assert flipped.seat == seat_to_flip and flipped.expected == call
    problems = check_invariants(state)
    assert not problems, problems


def random_game(seed: int) -> SnapState:
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4))
    config = SnapConfig(
        players=players,
        tie_window_ms=rng.choice((0.0, 10.0, 60.0)),
        slap_window_ms=rng.choice((900.0, 2500.0)),
        call_modes=tuple(rng.choice((CallMode.AUTO, CallMode.SELF)) for _ in range(players)),
    )
    state = new_game(random.Random(rng.getrandbits(32)), config, rng.randrange(players))
    bots = [Bot(s, rng.choice(LEVEL_NAMES), random.Random(rng.getrandbits(32)))
            for s in range(players)]
    chaos = rng.choice((0.0, 0.05, 0.15))  # how often a random legal action replaces the bots
    illegal_left = ILLEGAL_PER_GAME  # to_json() grows with the game: keep the checks few
    while not state.is_terminal():
        assert state.flips < MAX_FLIPS, f"game {seed} did not end"
        if illegal_left and rng.random() < ILLEGAL_RATE:
            illegal_left -= 1
            try_illegal(state, rng, state.to_json())
        if rng.random() < chaos:
            checked_apply(state, state.legal_actions().sample(rng))
        elif state.phase is Phase.FLIP:
            seat = state.to_flip
            assert seat is not None
            checked_apply(state, bots[seat].flip(state.view(seat)))
        else:
            slaps = [b.react(state.view(b.seat)) for b in bots]
            for slap in sorted((s for s in slaps if s), key=lambda s: s.reaction_ms):
                checked_apply(state, slap)
            if state.phase is Phase.SLAPS:
                checked_apply(state, CloseSlaps())
    if rng.random() < 0.2:
        try_illegal(state, rng, state.to_json())
    return state


def check_random_game(seed: int) -> SnapState:
    """Play game ``seed`` with every check."""
    state = random_game(seed)
    assert state.winners, f"game {seed} ended without a winner"
    assert all(state.hand_sizes[w] == 0 for w in state.winners)  # no one wins with cards
    assert sum(state.hand_sizes) + len(state.centre) == 56
    return state


@pytest.mark.slow
@pytest.mark.soak
def test_random_games_keep_every_invariant(soak: bool) -> None:
    lengths, reasons = [], set()
    for seed in SOAK_SEEDS if soak else SAMPLE_SEEDS:
        state = check_random_game(seed)
        lengths.append(state.flips)
        reasons |= {e.reason for e in state.events if isinstance(e, Outcome)}
    assert max(lengths) < MAX_FLIPS
    assert reasons == set(Reason), set(Reason) - reasons  # every way a card can end (S7–S16)


# -- saving and replaying ------------------------------------------------------------------


def test_save_mid_game_load_and_continue_is_the_same_game() -> None:
    for seed in range(40):
        whole = random_game(10_000 + seed)
        actions = whole.actions
        for cut in {1, len(actions) // 3, len(actions) // 2, len(actions) - 1}:
            part = SnapState.from_deal(whole.deal, whole.config, whole.opener)
            for action in actions[:cut]:
                part.apply(action)
            text = part.to_json()
            loaded = SnapState.from_json(text)
            assert loaded.to_json() == text and loaded.events == part.events
            assert loaded.phase is part.phase and loaded.slaps == part.slaps
            for action in actions[cut:]:
                loaded.apply(action)
            assert loaded.to_json() == whole.to_json()
            assert loaded.events == whole.events and loaded.winners == whole.winners


def test_save_and_load_in_the_middle_of_a_slap_phase_with_bots_playing_on() -> None:
    uninterrupted = play_game(["beginner", "expert", "intermediate"], seed=77, check=False)
    state = SnapState.from_json(uninterrupted.state.to_json())
    assert state.to_json() == uninterrupted.state.to_json()
    # replay with fresh bots, saving and loading at every slap phase
    seeder = random.Random(77)
    config = SnapConfig(players=3, call_modes=(CallMode.SELF,) * 3)
    state = new_game(random.Random(seeder.getrandbits(64)), config)
    bots = [Bot(s, lvl, random.Random(seeder.getrandbits(64)))
            for s, lvl in enumerate(["beginner", "expert", "intermediate"])]
    while not state.is_terminal():
        seat = state.to_flip
        if seat is not None:
            state.apply(bots[seat].flip(state.view(seat)))
            continue
        state = SnapState.from_json(json.loads(state.to_json()))  # a dict loads too
        decisions = [b.decide(state.view(b.seat)) for b in bots]
        for decision in sorted((d for d in decisions if d), key=_decision_time):
            state.apply(decision)
        if state.phase is Phase.SLAPS:
            state.apply(CloseSlaps())
    assert state.to_json() == uninterrupted.state.to_json()


def test_same_seed_and_same_actions_give_the_same_game() -> None:
    for seed in range(30):
        first = random_game(20_000 + seed)
        second = random_game(20_000 + seed)
        assert first.to_json() == second.to_json() and first.events == second.events
        replayed = SnapState.from_deal(first.deal, first.config, first.opener)
        for action in first.actions:
            replayed.apply(action)
        assert replayed.to_json() == first.to_json()
    a = play_game(["expert"] * 4, seed=3, check=False)
    b = play_game(["expert"] * 4, seed=3, check=False)
    assert a.state.to_json() == b.state.to_json()
    assert play_game(["expert"] * 4, seed=4, check=False).state.to_json() != a.state.to_json()


def test_clone_is_independent() -> None:
    state = random_game(5)
    game = SnapState.from_deal(state.deal, state.config, state.opener)
    for action in state.actions[: len(state.actions) // 2]:
        game.apply(action)
    copy = game.clone()
    before = game.to_json()
    for action in state.actions[len(state.actions) // 2 :]:
        copy.apply(action)
    assert game.to_json() == before and copy.to_json() == state.to_json()


def test_the_event_log_replays_the_whole_game() -> None:
    """The events alone (deal, flips with calls, slaps with times, outcomes) rebuild it."""
    for seed in range(30):
        state = random_game(30_000 + seed)
        replayed = replay(state.events, state.config)
        assert replayed.to_json() == state.to_json() and replayed.events == state.events
        data = [e.to_dict() for e in state.events]
        assert json.loads(json.dumps(data)) == data
    events = list(state.events)
    del events[1]  # the first flip goes missing
    with pytest.raises(SaveError, match="event log"):
        replay(events, state.config)
    with pytest.raises(SaveError, match="Dealt"):
        replay(events[1:], state.config)


def _decision_time(decision: Slap | Pass) -> float:
    return decision.reaction_ms if isinstance(decision, Slap) else decision.at_ms
