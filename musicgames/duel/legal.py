"""Listing legal actions from what the acting seat can see (shared by the state and the view).

Everything here works on plain ints: card ids, keys, and the token tables of the state
(token ``t`` belongs to seat ``t // 5``). Nothing here needs hidden information (D16): what
a player may do depends only on its own hand and the public board.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from musicgames.duel.actions import Action, DuelCard, EndTurn, LockIn, Move, Place, Shift
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_CORNER,
    CARD_LETTER,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
    PIANO_CARDS,
    PIANO_CHORD_PITCH_CLASSES,
)

__all__ = [
    "MAX_PLACE_CARDS", "TOKENS_PER_SEAT", "duel_actions", "round_score", "turn_actions"
]

#: Most cards one Place may use (D8).
MAX_PLACE_CARDS = 6
#: Dice Tokens per player per round.
TOKENS_PER_SEAT = 5

# Token states, as stored by the engine.
UNPLACED, ON_BOARD, MERGED, BEATEN = 0, 1, 2, 3
# Corner values (see cards.Corner).
_UP, _DOWN, _WILD = 4, 5, 6

END_TURN = EndTurn()
LOCK_IN = LockIn()

_new = object.__new__
_set = object.__setattr__


def _place(cards: tuple[int, ...], key: int) -> Place:
    """A Place from cards already sorted (skips the sorting check: this is the hot path)."""
    action: Place = _new(Place)
    _set(action, "cards", cards)
    _set(action, "key", key)
    return action


def place_actions(hand: tuple[int, ...], distinct: bool) -> tuple[Place, ...]:
    """Every Place a sorted ``hand`` allows (D8); ``distinct`` treats Wilds as one card."""
    wilds = [c for c in hand if CARD_LETTER[c] < 0]
    by_letter: dict[int, list[int]] = {}
    for card in hand:
        letter = CARD_LETTER[card]
        if letter >= 0:
            by_letter.setdefault(letter, []).append(card)
    if distinct:
        wild_sets = [tuple(wilds[:n]) for n in range(len(wilds) + 1)]
    else:
        wild_sets = [w for n in range(len(wilds) + 1) for w in combinations(wilds, n)]
    out: list[Place] = []
    for letter in sorted(by_letter):
        cards = by_letter[letter]
        pitch_class = LETTER_PITCH_CLASSES[letter]
        for size in range(1, len(cards) + 1):
            for chosen in combinations(cards, size):
                for extra in wild_sets:
                    if size + len(extra) > MAX_PLACE_CARDS:
                        continue
                    played = chosen + extra  # sorted: letters come before Wilds (ids 35+)
                    out.append(_place(played, pitch_class))
                    out.append(_place(played, pitch_class + KEYS_PER_CARD))
    for extra in wild_sets:
        if extra and len(extra) <= MAX_PLACE_CARDS:
            out.extend([_place(extra, key) for key in range(BOARD_KEYS)])
    return tuple(out)


def move_actions(
    hand: tuple[int, ...], own_keys: Sequence[int], distinct: bool
) -> list[Action]:
    """Every Move and Shift (D9) with a sorted ``hand`` and your tokens on ``own_keys``."""
    out: list[Action] = []
    pianos = sorted({key // KEYS_PER_CARD for key in own_keys})
    wild_seen = False
    for card in hand:
        corner = CARD_CORNER[card]
        if corner in (_UP, _DOWN):
            out.extend(Shift(card, piano) for piano in pianos)
            continue
        if corner == _WILD:
            if distinct and wild_seen:
                continue
            wild_seen = True
            steps = 1
        else:
            steps = corner
        for key in own_keys:
            out.append(Move(card, key, steps))
            out.append(Move(card, key, -steps))
    return out


def turn_actions(
    seat: int,
    hand: Sequence[int],
    status: Sequence[int],
    board: Sequence[int],
    placed: bool,
    moved: bool,
    distinct: bool,
) -> tuple[Action, ...]:
    """Every legal action in the turn phase (D7–D9), EndTurn last."""
    sorted_hand = tuple(sorted(hand))
    out: list[Action] = []
    if sorted_hand:
        first = seat * TOKENS_PER_SEAT
        if not placed and UNPLACED in status[first : first + TOKENS_PER_SEAT]:
            out.extend(place_actions(sorted_hand, distinct))
        if not moved:
            own_keys = [k for k in range(BOARD_KEYS) if board[k] >= 0 and board[k] // 5 == seat]
            if own_keys:
                out.extend(move_actions(sorted_hand, own_keys, distinct))
    if placed or moved or not out:
        out.append(END_TURN)
    return tuple(out)


def run_letter(run: Sequence[int]) -> int:
    """The letter index a duel run is tied to: its first lettered card's, or −1 if none yet."""
    for card in run:
        letter = CARD_LETTER[card]
        if letter >= 0:
            return letter
    return -1


def duel_actions(hand: Sequence[int], run: Sequence[int], distinct: bool) -> tuple[Action, ...]:
    """Every legal duel action (D11b, c): a card that fits the run, then LockIn last."""
    letter = run_letter(run)
    out: list[Action] = []
    wild_seen = False
    for card in sorted(hand):
        card_letter = CARD_LETTER[card]
        if card_letter < 0:
            if distinct and wild_seen:
                continue
            wild_seen = True
        elif letter >= 0 and card_letter != letter:
            continue
        out.append(DuelCard(card))
    out.append(LOCK_IN)
    return tuple(out)


def round_score(
    board: Sequence[int], power: Sequence[int], piano: Sequence[int]
) -> tuple[int, int]:
    """What each seat would bank now (D13): power × multiplier of every token holding a key,
    plus 1 for each piano card whose colored keys are all held by one seat."""
    scores = [0, 0]
    left = PIANO_CARDS[piano[0]].multipliers
    right = PIANO_CARDS[piano[1]].multipliers
    for key in range(BOARD_KEYS):
        token = board[key]
        if token >= 0:
            mult = left[key] if key < KEYS_PER_CARD else right[key - KEYS_PER_CARD]
            scores[token // TOKENS_PER_SEAT] += power[token] * mult
    for side in (0, 1):
        base = side * KEYS_PER_CARD
        a, b, c = (board[base + pc] for pc in PIANO_CHORD_PITCH_CLASSES[piano[side]])
        if a >= 0 and b >= 0 and c >= 0:
            seat = a // TOKENS_PER_SEAT
            if b // TOKENS_PER_SEAT == seat and c // TOKENS_PER_SEAT == seat:
                scores[seat] += 1
    return (scores[0], scores[1])
