"""The Keyboard Duel game state: every rule D1–D16 of the rules page.

A game is a :class:`DuelState`. It always says whose decision it is (:attr:`~DuelState.
seat_to_act`) — in a duel that is the attacker, then the defender — lists the legal actions,
and applies an action after checking it, returning the events it caused (typed values,
:mod:`musicgames.duel.events`). A refused action raises a :class:`~musicgames.duel.errors.
DuelError` (a ``ValueError``) naming the action, the reason and the rule, and leaves the
state exactly as it was. Dice
and shuffles come only from the state's own ``random.Random``, seeded when the game is
made, so a game replays exactly from its start and its actions.

>>> game = DuelState.new_game(seed=7)
>>> game.round, game.to_act(), game.phase
(1, (0,), <Phase.TURN: 'turn'>)

A set-up position shows the rules at work: White holds two D cards and a Wild.

>>> from musicgames.duel import DuelCard, EndTurn, LockIn, Place
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
>>> game.seat_to_act, game.hand_size(WHITE)
(1, 5)
>>> game.undo()
EndTurn()
>>> game.seat_to_act, game.hand_size(WHITE)
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
>>> duel.phase, duel.seat_to_act, len(duel.duel.attacker_dice), len(duel.duel.defender_dice)
(<Phase.ATTACK: 'attack'>, 0, 1, 1)
>>> duel.apply(DuelCard(card_ids("D2")[0]))    # adds 2 to White's total
(CardPlayed(seat=0, card=6, effect='add', amount=2, attacker_total=6, defender_total=4),)
>>> duel.apply(LockIn())
(LockedIn(seat=0, total=6),)
>>> duel.phase, duel.seat_to_act, duel.duel.attacker_add
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
from collections.abc import Mapping, Sequence
from typing import Any

from musicgames.duel import legal
from musicgames.duel.actions import Action, action_from_json
from musicgames.duel.cards import (
    CARD_LETTER,
    CARD_STEPS,
    DECK_SIZE,
    PIANO_CARDS,
    PianoCard,
    card_ids,
)
from musicgames.duel.errors import (
    BadSavedGameError,
    BadSeedError,
    DuelError,
    NotAnActionError,
    NothingToUndoError,
    NotYourTurnError,
)
from musicgames.duel.events import ActionTaken, Event
from musicgames.duel.history import History
from musicgames.duel.play import Playing
from musicgames.duel.position import (
    _ATTACK,
    _DEFEND,
    _OVER,
    _PHASES,
    _TURN,
    _UNPLACED,
    BLACK,
    TOKENS_PER_SEAT,
    WHITE,
    _record,
    _seat_name,
    _shuffle,
)
from musicgames.duel.refusals import Checking
from musicgames.duel.saved import MOST_ROUNDS, rng_to_json, whole_number
from musicgames.duel.view import SeatView
from musicgames.protocol import compact, grown_json
from musicgames.shown import short_repr
from musicgames.theory import Triad

__all__ = ["DuelState"]


_FORMAT = "musicgames.duel"
_VERSION = 1


def _saved_item(item: Action | int) -> dict[str, Any]:
    """An item of a save's actions: an action, or a take-back of ``item`` actions."""
    return {"type": "take_back", "count": item} if isinstance(item, int) else item.to_json()


class DuelState(History, Checking, Playing):
    """A game of Keyboard Duel in progress: the whole table, including hidden cards.

    Make one with :meth:`new_game` (or :meth:`from_position` for a set-up position, or
    :meth:`from_json` for a saved game). A computer player should look only at
    :meth:`view` of its seat (D16).
    """

    __slots__ = ()

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
        seeded — all from ``rng`` alone (D16).

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
            other._saved_text = self._saved_text
            other._start = self._start
            other._start_text = self._start_text
        else:
            other._log = []
            other._log_seen = 0
            other._history = []
            other._undo = []
            other._events = []
            other._saved_actions = []
            other._saved_text = (0, "")
            other._start = {}
            other._start_text = None
        other._emit = other._events.append if full else other._out.append
        return other

    # -- who acts, and what they may do ----------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: the one whose decision it is, ``()`` once the game is
        over (the game protocol's form of :attr:`seat_to_act`).

        >>> DuelState.new_game(seed=2).to_act()
        (0,)
        """
        seat = self.seat_to_act
        return () if seat is None else (seat,)

    def returns(self) -> tuple[float, ...]:
        """One number per seat, White's first: each seat's banked total (D13, D15); the
        winner has the higher once the game is over."""
        return (float(self._totals[0]), float(self._totals[1]))

    def legal_actions(self, seat: int | None = None, distinct: bool = False
                      ) -> Sequence[Action]:
        """Every legal action of ``seat`` (default: :attr:`seat_to_act`), and nothing else:
        empty for a seat whose decision it is not, and once the game ends.

        A tuple; in a history-free copy (:meth:`copy`) the turn's actions come as a lazy
        sequence instead, the same actions in the same order, each made when asked for.
        With ``distinct=True`` the seven Wilds count as one card, so actions that differ
        only in which Wild is played appear once (with the lowest Wild ids).
        """
        if seat is not None and seat != self.seat_to_act:
            return ()
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

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Check the action, then play it for :attr:`seat_to_act` (or raise and change nothing).

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
        move_kind, move_steps, letters = legal.MOVE, CARD_STEPS, CARD_LETTER
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

    # -- what a seat sees ----------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see (D16): its own hand, the board, the discards, counts."""
        if seat not in (WHITE, BLACK):
            shown = short_repr(seat)
            raise NotYourTurnError(f"view({shown}) refused: {shown} is not a seat: "
                                   "use 0 (White) or 1 (Black) (D1)",
                                   rule="D1")
        view: SeatView = object.__new__(SeatView)  # frozen: fill its fields directly (fast)
        view.__dict__.update(
            seat=seat,
            to_act=self.seat_to_act,
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
        position = compact(self._position())
        if not self._full:
            start, rest = position, "[]"
        else:
            if self._start_text is None:
                self._start_text = compact(self._start)
            start = self._start_text
            self._saved_text = grown_json(self._saved_text, self._saved_actions, _saved_item)
            rest = f"[{self._saved_text[1]}]"
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

    def replay(self) -> DuelState:
        """A new state made by playing :meth:`actions` again from the start position: the
        same game. A copy made with ``history=False`` keeps no actions: NothingToUndoError."""
        if not self._full:
            raise NothingToUndoError("replay() refused: a history-free copy keeps no actions "
                                     "to play again")
        state = DuelState._from_position(self._start)
        state._start = self._start
        for action in self._history:
            state.apply(action)
        return state


_new, _set = object.__new__, object.__setattr__  # frozen actions made directly (fast)


def _triad_index(t: Triad) -> int:
    for card in PIANO_CARDS:
        if card.triad == t:
            return card.index
    raise BadSavedGameError(f"{short_repr(t)} is not one of the 24 piano cards")
