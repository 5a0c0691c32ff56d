"""Keyboard Duel rules D1–D16, one test (or a few) per rule, from set-up or seeded positions."""

from __future__ import annotations

import json

import pytest

from musicgames.duel import (
    BLACK,
    COMPOSE_DECK,
    MAX_TURNS_PER_ROUND,
    PIANO_CARDS,
    WHITE,
    CardNotInHandError,
    Corner,
    DuelCard,
    DuelState,
    DuplicateCardError,
    EndTurn,
    KeyOffBoardError,
    LockIn,
    MixedLettersError,
    Move,
    MustActFirstError,
    NoCardsError,
    NoSuchPianoCardError,
    NotNowError,
    NoTokenLeftError,
    NoTokenThereError,
    NotYourTokenError,
    NotYourTurnError,
    Phase,
    Place,
    SecondMoveError,
    SecondPlaceError,
    Shift,
    TokenState,
    TooManyCardsError,
    WrongCardError,
    WrongKeyError,
    WrongStepsError,
    key_for_letter,
)
from musicgames.theory import ALL_TRIADS

C_MAJOR, D_MAJOR, G_MAJOR, C_MINOR = 0, 2, 7, 12


def ids(state: DuelState, seat: int, codes: str) -> tuple[int, ...]:
    """The ids of cards with these codes (``'D2'``, ``'C↑'``, ``'Wild'``) in a seat's hand."""
    hand = list(state.hand(seat))
    out: list[int] = []
    for code in codes.split():
        match = next(c for c in hand if str(COMPOSE_DECK[c]) == code and c not in out)
        out.append(match)
    return tuple(out)


def refused(state: DuelState, action: object, error: type[Exception], seat: int | None = None):
    """Apply an illegal action: the named error, and the state exactly as it was."""
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(action, seat=seat)  # type: ignore[arg-type]
    assert state.to_json() == before
    assert not state.is_legal(action, seat)
    assert action not in state.legal_actions() or seat is not None
    return info.value


def duel_setup(seed: int = 0, black_power: int = 1, white_hand: str = "C1 D1 D2 D3 Wild",
               black_hand: str = "E1 E2 E3 E↑ E↓") -> DuelState:
    """White to attack Black's token on key 0 (C, left) by placing C1 there."""
    state = DuelState.from_position(piano=(C_MAJOR, D_MAJOR), hands=(white_hand, black_hand),
                                    tokens=([], [(0, black_power)]), seed=seed)
    state.apply(Place(ids(state, WHITE, "C1"), key=0))
    return state


def seed_where(condition, **kwargs) -> DuelState:
    for seed in range(500):
        state = duel_setup(seed, **kwargs)
        if condition(state.duel):
            return state
    raise AssertionError("no seed found")


# -- D1 players -------------------------------------------------------------------------------


def test_d1_two_players_white_moves_first_in_round_one():
    for seed in range(5):
        state = DuelState.new_game(seed)
        assert state.round == 1
        assert state.seat_to_act == WHITE == state.turn == state.starter
        assert state.phase is Phase.TURN
        assert len(state.tokens(WHITE)) == len(state.tokens(BLACK)) == 5


# -- D2 board ---------------------------------------------------------------------------------


def test_d2_board_of_24_keys_black_keys_count_and_moves_wrap():
    state = DuelState.from_position(hands=("C1 C2 Wild", "E1"), tokens=([(23, 1), (0, 2)], []))
    assert len([k for k in range(24) if state.key_multiplier(k) >= 1]) == 24
    # one key right of key 23 is key 0; a token already there merges (D10)
    state.apply(Move(ids(state, WHITE, "C1")[0], key=23, steps=1))
    assert state.board_token(0).power == 3 and state.board_token(23) is None
    state.apply(EndTurn())
    state.apply(Place(ids(state, BLACK, "E1"), key=4))
    state.apply(EndTurn())
    # one key left of key 0 is key 23; black keys count: two keys left of C is A♯ (22)
    card = ids(state, WHITE, "C2")[0]
    state.apply(Move(card, key=0, steps=-2))
    assert state.board_token(22).seat == WHITE
    # a Wild placed alone may name a black key
    state.apply(Place(ids(state, WHITE, "Wild"), key=1))
    assert state.board_token(1).power == 1


def test_d2_arrow_shift_wraps_from_key_23_to_key_0():
    state = DuelState.from_position(hands=("C↑", ""), tokens=([(23, 1), (20, 2)], []))
    state.apply(Shift(ids(state, WHITE, "C↑")[0], piano=1))
    assert state.board_token(0).power == 1 and state.board_token(21).power == 2


# -- D3 piano cards ---------------------------------------------------------------------------


def test_d3_piano_cards_are_the_24_triads_named_by_music21():
    assert [c.triad for c in PIANO_CARDS] == list(ALL_TRIADS)
    names = {c.name() for c in PIANO_CARDS}
    assert len(names) == 24 and "D major" in names and "C♯ minor" in names
    assert {c.triad.quality for c in PIANO_CARDS[:12]} == {"major"}
    assert {c.triad.quality for c in PIANO_CARDS[12:]} == {"minor"}


def test_d3_piano_cards_drawn_without_replacement_until_spent():
    # the next two cards come off the top of the piano deck
    state = DuelState.from_position(piano=(0, 1), piano_deck=[5, 9, 4], hands=("", ""),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert state.round == 2
    assert [c.index for c in state.piano_cards] == [4, 9]
    assert state.view(WHITE).piano_deck_left == (5,)
    # when fewer than two are left, the whole deck of 24 is shuffled again
    state = DuelState.from_position(piano=(0, 1), piano_deck=[7], hands=("", ""),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    left = state.view(WHITE).piano_deck_left
    shown = {c.index for c in state.piano_cards}
    assert len(shown) == 2 and len(left) == 22 and shown.isdisjoint(left)
    # in whole games the piano cards never repeat within twelve rounds
    for seed in range(20):
        game = DuelState.new_game(seed)
        import random

        rng = random.Random(seed)
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
        shown_cards = [p for e in game.log if e["type"] == "round_start" for p in e["piano"]]
        assert len(shown_cards) == len(set(shown_cards)) == 2 * game.round


# -- D4 marks ---------------------------------------------------------------------------------


def test_d4_root_fff_third_ff_fifth_f_others_unmarked():
    d_major = PIANO_CARDS[D_MAJOR]
    assert d_major.marks == {2: "fff", 6: "ff", 9: "f"}
    assert [d_major.multiplier(pc) for pc in range(12)] == [1, 1, 3, 1, 1, 1, 2, 1, 1, 1, 1, 1]
    c_minor = PIANO_CARDS[C_MINOR]
    assert c_minor.marks == {0: "fff", 3: "ff", 7: "f"}
    state = DuelState.from_position(piano=(C_MINOR, D_MAJOR))
    assert [state.key_mark(k) for k in (0, 3, 7, 8, 14, 18, 21, 23)] == [
        "fff", "ff", "f", "", "fff", "ff", "f", ""]
    assert [state.key_multiplier(k) for k in (0, 3, 7, 8, 14, 18, 21, 23)] == [
        3, 2, 1, 1, 3, 2, 1, 1]


# -- D5 compose deck --------------------------------------------------------------------------


def test_d5_compose_deck_of_42_cards():
    assert len(COMPOSE_DECK) == 42
    lettered = [c for c in COMPOSE_DECK if not c.is_wild]
    assert len(lettered) == 35
    for letter in range(7):
        corners = sorted(c.corner for c in lettered if c.letter == letter)
        assert corners == [Corner.ONE, Corner.TWO, Corner.THREE, Corner.UP, Corner.DOWN]
    assert sum(c.is_wild for c in COMPOSE_DECK) == 7
    assert [COMPOSE_DECK[7].label("solfege"), COMPOSE_DECK[7].label("letters")] == ["Re3", "D3"]


# -- D6 setup ---------------------------------------------------------------------------------


def test_d6_setup_deals_five_each_and_a_fresh_deal_every_round():
    state = DuelState.new_game(3)
    assert state.hand_size(WHITE) == state.hand_size(BLACK) == 5
    assert state.draw_size == 32 and state.discard == ()
    assert all(t.state is TokenState.UNPLACED for s in (0, 1) for t in state.tokens(s))
    # end round 1 at once: White passes with an empty hand on the 60th turn
    state = DuelState.from_position(hands=("", "E1"), discard="C1 C2 C3 D1",
                                    tokens=([(4, 2), "beaten"], [(7, 1)]),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert state.round == 2
    assert state.hand_size(WHITE) == state.hand_size(BLACK) == 5
    assert state.draw_size == 32 and state.discard == ()
    assert all(t.state is TokenState.UNPLACED for s in (0, 1) for t in state.tokens(s))
    deal = [e for e in state.log if e["type"] == "deal"]
    assert [len(e["cards"]) for e in deal[-2:]] == [5, 5]


# -- D7 turn ----------------------------------------------------------------------------------


def test_d7_one_place_and_one_move_in_either_order_then_refill():
    state = DuelState.from_position(hands=("D1 D2 E1 E2 F1", "G1"), tokens=([(0, 1)], []))
    refused(state, EndTurn(), MustActFirstError)
    state.apply(Move(ids(state, WHITE, "D1")[0], key=0, steps=1))  # move first ...
    refused(state, Move(ids(state, WHITE, "D2")[0], key=1, steps=2), SecondMoveError)
    state.apply(Place(ids(state, WHITE, "E1 E2"), key=4))  # ... then place
    refused(state, Place(ids(state, WHITE, "F1"), key=5), SecondPlaceError)
    assert set(state.legal_actions()) == {EndTurn()}
    state.apply(EndTurn())
    assert state.hand_size(WHITE) == 5 and state.seat_to_act == BLACK
    # place first, then move the token just placed
    state.apply(Place(ids(state, BLACK, "G1"), key=7))
    assert state.legal_actions() == (EndTurn(),)  # Black's hand is empty now
    state.apply(EndTurn())


def test_d7_refill_reshuffles_the_discard_when_the_draw_pile_is_empty():
    state = DuelState.from_position(hands=("D1", "E1 E2 E3 E↑ E↓"), draw=[])
    assert state.draw_size == 0 and len(state.discard) == 36
    state.apply(Place(ids(state, WHITE, "D1"), key=2))
    state.apply(EndTurn())
    assert state.hand_size(WHITE) == 5
    assert state.draw_size == 37 - 5 and len(state.discard) == 0
    assert any(e["type"] == "reshuffle" for e in state.log)


def test_d7_a_player_with_no_legal_action_passes_and_still_refills():
    state = DuelState.from_position(hands=("", "E1"), tokens=([(4, 1)], []))
    assert state.legal_actions() == (EndTurn(),)
    state.apply(EndTurn())
    assert state.hand_size(WHITE) == 5
    assert [e for e in state.log if e["type"] == "end_turn"][-1]["passed"] is True
    # all five tokens spent and none on the board: no action either, whatever the hand
    state = DuelState.from_position(hands=("D1 D2", "E1"),
                                    tokens=(["beaten", "merged", "beaten", "beaten", "beaten"],
                                            []))
    assert state.legal_actions() == (EndTurn(),)


# -- D8 place ---------------------------------------------------------------------------------


def test_d8_place_one_letter_plus_wilds_power_is_the_number_of_cards():
    state = DuelState.from_position(hands=("D1 D2 Wild E1 D↑", "E2"))
    d_cards = ids(state, WHITE, "D1 D2 Wild D↑")
    for key in (2, 14):  # the D key on either piano card
        assert Place(d_cards, key) in state.legal_actions()
    refused(state, Place(d_cards, key=3), WrongKeyError)
    refused(state, Place(ids(state, WHITE, "D1 E1"), key=2), MixedLettersError)
    refused(state, Place((), key=2), NoCardsError)
    refused(state, Place(tuple(range(7)), key=2), TooManyCardsError)
    refused(state, Place(ids(state, WHITE, "D1") * 2, key=2), DuplicateCardError)
    refused(state, Place((30,), key=9), CardNotInHandError)
    refused(state, Place(ids(state, WHITE, "D1"), key=24), KeyOffBoardError)
    refused(state, Place(ids(state, WHITE, "D1"), key=-1), KeyOffBoardError)
    state.apply(Place(d_cards, key=14))
    token = state.board_token(14)
    assert (token.seat, token.power, token.state) == (WHITE, 4, TokenState.ON_BOARD)
    assert set(d_cards) <= set(state.discard)


def test_d8_wilds_alone_name_any_key_black_keys_included():
    state = DuelState.from_position(hands=("Wild Wild C1", "E2"))
    wilds = ids(state, WHITE, "Wild Wild")
    keys = {a.key for a in state.legal_actions() if isinstance(a, Place) and a.cards == wilds}
    assert keys == set(range(24))
    state.apply(Place(wilds, key=13))  # C♯ on the right card
    assert state.board_token(13).power == 2


def test_d8_no_place_once_all_five_tokens_are_placed():
    state = DuelState.from_position(hands=("D1", "E2"),
                                    tokens=([(0, 1), (1, 1), (3, 1), "merged", "beaten"], []))
    refused(state, Place(ids(state, WHITE, "D1"), key=2), NoTokenLeftError)


# -- D9 move ----------------------------------------------------------------------------------


def test_d9_number_cards_move_one_token_exactly_that_many_keys_either_way():
    state = DuelState.from_position(hands=("C3 C↑ Wild", "E2"), tokens=([(5, 2)], [(9, 1)]))
    three = ids(state, WHITE, "C3")[0]
    refused(state, Move(three, key=5, steps=2), WrongStepsError)
    refused(state, Move(three, key=9, steps=3), NotYourTokenError)
    refused(state, Move(three, key=6, steps=3), NoTokenThereError)
    refused(state, Move(ids(state, WHITE, "C↑")[0], key=5, steps=1), WrongCardError)
    assert Move(three, key=5, steps=3) in state.legal_actions()
    state.apply(Move(three, key=5, steps=-3))
    assert state.board_token(2).power == 2 and state.board_token(5) is None


def test_d9_a_wild_played_to_move_counts_as_one():
    state = DuelState.from_position(hands=("Wild", "E2"), tokens=([(5, 2)], []))
    wild = ids(state, WHITE, "Wild")[0]
    refused(state, Move(wild, key=5, steps=2), WrongStepsError)
    moves = [a for a in state.legal_actions() if isinstance(a, Move)]
    assert sorted(a.steps for a in moves) == [-1, 1]
    state.apply(Move(wild, key=5, steps=1))
    assert state.board_token(6).power == 2


def test_d9_arrows_shift_every_own_token_on_one_card_up_right_down_left():
    state = DuelState.from_position(hands=("C↑ C↓ C1", "E2 E↓"),
                                    tokens=([(2, 1), (8, 2), (15, 3)], [(4, 1)]))
    refused(state, Shift(ids(state, WHITE, "C1")[0], piano=0), WrongCardError)
    refused(state, Shift(ids(state, WHITE, "C↑")[0], piano=2), NoSuchPianoCardError)
    state.apply(Shift(ids(state, WHITE, "C↑")[0], piano=0))
    assert state.board_token(3).power == 1 and state.board_token(9).power == 2
    assert state.board_token(15).power == 3  # the other card's token stays
    assert state.board_token(4).seat == BLACK  # the opponent's token stays
    state.apply(EndTurn())
    refused(state, Shift(ids(state, BLACK, "E↓")[0], piano=1), NoTokenThereError)
    state.apply(Shift(ids(state, BLACK, "E↓")[0], piano=0))  # ↓ = one key left
    assert state.board_token(3).seat == WHITE  # Black moved from 4 onto White's 3: a duel
    assert state.phase is Phase.ATTACK and state.duel.key == 3


def test_d9_arrow_merges_and_duels_resolve_one_key_at_a_time_from_key_0_up():
    # White shifts the left card right: 2→3 (duel), 6→7 (duel), 11→12 (merge with own)
    state = DuelState.from_position(
        piano=(C_MAJOR, D_MAJOR), hands=("C↑", "E1"),
        tokens=([(2, 1), (6, 1), (11, 2), (12, 3)], [(3, 1), (7, 1)]),
    )
    state.apply(Shift(ids(state, WHITE, "C↑")[0], piano=0))
    assert state.phase is Phase.ATTACK and state.duel.key == 3
    waiting = state.arriving
    assert [t.key for t in waiting] == [3, 7, 12]
    assert state.board_token(12).power == 3  # the merge waits its turn
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.phase is Phase.ATTACK and state.duel.key == 7
    assert state.board_token(12).power == 3
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.phase is Phase.TURN and state.arriving == ()
    assert state.board_token(12).power == 5  # merged after both duels
    assert sum(t.state is TokenState.MERGED for t in state.tokens(WHITE)) == 1
    kinds = [e["type"] for e in state.log if e["type"] in ("duel", "merge")]
    assert kinds == ["duel", "duel", "merge"]


# -- D10 amplify ------------------------------------------------------------------------------


def test_d10_amplify_merges_powers_up_to_6_and_the_arriving_token_is_merged():
    state = DuelState.from_position(hands=("D1 D2 D3 C1 Wild", "E1"), tokens=([(2, 4)], []))
    state.apply(Place(ids(state, WHITE, "D1 D2 D3"), key=2))  # 4 + 3 = 7 → 6
    holder = state.board_token(2)
    assert holder.power == 6 and holder.index == 0
    second = state.tokens(WHITE)[1]
    assert second.state is TokenState.MERGED and second.key is None
    merge = [e for e in state.log if e["type"] == "merge"][-1]
    assert (merge["power"], merge["lost"]) == (6, 1)
    # moving onto one's own token merges too
    state = DuelState.from_position(hands=("C1", "E1"), tokens=([(2, 1), (3, 2)], []))
    state.apply(Move(ids(state, WHITE, "C1")[0], key=2, steps=1))
    assert state.board_token(3).power == 3 and state.tokens(WHITE)[0].state is TokenState.MERGED


# -- D11 duels --------------------------------------------------------------------------------


def test_d11a_each_side_rolls_half_its_power_rounded_up():
    for black_power, white_cards, dice in ((1, "C1", (1, 1)), (4, "C1 Wild Wild", (2, 2)),
                                          (6, "C1 C2 C3 Wild Wild", (3, 3))):
        state = DuelState.from_position(hands=(white_cards, "E1"), tokens=([], [(0, black_power)]))
        state.apply(Place(ids(state, WHITE, white_cards), key=0))
        duel = state.duel
        assert (len(duel.attacker_dice), len(duel.defender_dice)) == dice
        assert all(1 <= d <= 6 for d in duel.attacker_dice + duel.defender_dice)


def test_d11a_dice_come_from_the_seeded_generator():
    rolls = {duel_setup(seed).duel.attacker_dice + duel_setup(seed).duel.defender_dice
             for seed in range(40)}
    assert len(rolls) > 10
    assert duel_setup(5).duel == duel_setup(5).duel


def test_d11b_attacker_run_one_letter_plus_wilds_cards_act_in_order():
    for seed in range(100):  # White moves its power-4 token onto Black's: two dice each
        state = DuelState.from_position(hands=("C1 D1 D↑ D↓ F1", "E1"),
                                        tokens=([(1, 4)], [(0, 4)]), seed=seed)
        state.apply(Move(ids(state, WHITE, "C1")[0], key=1, steps=-1))
        if len(set(state.duel.attacker_dice)) == len(set(state.duel.defender_dice)) == 2:
            break
    assert state.seat_to_act == WHITE and state.phase is Phase.ATTACK
    assert state.duel.run_letter is None
    state.apply(DuelCard(ids(state, WHITE, "D1")[0]))
    assert state.duel.attacker_add == 1
    refused(state, DuelCard(ids(state, WHITE, "F1")[0]), MixedLettersError)
    assert state.duel.run_letter == "D"
    before = state.duel
    state.apply(DuelCard(ids(state, WHITE, "D↓")[0]))  # reroll the defender's highest die
    event = state.log[-1]
    assert event["effect"] == "reroll_their_highest"
    assert event["old"] == max(before.defender_dice)
    assert event["die"] == before.defender_dice.index(max(before.defender_dice))
    after = list(before.defender_dice)
    after[event["die"]] = event["new"]
    assert state.duel.defender_dice == tuple(after)
    before = state.duel
    state.apply(DuelCard(ids(state, WHITE, "D↑")[0]))  # reroll own lowest die
    event = state.log[-1]
    assert event["effect"] == "reroll_own_lowest" and event["old"] == min(before.attacker_dice)
    assert event["die"] == before.attacker_dice.index(min(before.attacker_dice))
    after = list(before.attacker_dice)
    after[event["die"]] = event["new"]
    assert state.duel.attacker_dice == tuple(after)
    assert [COMPOSE_DECK[c].label() for c in state.duel.attacker_run] == ["D1", "D↓", "D↑"]
    assert state.duel.attacker_add == 1  # rerolls add nothing


def test_d11b_wilds_join_any_run_and_add_1():
    state = duel_setup(black_hand="Wild E2 F1 E↑ E↓")
    state.apply(LockIn())
    state.apply(DuelCard(ids(state, BLACK, "Wild")[0]))
    assert state.duel.defender_add == 1 and state.duel.run_letter is None
    state.apply(DuelCard(ids(state, BLACK, "F1")[0]))  # the first letter fixes the run's
    assert state.duel.run_letter == "F" and state.duel.defender_add == 2
    refused(state, DuelCard(ids(state, BLACK, "E2")[0]), MixedLettersError)
    assert DuelCard(ids(state, BLACK, "E2")[0]) not in state.legal_actions()


def test_d11c_defender_sees_the_attackers_run_then_plays_and_locks_in():
    state = duel_setup(black_power=2)
    state.apply(DuelCard(ids(state, WHITE, "D3")[0]))
    refused(state, LockIn(), NotYourTurnError, seat=BLACK)
    state.apply(LockIn(), seat=WHITE)
    assert state.phase is Phase.DEFEND and state.seat_to_act == BLACK
    view = state.view(BLACK)
    assert [COMPOSE_DECK[c].label() for c in view.duel.attacker_run] == ["D3"]
    assert view.duel.attacker_add == 3 and view.my_decision
    assert view.duel.attacker_dice == state.duel.attacker_dice
    refused(state, DuelCard(ids(state, WHITE, "D1")[0]), NotYourTurnError, seat=WHITE)
    refused(state, EndTurn(), NotNowError)
    refused(state, Place(ids(state, WHITE, "D1"), key=2), NotNowError)
    state.apply(DuelCard(ids(state, BLACK, "E3")[0]), seat=BLACK)
    state.apply(DuelCard(ids(state, BLACK, "E2")[0]), seat=BLACK)
    assert state.duel.defender_add == 5
    state.apply(LockIn(), seat=BLACK)
    assert state.phase is Phase.TURN and state.seat_to_act == WHITE


def test_d11d_attacker_wins_ties():
    state = seed_where(lambda d: d.attacker_total == d.defender_total)
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.board_token(0).seat == WHITE
    assert state.log[-1]["winner"] == WHITE


def test_d11d_the_higher_total_wins():
    state = seed_where(lambda d: d.attacker_total < d.defender_total)
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.board_token(0).seat == BLACK
    state = seed_where(lambda d: d.attacker_total == d.defender_total)
    state.apply(LockIn())
    state.apply(DuelCard(ids(state, BLACK, "E1")[0]))  # the defender now leads by 1
    state.apply(LockIn())
    assert state.board_token(0).seat == BLACK


def test_d11e_loser_is_beaten_and_the_winner_holds_the_key():
    state = seed_where(lambda d: d.attacker_total > d.defender_total)
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.tokens(BLACK)[0].state is TokenState.BEATEN
    assert state.board_token(0) == state.tokens(WHITE)[0]
    assert state.tokens(WHITE)[0].state is TokenState.ON_BOARD
    state = seed_where(lambda d: d.attacker_total < d.defender_total)
    state.apply(LockIn())
    state.apply(LockIn())
    assert state.tokens(WHITE)[0].state is TokenState.BEATEN
    assert state.board_token(0) == state.tokens(BLACK)[0]


def test_d11f_duel_cards_are_discarded_and_the_defender_starts_short():
    state = duel_setup()
    state.apply(DuelCard(ids(state, WHITE, "D2")[0]))
    state.apply(LockIn())
    e3, e2 = ids(state, BLACK, "E3 E2")
    state.apply(DuelCard(e3))
    state.apply(DuelCard(e2))
    state.apply(LockIn())
    assert {e3, e2} <= set(state.discard)
    assert state.hand_size(BLACK) == 3 and state.hand_size(WHITE) == 3
    state.apply(EndTurn())
    assert state.hand_size(WHITE) == 5 and state.hand_size(BLACK) == 3
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Place)))
    state.apply(EndTurn())
    assert state.hand_size(BLACK) == 5


# -- D12 round end ----------------------------------------------------------------------------


def test_d12_after_a_player_places_the_fifth_token_the_opponent_takes_one_final_turn():
    state = DuelState.from_position(
        hands=("C1 C2", "E1 E2"),
        tokens=([(4, 1), (7, 1), "merged", "beaten"], [(14, 1)]),
    )
    state.apply(Place(ids(state, WHITE, "C1"), key=0))
    assert not state.final_turn
    state.apply(EndTurn())
    assert state.final_turn and state.seat_to_act == BLACK and state.round == 1
    state.apply(Place(ids(state, BLACK, "E1"), key=16))
    state.apply(EndTurn())
    assert state.round == 2 and len(state.round_scores) == 1


def test_d12_no_final_turn_while_a_token_is_unplaced():
    state = DuelState.from_position(hands=("C1 C2", "E1 E2"), tokens=([(4, 1)], [(14, 1)]))
    state.apply(Place(ids(state, WHITE, "C1"), key=0))
    state.apply(EndTurn())
    assert not state.final_turn and state.round == 1


def test_d12_a_round_ends_after_60_turns_in_all():
    state = DuelState.from_position(hands=("C1", "E1"), turns=MAX_TURNS_PER_ROUND - 2)
    state.apply(Place(ids(state, WHITE, "C1"), key=0))
    state.apply(EndTurn())
    assert state.round == 1 and state.turn_number == MAX_TURNS_PER_ROUND
    state.apply(Place(ids(state, BLACK, "E1"), key=4))
    state.apply(EndTurn())
    assert state.round == 2 and state.round_scores == ((3, 2),)


# -- D13 scoring ------------------------------------------------------------------------------


def test_d13_power_times_marks_plus_one_for_every_colored_key_of_a_card():
    state = DuelState.from_position(
        piano=(C_MAJOR, D_MAJOR), hands=("", "E1"),
        tokens=([(0, 2), (4, 1), (7, 3)], [(14, 2), (15, 4)]),
        turns=MAX_TURNS_PER_ROUND - 1,
    )
    white = [t.score for t in state.tokens(WHITE)]
    assert white == [6, 2, 3, 0, 0]  # C fff ×3, E ff ×2, G f ×1
    assert [t.score for t in state.tokens(BLACK)][:2] == [6, 4]  # D fff ×3, D♯ unmarked ×1
    assert state.running_scores() == (6 + 2 + 3 + 1, 6 + 4)  # White holds C, E and G
    state.apply(EndTurn())  # the 60th turn: the round is scored
    assert state.round_scores == ((12, 10),) and state.totals == (12, 10)


def test_d13_no_chord_bonus_when_the_colored_keys_are_shared():
    state = DuelState.from_position(piano=(C_MAJOR, D_MAJOR), hands=("", ""),
                                    tokens=([(0, 1), (4, 1)], [(7, 1)]))
    assert state.running_scores() == (3 + 2, 1)


# -- D14 next round ---------------------------------------------------------------------------


def test_d14_the_lower_scorer_starts_the_next_round():
    state = DuelState.from_position(hands=("", "E1"), tokens=([(0, 1)], [(4, 1)]),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())  # White 3, Black 2
    assert state.round == 2 and state.starter == BLACK == state.seat_to_act
    assert [c.index for c in state.piano_cards] != [0, 1]
    assert all(t.state is TokenState.UNPLACED for s in (0, 1) for t in state.tokens(s))


def test_d14_after_a_tied_round_the_player_who_moved_second_starts():
    for starter in (WHITE, BLACK):
        state = DuelState.from_position(hands=("", ""), turn=starter,
                                        turns=MAX_TURNS_PER_ROUND - 1)
        state.apply(EndTurn())
        assert state.round_scores == ((0, 0),)
        assert state.starter == 1 - starter == state.seat_to_act


# -- D15 winning ------------------------------------------------------------------------------


def test_d15_after_three_rounds_the_higher_total_wins():
    state = DuelState.from_position(round=2, totals=(9, 1), hands=("", ""),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert not state.is_terminal() and state.round == 3
    state = DuelState.from_position(round=3, totals=(4, 9), round_scores=[(4, 0), (0, 9)],
                                    hands=("", ""), tokens=([(0, 2)], []),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())  # White scores 6: 10 against 9
    assert state.is_terminal() and state.winner == WHITE and state.totals == (10, 9)
    assert state.legal_actions() == () and state.seat_to_act is None
    assert state.log[-1] == {"type": "game_over", "winner": WHITE, "totals": [10, 9]}


def test_d15_tied_totals_send_the_game_to_extra_rounds():
    state = DuelState.from_position(round=3, totals=(5, 5), round_scores=[(5, 0), (0, 5)],
                                    hands=("", ""), turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert not state.is_terminal() and state.round == 4
    state = DuelState.from_position(round=4, totals=(5, 5),
                                    round_scores=[(5, 0), (0, 5), (0, 0)], hands=("", ""),
                                    tokens=([], [(3, 1)]), turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert state.is_terminal() and state.winner == BLACK and state.round == 4


# -- D16 hidden information -------------------------------------------------------------------


def test_d16_a_seat_view_holds_its_own_hand_and_public_facts_only():
    state = DuelState.new_game(11)
    view = state.view(WHITE)
    assert view.hand == state.hand(WHITE)
    assert view.hand_sizes == (5, 5) and view.draw_size == 32
    assert set(vars(view)) == {
        "seat", "to_act", "phase", "round", "starter", "turn", "turn_number", "final_turn",
        "placed", "moved", "hand", "hand_sizes", "draw_size", "discard", "piano",
        "piano_deck_left", "token_states", "token_keys", "token_powers", "board", "duel",
        "pending", "totals", "round_scores"}
    shown = set(view.hand) | set(view.discard)
    black_hand = set(state.hand(BLACK))
    # no field of the view holds Black's cards or the draw order
    for name, value in vars(view).items():
        if name in ("hand", "discard"):
            continue
        assert not (isinstance(value, tuple) and len(value) >= 5
                    and set(value) >= black_hand), name
    assert shown.isdisjoint(black_hand)
    assert set(view.unseen_cards()) == black_hand | set(state.draw_pile)


def test_d16_hidden_cards_do_not_change_the_view():
    a = DuelState.from_position(hands=("C1 C2", "E1 E2 E3"), tokens=([(4, 1)], []), seed=1)
    b = DuelState.from_position(hands=("C1 C2", "F1 G2 Wild"), tokens=([(4, 1)], []), seed=2)
    assert a.draw_pile != b.draw_pile
    assert a.view(WHITE) == b.view(WHITE)
    assert a.view(BLACK) != b.view(BLACK)
    # a computer player sampling the hidden cards from the view sees the same game
    import random

    sa = DuelState.from_view(a.view(WHITE), random.Random(4))
    sb = DuelState.from_view(b.view(WHITE), random.Random(4))
    assert json.loads(sa.to_json())["position"] == json.loads(sb.to_json())["position"]
    assert sa.view(WHITE) == a.view(WHITE)


def test_d16_events_hide_the_other_seats_cards():
    state = DuelState.new_game(2)
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Place)))
    state.apply(EndTurn())
    seen_by_black = state.events(BLACK)
    white_deal = [e for e in seen_by_black if e["type"] in ("deal", "draw") and e["seat"] == 0]
    assert white_deal and all("cards" not in e and "count" in e for e in white_deal)
    own = [e for e in state.events(WHITE) if e["type"] in ("deal", "draw") and e["seat"] == 0]
    assert all("cards" in e for e in own)


def test_d16_legal_actions_from_the_view_equal_the_states():
    state = duel_setup()
    assert state.view(WHITE).legal_actions() == state.legal_actions()
    assert state.view(BLACK).legal_actions() == ()
    state.apply(LockIn())
    assert state.view(BLACK).legal_actions() == state.legal_actions()


def test_d8_key_for_letter_matches_the_place_keys():
    assert [key_for_letter(x, 0) for x in "CDEFGAB"] == [0, 2, 4, 5, 7, 9, 11]
    assert key_for_letter("Si", 1) == 23
