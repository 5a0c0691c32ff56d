"""A Keyboard Duel position: every field of the table, hidden cards included, and what can be
read from it (D1–D16).

:class:`Position` holds the fields and their reading — the round, the turn, the hands, the
tokens, the duel, the scores — and the small steps every other part of a game uses: a fresh
round's table, a duel cleared, the dice rolled from the game's own generator, a snapshot for
undo. :class:`~musicgames.duel.state.DuelState` is a position that plays
(:mod:`musicgames.duel.play`), refuses (:mod:`musicgames.duel.refusals`) and keeps its record
(:mod:`musicgames.duel.history`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from musicgames.duel import kernel
from musicgames.duel.actions import Action
from musicgames.duel.cards import BOARD_KEYS, DECK_SIZE, KEYS_PER_CARD, PIANO_CARDS, PianoCard
from musicgames.duel.events import Event
from musicgames.duel.saved import dump_position, load_position
from musicgames.duel.table import DuelInfo, Phase, Token, TokenState, dice_for_power

__all__ = [
    "BLACK", "MAX_POWER", "MAX_TURNS_PER_ROUND", "ROUNDS", "SEAT_NAMES", "TOKENS_PER_SEAT",
    "WHITE", "Position",
]

#: Seats (D1). White moves first in round 1.
WHITE, BLACK = 0, 1
SEAT_NAMES = ("White", "Black")
#: Rounds before the totals are compared (D15).
ROUNDS = 3
#: Dice Tokens per player (D6).
TOKENS_PER_SEAT = kernel.TOKENS_PER_SEAT
#: Highest token power (D8, D10).
MAX_POWER = kernel.MAX_POWER
#: A round ends after this many turns in all, whatever happens (D12).
MAX_TURNS_PER_ROUND = 60

_UNPLACED, _ON_BOARD, _MERGED, _BEATEN = (kernel.UNPLACED, kernel.ON_BOARD, kernel.MERGED,
                                         kernel.BEATEN)
_TURN, _ATTACK, _DEFEND, _OVER = 0, 1, 2, 3

_TOKEN_STATES = (TokenState.UNPLACED, TokenState.ON_BOARD, TokenState.MERGED, TokenState.BEATEN)
_PHASES = (Phase.TURN, Phase.ATTACK, Phase.DEFEND, Phase.OVER)


def _seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


P = TypeVar("P", bound="Position")


class Position:
    """The fields of a game of Keyboard Duel, and what the table shows of them.

    Token tables are indexed by token number ``t`` = seat × 5 + index (White's 0–4, Black's
    5–9): ``_status[t]``, ``_key[t]`` (−1 off the board), ``_power[t]``; ``_board[key]`` is
    the token holding a key, or −1.
    """

    __slots__ = (
        "_rng", "_round", "_starter", "_turn", "_turns", "_final", "_placed", "_moved",
        "_phase", "_piano", "_piano_deck", "_hands", "_draw", "_discard", "_status", "_key",
        "_power", "_board", "_dkey", "_datt", "_ddef", "_dadd", "_ddice", "_druns",
        "_pending", "_totals", "_round_scores", "_log", "_log_seen", "_history", "_undo",
        "_rng_unsaved",
        "_start", "_start_text", "_legal", "_legal_ids", "_events", "_out", "_full",
        "_saved_actions", "_saved_text", "_emit",
    )

    _rng: random.Random
    _round: int
    _starter: int
    _turn: int
    _turns: int
    _final: bool
    _placed: bool
    _moved: bool
    _phase: int
    _piano: list[int]
    _piano_deck: list[int]
    _hands: list[list[int]]
    _draw: list[int]
    _discard: list[int]
    _status: list[int]
    _key: list[int]
    _power: list[int]
    _board: list[int]
    _dkey: int
    _datt: int
    _ddef: int
    _dadd: list[int]
    _ddice: list[list[int]]
    _druns: list[list[int]]
    _pending: list[int]
    _totals: list[int]
    _round_scores: list[tuple[int, int]]
    _log: list[dict[str, Any]]
    _log_seen: int
    _history: list[Action]
    _undo: list[list[Any]]
    _rng_unsaved: bool
    _start: dict[str, Any]
    _start_text: str | None
    _legal: list[Sequence[Action] | None]
    _legal_ids: set[int] | None
    _events: list[Event]
    _out: list[Event]
    _full: bool
    _saved_actions: list[Action | int]
    #: The JSON text of the first ``n`` items of ``_saved_actions``: ``(n, text)``
    #: (``to_json`` adds only what was played since; a take-back or undo starts it again).
    _saved_text: tuple[int, str]
    _emit: Callable[[Event], None] | None

    # -- a fresh table ------------------------------------------------------------------
    @classmethod
    def _blank(cls: type[P]) -> P:
        """A state with no cards dealt, to be filled in (by a position loader)."""
        state = cls.__new__(cls)
        state._reset()
        state._rng = random.Random(0)  # its own: the loader sets its state
        return state

    def _reset(self) -> None:
        self._rng = _UNSEEDED
        self._clear_round(1, WHITE)
        self._piano = [0, 1]
        self._piano_deck = []
        self._hands = [[], []]
        self._draw = []
        self._discard = []
        self._totals = [0, 0]
        self._round_scores = []
        self._log = []
        self._log_seen = 0
        self._history = []
        self._undo = []
        self._rng_unsaved = False
        self._start = {}
        self._start_text = None
        self._legal = [None, None]
        self._legal_ids = None
        self._events = []
        self._out = []
        self._emit = self._events.append
        self._full = True
        self._saved_actions = []
        self._saved_text = (0, "")

    def _clear_round(self, number: int, starter: int) -> None:
        """Round ``number`` at its first turn: ``starter`` to move, every token unplaced."""
        self._round = number
        self._starter = starter
        self._turn = starter
        self._turns = 0
        self._final = False
        self._placed = False
        self._moved = False
        self._phase = _TURN
        self._status = [_UNPLACED] * 10
        self._key = [-1] * 10
        self._power = [0] * 10
        self._board = [-1] * BOARD_KEYS
        self._clear_duel()
        self._pending = []

    def _clear_duel(self) -> None:
        self._dkey = -1
        self._datt = -1
        self._ddef = -1
        self._dadd = [0, 0]
        self._ddice = [[], []]
        self._druns = [[], []]

    @classmethod
    def _from_position(cls: type[P], position: object) -> P:
        """A state from a position object, every field checked (BadSavedGameError if not)."""
        state = cls._blank()
        load_position(state, position)
        return state

    def _position(self) -> dict[str, Any]:
        return dump_position(self)

    # -- undo's snapshots and the game's generator --------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._round, self._starter, self._turn, self._turns, self._final, self._placed,
            self._moved, self._phase, self._piano[:], self._piano_deck[:], self._hands[0][:],
            self._hands[1][:], self._draw[:], self._discard[:], self._status[:], self._key[:],
            self._power[:], self._board[:], self._dkey, self._datt, self._ddef, self._dadd[:],
            self._ddice[0][:], self._ddice[1][:], self._druns[0][:], self._druns[1][:],
            self._pending[:], self._totals[:], self._round_scores[:], 0,
            len(self._history), len(self._events), len(self._saved_actions),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self._round, self._starter, self._turn, self._turns, self._final, self._placed,
            self._moved, self._phase, piano, piano_deck, hand0, hand1, draw, discard, status,
            keys, power, board, self._dkey, self._datt, self._ddef, dadd, dice0, dice1, run0,
            run1, pending, totals, round_scores, log_size, history_size, events_size,
            saved_size,
        ) = snap
        # Copies, so the snapshot stays as it was if a clone shares it.
        self._piano = piano[:]
        self._piano_deck = piano_deck[:]
        self._hands = [hand0[:], hand1[:]]
        self._draw = draw[:]
        self._discard = discard[:]
        self._status = status[:]
        self._key = keys[:]
        self._power = power[:]
        self._board = board[:]
        self._dadd = dadd[:]
        self._ddice = [dice0[:], dice1[:]]
        self._druns = [run0[:], run1[:]]
        self._pending = pending[:]
        self._totals = totals[:]
        self._round_scores = round_scores[:]
        if self._log_seen > events_size:  # the log is rewritten when next read
            self._log = []
            self._log_seen = 0
        del self._history[history_size:]
        del self._events[events_size:]
        del self._saved_actions[saved_size:]
        if self._saved_text[0] > saved_size:
            self._saved_text = (0, "")

    def _touch_rng(self) -> random.Random:
        """The generator, after saving its state for undo the first time an action uses it."""
        if self._rng_unsaved:
            self._undo[-1][1] = self._rng.getstate()
            self._rng_unsaved = False
        return self._rng

    def _roll(self, count: int) -> list[int]:
        """``count`` dice: each ``rng.randrange(6) + 1``, the very same draws, written out."""
        getrandbits = self._touch_rng().getrandbits
        dice = []
        for _ in range(count):
            r = getrandbits(3)
            while r >= 6:
                r = getrandbits(3)
            dice.append(r + 1)
        return dice

    # -- who acts -------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """What the game waits for: a turn action, the attacker's run, the defender's, or
        nothing (game over)."""
        return _PHASES[self._phase]

    @property
    def seat_to_act(self) -> int | None:
        """The seat whose decision it is (0 White, 1 Black); ``None`` once the game is over.

        In a duel this is the attacker while ``phase`` is ``ATTACK`` and the defender while
        it is ``DEFEND`` (D11b, c). Keyboard Duel has one decider at a time and no step of
        the table's own (the dice roll as a duel starts), so :meth:`to_act` lists this seat.
        """
        phase = self._phase
        if phase in (_TURN, _ATTACK):
            return self._turn
        if phase == _DEFEND:
            return 1 - self._turn
        return None

    def is_terminal(self) -> bool:
        """True once the game has been won (D15)."""
        return self._phase == _OVER

    # -- reading the table ------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The round being played (1, 2, 3, then extra rounds after a tie); the last round
        once the game is over."""
        return self._round

    @property
    def turn(self) -> int:
        """The seat whose turn it is (who attacks in any duel of this turn)."""
        return self._turn

    @property
    def starter(self) -> int:
        """The seat that moved first this round (D14)."""
        return self._starter

    @property
    def turn_number(self) -> int:
        """This turn's number within the round, from 1 (at most 60, D12)."""
        return self._turns + 1

    @property
    def final_turn(self) -> bool:
        """True during the opponent's one final turn of the round (D12)."""
        return self._final

    @property
    def placed_this_turn(self) -> bool:
        """True once the turn player has placed this turn (D7)."""
        return self._placed

    @property
    def moved_this_turn(self) -> bool:
        """True once the turn player has moved or shifted this turn (D7)."""
        return self._moved

    @property
    def piano_cards(self) -> tuple[PianoCard, PianoCard]:
        """The left and right piano cards of this round."""
        return (PIANO_CARDS[self._piano[0]], PIANO_CARDS[self._piano[1]])

    def key_multiplier(self, key: int) -> int:
        """The scoring multiplier of a key this round: 3 root, 2 third, 1 otherwise (D4)."""
        return PIANO_CARDS[self._piano[key // KEYS_PER_CARD]].multiplier(key % KEYS_PER_CARD)

    def key_mark(self, key: int) -> str:
        """The mark on a key this round: ``'fff'``, ``'ff'``, ``'f'`` or ``''`` (D4)."""
        card = PIANO_CARDS[self._piano[key // KEYS_PER_CARD]]
        return card.marks.get(key % KEYS_PER_CARD, "")

    def hand(self, seat: int) -> tuple[int, ...]:
        """A seat's hand (card ids, hidden from the other seat, D16)."""
        return tuple(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public)."""
        return len(self._hands[seat])

    @property
    def draw_size(self) -> int:
        """Cards left in the draw pile (public; their order is hidden)."""
        return len(self._draw)

    @property
    def draw_pile(self) -> tuple[int, ...]:
        """The draw pile, the next card to be drawn last (hidden from both seats, D16)."""
        return tuple(self._draw)

    @property
    def discard(self) -> tuple[int, ...]:
        """The discard pile, oldest first (public)."""
        return tuple(self._discard)

    def tokens(self, seat: int) -> tuple[Token, ...]:
        """A seat's five tokens, in order, with their state and what each scores now."""
        return tuple(self._token(seat * TOKENS_PER_SEAT + i) for i in range(TOKENS_PER_SEAT))

    def board_token(self, key: int) -> Token | None:
        """The token holding a key, or ``None`` (an arriving token does not hold it yet)."""
        t = self._board[key]
        return None if t < 0 else self._token(t)

    @property
    def duel(self) -> DuelInfo | None:
        """The duel being fought, or ``None``."""
        if self._dkey < 0:
            return None
        return self._duel_info()

    @property
    def arriving(self) -> tuple[Token, ...]:
        """Tokens moving onto a key that is held: the attacker of the duel being fought, then
        the tokens of an arrow move still waiting their turn, lowest key first (D9)."""
        tokens = ([self._datt] if self._dkey >= 0 else []) + self._pending
        return tuple(self._token(t) for t in tokens)

    @property
    def totals(self) -> tuple[int, int]:
        """Each seat's banked total from finished rounds (D13, D15)."""
        return (self._totals[0], self._totals[1])

    @property
    def round_scores(self) -> tuple[tuple[int, int], ...]:
        """Each finished round's scores, White's then Black's."""
        return tuple(self._round_scores)

    def running_scores(self) -> tuple[int, int]:
        """What each seat would bank if the round ended now, chord bonuses included (D13)."""
        if self._phase == _OVER:
            return (0, 0)
        return self._round_score_now()

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None`` (D15)."""
        if self._phase != _OVER:
            return None
        return WHITE if self._totals[0] > self._totals[1] else BLACK

    def _round_score_now(self) -> tuple[int, int]:
        return kernel.round_score(self._board, self._power, self._piano)

    def _token(self, t: int) -> Token:
        status = self._status[t]
        key = self._key[t]
        power = self._power[t]
        settled = status == _ON_BOARD and self._board[key] == t
        return Token(
            seat=t // TOKENS_PER_SEAT,
            index=t % TOKENS_PER_SEAT,
            state=_TOKEN_STATES[status],
            key=key if status == _ON_BOARD else None,
            power=power,
            dice=dice_for_power(power) if power else 0,
            score=kernel.token_points(power, self.key_multiplier(key)) if settled else 0,
        )

    def _duel_info(self) -> DuelInfo:
        attacker = self._datt // TOKENS_PER_SEAT
        return DuelInfo(
            key=self._dkey,
            attacker=attacker,
            defender=1 - attacker,
            attacker_token=self._datt % TOKENS_PER_SEAT,
            defender_token=self._ddef % TOKENS_PER_SEAT,
            attacker_power=self._power[self._datt],
            defender_power=self._power[self._ddef],
            attacker_dice=tuple(self._ddice[0]),
            defender_dice=tuple(self._ddice[1]),
            attacker_add=self._dadd[0],
            defender_add=self._dadd[1],
            attacker_run=tuple(self._druns[0]),
            defender_run=tuple(self._druns[1]),
            to_act=attacker if self._phase == _ATTACK else 1 - attacker,
        )


# A placeholder generator for a state being built; every state gets its own before use.
_UNSEEDED = random.Random(0)
# Events are named tuples, built on the hot path with ``tuple.__new__(Class, fields)``:
# the very same object as ``Class(*fields)``, without the Python-level ``__new__``.
_record = tuple.__new__


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, the very same permutation from the very same draws, with
    ``random.Random._randbelow`` written out in the loop (a game shuffles often)."""
    getrandbits = rng.getrandbits
    size = len(items)
    steps = _SHUFFLE_STEPS[size] if size < len(_SHUFFLE_STEPS) else _shuffle_steps(size)
    for i, bits in steps:
        r = getrandbits(bits)
        while r > i:
            r = getrandbits(bits)
        items[i], items[r] = items[r], items[i]


def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """The Fisher–Yates steps of ``random.shuffle`` for ``size`` items: each position ``i``
    from the last down to 1, and the bits drawn to pick a position 0 to ``i``."""
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size)))


#: :func:`_shuffle_steps` for every size a game shuffles (the deck, the piano deck).
_SHUFFLE_STEPS = tuple(_shuffle_steps(size) for size in range(DECK_SIZE + 1))
