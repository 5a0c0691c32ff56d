"""The Keyboard Duel engine's API: errors, undo, clone, saving, replays, views and the odds
of a duel as the engine plays it."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from musicgames.duel import (
    BLACK,
    COMPOSE_DECK,
    MAX_TURNS_PER_ROUND,
    WHITE,
    BadSavedGameError,
    CardCodeError,
    CardNotInHandError,
    DuelCard,
    DuelError,
    DuelState,
    EndTurn,
    GameIsOverError,
    LockIn,
    Move,
    NothingToUndoError,
    Phase,
    Place,
    Shift,
    action_from_json,
    card_ids,
)


def play(state: DuelState, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


def mid_game(seed: int = 4, actions: int = 40) -> DuelState:
    state = DuelState.new_game(seed)
    play(state, random.Random(seed), actions)
    return state


# -- errors -----------------------------------------------------------------------------------


def test_every_error_is_a_value_error_naming_the_input_and_the_reason():
    state = DuelState.from_position(hands=("D1 D2 Wild", "E1"))
    with pytest.raises(CardNotInHandError) as info:
        state.apply(Place(card_ids("G3"), key=7))
    message = str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, DuelError)
    assert "G3" in message and "not in White's hand" in message and "D1" in message


@pytest.mark.parametrize("bad", [None, "Place", 3, (1, 2), Place(("x",), 2),
                                 Place((6,), "2"), Move(6, 2.0, 1), Move(True, 2, 1)])
def test_things_that_are_not_actions_are_refused_with_the_state_unchanged(bad):
    state = DuelState.from_position(hands=("D1 D2 Wild", "E1"), tokens=([(2, 1)], []))
    before = state.to_json()
    with pytest.raises(DuelError):
        state.apply(bad)
    assert state.to_json() == before
    assert not state.is_legal(bad)


def test_the_game_over_refuses_every_action():
    state = DuelState.from_position(round=3, totals=(4, 9), round_scores=[(4, 0), (0, 9)],
                                    hands=("", ""), turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())
    assert state.is_terminal()
    with pytest.raises(GameIsOverError):
        state.apply(EndTurn())
    assert state.running_scores() == (0, 0)
    assert "game over" in repr(state)


def test_check_raises_what_apply_would_without_changing_anything():
    state = DuelState.from_position(hands=("D1", "E1"))
    with pytest.raises(CardNotInHandError):
        state.check(Place(card_ids("E1"), key=4))
    state.check(Place(card_ids("D1"), key=2))
    assert state.actions() == ()


# -- legal actions ----------------------------------------------------------------------------


def test_legal_actions_are_every_distinct_choice_and_wilds_can_count_as_one():
    state = DuelState.from_position(hands=("D1 Wild Wild", "E1"))
    every = state.legal_actions()
    distinct = state.legal_actions(distinct=True)
    w1, w2 = card_ids("Wild Wild")
    d1 = card_ids("D1")[0]
    assert Place((d1, w2), 2) in every and Place((d1, w2), 2) not in distinct
    assert Place((d1, w1), 2) in distinct
    # D1 alone, D1 + one of two Wilds, D1 + both: 4 sets × 2 keys; Wilds alone: 3 sets × 24
    assert len(every) == 4 * 2 + 3 * 24
    assert len(distinct) == 3 * 2 + 2 * 24
    assert all(state.is_legal(a) for a in every)
    # the same cards in any order make the same action
    assert Place((w2, d1), key=14) in every


def test_legal_actions_in_a_duel_are_fitting_cards_and_lock_in():
    state = DuelState.from_position(hands=("C1 D1 D↑ E2 Wild", "E1"), tokens=([], [(0, 1)]))
    state.apply(Place(card_ids("C1"), key=0))
    assert state.phase is Phase.ATTACK
    assert set(state.legal_actions()) == {DuelCard(c) for c in card_ids("D1 D↑ E2 Wild")} | {
        LockIn()}
    state.apply(DuelCard(card_ids("D↑")[0]))
    assert DuelCard(card_ids("E2")[0]) not in state.legal_actions()


# -- undo and clone ---------------------------------------------------------------------------


def test_undo_is_a_stack_and_restores_exactly_including_the_dice():
    state = mid_game()
    snapshots = []
    rng = random.Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        snapshots.append(state.to_json())
        state.apply(rng.choice(state.legal_actions()))
    end, actions = state.to_json(), state.actions()[-len(snapshots):]
    assert any(e["type"] == "duel" for e in state.log[-200:])
    for before in reversed(snapshots):
        state.undo()
        assert state.to_json() == before
    # playing the same actions again rolls the same dice: the generator was restored
    for action in actions:
        state.apply(action)
    assert state.to_json() == end


def test_a_save_after_undos_and_other_actions_lists_exactly_the_actions_played():
    """Each save adds only the actions played since the last (their text is kept): undone
    actions and the ones played in their place are never mixed up, in the game or a copy."""
    state = mid_game(seed=6, actions=20)
    rng = random.Random(2)
    for _ in range(15):
        state.to_json()
        for _ in range(rng.randint(1, 3)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        state.to_json()
        for _ in range(rng.randint(0, 2)):
            state.undo()
        if not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        copy = state.copy()
        for game in (state, copy):
            saved = json.loads(game.to_json())["actions"]
            assert saved == [action.to_json() for action in game.actions()]
            assert DuelState.from_json(game.to_json()).to_json() == game.to_json()


def test_undo_at_the_start_is_refused():
    state = DuelState.new_game(1)
    with pytest.raises(NothingToUndoError):
        state.undo()


def test_clone_is_independent():
    state = mid_game()
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    play(copy, random.Random(9), 30)
    assert copy.to_json() != state.to_json()
    before = state.to_json()
    copy.undo()
    assert state.to_json() == before
    # the original still undoes on its own
    state.undo()
    assert state.to_json() != before


def test_clone_rolls_the_same_dice_as_the_original():
    a = DuelState.from_position(hands=("C1", "E1"), tokens=([], [(0, 3)]), seed=5)
    b = a.clone()
    a.apply(Place(card_ids("C1"), key=0))
    b.apply(Place(card_ids("C1"), key=0))
    assert a.duel == b.duel


# -- saving and loading -----------------------------------------------------------------------


def test_save_and_load_mid_game_and_mid_duel():
    state = DuelState.from_position(hands=("C1 D2", "E1"), tokens=([], [(0, 3)]), seed=5)
    state.apply(Place(card_ids("C1"), key=0))
    state.apply(DuelCard(card_ids("D2")[0]))
    text = state.to_json()
    loaded = DuelState.from_json(text)
    assert loaded.to_json() == text
    assert loaded.duel == state.duel and loaded.seat_to_act == state.seat_to_act
    assert loaded.undo() == DuelCard(card_ids("D2")[0])  # the loaded game undoes too
    for seed in (3, 8):
        state = mid_game(seed, 70)
        loaded = DuelState.from_json(state.to_json())
        rng1, rng2 = random.Random(seed), random.Random(seed)
        play(state, rng1, 200)
        play(loaded, rng2, 200)
        assert loaded.to_json() == state.to_json()


def test_saved_games_are_plain_json():
    data = json.loads(mid_game().to_json())
    assert set(data) == {"format", "version", "start", "actions", "position"}
    assert DuelState.from_json(data).to_json() == mid_game().to_json()


def _tampered(change) -> str:
    data = json.loads(mid_game().to_json())
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    "not json",
    "[]",
    json.dumps({"format": "chess"}),
    _tampered(lambda d: d.update(version=99)),
    _tampered(lambda d: d.update(extra=1)),
    _tampered(lambda d: d["position"]["hands"][0].append(d["position"]["draw"][0])),
    _tampered(lambda d: d["position"]["hands"][0].__setitem__(0, 99)),
    _tampered(lambda d: d["position"]["tokens"].__setitem__(0, ["on_board", 30, 1])),
    _tampered(lambda d: d["position"]["tokens"].__setitem__(0, ["flying", 3, 1])),
    _tampered(lambda d: d["position"].update(phase="attack")),
    _tampered(lambda d: d["position"].update(totals=[500, 0])),
    _tampered(lambda d: d["position"].update(rng=[3, [1, 2], None])),
    _tampered(lambda d: d["start"].update(round="one")),
    _tampered(lambda d: d["start"].pop("draw")),
    _tampered(lambda d: d["actions"].append({"type": "fly"})),
    _tampered(lambda d: d["actions"].insert(0, {"type": "end_turn"})),
    _tampered(lambda d: d["actions"].pop()),
    _tampered(lambda d: d["position"]["discard"].reverse()),
])
def test_malformed_or_inconsistent_saved_games_are_refused(text):
    with pytest.raises(BadSavedGameError):
        DuelState.from_json(text)


def test_a_position_with_two_tokens_on_one_key_is_refused():
    with pytest.raises(BadSavedGameError):
        DuelState.from_position(tokens=([(3, 1)], [(3, 2)]))
    with pytest.raises(BadSavedGameError):
        DuelState.from_position(hands=("C1 C2 C3 D1 D2 D3", ""))
    with pytest.raises(CardCodeError):
        DuelState.from_position(hands=("C1", "C1"))


# -- the event log and replays ----------------------------------------------------------------


def test_the_event_log_replays_the_game():
    state = mid_game(6, 120)
    logged = [action_from_json(e["action"]) for e in state.log if e["type"] == "action"]
    assert tuple(logged) == state.actions()
    again = DuelState.new_game(6)
    for action in logged:
        again.apply(action)
    assert again.to_json() == state.to_json() and again.log == state.log
    assert state.replay().to_json() == state.to_json()


def test_the_log_records_what_happened():
    state = DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 1)]))
    state.apply(Place(card_ids("C1"), key=0))
    state.apply(DuelCard(card_ids("D3")[0]))
    state.apply(LockIn())
    state.apply(LockIn())
    events = [e["type"] for e in state.log]
    assert events == ["action", "place", "duel", "action", "duel_card", "action", "lock_in",
                      "action", "lock_in", "duel_result"]
    result = state.log[-1]
    assert result["attacker_total"] == sum(state.log[2]["attacker_dice"]) + 3


# -- views ------------------------------------------------------------------------------------


def test_view_tokens_and_scores_match_the_state():
    state = mid_game(2, 50)
    for seat in (WHITE, BLACK):
        view = state.view(seat)
        assert view.tokens(WHITE) == state.tokens(WHITE)
        assert view.tokens(BLACK) == state.tokens(BLACK)
        assert view.running_scores() == state.running_scores()
        assert view.opponent == 1 - seat


def test_sampled_states_agree_with_the_view_and_never_see_hidden_cards():
    state = mid_game(5, 33)
    view = state.view(state.seat_to_act)
    for seed in range(5):
        sample = DuelState.from_view(view, random.Random(seed))
        assert sample.view(view.seat) == view
        assert sample.legal_actions() == state.legal_actions()
        assert sample.hand_size(view.opponent) == state.hand_size(view.opponent)


def test_card_codes_and_labels():
    assert [str(COMPOSE_DECK[c]) for c in card_ids("do1 Re↑ miv Wild")] == [
        "C1", "D↑", "E↓", "Wild"]
    with pytest.raises(CardCodeError):
        card_ids("Wild " * 8)
    assert str(Shift(card_ids("C↑")[0], 1)) == "Shift C↑: right card"


def every_candidate(state: DuelState):
    """Every action that could conceivably be legal now, built from the acting hand."""
    hand = state.hand(state.seat_to_act)
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            for key in range(-1, 25):
                yield Place(cards, key)
    for card in hand:
        yield DuelCard(card)
        for piano in (-1, 0, 1, 2):
            yield Shift(card, piano)
        for key in range(-1, 25):
            for steps in range(-4, 5):
                yield Move(card, key, steps)
    yield LockIn()
    yield EndTurn()


def test_legal_actions_are_exactly_what_apply_accepts():
    checked = 0
    for seed in range(25):
        state = DuelState.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if rng.random() < 0.06:
                legal = set(state.legal_actions())
                accepted = {a for a in every_candidate(state) if state.is_legal(a)}
                assert accepted == legal
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_finished_games_save_and_load():
    state = DuelState.from_position(round=3, totals=(4, 9), round_scores=[(4, 0), (0, 9)],
                                    hands=("", ""), tokens=([(0, 2)], []),
                                    turns=MAX_TURNS_PER_ROUND - 1)
    state.apply(EndTurn())  # the 60-turn guard ends round 3 and the game
    assert state.is_terminal()
    assert DuelState.from_json(state.to_json()).to_json() == state.to_json()
    for seed in range(3):
        game = DuelState.new_game(seed)
        play(game, random.Random(seed), 10_000)
        assert game.is_terminal()
        assert DuelState.from_json(game.to_json()).to_json() == game.to_json()


# -- history-free copies: the same games, nothing recorded ---------------------------------


def test_a_history_free_copy_plays_the_same_game_and_keeps_no_history():
    for seed in range(12):
        full = DuelState.new_game(seed)
        fast = DuelState.new_game(seed, history=False)
        assert fast.to_json() == full.copy(history=False).to_json()
        rng_full, rng_fast = random.Random(seed), random.Random(seed)
        while not full.is_terminal():
            choices = full.legal_actions()
            listed = fast.legal_actions()
            assert len(listed) == len(choices) and tuple(listed) == choices
            pick = int(rng_full.random() * len(choices))
            assert int(rng_fast.random() * len(listed)) == pick
            assert fast.apply(listed[pick]) == full.apply(choices[pick])
        assert fast.is_terminal() and fast.totals == full.totals
        assert fast.log == () and fast.story() == () and fast.actions() == ()
        with pytest.raises(NothingToUndoError):
            fast.undo()


def looped_and_rolled(seed: int) -> tuple[DuelState, DuelState, int]:
    """One seeded random game played by the loop in a full state, and by ``rollout()`` in a
    history-free one (with how many actions the rollout played)."""
    looped = DuelState.new_game(seed)
    rng = random.Random(seed)
    while not looped.is_terminal():
        choices = looped.legal_actions()
        looped.apply(choices[int(rng.random() * len(choices))])
    rolled = DuelState.new_game(seed, history=False)
    played = rolled.rollout(random.Random(seed))
    return looped, rolled, played


def test_rollout_plays_the_very_games_of_the_random_loop():
    for seed in range(100):
        looped, rolled, played = looped_and_rolled(seed)
        assert played == len(looped.actions())
        assert rolled.to_json() == looped.copy(history=False).to_json()


def test_a_history_free_listing_moves_each_card_its_own_steps_and_shifts_the_right_card():
    # The history-free tables know only which cards are arrows: the steps come from each
    # card (D9: 1, 2, 3, a Wild 1), a Shift's card from where the player's tokens stand.
    cases = itertools.product(("C1 D2 E3 Wild F↑", "C1 D2 E3 Wild G↓"),
                              ([(3, 2), (9, 1)], [(15, 1)], [(2, 1), (20, 3)]))
    for hand, tokens in cases:
        full = DuelState.from_position(hands=(hand, "A1"), tokens=(tokens, []))
        fast = full.copy(history=False)
        listed = fast.legal_actions()
        assert tuple(listed) == full.legal_actions()
        moves = [a for a in listed if isinstance(a, Move)]
        assert {(str(COMPOSE_DECK[a.card]), abs(a.steps)) for a in moves} == {
            ("C1", 1), ("D2", 2), ("E3", 3), ("Wild", 1)}
        pianos = {key // 12 for key, _ in tokens}
        assert {a.piano for a in listed if isinstance(a, Shift)} == pianos
        for pick in range(len(listed)):  # every one plays as the full game plays it
            assert fast.copy(history=False).apply(listed[pick]) == full.copy().apply(
                full.legal_actions()[pick])


def test_the_layout_tables_stay_bounded_and_the_games_stay_the_same(monkeypatch):
    from musicgames.duel import legal

    monkeypatch.setattr(legal, "LAYOUTS_KEPT", 40)
    for table in ("_PLACES", "_MOVES", "_ENTRIES"):
        monkeypatch.setattr(legal, table, {})
    for seed in range(30):
        looped, rolled, _ = looped_and_rolled(seed)
        assert rolled.to_json() == looped.copy(history=False).to_json()
        assert len(legal._PLACES) <= 41 and len(legal._MOVES) <= 41
        # At most one table's entries more; the largest table is five Wilds': 31 sets × 24 keys
        assert len(legal._ENTRIES) <= 41 + 31 * 24


def test_rollout_stops_after_max_actions_and_goes_on_from_there():
    a = DuelState.new_game(3, history=False)
    b = DuelState.new_game(3, history=False)
    rng_a, rng_b = random.Random(8), random.Random(8)
    assert a.rollout(rng_a, max_actions=25) == 25
    while not a.is_terminal():
        a.rollout(rng_a, max_actions=7)
    b.rollout(rng_b)
    assert a.to_json() == b.to_json()


def test_a_history_free_copy_still_refuses_illegal_actions():
    fast = mid_game(6, 30).copy(history=False)
    before = fast.to_json()
    for bad in (EndTurn(), LockIn(), Place((0, 1, 2), 0), "Place"):
        if fast.is_legal(bad):
            continue
        with pytest.raises(DuelError):
            fast.apply(bad)  # type: ignore[arg-type]
    assert fast.to_json() == before
    action = fast.legal_actions()[0]
    copy_of_action = action_from_json(action.to_json())  # equal, not the same object
    assert fast.copy(history=False).apply(copy_of_action) == fast.apply(action)


def test_a_history_free_game_refuses_what_is_not_legal_now_at_every_step():
    # The history-free apply skips re-checking only the very objects the current listing
    # made; anything else (a stale action, an equal copy, an action of the other seat) is
    # checked as in a full state, and a refusal leaves the game exactly as it was.
    for seed in range(4):
        full = DuelState.new_game(seed)
        fast = DuelState.new_game(seed, history=False)
        rng = random.Random(seed)
        stale: list[object] = []
        while not full.is_terminal():
            choices = full.legal_actions()
            listed = fast.legal_actions()
            assert tuple(listed) == choices
            assert tuple(fast.legal_actions(distinct=True)) == full.legal_actions(distinct=True)
            for old in stale:
                assert fast.is_legal(old) == full.is_legal(old)
                if not full.is_legal(old):
                    before = fast.to_json()
                    with pytest.raises(DuelError):
                        fast.apply(old)  # type: ignore[arg-type]
                    assert fast.to_json() == before
            pick = int(rng.random() * len(choices))
            action = listed[pick]
            stale = [listed[i] for i in {0, len(listed) - 1, pick}]
            assert fast.apply(action) == full.apply(choices[pick])
        assert fast.to_json() == full.copy(history=False).to_json()


def test_sample_state_is_history_free_and_matches_the_view():
    state = mid_game(5, 33)
    view = state.view(state.seat_to_act)
    sample = DuelState.from_view(view, random.Random(2))
    assert sample.log == () and sample.view(view.seat) == view
    sample.rollout(random.Random(1))
    assert sample.is_terminal()


# -- one module owns the position format ---------------------------------------------------


def test_the_view_uses_no_private_names_of_the_state():
    import ast
    import inspect

    import musicgames.duel.view as view_module

    tree = ast.parse(inspect.getsource(view_module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "musicgames.duel.state":
            assert all(not alias.name.startswith("_") for alias in node.names)
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in ("DuelState", "state")):
            assert not node.attr.startswith("_"), node.attr


def test_the_position_format_is_written_and_read_by_one_module():
    from musicgames.duel.saved import dump_position, load_position

    state = mid_game(9, 45)
    position = dump_position(state)
    again = DuelState._blank()
    load_position(again, json.loads(json.dumps(position)))
    assert dump_position(again) == position
    assert json.loads(state.to_json())["position"] == position
