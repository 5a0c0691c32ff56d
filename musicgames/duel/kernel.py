"""The Keyboard Duel rules kernel: how tokens arrive, merge, shift, duel and score (D8–D14).

Every rule that changes the board is written here once, on plain lists, and called by
both :class:`~musicgames.duel.DuelState` and the computer players' look-ahead. The token
tables are indexed by token number ``t`` = seat × 5 + index (White's 0–4, Black's 5–9):
``status[t]`` (:data:`UNPLACED`, :data:`ON_BOARD`, :data:`MERGED`, :data:`BEATEN`),
``keys[t]`` (−1 off the board), ``power[t]``; ``board[key]`` is the token holding a key,
or −1.

A duel's start is a *chance outcome* (as in OpenSpiel's chance nodes): the kernel says that
a token meets the other seat's token; the caller decides how chance falls — the game state
rolls the dice from its seeded generator, a planner splits the board into the duel's two
outcomes with their probabilities (:func:`outcomes`).

>>> t = Table.empty()
>>> a = place_token(t.status, t.keys, t.power, seat=0, key=2, strength=2)
>>> arrive(t.board, t.keys, a)             # a free key: the token holds it
-1
>>> b = place_token(t.status, t.keys, t.power, seat=0, key=2, strength=5)
>>> holder = arrive(t.board, t.keys, b)    # its own token: they merge (D10)
>>> merge(t.keys, t.power, t.status, holder, b), t.power[holder]   # 7 is capped at 6
(1, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from musicgames.duel.actions import Action, Move, Place, Shift
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_SHIFT,
    KEYS_PER_CARD,
    PIANO_CARDS,
    PIANO_CHORD_PITCH_CLASSES,
)

__all__ = [
    "BEATEN",
    "MAX_POWER",
    "MERGED",
    "ON_BOARD",
    "TOKENS_PER_SEAT",
    "UNPLACED",
    "Table",
    "after_reroll",
    "arrive",
    "attacker_wins",
    "board_layout",
    "chord_bonuses",
    "chord_holder",
    "dice_for_power",
    "final_turn_due",
    "lift",
    "merge",
    "next_starter",
    "outcomes",
    "place_token",
    "reroll_index",
    "reroll_target",
    "round_breakdown",
    "round_score",
    "settle_duel",
    "shift",
    "token_points",
]

#: Dice Tokens per player (D6).
TOKENS_PER_SEAT = 5
#: Highest token power (D8, D10).
MAX_POWER = 6
# Token states.
UNPLACED, ON_BOARD, MERGED, BEATEN = 0, 1, 2, 3


def dice_for_power(power: int) -> int:
    """Dice a token of this power rolls in a duel: half its power rounded up (D11a).

    >>> [dice_for_power(p) for p in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return (power + 1) // 2


def place_token(status: list[int], keys: list[int], power: list[int], seat: int, key: int,
                strength: int) -> int:
    """Put ``seat``'s first unplaced token on ``key`` with power ``strength`` (D8); the token
    still has to :func:`arrive`. Returns the token."""
    first = seat * TOKENS_PER_SEAT
    token = status.index(UNPLACED, first, first + TOKENS_PER_SEAT)
    status[token] = ON_BOARD
    power[token] = strength
    keys[token] = key
    return token


def lift(board: list[int], keys: list[int], key: int, steps: int) -> int:
    """Take the token on ``key`` off it and aim it ``steps`` keys along, wrapping (D2, D9);
    it still has to :func:`arrive`. Returns the token."""
    token = board[key]
    board[key] = -1
    keys[token] = (key + steps) % BOARD_KEYS
    return token


def shift(board: list[int], keys: list[int], seat: int, piano: int, step: int
          ) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Move every token of ``seat`` on piano card ``piano`` one key by ``step`` (D9).

    They move together: those landing on a free key take it at once; the others are
    returned to :func:`arrive` one key at a time from key 0 upward (D9). Returns the moves
    ``(token, start, end)`` and the tokens still arriving, in that order.
    """
    first = piano * KEYS_PER_CARD
    movers = [board[k] for k in range(first, first + KEYS_PER_CARD)
              if board[k] >= 0 and board[k] // TOKENS_PER_SEAT == seat]
    moves = []
    for token in movers:
        board[keys[token]] = -1
    for token in movers:
        start = keys[token]
        keys[token] = end = (start + step) % BOARD_KEYS
        moves.append((token, start, end))
    arriving = []
    for token in movers:
        if board[keys[token]] < 0:
            board[keys[token]] = token
        else:
            arriving.append(token)
    arriving.sort(key=keys.__getitem__)
    return moves, arriving


def arrive(board: list[int], keys: list[int], token: int) -> int:
    """Settle ``token`` at its key: −1 if the key was free (the token holds it now), else the
    token holding the key — the same seat's (then :func:`merge`, D10) or the other's (a duel,
    D11, whose outcome is the caller's chance to decide; then :func:`settle_duel`)."""
    key = keys[token]
    holder = board[key]
    if holder < 0:
        board[key] = token
    return holder


def merge(keys: list[int], power: list[int], status: list[int], holder: int, token: int) -> int:
    """``token`` goes into ``holder``, its own seat's token on the same key (D10): the power
    becomes the sum, at most 6, and ``token`` is merged for the round. Returns the power lost."""
    total = power[holder] + power[token]
    power[holder] = min(MAX_POWER, total)
    status[token] = MERGED
    keys[token] = -1
    return total - power[holder]


def attacker_wins(attacker_total: int, defender_total: int) -> bool:
    """The higher total wins a duel; the attacker wins ties (D11d)."""
    return attacker_total >= defender_total


def reroll_target(reroll: int) -> tuple[bool, bool]:
    """Whose die a reroll card replaces, and which (D11b): ↑ (``reroll`` +1, as
    ``Corner.reroll`` gives it) one's own lowest, ↓ (−1) the opponent's highest. Returns
    ``(own, lowest)``."""
    own = reroll > 0
    return own, own


def reroll_index(dice: Sequence[int], lowest: bool) -> int:
    """Which die a reroll replaces (D11b): the lowest (↑, one's own) or the highest (↓, the
    opponent's); the first such die when several show the same."""
    return list(dice).index(min(dice) if lowest else max(dice))


def after_reroll(own: tuple[int, ...], opp: tuple[int, ...], reroll: int, face: int
                 ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both sides' dice, each sorted, after a reroll card (:func:`reroll_target`) whose new
    die shows ``face``: what the odds and the computer players count a reroll as doing.

    >>> after_reroll((2, 5), (3, 6), +1, 4), after_reroll((2, 5), (3, 6), -1, 1)
    (((4, 5), (3, 6)), ((2, 5), (1, 3)))
    """
    mine, lowest = reroll_target(reroll)
    dice = list(own if mine else opp)
    dice[reroll_index(dice, lowest)] = face
    dice.sort()
    return (tuple(dice), opp) if mine else (own, tuple(dice))


def settle_duel(board: list[int], keys: list[int], status: list[int], attacker: int,
                defender: int, won: bool) -> int:
    """One outcome of a duel (D11e): the loser is beaten, the winner holds the key.
    Returns the loser."""
    key = keys[attacker]
    if won:
        board[key] = attacker
        loser = defender
    else:
        loser = attacker
    status[loser] = BEATEN
    keys[loser] = -1
    return loser


def final_turn_due(status: Sequence[int], seat: int) -> bool:
    """True when ``seat`` has placed all five tokens (beaten and merged ones count), so that
    ending its turn gives the other seat the one final turn (D12)."""
    first = seat * TOKENS_PER_SEAT
    return UNPLACED not in status[first: first + TOKENS_PER_SEAT]


def next_starter(scores: Sequence[int], starter: int) -> int:
    """Who moves first in the next round (D14): the lower scorer; after a tie, whoever moved
    second in this one."""
    if scores[0] != scores[1]:
        return 0 if scores[0] < scores[1] else 1
    return 1 - starter


def token_points(power: int, multiplier: int) -> int:
    """What a token holding a key scores (D13): its power × the key's multiplier (D4). The one
    home of that rule: the round's score, the gold number on a token, the computer players'
    judgement and the lessons' exercises all ask here.

    >>> token_points(2, 3)   # a power-2 token on a root (fff)
    6
    """
    return power * multiplier


def round_score(board: Sequence[int], power: Sequence[int], piano: Sequence[int]
                ) -> tuple[int, int]:
    """What each seat would bank now (D13): :func:`token_points` of every token holding a key,
    plus 1 for each piano card whose colored keys are all held by one seat
    (:func:`chord_bonuses`)."""
    mults, chords = board_layout(piano)
    scores = [0, 0]
    for token, mult in zip(board, mults, strict=True):
        if token >= 0:
            scores[token // TOKENS_PER_SEAT] += token_points(power[token], mult)
    for keys in chords:
        seat = chord_holder(board, keys)
        if seat >= 0:
            scores[seat] += 1
    return (scores[0], scores[1])


def chord_bonuses(board: Sequence[int], piano: Sequence[int]) -> list[tuple[int, int]]:
    """``(seat, piano)`` for each piano card whose three colored keys one seat holds (D13)."""
    out = []
    for side, keys in enumerate(board_layout(piano)[1]):
        seat = chord_holder(board, keys)
        if seat >= 0:
            out.append((seat, side))
    return out


def chord_holder(board: Sequence[int], keys: tuple[int, ...]) -> int:
    """The seat whose tokens hold all three colored keys of a piano card (``keys``, from
    :func:`board_layout`), or −1: the seat that scores the card's bonus point (D13)."""
    a, b, c = board[keys[0]], board[keys[1]], board[keys[2]]
    if a < 0 or b < 0 or c < 0:
        return -1
    seat = a // TOKENS_PER_SEAT
    return seat if b // TOKENS_PER_SEAT == seat and c // TOKENS_PER_SEAT == seat else -1


def board_layout(piano: Sequence[int]
                  ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
    """The 24 keys' multipliers (D4) and each piano card's colored keys, for a pair of piano
    cards (kept: a game meets few pairs, and a planner asks for them again and again)."""
    pair = (piano[0], piano[1])
    layout = _LAYOUTS.get(pair)
    if layout is None:
        chords = tuple(tuple(side * KEYS_PER_CARD + pc for pc in PIANO_CHORD_PITCH_CLASSES[card])
                       for side, card in enumerate(pair))
        layout = _LAYOUTS[pair] = (_MULTIPLIERS[pair[0]] + _MULTIPLIERS[pair[1]],
                                   (chords[0], chords[1]))
    return layout


def round_breakdown(board: Sequence[int], power: Sequence[int], piano: Sequence[int]
                    ) -> list[tuple[int, int, int, int, int, int]]:
    """Each scoring token as ``(seat, index, key, power, multiplier, points)``, key order."""
    out = []
    mults = board_layout(piano)[0]
    for key, token in enumerate(board):
        if token >= 0:
            mult = mults[key]
            out.append((token // TOKENS_PER_SEAT, token % TOKENS_PER_SEAT, key, power[token],
                        mult, token_points(power[token], mult)))
    return out


#: Each piano card's 12 multipliers (D4), as a plain table.
_MULTIPLIERS = tuple(card.multipliers for card in PIANO_CARDS)
_LAYOUTS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, ...],
                                                             tuple[int, ...]]]] = {}


# -- a light table for looking ahead ---------------------------------------------------------


class Table:
    """The board and token tables as plain lists, plus one seat's hand and what it has done
    this turn: what a planner tries actions on (:func:`outcomes`)."""

    __slots__ = ("board", "keys", "power", "status", "hand", "placed", "moved")

    def __init__(self, board: list[int], keys: list[int], power: list[int],
                 status: list[int], hand: list[int], placed: bool, moved: bool) -> None:
        self.board = board
        self.keys = keys
        self.power = power
        self.status = status
        self.hand = hand
        self.placed = placed
        self.moved = moved

    @classmethod
    def empty(cls) -> Table:
        """No token placed, no cards."""
        return cls([-1] * BOARD_KEYS, [-1] * 10, [0] * 10, [UNPLACED] * 10, [], False, False)

    def copy(self) -> Table:
        """An independent copy."""
        return Table(self.board[:], self.keys[:], self.power[:], self.status[:], self.hand[:],
                     self.placed, self.moved)


#: Splits a duel that ``attacker`` starts against ``defender`` on a table into its chance
#: outcomes: ``[(probability, table after), …]`` (use :func:`settle_duel` on copies).
DuelSplit = Callable[[Table, int, int], list[tuple[float, Table]]]


def outcomes(table: Table, action: Action, seat: int, duel: DuelSplit
             ) -> list[tuple[float, Table]]:
    """Every outcome of a turn action (Place, Move or Shift) on a copy of ``table``, with its
    probability: one, unless a duel starts (its chance outcomes come from ``duel``)."""
    t = table.copy()
    kind = type(action)
    if kind is Place:
        assert isinstance(action, Place)
        for card in action.cards:
            t.hand.remove(card)
        t.placed = True
        token = place_token(t.status, t.keys, t.power, seat, action.key, len(action.cards))
        return _settle_one(t, token, duel)
    if kind is Move:
        assert isinstance(action, Move)
        t.hand.remove(action.card)
        t.moved = True
        token = lift(t.board, t.keys, action.key, action.steps)
        return _settle_one(t, token, duel)
    assert isinstance(action, Shift)
    t.hand.remove(action.card)
    t.moved = True
    _, arriving = shift(t.board, t.keys, seat, action.piano, CARD_SHIFT[action.card])
    return _settle(t, arriving, duel)


def _settle_one(t: Table, token: int, duel: DuelSplit) -> list[tuple[float, Table]]:
    """Settle one arriving token (a Place or a Move): :func:`_settle` of one, faster."""
    holder = arrive(t.board, t.keys, token)
    if holder < 0:
        return [(1.0, t)]
    if holder // TOKENS_PER_SEAT == token // TOKENS_PER_SEAT:
        merge(t.keys, t.power, t.status, holder, token)
        return [(1.0, t)]
    return duel(t, token, holder)


def _settle(t: Table, pending: list[int], duel: DuelSplit) -> list[tuple[float, Table]]:
    """Settle arriving tokens in order, splitting at every duel (D9–D11)."""
    for i, token in enumerate(pending):
        holder = arrive(t.board, t.keys, token)
        if holder < 0:
            continue
        if holder // TOKENS_PER_SEAT == token // TOKENS_PER_SEAT:
            merge(t.keys, t.power, t.status, holder, token)
            continue
        rest = pending[i + 1:]
        out: list[tuple[float, Table]] = []
        for p, after in duel(t, token, holder):
            out.extend((p * q, final) for q, final in _settle(after, rest, duel))
        return out
    return [(1.0, t)]
