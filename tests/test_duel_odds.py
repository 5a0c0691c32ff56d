"""D11: exact duel odds, checked against brute-force enumeration, simulation and the engine."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from musicgames.duel import (
    WHITE,
    DuelState,
    Effect,
    LockIn,
    Place,
    attacker_win_chance,
    attacker_win_probability,
    best_run_chance,
    card_ids,
    chance_after_card,
    chance_after_each_card,
    duel_odds,
    effect_of_card,
    run_options,
    win_chance_now,
)
from musicgames.duel.odds import dice_count, total_counts

POWERS = range(1, 7)
FACES = range(1, 7)


def brute_force(attacker_power: int, defender_power: int, a_add: int = 0, d_add: int = 0):
    wins = total = 0
    for a in itertools.product(FACES, repeat=math.ceil(attacker_power / 2)):
        for d in itertools.product(FACES, repeat=math.ceil(defender_power / 2)):
            total += 1
            wins += sum(a) + a_add >= sum(d) + d_add
    return Fraction(wins, total)


@pytest.mark.parametrize("attacker_power", POWERS)
@pytest.mark.parametrize("defender_power", POWERS)
def test_d11_odds_equal_brute_force_for_every_pair_of_powers(attacker_power, defender_power):
    for a_add, d_add in ((0, 0), (1, 0), (0, 1), (3, 0), (0, 4), (2, 2), (9, 0), (0, 12)):
        exact = attacker_win_probability(attacker_power, defender_power, a_add, d_add)
        assert exact == brute_force(attacker_power, defender_power, a_add, d_add)
        assert attacker_win_chance(attacker_power, defender_power, a_add, d_add) == float(exact)


def test_d11_odds_basic_facts():
    assert attacker_win_probability(1, 1) == Fraction(21, 36)  # ties go to the attacker
    assert [dice_count(p) for p in POWERS] == [1, 1, 2, 2, 3, 3]
    assert [sum(total_counts(n)) for n in range(4)] == [1, 6, 36, 216]
    # more power or more additions never hurt the attacker
    for a, d in itertools.product(POWERS, POWERS):
        if a < 6 and dice_count(a + 1) > dice_count(a):
            assert attacker_win_probability(a + 1, d) > attacker_win_probability(a, d)
        assert attacker_win_probability(a, d, 1) >= attacker_win_probability(a, d)
    with pytest.raises(ValueError):
        attacker_win_probability(7, 1)
    with pytest.raises(ValueError):
        attacker_win_probability(0, 1)


@pytest.mark.slow
def test_d11_odds_agree_with_a_100000_roll_simulation():
    rng = random.Random(2024)
    n = 100_000
    for attacker_power, defender_power in itertools.product(POWERS, POWERS):
        na, nd = dice_count(attacker_power), dice_count(defender_power)
        faces = rng.choices(FACES, k=n * (na + nd))
        wins = 0
        step = na + nd
        for i in range(0, len(faces), step):
            wins += sum(faces[i : i + na]) >= sum(faces[i + na : i + step])
        p = float(attacker_win_probability(attacker_power, defender_power))
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(wins / n - p) < 5 * sigma, (attacker_power, defender_power, wins / n, p)


@pytest.mark.parametrize(("attacker_power", "defender_power"), [(1, 1), (3, 6), (5, 2)])
def test_d11_the_engine_wins_as_often_as_the_odds_say(attacker_power, defender_power):
    """Duels played through the engine (dice from its seeded generator, no cards)."""
    n = 1500
    wins = 0
    for seed in range(n):
        state = DuelState.from_position(
            hands=("Wild " * attacker_power, "E1"), tokens=([], [(7, defender_power)]),
            seed=seed,
        )
        state.apply(Place(card_ids("Wild " * attacker_power), key=7))
        state.apply(LockIn())
        state.apply(LockIn())
        wins += state.board_token(7).seat == WHITE
    p = float(attacker_win_probability(attacker_power, defender_power))
    assert abs(wins / n - p) < 5 * math.sqrt(p * (1 - p) / n)


def all_dice(max_dice: int = 3):
    for n in range(1, max_dice + 1):
        yield from itertools.combinations_with_replacement(FACES, n)


def test_d11_chance_after_each_card_equals_enumeration():
    rng = random.Random(5)
    cases = [(own, opp) for own in all_dice() for opp in all_dice()]
    for own, opp in rng.sample(cases, 400):
        own_add, opp_add = rng.randrange(4), rng.randrange(4)
        for attacker in (True, False):
            def wins(mine, theirs, extra=0, attacker=attacker, own_add=own_add, opp_add=opp_add):
                me, them = sum(mine) + own_add + extra, sum(theirs) + opp_add
                return me >= them if attacker else me > them

            chances = chance_after_each_card(own, opp, own_add, opp_add, attacker=attacker)
            for n, effect in ((1, Effect.ADD_1), (2, Effect.ADD_2), (3, Effect.ADD_3)):
                assert chances[effect] == int(wins(own, opp, n))
            lowest = list(own)
            lowest.remove(min(own))
            assert chances[Effect.REROLL_OWN_LOWEST] == Fraction(
                sum(wins(lowest + [f], opp) for f in FACES), 6)
            highest = list(opp)
            highest.remove(max(opp))
            assert chances[Effect.REROLL_THEIR_HIGHEST] == Fraction(
                sum(wins(own, highest + [f]) for f in FACES), 6)
            assert win_chance_now(own, opp, own_add, opp_add, attacker=attacker) == int(
                wins(own, opp))


def _expectimax(own, opp, margin, ups, downs, attacker):
    """An independent, unmemoised best-play search over every card order."""
    me, them = sum(own) + margin, sum(opp)
    best = Fraction(int(me >= them if attacker else me > them))
    if ups:
        rest = sorted(own)[1:]
        best = max(best, sum(_expectimax(rest + [f], opp, margin, ups - 1, downs, attacker)
                             for f in FACES) / 6)
    if downs:
        rest = sorted(opp)[:-1]
        best = max(best, sum(_expectimax(own, rest + [f], margin, ups, downs - 1, attacker)
                             for f in FACES) / 6)
    return best


def test_d11_best_run_chance_equals_an_independent_search():
    rng = random.Random(9)
    for _ in range(150):
        own = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 3)))
        opp = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 3)))
        adds = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2)))
        ups, downs = rng.randint(0, 2), rng.randint(0, 2)
        attacker = rng.random() < 0.5
        best = best_run_chance(own, opp, 1, 2, adds=adds, ups=ups, downs=downs,
                               attacker=attacker)
        assert best == _expectimax(list(own), list(opp), 1 - 2 + sum(adds), ups, downs,
                                   attacker)
        options = run_options(own, opp, 1, 2, adds=adds, ups=ups, downs=downs,
                              attacker=attacker)
        assert max(options.values()) == best
        assert set(options) == {"lock_in"} | ({"add"} if adds else set()) | (
            {"reroll_own_lowest"} if ups else set()) | ({"reroll_their_highest"} if downs
                                                        else set())


@pytest.mark.slow
def test_d11_following_run_options_wins_as_often_as_best_run_chance_says():
    rng = random.Random(3)
    own, opp, ups, downs = (2, 3), (4, 5), 2, 1
    expected = best_run_chance(own, opp, ups=ups, downs=downs, attacker=False)
    n, wins = 20_000, 0
    for _ in range(n):
        mine, theirs, u, d = list(own), list(opp), ups, downs
        while True:
            options = run_options(mine, theirs, ups=u, downs=d, attacker=False)
            choice = max(options, key=lambda k: (options[k], k == "lock_in"))
            if choice == "lock_in":
                break
            if choice == "reroll_own_lowest":
                mine.remove(min(mine))
                mine.append(rng.randint(1, 6))
                u -= 1
            else:
                theirs.remove(max(theirs))
                theirs.append(rng.randint(1, 6))
                d -= 1
        wins += sum(mine) > sum(theirs)
    p = float(expected)
    assert abs(wins / n - p) < 5 * math.sqrt(p * (1 - p) / n)


def test_d11_effect_of_each_card():
    assert effect_of_card(card_ids("C1")[0]) is Effect.ADD_1
    assert effect_of_card(card_ids("D3")[0]) is Effect.ADD_3
    assert effect_of_card(card_ids("E↑")[0]) is Effect.REROLL_OWN_LOWEST
    assert effect_of_card(card_ids("E↓")[0]) is Effect.REROLL_THEIR_HIGHEST
    assert effect_of_card(card_ids("Wild")[0]) is Effect.ADD_1
    assert chance_after_card(Effect.ADD_2, (1,), (3,), attacker=True) == 1
    assert chance_after_card(Effect.ADD_2, (1,), (3,), attacker=False) == 0
    with pytest.raises(ValueError):
        chance_after_card(Effect.ADD_1, (7,), (3,), attacker=True)


# -- honest odds (duel_odds): the other side's best reply; runs, not single cards ------------


def duel_view(own: tuple[int, ...], opp: tuple[int, ...], hand: str, *, attacker: bool = True,
              other_hand: int = 0, unseen: str = "", own_add: int = 0, opp_add: int = 0):
    """The view of the side to play in a duel, made by hand: its dice ``own`` against the
    other side's ``opp``, its ``hand``; the other side holds ``other_hand`` cards dealt
    from the ``unseen`` ones (every other card is in the discard pile)."""
    from dataclasses import replace

    from musicgames.duel import Phase

    state = DuelState.from_position(hands=("C1", ""), tokens=([], [(0, 2)]))
    state.apply(Place(card_ids("C1"), key=0))
    view = state.view(WHITE)
    mine = card_ids(hand) if hand else ()
    pool = card_ids(unseen) if unseen else ()
    wild_base = sum(1 for c in mine if c >= 35)  # card_ids numbers Wilds from the first
    pool = tuple(c + wild_base if c >= 35 else c for c in pool)
    discard = tuple(c for c in range(42) if c not in mine and c not in pool)
    seat = WHITE if attacker else 1 - WHITE
    duel = replace(
        view.duel,
        attacker_dice=own if attacker else opp, defender_dice=opp if attacker else own,
        attacker_add=own_add if attacker else opp_add,
        defender_add=opp_add if attacker else own_add,
        to_act=seat)
    sizes = (len(mine), other_hand) if attacker else (other_hand, len(mine))
    return replace(view, seat=seat, to_act=seat, hand=mine, hand_sizes=sizes,
                   discard=discard, duel=duel,
                   phase=Phase.ATTACK if attacker else Phase.DEFEND)


def test_d11_attack_6_vs_4_is_certain_only_when_the_defender_holds_no_card():
    odds = duel_odds(duel_view((6,), (4,), "", other_hand=0))
    assert odds.exact and odds.now == 1 and odds.best == 1


def test_d11c_attack_6_vs_4_against_a_defender_who_may_hold_a_3():
    # The defender holds one of E3, E1: with E3 it answers 7 > 6 (wins), with E1 5 < 6.
    odds = duel_odds(duel_view((6,), (4,), "D1", other_hand=1, unseen="E3 E1"))
    assert odds.exact
    assert odds.now == Fraction(1, 2)
    # Playing D1 first makes 7: E3 gives the defender 7, not more; the attacker wins ties.
    assert odds.after_card == {card_ids("D1")[0]: 1}
    assert odds.best == 1


def test_d11c_a_defender_reroll_of_the_attackers_highest_die_counts():
    # Defender holds E↓ or E2. E↓ rerolls the attacker's 6: the defender's 4 wins if the new
    # die shows 1–3 (1/2); E2 makes 6, a tie, which the attacker wins.
    odds = duel_odds(duel_view((6,), (4,), "", other_hand=1, unseen="E↓ E2"))
    assert odds.now == 1 - Fraction(1, 2) * Fraction(1, 2)


def test_d11_defending_5_vs_8_two_cards_together_win():
    # Each card alone loses (6 and 8 are not more than 8); the run of both makes 9.
    d1, d3 = card_ids("D1 D3")
    odds = duel_odds(duel_view((5,), (6,), "D1 D3", attacker=False, opp_add=2))
    assert odds.exact and not odds.attacker
    assert odds.now == 0
    assert odds.best == 1
    assert odds.after_card == {d1: 1, d3: 1}


def test_d11b_a_wild_joins_either_letter_and_makes_the_winning_run():
    d1, e3, wild = card_ids("D1 E3 Wild")
    odds = duel_odds(duel_view((5,), (6,), "D1 E3 Wild", attacker=False, opp_add=2))
    assert odds.best == 1  # E3 + Wild: 5 + 3 + 1 = 9 > 8
    assert odds.after_card[d1] == 0  # D1 + Wild: 7
    assert odds.after_card[e3] == 1 and odds.after_card[wild] == 1


def test_d11b_rerolls_are_chosen_seeing_the_dice():
    # The defender's 2 against 5: its ↑ rerolls its own lowest die, winning on a 6.
    up = card_ids("D↑")[0]
    odds = duel_odds(duel_view((2,), (5,), "D↑", attacker=False))
    assert (odds.now, odds.best, odds.after_card) == (0, Fraction(1, 6), {up: Fraction(1, 6)})
    # The attacker's 2, 3 against 6 with an ↑ and no answer possible: 3 + (3..6) ≥ 6: 2/3.
    odds = duel_odds(duel_view((2, 3), (6,), "D↑"))
    assert (odds.now, odds.best, odds.after_card) == (0, Fraction(2, 3), {up: Fraction(2, 3)})
    # With 3, 3 the tie already wins (D11d): locking in is certain, the reroll would not be.
    odds = duel_odds(duel_view((3, 3), (6,), "D↑"))
    assert (odds.now, odds.best, odds.after_card) == (1, 1, {up: Fraction(2, 3)})


def test_d11b_the_attacker_adds_then_rerolls_their_highest():
    # Attacker 3 against 5, holding D1 and D↓, no answer possible: add 1 (4), then reroll
    # the defender's 5: the attacker wins when the new die shows 1–4 (2/3).
    d1, down = card_ids("D1 D↓")
    odds = duel_odds(duel_view((3,), (5,), "D1 D↓"))
    assert odds.now == 0
    assert odds.best == Fraction(2, 3)
    assert odds.after_card == {d1: Fraction(2, 3), down: Fraction(2, 3)}


def test_d11c_a_run_already_tied_to_a_letter_lists_only_fitting_cards():
    from dataclasses import replace

    view = duel_view((5,), (6,), "E3 Wild", attacker=False, opp_add=2)
    d1 = card_ids("D1")[0]
    view = replace(view, duel=replace(view.duel, defender_run=(d1,)),
                   discard=tuple(sorted(view.discard)))
    odds = duel_odds(view)
    assert set(odds.after_card) == {card_ids("Wild")[0]}
    assert odds.best == 0  # D run: only the Wild joins: 5 + 1 = 6


def test_honest_odds_sample_large_hidden_hands_the_same_way_every_time():
    view = DuelState.new_game(3)
    state = DuelState.from_position(hands=("C1 D1 D↓ Wild", "E3 E1 F2 G↑ A↓"),
                                    tokens=([], [(0, 2)]))
    state.apply(Place(card_ids("C1"), key=0))
    view = state.view(WHITE)
    first, second = duel_odds(view), duel_odds(view)
    assert not first.exact and first == second
    assert 0 <= first.now <= first.best <= 1
    assert max(first.after_card.values()) == first.best


def test_defender_odds_agree_with_the_engine_over_every_die():
    # Exactness checked against the engine itself: the defender's 2 against 5 with D↑ wins
    # exactly when the reroll shows 6.
    odds = duel_odds(duel_view((2,), (5,), "D↑", attacker=False))
    wins = sum(1 for face in range(1, 7) if face > 5)
    assert odds.best == Fraction(wins, 6)
