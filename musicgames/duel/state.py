"""The Keyboard Duel game state: every rule D1–D16 of the rules page.

A game is a :class:`DuelState`. It always says whose decision it is (:attr:`~DuelState.
to_act`) — in a duel that is the attacker, then the defender — lists the legal actions,
and applies an action after checking it, returning the events it caused (typed values,
:mod:`musicgames.duel.events`). A refused action raises a :class:`~musicgames.duel.errors.
DuelError` (a ``ValueError``) naming the action, the reason and the rule, and leaves the
state exactly as it was. Dice
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
(Placed(seat=0, token=0, key=2, power=3, cards=(5, 6, 35)),)
>>> game.tokens(WHITE)[0]
Token(seat=0, index=0, state=<TokenState.ON_BOARD: 'on_board'>, key=2, power=3, dice=2, score=9)
>>> game.apply(Place(card_ids("A3"), key=9))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.duel.errors.SecondPlaceError: Place A3 on A (f) of D major refused: White has ...
>>> [type(event).__name__ for event in game.apply(EndTurn())]
['TurnEnded', 'Drew']
>>> game.to_act, game.hand_size(WHITE)
(1, 5)
>>> game.undo()
EndTurn()
>>> game.to_act, game.hand_size(WHITE)
(0, 2)

A duel, step by step: Black holds the left C and White places there (D11). White plays
its run and locks in, then Black, seeing it, answers and locks in; the higher total wins.

>>> duel = DuelState.from_position(hands=("C1 D2", "E3"), tokens=([], [(0, 2)]))
>>> for event in duel.apply(Place(card_ids("C1"), key=0)):
...     print(type(event).__name__, event[:4])
Placed (0, 0, 0, 1)
DuelStarted (0, 0, 0, 0)
DiceRolled (0, (4,))
DiceRolled (1, (4,))
>>> duel.phase, duel.to_act, len(duel.duel.attacker_dice), len(duel.duel.defender_dice)
(<Phase.ATTACK: 'attack'>, 0, 1, 1)
>>> duel.apply(DuelCard(card_ids("D2")[0]))    # adds 2 to White's total
(CardPlayed(seat=0, card=6, effect='add', amount=2, attacker_total=6, defender_total=4),)
>>> duel.apply(LockIn())
(LockedIn(seat=0, total=6),)
>>> duel.phase, duel.to_act, duel.duel.attacker_add
(<Phase.DEFEND: 'defend'>, 1, 2)
>>> locked, won = duel.apply(LockIn())
>>> won.winner, won.attacker_total, won.defender_total
(0, 6, 4)
>>> duel.phase, duel.board_token(0).seat == won.winner
(<Phase.TURN: 'turn'>, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from musicgames.duel import kernel, legal
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
    key_words,
)
from musicgames.duel.errors import (
    BadSavedGameError,
    BadSeedError,
    CardNotInHandError,
    DuelError,
    DuplicateCardError,
    GameIsOverError,
    KeyOffBoardError,
    MixedLettersError,
    MustActFirstError,
    NoCardsError,
    NoSuchPianoCardError,
    NotAnActionError,
    NothingToUndoError,
    NotNowError,
    NoTokenLeftError,
    NoTokenThereError,
    NotYourTokenError,
    NotYourTurnError,
    SecondMoveError,
    SecondPlaceError,
    TakeBackStoppedError,
    TooManyCardsError,
    WrongCardError,
    WrongKeyError,
    WrongStepsError,
)
from musicgames.duel.events import (
    ActionTaken,
    CardPlayed,
    Dealt,
    DiceRolled,
    DieRerolled,
    Drew,
    DuelStarted,
    DuelWon,
    Event,
    FinalTurnBegins,
    GameOver,
    LockedIn,
    Merged,
    Moved,
    Placed,
    Reshuffled,
    RoundScored,
    RoundStarted,
    Shifted,
    TokenScore,
    TurnEnded,
    seen_by,
)
from musicgames.duel.saved import (
    MOST_ROUNDS,
    dump_position,
    load_position,
    rng_to_json,
    whole_number,
)
from musicgames.duel.table import DuelInfo, Phase, Token, TokenState, dice_for_power
from musicgames.duel.view import SeatView
from musicgames.shown import short_repr
from musicgames.theory import LETTERS, Triad

__all__ = [
    "BLACK",
    "MAX_POWER",
    "MAX_TURNS_PER_ROUND",
    "ROUNDS",
    "SEAT_NAMES",
    "TOKENS_PER_SEAT",
    "TakeBackReach",
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
TOKENS_PER_SEAT = kernel.TOKENS_PER_SEAT
#: Highest token power (D8, D10).
MAX_POWER = 6
#: A round ends after this many turns in all, whatever happens (D12).
MAX_TURNS_PER_ROUND = 60

_UNPLACED, _ON_BOARD, _MERGED, _BEATEN = (kernel.UNPLACED, kernel.ON_BOARD, kernel.MERGED,
                                         kernel.BEATEN)
_TURN, _ATTACK, _DEFEND, _OVER = 0, 1, 2, 3
_UP, _DOWN, _WILD = 4, 5, 6
_FORMAT = "musicgames.duel"
_VERSION = 1


class TakeBackReach(NamedTuple):
    """How far :meth:`DuelState.take_back` can go now: ``actions`` actions, and what stops
    it there: ``"dice"`` (the action before rolled dice), ``"draw"`` (it drew, dealt or
    shuffled cards), ``"other_player"`` (it was the other player's), ``"not_their_move"``
    (the seat asking is not the one to act), ``"round"`` (the round began there), ``"over"``
    (the game is over) or ``"start"`` (the game began there)."""

    actions: int
    stop: str


#: Events that show chance (dice) or hidden cards (a draw, a deal, a shuffle): a take-back
#: never undoes an action that caused one.
_DICE_EVENTS = (DiceRolled, DieRerolled)
_DRAW_EVENTS = (Drew, Dealt, Reshuffled, RoundStarted)

_TOKEN_STATES = (TokenState.UNPLACED, TokenState.ON_BOARD, TokenState.MERGED, TokenState.BEATEN)
_PHASES = (Phase.TURN, Phase.ATTACK, Phase.DEFEND, Phase.OVER)


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
        "_pending", "_totals", "_round_scores", "_log", "_log_seen", "_history", "_undo",
        "_rng_unsaved",
        "_start", "_start_text", "_legal", "_legal_ids", "_events", "_out", "_full",
        "_saved_actions", "_emit",
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
    _emit: Callable[[Event], None] | None

    # -- making a game ---------------------------------------------------------------------
    def __init__(self, seed: int | random.Random = 0, history: bool = True) -> None:
        """A new game: the same as :meth:`new_game` (``DuelState(seed)``)."""
        self._reset()
        self._full = history
        if not history:
            self._emit = self._out.append  # the deal's events are heard by nobody
        if isinstance(seed, random.Random):
            seed = seed.getrandbits(64)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadSeedError(f"seed must be an int or a random.Random, not {short_repr(seed)}")
        self._rng = random.Random(seed)
        piano_deck = list(range(len(PIANO_CARDS)))
        _shuffle(self._rng, piano_deck)
        self._piano_deck = piano_deck
        self._start_round(1, WHITE)
        if history:
            self._start = self._position()

    @classmethod
    def _blank(cls) -> DuelState:
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

    @classmethod
    def new_game(cls, seed: int | random.Random = 0, history: bool = True) -> DuelState:
        """A new game, round 1 dealt, White to move (D1, D3, D6).

        ``seed`` is an int, or a ``random.Random`` from which a seed is drawn (so games
        made one after another from one generator differ, and each replays on its own).
        With ``history=False`` the game keeps no undo stack, log or story, as a
        history-free :meth:`copy` (the same game: ``new_game(s, history=False)`` plays as
        ``new_game(s).copy(history=False)``).
        """
        return cls(seed, history)

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
        instead. Invalid set-ups raise :class:`BadSavedGameError`.

        >>> game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 Wild", "E3"),
        ...                                tokens=([(2, 3)], [(14, 1), "beaten"]))
        >>> game.board_token(2).power, game.board_token(14).seat, game.tokens(BLACK)[1].state
        (3, 1, <TokenState.BEATEN: 'beaten'>)
        """
        if len(hands) != 2 or len(tokens) != 2:
            raise BadSavedGameError("a position needs two hands and two token lists")
        whole_number(round, "round", 1, MOST_ROUNDS)  # before a list of round scores is made
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
                raise BadSavedGameError(f"{_seat_name(seat)} has {len(specs)} tokens: at most 5")
            specs += ["unplaced"] * (TOKENS_PER_SEAT - len(specs))
            for spec in specs:
                if spec == "unplaced":
                    token_rows.append(["unplaced", -1, 0])
                elif spec in ("merged", "beaten"):
                    token_rows.append([spec, -1, 1])
                elif isinstance(spec, tuple) and len(spec) == 2:
                    token_rows.append(["on_board", spec[0], spec[1]])
                else:
                    raise BadSavedGameError(f"{short_repr(spec)} is not a token: use (key, power), "
                                       "'merged', 'beaten' or 'unplaced'")
        if round_scores is None:
            round_scores = [list(totals)] + [[0, 0]] * (round - 2) if round > 1 else []
        position = {
            "rng": rng_to_json(random.Random(seed).getstate()),
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

    @classmethod
    def from_view(cls, view: SeatView, rng: random.Random) -> DuelState:
        """A history-free game (see :meth:`copy`) consistent with one seat's view, the cards
        that seat cannot see dealt at random: the other hand and the draw order from
        :meth:`SeatView.unseen_cards`, the order of the piano deck shuffled, and the dice
        seeded — all from ``rng`` alone (D16). ``view.sample_state(rng)`` is this.

        >>> game = DuelState.new_game(seed=4)
        >>> sample = DuelState.from_view(game.view(0), random.Random(1))
        >>> sample.view(0) == game.view(0), sample.hand(1) == game.hand(1)
        (True, False)
        """
        unseen = list(view.unseen_cards())
        rng.shuffle(unseen)
        other = view.hand_sizes[1 - view.seat]
        piano_deck = list(view.piano_deck_left)
        rng.shuffle(piano_deck)
        state = cls.__new__(cls)
        state._reset()
        state._full = False
        state._emit = state._out.append
        state._rng = random.Random(rng.getrandbits(64))
        state._round = view.round
        state._starter = view.starter
        state._turn = view.turn
        state._turns = view.turn_number - 1
        state._final = view.final_turn
        state._placed = view.placed
        state._moved = view.moved
        state._phase = _PHASES.index(view.phase)
        state._piano = [view.piano[0], view.piano[1]]
        state._piano_deck = piano_deck
        hands: list[list[int]] = [[], []]
        hands[view.seat] = list(view.hand)
        hands[1 - view.seat] = unseen[:other]
        state._hands = hands
        state._draw = unseen[other:]
        state._discard = list(view.discard)
        state._status = list(view.token_states)
        state._key = list(view.token_keys)
        state._power = list(view.token_powers)
        state._board = list(view.board)
        duel = view.duel
        if duel is not None:
            state._dkey = duel.key
            state._datt = duel.attacker * TOKENS_PER_SEAT + duel.attacker_token
            state._ddef = duel.defender * TOKENS_PER_SEAT + duel.defender_token
            state._ddice = [list(duel.attacker_dice), list(duel.defender_dice)]
            state._dadd = [duel.attacker_add, duel.defender_add]
            state._druns = [list(duel.attacker_run), list(duel.defender_run)]
        state._pending = list(view.pending)
        state._totals = [view.totals[0], view.totals[1]]
        state._round_scores = list(view.round_scores)
        return state

    def clone(self) -> DuelState:
        """An independent copy (its own random generator, log and undo stack): ``copy()``."""
        return self.copy()

    def copy(self, history: bool = True) -> DuelState:
        """An independent copy of the game, with its own random generator.

        With ``history=False`` (python-chess's ``copy(stack=False)``) the copy keeps no undo
        stack, log, story or list of actions, and goes on keeping none: its
        :meth:`legal_actions` and :meth:`apply` are as fast as the rules allow, for search
        and simulation. It plays exactly as the full game would (same rules, same dice from
        the same generator state) and still refuses illegal actions; :meth:`undo` has
        nothing to take back, and :meth:`to_json` saves it from where it stands.

        >>> game = DuelState.new_game(seed=5)
        >>> fast = game.copy(history=False)
        >>> action = fast.legal_actions()[0]
        >>> fast.apply(action) == game.apply(action)   # the same events
        True
        >>> len(fast.log), len(fast.actions()), len(game.actions())
        (0, 0, 1)
        """
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
        other._rng_unsaved = False
        other._legal = self._legal[:]
        other._legal_ids = None
        other._out = []
        full = history and self._full
        other._full = full
        if full:
            other._log = self._log[:]
            other._log_seen = self._log_seen
            other._history = self._history[:]
            other._undo = self._undo[:]  # records are only changed by the apply that made them
            other._events = self._events[:]
            other._saved_actions = self._saved_actions[:]
            other._start = self._start
            other._start_text = self._start_text
        else:
            other._log = []
            other._log_seen = 0
            other._history = []
            other._undo = []
            other._events = []
            other._saved_actions = []
            other._start = {}
            other._start_text = None
        other._emit = other._events.append if full else other._out.append
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

    def legal_actions(self, distinct: bool = False) -> Sequence[Action]:
        """Every legal action for :attr:`to_act`, and nothing else (empty once the game ends).

        A tuple; in a history-free copy (:meth:`copy`) the turn's actions come as a lazy
        sequence instead, the same actions in the same order, each made when asked for.
        With ``distinct=True`` the seven Wilds count as one card, so actions that differ
        only in which Wild is played appear once (with the lowest Wild ids).
        """
        cached = self._legal[distinct]
        if cached is not None:
            return cached
        phase = self._phase
        result: Sequence[Action]
        if phase == _TURN and not self._full and not distinct:
            seat = self._turn
            first = seat * TOKENS_PER_SEAT
            placed, moved = self._placed, self._moved
            if placed and moved:
                self._legal[0] = legal.ONLY_END_TURN
                return legal.ONLY_END_TURN
            own: list[int] = []
            if not moved:  # in a turn, every token on the board holds its key
                own = sorted(self._key[first: first + TOKENS_PER_SEAT])
                del own[:own.count(-1)]  # -1: not on the board
            result = legal.lazy_turn_actions_from_keys(
                self._hands[seat],
                not placed and _UNPLACED in self._status[first: first + TOKENS_PER_SEAT],
                own, placed or moved)
        elif phase == _TURN:
            seat = self._turn
            listing = legal.turn_actions if self._full else legal.lazy_turn_actions
            result = listing(
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

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Check the action, then play it for :attr:`to_act` (or raise and change nothing).

        Returns the events it caused, in order (:mod:`musicgames.duel.events`). ``seat``,
        if given, is who is trying to act: a seat acting out of turn gets
        :class:`NotYourTurnError`.
        """
        if not self._full:
            return self._apply_fast(action, seat)
        if seat is not None or not self._listed(action):
            self._check(action, seat)
        self._undo.append([self._snapshot(), None])
        self._rng_unsaved = True
        actor = self._turn if self._phase != _DEFEND else 1 - self._turn
        self._saved_actions.append(action)
        self._history.append(action)
        out = self._events
        out.append(_record(ActionTaken, (actor, action)))
        start = len(out)
        self._emit = out.append
        self._legal = [None, None]
        self._legal_ids = None
        self._play(action)
        self._rng_unsaved = False
        return tuple(out[start:])

    def _play(self, action: Action) -> None:
        """Play a checked action for :attr:`to_act` (the rules are the primitives below)."""
        kind = type(action)
        if kind is Place:
            self._place_cards(action.cards, action.key)  # type: ignore[union-attr]
        elif kind is Move:
            self._move_token(action.card, action.key, action.steps)  # type: ignore[union-attr]
        elif kind is EndTurn:
            self._do_end_turn()
        elif kind is DuelCard:
            self._play_duel_card(action.card)  # type: ignore[union-attr]
        elif kind is LockIn:
            self._do_lock_in()
        else:
            self._shift_tokens(action.card, action.piano)  # type: ignore[union-attr]

    def _apply_fast(self, action: Action, seat: int | None) -> tuple[Event, ...]:
        """:meth:`apply` in a history-free copy: the same checks and play, nothing recorded."""
        legal_now = self._legal
        first = legal_now[0]
        if seat is not None or legal_now[1] is not None or first is None:
            listed = seat is None and self._listed(action)
        elif type(first) is legal.LazyActions:
            listed = id(action) in first.ids
        else:  # a short tuple (a duel's cards, or EndTurn alone): the very objects listed
            listed = False
            for one in first:
                if one is action:
                    listed = True
                    break
        if not listed:
            self._check(action, seat)
        out: list[Event] = []
        self._out = out
        self._emit = out.append
        self._legal = [None, None]
        self._legal_ids = None
        self._play(action)
        return tuple(out)

    def _listed(self, action: object) -> bool:
        """True if ``action`` is one of the very objects :meth:`legal_actions` just listed
        (so it needs no checking again)."""
        ids = self._legal_ids
        if ids is None:
            first, second = self._legal
            if first is None and second is None:
                return False
            if type(first) is legal.LazyActions and second is None:
                return id(action) in first.ids
            ids = set()
            for listed in (first, second):
                if type(listed) is legal.LazyActions:
                    ids.update(listed.ids)
                elif listed is not None:
                    ids.update(map(id, listed))
            self._legal_ids = ids
        return id(action) in ids

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start); returns it.

        The game goes back exactly as it was, its random generator included, so the same
        action rolls the same dice again. For a player's take-back, use :meth:`take_back`.
        """
        if not self._undo:
            raise NothingToUndoError("undo() refused: there is no action to undo: "
                                + ("the game is at its start" if self._full else
                                   "a history-free copy keeps no undo stack"))
        snapshot, rng_state = self._undo.pop()
        action = self._history[-1]
        self._restore(snapshot)
        if rng_state is not None:
            self._rng.setstate(rng_state)
        self._legal = [None, None]
        self._legal_ids = None
        return action

    def rollout(self, rng: random.Random, max_actions: int | None = None) -> int:
        """Play uniformly random legal actions until the game ends (or ``max_actions`` have
        been played); returns how many were played.

        Each action is ``legal_actions()[int(rng.random() * len(legal_actions()))]``, so the
        game is the very one that loop plays — but in a history-free copy (:meth:`copy`)
        nothing is listed, checked twice or recorded on the way: this is the fast path for
        simulations and search. A state with history plays the loop itself, recording it.

        >>> game = DuelState.new_game(seed=3)
        >>> fast = game.copy(history=False)
        >>> fast.rollout(random.Random(1)) > 0 and fast.is_terminal()
        True
        >>> played = game.rollout(random.Random(1))
        >>> game.totals == fast.totals and game.to_json() != fast.to_json()
        True
        """
        count = 0
        limit = -1 if max_actions is None else max_actions
        if self._full:
            while self._phase != _OVER and count != limit:
                choices = self.legal_actions()
                self.apply(choices[int(rng.random() * len(choices))])
                count += 1
            return count
        random_ = rng.random
        self._emit = None  # nobody hears a rollout's events: none are made
        self._legal = [None, None]
        self._legal_ids = None
        place, move, shift = self._place_cards, self._move_token, self._shift_tokens
        end_turn, play_card, lock_in = self._do_end_turn, self._play_duel_card, self._do_lock_in
        places_of, moves_of, shift_piano = legal.place_layout, legal.move_layout, legal.shift_piano
        move_kind, move_steps, letters = legal.MOVE, legal.MOVE_STEPS, CARD_LETTER
        while self._phase != _OVER and count != limit:
            count += 1
            phase = self._phase
            if phase == _TURN:  # a round's start makes new lists: read them afresh
                placed, moved = self._placed, self._moved
                if placed and moved:  # only EndTurn is left (D7): one choice of one
                    random_()
                    end_turn()
                    continue
                seat = self._turn
                hand = bytes(sorted(self._hands[seat]))  # card ids fit in bytes
                places: legal.PlaceTable = ()
                moves: legal.MoveTable = ()
                own: list[int] = []
                if hand:
                    first = seat * TOKENS_PER_SEAT
                    if not placed and _UNPLACED in self._status[first: first + 5]:
                        places = places_of(hand)
                    if not moved:  # in a turn, every token on the board holds its key
                        own = sorted(self._key[first: first + 5])
                        del own[:own.count(-1)]  # -1: not on the board
                        if own:
                            moves = moves_of(hand, own)
                size = len(places)
                index = int(random_() * (size + len(moves)
                                         + (placed or moved or not (places or moves))))
                if index < size:
                    positions, key = places[index]
                    place(tuple(map(hand.__getitem__, positions)), key)
                    continue
                index -= size
                if index >= len(moves):
                    end_turn()
                    continue
                kind, position, which, sign = moves[index]
                card = hand[position]
                if kind == move_kind:
                    move(card, own[which], sign * move_steps[card])
                else:
                    shift(card, shift_piano(own, which))
                continue
            role = phase - _ATTACK
            seat = self._turn if role == 0 else 1 - self._turn
            letter = legal.run_letter(self._druns[role])
            fitting = sorted(self._hands[seat])  # duel_actions' order
            if letter >= 0:  # a run keeps to one letter, plus Wilds (D11b)
                fitting = [c for c in fitting if letters[c] < 0 or letters[c] == letter]
            index = int(random_() * (len(fitting) + 1))
            if index < len(fitting):
                play_card(fitting[index])
            else:
                lock_in()
        self._rng_unsaved = False
        self._out = []
        self._emit = self._out.append
        return count

    @property
    def actions_this_round(self) -> int:
        """How many actions :meth:`take_back` may take back now: those since the current
        round began (0 once the game is over: a scored round stays scored)."""
        if self._phase == _OVER:
            return 0
        count = 0
        for snapshot, _ in reversed(self._undo):
            if snapshot[0] != self._round:
                break
            count += 1
        return count

    def take_back_reach(self, seat: int | None = None) -> TakeBackReach:
        """How many actions :meth:`take_back` may undo now, and what stops it there.

        A take-back undoes only what showed no chance and no hidden card, as on online
        board-game sites: it stops at the last action that rolled dice (D11a, an arrow's
        reroll) or drew, dealt or shuffled cards (D6, D7), and at the other player's last
        action (it showed their cards). ``seat`` is who takes back (default: the seat whose
        move it is); a player takes back only while it is their move.

        >>> game = DuelState.from_position(hands=("D1 E2", "F1"), tokens=([], [(0, 2)]))
        >>> game.take_back_reach()
        TakeBackReach(actions=0, stop='start')
        >>> _ = game.apply(Place(card_ids("D1"), key=2))
        >>> game.take_back_reach()
        TakeBackReach(actions=1, stop='start')
        >>> _ = game.apply(Move(card_ids("E2")[0], key=2, steps=-2))   # onto Black's C: dice
        >>> game.take_back_reach()
        TakeBackReach(actions=0, stop='dice')
        """
        self._check_take_back_seat(seat, f"take_back_reach({short_repr(seat)})")
        if self._phase == _OVER:
            return TakeBackReach(0, "over")
        to_act = self.to_act
        if seat is None:
            seat = to_act
        if seat != to_act:
            return TakeBackReach(0, "not_their_move")
        events = self._events
        end = len(events)
        count = 0
        for snapshot, rng_state in reversed(self._undo):
            begin = snapshot[-2]  # the events before this action
            shown = events[begin + 1:end]
            if any(type(event) in _DICE_EVENTS for event in shown):
                return TakeBackReach(count, "dice")
            if rng_state is not None or any(type(event) in _DRAW_EVENTS for event in shown):
                return TakeBackReach(count, "draw")
            if snapshot[0] != self._round:
                return TakeBackReach(count, "round")
            if events[begin].seat != seat:
                return TakeBackReach(count, "other_player")
            count += 1
            end = begin
        return TakeBackReach(count, "start")

    def take_back(self, count: int = 1, seat: int | None = None) -> tuple[Action, ...]:
        """A player's fair take-back of the last ``count`` actions; returns them, last first.

        It undoes only what showed no chance and no hidden card (see :meth:`take_back_reach`):
        never an action that rolled dice or drew cards, never the other player's action (it
        showed their cards), never past the start of the round (a scored round stays
        scored). Asked to go further it raises :class:`TakeBackStoppedError`, saying what
        stops it, and changes nothing. ``seat`` is who takes back (default: the seat whose
        move it is); a player takes back only while it is their move.

        The take-back is part of the game's record: :meth:`to_json` saves it, and a loaded
        game replays it.

        >>> game = DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 2)]))
        >>> game.apply(Place(card_ids("D3"), key=2))
        (Placed(seat=0, token=0, key=2, power=1, cards=(7,)),)
        >>> game.take_back()
        (Place(cards=(7,), key=2),)
        >>> attack = Place(card_ids("C1"), key=0)   # onto Black's C: a duel, dice rolled
        >>> [event.dice for event in game.apply(attack)[2:]]
        [(4,), (4,)]
        >>> game.take_back()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        musicgames.duel.errors.TakeBackStoppedError: take_back(1) refused: ... rolled dice ...
        >>> game.undo()   # undo() (for programs) rewinds everything, the generator included
        Place(cards=(0,), key=0)
        >>> DuelState.from_json(game.to_json()).to_json() == game.to_json()
        True
        """
        if not _is_int(count):
            raise NotAnActionError(f"take_back({short_repr(count)}) refused: the count is a "
                                   "whole number of actions")
        if count < 1:
            raise NothingToUndoError(f"take_back({short_repr(count)}) refused: take back 1 "
                                     "action or more")
        self._check_take_back_seat(seat, f"take_back(seat={short_repr(seat)})")
        if seat is None:
            seat = self.to_act
        reach = self.take_back_reach(seat)
        if count > reach.actions:
            raise TakeBackStoppedError(f"take_back({short_repr(count)}) refused: "
                                       f"{self._take_back_stop(reach, seat)}", reach.stop)
        rng_state = self._rng.getstate()
        saved = self._saved_actions[:]
        taken = []
        for _ in range(count):
            snapshot, _ = self._undo.pop()
            taken.append(self._history[-1])
            self._restore(snapshot)
        self._rng.setstate(rng_state)
        saved.append(count)  # a take-back of ``count`` actions
        self._saved_actions = saved
        self._legal = [None, None]
        self._legal_ids = None
        return tuple(taken)

    @staticmethod
    def _check_take_back_seat(seat: object, said: str) -> None:
        """Refuse a take-back's seat that is not None, 0 (White) or 1 (Black)."""
        if seat is not None and (not _is_int(seat) or seat not in (WHITE, BLACK)):
            raise NotAnActionError(f"{said} refused: a seat is 0 (White) or 1 (Black)")

    def _take_back_stop(self, reach: TakeBackReach, seat: int | None) -> str:
        """Why a take-back cannot go past ``reach``, in words, with the rule."""
        if reach.stop == "over":
            return "the game is over: a scored game stays scored (D15)"
        if reach.stop == "start":
            return "the game began there"
        if reach.stop == "not_their_move":
            return (f"it is {_seat_name(1 - seat) if seat is not None else 'nobody'}'s move: a "
                    "player takes back only while it is their move")
        can = (f"only {reach.actions} action{'s' if reach.actions != 1 else ''} can"
               if reach.actions else "no action can")
        before = "the action before them" if reach.actions else "the last action"
        if reach.stop == "dice":
            why = f"{before} rolled dice (D11a), and a roll seen cannot be unseen"
        elif reach.stop == "draw":
            why = (f"{before} drew or dealt cards (D6, D7), and cards seen cannot be "
                   "unseen")
        elif reach.stop == "other_player":
            who = _seat_name(1 - seat) if seat is not None else "the other player"
            why = (f"{before} was {who}'s, and a player takes back only their own "
                   "(it showed their cards)")
        else:
            why = "a round scored stays scored (D12)"
        return f"{can} be taken back: {why}"

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
        ``round_end``, ``round_start``, ``deal``, ``final_turn``, ``game_over``. The same
        story as typed values is :meth:`story`.
        """
        self._sync_log()
        return tuple(self._log)

    def _sync_log(self) -> None:
        """Write the events not yet in the plain-JSON log into it (the log is made when
        read: playing keeps only the typed events)."""
        events = self._events
        if self._log_seen < len(events):
            log = self._log
            for event in events[self._log_seen:]:
                _log_event(log, event)
            self._log_seen = len(events)

    def story(self, seat: int | None = None) -> tuple[Event, ...]:
        """Every event so far, oldest first, as typed values (:mod:`musicgames.duel.events`):
        each action (:class:`~musicgames.duel.events.ActionTaken`) followed by the events it
        caused. With ``seat``, as that seat may see it: the other seat's dealt and drawn cards
        hidden (D16). A history-free copy keeps no story.
        """
        if seat is None:
            return tuple(self._events)
        return tuple(seen_by(event, seat) for event in self._events)

    def events(self, seat: int) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it: the other seat's dealt and drawn cards become
        counts (D16)."""
        out: list[dict[str, Any]] = []
        self._sync_log()
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
            shown = short_repr(seat)
            raise NotYourTurnError(f"view({shown}) refused: {shown} is not a seat: "
                                   "use 0 (White) or 1 (Black) (D1)")
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
        position = json.dumps(self._position(), separators=(",", ":"))
        if not self._full:
            start, rest = position, "[]"
        else:
            if self._start_text is None:
                self._start_text = json.dumps(self._start, separators=(",", ":"))
            start = self._start_text
            rest = json.dumps([{"type": "take_back", "count": item} if isinstance(item, int)
                               else item.to_json() for item in self._saved_actions],
                              separators=(",", ":"))
        return (f'{{"format":"{_FORMAT}","version":{_VERSION},"start":{start},'
                f'"actions":{rest},"position":{position}}}')

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> DuelState:
        """Load a game saved by :meth:`to_json`; anything malformed raises BadSavedGameError.

        The start position is checked, every action (and take-back) is replayed through
        :meth:`apply`, and the result must equal the saved position. Whatever the shape of
        the input — not JSON, nested 100,000 deep, a field of the wrong type — the error is
        :class:`BadSavedGameError`.
        """
        try:
            return cls._load(text)
        except DuelError:
            raise
        except (RecursionError, TypeError, ValueError, KeyError, IndexError, AttributeError,
                OverflowError, MemoryError) as err:
            raise BadSavedGameError(f"the saved game cannot be read ({type(err).__name__}): "
                                    "it is not a game saved by to_json()") from None

    @classmethod
    def _load(cls, text: str | bytes | Mapping[str, Any]) -> DuelState:
        if isinstance(text, Mapping):
            data: Any = dict(text)
        else:
            try:
                data = json.loads(text)
            except (ValueError, TypeError, RecursionError) as err:
                why = "nested too deeply" if isinstance(err, RecursionError) else str(err)
                raise BadSavedGameError(f"the saved game is not JSON text: {why}") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise BadSavedGameError(f"not a saved Keyboard Duel game: 'format' must be "
                                    f"{_FORMAT!r}")
        if data.get("version") != _VERSION:
            raise BadSavedGameError(f"saved game version {short_repr(data.get('version'))} "
                                    f"is not {_VERSION}")
        if set(data) != {"format", "version", "start", "actions", "position"}:
            fields = short_repr(sorted(map(str, data)))
            raise BadSavedGameError(f"a saved game has the fields format, version, start, "
                                    f"actions and position, not {fields}")
        state = cls._from_position(data["start"])
        state._start = state._position()
        actions = data["actions"]
        if not isinstance(actions, list):
            raise BadSavedGameError("'actions' must be a list")
        for number, item in enumerate(actions, 1):
            try:
                if isinstance(item, dict) and item.get("type") == "take_back":
                    if set(item) != {"type", "count"}:
                        raise NotAnActionError("a take_back has the field count")
                    state.take_back(item["count"])
                else:
                    state.apply(action_from_json(item))
            except DuelError as err:
                raise BadSavedGameError(f"action {number} ({short_repr(item)}) does not replay: "
                                   f"{err}") from None
        saved = cls._from_position(data["position"])._position()
        if saved != state._position():
            raise BadSavedGameError("the saved position is not where its actions lead")
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

    # -- internals: checking ---------------------------------------------------------------
    # Every refusal names the action, the reason and the rule (D1–D16) that refuses it.
    def _check(self, action: object, seat: int | None) -> None:
        phase = self._phase
        if phase == _OVER:
            raise GameIsOverError(f"{self._said(action)} refused: "
                                  f"the game is over ({self._totals[0]}–"
                                  f"{self._totals[1]}) after three rounds (D15); start a new "
                                  "game")
        kind = type(action)
        if kind not in _ACTION_TYPES:
            raise NotAnActionError(f"{short_repr(action)} is not a Keyboard Duel action: use "
                                   "Place, Move, Shift (D7–D9), DuelCard, LockIn (D11) or "
                                   "EndTurn (D7)")
        actor = self._turn if phase != _DEFEND else 1 - self._turn
        if seat is not None and seat != actor:
            if seat not in (WHITE, BLACK):
                raise NotYourTurnError(f"{self._said(action)} refused: "
                                       f"{short_repr(seat)} is not a seat: use "
                                       "0 (White) or 1 (Black) (D1)")
            rule = "D7" if phase == _TURN else ("D11b" if phase == _ATTACK else "D11c")
            raise NotYourTurnError(f"{self._said(action)} refused: "
                                   f"it is {_seat_name(actor)}'s decision "
                                   f"({self._waiting_for()}), not {_seat_name(seat)}'s "
                                   f"({rule})")
        if kind is DuelCard or kind is LockIn:
            if phase == _TURN:
                raise NotNowError(f"{self._said(action)} refused: there is no duel now; it is "
                                  f"{_seat_name(actor)}'s turn to place or move (D7, D11)")
            if kind is DuelCard:
                self._check_duel_card(action, actor)  # type: ignore[arg-type]
            return
        if phase != _TURN:
            rule = "D11b" if phase == _ATTACK else "D11c"
            raise NotNowError(f"{self._said(action)} refused: "
                              f"the duel on {self._key_words(self._dkey)} is "
                              f"waiting for {_seat_name(actor)}'s run: play a duel card or "
                              f"lock in ({rule})")
        if kind is Place:
            self._check_place(action, actor)  # type: ignore[arg-type]
        elif kind is Move:
            self._check_move(action, actor)  # type: ignore[arg-type]
        elif kind is Shift:
            self._check_shift(action, actor)  # type: ignore[arg-type]
        else:
            self._check_end_turn(action, actor)

    def _key_words(self, key: int) -> str:
        """A key in words for messages, spelled in its chord's key: 'B♭ (fff) of B♭ major'."""
        return key_words(key, self._piano)

    def _said(self, action: object) -> str:
        """An action in words for messages, its keys spelled in their chord's key."""
        kind = type(action)
        if kind is Place:
            assert isinstance(action, Place)
            if _is_int(action.key) and 0 <= action.key < BOARD_KEYS:
                return f"Place {_cards_said(action.cards)} on {self._key_words(action.key)}"
        elif kind is Move:
            assert isinstance(action, Move)
            key, steps = action.key, action.steps
            if _is_int(key) and 0 <= key < BOARD_KEYS and _is_int(steps):
                size = abs(steps)
                return (f"Move {_cards_said((action.card,))}: the token on "
                        f"{self._key_words(key)} {short_repr(size)} "
                        f"key{'s' if size != 1 else ''} "
                        f"{'right' if steps > 0 else 'left'}")
        elif kind is Shift:
            assert isinstance(action, Shift)
            if _is_int(action.piano) and action.piano in (0, 1):
                card = PIANO_CARDS[self._piano[action.piano]]
                return (f"Shift {_cards_said((action.card,))}: the "
                        f"{('left', 'right')[action.piano]} card ({card.name()})")
        return str(action)

    def _waiting_for(self) -> str:
        if self._phase == _TURN:
            return "their turn"
        side = "attack" if self._phase == _ATTACK else "defence"
        return f"the {side} run of the duel on {self._key_words(self._dkey)}"

    def _check_card(self, action: object, card: object, seat: int, rule: str) -> int:
        if not _is_int(card):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"a card is a whole number 0–41, not "
                                   f"{short_repr(card)} ({rule})")
        assert isinstance(card, int)
        if card not in self._hands[seat]:
            what = str(COMPOSE_DECK[card]) if 0 <= card < DECK_SIZE else "no card"
            raise CardNotInHandError(
                f"{self._said(action)} refused: "
                f"card {short_repr(card)} ({what}) is not in {_seat_name(seat)}'s hand "
                f"({_card_list(self._hands[seat])}); a player plays cards from their own hand "
                f"({rule})"
            )
        return card

    def _check_place(self, action: Place, seat: int) -> None:
        if self._placed:
            raise SecondPlaceError(f"{self._said(action)} refused: "
                                   f"{_seat_name(seat)} has already placed a "
                                   "token this turn (one Place per turn, D7)")
        first = seat * TOKENS_PER_SEAT
        if _UNPLACED not in self._status[first : first + TOKENS_PER_SEAT]:
            raise NoTokenLeftError(f"{self._said(action)} refused: "
                                   f"{_seat_name(seat)} has placed all five "
                                   "tokens this round (five Dice Tokens, D6, D8)")
        cards = action.cards
        if not isinstance(cards, tuple):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'cards' must be a tuple of card ids, not "
                                   f"{short_repr(cards)} (D8)")
        if not cards:
            raise NoCardsError(f"{self._said(action)} refused: "
                               f"a Place needs at least one card (D8)")
        if len(cards) > legal.MAX_PLACE_CARDS:
            raise TooManyCardsError(f"{self._said(action)} refused: "
                                    f"{len(cards)} cards, but a Place may "
                                    f"use at most {legal.MAX_PLACE_CARDS} (D8)")
        for card in cards:
            self._check_card(action, card, seat, "D8")
        if len(set(cards)) != len(cards):
            raise DuplicateCardError(f"{self._said(action)} refused: "
                                     f"a card is listed twice; each card is "
                                     "played once (D5, D8)")
        letters = {CARD_LETTER[c] for c in cards} - {-1}
        if len(letters) > 1:
            names = "/".join(LETTERS[x] for x in sorted(letters))
            raise MixedLettersError(f"{self._said(action)} refused: "
                                    f"the cards show different letters "
                                    f"({names}); a Place uses one letter plus any Wilds (D8)")
        key = action.key
        if not _is_int(key):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'key' must be a whole number 0–23, not "
                                   f"{short_repr(key)} (D2)")
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoardError(f"{self._said(action)} refused: "
                                   f"key {short_repr(key)} is off the board (keys are "
                                   "0–23, D2)")
        if letters:
            letter = letters.pop()
            pitch_class = LETTER_PITCH_CLASSES[letter]
            if key % KEYS_PER_CARD != pitch_class:
                raise WrongKeyError(
                    f"{self._said(action)} refused: "
                    f"{LETTERS[letter]} cards place on the {LETTERS[letter]} "
                    f"key, key {pitch_class} or {pitch_class + KEYS_PER_CARD}; only Wilds alone "
                    "name any key (D8)"
                )

    def _check_move(self, action: Move, seat: int) -> None:
        if self._moved:
            raise SecondMoveError(f"{self._said(action)} refused: "
                                  f"{_seat_name(seat)} has already moved this "
                                  "turn (one Move per turn, D7)")
        card = self._check_card(action, action.card, seat, "D9")
        corner = CARD_CORNER[card]
        if corner in (_UP, _DOWN):
            raise WrongCardError(f"{self._said(action)} refused: "
                                 f"{COMPOSE_DECK[card]} is an arrow card; "
                                 "arrows shift every token on a piano card: use Shift (D9)")
        key, steps = action.key, action.steps
        if not _is_int(key) or not _is_int(steps):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'key' and 'steps' must be whole numbers "
                                   "(D2, D9)")
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoardError(f"{self._said(action)} refused: "
                                   f"key {short_repr(key)} is off the board (keys are "
                                   "0–23, D2)")
        token = self._board[key]
        if token < 0:
            raise NoTokenThereError(f"{self._said(action)} refused: no token stands on "
                                    f"{self._key_words(key)}; a Move moves one of your tokens "
                                    "on the board (D9)")
        if token // TOKENS_PER_SEAT != seat:
            raise NotYourTokenError(f"{self._said(action)} refused: "
                                    f"the token on {self._key_words(key)} is "
                                    f"{_seat_name(1 - seat)}'s; a Move moves one of your own "
                                    "tokens (D9)")
        size = 1 if corner == _WILD else corner
        if steps not in (size, -size):
            raise WrongStepsError(f"{self._said(action)} refused: "
                                  f"{COMPOSE_DECK[card]} moves exactly "
                                  f"{size} key{'s' if size > 1 else ''} (steps {size} or "
                                  f"{-size}), not {short_repr(steps)} (D9)")

    def _check_shift(self, action: Shift, seat: int) -> None:
        if self._moved:
            raise SecondMoveError(f"{self._said(action)} refused: "
                                  f"{_seat_name(seat)} has already moved this "
                                  "turn (one Move per turn, D7)")
        card = self._check_card(action, action.card, seat, "D9")
        corner = CARD_CORNER[card]
        if corner not in (_UP, _DOWN):
            raise WrongCardError(f"{self._said(action)} refused: "
                                 f"{COMPOSE_DECK[card]} is not an arrow "
                                 "card; use Move to move one token (D9)")
        piano = action.piano
        if not _is_int(piano):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'piano' must be 0 (left) or 1 (right), "
                                   f"not {short_repr(piano)} (D2)")
        if piano not in (0, 1):
            raise NoSuchPianoCardError(f"{self._said(action)} refused: "
                                       f"piano card {short_repr(piano)} does not exist: "
                                       "the board has two, 0 (left) and 1 (right) (D2)")
        first = piano * KEYS_PER_CARD
        board = self._board
        for key in range(first, first + KEYS_PER_CARD):
            if board[key] >= 0 and board[key] // TOKENS_PER_SEAT == seat:
                return
        raise NoTokenThereError(f"{self._said(action)} refused: "
                                f"{_seat_name(seat)} has no token on the "
                                f"{('left', 'right')[piano]} piano card; an arrow shifts your "
                                "tokens on one piano card (D9)")

    def _check_duel_card(self, action: DuelCard, seat: int) -> None:
        role = self._phase - _ATTACK
        card = self._check_card(action, action.card, seat, "D11b" if role == 0 else "D11c")
        letter = legal.run_letter(self._druns[role])
        card_letter = CARD_LETTER[card]
        if letter >= 0 and card_letter >= 0 and card_letter != letter:
            raise MixedLettersError(f"{self._said(action)} refused: "
                                    f"this run shows {LETTERS[letter]}; a "
                                    "run uses one letter plus any Wilds (D11b)")

    def _check_end_turn(self, action: object, seat: int) -> None:
        if self._placed or self._moved:
            return
        possible = legal.turn_actions(seat, self._hands[seat], self._status, self._board,
                                      False, False, True)
        if type(possible[0]) is not EndTurn:  # EndTurn is listed only when nothing else is
            raise MustActFirstError(f"{self._said(action)} refused: "
                                    f"{_seat_name(seat)} must place or move "
                                    "before ending the turn; a player passes only when no "
                                    f"action is possible ({possible[0]} is) (D7)")

    # -- internals: playing ----------------------------------------------------------------
    # The primitives take plain numbers, so that :meth:`apply` and :meth:`rollout` (which
    # makes no action objects) play through the very same code.
    def _place_cards(self, cards: tuple[int, ...], key: int) -> None:
        """D8: the turn player places a token of power ``len(cards)`` on ``key``."""
        seat = self._turn
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._discard.extend(cards)
        power = len(cards)
        token = kernel.place_token(self._status, self._key, self._power, seat, key, power)
        self._placed = True
        if self._emit is not None:
            self._emit(_record(Placed, (seat, token % TOKENS_PER_SEAT, key, power, cards)))
        self._arrive(token)

    def _move_token(self, card: int, key: int, steps: int) -> None:
        """D9: the turn player plays ``card`` to move its token on ``key`` by ``steps``."""
        seat = self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        token = kernel.lift(self._board, self._key, key, steps)
        self._moved = True
        if self._emit is not None:
            self._emit(_record(Moved, (seat, token % TOKENS_PER_SEAT, key, self._key[token],
                                       steps, card)))
        self._arrive(token)

    def _shift_tokens(self, card: int, piano: int) -> None:
        """D9: the turn player plays an arrow ``card`` to shift its tokens on ``piano``."""
        seat = self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        step = 1 if CARD_CORNER[card] == _UP else -1
        moves, arriving = kernel.shift(self._board, self._key, seat, piano, step)
        self._pending = arriving
        self._moved = True
        if self._emit is not None:
            self._emit(_record(Shifted, (seat, piano, step, card,
                                         tuple((t % TOKENS_PER_SEAT, a, b) for t, a, b in moves))))
        self._resolve_pending()

    def _arrive(self, token: int) -> bool:
        """Settle a token at its key: free key, merge (D10) or duel (D11). True if a duel."""
        holder = kernel.arrive(self._board, self._key, token)
        if holder < 0:
            return False
        seat = token // TOKENS_PER_SEAT
        if holder // TOKENS_PER_SEAT == seat:
            key = self._key[token]
            lost = kernel.merge(self._key, self._power, self._status, holder, token)
            if self._emit is not None:
                self._emit(_record(Merged, (seat, token % TOKENS_PER_SEAT,
                                            holder % TOKENS_PER_SEAT, key, self._power[holder],
                                            lost)))
            return False
        # D11: a duel; its start is a chance outcome — both sides roll (D11a).
        key = self._key[token]
        self._dkey = key
        self._datt = token
        self._ddef = holder
        self._dadd = [0, 0]
        self._druns = [[], []]
        self._phase = _ATTACK
        if self._emit is not None:
            self._emit(_record(DuelStarted, (key, seat, token % TOKENS_PER_SEAT,
                                             holder % TOKENS_PER_SEAT, self._power[token],
                                             self._power[holder])))
        attack = self._roll(kernel.dice_for_power(self._power[token]))
        defence = self._roll(kernel.dice_for_power(self._power[holder]))
        self._ddice = [attack, defence]
        if self._emit is not None:
            self._emit(_record(DiceRolled, (seat, tuple(attack))))
        if self._emit is not None:
            self._emit(_record(DiceRolled, (1 - seat, tuple(defence))))
        return True

    def _resolve_pending(self) -> None:
        pending = self._pending
        while pending:
            if self._arrive(pending.pop(0)):
                return
        self._phase = _TURN

    def _play_duel_card(self, card: int) -> None:
        """D11b, c: the side to act adds ``card`` to its run."""
        role = self._phase - _ATTACK
        seat = self._turn if role == 0 else 1 - self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._druns[role].append(card)
        corner = CARD_CORNER[card]
        reroll = None
        if corner in (_UP, _DOWN):
            side = role if corner == _UP else 1 - role
            dice = self._ddice[side]
            index = kernel.reroll_index(dice, lowest=corner == _UP)
            old = dice[index]
            dice[index] = self._roll(1)[0]
            owner = seat if side == role else 1 - seat
            reroll = _record(DieRerolled, (seat, owner, index, old, dice[index]))
            effect, amount = ("reroll_own_lowest" if corner == _UP else "reroll_their_highest"), 0
        else:
            amount = 1 if corner == _WILD else corner
            self._dadd[role] += amount
            effect = "add"
        if self._emit is not None:
            self._emit(_record(CardPlayed, (seat, card, effect, amount,
                                            sum(self._ddice[0]) + self._dadd[0],
                                            sum(self._ddice[1]) + self._dadd[1])))
        if reroll is not None and self._emit is not None:
            self._emit(reroll)

    def _do_lock_in(self) -> None:
        if self._phase == _ATTACK:
            self._phase = _DEFEND
            if self._emit is not None:
                self._emit(_record(LockedIn, (self._turn, sum(self._ddice[0]) + self._dadd[0])))
            return
        attack = sum(self._ddice[0]) + self._dadd[0]
        defence = sum(self._ddice[1]) + self._dadd[1]
        if self._emit is not None:
            self._emit(_record(LockedIn, (1 - self._turn, defence)))
        key = self._dkey
        won = kernel.attacker_wins(attack, defence)
        loser = kernel.settle_duel(self._board, self._key, self._status, self._datt,
                                   self._ddef, won)
        winner = self._datt if won else self._ddef
        if self._emit is not None:
            self._emit(_record(DuelWon, (key, winner // TOKENS_PER_SEAT, self._turn, attack,
                                         defence, winner % TOKENS_PER_SEAT,
                                         loser % TOKENS_PER_SEAT)))
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
        if self._emit is not None:
            self._emit(_record(TurnEnded, (seat, not (self._placed or self._moved))))
        self._turns += 1
        if self._final or self._turns >= MAX_TURNS_PER_ROUND:
            self._end_round()
            return
        self._refill(seat)
        if kernel.final_turn_due(self._status, seat):
            self._final = True  # D12: the opponent takes one final turn
            if self._emit is not None:
                self._emit(_record(FinalTurnBegins, (1 - seat, seat)))
        self._turn = 1 - seat
        self._placed = False
        self._moved = False

    def _refill(self, seat: int) -> None:
        hand, draw = self._hands[seat], self._draw
        need = HAND_SIZE - len(hand)
        if need <= 0:
            return
        if len(draw) >= need:  # the usual case: cards are drawn from the end, last first
            drawn = draw[: -need - 1 : -1]
            del draw[-need:]
            hand.extend(drawn)
            if self._emit is not None:
                self._emit(_record(Drew, (seat, tuple(drawn), need)))
            return
        drawn = []
        while len(hand) < HAND_SIZE:
            if not draw:
                if not self._discard:
                    break
                draw.extend(self._discard)
                self._discard.clear()
                _shuffle(self._touch_rng(), draw)
                if self._emit is not None:
                    self._emit(_record(Reshuffled, (len(draw),)))
            card = draw.pop()
            hand.append(card)
            drawn.append(card)
        if drawn and self._emit is not None:
            self._emit(_record(Drew, (seat, tuple(drawn), len(drawn))))

    def _end_round(self) -> None:
        scores = kernel.round_score(self._board, self._power, self._piano)  # D13
        self._totals[0] += scores[0]
        self._totals[1] += scores[1]
        self._round_scores.append(scores)
        if self._emit is not None:  # the breakdown is made only for someone to hear
            rows = kernel.round_breakdown(self._board, self._power, self._piano)
            self._emit(_record(RoundScored, (self._round,
                                             tuple([_record(TokenScore, row) for row in rows]),
                                             tuple(kernel.chord_bonuses(self._board, self._piano)),
                                             scores, (self._totals[0], self._totals[1]),
                                             not self._final)))
        if self._round >= ROUNDS and self._totals[0] != self._totals[1]:
            self._phase = _OVER
            if self._emit is not None:
                self._emit(_record(GameOver, (self.winner, (self._totals[0], self._totals[1]))))
            return
        # D14: the lower scorer starts; after a tied round, whoever moved second.
        self._start_round(self._round + 1, kernel.next_starter(scores, self._starter))

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
            _shuffle(rng, self._piano_deck)
        self._piano = [self._piano_deck.pop(), self._piano_deck.pop()]
        self._clear_round(number, starter)
        deck = list(range(DECK_SIZE))
        _shuffle(rng, deck)
        self._hands = [deck[-1:-2 * HAND_SIZE - 1:-2], deck[-2:-2 * HAND_SIZE - 2:-2]]
        if starter == BLACK:
            self._hands.reverse()
        del deck[-2 * HAND_SIZE:]
        self._draw = deck
        self._discard = []
        if self._emit is not None:
            self._emit(_record(RoundStarted, (number, starter, (self._piano[0], self._piano[1]))))
        for seat in (starter, 1 - starter):
            if self._emit is not None:
                self._emit(_record(Dealt, (seat, tuple(self._hands[seat]), HAND_SIZE)))

    # -- internals: scores -----------------------------------------------------------------
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

    # -- internals: positions as JSON (the format is musicgames.duel.saved's) ------------
    def _position(self) -> dict[str, Any]:
        return dump_position(self)

    @classmethod
    def _from_position(cls, position: object) -> DuelState:
        """A state from a position object, every field checked (BadSavedGameError if not)."""
        state = cls._blank()
        load_position(state, position)
        return state


_ACTION_TYPES = frozenset({Place, Move, Shift, DuelCard, LockIn, EndTurn})
# A placeholder generator for a state being built; every state gets its own before use.
_UNSEEDED = random.Random(0)
# Events are named tuples, built on the hot path with ``tuple.__new__(Class, fields)``:
# the very same object as ``Class(*fields)``, without the Python-level ``__new__``.
_record = tuple.__new__
_new, _set = object.__new__, object.__setattr__  # frozen actions made directly (fast)


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


def _log_event(log: list[dict[str, Any]], event: Event) -> None:
    """Add an event to the plain-JSON log (:attr:`DuelState.log`): one entry per event, but
    a duel's dice join its ``duel`` entry and a reroll joins its ``duel_card`` entry."""
    kind = type(event)
    e: Any = event
    if kind is ActionTaken:
        log.append({"event": "action", "seat": e.seat, "action": e.action.to_json()})
        return
    if kind is DiceRolled:
        entry = log[-1] if log[-1]["event"] == "duel" else log[-2]
        side = "attacker_dice" if e.seat == entry["attacker"] else "defender_dice"
        entry[side] = list(e.dice)
        return
    if kind is DieRerolled:
        log[-1].update(die=e.die, old=e.old, new=e.new)
        return
    if kind is Placed:
        item = {"event": "place", "seat": e.seat, "token": e.token, "key": e.key,
                "power": e.power, "cards": list(e.cards)}
    elif kind is Moved:
        item = {"event": "move", "seat": e.seat, "token": e.token, "from": e.start,
                "to": e.end}
    elif kind is Shifted:
        item = {"event": "shift", "seat": e.seat, "piano": e.piano, "step": e.step,
                "moves": [list(m) for m in e.moves]}
    elif kind is Merged:
        item = {"event": "merge", "seat": e.seat, "token": e.token, "into": e.into,
                "key": e.key, "power": e.power, "lost": e.lost}
    elif kind is DuelStarted:
        item = {"event": "duel", "key": e.key, "attacker": e.attacker,
                "attacker_token": e.attacker_token, "defender_token": e.defender_token,
                "attacker_power": e.attacker_power, "defender_power": e.defender_power,
                "attacker_dice": [], "defender_dice": []}
    elif kind is CardPlayed:
        item = {"event": "duel_card", "seat": e.seat, "card": e.card}
        if e.effect == "add":
            item.update(effect="add", amount=e.amount)
        else:
            item["effect"] = e.effect
    elif kind is LockedIn:
        item = {"event": "lock_in", "seat": e.seat}
    elif kind is DuelWon:
        item = {"event": "duel_result", "key": e.key, "winner": e.winner,
                "attacker_total": e.attacker_total, "defender_total": e.defender_total,
                "beaten_token": e.beaten_token}
    elif kind is TurnEnded:
        item = {"event": "end_turn", "seat": e.seat, "passed": e.passed}
    elif kind is Drew:
        item = {"event": "draw", "seat": e.seat, "cards": list(e.cards)}
    elif kind is Reshuffled:
        item = {"event": "reshuffle", "cards": e.cards}
    elif kind is FinalTurnBegins:
        item = {"event": "final_turn", "seat": e.seat, "placed_all": e.placed_all}
    elif kind is RoundScored:
        item = {"event": "round_end", "round": e.round, "scores": list(e.scores),
                "totals": list(e.totals),
                "board": [[t.seat, t.token, t.key, t.power] for t in e.tokens]}
    elif kind is GameOver:
        item = {"event": "game_over", "winner": e.winner, "totals": list(e.totals)}
    elif kind is RoundStarted:
        item = {"event": "round_start", "round": e.round, "starter": e.starter,
                "piano": list(e.piano)}
    else:  # Dealt
        item = {"event": "deal", "seat": e.seat, "cards": list(e.cards)}
    log.append(item)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards_said(cards: object) -> str:
    if isinstance(cards, tuple) and all(_is_int(c) and 0 <= c < DECK_SIZE for c in cards):
        return " + ".join(str(COMPOSE_DECK[c]) for c in cards) or "no cards"
    return f"cards {short_repr(cards)}"


def _triad_index(t: Triad) -> int:
    for card in PIANO_CARDS:
        if card.triad == t:
            return card.index
    raise BadSavedGameError(f"{short_repr(t)} is not one of the 24 piano cards")
