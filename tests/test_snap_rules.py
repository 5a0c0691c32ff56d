"""One test (at least) per Note Snap rule S1–S16, named after the rule it checks.

S17 (computer players) is tested in ``test_snap_bots.py``. Positions are set up with
``stacked_deal``: each seat's first flips are chosen, the rest of the deck lies under them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from musicgames.snap import (
    CALL_CYCLE,
    DECK,
    GUIDE_CARD,
    CallMode,
    CallModeError,
    CloseSlaps,
    ConfigError,
    Flip,
    Flipped,
    GameOverError,
    LateSlapError,
    NotYourTurnError,
    Outcome,
    Phase,
    ReactionTimeError,
    Reason,
    Slap,
    SnapConfig,
    SnapState,
    cards_of,
    guide_card,
    new_game,
    stacked_deal,
)
from musicgames.theory import CARD_NOTES, Naming, Note

DO3, DO4, DO5 = cards_of("Do3")[0], cards_of("Do4")[0], cards_of("Do5")[0]


def name_cards(name: str) -> list[int]:
    return list(cards_of(name))


def non_matching_run(count: int, start_call: int = 0) -> list[int]:
    """Cards for ``count`` flips in a row that never match their call (each card shows the
    name after the one called), using every name's cards in turn."""
    pools = {i: name_cards(CALL_CYCLE[i]) for i in range(7)}
    run = []
    for k in range(count):
        run.append(pools[(start_call + k + 1) % 7].pop())
    return run


def table(first_flips: list[list[int]], opener: int = 0, **settings: object) -> SnapState:
    config = SnapConfig(players=len(first_flips), **settings)  # type: ignore[arg-type]
    return SnapState.from_deal(stacked_deal(first_flips), config, opener)


def outcome_of(events: tuple[object, ...]) -> Outcome:
    outcomes = [e for e in events if isinstance(e, Outcome)]
    assert outcomes, f"no outcome in {events!r}"
    return outcomes[-1]


def total_cards(state: SnapState) -> int:
    return sum(state.hand_sizes) + len(state.centre)


# -- S1, S2: the cards ----------------------------------------------------------------------


def test_s1_deck_has_56_cards_8_of_each_name_from_do3_to_do5() -> None:
    assert len(DECK) == 56
    assert Counter(n.syllable for n in DECK) == {name: 8 for name in CALL_CYCLE}
    by_note = Counter(n.solfege for n in DECK)
    assert by_note["Do3"] == 3 and by_note["Do4"] == 3 and by_note["Do5"] == 2
    for name in CALL_CYCLE[1:]:
        assert by_note[f"{name}3"] == 4 and by_note[f"{name}4"] == 4
    assert set(DECK) == set(CARD_NOTES)  # exactly the 15 card notes, all natural
    assert min(DECK).midi == 60 and max(DECK).midi == 84  # Do3 = C4 = 60, Do5 = C6 = 84
    assert all(n.is_natural for n in DECK)


def test_s2_guide_card_shows_all_15_notes_with_their_names() -> None:
    assert [note for note, _ in GUIDE_CARD] == list(CARD_NOTES)
    assert [label for _, label in GUIDE_CARD][:2] == ["Do3", "Re3"]
    assert guide_card(Naming.LETTERS)[-1] == (Note.parse("Do5"), "C6")
    for note, label in GUIDE_CARD:  # every label names its note
        assert Note.parse(label) == note


# -- S3, S4, S5: players, deal, turns -------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s3_two_three_or_four_players_can_play(players: int) -> None:
    state = new_game(random.Random(players), SnapConfig(players=players))
    assert state.players == players and len(state.hand_sizes) == players


@pytest.mark.parametrize("players", [0, 1, 5, 2.0, "4", True])
def test_s3_other_numbers_of_players_are_refused(players: object) -> None:
    with pytest.raises(ConfigError, match="players"):
        SnapConfig(players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s4_deal_shuffles_and_deals_all_cards_as_evenly_as_possible(players: int) -> None:
    for seed in range(20):
        state = new_game(random.Random(seed), SnapConfig(players=players))
        sizes = state.hand_sizes
        assert sum(sizes) == 56 and max(sizes) - min(sizes) <= 1
        dealt = sorted(c for seat in range(players) for c in state.pile(seat))
        assert dealt == list(range(56)) and state.centre == ()
    deals = {new_game(random.Random(s), SnapConfig(players=players)).deal for s in range(10)}
    assert len(deals) == 10  # the shuffle really shuffles
    again = new_game(random.Random(3), SnapConfig(players=players)).deal
    assert again == new_game(random.Random(3), SnapConfig(players=players)).deal


def test_s4_a_deal_that_misses_or_repeats_a_card_is_refused() -> None:
    hands = stacked_deal([[0], [1]])
    with pytest.raises(ConfigError, match="leaves out"):
        SnapState.from_deal([hands[0][1:], hands[1]], SnapConfig(players=2))
    with pytest.raises(ConfigError, match="twice"):
        SnapState.from_deal([hands[0], hands[1] + [hands[0][0]]], SnapConfig(players=2))


@pytest.mark.parametrize("opener", [0, 1, 2])
def test_s5_chosen_opener_then_next_seats_calling_do_re_mi_in_a_cycle(opener: int) -> None:
    run = non_matching_run(12)
    firsts: list[list[int]] = [[], [], []]
    for k, card in enumerate(run):
        firsts[(opener + k) % 3].append(card)
    state = table(firsts, opener=opener)
    seats, calls = [], []
    for _ in range(12):
        seat = state.to_flip
        assert seat is not None
        flipped = state.apply(Flip(seat))[0]
        assert isinstance(flipped, Flipped)
        seats.append(flipped.seat)
        calls.append(flipped.call)
        assert outcome_of(state.apply(CloseSlaps())).reason is Reason.NO_SLAP
    assert seats == [(opener + k) % 3 for k in range(12)]
    assert calls == [CALL_CYCLE[k % 7] for k in range(12)]  # Do … Si, then Do again
    assert state.next_call == CALL_CYCLE[12 % 7]


def test_s5_flipping_out_of_turn_is_refused() -> None:
    state = table([[DO3], [DO4], [DO5]], opener=1)
    before = state.to_json()
    with pytest.raises(NotYourTurnError, match="seat 1's turn"):
        state.apply(Flip(0))
    assert state.to_json() == before


# -- S6, S7, S8, S9, S10: matches, slaps and calls ---------------------------------------


@pytest.mark.parametrize("card", [DO3, DO4, DO5])
def test_s6_a_match_ignores_the_octave(card: int) -> None:
    state = table([[card], [cards_of("Re3")[0]]])
    state.apply(Flip(0))  # calls Do
    state.apply(Slap(0, 300.0))
    outcome = outcome_of(state.apply(Slap(1, 450.0)))
    assert outcome.match and outcome.reason is Reason.LAST_TO_SLAP


def test_s6_a_card_of_another_name_is_not_a_match() -> None:
    state = table([[cards_of("Re4")[0]], [DO3]])
    state.apply(Flip(0))
    outcome = outcome_of(state.apply(CloseSlaps()))
    assert not outcome.match and outcome.reason is Reason.NO_SLAP


def test_s7_last_to_slap_takes_the_whole_pile_under_their_own_and_starts_with_do() -> None:
    run = non_matching_run(2)
    mi = cards_of("Mi3")[0]  # the third flip calls Mi: a match
    state = table([[run[0]], [run[1]], [mi]])
    for _ in range(2):
        state.apply(Flip(state.to_flip))  # type: ignore[arg-type]
        state.apply(CloseSlaps())
    state.apply(Flip(2))
    centre = state.centre
    pile_before = state.pile(1)
    state.apply(Slap(2, 410.0))
    state.apply(Slap(0, 388.0))
    outcome = outcome_of(state.apply(Slap(1, 702.5)))
    assert (outcome.reason, outcome.taker, outcome.cards_taken) == (Reason.LAST_TO_SLAP, 1, 3)
    assert [s.seat for s in outcome.slaps] == [0, 2, 1]  # fastest first
    assert state.centre == ()
    # turned face down and put under: the first card flipped comes up first of them
    assert state.pile(1) == tuple(reversed(centre)) + pile_before
    assert state.to_flip == 1 and state.next_call == "Do"
    assert total_cards(state) == 56


def test_s8_a_false_slap_takes_the_pile_and_starts_a_new_round() -> None:
    run = non_matching_run(2)
    state = table([[run[0]], [run[1]], []])
    state.apply(Flip(0))
    state.apply(CloseSlaps())
    state.apply(Flip(1))  # calls Re, shows a Mi: no match
    state.apply(Slap(2, 640.0))
    outcome = outcome_of(state.apply(CloseSlaps()))
    assert (outcome.match, outcome.reason, outcome.taker) == (False, Reason.FALSE_SLAP, 2)
    assert outcome.cards_taken == 2 and state.to_flip == 2 and state.next_call == "Do"


def test_s8_several_false_slaps_the_first_slapper_takes_it() -> None:
    state = table([[cards_of("Sol3")[0]], [], [], []])
    state.apply(Flip(0))
    state.apply(Slap(3, 900.0))
    state.apply(Slap(1, 520.0))
    outcome = outcome_of(state.apply(Slap(2, 610.0)) + state.apply(CloseSlaps()))
    assert (outcome.reason, outcome.taker) == (Reason.FALSE_SLAP, 1)


def test_s8_equal_false_slaps_go_to_the_first_in_seat_order_from_the_flipper() -> None:
    state = table([[], [], [cards_of("Sol3")[0]]], opener=2)
    state.apply(Flip(2))
    state.apply(Slap(0, 500.0))
    state.apply(Slap(1, 500.0))
    outcome = outcome_of(state.apply(CloseSlaps()))
    assert (outcome.reason, outcome.taker) == (Reason.FALSE_SLAP, 0)  # 2 → 0 → 1


def test_s9_a_missed_match_goes_to_the_next_player_to_flip_with_their_card() -> None:
    re = cards_of("Re3")[0]
    state = table([[DO3], [re], []])
    state.apply(Flip(0))
    missed = outcome_of(state.apply(CloseSlaps()))
    assert missed.match and missed.reason is Reason.MATCH_NOT_SLAPPED and missed.taker is None
    assert state.missed_match_pending and state.to_flip == 1
    outcome = outcome_of(state.apply(Flip(1)))
    assert (outcome.reason, outcome.taker, outcome.cards_taken) == (Reason.MISSED_MATCH, 1, 2)
    assert state.phase is Phase.FLIP and state.to_flip == 1 and state.next_call == "Do"
    assert not state.missed_match_pending and state.centre == ()


def test_s10_a_wrong_call_takes_the_pile_and_starts_a_new_round() -> None:
    run = non_matching_run(2)
    modes = (CallMode.AUTO, CallMode.SELF)
    state = table([[run[0]], [run[1]]], call_modes=modes)
    state.apply(Flip(0))
    state.apply(CloseSlaps())
    assert Flip(1, "Mi") in state.legal_actions()  # a wrong call is allowed, and costs
    assert len(list(state.legal_actions())) == 7
    events = state.apply(Flip(1, "Mi"))  # the cycle is at Re
    flipped = events[0]
    assert isinstance(flipped, Flipped)
    assert (flipped.call, flipped.expected, flipped.auto) == ("Mi", "Re", False)
    outcome = outcome_of(events)
    assert (outcome.reason, outcome.taker, outcome.cards_taken) == (Reason.WRONG_CALL, 1, 2)
    assert state.to_flip == 1 and state.next_call == "Do" and state.phase is Phase.FLIP


def test_s10_a_right_call_by_a_self_calling_seat_plays_on() -> None:
    state = table([[cards_of("Mi3")[0]], []], call_modes=("self", "auto"))
    events = state.apply(Flip(0, "do"))  # any case; letters work too
    assert state.actions[-1] == Flip(0, "Do") and not any(isinstance(e, Outcome) for e in events)
    assert state.phase is Phase.SLAPS and state.shown_call == "Do"


def test_s10_call_modes_are_kept_per_seat() -> None:
    state = table([[DO3], [DO4]], call_modes=("self", "auto"))
    before = state.to_json()
    with pytest.raises(CallModeError, match="calls for itself"):
        state.apply(Flip(0))
    state = table([[DO3], [DO4]], call_modes=("auto", "self"))
    with pytest.raises(CallModeError, match="auto-call"):
        state.apply(Flip(0, "Do"))
    assert table([[DO3], [DO4]], call_modes=("self", "auto")).to_json() == before


# -- S11: out of cards, winning ------------------------------------------------------------


def short_seat(first_flips: list[list[int]], seat: int) -> SnapState:
    """A table where ``seat`` holds only its first flips; its other cards go to the next seat."""
    piles = stacked_deal(first_flips)
    keep = len(first_flips[seat])
    under, piles[seat] = piles[seat][:-keep], piles[seat][-keep:]
    after = (seat + 1) % len(piles)
    piles[after] = under + piles[after]
    return SnapState.from_deal(piles, SnapConfig(players=len(piles)))


def test_s11_out_of_cards_skips_turns_keeps_slapping_and_wins_when_the_pile_goes() -> None:
    run = non_matching_run(3)
    fa = cards_of("Fa")[0]
    state = short_seat([[run[0]], [run[1], fa], [run[2]]], seat=0)
    state.apply(Flip(0))  # seat 0 flips its only card (calls Do, shows a Re)
    state.apply(CloseSlaps())
    assert state.hand_sizes[0] == 0 and state.winners == ()  # centre not empty: no win yet
    state.apply(Flip(1))
    state.apply(CloseSlaps())
    state.apply(Flip(2))
    state.apply(CloseSlaps())
    assert state.to_flip == 1  # seat 0 has no cards: its turn is skipped
    before = state.to_json()
    with pytest.raises(NotYourTurnError, match="no cards"):
        state.apply(Flip(0))
    assert state.to_json() == before
    state.apply(Flip(1))  # calls Fa, shows a Fa: a match
    state.apply(Slap(0, 300.0))  # seat 0 still slaps
    state.apply(Slap(2, 350.0))
    outcome = outcome_of(state.apply(Slap(1, 600.0)))
    assert (outcome.reason, outcome.taker, outcome.cards_taken) == (Reason.LAST_TO_SLAP, 1, 4)
    assert outcome.winners == (0,) and state.winners == (0,)
    assert state.is_terminal() and state.phase is Phase.OVER and state.to_flip is None
    before = state.to_json()
    with pytest.raises(GameOverError, match="over"):
        state.apply(Flip(1))
    assert state.to_json() == before


def test_s11_nobody_wins_while_the_centre_is_not_empty() -> None:
    state = short_seat([[DO3], []], seat=0)
    state.apply(Flip(0))  # seat 0 is out of cards, on a match
    state.apply(Slap(0, 300.0))
    outcome = outcome_of(state.apply(Slap(1, 303.0)))  # a tie: the centre stays
    assert outcome.reason is Reason.TIE and state.winners == () and not state.is_terminal()
    assert state.to_flip == 1


def test_s11_a_player_without_cards_who_takes_the_pile_is_back_in_the_game() -> None:
    run = non_matching_run(2)
    state = short_seat([[run[0]], [run[1]]], seat=0)
    state.apply(Flip(0))  # seat 0 flips its last card
    state.apply(CloseSlaps())
    state.apply(Flip(1))  # calls Re, shows a Mi: no match
    outcome = outcome_of(state.apply(Slap(0, 400.0)) + state.apply(CloseSlaps()))
    assert (outcome.reason, outcome.taker, outcome.winners) == (Reason.FALSE_SLAP, 0, ())
    assert state.hand_sizes[0] == 2 and state.to_flip == 0 and not state.is_terminal()


# -- S12, S13, S14: ties, timing, the slap window -----------------------------------------


def test_s12_a_tie_for_last_place_means_nobody_takes_the_pile_and_the_round_goes_on() -> None:
    state = table([[DO3], [], []])
    state.apply(Flip(0))
    state.apply(Slap(1, 400.0))
    state.apply(Slap(0, 505.0))
    outcome = outcome_of(state.apply(Slap(2, 500.0)))
    assert (outcome.reason, outcome.taker, outcome.cards_taken) == (Reason.TIE, None, 0)
    assert state.centre == (DO3,) and state.to_flip == 1 and state.next_call == "Re"


@pytest.mark.parametrize(
    ("tie_window", "times", "tie"),
    [
        (10.0, (500.0, 509.9), True),
        (10.0, (500.0, 510.0), False),  # "closer than" the window: 10 ms apart is not a tie
        (20.0, (500.0, 515.0), True),
        (0.0, (500.0, 500.0), True),  # the same time is always a tie
        (0.0, (500.0, 500.5), False),
    ],
)
def test_s13_the_tie_window_setting_decides_close_last_slaps(
    tie_window: float, times: tuple[float, float], tie: bool
) -> None:
    state = table([[DO4], []], tie_window_ms=tie_window)
    state.apply(Flip(0))
    state.apply(Slap(0, times[0]))
    outcome = outcome_of(state.apply(Slap(1, times[1])))
    if tie:
        assert (outcome.reason, outcome.taker) == (Reason.TIE, None)
    else:
        assert (outcome.reason, outcome.taker) == (Reason.LAST_TO_SLAP, 1)


def test_s13_reaction_times_are_data_and_must_be_real_milliseconds() -> None:
    state = table([[DO3], []])
    state.apply(Flip(0))
    before = state.to_json()
    for bad in (-1.0, float("nan"), float("inf"), "300", None, True, [300]):
        with pytest.raises(ReactionTimeError, match="reaction time"):
            state.apply(Slap(0, bad))  # type: ignore[arg-type]
        assert state.to_json() == before
    state.apply(Slap(0, 300))  # an int is a number of ms too
    assert state.slaps == (Slap(0, 300.0),)


def test_s14_a_slap_after_the_window_is_refused() -> None:
    state = table([[DO3], []], slap_window_ms=1200.0)
    state.apply(Flip(0))
    before = state.to_json()
    with pytest.raises(LateSlapError, match="after the slap window"):
        state.apply(Slap(1, 1200.5))
    assert state.to_json() == before
    state.apply(Slap(1, 1200.0))  # the last instant of the window still counts


def test_s14_on_a_match_who_has_not_slapped_counts_as_last_first_in_seat_order() -> None:
    state = table([[], [DO5], [], []], opener=1)
    state.apply(Flip(1))
    state.apply(Slap(3, 700.0))
    state.apply(Slap(1, 2100.0))
    outcome = outcome_of(state.apply(CloseSlaps()))
    # seats 2 and 0 never slapped: from the flipper (1) the order is 2, 3, 0 — so seat 2
    assert (outcome.reason, outcome.taker, outcome.not_slapped) == (
        Reason.LAST_TO_SLAP,
        2,
        (2, 0),
    )


def test_s14_the_phase_ends_by_itself_when_everyone_has_slapped() -> None:
    state = table([[cards_of("Re3")[0]], [], []])
    state.apply(Flip(0))
    state.apply(Slap(0, 800.0))
    state.apply(Slap(1, 600.0))
    assert state.phase is Phase.SLAPS and CloseSlaps() in state.legal_actions()
    events = state.apply(Slap(2, 900.0))
    assert outcome_of(events).reason is Reason.FALSE_SLAP and state.phase is Phase.FLIP
    assert outcome_of(events).taker == 1


# -- S15, S16 ------------------------------------------------------------------------------


def test_s15_pace_is_a_setting_and_auto_call_names_the_right_card_for_the_player() -> None:
    assert SnapConfig().flip_pause_ms == 800.0
    assert SnapConfig(flip_pause_ms=0).flip_pause_ms == 0.0
    with pytest.raises(ConfigError, match="flip_pause_ms"):
        SnapConfig(flip_pause_ms=-5)
    state = table(
        [non_matching_run(3)[:2], []], call_modes=(CallMode.AUTO, CallMode.SELF)
    )
    assert list(state.legal_actions()) == [Flip(0)]
    flipped = state.apply(Flip(0))[0]
    assert isinstance(flipped, Flipped) and flipped.auto and flipped.call == flipped.expected


def test_s16_dead_pile_when_nobody_can_flip_the_last_flipper_takes_it_back() -> None:
    run = non_matching_run(56)
    state = table([run[0::2], run[1::2]])
    for k in range(56):
        state.apply(Flip(k % 2))
        if k < 55:
            state.apply(CloseSlaps())
    assert state.hand_sizes == (0, 0) and len(state.centre) == 56
    events = state.apply(CloseSlaps())
    reasons = [e.reason for e in events if isinstance(e, Outcome)]
    assert reasons == [Reason.NO_SLAP, Reason.DEAD_PILE]
    dead = outcome_of(events)
    assert (dead.taker, dead.cards_taken) == (1, 56)
    assert state.hand_sizes == (0, 56) and state.winners == (0,) and state.is_terminal()


def test_s16_dead_pile_also_ends_a_missed_match_nobody_can_flip_onto() -> None:
    si = cards_of("Si")[0]  # flip 56 calls Si (55 % 7 == 6): keep a Si for it
    pools = {i: [c for c in cards_of(CALL_CYCLE[i]) if c != si] for i in range(7)}
    order = []
    for k in range(55):  # every other card, never matching its call
        name = max((i for i in pools if i != k % 7 and pools[i]), key=lambda i: len(pools[i]))
        order.append(pools[name].pop())
    order.append(si)
    state = table([order[0::2], order[1::2]])
    for k in range(55):
        state.apply(Flip(k % 2))
        assert outcome_of(state.apply(CloseSlaps())).reason is Reason.NO_SLAP
    state.apply(Flip(1))  # the last card: a match nobody slaps
    events = state.apply(CloseSlaps())
    reasons = [e.reason for e in events if isinstance(e, Outcome)]
    assert reasons == [Reason.MATCH_NOT_SLAPPED, Reason.DEAD_PILE]
    assert state.winners == (0,) and state.hand_sizes == (0, 56) and not state.missed_match_pending
