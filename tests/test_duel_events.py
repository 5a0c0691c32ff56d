"""Keyboard Duel engine v2: typed events, refusals that cite their rule, saves of any shape,
the D7 single-action pass, and the fair take-back."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest

import musicgames.duel as duel_api
from musicgames.duel import (
    BLACK,
    COMPOSE_DECK,
    PIANO_CARDS,
    WHITE,
    ActionTaken,
    BadSavedGameError,
    BadSeedError,
    CardPlayed,
    Corner,
    Dealt,
    DiceRolled,
    DieRerolled,
    Drew,
    DuelCard,
    DuelError,
    DuelStarted,
    DuelState,
    DuelWon,
    EndTurn,
    FinalTurnBegins,
    GameOver,
    LockedIn,
    LockIn,
    Merged,
    Move,
    Moved,
    MustActFirstError,
    NotAnActionError,
    NothingToUndoError,
    Place,
    Placed,
    RoundScored,
    RoundStarted,
    Shift,
    Shifted,
    TakeBackReach,
    TakeBackStoppedError,
    TurnEnded,
    card_ids,
)
from musicgames.duel.bots import RandomBot, SharpBot
from musicgames.duel.errors import NotAnOddsQuestionError, UnknownBotError
from musicgames.duel.errors import __all__ as error_names
from musicgames.duel.odds import MOST_DICE, dice_count, total_counts, win_chance_now
from musicgames.protocol import GameError

RULE = re.compile(r"\bD(1[0-6]|[1-9])[a-f]?\b")


def random_game(seed: int, stop: int | None = None) -> DuelState:
    state = DuelState.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (stop is None or len(state.actions()) < stop):
        state.apply(rng.choice(state.legal_actions()))
    return state


# -- D7: a single legal action is not a pass ------------------------------------------------


def test_d7_single_legal_action_cannot_be_passed():
    # All five tokens placed (merged and beaten count), one arrow card: the one legal action
    # is the Shift, so EndTurn is not a pass.
    state = DuelState.from_position(
        hands=("C↑", "E1"), tokens=([(2, 1), "merged", "beaten", "beaten", "beaten"], []))
    assert state.legal_actions() == (Shift(card_ids("C↑")[0], 0),)
    before = state.to_json()
    with pytest.raises(MustActFirstError) as info:
        state.apply(EndTurn())
    assert "D7" in str(info.value) and "End turn" in str(info.value)
    assert state.to_json() == before
    assert not state.is_legal(EndTurn())


def test_d7_a_player_with_nothing_to_do_passes():
    state = DuelState.from_position(
        hands=("", "E1"), tokens=([(2, 1), "merged", "beaten", "beaten", "beaten"], []))
    assert state.legal_actions() == (EndTurn(),)
    (ended, *_rest) = state.apply(EndTurn())
    assert ended == TurnEnded(seat=WHITE, passed=True)


# -- refusals cite their rule ----------------------------------------------------------------


def refusal(state: DuelState, action: object, seat: int | None = None) -> DuelError:
    before = state.to_json()
    with pytest.raises(DuelError) as info:
        state.apply(action, seat)  # type: ignore[arg-type]
    assert state.to_json() == before
    return info.value


def every_refusal() -> list[tuple[str, DuelError]]:
    """One refusal of each kind the engine can give, from set-up positions."""
    base = DuelState.from_position(piano=(2, 7), hands=("D1 D2 Wild A3 C↑", "E3 E1"),
                                   tokens=([(2, 1)], [(14, 2)]))
    d1, d2, wild, a3, c_up = card_ids("D1 D2 Wild A3 C↑")
    e3 = card_ids("E3")[0]
    out = [
        ("NotAnAction", refusal(base, "Place")),
        ("NotAnAction cards", refusal(base, Place(None, 2))),  # type: ignore[arg-type]
        ("NotAnAction piano", refusal(base, Shift(c_up, [1]))),  # type: ignore[arg-type]
        ("NotAnAction key", refusal(base, Move(a3, 2.0, 3))),  # type: ignore[arg-type]
        ("NotYourTurn", refusal(base, EndTurn(), seat=BLACK)),
        ("NotYourTurn seat", refusal(base, EndTurn(), seat=7)),
        ("NotNow", refusal(base, LockIn())),
        ("CardNotInHand", refusal(base, Place((e3,), key=4))),
        ("DuplicateCard", refusal(base, Place((d1, d1), key=2))),
        ("NoCards", refusal(base, Place((), key=2))),
        ("TooManyCards", refusal(base, Place(tuple(range(7)), key=0))),
        ("MixedLetters", refusal(base, Place((d1, a3), key=2))),
        ("KeyOffBoard", refusal(base, Place((wild,), key=24))),
        ("WrongKey", refusal(base, Place((d1,), key=4))),
        ("NoTokenThere", refusal(base, Move(a3, 5, 3))),
        ("NotYourToken", refusal(base, Move(a3, 14, 3))),
        ("WrongSteps", refusal(base, Move(a3, 2, 2))),
        ("WrongCard move", refusal(base, Move(c_up, 2, 1))),
        ("WrongCard shift", refusal(base, Shift(a3, 0))),
        ("NoSuchPianoCard", refusal(base, Shift(c_up, 2))),
        ("NoTokenThere shift", refusal(base, Shift(c_up, 1))),
        ("MustActFirst", refusal(base, EndTurn())),
    ]
    placed = base.clone()
    placed.apply(Place((d1, d2), key=2))
    out.append(("SecondPlace", refusal(placed, Place((wild,), key=5))))
    moved = base.clone()
    moved.apply(Move(a3, 2, 3))
    out.append(("SecondMove", refusal(moved, Move(wild, 5, 1))))
    out.append(("SecondMove shift", refusal(moved, Shift(c_up, 0))))
    full = DuelState.from_position(hands=("D1", "E1"), tokens=([(5, 1)] + ["beaten"] * 4, []))
    out.append(("NoTokenLeft", refusal(full, Place(card_ids("D1"), key=2))))
    attack = DuelState.from_position(hands=("C1 D2", "E3"), tokens=([], [(0, 2)]))
    attack.apply(Place(card_ids("C1"), key=0))
    out.append(("NotNow duel", refusal(attack, EndTurn())))
    attack.apply(DuelCard(card_ids("D2")[0]))
    out.append(("MixedLetters run", refusal(attack, DuelCard(card_ids("C1")[0]))))
    over = DuelState.from_position(round=3, totals=(4, 9), round_scores=[(4, 0), (0, 9)],
                                   hands=("", ""), turns=59)
    over.apply(EndTurn())
    out.append(("GameIsOver", refusal(over, EndTurn())))
    return out


def test_every_refusal_names_the_input_the_reason_and_the_rule():
    for name, error in every_refusal():
        message = str(error)
        assert RULE.search(message), f"{name}: no rule number in {message!r}"
        assert "refused" in message or "is not" in message, name
        assert type(error).__name__.endswith("Error"), name


def test_bad_action_fields_give_the_typed_error_not_type_error():
    state = DuelState.from_position(hands=("D1 D2 Wild", "E1"), tokens=([(2, 1)], []))
    for bad in (Place(None, 2), Shift(8, [1]), Place((6, [1]), 2), Move([1], 2, 1),  # type: ignore[arg-type]
                Move(6, 2, None), DuelCard([3])):  # type: ignore[arg-type]
        assert isinstance(str(bad), str)
        error = refusal(state, bad)
        assert isinstance(error, NotAnActionError | DuelError)
        assert RULE.search(str(error))


def test_error_classes_end_in_error_and_each_has_one_name():
    """Every refusal is a DuelError, itself the protocol's GameError; no class goes by a
    second (older) name."""
    seen: dict[type, str] = {}
    for name in error_names:
        cls = getattr(duel_api, name)
        assert issubclass(cls, DuelError) and issubclass(cls, GameError)
        assert cls.__name__ == name and name.endswith("Error")
        assert cls not in seen, (name, seen.get(cls))
        seen[cls] = name
    for old in ("BadSavedGame", "SaveError", "GameOverError", "SecondPlace", "UnknownBot"):
        assert not hasattr(duel_api, old)
    assert issubclass(UnknownBotError, DuelError)


#: The rule each refusal of :func:`every_refusal` cites: its ``rule``, set where it is raised.
REFUSAL_RULES = {
    "NotAnAction": "D7", "NotAnAction cards": "D8", "NotAnAction piano": "D2",
    "NotAnAction key": "D9", "NotYourTurn": "D7", "NotYourTurn seat": "D1", "NotNow": "D11",
    "CardNotInHand": "D8", "DuplicateCard": "D8", "NoCards": "D8", "TooManyCards": "D8",
    "MixedLetters": "D8", "KeyOffBoard": "D2", "WrongKey": "D8", "NoTokenThere": "D9",
    "NotYourToken": "D9", "WrongSteps": "D9", "WrongCard move": "D9", "WrongCard shift": "D9",
    "NoSuchPianoCard": "D2", "NoTokenThere shift": "D9", "MustActFirst": "D7",
    "SecondPlace": "D7", "SecondMove": "D7", "SecondMove shift": "D7", "NoTokenLeft": "D8",
    "NotNow duel": "D11b", "MixedLetters run": "D11b", "GameIsOver": "D15",
}


def test_every_refusal_carries_its_rule():
    """Each kind of refusal names its rule as ``rule`` (the widget shows ``rules``): the same
    rules its message cites, never read back out of the message."""
    refusals = every_refusal()
    assert {name for name, _ in refusals} == set(REFUSAL_RULES)
    for name, error in refusals:
        assert error.rule == REFUSAL_RULES[name], (name, error.rule)
        assert error.rule in error.rules, name
        cited = re.findall(r"\bD\d+[a-f]?\b", re.findall(r"\(([^()]*)\)", str(error))[-1])
        assert set(error.rules) <= set(cited) | {"D7", "D11"}, (name, error.rules, cited)


def test_take_backs_and_odds_questions_carry_their_rule():
    game = DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 2)]))
    game.apply(Place(card_ids("C1"), key=0))  # a duel: dice rolled
    with pytest.raises(TakeBackStoppedError) as stopped:
        game.take_back()
    assert stopped.value.stop == "dice" and stopped.value.rule == "D11a"
    with pytest.raises(NotAnOddsQuestionError) as odd:
        duel_api.attacker_win_probability(7, 1)
    assert odd.value.rule == "D10"
    with pytest.raises(UnknownBotError) as unknown:
        duel_api.KeyboardDuel().make_bot("expert", seat=0)
    assert isinstance(unknown.value, GameError)


# -- saves of any shape ---------------------------------------------------------------------


def load_error(text: object) -> BadSavedGameError:
    with pytest.raises(BadSavedGameError) as info:
        DuelState.from_json(text)  # type: ignore[arg-type]
    return info.value


def test_saves_nested_100000_deep_give_the_save_error():
    deep = "[" * 100_000 + "]" * 100_000
    load_error(deep)
    load_error('{"format": "musicgames.duel", "version": 1, "start": ' + deep + "}")
    saved = json.loads(DuelState.new_game(1).to_json())
    nested: object = []
    for _ in range(100_000):
        nested = [nested]
    for field in ("start", "actions", "position"):
        bad = dict(saved, **{field: nested})
        load_error(bad)
    action_deep = dict(saved, actions=[{"type": "place", "cards": nested, "key": 2}])
    load_error(action_deep)


@pytest.mark.parametrize("item", [
    {"type": ["place"], "cards": [1], "key": 2},
    {"type": {"place": 1}},
    {"type": None},
    {"type": "take_back", "count": "all"},
    {"type": "take_back", "count": 1, "extra": 2},
    ["place", [1], 2],
    "end_turn",
])
def test_an_action_of_any_shape_gives_the_save_error(item):
    saved = json.loads(DuelState.new_game(1).to_json())
    saved["actions"] = [item]
    error = load_error(json.dumps(saved))
    assert "action 1" in str(error)


@pytest.mark.parametrize("text", [b"\xff\xfe", "", "null", "[]", "3", '{"format": []}',
                                  '{"format": "musicgames.duel", "version": [1]}'])
def test_not_a_save_gives_the_save_error(text):
    load_error(text)


def test_a_position_field_of_any_shape_gives_the_save_error():
    saved = json.loads(DuelState.new_game(1).to_json())
    for field in saved["start"]:
        for junk in ([[[]]], {"a": [1]}, "x", None, 1.5, [None] * 3):
            if field == "duel" and junk is None:
                continue  # null is the duel field of a position outside a duel
            bad = json.loads(json.dumps(saved))
            bad["start"][field] = junk
            load_error(bad)


# -- typed events ---------------------------------------------------------------------------


def test_apply_returns_the_events_it_caused_and_the_story_holds_them_all():
    state = DuelState.new_game(3)
    rng = random.Random(3)
    collected: list[object] = list(state.story())
    for _ in range(150):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        seat = state.seat_to_act
        events = state.apply(action)
        assert isinstance(events, tuple)
        collected.append(ActionTaken(seat, action))
        collected.extend(events)
    assert tuple(collected) == state.story()


def test_a_place_that_starts_a_duel_narrates_it_with_both_rolls():
    state = DuelState.from_position(hands=("C1 D2 D↓", "E3"), tokens=([], [(0, 3)]), seed=4)
    placed, started, rolled_a, rolled_d = state.apply(Place(card_ids("C1"), key=0))
    assert placed == Placed(seat=WHITE, token=0, key=0, power=1, cards=card_ids("C1"))
    assert started == DuelStarted(key=0, attacker=WHITE, attacker_token=0, defender_token=0,
                                  attacker_power=1, defender_power=3)
    assert started.defender == BLACK
    assert rolled_a == DiceRolled(WHITE, state.duel.attacker_dice)
    assert rolled_d == DiceRolled(BLACK, state.duel.defender_dice)
    (add,) = state.apply(DuelCard(card_ids("D2")[0]))
    assert add == CardPlayed(WHITE, card_ids("D2")[0], "add", 2, state.duel.attacker_total,
                             state.duel.defender_total)
    before = state.duel.defender_dice
    played, rerolled = state.apply(DuelCard(card_ids("D↓")[0]))
    assert played.effect == "reroll_their_highest" and played.amount == 0
    assert isinstance(rerolled, DieRerolled) and rerolled.owner == BLACK
    assert rerolled.old == max(before) and before.index(max(before)) == rerolled.die
    assert state.duel.defender_dice[rerolled.die] == rerolled.new
    assert played.defender_total == state.duel.defender_total
    assert state.apply(LockIn()) == (LockedIn(WHITE, state.duel.attacker_total),)
    attack, defence = state.duel.attacker_total, state.duel.defender_total
    locked, won = state.apply(LockIn())
    assert locked == LockedIn(BLACK, defence)
    assert isinstance(won, DuelWon)
    assert (won.attacker_total, won.defender_total) == (attack, defence)
    assert won.winner == (WHITE if attack >= defence else BLACK)  # D11d
    assert state.board_token(0).seat == won.winner


def test_d10_a_merge_event_tells_the_power_and_what_was_lost():
    state = DuelState.from_position(hands=("D1 D2 D3 Wild", "E1"), tokens=([(2, 4)], []))
    placed, merged = state.apply(Place(card_ids("D1 D2 D3"), key=2))
    assert merged == Merged(seat=WHITE, token=1, into=0, key=2, power=6, lost=1)


def test_d9_a_move_and_a_shift_tell_where_each_token_went():
    state = DuelState.from_position(hands=("D3 C↓ E1", "E2"), tokens=([(2, 1), (22, 2)], []))
    (moved,) = state.apply(Move(card_ids("D3")[0], 22, 3))  # wraps past key 23 (D2)
    assert moved == Moved(seat=WHITE, token=1, start=22, end=1, steps=3,
                          card=card_ids("D3")[0])
    state2 = DuelState.from_position(hands=("C↓ E1", "E2"), tokens=([(2, 1), (5, 2)], []))
    (shifted,) = state2.apply(Shift(card_ids("C↓")[0], 0))
    assert shifted == Shifted(WHITE, 0, -1, card_ids("C↓")[0], ((0, 2, 1), (1, 5, 4)))


def test_d12_final_turn_begins_is_an_event():
    state = DuelState.from_position(hands=("D1", "E1 E2"), tokens=([(5, 1)] + ["beaten"] * 3,
                                                                     []))
    state.apply(Place(card_ids("D1"), key=2))
    events = state.apply(EndTurn())
    assert FinalTurnBegins(seat=BLACK, placed_all=WHITE) in events
    assert state.final_turn
    assert state.log[-1]["type"] == "final_turn"


def test_d13_round_scored_breaks_the_score_down_token_by_token():
    for seed in range(6):
        state = random_game(seed)
        rounds = [e for e in state.story() if isinstance(e, RoundScored)]
        assert [r.scores for r in rounds] == list(state.round_scores)
        for r in rounds:
            for seat in (WHITE, BLACK):
                points = sum(t.points for t in r.tokens if t.seat == seat)
                bonus = sum(1 for s, _ in r.bonuses if s == seat)
                assert points + bonus == r.scores[seat]
            assert all(t.points == t.power * t.multiplier for t in r.tokens)
        over = state.story()[-1]
        assert isinstance(over, GameOver) and over.winner == state.winner
        assert over.totals == state.totals


def test_d16_the_story_hides_the_other_seats_cards():
    state = random_game(5, stop=30)
    for seat in (WHITE, BLACK):
        for event in state.story(seat):
            if isinstance(event, Dealt | Drew):
                assert (event.cards == ()) == (event.seat != seat)
                assert event.size > 0


def test_events_name_round_starts():
    state = DuelState.new_game(2)
    started = state.story()[0]
    assert started == RoundStarted(1, WHITE, (state.piano_cards[0].index,
                                              state.piano_cards[1].index))


# -- the fair take-back ---------------------------------------------------------------------


def attack_position() -> DuelState:
    return DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 2)]), seed=0)


def dice_of(events: tuple[object, ...]) -> list[tuple[int, ...]]:
    return [e.dice for e in events if isinstance(e, DiceRolled)]


def refused_take_back(state: DuelState, stop: str, words: str, seat: int | None = None,
                      count: int = 1) -> None:
    """take_back() is refused with TakeBackStoppedError naming why, and changes nothing."""
    before = state.to_json()
    with pytest.raises(TakeBackStoppedError) as info:
        state.take_back(count, seat)
    assert info.value.stop == stop and words in str(info.value), str(info.value)
    assert state.to_json() == before


def test_take_back_stops_at_the_dice_of_a_duel():
    """An attack rolls dice (D11a): taking it back would let a player roll again."""
    state = attack_position()
    attack = Place(card_ids("C1"), key=0)
    dice = dice_of(state.apply(attack))
    assert state.take_back_reach() == TakeBackReach(0, "dice")
    refused_take_back(state, "dice", "rolled dice (D11a)")
    assert dice_of(state.story()) == dice and state.duel is not None


def test_take_back_undoes_a_duel_card_that_rolled_nothing_but_not_a_reroll():
    state = DuelState.from_position(hands=("C1 C3 C↑", "E1"), tokens=([], [(0, 2)]), seed=0)
    state.apply(Place(card_ids("C1"), key=0))
    add = DuelCard(card_ids("C3")[0])
    state.apply(add)  # +3: nothing new is shown
    assert state.take_back_reach() == TakeBackReach(1, "dice")
    assert state.take_back() == (add,)
    assert state.duel is not None and state.duel.attacker_add == 0
    state.apply(DuelCard(card_ids("C↑")[0]))  # rerolls White's lowest die
    assert any(isinstance(e, DieRerolled) for e in state.story())
    refused_take_back(state, "dice", "rolled dice")


def test_take_back_stops_at_a_card_draw():
    """Ending a turn refills the hand (D7): the cards drawn have been seen."""
    state = attack_position()
    place = Place(card_ids("D3"), key=2)
    state.apply(place)
    assert state.take_back_reach() == TakeBackReach(1, "start")
    state.apply(EndTurn())
    assert any(isinstance(e, Drew) for e in state.story())
    refused_take_back(state, "draw", "drew or dealt cards (D6, D7)")
    refused_take_back(state, "draw", "no action can be taken back", count=2)


def test_take_back_never_undoes_the_other_players_action():
    """Black attacks White's token and plays a card; White, to defend, cannot take back
    Black's lock-in or card (Black's played card stays played); Black's own take-back stops
    at the dice."""
    state = DuelState.from_position(turn=BLACK, hands=("E1 F1", "C1 C2 D1"),
                                    tokens=([(0, 1)], []), seed=0)
    state.apply(Place(card_ids("C1"), key=0))
    state.apply(DuelCard(card_ids("C2")[0]))
    state.apply(LockIn())
    assert state.seat_to_act == WHITE
    assert state.take_back_reach(WHITE) == TakeBackReach(0, "other_player")
    refused_take_back(state, "other_player", "was Black's", seat=WHITE)
    assert card_ids("C2")[0] in state.discard
    refused_take_back(state, "other_player", "was Black's")  # White is to act
    # Black may not take back either: it is White's move now
    assert state.take_back_reach(BLACK) == TakeBackReach(0, "not_their_move")
    refused_take_back(state, "not_their_move", "White's move", seat=BLACK)
    with pytest.raises(NotAnActionError):
        state.take_back(1, seat=2)


HUGE = 10**5000  # too long for Python to write out: str() of it raises ValueError


@pytest.mark.parametrize(("count", "seat", "error"), [
    (HUGE, None, TakeBackStoppedError),  # more than can be taken back, named by its size
    (-HUGE, None, NothingToUndoError),
    (True, None, NotAnActionError),  # True is no count
    (1.0, None, NotAnActionError),
    ("1", None, NotAnActionError),
    (1, HUGE, NotAnActionError),
    (1, True, NotAnActionError),  # True is no seat, though True == 1 (Black)
    (1, False, NotAnActionError),
    (1, "x", NotAnActionError),
    (1, 1.0, NotAnActionError),
], ids=["huge_count", "minus_huge_count", "true_count", "float_count", "text_count",
        "huge_seat", "true_seat", "false_seat", "text_seat", "float_seat"])
def test_take_back_refuses_odd_counts_and_seats_with_its_own_error(
        count: object, seat: object, error: type[DuelError]) -> None:
    """Black, to move, could take back its Place: a count or seat that is no whole number
    (or too large to print) gets the duel's typed error, says what it got, changes nothing."""
    state = DuelState.from_position(turn=BLACK, hands=("E1", "C1 D1"), tokens=([], []))
    state.apply(Place(card_ids("C1"), key=0))
    assert state.take_back_reach(BLACK) == TakeBackReach(1, "start")
    before = state.to_json()
    with pytest.raises(error) as info:
        state.take_back(count, seat)  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith("take_back(") and len(message) < 300, message
    if isinstance(count, int) and abs(count) > 10**100 or isinstance(seat, int) and seat > 10**100:
        assert "3900 digits" in message
    assert state.to_json() == before


@pytest.mark.parametrize("seat", [HUGE, True, False, "x", 1.0, 2, -1],
                         ids=["huge", "true", "false", "text", "float", "two", "minus_one"])
def test_take_back_reach_refuses_a_seat_that_is_not_0_or_1(seat: object) -> None:
    state = DuelState.from_position(turn=BLACK, hands=("E1", "C1 D1"), tokens=([], []))
    state.apply(Place(card_ids("C1"), key=0))
    before = state.to_json()
    with pytest.raises(NotAnActionError, match=r"take_back_reach\(.*a seat is 0"):
        state.take_back_reach(seat)  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize("action", [
    Place((HUGE,), key=0), Place(card_ids("C1"), key=HUGE), Move(HUGE, key=0, steps=1),
    Move(card_ids("C1")[0], key=HUGE, steps=1), Move(card_ids("C1")[0], key=0, steps=HUGE),
    Shift(HUGE, piano=0), Shift(card_ids("C↑")[0], piano=HUGE), DuelCard(HUGE),
], ids=["place_card", "place_key", "move_card", "move_key", "move_steps", "shift_card",
        "shift_piano", "duel_card"])
def test_a_huge_number_in_an_action_gets_the_typed_error(action: object) -> None:
    state = DuelState.from_position(hands=("C1 C↑ D1", "E1"), tokens=([(0, 1)], [(4, 1)]))
    before = state.to_json()
    with pytest.raises(DuelError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert "3900 digits" in str(info.value) and len(str(info.value)) < 400, str(info.value)
    assert state.to_json() == before


def test_take_back_is_saved_and_replays():
    state = attack_position()
    place, attack = Place(card_ids("D3"), key=2), Place(card_ids("C1"), key=0)
    state.apply(place)
    state.take_back()
    state.apply(attack)
    state.apply(LockIn())
    loaded = DuelState.from_json(state.to_json())
    assert loaded.to_json() == state.to_json()
    assert loaded.actions() == state.actions() == (attack, LockIn())


def test_a_saved_take_back_past_a_roll_does_not_load():
    state = attack_position()
    state.apply(Place(card_ids("C1"), key=0))
    data = json.loads(state.to_json())
    data["actions"].append({"type": "take_back", "count": 1})
    with pytest.raises(BadSavedGameError, match="rolled dice"):
        DuelState.from_json(data)


def test_take_back_stops_at_the_scored_round():
    state = DuelState.from_position(
        piano=(0, 7), hands=("A1 D2 C1 E3 G1", "E1 F2 B1"), final_turn=True,
        tokens=([(0, 2), (4, 1)], [(7, 3), (2, 1), (19, 2), (23, 1), (14, 1)]))
    state.apply(Place(card_ids("A1"), key=9))
    state.apply(EndTurn())
    assert state.round == 2 and state.round_scores == ((9, 14),)
    refused_take_back(state, "draw", "dealt")


@pytest.mark.parametrize("seed", [3, 8])
def test_in_random_games_a_take_back_never_changes_what_was_drawn_or_rolled(seed: int):
    state = DuelState.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        reach = state.take_back_reach()
        if reach.actions:
            copy = state.clone()
            copy.take_back(reach.actions)
            assert copy.draw_pile == state.draw_pile and copy.round == state.round
            assert (copy.duel is None) == (state.duel is None) or state.duel is None
            if copy.duel is not None and state.duel is not None:
                assert copy.duel.attacker_dice == state.duel.attacker_dice
                assert copy.duel.defender_dice == state.duel.defender_dice
            with pytest.raises(TakeBackStoppedError):
                copy.take_back()
        state.apply(rng.choice(state.legal_actions()))


def test_no_take_back_once_the_game_is_over():
    state = random_game(1)
    assert state.actions_this_round == 0
    with pytest.raises(NothingToUndoError):
        state.take_back()
    with pytest.raises(NothingToUndoError):
        state.take_back(0)


# -- the plain log keeps its shape ----------------------------------------------------------


def test_the_log_is_the_story_in_plain_json():
    state = random_game(11)
    kinds = {e["type"] for e in state.log}
    assert {"action", "round_start", "deal", "place", "end_turn", "draw", "round_end",
            "game_over"} <= kinds
    actions = [e for e in state.story() if isinstance(e, ActionTaken)]
    assert len(actions) == sum(1 for e in state.log if e["type"] == "action")
    json.dumps(state.log)
    assert [e["type"] for e in state.events(WHITE)] == [e["type"] for e in state.log]


# -- key names in messages are spelled in their chord's key ----------------------------------


def test_key_names_in_refusals_are_spelled_in_the_chords_key():
    """Walk seeded games; at each turn, refuse a Move from every empty key and of every
    opponent token: the message names the key as its piano card's chord spells it."""
    checked = 0
    for seed in range(8):
        state = DuelState.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.round == 1:
            seat = state.seat_to_act
            mover = next((c for c in state.hand(seat)
                          if COMPOSE_DECK[c].corner in (Corner.ONE, Corner.TWO, Corner.THREE)),
                         None)
            if state.duel is None and not state.moved_this_turn and mover is not None:
                steps = int(COMPOSE_DECK[mover].corner)
                for key in range(24):
                    token = state.board_token(key)
                    if token is not None and token.seat == seat:
                        continue
                    message = str(refusal(state, Move(mover, key, steps), seat))
                    card = state.piano_cards[key // 12]
                    spelled = card.triad.spell(key % 12).label("letters", octave=False)
                    mark = card.marks.get(key % 12)
                    words = f"{spelled} ({mark})" if mark else spelled
                    assert f"{words} of {card.name()}" in message, message
                    assert "(left)" not in message and "(right)" not in message
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 500


def test_d2_a_black_key_in_b_flat_major_is_b_flat_never_a_sharp():
    b_flat = next(c.index for c in PIANO_CARDS if c.name() == "B♭ major")
    state = DuelState.from_position(piano=(0, b_flat), hands=("D1 Wild", "E1"),
                                    tokens=([], [(22, 1)]))
    error = refusal(state, Move(card_ids("D1")[0], 22, 1))
    assert "B♭ (fff) of B♭ major" in str(error) and "A♯" not in str(error)


@pytest.mark.parametrize("setup", [
    {"tokens": ([[HUGE, 1]], ())},  # a list, not a (key, power) pair, holding a huge key
    {"tokens": ([(HUGE, 1)], ())},
    {"round": HUGE},  # checked before a list of that many round scores is made
    {"round": -HUGE},
    {"round": "2"},
    {"turns": HUGE},
    {"piano": (HUGE, 1)},
], ids=["listed_token", "token", "huge_round", "minus_huge_round", "text_round", "huge_turns",
        "huge_piano"])
def test_a_position_with_a_huge_or_odd_number_is_refused_as_a_bad_position(
        setup: dict[str, object]) -> None:
    with pytest.raises(BadSavedGameError) as info:
        DuelState.from_position(**setup)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("seed", ["x", 1.5, None, True],
                         ids=["text", "float", "none", "true"])
@pytest.mark.parametrize("make", [DuelState.new_game, DuelState, SharpBot, RandomBot],
                         ids=["new_game", "state", "sharp_bot", "random_bot"])
def test_a_seed_that_is_no_whole_number_gets_the_duels_typed_error(
        make: Callable[[object], object], seed: object) -> None:
    with pytest.raises(BadSeedError, match="seed must be an int or a random.Random, not "):
        make(seed)


def test_a_huge_seed_plays_and_a_bot_made_with_one_shows_it_by_its_size() -> None:
    assert DuelState.new_game(seed=HUGE).legal_actions()
    assert repr(SharpBot(seed=HUGE)) == "SharpBot(seed=a number of more than 3900 digits)"


@pytest.mark.parametrize(("ask", "said"), [
    (lambda: total_counts(HUGE), "3900 digits"),
    (lambda: total_counts(10**7), "10000000 is not a number of dice"),  # once, an endless sum
    (lambda: total_counts(MOST_DICE + 1), "a side rolls 0 to 3"),
    (lambda: total_counts(-1), "-1 is not a number of dice"),
    (lambda: total_counts(True), "True is not a number of dice"),
    (lambda: dice_count(HUGE), "3900 digits"),
    (lambda: dice_count(7), "7 is not a token power"),
    (lambda: win_chance_now((HUGE,), (1,), attacker=True), "3900 digits"),
    (lambda: win_chance_now((1, 1, 1, 1), (1,), attacker=True), "one to three dice"),
], ids=["huge_dice", "ten_million_dice", "four_dice", "minus_one_dice", "true_dice",
        "huge_power", "power_7", "huge_face", "four_faces"])
def test_the_odds_refuse_what_the_rules_never_ask_with_the_duels_typed_error(
        ask: Callable[[], object], said: str) -> None:
    with pytest.raises(NotAnOddsQuestionError, match=re.escape(said)):
        ask()
