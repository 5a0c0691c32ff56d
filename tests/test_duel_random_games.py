"""2,000 seeded random games of Keyboard Duel, every invariant checked in every state.

Random legal actions, with random (mostly illegal) actions mixed in: an illegal one must be
refused with a typed error and leave ``to_json()`` unchanged. Undo, saving and loading in
mid-game, and replays are checked along the way. The suite plays a seeded sample (the first
``SAMPLE_GAMES`` seeds, enough to reach every line of the engine that the full soak reaches);
``make soak`` plays all ``SOAK_GAMES``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from musicgames.duel import (
    BOARD_KEYS,
    DECK_SIZE,
    PIANO_CARDS,
    DuelCard,
    DuelError,
    DuelState,
    EndTurn,
    LockIn,
    Move,
    NotYourTurnError,
    Phase,
    Place,
    Shift,
    Token,
    TokenState,
)

SOAK_GAMES = 2000  # make soak (pytest --soak): before a release
# The suite's sample: seeds 0..199 reach every line of the engine that the 2,000 games reach.
SAMPLE_GAMES = 200
EVERY_EVENT = {
    "action", "deal", "round_start", "place", "move", "shift", "merge", "duel", "duel_card",
    "lock_in", "duel_result", "end_turn", "draw", "reshuffle", "final_turn", "round_end",
    "game_over",
}
MAX_ACTIONS = 5000


@functools.cache
def card_multiplier(piano_index: int, pitch_class: int) -> int:
    """Recounted from the triad itself: root ×3, third ×2, anything else ×1 (D4)."""
    triad = PIANO_CARDS[piano_index].triad
    if pitch_class == triad.root.pitch_class:
        return 3
    if pitch_class == triad.third.pitch_class:
        return 2
    return 1


def multiplier(state: DuelState, key: int) -> int:
    return card_multiplier(state.piano_cards[key // 12].index, key % 12)


def recount(state: DuelState, held: list[Token | None]) -> tuple[int, int]:
    """What each seat would bank now, from the board alone (D13)."""
    scores = [0, 0]
    for key, token in enumerate(held):
        if token is not None:
            scores[token.seat] += token.power * multiplier(state, key)
    for side, card in enumerate(state.piano_cards):
        holders = [held[side * 12 + t.pitch_class] for t in card.triad.tones]
        seats = {h.seat for h in holders if h is not None}
        if all(h is not None for h in holders) and len(seats) == 1:
            scores[seats.pop()] += 1
    return (scores[0], scores[1])


def check_invariants(state: DuelState, thorough: bool = True) -> None:
    # every card in exactly one place: a hand, the draw pile or the discard pile
    cards = [*state.hand(0), *state.hand(1), *state.draw_pile, *state.discard]
    assert sorted(cards) == list(range(DECK_SIZE))
    assert state.hand_size(0) <= 5 and state.hand_size(1) <= 5
    # five tokens a player, whose states add up: unplaced + on the board + merged + beaten
    arriving = state.arriving
    arriving_ids = {(t.seat, t.index) for t in arriving}
    on_board: list[Token] = []
    for seat in (0, 1):
        tokens = state.tokens(seat)
        assert [t.index for t in tokens] == [0, 1, 2, 3, 4]
        counts = Counter(t.state for t in tokens)
        assert sum(counts.values()) == 5 and set(counts) <= set(TokenState)
        for t in tokens:
            if t.state is TokenState.UNPLACED:
                assert t.power == 0 and t.key is None and t.score == 0
            elif t.state is TokenState.ON_BOARD:
                assert 1 <= t.power <= 6 and 0 <= t.key < BOARD_KEYS
                on_board.append(t)
            else:
                assert 1 <= t.power <= 6 and t.key is None and t.score == 0
    # at most one token per key, apart from tokens arriving at a held key (D9, D11)
    settled = [t for t in on_board if (t.seat, t.index) not in arriving_ids]
    held: list[Token | None] = [None] * BOARD_KEYS
    for t in settled:
        assert held[t.key] is None, f"two tokens on key {t.key}"
        held[t.key] = t
        assert t.score == t.power * multiplier(state, t.key)
    assert len(on_board) == len(settled) + len(arriving)
    for t in arriving:
        assert held[t.key] is not None and t.seat == state.turn and t.score == 0
    if thorough:
        assert [state.board_token(k) for k in range(BOARD_KEYS)] == held
    # scores recounted from the board
    assert sum(r[0] for r in state.round_scores) == state.totals[0]
    assert sum(r[1] for r in state.round_scores) == state.totals[1]
    if state.is_terminal():
        assert state.seat_to_act is None and state.legal_actions() == ()
        assert state.round >= 3 and state.totals[0] != state.totals[1]
        assert state.winner == (0 if state.totals[0] > state.totals[1] else 1)
        return
    assert state.running_scores() == recount(state, held)
    # whose decision it is
    duel = state.duel
    if state.phase is Phase.TURN:
        assert duel is None and arriving == () and state.seat_to_act == state.turn
    else:
        assert duel is not None and duel.attacker == state.turn
        deciding = duel.attacker if state.phase is Phase.ATTACK else duel.defender
        assert state.seat_to_act == deciding
        assert held[duel.key] is not None and held[duel.key].seat == duel.defender
        assert len(duel.attacker_dice) == (duel.attacker_power + 1) // 2
        assert len(duel.defender_dice) == (duel.defender_power + 1) // 2
        assert [t.key for t in arriving][0] == duel.key
    keys = [t.key for t in arriving]
    assert keys == sorted(keys)
    # the legal actions: distinct, non-empty, and (checked in some states, for time) the same
    # from the seat's view, with the Wilds-as-one list inside the full one
    actions = state.legal_actions()
    assert actions and len(set(actions)) == len(actions)
    if thorough:
        assert set(state.legal_actions(distinct=True)) <= set(actions)
        assert state.view(state.seat_to_act).legal_actions() == actions
    assert 1 <= state.turn_number <= 60
    assert [c.index for c in state.piano_cards][0] != [c.index for c in state.piano_cards][1]
    assert all(0 <= c.index < len(PIANO_CARDS) for c in state.piano_cards)


def random_candidate(rng: random.Random, state: DuelState) -> object:
    """A random action, built from the hand some of the time: mostly illegal, not always."""
    hand = list(state.hand(state.seat_to_act)) if state.seat_to_act is not None else []

    def card() -> int:
        return rng.choice(hand) if hand and rng.random() < 0.7 else rng.randrange(-1, 43)

    kind = rng.randrange(7)
    if kind == 0:
        size = rng.randint(0, 7)
        pool = hand if hand and rng.random() < 0.6 else list(range(DECK_SIZE))
        cards = tuple(rng.sample(pool, min(size, len(pool))))
        return Place(cards, rng.randrange(-2, 26))
    if kind == 1:
        return Move(card(), rng.randrange(-1, 25), rng.randint(-4, 4))
    if kind == 2:
        return Shift(card(), rng.randint(-1, 2))
    if kind == 3:
        return DuelCard(card())
    if kind == 4:
        return LockIn()
    if kind == 5:
        return EndTurn()
    return rng.choice([None, "Place", 3, (1, 2)])


def play_random_game(seed: int) -> DuelState:
    rng = random.Random(seed)
    state = DuelState.new_game(seed)
    twin: DuelState | None = None
    save_at = rng.randrange(150) if seed % 4 == 0 else -1
    for step in range(MAX_ACTIONS):
        check_invariants(state, thorough=step % 4 == 0)
        if state.is_terminal():
            break
        actions = state.legal_actions()
        if rng.random() < 0.25:
            candidate = random_candidate(rng, state)
            if candidate in actions:
                assert state.is_legal(candidate)
            else:
                before = state.to_json()
                with pytest.raises(DuelError):
                    state.apply(candidate)  # type: ignore[arg-type]
                assert state.to_json() == before
                assert not state.is_legal(candidate)
        action = rng.choice(actions)
        if rng.random() < 0.05:
            before = state.to_json()
            with pytest.raises(NotYourTurnError):
                state.apply(action, seat=1 - state.seat_to_act)
            state.apply(action, seat=state.seat_to_act)
            assert state.undo() == action
            assert state.to_json() == before
        if step == save_at:
            twin = DuelState.from_json(state.to_json())
            assert twin.to_json() == state.to_json()
        state.apply(action)
        if twin is not None:
            twin.apply(action)
    else:
        raise AssertionError(f"game {seed} did not end in {MAX_ACTIONS} actions")
    if twin is not None:
        assert twin.to_json() == state.to_json()
    return state


def check_random_game(seed: int) -> DuelState:
    """Play game ``seed`` with every check, replaying and reloading every 50th game."""
    state = play_random_game(seed)
    assert state.is_terminal()
    if seed % 50 == 0:
        assert state.replay().to_json() == state.to_json()
        assert DuelState.from_json(state.to_json()).to_json() == state.to_json()
    return state


@pytest.mark.slow
@pytest.mark.soak
def test_random_games_keep_every_invariant(soak: bool) -> None:
    games = SOAK_GAMES if soak else SAMPLE_GAMES
    rounds: Counter[int] = Counter()
    winners: Counter[int | None] = Counter()
    events: Counter[str] = Counter()
    for seed in range(games):
        state = check_random_game(seed)
        rounds[state.round] += 1
        winners[state.winner] += 1
        events.update(e["type"] for e in state.log)
    # the games really exercised the rules: duels, both winners, some extra rounds, and every
    # kind of thing that can happen (a reshuffled draw pile is the rarest)
    assert events["duel_result"] > games
    assert min(winners.values()) > games // 4
    assert set(rounds) >= {3, 4}
    assert set(events) == EVERY_EVENT, EVERY_EVENT ^ set(events)


def test_random_game_undo_all_the_way_back_restores_the_start():
    state = play_random_game(7)
    start = DuelState.new_game(7).to_json()
    while state.actions():
        state.undo()
    assert state.to_json() == start


def test_same_seed_and_same_actions_give_the_same_game():
    first = play_random_game(12)
    again = DuelState.new_game(12)
    for action in first.actions():
        again.apply(action)
    assert again.to_json() == first.to_json()
    assert again.log == first.log
    other_seed = DuelState.new_game(13)
    assert other_seed.to_json() != DuelState.new_game(12).to_json()
