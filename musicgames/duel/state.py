"""The Keyboard Duel game state: every rule D1–D16 of the rules page.

A game is a :class:`DuelState`. It always says whose decision it is (:attr:`~DuelState.
to_act`) — in a duel that is the attacker, then the defender — lists the legal actions,
and applies an action after checking it. A refused action raises a :class:`~musicgames.
duel.errors.DuelError` (a ``ValueError``) and leaves the state exactly as it was. Dice
and shuffles come only from the state's own ``random.Random``, seeded when the game is
made, so a game replays exactly from its start and its actions.

>>> game = DuelState.new_game(seed=7)
>>> game.round, game.to_act, game.phase
(1, 0, <Phase.TURN: 'turn'>)

A set-up position shows the rules at work: White holds two D cards and a Wild.

>>> game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 Wild A3 C↑", "E3 E1"))
>>> action = Place(card_ids("D1 D2 Wild"), key=2)   # power 3 on the left card's D
>>> action in game.legal_actions()
True
>>> game.apply(action)
>>> game.tokens(WHITE)[0]
Token(seat=0, index=0, state=<TokenState.ON_BOARD: 'on_board'>, key=2, power=3, dice=2, score=9)
>>> game.apply(Place(card_ids("A3"), key=9))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.duel.errors.SecondPlace: Place A3 on A (left) refused: White has already placed ...
>>> game.apply(EndTurn())
>>> game.to_act, game.hand_size(WHITE)
(1, 5)
>>> game.undo()
EndTurn()
>>> game.to_act, game.hand_size(WHITE)
(0, 2)

A duel, step by step: Black holds the left C and White places there (D11). White plays
its run and locks in, then Black, seeing it, answers and locks in; the higher total wins.

>>> duel = DuelState.from_position(hands=("C1 D2", "E3"), tokens=([], [(0, 2)]))
>>> duel.apply(Place(card_ids("C1"), key=0))
>>> duel.phase, duel.to_act, len(duel.duel.attacker_dice), len(duel.duel.defender_dice)
(<Phase.ATTACK: 'attack'>, 0, 1, 1)
>>> duel.apply(DuelCard(card_ids("D2")[0]))    # adds 2 to White's total
>>> duel.apply(LockIn())
>>> duel.phase, duel.to_act, duel.duel.attacker_add
(<Phase.DEFEND: 'defend'>, 1, 2)
>>> duel.apply(LockIn())
>>> duel.phase, duel.board_token(0).seat == duel.log[-1]["winner"]
(<Phase.TURN: 'turn'>, True)
"""

from __future__ import annotations

import base64
import json
import random
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from musicgames.duel import legal
from musicgames.duel.actions import (
    Action,
    DuelCard,
    EndTurn,
    LockIn,
    Move,
    Place,
    Shift,
    action_from_json,
)
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_CORNER,
    CARD_LETTER,
    COMPOSE_DECK,
    DECK_SIZE,
    HAND_SIZE,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
    PIANO_CARDS,
    PianoCard,
    card_ids,
    key_name,
)
from musicgames.duel.errors import (
    BadSavedGame,
    CardNotInHand,
    DuelError,
    DuplicateCard,
    GameIsOver,
    KeyOffBoard,
    MixedLetters,
    MustActFirst,
    NoCards,
    NoSuchPianoCard,
    NotAnAction,
    NothingToUndo,
    NotNow,
    NoTokenLeft,
    NoTokenThere,
    NotYourToken,
    NotYourTurn,
    SecondMove,
    SecondPlace,
    TooManyCards,
    WrongCard,
    WrongKey,
    WrongSteps,
)
from musicgames.duel.view import SeatView
from musicgames.theory import LETTERS, Triad

__all__ = [
    "BLACK",
    "MAX_POWER",
    "MAX_TURNS_PER_ROUND",
    "ROUNDS",
    "SEAT_NAMES",
    "TOKENS_PER_SEAT",
    "WHITE",
    "DuelInfo",
    "DuelState",
    "Phase",
    "Token",
    "TokenState",
    "dice_for_power",
]

#: Seats (D1). White moves first in round 1.
WHITE, BLACK = 0, 1
SEAT_NAMES = ("White", "Black")
#: Rounds before the totals are compared (D15).
ROUNDS = 3
#: Dice Tokens per player (D6).
TOKENS_PER_SEAT = legal.TOKENS_PER_SEAT
#: Highest token power (D8, D10).
MAX_POWER = 6
#: A round ends after this many turns in all, whatever happens (D12).
MAX_TURNS_PER_ROUND = 60

_UNPLACED, _ON_BOARD, _MERGED, _BEATEN = legal.UNPLACED, legal.ON_BOARD, legal.MERGED, legal.BEATEN
_TURN, _ATTACK, _DEFEND, _OVER = 0, 1, 2, 3
_UP, _DOWN, _WILD = 4, 5, 6
_FORMAT = "musicgames.duel"
_VERSION = 1


class TokenState(str, Enum):
    """Where a Dice Token is this round (the squares of a player's tray)."""

    UNPLACED = "unplaced"
    ON_BOARD = "on_board"
    MERGED = "merged"
    BEATEN = "beaten"


class Phase(str, Enum):
    """What the game is waiting for."""

    TURN = "turn"  #: the turn player's Place / Move / Shift / EndTurn
    ATTACK = "attack"  #: the attacker's duel run (D11b)
    DEFEND = "defend"  #: the defender's duel run (D11c)
    OVER = "over"  #: the game has ended (D15)


_TOKEN_STATES = (TokenState.UNPLACED, TokenState.ON_BOARD, TokenState.MERGED, TokenState.BEATEN)
_PHASES = (Phase.TURN, Phase.ATTACK, Phase.DEFEND, Phase.OVER)


def dice_for_power(power: int) -> int:
    """Dice a token of this power rolls in a duel: half its power rounded up (D11a).

    >>> [dice_for_power(p) for p in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return (power + 1) // 2


@dataclass(frozen=True)
class Token:
    """One Dice Token as the table shows it.

    ``key`` is ``None`` unless the token is on the board; ``score`` is what it scores now
    (power × the key's multiplier, D13), 0 off the board and while it is still arriving
    (in a duel, or waiting its turn in an arrow move).
    """

    seat: int
    index: int
    state: TokenState
    key: int | None
    power: int
    dice: int
    score: int


@dataclass(frozen=True)
class DuelInfo:
    """A duel in progress (D11), all of it public.

    Seats are 0 (White) / 1 (Black); tokens are indexed 0–4 within their seat. ``to_act``
    is the attacker during ``Phase.ATTACK`` and the defender during ``Phase.DEFEND``.
    """

    key: int
    attacker: int
    defender: int
    attacker_token: int
    defender_token: int
    attacker_power: int
    defender_power: int
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_add: int
    defender_add: int
    attacker_run: tuple[int, ...]
    defender_run: tuple[int, ...]
    to_act: int

    @property
    def attacker_total(self) -> int:
        """The attacker's dice plus additions (D11d)."""
        return sum(self.attacker_dice) + self.attacker_add

    @property
    def defender_total(self) -> int:
        """The defender's dice plus additions (D11d)."""
        return sum(self.defender_dice) + self.defender_add

    @property
    def attacker_leads(self) -> bool:
        """True if the attacker would win if both locked in now (ties go to the attacker)."""
        return self.attacker_total >= self.defender_total

    @property
    def run_letter(self) -> str | None:
        """The letter the acting side's run is tied to, or ``None`` while it holds no letter."""
        run = self.attacker_run if self.to_act == self.attacker else self.defender_run
        letter = legal.run_letter(run)
        return None if letter < 0 else LETTERS[letter]


def _seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def _card_list(cards: Iterable[int]) -> str:
    names = [str(COMPOSE_DECK[c]) for c in cards]
    return ", ".join(names) if names else "no cards"


class DuelState:
    """A game of Keyboard Duel in progress: the whole table, including hidden cards.

    Make one with :meth:`new_game` (or :meth:`from_position` for a set-up position, or
    :meth:`from_json` for a saved game). A computer player should look only at
    :meth:`view` of its seat (D16).
    """

    __slots__ = (
        "_rng", "_round", "_starter", "_turn", "_turns", "_final", "_placed", "_moved",
        "_phase", "_piano", "_piano_deck", "_hands", "_draw", "_discard", "_status", "_key",
        "_power", "_board", "_dkey", "_datt", "_ddef", "_dadd", "_ddice", "_druns",
        "_pending", "_totals", "_round_scores", "_log", "_history", "_undo", "_rng_unsaved",
        "_start", "_start_text", "_legal",
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
    _history: list[Action]
    _undo: list[list[Any]]
    _rng_unsaved: bool
    _start: dict[str, Any]
    _start_text: str | None
    _legal: list[tuple[Action, ...] | None]

    # -- making a game ---------------------------------------------------------------------
    def __init__(self, seed: int | random.Random = 0) -> None:
        """A new game: the same as :meth:`new_game` (``DuelState(seed)``)."""
        self._reset()
        if isinstance(seed, random.Random):
            seed = seed.getrandbits(64)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int or a random.Random, not {seed!r}")
        self._rng = random.Random(seed)
        piano_deck = list(range(len(PIANO_CARDS)))
        self._rng.shuffle(piano_deck)
        self._piano_deck = piano_deck
        self._start_round(1, WHITE)
        self._start = self._position()

    @classmethod
    def _blank(cls) -> DuelState:
        """A state with no cards dealt, to be filled in (by a position loader)."""
        state = cls.__new__(cls)
        state._reset()
        return state

    def _reset(self) -> None:
        self._rng = random.Random(0)
        self._clear_round(1, WHITE)
        self._piano = [0, 1]
        self._piano_deck = []
        self._hands = [[], []]
        self._draw = []
        self._discard = []
        self._totals = [0, 0]
        self._round_scores = []
        self._log = []
        self._history = []
        self._undo = []
        self._rng_unsaved = False
        self._start = {}
        self._start_text = None
        self._legal = [None, None]

    @classmethod
    def new_game(cls, seed: int | random.Random = 0) -> DuelState:
        """A new game, round 1 dealt, White to move (D1, D3, D6).

        ``seed`` is an int, or a ``random.Random`` from which a seed is drawn (so games
        made one after another from one generator differ, and each replays on its own).
        """
        return cls(seed)

    @classmethod
    def from_position(
        cls,
        *,
        piano: Sequence[int | Triad | PianoCard] = (0, 1),
        hands: Sequence[str | Sequence[int]] = ((), ()),
        tokens: Sequence[Sequence[tuple[int, int] | str]] = ((), ()),
        turn: int = WHITE,
        starter: int | None = None,
        round: int = 1,
        totals: Sequence[int] = (0, 0),
        round_scores: Sequence[Sequence[int]] | None = None,
        placed: bool = False,
        moved: bool = False,
        turns: int = 0,
        final_turn: bool = False,
        discard: str | Sequence[int] = (),
        draw: Sequence[int] | None = None,
        piano_deck: Sequence[int] | None = None,
        seed: int = 0,
    ) -> DuelState:
        """A position set up by hand, for lessons, puzzles and tests (always in the turn phase).

        ``hands`` and ``discard`` take card ids or codes (``"D2 D↑ Wild"``); successive
        Wilds across them get successive ids. ``tokens`` lists each seat's tokens in order:
        ``(key, power)`` on the board, or ``"merged"``, ``"beaten"``, ``"unplaced"``; missing
        ones are unplaced. Cards not in a hand or the discard make the draw pile, shuffled
        with ``seed``; if ``draw`` is given (last card drawn first) they go to the discard
        instead. Invalid set-ups raise :class:`BadSavedGame`.

        >>> game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 Wild", "E3"),
        ...                                tokens=([(2, 3)], [(14, 1), "beaten"]))
        >>> game.board_token(2).power, game.board_token(14).seat, game.tokens(BLACK)[1].state
        (3, 1, <TokenState.BEATEN: 'beaten'>)
        """
        if len(hands) != 2 or len(tokens) != 2:
            raise BadSavedGame("a position needs two hands and two token lists")
        rng = random.Random(f"layout {seed}")
        given = (hands[0], hands[1], discard)
        codes = [g.replace(",", " ").split() if isinstance(g, str) else [] for g in given]
        parsed = iter(card_ids([c for group in codes for c in group]))
        groups: list[list[int]] = [
            [next(parsed) for _ in group] if isinstance(g, str) else [int(c) for c in g]
            for g, group in zip(given, codes, strict=True)
        ]
        piano_ids = [p.index if isinstance(p, PianoCard) else p for p in piano]
        piano_ids = [_triad_index(p) if isinstance(p, Triad) else p for p in piano_ids]
        used = {c for g in groups for c in g} | set(draw or ())
        rest = [c for c in range(DECK_SIZE) if c not in used]
        if draw is None:
            rng.shuffle(rest)
            draw = rest
        else:
            groups[2].extend(rest)
        if piano_deck is None:
            deck = [p for p in range(len(PIANO_CARDS)) if p not in piano_ids]
            rng.shuffle(deck)
            piano_deck = deck
        token_rows: list[list[Any]] = []
        for seat in (WHITE, BLACK):
            specs = list(tokens[seat])
            if len(specs) > TOKENS_PER_SEAT:
                raise BadSavedGame(f"{_seat_name(seat)} has {len(specs)} tokens: at most 5")
            specs += ["unplaced"] * (TOKENS_PER_SEAT - len(specs))
            for spec in specs:
                if spec == "unplaced":
                    token_rows.append(["unplaced", -1, 0])
                elif spec in ("merged", "beaten"):
                    token_rows.append([spec, -1, 1])
                elif isinstance(spec, tuple) and len(spec) == 2:
                    token_rows.append(["on_board", spec[0], spec[1]])
                else:
                    raise BadSavedGame(f"{spec!r} is not a token: use (key, power), "
                                       "'merged', 'beaten' or 'unplaced'")
        if round_scores is None:
            round_scores = [list(totals)] + [[0, 0]] * (round - 2) if round > 1 else []
        position = {
            "rng": _rng_to_json(random.Random(seed).getstate()),
            "round": round,
            "starter": turn if starter is None else starter,
            "turn": turn,
            "turns": turns,
            "final_turn": final_turn,
            "placed": placed,
            "moved": moved,
            "phase": "turn",
            "piano": piano_ids,
            "piano_deck": list(piano_deck),
            "hands": [groups[0], groups[1]],
            "draw": list(draw),
            "discard": groups[2],
            "tokens": token_rows,
            "duel": None,
            "pending": [],
            "totals": list(totals),
            "round_scores": [list(r) for r in round_scores],
        }
        state = cls._from_position(position)
        state._start = state._position()
        return state

    def clone(self) -> DuelState:
        """An independent copy (its own random generator, log and undo stack)."""
        other = DuelState.__new__(DuelState)
        rng = random.Random.__new__(random.Random)
        rng.setstate(self._rng.getstate())
        other._rng = rng
        other._round = self._round
        other._starter = self._starter
        other._turn = self._turn
        other._turns = self._turns
        other._final = self._final
        other._placed = self._placed
        other._moved = self._moved
        other._phase = self._phase
        other._piano = self._piano[:]
        other._piano_deck = self._piano_deck[:]
        other._hands = [self._hands[0][:], self._hands[1][:]]
        other._draw = self._draw[:]
        other._discard = self._discard[:]
        other._status = self._status[:]
        other._key = self._key[:]
        other._power = self._power[:]
        other._board = self._board[:]
        other._dkey = self._dkey
        other._datt = self._datt
        other._ddef = self._ddef
        other._dadd = self._dadd[:]
        other._ddice = [self._ddice[0][:], self._ddice[1][:]]
        other._druns = [self._druns[0][:], self._druns[1][:]]
        other._pending = self._pending[:]
        other._totals = self._totals[:]
        other._round_scores = self._round_scores[:]
        other._log = self._log[:]
        other._history = self._history[:]
        other._undo = self._undo[:]  # records are only changed by the apply that made them
        other._rng_unsaved = False
        other._start = self._start
        other._start_text = self._start_text
        other._legal = self._legal[:]
        return other

    # -- who acts, and what they may do ----------------------------------------------------
    @property
    def phase(self) -> Phase:
        """What the game waits for: a turn action, the attacker's run, the defender's, or
        nothing (game over)."""
        return _PHASES[self._phase]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is (0 White, 1 Black); ``None`` once the game is over.

        In a duel this is the attacker while ``phase`` is ``ATTACK`` and the defender while
        it is ``DEFEND`` (D11b, c).
        """
        phase = self._phase
        if phase in (_TURN, _ATTACK):
            return self._turn
        if phase == _DEFEND:
            return 1 - self._turn
        return None

    def legal_actions(self, distinct: bool = False) -> tuple[Action, ...]:
        """Every legal action for :attr:`to_act`, and nothing else (empty once the game ends).

        With ``distinct=True`` the seven Wilds count as one card, so actions that differ
        only in which Wild is played appear once (with the lowest Wild ids).
        """
        cached = self._legal[distinct]
        if cached is not None:
            return cached
        phase = self._phase
        if phase == _TURN:
            seat = self._turn
            result = legal.turn_actions(
                seat, self._hands[seat], self._status, self._board, self._placed,
                self._moved, distinct,
            )
        elif phase == _OVER:
            result = ()
        else:
            role = phase - _ATTACK
            seat = self._turn if role == 0 else 1 - self._turn
            result = legal.duel_actions(self._hands[seat], self._druns[role], distinct)
        self._legal[distinct] = result
        return result

    def is_legal(self, action: object, seat: int | None = None) -> bool:
        """True if :meth:`apply` would accept the action (from ``seat``, if given)."""
        try:
            self._check(action, seat)
        except DuelError:
            return False
        return True

    def check(self, action: object, seat: int | None = None) -> None:
        """Raise the :class:`DuelError` that :meth:`apply` would raise, or return quietly."""
        self._check(action, seat)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check the action, then play it for :attr:`to_act` (or raise and change nothing).

        ``seat``, if given, is who is trying to act: a seat acting out of turn gets
        :class:`NotYourTurn`.
        """
        self._check(action, seat)
        self._undo.append([self._snapshot(), None])
        self._rng_unsaved = True
        self._legal = [None, None]
        self._log.append({"event": "action", "seat": self.to_act, "action": action.to_json()})
        self._history.append(action)
        kind = type(action)
        if kind is Place:
            self._do_place(action)  # type: ignore[arg-type]
        elif kind is Move:
            self._do_move(action)  # type: ignore[arg-type]
        elif kind is Shift:
            self._do_shift(action)  # type: ignore[arg-type]
        elif kind is DuelCard:
            self._do_duel_card(action)  # type: ignore[arg-type]
        elif kind is LockIn:
            self._do_lock_in()
        else:
            self._do_end_turn()
        self._rng_unsaved = False

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start); returns it."""
        if not self._undo:
            raise NothingToUndo("there is no action to undo: the game is at its start")
        snapshot, rng_state = self._undo.pop()
        action = self._history[-1]
        self._restore(snapshot)
        if rng_state is not None:
            self._rng.setstate(rng_state)
        self._legal = [None, None]
        return action

    def is_terminal(self) -> bool:
        """True once the game has been won (D15)."""
        return self._phase == _OVER

    # -- reading the table -----------------------------------------------------------------
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

    @property
    def log(self) -> tuple[dict[str, Any], ...]:
        """Every event so far, oldest first (plain JSON objects; treat as read-only).

        Each action appears as ``{"event": "action", "seat": s, "action": {...}}``,
        followed by what it caused: ``place``, ``move``, ``shift``, ``merge``, ``duel``,
        ``duel_card``, ``lock_in``, ``duel_result``, ``end_turn``, ``draw``, ``reshuffle``,
        ``round_end``, ``round_start``, ``deal``, ``game_over``.
        """
        return tuple(self._log)

    def events(self, seat: int) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it: the other seat's dealt and drawn cards become
        counts (D16)."""
        out: list[dict[str, Any]] = []
        for event in self._log:
            if event["event"] in ("deal", "draw") and event["seat"] != seat:
                event = {"event": event["event"], "seat": event["seat"],
                         "count": len(event["cards"])}
            out.append(event)
        return out

    def actions(self) -> tuple[Action, ...]:
        """Every action applied since the start position, in order."""
        return tuple(self._history)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see (D16): its own hand, the board, the discards, counts."""
        if seat not in (WHITE, BLACK):
            raise NotYourTurn(f"{seat!r} is not a seat: use 0 (White) or 1 (Black)")
        view: SeatView = object.__new__(SeatView)  # frozen: fill its fields directly (fast)
        view.__dict__.update(
            seat=seat,
            to_act=self.to_act,
            phase=_PHASES[self._phase],
            round=self._round,
            starter=self._starter,
            turn=self._turn,
            turn_number=self._turns + 1,
            final_turn=self._final,
            placed=self._placed,
            moved=self._moved,
            hand=tuple(self._hands[seat]),
            hand_sizes=(len(self._hands[0]), len(self._hands[1])),
            draw_size=len(self._draw),
            discard=tuple(self._discard),
            piano=(self._piano[0], self._piano[1]),
            piano_deck_left=tuple(sorted(self._piano_deck)),
            token_states=tuple(self._status),
            token_keys=tuple(self._key),
            token_powers=tuple(self._power),
            board=tuple(self._board),
            duel=self._duel_info() if self._dkey >= 0 else None,
            pending=tuple(self._pending),
            totals=(self._totals[0], self._totals[1]),
            round_scores=tuple(self._round_scores),
        )
        return view

    def __repr__(self) -> str:
        if self._phase == _OVER:
            return (f"<DuelState game over after round {self._round}: "
                    f"{self._totals[0]}–{self._totals[1]}, {_seat_name(self.winner or 0)} wins>")
        return (
            f"<DuelState round {self._round}, turn {self._turns + 1}, "
            f"{_seat_name(self._turn)}'s turn, {self.phase.value}, "
            f"totals {self._totals[0]}–{self._totals[1]}>"
        )

    # -- saving ----------------------------------------------------------------------------
    def to_json(self) -> str:
        """The game as plain JSON text: its start position, its actions and where it is now.

        :meth:`from_json` replays the actions from the start, so a loaded game can be
        undone as far back as the original.
        """
        if self._start_text is None:
            self._start_text = json.dumps(self._start, separators=(",", ":"))
        start = self._start_text
        rest = json.dumps([a.to_json() for a in self._history], separators=(",", ":"))
        position = json.dumps(self._position(), separators=(",", ":"))
        return (f'{{"format":"{_FORMAT}","version":{_VERSION},"start":{start},'
                f'"actions":{rest},"position":{position}}}')

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> DuelState:
        """Load a game saved by :meth:`to_json`; anything malformed raises BadSavedGame.

        The start position is checked, every action is replayed through :meth:`apply`, and
        the result must equal the saved position.
        """
        if isinstance(text, Mapping):
            data: Any = dict(text)
        else:
            try:
                data = json.loads(text)
            except (ValueError, TypeError) as err:
                raise BadSavedGame(f"the saved game is not JSON text: {err}") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise BadSavedGame(f"not a saved Keyboard Duel game: 'format' must be {_FORMAT!r}")
        if data.get("version") != _VERSION:
            raise BadSavedGame(f"saved game version {data.get('version')!r} is not {_VERSION}")
        if set(data) != {"format", "version", "start", "actions", "position"}:
            raise BadSavedGame(f"a saved game has the fields format, version, start, actions "
                               f"and position, not {sorted(data)}")
        state = cls._from_position(data["start"])
        state._start = state._position()
        actions = data["actions"]
        if not isinstance(actions, list):
            raise BadSavedGame("'actions' must be a list")
        for number, item in enumerate(actions, 1):
            try:
                state.apply(action_from_json(item))
            except DuelError as err:
                raise BadSavedGame(f"action {number} ({item!r}) does not replay: {err}") from None
        saved = cls._from_position(data["position"])._position()
        if saved != state._position():
            raise BadSavedGame("the saved position is not where its actions lead")
        return state

    def replayed(self) -> DuelState:
        """A new state made by replaying :meth:`actions` from the start position."""
        state = DuelState._from_position(self._start)
        state._start = self._start
        for action in self._history:
            state.apply(action)
        return state

    # -- internals: snapshots for undo -----------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._round, self._starter, self._turn, self._turns, self._final, self._placed,
            self._moved, self._phase, self._piano[:], self._piano_deck[:], self._hands[0][:],
            self._hands[1][:], self._draw[:], self._discard[:], self._status[:], self._key[:],
            self._power[:], self._board[:], self._dkey, self._datt, self._ddef, self._dadd[:],
            self._ddice[0][:], self._ddice[1][:], self._druns[0][:], self._druns[1][:],
            self._pending[:], self._totals[:], self._round_scores[:], len(self._log),
            len(self._history),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self._round, self._starter, self._turn, self._turns, self._final, self._placed,
            self._moved, self._phase, piano, piano_deck, hand0, hand1, draw, discard, status,
            keys, power, board, self._dkey, self._datt, self._ddef, dadd, dice0, dice1, run0,
            run1, pending, totals, round_scores, log_size, history_size,
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
        del self._log[log_size:]
        del self._history[history_size:]

    def _touch_rng(self) -> random.Random:
        """The generator, after saving its state for undo the first time an action uses it."""
        if self._rng_unsaved:
            self._undo[-1][1] = self._rng.getstate()
            self._rng_unsaved = False
        return self._rng

    def _roll(self, count: int) -> list[int]:
        rng = self._touch_rng()
        return [rng.randrange(6) + 1 for _ in range(count)]

    # -- internals: checking ---------------------------------------------------------------
    def _check(self, action: object, seat: int | None) -> None:
        phase = self._phase
        if phase == _OVER:
            raise GameIsOver(f"{action} refused: the game is over ({self._totals[0]}–"
                             f"{self._totals[1]}); start a new game")
        kind = type(action)
        if kind not in _ACTION_TYPES:
            raise NotAnAction(f"{action!r} is not a Keyboard Duel action: use Place, Move, "
                              "Shift, DuelCard, LockIn or EndTurn")
        actor = self._turn if phase != _DEFEND else 1 - self._turn
        if seat is not None and seat != actor:
            if seat not in (WHITE, BLACK):
                raise NotYourTurn(f"{seat!r} is not a seat: use 0 (White) or 1 (Black)")
            raise NotYourTurn(f"{action} refused: it is {_seat_name(actor)}'s decision "
                              f"({self._waiting_for()}), not {_seat_name(seat)}'s")
        if kind is DuelCard or kind is LockIn:
            if phase == _TURN:
                raise NotNow(f"{action} refused: there is no duel now; it is "
                             f"{_seat_name(actor)}'s turn")
            if kind is DuelCard:
                self._check_duel_card(action, actor)  # type: ignore[arg-type]
            return
        if phase != _TURN:
            raise NotNow(f"{action} refused: a duel on {key_name(self._dkey)} is waiting for "
                         f"{_seat_name(actor)}'s run: play a DuelCard or LockIn")
        if kind is Place:
            self._check_place(action, actor)  # type: ignore[arg-type]
        elif kind is Move:
            self._check_move(action, actor)  # type: ignore[arg-type]
        elif kind is Shift:
            self._check_shift(action, actor)  # type: ignore[arg-type]
        else:
            self._check_end_turn(action, actor)

    def _waiting_for(self) -> str:
        if self._phase == _TURN:
            return "their turn"
        side = "attack" if self._phase == _ATTACK else "defence"
        return f"the {side} run of the duel on {key_name(self._dkey)}"

    def _check_card(self, action: object, card: object, seat: int) -> int:
        if not _is_int(card):
            raise NotAnAction(f"{action!r}: a card is a whole number 0–41, not {card!r}")
        assert isinstance(card, int)
        if card not in self._hands[seat]:
            what = str(COMPOSE_DECK[card]) if 0 <= card < DECK_SIZE else "no card"
            raise CardNotInHand(
                f"{action} refused: card {card} ({what}) is not in {_seat_name(seat)}'s hand "
                f"({_card_list(self._hands[seat])})"
            )
        return card

    def _check_place(self, action: Place, seat: int) -> None:
        if self._placed:
            raise SecondPlace(f"{action} refused: {_seat_name(seat)} has already placed a "
                              "token this turn (one Place per turn, D7)")
        first = seat * TOKENS_PER_SEAT
        if _UNPLACED not in self._status[first : first + TOKENS_PER_SEAT]:
            raise NoTokenLeft(f"{action} refused: {_seat_name(seat)} has placed all five "
                              "tokens this round")
        cards = action.cards
        if not isinstance(cards, tuple):
            raise NotAnAction(f"{action!r}: 'cards' must be a tuple of card ids")
        if not cards:
            raise NoCards(f"{action!r} refused: a Place needs at least one card (D8)")
        if len(cards) > legal.MAX_PLACE_CARDS:
            raise TooManyCards(f"{action} refused: {len(cards)} cards, but a Place may use "
                               f"at most {legal.MAX_PLACE_CARDS} (D8)")
        for card in cards:
            self._check_card(action, card, seat)
        if len(set(cards)) != len(cards):
            raise DuplicateCard(f"{action} refused: a card is listed twice")
        letters = {CARD_LETTER[c] for c in cards} - {-1}
        if len(letters) > 1:
            names = "/".join(LETTERS[x] for x in sorted(letters))
            raise MixedLetters(f"{action} refused: the cards show different letters ({names}); "
                               "a Place uses one letter plus any Wilds (D8)")
        key = action.key
        if not _is_int(key):
            raise NotAnAction(f"{action!r}: 'key' must be a whole number 0–23")
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoard(f"{action} refused: key {key} is off the board (keys are 0–23)")
        if letters:
            letter = letters.pop()
            pitch_class = LETTER_PITCH_CLASSES[letter]
            if key % KEYS_PER_CARD != pitch_class:
                raise WrongKey(
                    f"{action} refused: {LETTERS[letter]} cards place on the {LETTERS[letter]} "
                    f"key, key {pitch_class} or {pitch_class + KEYS_PER_CARD}; only Wilds alone "
                    "name any key (D8)"
                )

    def _check_move(self, action: Move, seat: int) -> None:
        if self._moved:
            raise SecondMove(f"{action} refused: {_seat_name(seat)} has already moved this "
                             "turn (one Move per turn, D7)")
        card = self._check_card(action, action.card, seat)
        corner = CARD_CORNER[card]
        if corner in (_UP, _DOWN):
            raise WrongCard(f"{action} refused: {COMPOSE_DECK[card]} is an arrow card; arrows "
                            "shift every token on a piano card: use Shift (D9)")
        key, steps = action.key, action.steps
        if not _is_int(key) or not _is_int(steps):
            raise NotAnAction(f"{action!r}: 'key' and 'steps' must be whole numbers")
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoard(f"{action} refused: key {key} is off the board (keys are 0–23)")
        token = self._board[key]
        if token < 0:
            raise NoTokenThere(f"{action} refused: no token stands on {key_name(key)}")
        if token // TOKENS_PER_SEAT != seat:
            raise NotYourToken(f"{action} refused: the token on {key_name(key)} is "
                               f"{_seat_name(1 - seat)}'s")
        size = 1 if corner == _WILD else corner
        if steps not in (size, -size):
            raise WrongSteps(f"{action} refused: {COMPOSE_DECK[card]} moves exactly {size} "
                             f"key{'s' if size > 1 else ''} (steps {size} or {-size}), "
                             f"not {steps} (D9)")

    def _check_shift(self, action: Shift, seat: int) -> None:
        if self._moved:
            raise SecondMove(f"{action} refused: {_seat_name(seat)} has already moved this "
                             "turn (one Move per turn, D7)")
        card = self._check_card(action, action.card, seat)
        corner = CARD_CORNER[card]
        if corner != _UP and corner != _DOWN:
            raise WrongCard(f"{action} refused: {COMPOSE_DECK[card]} is not an arrow card; "
                            "use Move to move one token (D9)")
        piano = action.piano
        if not _is_int(piano):
            raise NotAnAction(f"{action!r}: 'piano' must be 0 (left) or 1 (right)")
        if piano not in (0, 1):
            raise NoSuchPianoCard(f"{action} refused: piano card {piano} does not exist: use "
                                  "0 (left) or 1 (right)")
        first = piano * KEYS_PER_CARD
        board = self._board
        for key in range(first, first + KEYS_PER_CARD):
            if board[key] >= 0 and board[key] // TOKENS_PER_SEAT == seat:
                return
        raise NoTokenThere(f"{action} refused: {_seat_name(seat)} has no token on the "
                           f"{('left', 'right')[piano]} piano card")

    def _check_duel_card(self, action: DuelCard, seat: int) -> None:
        card = self._check_card(action, action.card, seat)
        role = self._phase - _ATTACK
        letter = legal.run_letter(self._druns[role])
        card_letter = CARD_LETTER[card]
        if letter >= 0 and card_letter >= 0 and card_letter != letter:
            raise MixedLetters(f"{action} refused: this run shows {LETTERS[letter]}; a run "
                               f"uses one letter plus any Wilds (D11b)")

    def _check_end_turn(self, action: object, seat: int) -> None:
        if self._placed or self._moved:
            return
        possible = legal.turn_actions(seat, self._hands[seat], self._status, self._board,
                                      False, False, True)
        if len(possible) > 1:
            raise MustActFirst(f"{action} refused: {_seat_name(seat)} must place or move "
                               "before ending the turn; a player passes only when no action "
                               "is possible (D7)")

    # -- internals: playing ----------------------------------------------------------------
    def _do_place(self, action: Place) -> None:
        seat = self._turn
        hand = self._hands[seat]
        for card in action.cards:
            hand.remove(card)
            self._discard.append(card)
        first = seat * TOKENS_PER_SEAT
        token = self._status.index(_UNPLACED, first, first + TOKENS_PER_SEAT)
        power = len(action.cards)
        self._status[token] = _ON_BOARD
        self._power[token] = power
        self._key[token] = action.key
        self._placed = True
        self._log.append({"event": "place", "seat": seat, "token": token - first,
                          "key": action.key, "power": power, "cards": list(action.cards)})
        self._arrive(token)

    def _do_move(self, action: Move) -> None:
        seat = self._turn
        self._hands[seat].remove(action.card)
        self._discard.append(action.card)
        token = self._board[action.key]
        self._board[action.key] = -1
        target = (action.key + action.steps) % BOARD_KEYS
        self._key[token] = target
        self._moved = True
        self._log.append({"event": "move", "seat": seat, "token": token % TOKENS_PER_SEAT,
                          "from": action.key, "to": target})
        self._arrive(token)

    def _do_shift(self, action: Shift) -> None:
        seat = self._turn
        self._hands[seat].remove(action.card)
        self._discard.append(action.card)
        step = 1 if CARD_CORNER[action.card] == _UP else -1
        board, keys = self._board, self._key
        first = action.piano * KEYS_PER_CARD
        movers = [
            board[k] for k in range(first, first + KEYS_PER_CARD)
            if board[k] >= 0 and board[k] // TOKENS_PER_SEAT == seat
        ]
        moves = []
        for token in movers:
            board[keys[token]] = -1
        for token in movers:
            target = (keys[token] + step) % BOARD_KEYS
            moves.append([token % TOKENS_PER_SEAT, keys[token], target])
            keys[token] = target
        arriving = []
        for token in movers:
            if board[keys[token]] < 0:
                board[keys[token]] = token
            else:
                arriving.append(token)
        # D9: merges and duels are resolved one key at a time from key 0 upward.
        arriving.sort(key=keys.__getitem__)
        self._pending = arriving
        self._moved = True
        self._log.append({"event": "shift", "seat": seat, "piano": action.piano,
                          "step": step, "moves": moves})
        self._resolve_pending()

    def _arrive(self, token: int) -> bool:
        """Settle a token at its key: free key, merge (D10) or duel (D11). True if a duel."""
        key = self._key[token]
        holder = self._board[key]
        if holder < 0:
            self._board[key] = token
            return False
        if holder // TOKENS_PER_SEAT == token // TOKENS_PER_SEAT:
            total = self._power[holder] + self._power[token]
            power = min(MAX_POWER, total)
            self._power[holder] = power
            self._status[token] = _MERGED
            self._key[token] = -1
            self._log.append({"event": "merge", "seat": token // TOKENS_PER_SEAT,
                              "token": token % TOKENS_PER_SEAT,
                              "into": holder % TOKENS_PER_SEAT, "key": key, "power": power,
                              "lost": total - power})
            return False
        self._dkey = key
        self._datt = token
        self._ddef = holder
        self._dadd = [0, 0]
        attack = self._roll(dice_for_power(self._power[token]))
        defence = self._roll(dice_for_power(self._power[holder]))
        self._ddice = [attack, defence]
        self._druns = [[], []]
        self._phase = _ATTACK
        self._log.append({"event": "duel", "key": key, "attacker": token // TOKENS_PER_SEAT,
                          "attacker_token": token % TOKENS_PER_SEAT,
                          "defender_token": holder % TOKENS_PER_SEAT,
                          "attacker_power": self._power[token],
                          "defender_power": self._power[holder],
                          "attacker_dice": attack[:], "defender_dice": defence[:]})
        return True

    def _resolve_pending(self) -> None:
        pending = self._pending
        while pending:
            if self._arrive(pending.pop(0)):
                return
        self._phase = _TURN

    def _do_duel_card(self, action: DuelCard) -> None:
        role = self._phase - _ATTACK
        seat = self._turn if role == 0 else 1 - self._turn
        card = action.card
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._druns[role].append(card)
        corner = CARD_CORNER[card]
        event: dict[str, Any] = {"event": "duel_card", "seat": seat, "card": card}
        if corner in (_UP, _DOWN):
            side = role if corner == _UP else 1 - role
            dice = self._ddice[side]
            index = dice.index(min(dice) if corner == _UP else max(dice))
            old = dice[index]
            dice[index] = self._roll(1)[0]
            event.update(effect="reroll_own_lowest" if corner == _UP else "reroll_their_highest",
                         die=index, old=old, new=dice[index])
        else:
            amount = 1 if corner == _WILD else corner
            self._dadd[role] += amount
            event.update(effect="add", amount=amount)
        self._log.append(event)

    def _do_lock_in(self) -> None:
        if self._phase == _ATTACK:
            self._phase = _DEFEND
            self._log.append({"event": "lock_in", "seat": self._turn})
            return
        self._log.append({"event": "lock_in", "seat": 1 - self._turn})
        attack = sum(self._ddice[0]) + self._dadd[0]
        defence = sum(self._ddice[1]) + self._dadd[1]
        key = self._dkey
        if attack >= defence:  # D11d: ties go to the attacker
            winner, loser = self._datt, self._ddef
            self._board[key] = winner
        else:
            winner, loser = self._ddef, self._datt
        self._status[loser] = _BEATEN
        self._key[loser] = -1
        self._log.append({"event": "duel_result", "key": key,
                          "winner": winner // TOKENS_PER_SEAT,
                          "attacker_total": attack, "defender_total": defence,
                          "beaten_token": loser % TOKENS_PER_SEAT})
        self._clear_duel()
        self._resolve_pending()

    def _clear_duel(self) -> None:
        self._dkey = -1
        self._datt = -1
        self._ddef = -1
        self._dadd = [0, 0]
        self._ddice = [[], []]
        self._druns = [[], []]

    def _do_end_turn(self) -> None:
        seat = self._turn
        self._log.append({"event": "end_turn", "seat": seat,
                          "passed": not (self._placed or self._moved)})
        self._turns += 1
        if self._final or self._turns >= MAX_TURNS_PER_ROUND:
            self._end_round()
            return
        self._refill(seat)
        first = seat * TOKENS_PER_SEAT
        if _UNPLACED not in self._status[first : first + TOKENS_PER_SEAT]:
            self._final = True  # D12: the opponent takes one final turn
        self._turn = 1 - seat
        self._placed = False
        self._moved = False

    def _refill(self, seat: int) -> None:
        hand, draw = self._hands[seat], self._draw
        drawn = []
        while len(hand) < HAND_SIZE:
            if not draw:
                if not self._discard:
                    break
                draw.extend(self._discard)
                self._discard.clear()
                self._touch_rng().shuffle(draw)
                self._log.append({"event": "reshuffle", "cards": len(draw)})
            card = draw.pop()
            hand.append(card)
            drawn.append(card)
        if drawn:
            self._log.append({"event": "draw", "seat": seat, "cards": drawn})

    def _end_round(self) -> None:
        scores = self._round_score_now()
        self._totals[0] += scores[0]
        self._totals[1] += scores[1]
        self._round_scores.append(scores)
        self._log.append({
            "event": "round_end", "round": self._round, "scores": list(scores),
            "totals": self._totals[:],
            "board": [[t // TOKENS_PER_SEAT, t % TOKENS_PER_SEAT, k, self._power[t]]
                      for k, t in enumerate(self._board) if t >= 0],
        })
        if self._round >= ROUNDS and self._totals[0] != self._totals[1]:
            self._phase = _OVER
            self._log.append({"event": "game_over", "winner": self.winner,
                              "totals": self._totals[:]})
            return
        # D14: the lower scorer starts; after a tied round, whoever moved second.
        if scores[0] != scores[1]:
            starter = WHITE if scores[0] < scores[1] else BLACK
        else:
            starter = 1 - self._starter
        self._start_round(self._round + 1, starter)

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

    def _start_round(self, number: int, starter: int) -> None:
        """D6, D14: fresh piano cards, all tokens back, a fresh shuffle and deal."""
        rng = self._touch_rng()
        if len(self._piano_deck) < 2:  # D3: the piano deck is spent; shuffle all 24 again
            self._piano_deck = list(range(len(PIANO_CARDS)))
            rng.shuffle(self._piano_deck)
        self._piano = [self._piano_deck.pop(), self._piano_deck.pop()]
        self._clear_round(number, starter)
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        self._hands = [[], []]
        for _ in range(HAND_SIZE):
            self._hands[starter].append(deck.pop())
            self._hands[1 - starter].append(deck.pop())
        self._draw = deck
        self._discard = []
        self._log.append({"event": "round_start", "round": number, "starter": starter,
                          "piano": self._piano[:]})
        for seat in (starter, 1 - starter):
            self._log.append({"event": "deal", "seat": seat, "cards": self._hands[seat][:]})

    # -- internals: scores -----------------------------------------------------------------
    def _round_score_now(self) -> tuple[int, int]:
        return legal.round_score(self._board, self._power, self._piano)

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
            score=power * self.key_multiplier(key) if settled else 0,
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

    # -- internals: positions as JSON ------------------------------------------------------
    def _position(self) -> dict[str, Any]:
        duel = None
        if self._dkey >= 0:
            duel = {
                "key": self._dkey, "attacker_token": self._datt, "defender_token": self._ddef,
                "dice": [self._ddice[0][:], self._ddice[1][:]], "additions": self._dadd[:],
                "runs": [self._druns[0][:], self._druns[1][:]],
            }
        return {
            "rng": _rng_to_json(self._rng.getstate()),
            "round": self._round,
            "starter": self._starter,
            "turn": self._turn,
            "turns": self._turns,
            "final_turn": self._final,
            "placed": self._placed,
            "moved": self._moved,
            "phase": _PHASES[self._phase].value,
            "piano": self._piano[:],
            "piano_deck": self._piano_deck[:],
            "hands": [self._hands[0][:], self._hands[1][:]],
            "draw": self._draw[:],
            "discard": self._discard[:],
            "tokens": [[_TOKEN_STATES[s].value, k, p]
                       for s, k, p in zip(self._status, self._key, self._power, strict=True)],
            "duel": duel,
            "pending": self._pending[:],
            "totals": self._totals[:],
            "round_scores": [list(r) for r in self._round_scores],
        }

    @classmethod
    def _from_position(cls, position: object) -> DuelState:
        """A state from a position object, every field checked (BadSavedGame if not)."""
        from musicgames.duel.saved import load_position

        state = cls._blank()
        load_position(state, position)
        return state


_ACTION_TYPES = frozenset({Place, Move, Shift, DuelCard, LockIn, EndTurn})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _triad_index(t: Triad) -> int:
    for card in PIANO_CARDS:
        if card.triad == t:
            return card.index
    raise BadSavedGame(f"{t!r} is not one of the 24 piano cards")


def _rng_to_json(state: tuple[Any, ...]) -> list[Any]:
    """A generator state as plain JSON: ``[version, base64 of its 625 words, gauss]``."""
    version, internal, gauss = state
    words = base64.b64encode(struct.pack("<625I", *internal)).decode("ascii")
    return [version, words, gauss]
