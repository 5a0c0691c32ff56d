"""The Keyboard Duel position format: writing a position as plain JSON, and reading one back,
checking every field and every rule. This module alone knows the format.

A position is the object that :meth:`DuelState.to_json` writes under ``"start"`` and
``"position"`` (:func:`dump_position`). Nothing here uses ``pickle`` or ``eval``: each field
is type-checked, then the position is checked as a whole (every card exactly once, tokens
consistent with the board, a duel only in a duel phase …). Any failure raises
:class:`BadSavedGameError` naming the field and the reason.
"""

from __future__ import annotations

import base64
import binascii
import struct
from typing import TYPE_CHECKING, Any

from musicgames.duel import kernel, legal
from musicgames.duel.cards import BOARD_KEYS, DECK_SIZE, HAND_SIZE, PIANO_CARDS
from musicgames.duel.errors import BadSavedGameError
from musicgames.shown import short_repr

if TYPE_CHECKING:
    from musicgames.duel.position import Position

__all__ = ["MOST_ROUNDS", "dump_position", "load_position", "rng_to_json", "whole_number"]

_FIELDS = (
    "rng", "round", "starter", "turn", "turns", "final_turn", "placed", "moved", "phase",
    "piano", "piano_deck", "hands", "draw", "discard", "tokens", "duel", "pending", "totals",
    "round_scores",
)
_PHASES = ("turn", "attack", "defend", "over")
_STATES = ("unplaced", "on_board", "merged", "beaten")
_DUEL_FIELDS = ("key", "attacker_token", "defender_token", "dice", "additions", "runs")
_MT_WORDS = 624


def rng_to_json(state: tuple[Any, ...]) -> list[Any]:
    """A generator state as plain JSON: ``[version, base64 of its 625 words, gauss]``."""
    version, internal, gauss = state
    words = base64.b64encode(struct.pack("<625I", *internal)).decode("ascii")
    return [version, words, gauss]


def dump_position(state: Position) -> dict[str, Any]:
    """The position of a game as a plain JSON object (what :func:`load_position` reads)."""
    duel = None
    if state._dkey >= 0:
        duel = {
            "key": state._dkey, "attacker_token": state._datt,
            "defender_token": state._ddef,
            "dice": [state._ddice[0][:], state._ddice[1][:]], "additions": state._dadd[:],
            "runs": [state._druns[0][:], state._druns[1][:]],
        }
    return {
        "rng": rng_to_json(state._rng.getstate()),
        "round": state._round,
        "starter": state._starter,
        "turn": state._turn,
        "turns": state._turns,
        "final_turn": state._final,
        "placed": state._placed,
        "moved": state._moved,
        "phase": _PHASES[state._phase],
        "piano": state._piano[:],
        "piano_deck": state._piano_deck[:],
        "hands": [state._hands[0][:], state._hands[1][:]],
        "draw": state._draw[:],
        "discard": state._discard[:],
        "tokens": [[_STATES[s], k, p]
                   for s, k, p in zip(state._status, state._key, state._power, strict=True)],
        "duel": duel,
        "pending": state._pending[:],
        "totals": state._totals[:],
        "round_scores": [list(r) for r in state._round_scores],
    }


def _bad(field: str, why: str) -> BadSavedGameError:
    return BadSavedGameError(f"saved position: {field!r} {why}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The highest round number a position may name: far more than any game reaches (extra
#: rounds follow a tie), few enough for a position's list of round scores.
MOST_ROUNDS = 10**6


def whole_number(value: object, field: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else BadSavedGameError."""
    return _int(value, field, low, high)


def _int(value: object, field: str, low: int, high: int) -> int:
    if not _is_int(value):
        raise _bad(field, f"must be a whole number, not {short_repr(value)}")
    assert isinstance(value, int)
    if not low <= value <= high:
        raise _bad(field, f"must be between {low} and {high}, not {short_repr(value)}")
    return value


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(field, f"must be true or false, not {short_repr(value)}")
    return value


def _int_list(value: object, field: str, low: int, high: int, size: int | None = None) -> list[int]:
    if not isinstance(value, list):
        raise _bad(field, f"must be a list, not {short_repr(value)}")
    if size is not None and len(value) != size:
        raise _bad(field, f"must hold {size} numbers, not {len(value)}")
    return [_int(v, f"{field}[{i}]", low, high) for i, v in enumerate(value)]


def _rng_state(value: object) -> tuple[Any, ...]:
    shape = "must be [3, base64 of 625 words, null or a number] (the generator's state)"
    if not isinstance(value, list) or len(value) != 3 or not isinstance(value[1], str):
        raise _bad("rng", shape)
    version = _int(value[0], "rng[0]", 3, 3)
    try:
        raw = base64.b64decode(value[1], validate=True)
    except (ValueError, binascii.Error):
        raise _bad("rng", shape) from None
    if len(raw) != 4 * (_MT_WORDS + 1):
        raise _bad("rng", shape)
    words = struct.unpack(f"<{_MT_WORDS + 1}I", raw)
    _int(words[-1], "rng[1] (position)", 0, _MT_WORDS)
    gauss = value[2]
    if gauss is not None and not isinstance(gauss, float):
        raise _bad("rng[2]", f"must be null or a number, not {short_repr(gauss)}")
    return (version, words, gauss)


def load_position(state: Position, position: object) -> None:
    """Fill ``state`` from a position object, or raise :class:`BadSavedGameError`."""
    if not isinstance(position, dict):
        raise BadSavedGameError(f"saved position must be a JSON object, not "
                                f"{type(position).__name__}")
    if set(position) != set(_FIELDS):
        missing = sorted(set(_FIELDS) - set(position))
        extra = sorted(set(position) - set(_FIELDS))
        raise BadSavedGameError(f"saved position: missing fields {missing}, unknown fields {extra}")
    p = position
    rng_state = _rng_state(p["rng"])
    try:
        state._rng.setstate(rng_state)
    except (ValueError, TypeError, OverflowError) as err:
        raise _bad("rng", f"is not a generator state: {err}") from None

    number = _int(p["round"], "round", 1, MOST_ROUNDS)
    starter = _int(p["starter"], "starter", 0, 1)
    turn = _int(p["turn"], "turn", 0, 1)
    turns = _int(p["turns"], "turns", 0, 60)  # 60 only once a game has ended on the guard
    final = _bool(p["final_turn"], "final_turn")
    placed = _bool(p["placed"], "placed")
    moved = _bool(p["moved"], "moved")
    if p["phase"] not in _PHASES:
        raise _bad("phase", f"must be one of {', '.join(_PHASES)}, not {short_repr(p['phase'])}")
    phase = _PHASES.index(p["phase"])
    if turns == 60 and phase != 3:
        raise _bad("turns", "reaches 60 only in a finished game: the round ends then (D12)")
    n_piano = len(PIANO_CARDS)
    piano = _int_list(p["piano"], "piano", 0, n_piano - 1, 2)
    piano_deck = _int_list(p["piano_deck"], "piano_deck", 0, n_piano - 1)
    if piano[0] == piano[1]:
        raise _bad("piano", "must be two different piano cards")
    if len(set(piano_deck)) != len(piano_deck) or set(piano) & set(piano_deck):
        raise _bad("piano_deck", "must hold each piano card at most once, not the ones in play")

    hands_value = p["hands"]
    if not isinstance(hands_value, list) or len(hands_value) != 2:
        raise _bad("hands", "must be a list of two hands")
    hands = [_int_list(h, f"hands[{i}]", 0, DECK_SIZE - 1) for i, h in enumerate(hands_value)]
    for i, hand in enumerate(hands):
        if len(hand) > HAND_SIZE:
            raise _bad(f"hands[{i}]", f"holds {len(hand)} cards: at most {HAND_SIZE}")
    draw = _int_list(p["draw"], "draw", 0, DECK_SIZE - 1)
    discard = _int_list(p["discard"], "discard", 0, DECK_SIZE - 1)
    every_card = hands[0] + hands[1] + draw + discard
    if sorted(every_card) != list(range(DECK_SIZE)):
        raise _bad("hands/draw/discard", "must hold each of the 42 cards exactly once")

    tokens_value = p["tokens"]
    if not isinstance(tokens_value, list) or len(tokens_value) != 10:
        raise _bad("tokens", "must list ten tokens, White's five then Black's")
    status: list[int] = []
    keys: list[int] = []
    power: list[int] = []
    for t, row in enumerate(tokens_value):
        field = f"tokens[{t}]"
        if not isinstance(row, list) or len(row) != 3 or row[0] not in _STATES:
            raise _bad(field, f"must be [state, key, power] with a state in {_STATES}")
        s = _STATES.index(row[0])
        if s == kernel.ON_BOARD:
            k = _int(row[1], field, 0, BOARD_KEYS - 1)
            w = _int(row[2], field, 1, kernel.MAX_POWER)
        elif s == kernel.UNPLACED:
            k = _int(row[1], field, -1, -1)
            w = _int(row[2], field, 0, 0)
        else:
            k = _int(row[1], field, -1, -1)
            w = _int(row[2], field, 1, kernel.MAX_POWER)
        status.append(s)
        keys.append(k)
        power.append(w)

    pending = _int_list(p["pending"], "pending", 0, 9)
    duel = p["duel"]
    in_duel = phase in (1, 2)
    arriving = list(pending)
    dkey = datt = ddef = -1
    dadd = [0, 0]
    ddice: list[list[int]] = [[], []]
    druns: list[list[int]] = [[], []]
    if in_duel:
        if not isinstance(duel, dict) or set(duel) != set(_DUEL_FIELDS):
            raise _bad("duel", f"must be an object with {', '.join(_DUEL_FIELDS)}")
        dkey = _int(duel["key"], "duel.key", 0, BOARD_KEYS - 1)
        datt = _int(duel["attacker_token"], "duel.attacker_token", 0, 9)
        ddef = _int(duel["defender_token"], "duel.defender_token", 0, 9)
        if datt // 5 != turn or ddef // 5 == turn:
            raise _bad("duel", "must have the turn player attacking a token of the other seat")
        for t in (datt, ddef):
            if status[t] != kernel.ON_BOARD or keys[t] != dkey:
                raise _bad("duel", "tokens must both be on the board at the duel's key")
        for role, t in enumerate((datt, ddef)):
            if not isinstance(duel["dice"], list) or len(duel["dice"]) != 2:
                raise _bad("duel.dice", "must be two lists of dice")
            ddice[role] = _int_list(duel["dice"][role], f"duel.dice[{role}]", 1, 6,
                                    kernel.dice_for_power(power[t]))
        dadd = _int_list(duel["additions"], "duel.additions", 0, 10**6, 2)
        if not isinstance(duel["runs"], list) or len(duel["runs"]) != 2:
            raise _bad("duel.runs", "must be two lists of cards")
        druns = [_int_list(r, f"duel.runs[{i}]", 0, DECK_SIZE - 1) for i, r in
                 enumerate(duel["runs"])]
        played = druns[0] + druns[1]
        if len(set(played)) != len(played) or not set(played) <= set(discard):
            raise _bad("duel.runs", "must be distinct cards, all in the discard pile")
        for i, run in enumerate(druns):
            if len({legal.CARD_LETTER[c] for c in run} - {-1}) > 1:
                raise _bad(f"duel.runs[{i}]", "must show one letter plus any Wilds")
        if phase == 1 and druns[1]:
            raise _bad("duel.runs", "the defender cannot have played before the attacker locks in")
        if not (placed or moved):
            raise _bad("duel", "can only follow a Place or a Move this turn")
        arriving.append(datt)
    elif duel is not None:
        raise _bad("duel", "must be null outside a duel phase")
    if pending and not in_duel:
        raise _bad("pending", "arrivals wait only while a duel is fought")

    board = [-1] * BOARD_KEYS
    for t in range(10):
        if status[t] == kernel.ON_BOARD and t not in arriving:
            if board[keys[t]] >= 0:
                raise _bad("tokens", f"put two tokens on key {keys[t]}")
            board[keys[t]] = t
    last = -1
    for t in pending:
        if t // 5 != turn or status[t] != kernel.ON_BOARD or board[keys[t]] < 0:
            raise _bad("pending", "must list the turn player's tokens arriving on held keys")
        if keys[t] <= max(last, dkey):
            raise _bad("pending", "must come after the duel key, in key order (D9)")
        last = keys[t]
    if len(set(arriving)) != len(arriving):
        raise _bad("pending", "lists a token twice")
    if in_duel and board[dkey] != ddef:
        raise _bad("duel", "defender must hold the duel's key")

    if final and kernel.UNPLACED in status[(1 - turn) * 5 : (2 - turn) * 5]:
        raise _bad("final_turn", "needs the other player to have placed all five tokens (D12)")
    totals = _int_list(p["totals"], "totals", 0, 10**9, 2)
    rounds_value = p["round_scores"]
    if not isinstance(rounds_value, list):
        raise _bad("round_scores", "must be a list of [White, Black] scores")
    round_scores = [
        tuple(_int_list(r, f"round_scores[{i}]", 0, 10**9, 2)) for i, r in enumerate(rounds_value)
    ]
    finished = number if phase == 3 else number - 1
    if len(round_scores) != finished:
        raise _bad("round_scores", f"must hold {finished} finished rounds")
    if [sum(r[i] for r in round_scores) for i in (0, 1)] != totals:
        raise _bad("totals", "must be the sums of round_scores")
    if phase == 3 and (number < 3 or totals[0] == totals[1]):
        raise _bad("phase", "can be 'over' only after round 3 with different totals (D15)")

    state._round = number
    state._starter = starter
    state._turn = turn
    state._turns = turns
    state._final = final
    state._placed = placed
    state._moved = moved
    state._phase = phase
    state._piano = piano
    state._piano_deck = piano_deck
    state._hands = hands
    state._draw = draw
    state._discard = discard
    state._status = status
    state._key = keys
    state._power = power
    state._board = board
    state._dkey, state._datt, state._ddef = dkey, datt, ddef
    state._dadd = dadd
    state._ddice = ddice
    state._druns = druns
    state._pending = pending
    state._totals = totals
    state._round_scores = [(r[0], r[1]) for r in round_scores]
    state._legal = [None, None]

