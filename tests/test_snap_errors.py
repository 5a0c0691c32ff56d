"""Bad input to the Note Snap engine: a typed error naming the input, and nothing changed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from musicgames.protocol import GameError
from musicgames.snap import (
    ActionError,
    Bot,
    CallError,
    CallModeError,
    CloseSlaps,
    ConfigError,
    DoubleSlapError,
    Flip,
    GameOverError,
    NotYourTurnError,
    Pass,
    PhaseError,
    ReactionTimeError,
    SaveError,
    SeatError,
    Slap,
    SnapConfig,
    SnapError,
    SnapState,
    cards_of,
    new_game,
    stacked_deal,
)
from musicgames.snap.actions import action_to_json


def fresh(call_modes: tuple[str, ...] = ("auto", "self", "auto")) -> SnapState:
    return new_game(random.Random(11), SnapConfig(players=3, call_modes=call_modes))  # type: ignore[arg-type]


def refused(state: SnapState, action: object, error: type[SnapError], *words: str) -> None:
    before = state.to_json()
    events_before = state.events
    with pytest.raises(error) as caught:
        state.apply(action)  # type: ignore[arg-type]
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert isinstance(caught.value, ValueError)
    assert state.to_json() == before and state.events == events_before


def test_flip_out_of_turn_names_the_seat_whose_turn_it_is() -> None:
    refused(fresh(), Flip(2), NotYourTurnError, "Flip(seat=2", "seat 0's turn")


@pytest.mark.parametrize("seat", [3, -1, 7, "0", 0.0, None, True])
def test_actions_from_a_seat_that_does_not_exist(seat: object) -> None:
    state = fresh()
    refused(state, Flip(seat), SeatError, repr(seat), "does not exist")  # type: ignore[arg-type]
    state.apply(Flip(0))
    refused(state, Slap(seat, 300.0), SeatError, "does not exist")  # type: ignore[arg-type]


@pytest.mark.parametrize("ms", [-0.1, -500, float("nan"), float("-inf"), "fast", None, False])
def test_negative_or_non_number_reaction_times(ms: object) -> None:
    state = fresh()
    state.apply(Flip(0))
    refused(state, Slap(1, ms), ReactionTimeError, "reaction time")  # type: ignore[arg-type]


@pytest.mark.parametrize("call", ["Do3", "Ut", "", "H", 0, ["Do"]])
def test_a_call_that_is_not_a_name(call: object) -> None:
    state = fresh()
    state.apply(Flip(0))
    state.apply(CloseSlaps())
    if state.to_flip != 1:
        pytest.skip("the first card changed the turn")
    refused(state, Flip(1, call), CallError, "not a note name")  # type: ignore[arg-type]


def _over() -> SnapState:
    piles = stacked_deal([[cards_of("Re3")[0]], []])
    piles[1] = piles[0][:-1] + piles[1]
    piles[0] = piles[0][-1:]
    state = SnapState.from_deal(piles, SnapConfig(players=2))
    state.apply(Flip(0))
    state.apply(Slap(1, 250.0))
    state.apply(CloseSlaps())  # seat 1 slapped falsely: seat 0, without cards, wins
    return state


def test_actions_after_the_game_ended() -> None:
    state = _over()
    assert state.winners == (0,)
    for action in (Flip(1), Slap(0, 100.0), CloseSlaps()):
        refused(state, action, GameOverError, "game is over")
    assert not list(state.legal_actions()) and not state.legal_actions()


def test_wrong_phase_double_slaps_and_non_actions() -> None:
    state = fresh()
    refused(state, Slap(1, 200.0), PhaseError, "no card is waiting")
    refused(state, CloseSlaps(), PhaseError, "no card is waiting")
    refused(state, "flip", ActionError, "'flip'", "not a Note Snap action")
    state.apply(Flip(0))
    refused(state, Flip(1, "Re"), PhaseError, "waiting for slaps")
    state.apply(Slap(2, 200.0))
    refused(state, Slap(2, 250.0), DoubleSlapError, "already slapped")


def test_bad_settings_and_deals() -> None:
    with pytest.raises(ConfigError, match="tie_window_ms"):
        SnapConfig(tie_window_ms=-1)
    with pytest.raises(ConfigError, match="slap_window_ms"):
        SnapConfig(slap_window_ms=0)
    with pytest.raises(ConfigError, match="call_modes"):
        SnapConfig(players=2, call_modes=("auto",))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="call_modes"):
        SnapConfig(players=2, call_modes=("auto", "shout"))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="random.Random"):
        new_game("42")  # type: ignore[arg-type]
    with pytest.raises(SeatError, match="opener"):
        new_game(random.Random(1), SnapConfig(players=2), opener=2)


def _saved() -> dict[str, object]:
    state = fresh()
    state.apply(Flip(0))
    state.apply(Slap(1, 420.0))
    return json.loads(state.to_json())


BROKEN_SAVES: list[tuple[str, Callable[[dict[str, object]], object]]] = [
    ("not valid JSON", lambda d: "{not json"),
    ("not a JSON object", lambda d: "[1, 2]"),
    ("not valid JSON", lambda d: "[" * 100_000 + "]" * 100_000),
    ("format", lambda d: {**d, "format": "chess"}),
    ("version", lambda d: {**d, "version": 99}),
    ("players", lambda d: {**d, "config": {**d["config"], "players": 9}}),  # type: ignore[dict-item]
    ("unknown keys", lambda d: {**d, "config": {**d["config"], "eval": "x"}}),  # type: ignore[dict-item]
    ("deal", lambda d: {**d, "deal": [[1, 2]]}),
    ("twice", lambda d: {**d, "deal": {"hands": [[0, 0], [], []], "opener": 0}}),
    ("actions", lambda d: {**d, "actions": "all of them"}),
    ("does not replay", lambda d: {**d, "actions": [["flip", 1, "Re"]]}),
    ("not a saved action", lambda d: {**d, "actions": [["jump"]]}),
    ("NaN", lambda d: json.dumps(d).replace("420.0", "NaN")),
    ("saved position", lambda d: {**d, "position": {**d["position"], "centre": []}}),  # type: ignore[dict-item]
]


@pytest.mark.parametrize(("words", "breaks"), BROKEN_SAVES, ids=[w for w, _ in BROKEN_SAVES])
def test_a_malformed_saved_game_raises_save_error(
    words: str, breaks: Callable[[dict[str, object]], object]
) -> None:
    broken = breaks(_saved())
    text = broken if isinstance(broken, str) else json.dumps(broken)
    with pytest.raises(SaveError, match="saved game") as caught:
        SnapState.from_json(text)
    assert words in str(caught.value)


HUGE = 10**400  # a whole number no float can hold


def caught_message(state: SnapState, action: object) -> str:
    with pytest.raises(SnapError) as caught:
        state.apply(action)  # type: ignore[arg-type]
    return str(caught.value)


def _slap_phase() -> SnapState:
    state = fresh()
    state.apply(Flip(0))
    return state


@pytest.mark.parametrize("ms", [HUGE, -HUGE], ids=["huge", "huge_negative"])
def test_a_huge_whole_number_reaction_time_is_a_reaction_time_error(ms: int) -> None:
    state = _slap_phase()
    assert not state.is_legal(Slap(1, ms))
    refused(state, Slap(1, ms), ReactionTimeError, "reaction time", "401-digit")
    assert len(str(caught_message(state, Slap(1, ms)))) < 300
    refused(state, Pass(1, ms), ReactionTimeError, "401-digit")  # type: ignore[arg-type]


def test_a_saved_slap_with_a_huge_reaction_time_is_a_save_error() -> None:
    saved = _saved()
    saved["actions"][1][2] = HUGE  # type: ignore[index]
    with pytest.raises(SaveError, match="does not replay") as caught:
        SnapState.from_json(json.dumps(saved))
    assert len(str(caught.value)) < 400


def test_huge_seats_and_calls_are_refused_by_their_own_error() -> None:
    state = fresh()
    refused(state, Flip(10**5000), SeatError, "3900 digits")  # too long even to print
    state.apply(Flip(0))
    state.apply(CloseSlaps())
    if state.to_flip == 1:
        refused(state, Flip(1, 10**5000), CallError, "not a note name")  # type: ignore[arg-type]


class _QuickSlap(Slap):
    """A subclass of Slap: not one of the game's actions."""

    __slots__ = ()


class _MyFlip(Flip):
    __slots__ = ()


@pytest.mark.parametrize("action", [_QuickSlap(1, 300.0), _MyFlip(0)])
def test_a_subclass_of_an_action_is_refused(action: object) -> None:
    state = fresh()
    if isinstance(action, Slap):
        state.apply(Flip(0))
    assert not state.is_legal(action)
    refused(state, action, ActionError, type(action).__name__, "not a Note Snap action")
    with pytest.raises(ActionError):
        action_to_json(action)  # type: ignore[arg-type]
    SnapState.from_json(state.to_json())  # the save still loads


def test_legal_actions_do_not_list_a_subclass_either() -> None:
    state = fresh()
    assert Flip(0) in state.legal_actions() and _MyFlip(0) not in state.legal_actions()
    state.apply(Flip(0))
    legal = state.legal_actions()
    assert Slap(1, 300.0) in legal and _QuickSlap(1, 300.0) not in legal


# Values that once escaped as a plain ValueError (Python refuses to write out a whole number
# of more than 4300 digits) or slipped through as the wrong kind of number.
ODD_VALUES = [10**5000, -(10**5000), True, float("nan"), float("inf"), "4"]
ODD_IDS = ["5000_digits", "minus_5000_digits", "bool", "nan", "inf", "text"]
CONFIG_FIELDS = ["players", "tie_window_ms", "slap_window_ms", "call_modes", "flip_pause_ms",
                 "length", "hand_limit", "time_limit_s", "card_limit"]


@pytest.mark.parametrize("value", ODD_VALUES, ids=ODD_IDS)
@pytest.mark.parametrize("name", CONFIG_FIELDS)
def test_every_setting_refuses_odd_values_with_a_config_error(name: str, value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        SnapConfig(**{"players": 2, name: value})  # type: ignore[arg-type]
    message = str(caught.value)
    assert message.startswith(f"{name}=") and len(message) < 300, message
    if isinstance(value, int) and abs(value) > 10**100:
        assert "3900 digits" in message


def _save_with(path: tuple[object, ...], value: object) -> dict[str, object]:
    saved = _saved()
    place: object = saved
    for key in path[:-1]:
        place = place[key]  # type: ignore[index]
    place[path[-1]] = value  # type: ignore[index]
    return saved


SAVE_FIELDS: list[tuple[object, ...]] = [
    ("format",), ("version",), ("deal",), ("deal", "opener"), ("deal", "hands"),
    ("deal", "hands", 0), ("deal", "hands", 0, 0), ("actions",), ("actions", 0),
    ("actions", 0, 1), ("actions", 1, 2), ("position",), ("config",),
    *((("config", name)) for name in CONFIG_FIELDS),
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=ODD_IDS)
@pytest.mark.parametrize("path", SAVE_FIELDS, ids=["/".join(map(str, p)) for p in SAVE_FIELDS])
def test_every_part_of_a_save_refuses_odd_values_with_a_save_error(
    path: tuple[object, ...], value: object
) -> None:
    with pytest.raises(SaveError) as caught:
        SnapState.from_json(_save_with(path, value))  # type: ignore[arg-type]
    assert str(caught.value).startswith("saved game") and len(str(caught.value)) < 400


# -- every refusal names its rule (GameError.rule) ------------------------------------------


def _auto_self() -> SnapState:
    return fresh(("auto", "self", "auto"))


def _slapping() -> SnapState:
    state = fresh()
    state.apply(Flip(0))
    return state


def _seat_1_to_flip() -> SnapState:
    state = fresh()
    state.apply(Flip(0))
    state.apply(CloseSlaps())
    assert state.to_flip == 1
    return state


def _empty_seat_out_of_turn() -> SnapState:
    piles = stacked_deal([[8], [16]])  # Re3 called Do, then Mi3 called Re: no matches
    piles[0] = piles[1][:-1] + piles[0]
    piles[1] = piles[1][-1:]
    state = SnapState.from_deal(piles, SnapConfig(players=2))
    state.apply(Flip(0))
    state.apply(CloseSlaps())  # seat 1 flips next
    state.apply(Flip(1))
    state.apply(CloseSlaps())  # seat 1 has no cards: seat 0 flips
    return state


REFUSALS: list[tuple[str, Callable[[], SnapState], object, type[SnapError], str | None]] = [
    ("not an action", fresh, "flip", ActionError, None),
    ("no seat", fresh, Flip(3), SeatError, "S3"),
    ("out of turn", fresh, Flip(2), NotYourTurnError, "S5"),
    ("out of cards", _empty_seat_out_of_turn, Flip(1), NotYourTurnError, "S11"),
    ("over", _over, Flip(1), GameOverError, "S11"),
    ("slap with no card", fresh, Slap(1, 200.0), PhaseError, "S14"),
    ("flip during slaps", _slapping, Flip(1, "Re"), PhaseError, "S14"),
    ("close with no card", fresh, CloseSlaps(), PhaseError, "S14"),
    ("not a name", _seat_1_to_flip, Flip(1, "H"), CallError, "S5"),
    ("auto seat calls", fresh, Flip(0, "Do"), CallModeError, "S15"),
    ("self seat silent", _seat_1_to_flip, Flip(1), CallModeError, "S15"),
    ("bad reaction time", _slapping, Slap(1, -5.0), ReactionTimeError, "S13"),
    ("late slap", _slapping, Slap(1, 99_999.0), ReactionTimeError, "S14"),
    ("bad pass time", _slapping, Pass(1, -5.0), ReactionTimeError, "S14"),
]


@pytest.mark.parametrize(("what", "make", "action", "error", "rule"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_every_refusal_of_an_action_names_its_rule(
    what: str, make: Callable[[], SnapState], action: object, error: type[SnapError],
    rule: str | None,
) -> None:
    state = make()
    before = state.to_json()
    with pytest.raises(error) as caught:
        state.apply(action)  # type: ignore[arg-type]
    assert isinstance(caught.value, GameError) and caught.value.rule == rule, what
    assert state.to_json() == before


def test_s7_s14_a_second_slap_or_a_slap_after_a_pass_names_its_rule() -> None:
    state = _slapping()
    state.apply(Slap(2, 200.0))
    with pytest.raises(DoubleSlapError) as caught:
        state.apply(Slap(2, 250.0))
    assert caught.value.rule == "S7"
    state.apply(Pass(1, 300.0))
    for action in (Slap(1, 350.0), Pass(1, 350.0)):
        with pytest.raises(DoubleSlapError) as caught:
            state.apply(action)
        assert caught.value.rule == "S14"


@pytest.mark.parametrize(
    ("settings", "rule"),
    [({"players": 5}, "S3"), ({"tie_window_ms": -1}, "S13"), ({"slap_window_ms": 0}, "S14"),
     ({"tie_window_ms": 3000.0}, "S13"), ({"flip_pause_ms": "slow"}, "S15"),
     ({"call_modes": ("shout",) * 4}, "S15"), ({"length": "forever"}, None),
     ({"hand_limit": 1}, None), ({"time_limit_s": 0}, None), ({"card_limit": 0}, None)],
)
def test_every_refused_setting_names_its_setting_and_rule(
    settings: dict[str, object], rule: str | None
) -> None:
    with pytest.raises(ConfigError) as caught:
        SnapConfig(**settings)  # type: ignore[arg-type]
    assert caught.value.rule == rule
    assert caught.value.settings[0] == next(iter(settings))


def test_a_bad_deal_or_opener_names_s4_or_s5_and_a_bad_save_no_rule() -> None:
    with pytest.raises(ConfigError) as caught:
        SnapState.from_deal([[0, 0], []], SnapConfig(players=2))
    assert caught.value.rule == "S4"
    with pytest.raises(SeatError) as seat:
        new_game(1, SnapConfig(players=2), opener=2)
    assert seat.value.rule == "S5"
    with pytest.raises(SaveError) as save:
        SnapState.from_json("{not json")
    assert save.value.rule is None
    with pytest.raises(ConfigError) as level:
        Bot(0, "grandmaster", 1)
    assert level.value.rule == "S17"


def test_every_snap_error_is_a_game_error() -> None:
    import musicgames.snap.errors as errors

    classes = [getattr(errors, name) for name in errors.__all__]
    assert all(issubclass(cls, GameError) for cls in classes)
    assert SnapError.__mro__[1] is GameError
