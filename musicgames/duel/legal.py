"""Listing legal actions from what the acting seat can see (shared by the state and the view).

Everything here works on plain ints: card ids, keys, and the token tables of the state
(token ``t`` belongs to seat ``t // 5``). Nothing here needs hidden information (D16): what
a player may do depends only on its own hand and the public board.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from musicgames.duel.actions import Action, DuelCard, EndTurn, LockIn, Move, Place, Shift
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_LETTER,
    CARD_SHIFT,
    CARD_STEPS,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
)
from musicgames.duel.kernel import TOKENS_PER_SEAT, UNPLACED

__all__ = ["MAX_PLACE_CARDS", "duel_actions", "turn_actions"]

#: Most cards one Place may use (D8).
MAX_PLACE_CARDS = 6
# How a card takes part in the Move and Shift layouts: it moves a token (its steps come from
# :data:`~musicgames.duel.cards.CARD_STEPS`), it is a Wild that moves one (told apart from the
# other Wilds only when ``distinct``), or it is an arrow that shifts (D9).
_NUMBER_CARD, _WILD_CARD, _ARROW_CARD = 0, 1, 2
#: Each card's part in the layouts, Wilds told apart (:data:`_MOVE_CLASS` does not).
_MOVE_KIND = tuple(_ARROW_CARD if shift else _WILD_CARD if letter < 0 else _NUMBER_CARD
                   for shift, letter in zip(CARD_SHIFT, CARD_LETTER, strict=True))

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
        kind = _MOVE_KIND[card]
        if kind == _ARROW_CARD:
            out.extend(Shift(card, piano) for piano in pianos)
            continue
        if kind == _WILD_CARD:
            if distinct and wild_seen:
                continue
            wild_seen = True
        steps = CARD_STEPS[card]
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


#: A turn's Place actions as a table, in listing order: action ``i`` is ``(positions, key)``,
#: the positions in the sorted hand of its cards and the key it places on.
PlaceTable = tuple[tuple[tuple[int, ...], int], ...]
#: A turn's Move and Shift actions as a table, in listing order: ``(MOVE, position of the
#: card, index of the token's key among the player's keys, +1 right or −1 left)`` or
#: ``(SHIFT, position of the card, index of the piano card among those holding the player's
#: tokens, 0)``. How far a Move goes is its card's (``CARD_STEPS``, D9).
MoveTable = tuple[tuple[int, int, int, int], ...]

#: The two kinds of a :data:`MoveTable` entry.
MOVE, SHIFT = 0, 1

#: The layouts kept for the hot path (a dictionary each) are cleared when one holds this
#: many; they fill again from the games being played.
LAYOUTS_KEPT = 50_000
# One object per distinct table entry, shared by every table that holds it (small tables).
_ENTRIES: dict[Any, Any] = {}


def _shared(entries: list[Any]) -> tuple[Any, ...]:
    """``entries`` as a tuple whose items are shared with every other table's equal ones."""
    if len(_ENTRIES) > LAYOUTS_KEPT:
        _ENTRIES.clear()
    return tuple([_ENTRIES.setdefault(entry, entry) for entry in entries])


@lru_cache(maxsize=4096)
def _place_layout(letters: tuple[int, ...], distinct: bool) -> PlaceTable:
    """The Place table of a sorted hand whose cards show these letters (−1 for a Wild)."""
    positions: dict[int, list[int]] = {}
    wilds = tuple(i for i, letter in enumerate(letters) if letter < 0)
    for i, letter in enumerate(letters):
        if letter >= 0:
            positions.setdefault(letter, []).append(i)
    if distinct:
        extras = [wilds[:n] for n in range(len(wilds) + 1)]
    else:
        extras = [tuple(wilds[j] for j in chosen) for chosen in _WILD_SETS[len(wilds)]]
    table: list[tuple[tuple[int, ...], int]] = []
    for letter in sorted(positions):
        pitch_class = LETTER_PITCH_CLASSES[letter]
        for pick in _letter_picks(tuple(positions[letter]), tuple(extras)):
            table.append((pick, pitch_class))  # the left card's key, then the right's
            table.append((pick, pitch_class + KEYS_PER_CARD))
    for extra in extras:
        if 0 < len(extra) <= MAX_PLACE_CARDS:  # Wilds alone: any key
            table.extend((extra, key) for key in range(BOARD_KEYS))
    return _shared(table)


@lru_cache(maxsize=4096)
def _letter_picks(at: tuple[int, ...], extras: tuple[tuple[int, ...], ...]
                  ) -> tuple[tuple[int, ...], ...]:
    """The hand positions of each Place of one letter: cards at ``at``, plus each of the
    ``extras`` (sets of Wilds), at most :data:`MAX_PLACE_CARDS` cards in all."""
    return tuple(tuple(at[j] for j in chosen) + extra
                 for chosen in _COMBOS[len(at)] for extra in extras
                 if len(chosen) + len(extra) <= MAX_PLACE_CARDS)


@lru_cache(maxsize=4096)
def _move_layout(kinds: tuple[int, ...], keys: int, pianos: int, distinct: bool
                 ) -> MoveTable:
    """The Move and Shift table of a sorted hand whose cards take these parts, for ``keys``
    tokens of the player's on ``pianos`` piano cards (only arrows, and Wilds when ``distinct``, need
    telling apart: the steps are read from the card)."""
    table: list[tuple[int, int, int, int]] = []
    wild_seen = False
    for i, kind in enumerate(kinds):
        if kind == _ARROW_CARD:
            table.extend((SHIFT, i, piano, 0) for piano in range(pianos))
            continue
        if kind == _WILD_CARD:
            if distinct and wild_seen:
                continue
            wild_seen = True
        for key in range(keys):
            table.append((MOVE, i, key, 1))
            table.append((MOVE, i, key, -1))
    return _shared(table)


def turn_layout(hand: Sequence[int], with_places: bool, own_keys: list[int],
                distinct: bool) -> tuple[PlaceTable, MoveTable]:
    """The tables of a turn's Place, and Move and Shift, actions (``hand`` sorted,
    ``own_keys`` the keys of the player's tokens, ascending)."""
    places: PlaceTable = ()
    moves: MoveTable = ()
    if with_places:
        places = _place_layout(tuple(map(CARD_LETTER.__getitem__, hand)), distinct)
    if own_keys:
        pianos = (own_keys[0] < KEYS_PER_CARD) + (own_keys[-1] >= KEYS_PER_CARD)
        # Without ``distinct`` a Wild moves as a 1 and both arrows shift: one layout for all
        kinds = _MOVE_CLASS if not distinct else _MOVE_KIND
        moves = _move_layout(tuple(map(kinds.__getitem__, hand)), len(own_keys), pianos,
                             distinct)
    return places, moves


def shift_piano(own_keys: Sequence[int], which: int) -> int:
    """The piano card of a Shift entry: ``which`` counts only the cards that hold the
    player's tokens (``own_keys`` ascending)."""
    return which if own_keys[0] < KEYS_PER_CARD else 1


def make_action(places: PlaceTable, moves: MoveTable, hand: Sequence[int],
                own_keys: list[int], i: int) -> Action:
    """Action number ``i`` of a turn laid out by :func:`turn_layout`."""
    if i < len(places):
        positions, key = places[i]
        return _place(tuple(map(hand.__getitem__, positions)), key)
    kind, position, which, sign = moves[i - len(places)]
    card = hand[position]
    if kind == SHIFT:
        return Shift(card, shift_piano(own_keys, which))
    move: Move = _new(Move)
    _set_move_card(move, card)
    _set_move_key(move, own_keys[which])
    _set_move_steps(move, sign * CARD_STEPS[card])
    return move


#: Each card's part in the layouts when Wilds are not told apart: a Wild moves like a number
#: card, ↑ and ↓ both shift, and the steps come from the card (``CARD_STEPS``): the layout
#: only needs to know which cards are arrows.
_MOVE_CLASS = tuple(_ARROW_CARD if kind == _ARROW_CARD else _NUMBER_CARD for kind in _MOVE_KIND)


#: ``bytes.translate`` tables: a sorted hand written as bytes (card ids) becomes its cards'
#: letters (a Wild 255) or their move classes (:data:`_MOVE_CLASS`), a cheap exact key for
#: the layouts of the hot path.
_LETTER_BYTES = bytes(letter & 0xFF for letter in CARD_LETTER).ljust(256, b"\0")
_MOVE_BYTES = bytes(_MOVE_CLASS).ljust(256, b"\0")
_PLACES: dict[bytes, PlaceTable] = {}
_MOVES: dict[tuple[bytes, int, int], MoveTable] = {}


def place_layout(hand: bytes) -> PlaceTable:
    """:func:`turn_layout`'s Place table of a sorted hand written as bytes (card ids), Wilds
    told apart, from a dictionary keyed by the hand's letters."""
    letters = hand.translate(_LETTER_BYTES)
    table = _PLACES.get(letters)
    if table is None:
        if len(_PLACES) > LAYOUTS_KEPT:
            _PLACES.clear()
        table = _PLACES[letters] = _place_layout.__wrapped__(
            tuple(map(CARD_LETTER.__getitem__, hand)), False)
    return table


def move_layout(hand: bytes, own_keys: list[int]) -> MoveTable:
    """:func:`turn_layout`'s Move and Shift table of a sorted hand written as bytes (Wilds
    told apart; ``own_keys`` not empty, ascending), from a dictionary."""
    pianos = (own_keys[0] < KEYS_PER_CARD) + (own_keys[-1] >= KEYS_PER_CARD)
    key = (hand.translate(_MOVE_BYTES), len(own_keys), pianos)
    table = _MOVES.get(key)
    if table is None:
        if len(_MOVES) > LAYOUTS_KEPT:
            _MOVES.clear()
        table = _MOVES[key] = _move_layout.__wrapped__(
            tuple(map(_MOVE_CLASS.__getitem__, hand)), len(own_keys), pianos, False)
    return table


class LazyActions(Sequence[Action]):
    """The legal actions of a turn, listed on demand: the same actions in the same order as
    :func:`turn_actions`, but each is made only when it is asked for by index.

    A random player needs the number of actions and one of them; listing every Place (up to
    a few hundred) for that is most of the cost of a simulated turn. Each action is made
    once, so asking twice gives the very same object (``ids`` holds the ids of those made).
    """

    __slots__ = ("_hand", "_places", "_moves", "_own_keys", "_size", "_tail", "_made", "ids")

    def __init__(self, hand: Sequence[int], with_places: bool, own_keys: list[int],
                 distinct: bool) -> None:
        self._hand = hand
        self._places, self._moves = turn_layout(hand, with_places, own_keys, distinct)
        self._own_keys = own_keys
        self._size = len(self._places) + len(self._moves)
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
            action = make_action(self._places, self._moves, self._hand, self._own_keys, index)
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
    sorted_hand = bytes(sorted(hand))  # card ids fit in bytes; indexing gives ints
    places: PlaceTable = ()
    moves: MoveTable = ()
    if sorted_hand:
        if with_places:
            places = place_layout(sorted_hand)
        if own_keys:
            moves = move_layout(sorted_hand, own_keys)
    actions: LazyActions = _new(LazyActions)
    actions._hand = sorted_hand
    actions._places = places
    actions._moves = moves
    actions._own_keys = own_keys
    size = actions._size = len(places) + len(moves)
    actions._tail = (END_TURN,) if acted or not size else ()
    actions._made = {}
    actions.ids = set()
    return actions
