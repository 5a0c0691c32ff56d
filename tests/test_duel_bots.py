"""Keyboard Duel computer players (rules page, "Computer opponents"; D11, D16); their
tournaments are ``python -m musicgames.games tournament keyboard_duel`` (tests/test_games.py)."""

from __future__ import annotations

import hashlib
import json
import random
from fractions import Fraction
from typing import Any

import pytest

from musicgames.duel import (
    BLACK,
    WHITE,
    DuelCard,
    DuelState,
    EndTurn,
    LockIn,
    Move,
    NotYourTurnError,
    Phase,
    Place,
    Shift,
    card_ids,
)
from musicgames.duel.bots import (
    BOT_NAMES,
    CasualBot,
    RandomBot,
    SharpBot,
    UnknownBotError,
    answer_is_useful,
    defended_worth,
    gives_points_away,
    make_bot,
)
from musicgames.duel.judgement import seat_table
from musicgames.duel.kernel import Table, outcomes, settle_duel
from musicgames.duel.odds import Effect, chance_after_card, effect_of_card


def play_game(names: tuple[str, str], seed: int, *, check_legal: bool = True,
              keep: list[DuelState] | None = None) -> DuelState:
    """One whole game between two bots; every action checked against legal_actions()."""
    game = DuelState.new_game(seed=seed)
    bots = (make_bot(names[0], seed), make_bot(names[1], seed + 1))
    for _ in range(5000):
        if game.is_terminal():
            return game
        seat = game.seat_to_act
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        if check_legal:
            assert action in game.legal_actions(), (names[seat], action, game)
        if keep is not None:
            keep.append(game.clone())
        game.apply(action, seat)
    raise AssertionError(f"{names} game {seed} did not end in 5000 decisions")


@pytest.fixture(scope="module")
def positions() -> list[DuelState]:
    """Decision points from a few Sharp–Casual games, duels of both roles included."""
    kept: list[DuelState] = []
    for seed in (11, 12):
        play_game(("sharp", "casual"), seed, keep=kept)
    chosen = kept[::7]
    chosen += [s for s in kept if s.phase is not Phase.TURN][:30]
    return chosen


# -- D16: decisions come from the seat's view only -------------------------------------------


@pytest.mark.parametrize("name", BOT_NAMES)
def test_d16_choice_ignores_hidden_hand_and_draw_order(name: str,
                                                       positions: list[DuelState]) -> None:
    phases = set()
    changed = 0
    for state in positions:
        seat = state.seat_to_act
        assert seat is not None
        view = state.view(seat)
        phases.add(state.phase)
        choice = make_bot(name, 5).choose(view, random.Random(9))
        for k in range(2):
            # The same public table with the other hand and the draw pile dealt anew.
            other = DuelState.from_view(view, random.Random(1000 + k))
            changed += (other.hand(1 - seat) != state.hand(1 - seat)
                        or other.draw_pile != state.draw_pile)
            assert other.view(seat) == view
            assert make_bot(name, 5).choose(other.view(seat), random.Random(9)) == choice
    assert phases == {Phase.TURN, Phase.ATTACK, Phase.DEFEND}
    assert changed >= len(positions)  # the hidden cards really were different


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_seed_same_choice(name: str, positions: list[DuelState]) -> None:
    for state in positions[:20]:
        view = state.view(state.seat_to_act or 0)
        random.seed(1)
        first = make_bot(name, 3).choose(view)
        random.seed(2)  # the global generator must not matter
        assert make_bot(name, 3).choose(view) == first


def test_asking_the_wrong_seat_is_a_typed_error() -> None:
    game = DuelState.new_game(seed=1)
    for name in BOT_NAMES:
        with pytest.raises(NotYourTurnError,
                           match="seat 1 has no decision to make now: it is seat 0"):
            make_bot(name).choose(game.view(BLACK))
    over = play_game(("random", "random"), 2)
    with pytest.raises(NotYourTurnError, match="nobody \\(the game is over\\)"):
        SharpBot().choose(over.view(WHITE))
    with pytest.raises(TypeError, match="seed must be an int"):
        SharpBot(seed="7")  # type: ignore[arg-type]


def test_make_bot_names() -> None:
    assert [make_bot(n).name for n in BOT_NAMES] == ["Random", "Casual", "Sharp"]
    assert isinstance(make_bot(" SHARP "), SharpBot)
    assert isinstance(make_bot("casual"), CasualBot)
    assert isinstance(make_bot("random"), RandomBot)
    assert repr(make_bot("sharp", 4)) == "SharpBot(seed=4)"
    with pytest.raises(UnknownBotError, match="'expert' is not a computer player"):
        make_bot("expert")


# -- legal actions, whole games ----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("names", [("sharp", "casual"), ("casual", "sharp"),
                                   ("sharp", "random"), ("random", "casual"),
                                   ("sharp", "sharp"), ("casual", "casual")])
def test_bots_play_only_legal_actions_and_finish(names: tuple[str, str]) -> None:
    for seed in range(8):
        game = play_game(names, 100 * seed + 7)
        assert game.is_terminal() and game.winner in (WHITE, BLACK)
        assert game.round >= 3 and game.totals[0] != game.totals[1]


def test_sharp_beats_random_in_a_short_series() -> None:
    # A sanity check on strength, not the benchmark: Sharp should not lose to chance.
    wins = sum(play_game(("sharp", "random"), s).winner == WHITE for s in range(6))
    wins += sum(play_game(("random", "sharp"), s).winner == BLACK for s in range(6))
    assert wins >= 11


# -- the bots' board model agrees with the engine -------------------------------------------


def _engine_outcomes(state: DuelState, action: Any) -> list[tuple[list[int], ...]]:
    """The tables after ``action`` in the engine, every duel settled both ways."""
    game = state.clone()
    game.apply(action)
    results: list[tuple[list[int], ...]] = []
    stack = [game]
    while stack:
        g = stack.pop()
        if g.phase is Phase.TURN:
            v = g.view(state.seat_to_act or 0)
            results.append((list(v.board), list(v.token_keys), list(v.token_powers),
                            list(v.token_states), sorted(v.hand)))
            continue
        # Force each outcome of the duel: the defender gets an unbeatable or no total.
        duel = g.duel
        assert duel is not None
        for attacker_wins in (True, False):
            data = json.loads(g.to_json())
            pos = data["position"]
            pos["duel"]["additions"] = [100, 0] if attacker_wins else [0, 100]
            pos["phase"] = "defend"
            forced = DuelState.from_json({**data, "start": pos, "actions": []})
            forced.apply(LockIn())
            stack.append(forced)
    return results


def test_bot_look_ahead_plays_by_the_engines_rules(positions: list[DuelState]) -> None:
    """The look-ahead plays actions with the rules kernel (kernel.outcomes) on the view's
    table: every outcome must be one the engine itself reaches."""

    def both_ways(b: Table, attacker: int, defender: int) -> list[tuple[float, Table]]:
        win = b.copy()
        settle_duel(win.board, win.keys, win.status, attacker, defender, True)
        settle_duel(b.board, b.keys, b.status, attacker, defender, False)
        return [(0.5, win), (0.5, b)]

    checked = duels = 0
    for state in positions:
        if state.phase is not Phase.TURN:
            continue
        seat = state.seat_to_act
        assert seat is not None
        view = state.view(seat)
        for action in view.legal_actions(distinct=True):
            if isinstance(action, EndTurn):
                continue
            ours = sorted(
                (b.board, b.keys, b.power, b.status, sorted(b.hand))
                for _, b in outcomes(seat_table(view), action, seat, both_ways)
            )
            theirs = sorted(_engine_outcomes(state, action))
            assert ours == theirs, (action, state)
            checked += 1
            duels += len(ours) > 1
    assert checked > 200 and duels > 5


# -- duels: exact odds and what the key is worth ------------------------------------------------


def duel_position(*, attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...],
                  attacker_power: int, defender_power: int, hands: tuple[str, str],
                  phase: str, key: int = 2, piano: tuple[int, int] = (2, 7)) -> DuelState:
    """White (the turn player) attacks Black's token on ``key`` with the dice given."""
    base = DuelState.from_position(piano=piano, hands=hands,
                                   tokens=([((key + 5) % 24, attacker_power)],
                                           [(key, defender_power)]),
                                   placed=True)
    data = json.loads(base.to_json())
    pos = data["position"]
    pos["tokens"][0][1] = key
    pos["phase"] = phase
    pos["duel"] = {"key": key, "attacker_token": 0, "defender_token": 5,
                   "dice": [list(attacker_dice), list(defender_dice)],
                   "additions": [0, 0], "runs": [[], []]}
    state = DuelState.from_json({**data, "start": pos, "actions": []})
    assert state.phase.value == phase
    return state


def _exact(effect: Effect, state: DuelState) -> Fraction:
    duel = state.duel
    assert duel is not None
    if state.phase is Phase.DEFEND:
        return chance_after_card(effect, duel.defender_dice, duel.attacker_dice,
                                 duel.defender_add, duel.attacker_add, attacker=False)
    return chance_after_card(effect, duel.attacker_dice, duel.defender_dice,
                             duel.attacker_add, duel.defender_add, attacker=True)


@pytest.mark.parametrize("attacker_dice, defender_dice, expected", [
    ((4,), (1,), "E↑"),  # adding 3 only ties (the attacker takes ties): rerolling, 2 in 6
    ((4,), (3,), "D3"),  # adding 3 wins outright; the reroll wins 2 in 6
    ((6,), (2,), "F↓"),  # no card of ours is enough; rerolling their 6 wins 1 in 6
])
def test_d11_sharp_defender_picks_the_card_with_the_larger_exact_chance(
        attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...], expected: str) -> None:
    # Black defends a power-6 token on the fff key (left D of D major): worth a lot.
    state = duel_position(attacker_dice=attacker_dice, defender_dice=defender_dice,
                          attacker_power=2, defender_power=2,
                          hands=("C1", "D3 E↑ F↓"), phase="defend")
    view = state.view(BLACK)
    chances = {card: _exact(effect_of_card(card), state) for card in state.hand(BLACK)}
    best = max(chances, key=lambda c: chances[c])
    assert list(chances.values()).count(chances[best]) == 1  # a clear best option
    action = SharpBot(seed=1).choose(view)
    assert action == DuelCard(card_ids(expected)[0]) == DuelCard(best)


def test_d11_sharp_attacker_picks_the_larger_exact_chance_when_the_defender_has_no_cards() -> None:
    # The defender holds nothing, so the attacker's chance is exact: add 1 ties (a win),
    # the reroll wins 3 in 6.
    state = duel_position(attacker_dice=(3,), defender_dice=(4,), attacker_power=2,
                          defender_power=2, hands=("D1 E↑", ""), phase="attack")
    view = state.view(WHITE)
    action = SharpBot(seed=1).choose(view)
    chances = {c: _exact(effect_of_card(c), state) for c in state.hand(WHITE)}
    assert chances[card_ids("D1")[0]] == 1 and chances[card_ids("E↑")[0]] == Fraction(1, 2)
    assert action == DuelCard(card_ids("D1")[0])


def test_d11_sharp_keeps_its_cards_when_no_card_can_help() -> None:
    state = duel_position(attacker_dice=(6, 6, 6), defender_dice=(1,), attacker_power=6,
                          defender_power=1, hands=("C1", "D1 D2"), phase="defend")
    assert SharpBot(seed=1).choose(state.view(BLACK)) == LockIn()


def test_sharp_spends_in_proportion_to_the_key() -> None:
    """The same 1-in-3 reroll is worth a card on a heavy fff token, not on a light token on
    a plain key (D11f: the defender's card is missing from its next turn)."""
    def reroll_played(key: int, dice: tuple[int, ...], power: int) -> bool:
        # The attacker's 6 beats the defender's 3 unless ↓ rerolls it to a 1 or a 2.
        state = duel_position(attacker_dice=(6,), defender_dice=dice, attacker_power=1,
                              defender_power=power, hands=("C1", "E↓"), phase="defend",
                              key=key)
        return SharpBot(seed=1).choose(state.view(BLACK)) == DuelCard(card_ids("E↓")[0])

    assert reroll_played(key=2, dice=(1, 1, 1), power=5)  # D major's root: 5 × fff = 15
    assert not reroll_played(key=1, dice=(3,), power=1)  # C♯: no mark, power 1


def test_casual_lets_some_duels_go_and_fights_others() -> None:
    # Black's power-2 token on C♯ of D major (no mark) scores 2: not worth much.
    state = duel_position(attacker_dice=(4,), defender_dice=(3,), attacker_power=2,
                          defender_power=2, hands=("C1", "D3 E↑"), phase="defend", key=1)
    view = state.view(BLACK)
    choices = [CasualBot(seed=s).choose(view) for s in range(60)]
    assert LockIn() in choices
    assert DuelCard(card_ids("D3")[0]) in choices


def test_d11c_casual_answers_an_attack_on_a_key_worth_6_when_a_run_helps() -> None:
    # Black's power-2 token on D (fff) of D major scores 6; White leads 6 to 5. One card
    # alone does not win (D1: 6, not more than 6) but D1 with D↑ may: Casual always answers.
    state = duel_position(attacker_dice=(6,), defender_dice=(5,), attacker_power=2,
                          defender_power=2, hands=("C1", "D1 D↑"), phase="defend", key=2)
    view = state.view(BLACK)
    assert defended_worth(view) == 6 and answer_is_useful(view)
    choices = {CasualBot(seed=s).choose(view) for s in range(40)}
    assert LockIn() not in choices
    # … and with no card that helps (an E run cannot beat 6 from 1), it locks in.
    state = duel_position(attacker_dice=(6, 6), defender_dice=(1,), attacker_power=3,
                          defender_power=2, hands=("C1", "E1"), phase="defend", key=2)
    view = state.view(BLACK)
    assert not answer_is_useful(view)
    assert {CasualBot(seed=s).choose(view) for s in range(10)} == {LockIn()}


def test_casual_never_moves_a_token_to_a_lower_value_key_for_nothing() -> None:
    # White holds C E G of C major (a chord bonus) and A: moving C, E or G loses points;
    # A may move to A♭ or B♭ (both ×1) for nothing lost.
    state = DuelState.from_position(piano=(0, 1), hands=("D1 E1 F1 G1 A1", "B2"),
                                    tokens=([(0, 3), (4, 1), (7, 1), (9, 1), "beaten"], []))
    view = state.view(WHITE)
    assert sum(gives_points_away(view, a) for a in view.legal_actions()) > 20
    for seed in range(30):
        assert not gives_points_away(view, CasualBot(seed=seed).choose(view))


@pytest.mark.slow
def test_casual_gives_nothing_away_in_whole_games() -> None:
    checked = 0
    for seed in range(6):
        game = DuelState.new_game(seed)
        bots = {0: make_bot("casual", seed), 1: make_bot("sharp", seed)}
        while not game.is_terminal():
            seat = game.seat_to_act
            view = game.view(seat)
            action = bots[seat].choose(view)
            if seat == 0 and view.duel is None:
                others = [a for a in view.legal_actions(distinct=True)
                          if not gives_points_away(view, a)]
                if others:
                    assert not gives_points_away(view, action)
                    checked += 1
            game.apply(action)
    assert checked > 100


# -- turns ----------------------------------------------------------------------------------------


def test_sharp_places_its_heaviest_token_on_the_root() -> None:
    state = DuelState.from_position(piano=(2, 7), hands=("D1 D2 D3 E1 F2", "C1"),
                                    tokens=([], [(14, 1)]))
    action = SharpBot().choose(state.view(WHITE))
    assert isinstance(action, Place) and action.key == 2 and len(action.cards) == 3


def test_sharp_takes_the_last_turn_greedily() -> None:
    # Final turn (D12): nothing can answer, so move the token onto the fff root for 3 × 3.
    state = DuelState.from_position(
        piano=(2, 7), hands=("C2", "C1"), final_turn=True,
        tokens=([(0, 3), "merged", "merged", "merged"], [(20, 1)] + ["merged"] * 4))
    action = SharpBot().choose(state.view(WHITE))
    assert action == Move(card_ids("C2")[0], key=0, steps=2)


def test_actions_are_legal_for_every_kind_of_turn_option() -> None:
    kinds = set()
    for seed in range(3):
        game = play_game(("sharp", "casual"), 300 + seed)
        kinds |= {type(a) for a in game.actions()}
    assert {Place, Move, Shift, EndTurn, DuelCard, LockIn} <= kinds



# -- the same seeds play the same games ----------------------------------------------------


@pytest.mark.parametrize(("names", "seed", "expected"), [
    (("sharp", "casual"), 21, (109, WHITE, (80, 39), "1c07b6defd27b134")),
    (("casual", "sharp"), 22, (108, BLACK, (27, 65), "8340ec6245b4f9eb")),
    (("casual", "random"), 23, (112, WHITE, (46, 17), "bc82703fb2b548fc")),
])
def test_seeded_games_play_the_same_moves_and_results(
        names: tuple[str, str], seed: int, expected: tuple[object, ...]) -> None:
    """A seeded game between computer players makes exactly the moves, and ends with exactly
    the result, it did before the players were made faster: the decisions, the winner, the
    totals and a fingerprint of every action in order (sha256 of their reprs)."""
    game = DuelState.new_game(seed=seed)
    bots = (make_bot(names[0], seed), make_bot(names[1], seed + 1))
    moves = hashlib.sha256()
    decisions = 0
    while not game.is_terminal():
        seat = game.seat_to_act
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        moves.update(repr(action).encode() + b"\n")
        game.apply(action, seat)
        decisions += 1
    assert (decisions, game.winner, tuple(game.totals), moves.hexdigest()[:16]) == expected
