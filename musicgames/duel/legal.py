"""Listing legal actions from what the acting seat can see (shared by the state and the view).

Everything here works on plain ints: card ids, keys, and the token tables of the state
(token ``t`` belongs to seat ``t // 5``). Nothing here needs hidden information (D16): what
a player may do depends only on its own hand and the public board.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from musicgames.duel.actions import Action, DuelCard, EndTurn, LockIn, Move, Place, Shift
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_CORNER,
    CARD_LETTER,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
)
from musicgames.duel.kernel import (
    TOKENS_PER_SEAT,
    UNPLACED,
    round_score,
)

__all__ = [
    "MAX_PLACE_CARDS", "TOKENS_PER_SEAT", "duel_actions", "round_score", "turn_actions"
]

#: Most cards one Place may use (D8).
MAX_PLACE_CARDS = 6
# Token states and the number of tokens come from the rules kernel (written once).
# Corner values (see cards.Corner).
_UP, _DOWN, _WILD = 4, 5, 6

END_TURN = EndTurn()
LOCK_IN = LockIn()
#: The only action left once a turn has placed and moved (D7).
ONLY_END_TURN: tuple[Action, ...] = (END_TURN,)
#: One DuelCard per card (actions are immutable values, so listings may share them).
_DUEL_CARDS = tuple(DuelCard(card) for card in range(len(CARD_LETTER)))

_new = object.__new__


def _place(cards: tuple[int, ...], key: int) -> Place:
    """A Place from cards already sorted (skips the sorting check: this is the hot path)."""
    action: Place = _new(Place)
    _set_cards(action, cards)
    _set_place_key(action, key)
    return action


# The slot setters of the frozen actions, for making them directly (faster than setattr).
_set_cards = vars(Place)["cards"].__set__
_set_place_key = vars(Place)["key"].__set__
_set_move_card = vars(Move)["card"].__set__
_set_move_key = vars(Move)["key"].__set__
_set_move_steps = vars(Move)["steps"].__set__


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
        out.append(_DUEL_CARDS[card])
    out.append(LOCK_IN)
    return tuple(out)


# -- a lazy list of the turn's actions, for history-free copies --------------------------

#: Index tuples of the non-empty subsets of n sorted cards, in the order of ``place_actions``
#: (by size, then as ``itertools.combinations`` lists them).
_COMBOS = tuple(
    tuple(c for size in range(1, n + 1) for c in combinations(range(n), size)) for n in range(8)
)
#: The same for the Wilds added to a Place, the empty set first.
_WILD_SETS = tuple(
    tuple(c for size in range(n + 1) for c in combinations(range(n), size)) for n in range(8)
)


# A block of actions: (how many, kind, what, pitch class or steps). Kinds: 0 cards of one
# letter plus Wilds (``what``: the positions in the sorted hand of each Place's cards, in
# order), 1 Wilds alone (the same), 2 a Shift and 3 a Move (``what``: the card's position).
_Block = tuple[int, int, tuple[Any, ...], int]


@cache
def _place_layout(letters: tuple[int, ...], distinct: bool) -> tuple[tuple[_Block, ...], int]:
    """The Place blocks of a sorted hand whose cards show these letters (−1 for a Wild)."""
    positions: dict[int, list[int]] = {}
    wilds = tuple(i for i, letter in enumerate(letters) if letter < 0)
    for i, letter in enumerate(letters):
        if letter >= 0:
            positions.setdefault(letter, []).append(i)
    if distinct:
        extras = [wilds[:n] for n in range(len(wilds) + 1)]
    else:
        extras = [tuple(wilds[j] for j in chosen) for chosen in _WILD_SETS[len(wilds)]]
    blocks: list[_Block] = []
    for letter in sorted(positions):
        picks = _letter_picks(tuple(positions[letter]), tuple(extras))
        blocks.append((2 * len(picks), 0, picks, LETTER_PITCH_CLASSES[letter]))
    alone = tuple(extra for extra in extras if 0 < len(extra) <= MAX_PLACE_CARDS)
    if alone:
        blocks.append((BOARD_KEYS * len(alone), 1, alone, 0))
    return tuple(blocks), sum(b[0] for b in blocks)


@cache
def _letter_picks(at: tuple[int, ...], extras: tuple[tuple[int, ...], ...]
                  ) -> tuple[tuple[int, ...], ...]:
    """The hand positions of each Place of one letter: cards at ``at``, plus each of the
    ``extras`` (sets of Wilds), at most :data:`MAX_PLACE_CARDS` cards in all."""
    return tuple(tuple(at[j] for j in chosen) + extra
                 for chosen in _COMBOS[len(at)] for extra in extras
                 if len(chosen) + len(extra) <= MAX_PLACE_CARDS)


@cache
def _move_layout(corners: tuple[int, ...], keys: int, pianos: int, distinct: bool
                 ) -> tuple[tuple[_Block, ...], int]:
    """The Move and Shift blocks of a sorted hand with these corners, for ``keys`` tokens of
    the player's on ``pianos`` piano cards."""
    blocks: list[_Block] = []
    wild_seen = False
    for i, corner in enumerate(corners):
        if corner in (_UP, _DOWN):
            blocks.append((pianos, 2, (i,), 0))
            continue
        if corner == _WILD:
            if distinct and wild_seen:
                continue
            wild_seen = True
            steps = 1
        else:
            steps = corner
        blocks.append((2 * keys, 3, (i,), steps))
    return tuple(blocks), sum(b[0] for b in blocks)


def turn_layout(hand: Sequence[int], with_places: bool, own_keys: list[int],
                distinct: bool) -> tuple[tuple[_Block, ...], int]:
    """The blocks of a turn's Place, Move and Shift actions (``hand`` sorted, ``own_keys``
    the keys of the player's tokens, ascending) and how many actions they hold."""
    blocks: tuple[_Block, ...] = ()
    size = 0
    if with_places:
        blocks, size = _place_layout(tuple(map(CARD_LETTER.__getitem__, hand)), distinct)
    if own_keys:
        pianos = (own_keys[0] < KEYS_PER_CARD) + (own_keys[-1] >= KEYS_PER_CARD)
        # Without ``distinct`` a Wild moves as a 1 and both arrows shift: one layout for all
        corners = _MOVE_CLASS if not distinct else CARD_CORNER
        moves, count = _move_layout(tuple(map(corners.__getitem__, hand)), len(own_keys),
                                    pianos, distinct)
        blocks += moves
        size += count
    return blocks, size


def place_layout(hand: Sequence[int]) -> tuple[tuple[_Block, ...], int]:
    """:func:`turn_layout`'s Place blocks of a sorted hand (Wilds told apart)."""
    return _places_of(bytes(hand))


def move_layout(hand: Sequence[int], own_keys: list[int]) -> tuple[tuple[_Block, ...], int]:
    """:func:`turn_layout`'s Move and Shift blocks (Wilds told apart; ``own_keys`` not
    empty, ascending)."""
    return _moves_of(bytes(hand), own_keys)


def make_action(blocks: tuple[_Block, ...], hand: Sequence[int], own_keys: list[int],
                i: int, distinct: bool) -> Action:
    """Action number ``i`` of a turn laid out by :func:`turn_layout`."""
    for size, kind, what, value in blocks:
        if i >= size:
            i -= size
            continue
        if kind == 0:  # cards of one letter, plus Wilds: on the letter's key, left or right
            pick, side = divmod(i, 2)
            return _place(tuple(map(hand.__getitem__, what[pick])),
                          value + side * KEYS_PER_CARD)
        if kind == 1:  # Wilds alone, on any key
            pick, key = divmod(i, BOARD_KEYS)
            return _place(tuple(map(hand.__getitem__, what[pick])), key)
        if kind == 2:
            pianos = sorted({key // KEYS_PER_CARD for key in own_keys})
            return Shift(hand[what[0]], pianos[i])
        key, sign = divmod(i, 2)
        move: Move = _new(Move)
        _set_move_card(move, hand[what[0]])
        _set_move_key(move, own_keys[key])
        _set_move_steps(move, -value if sign else value)
        return move
    raise IndexError(i)


#: Each card's corner as a move sees it when Wilds are not told apart: a Wild moves 1 like a
#: 1 (D9), and ↑ and ↓ both shift (the layout only needs to know which).
_MOVE_CLASS = tuple(1 if corner == _WILD else _UP if corner == _DOWN else corner
                    for corner in CARD_CORNER)


#: ``bytes.translate`` tables: a sorted hand written as bytes (card ids) becomes its cards'
#: letters (a Wild 255) or their move classes (:data:`_MOVE_CLASS`), a cheap exact key for
#: the layouts of the hot path.
_LETTER_BYTES = bytes(letter & 0xFF for letter in CARD_LETTER).ljust(256, b"\0")
_MOVE_BYTES = bytes(_MOVE_CLASS).ljust(256, b"\0")
_PLACES: dict[bytes, tuple[tuple[_Block, ...], int]] = {}
_MOVES: dict[tuple[bytes, int, int], tuple[tuple[_Block, ...], int]] = {}


def _places_of(hand: bytes) -> tuple[tuple[_Block, ...], int]:
    """:func:`place_layout` of a sorted hand given as bytes, from a table keyed by letters."""
    letters = hand.translate(_LETTER_BYTES)
    layout = _PLACES.get(letters)
    if layout is None:
        layout = _PLACES[letters] = _place_layout.__wrapped__(
            tuple(map(CARD_LETTER.__getitem__, hand)), False)
    return layout


def _moves_of(hand: bytes, own_keys: list[int]) -> tuple[tuple[_Block, ...], int]:
    """:func:`move_layout` of a sorted hand given as bytes (``own_keys`` not empty)."""
    pianos = (own_keys[0] < KEYS_PER_CARD) + (own_keys[-1] >= KEYS_PER_CARD)
    key = (hand.translate(_MOVE_BYTES), len(own_keys), pianos)
    layout = _MOVES.get(key)
    if layout is None:
        layout = _MOVES[key] = _move_layout.__wrapped__(
            tuple(map(_MOVE_CLASS.__getitem__, hand)), len(own_keys), pianos, False)
    return layout


class LazyActions(Sequence[Action]):
    """The legal actions of a turn, listed on demand: the same actions in the same order as
    :func:`turn_actions`, but each is made only when it is asked for by index.

    A random player needs the number of actions and one of them; listing every Place (up to
    a few hundred) for that is most of the cost of a simulated turn. Each action is made
    once, so asking twice gives the very same object (``ids`` holds the ids of those made).
    """

    __slots__ = ("_hand", "_blocks", "_distinct", "_own_keys", "_size", "_tail", "_made",
                 "ids")

    def __init__(self, hand: tuple[int, ...], with_places: bool, own_keys: list[int],
                 distinct: bool) -> None:
        blocks, size = turn_layout(hand, with_places, own_keys, distinct)
        self._hand = hand
        self._blocks = blocks
        self._distinct = distinct
        self._own_keys = own_keys
        self._size = size
        self._tail: tuple[Action, ...] = ()
        self._made: dict[int, Action] = {}
        self.ids: set[int] = set()

    def __len__(self) -> int:
        return self._size + len(self._tail)

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        made = self._made
        action = made.get(index)
        if action is not None:
            return action
        if type(index) is not int:
            if isinstance(index, slice):
                return tuple(self[i] for i in range(*index.indices(len(self))))
            index = operator.index(index)
        size = self._size
        if index < 0:
            index += size + len(self._tail)
            action = made.get(index)
            if action is not None:
                return action
        if 0 <= index < size:
            action = make_action(self._blocks, self._hand, self._own_keys, index,
                                 self._distinct)
        elif 0 <= index - size < len(self._tail):
            action = self._tail[index - size]
        else:
            raise IndexError(index)
        made[index] = action
        self.ids.add(id(action))
        return action

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return any(action == a for a in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} legal actions>"


def lazy_turn_actions(
    seat: int,
    hand: Sequence[int],
    status: Sequence[int],
    board: Sequence[int],
    placed: bool,
    moved: bool,
    distinct: bool,
) -> LazyActions:
    """:func:`turn_actions`, listed on demand (:class:`LazyActions`)."""
    sorted_hand = tuple(sorted(hand))
    first = seat * TOKENS_PER_SEAT
    with_places = False
    own_keys: list[int] = []
    if sorted_hand:
        with_places = not placed and UNPLACED in status[first : first + TOKENS_PER_SEAT]
        if not moved:
            own_keys = [k for k in range(BOARD_KEYS) if first <= board[k] < first + 5]
    actions = LazyActions(sorted_hand, with_places, own_keys, distinct)
    if placed or moved or not actions._size:
        actions._tail = (END_TURN,)
    return actions



def lazy_turn_actions_from_keys(hand: Sequence[int], with_places: bool, own_keys: list[int],
                                acted: bool) -> LazyActions:
    """:func:`lazy_turn_actions` with Wilds told apart, for a state in its turn phase (every
    token on the board holds its key): ``with_places`` if the player has not placed this
    turn and has an unplaced token, ``own_keys`` the keys of its tokens, ascending (empty
    once it has moved), ``acted`` if it has placed or moved this turn. The same actions in
    the same order, made with less work (this is a simulation's hot path)."""
    sorted_hand = tuple(sorted(hand))
    blocks: tuple[_Block, ...] = ()
    size = 0
    if sorted_hand:
        as_bytes = bytes(sorted_hand)
        if with_places:
            blocks, size = _places_of(as_bytes)
        if own_keys:
            moves, count = _moves_of(as_bytes, own_keys)
            blocks += moves
            size += count
    actions: LazyActions = _new(LazyActions)
    actions._hand = sorted_hand
    actions._blocks = blocks
    actions._distinct = False
    actions._own_keys = own_keys
    actions._size = size
    actions._tail = (END_TURN,) if acted or not size else ()
    actions._made = {}
    actions.ids = set()
    return actions
