"""Computer players for Keyboard Duel: Random, Casual and Sharp (rules page, "Computer
opponents").

A computer player is a :class:`Bot`. It decides from one seat's :class:`~musicgames.duel.
view.SeatView` only — its own hand, the board, the discards and counts, never the other
hand or the draw order (D16) — and from a seeded ``random.Random``. Ask it for the action
of the seat whose decision it is, in a turn or in a duel (as attacker or defender):

>>> from musicgames.duel import DuelState
>>> game = DuelState.new_game(seed=3)
>>> bot = SharpBot(seed=1)
>>> action = bot.choose(game.view(game.to_act))
>>> action in game.legal_actions()
True

The three levels:

* :class:`RandomBot` picks uniformly among the legal actions: a baseline.
* :class:`CasualBot` weighs every placement and movement it could make, one action at a
  time, and picks loosely among the good ones (a softmax over their values), never
  giving points away for nothing. In a duel it uses the exact odds, spends at most a
  budget of cards that grows with what the key is worth, and lets some duels go without
  spending anything — but not an attack on a key worth 6 or more that a run could answer.
* :class:`SharpBot` weighs every Place and Move and the best second action after each of
  its best first ones, values each resulting board by the score, the threats the opponent
  will have on its next turn and how many tokens each side can still place, and plays the
  best line. In a duel it works out, card by card and exactly, whether adding or
  rerolling raises its chance of winning more, and plays a card only while the gain in
  chance times what the key is worth pays for the card.

How a board is valued. Every figure is in points of this round, from the deciding seat's
side: the running score difference (D13), minus the expected loss to the opponent's best
attack next turn (worked out from the hidden cards' *distribution*: the cards this seat has
not seen, dealt at random), plus a small value per token each side will still get to place
before the round ends (D12). Duels are counted with their exact odds (:mod:`musicgames.
duel.odds`) against the defender's best answer from a hand dealt from the unseen cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from musicgames.duel import kernel, legal
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
from musicgames.duel.errors import BadSeedError, NotYourTurnError
from musicgames.duel.kernel import Table, chord_bonuses, outcomes, round_score, settle_duel
from musicgames.duel.odds import attacker_win_chance, best_run_chance, duel_odds
from musicgames.duel.view import SeatView
from musicgames.shown import short_repr

__all__ = [
    "BOT_NAMES",
    "WORTH_ANSWERING",
    "Bot",
    "CasualBot",
    "RandomBot",
    "SharpBot",
    "UnknownBot",
    "answer_is_useful",
    "defended_worth",
    "gives_points_away",
    "make_bot",
]

_TOKENS = kernel.TOKENS_PER_SEAT
_UNPLACED, _ON_BOARD, _MERGED, _BEATEN = (kernel.UNPLACED, kernel.ON_BOARD, kernel.MERGED,
                                         kernel.BEATEN)
_UP, _DOWN, _WILD = 4, 5, 6
_MAX_POWER = 6
_FACES = (1, 2, 3, 4, 5, 6)
#: The letter (0–6) whose white key has each pitch class, or 7 for a black key.
_KEY_LETTER = tuple(LETTER_PITCH_CLASSES.index(pc) if pc in LETTER_PITCH_CLASSES else 7
                    for pc in range(KEYS_PER_CARD))
_END_TURN = EndTurn()
_LOCK_IN = LockIn()

#: Cards in a hand the bot has not seen: dealt from the unseen pile this many times to
#: model the other seat's duel answer.
_DEFENCE_SAMPLES = 24


class UnknownBot(ValueError):
    """A computer player's name that is not one of :data:`BOT_NAMES`."""


class Bot(Protocol):
    """A computer player: ``choose(view, rng)`` returns a legal action for the seat whose
    decision it is (``view.to_act == view.seat``)."""

    name: str

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """The action this player takes now, decided from ``view`` and ``rng`` alone."""
        ...


def _check_view(view: SeatView) -> tuple[Action, ...]:
    actions = view.legal_actions()
    if not actions:
        who = "nobody (the game is over)" if view.to_act is None else f"seat {view.to_act}"
        raise NotYourTurnError(
            f"seat {view.seat} has no decision to make now: it is {who}'s; ask the computer "
            "player with the view of the seat whose decision it is"
        )
    return actions


class _SeededBot:
    """Shared by the three levels: a name, and the generator used when ``choose`` is given
    none (``seed`` is an int, or a ``random.Random`` to draw from)."""

    name = "bot"

    def __init__(self, seed: int | random.Random = 0) -> None:
        if isinstance(seed, random.Random):
            self.rng = seed
        elif isinstance(seed, int) and not isinstance(seed, bool):
            self.rng = random.Random(seed)
        else:
            raise BadSeedError(f"seed must be an int or a random.Random, not {short_repr(seed)}")
        self.seed = seed

    def __repr__(self) -> str:
        if isinstance(self.seed, int):
            return f"{type(self).__name__}(seed={short_repr(self.seed)})"
        return f"{type(self).__name__}(seed=random.Random(...))"

    def _rng(self, rng: random.Random | None) -> random.Random:
        return self.rng if rng is None else rng


class RandomBot(_SeededBot):
    """Picks uniformly among the legal actions (a baseline to measure the others by).

    >>> from musicgames.duel import DuelState
    >>> game = DuelState.new_game(seed=2)
    >>> RandomBot(seed=5).choose(game.view(0)) in game.legal_actions()
    True
    """

    name = "Random"

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """A legal action chosen uniformly at random."""
        actions = _check_view(view)
        return actions[self._rng(rng).randrange(len(actions))]


# -- trying actions: the rules kernel's table ----------------------------------------------
# The look-ahead plays actions with the rules kernel (musicgames.duel.kernel), the same code
# the game state plays with; a duel it meets is split into its two chance outcomes.


def _table(view: SeatView) -> Table:
    """The public board plus this seat's hand, to try actions on."""
    return Table(list(view.board), list(view.token_keys), list(view.token_powers),
                 list(view.token_states), list(view.hand), view.placed, view.moved)


# -- loose, not careless: what a beginner would not do ------------------------------------


def gives_points_away(view: SeatView, action: Action) -> bool:
    """True if ``action`` moves this seat's tokens for nothing: a Move or Shift that starts
    no duel and makes no merge, gains no chord bonus (D13), and leaves the seat's running
    score lower — a token moved to a key of lower value (D4), "Do fff → Re".

    >>> from musicgames.duel import DuelState, Move, card_ids
    >>> game = DuelState.from_position(piano=(0, 1), hands=("D1 E2", "F1"),
    ...                                tokens=([(0, 2), (2, 1)], []))   # C major on the left
    >>> gives_points_away(game.view(0), Move(card_ids("D1")[0], 0, 1))   # C (fff) to D♭
    True
    >>> gives_points_away(game.view(0), Move(card_ids("E2")[0], 2, 2))   # D to E (ff)
    False
    """
    if type(action) not in (Move, Shift):
        return False
    seat = view.seat
    before = _table(view)
    duels: list[int] = []

    def duel(table: Table, attacker: int, defender: int) -> list[tuple[float, Table]]:
        duels.append(attacker)
        return [(1.0, table)]

    (_, after), *rest = outcomes(before, action, seat, duel)
    if duels or rest or after.status.count(_MERGED) > before.status.count(_MERGED):
        return False
    piano = view.piano
    gained = sum(1 for s, _ in chord_bonuses(after.board, piano) if s == seat)
    held = sum(1 for s, _ in chord_bonuses(before.board, piano) if s == seat)
    if gained > held:
        return False
    return (round_score(after.board, after.power, piano)[seat]
            < round_score(before.board, before.power, piano)[seat])


#: A defender answers an attack on a token that scores at least this much (D13) whenever
#: a run in its hand raises its chance of keeping the key.
WORTH_ANSWERING = 6


def defended_worth(view: SeatView) -> int:
    """What the defender's token in the duel being fought scores now: power × the key's
    multiplier (D4, D13); 0 outside a duel."""
    duel = view.duel
    if duel is None:
        return 0
    return duel.defender_power * view.key_multiplier(duel.key)


def answer_is_useful(view: SeatView) -> bool:
    """True for a defender to play (D11c) holding a run that raises its chance of winning
    the duel (exact odds: the attacker has locked in)."""
    duel = view.duel
    if duel is None or view.seat != duel.defender or view.to_act != view.seat:
        return False
    odds = duel_odds(view)
    return odds.best > odds.now


# -- what a hand can do in a duel ----------------------------------------------------------


def _runs(hand: Sequence[int], letter: int = -1) -> list[tuple[int, ...]]:
    """The cards each possible duel run could use: one letter plus the Wilds (D11b).

    With ``letter`` ≥ 0 the run is already tied to that letter.
    """
    wilds = tuple(c for c in hand if CARD_LETTER[c] < 0)
    if letter >= 0:
        return [tuple(c for c in hand if CARD_LETTER[c] == letter) + wilds]
    letters = sorted({CARD_LETTER[c] for c in hand} - {-1})
    runs = [tuple(c for c in hand if CARD_LETTER[c] == x) + wilds for x in letters]
    if not runs:
        runs = [wilds]
    return runs


def _profile(run: Sequence[int]) -> tuple[tuple[int, ...], int, int]:
    """A run's duel effects: the additions (sorted), the ↑ count and the ↓ count."""
    adds: list[int] = []
    ups = downs = 0
    for card in run:
        corner = CARD_CORNER[card]
        if corner == _UP:
            ups += 1
        elif corner == _DOWN:
            downs += 1
        else:
            adds.append(1 if corner == _WILD else corner)
    return tuple(sorted(adds)), ups, downs


#: Rough worth of a reroll card in points of total when planning before the dice fall.
_REROLL_WORTH = 1.0


def _run_strength(run: Sequence[int]) -> float:
    adds, ups, downs = _profile(run)
    return sum(adds) + _REROLL_WORTH * (ups + downs)


def _best_run(hand: Sequence[int]) -> tuple[int, ...]:
    runs = _runs(hand)
    return max(runs, key=_run_strength) if runs else ()


# -- the exact duel decision ----------------------------------------------------------------


def _hypergeometric(pool: int, good: int, drawn: int) -> list[float]:
    """P(exactly c good cards) for c = 0..drawn, drawing ``drawn`` of ``pool`` cards."""
    total = math.comb(pool, drawn) if 0 <= drawn <= pool else 0
    if total == 0:
        return [1.0]
    return [math.comb(good, c) * math.comb(pool - good, drawn - c) / total
            for c in range(drawn + 1)]


def _at_least_one(pool: int, good: int, drawn: int) -> float:
    if drawn <= 0 or good <= 0:
        return 0.0
    if drawn > pool:
        drawn = pool
    return 1.0 - math.comb(pool - good, drawn) / math.comb(pool, drawn)


def _sorted_with(dice: tuple[int, ...], index: int, face: int) -> tuple[int, ...]:
    changed = list(dice)
    changed[index] = face
    changed.sort()
    return tuple(changed)


@dataclass
class _DuelPlan:
    """The best choice of one side in a duel under a cost per card, worked out exactly."""

    stake: float  # points between winning and losing this duel
    card_cost: float  # points one card is worth to this side now
    attacker: bool
    #: For the attacker: chance, after locking in, that the defender fails to beat it.
    lock_chance: Callable[[tuple[int, ...], tuple[int, ...], int], float]
    memo: dict[tuple[object, ...], float] = field(default_factory=dict)

    def value(self, own: tuple[int, ...], opp: tuple[int, ...], margin: int,
              adds: tuple[int, ...], ups: int, downs: int) -> float:
        """Expected points (stake × chance − cards' cost) of the best play from here."""
        memo_key = (own, opp, margin, adds, ups, downs)
        cached = self.memo.get(memo_key)
        if cached is not None:
            return cached
        best = self.stake * self.lock_chance(own, opp, margin)
        for choice in self.choices(adds, ups, downs):
            v = self.after(choice, own, opp, margin, adds, ups, downs) - self.card_cost
            if v > best:
                best = v
        self.memo[memo_key] = best
        return best

    @staticmethod
    def choices(adds: tuple[int, ...], ups: int, downs: int) -> list[int]:
        """Distinct next cards: an addition 1–3, or 4 (↑) / 5 (↓)."""
        out = sorted(set(adds))
        if ups:
            out.append(_UP)
        if downs:
            out.append(_DOWN)
        return out

    def after(self, choice: int, own: tuple[int, ...], opp: tuple[int, ...], margin: int,
              adds: tuple[int, ...], ups: int, downs: int) -> float:
        """Expected value of playing ``choice`` now and the best play after it."""
        if choice == _UP:
            return sum(self.value(_sorted_with(own, 0, f), opp, margin, adds, ups - 1, downs)
                       for f in _FACES) / 6
        if choice == _DOWN:
            return sum(self.value(own, _sorted_with(opp, len(opp) - 1, f), margin, adds, ups,
                                  downs - 1) for f in _FACES) / 6
        rest = list(adds)
        rest.remove(choice)
        return self.value(own, opp, margin + choice, tuple(rest), ups, downs)


def _defender_lock(own: tuple[int, ...], opp: tuple[int, ...], margin: int) -> float:
    return 1.0 if sum(own) + margin > sum(opp) else 0.0


# -- the planning context: everything one decision needs ------------------------------------


@dataclass(frozen=True)
class _Weights:
    """The knobs of a level's judgement (points of this round)."""

    threat: float = 1.0  # how much of the opponent's expected attack next turn is counted
    second_threat: float = 0.3  # share counted of its second-best attack
    token_worth: float = 3.5  # worth of one more token a side will place before round end
    defence_bonus: int = 1  # additions the defender is expected to find, when judging threats
    alternative_mult: float = 1.5  # what the attacker's cards would have scored elsewhere
    defender_card_cost: float = 1.2  # a defender's card is missing from its next turn
    attacker_card_cost: float = 0.25  # an attacker refills at the end of its turn
    attacker_card_cost_mid: float = 0.6  # … but may still need the card this turn
    defender_answers: float = 0.9  # chance a defender answers an attack with its cards


class _Context:
    """One decision's view of the game, with the tables every evaluation shares."""

    def __init__(self, view: SeatView, rng: random.Random, weights: _Weights) -> None:
        self.view = view
        self.seat = view.seat
        self.opp = 1 - view.seat
        self.rng = rng
        self.w = weights
        left = PIANO_CARDS[view.piano[0]].multipliers
        right = PIANO_CARDS[view.piano[1]].multipliers
        self.mult: tuple[int, ...] = tuple(left) + tuple(right)
        self.chords: tuple[tuple[int, ...], ...] = tuple(
            tuple(side * KEYS_PER_CARD + pc for pc in PIANO_CHORD_PITCH_CLASSES[view.piano[side]])
            for side in (0, 1)
        )
        # The round ends after this turn when it is the final turn or the 60th (D12).
        self.last_turn = view.final_turn or view.turn_number >= 60
        self.unseen = view.unseen_cards()
        self.opp_hand = view.hand_sizes[self.opp]
        self._threat_tables: tuple[list[list[float]], list[float]] | None = None
        self._samples: list[list[tuple[tuple[int, ...], int, int]]] | None = None
        self._attack_memo: dict[tuple[int, int, int], float] = {}
        self._lock_memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], float] = {}
        self._eval_memo: dict[tuple[int, ...], float] = {}
        self._place_memo: dict[tuple[int, int], float] = {}
        self._win: list[list[float]] | None = None

    # -- scores --------------------------------------------------------------------------
    def score_diff(self, b: Table) -> int:
        """This seat's running score minus the opponent's (D13)."""
        board, power, mult = b.board, b.power, self.mult
        diff = 0
        seat_first = self.seat * _TOKENS
        for k in range(BOARD_KEYS):
            t = board[k]
            if t >= 0:
                v = power[t] * mult[k]
                diff += v if seat_first <= t < seat_first + _TOKENS else -v
        for chord in self.chords:
            a, c, e = board[chord[0]], board[chord[1]], board[chord[2]]
            if a >= 0 and c >= 0 and e >= 0:
                s = a // _TOKENS
                if c // _TOKENS == s and e // _TOKENS == s:
                    diff += 1 if s == self.seat else -1
        return diff

    # -- the hidden hand's threat --------------------------------------------------------
    def threat_tables(self) -> tuple[list[list[float]], list[float]]:
        """For each letter (and 7: Wilds alone, for black keys) the distribution of how many
        cards the opponent could place on that key; and for each distance 1–3 the chance it
        holds a card that moves that far."""
        if self._threat_tables is None:
            pool, h = len(self.unseen), self.opp_hand
            letter_count = [0] * 8
            corner_count = [0] * 7
            for c in self.unseen:
                letter = CARD_LETTER[c]
                letter_count[7 if letter < 0 else letter] += 1
                corner_count[CARD_CORNER[c]] += 1
            wild = letter_count[7]
            place = [_hypergeometric(pool, letter_count[x] + wild, h) for x in range(7)]
            place.append(_hypergeometric(pool, wild, h))
            move = [0.0,
                    _at_least_one(pool, corner_count[1] + corner_count[_WILD], h),
                    _at_least_one(pool, corner_count[2], h),
                    _at_least_one(pool, corner_count[3], h)]
            self._threat_tables = (place, move)
        return self._threat_tables

    def place_threat(self, key: int, power: int) -> float:
        """Expected gain of the opponent's best Place on this seat's token (power, key)."""
        memo_key = (key, power)
        cached = self._place_memo.get(memo_key)
        if cached is not None:
            return cached
        place, _ = self.threat_tables()
        letter = _KEY_LETTER[key % KEYS_PER_CARD]
        dist = place[letter]
        m = self.mult[key]
        win = self.win_table()
        alt = self.w.alternative_mult
        v = 0.0
        for c in range(1, len(dist)):
            if dist[c]:
                gain = win[min(c, _MAX_POWER)][power] * (c + power) * m - c * alt
                if gain > 0:
                    v += dist[c] * gain
        self._place_memo[memo_key] = v
        return v

    def win_table(self) -> list[list[float]]:
        """``[attacker power][defender power]``: the attacker's chance before the roll, the
        defender expected to find :attr:`_Weights.defence_bonus` in additions."""
        if self._win is None:
            bonus = self.w.defence_bonus
            self._win = [[0.0] * (_MAX_POWER + 1)] + [
                [0.0] + [attacker_win_chance(a, d, 0, bonus) for d in range(1, _MAX_POWER + 1)]
                for a in range(1, _MAX_POWER + 1)
            ]
        return self._win

    def threat(self, b: Table) -> float:
        """Expected points the opponent takes from this seat with its next turn's attacks."""
        _, move = self.threat_tables()
        win = self.win_table()
        w = self.w
        board, power, mult, key, status = b.board, b.power, self.mult, b.keys, b.status
        first = self.seat * _TOKENS
        opp_first = self.opp * _TOKENS
        opp_tokens = [(key[t], power[t]) for t in range(opp_first, opp_first + _TOKENS)
                      if status[t] == _ON_BOARD and board[key[t]] == t]
        opp_can_place = _UNPLACED in status[opp_first:opp_first + _TOKENS]
        place_best = place_second = move_best = move_second = 0.0
        for t in range(first, first + _TOKENS):
            k = key[t]
            if status[t] != _ON_BOARD or board[k] != t:
                continue
            p = power[t]
            if opp_can_place:
                v = self.place_threat(k, p)
                if v > place_best:
                    place_best, place_second = v, place_best
                elif v > place_second:
                    place_second = v
            best = 0.0
            for ok, q in opp_tokens:
                d = (k - ok) % BOARD_KEYS
                if d > 12:
                    d = BOARD_KEYS - d
                if d <= 3 and move[d]:
                    gain = move[d] * (win[q][p] * (q + p) * mult[k] - q * mult[ok])
                    if gain > best:
                        best = gain
            if best > move_best:
                move_best, move_second = best, move_best
            elif best > move_second:
                move_second = best
        total = place_best + move_best + w.second_threat * (place_second + move_second)
        return w.threat * total

    # -- what each side will still place ---------------------------------------------------
    def future_tokens(self, b: Table) -> int:
        """Tokens this seat will still place minus the opponent's, if both place one a turn
        (the opponent moves next; the round ends a turn after one has placed all five)."""
        me = b.status[self.seat * _TOKENS:(self.seat + 1) * _TOKENS].count(_UNPLACED)
        them = b.status[self.opp * _TOKENS:(self.opp + 1) * _TOKENS].count(_UNPLACED)
        if me == 0:
            return -min(them, 1)
        if them <= me:
            return min(me, them) - them
        return me - min(them, me + 1)

    # -- a board at the end of this seat's turn ---------------------------------------------
    def evaluate(self, b: Table) -> float:
        """Points this seat expects to be ahead by at round end, from this board, with the
        opponent to move next."""
        memo_key = (*b.board, *b.power, *b.status)
        cached = self._eval_memo.get(memo_key)
        if cached is not None:
            return cached
        value = float(self.score_diff(b))
        if not self.last_turn:
            value -= self.threat(b)
            value += self.w.token_worth * self.future_tokens(b)
        self._eval_memo[memo_key] = value
        return value

    # -- duels while planning -----------------------------------------------------------------
    def defence_samples(self) -> list[list[tuple[tuple[int, ...], int, int]]]:
        """Duel runs of hands dealt at random from the unseen cards (the opponent's hand is
        one of these, as far as this seat can tell)."""
        if self._samples is None:
            pool = list(self.unseen)
            h = min(self.opp_hand, len(pool))
            samples = []
            for _ in range(_DEFENCE_SAMPLES):
                hand = self.rng.sample(pool, h)
                profiles = {_profile(run) for run in _runs(hand)}
                samples.append(sorted(profiles))
            self._samples = samples
        return self._samples

    def attacker_lock_chance(self, own: tuple[int, ...], opp: tuple[int, ...],
                             margin: int) -> float:
        """Chance the attacker wins after locking in: the defender (hand unknown, dealt from
        the unseen cards) answers with its best run, card by card, exactly (D11c)."""
        memo_key = (own, opp, margin)
        cached = self._lock_memo.get(memo_key)
        if cached is not None:
            return cached
        lost = 0.0
        cache: dict[tuple[tuple[int, ...], int, int], float] = {}
        samples = self.defence_samples()
        for profiles in samples:
            best = 0.0
            for profile in profiles:
                chance = cache.get(profile)
                if chance is None:
                    adds, ups, downs = profile
                    chance = float(best_run_chance(opp, own, 0, margin, adds=adds, ups=ups,
                                                   downs=downs, attacker=False))
                    cache[profile] = chance
                if chance > best:
                    best = chance
            lost += best
        answers = self.w.defender_answers
        unanswered = 0.0 if sum(own) + margin >= sum(opp) else 1.0
        value = 1.0 - answers * lost / len(samples) - (1.0 - answers) * unanswered
        self._lock_memo[memo_key] = value
        return value

    def attack_chance(self, attacker_power: int, defender_power: int, strength: int) -> float:
        """Chance, before the roll, that an attack with this much run strength wins against
        the defender's answer (hidden hand dealt from the unseen cards)."""
        memo_key = (attacker_power, defender_power, strength)
        cached = self._attack_memo.get(memo_key)
        if cached is not None:
            return cached
        dist = self.defence_strength()
        answered = sum(p * attacker_win_chance(attacker_power, defender_power, strength, x)
                       for x, p in dist.items())
        answers = self.w.defender_answers
        value = (answers * answered
                 + (1.0 - answers) * attacker_win_chance(attacker_power, defender_power,
                                                         strength, 0))
        self._attack_memo[memo_key] = value
        return value

    def defence_strength(self) -> dict[int, float]:
        """How many points the defender's best run adds, over the sampled hands."""
        counts: dict[int, float] = {}
        samples = self.defence_samples()
        for profiles in samples:
            best = max((sum(a) + _REROLL_WORTH * (u + d) for a, u, d in profiles), default=0.0)
            x = round(best)
            counts[x] = counts.get(x, 0.0) + 1.0 / len(samples)
        return counts

    def planning_duel(self, b: Table, attacker: int, defender: int) -> list[tuple[float,
                                                                                  Table]]:
        """Split a duel this seat starts into its two outcomes (used while planning)."""
        run = _best_run(b.hand)
        strength = round(_run_strength(run))
        p = self.attack_chance(b.power[attacker], b.power[defender], strength)
        for card in run:  # the attacker is expected to throw its best run in
            b.hand.remove(card)
        win = b.copy()
        settle_duel(win.board, win.keys, win.status, attacker, defender, True)
        settle_duel(b.board, b.keys, b.status, attacker, defender, False)
        return [(p, win), (1.0 - p, b)]


# -- the two thinking levels -----------------------------------------------------------------


class _Thinker(_SeededBot):
    """What Casual and Sharp share: valuing boards, and duels with the exact odds."""

    weights = _Weights()

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """The action this level takes now (a turn action, or a card or LockIn in a duel)."""
        actions = _check_view(view)
        if len(actions) == 1:
            return actions[0]
        ctx = _Context(view, self._rng(rng), self.weights)
        if view.duel is None:
            return self.turn_action(ctx, actions)
        return self.duel_action(ctx, actions)

    def turn_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError

    def duel_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError

    # -- the value of a single turn action --------------------------------------------------
    def outcomes(self, ctx: _Context, b: Table, action: Action) -> list[tuple[float, Table]]:
        return outcomes(b, action, ctx.seat, ctx.planning_duel)

    def end_value(self, ctx: _Context, b: Table, action: Action) -> float:
        """Expected value of playing ``action`` and then ending the turn."""
        if type(action) is EndTurn:
            return ctx.evaluate(b)
        return sum(p * ctx.evaluate(after) for p, after in self.outcomes(ctx, b, action))

    # -- duels -------------------------------------------------------------------------------
    def duel_stake(self, ctx: _Context) -> float:
        """Points between this seat winning and losing the duel now being fought."""
        view = ctx.view
        duel = view.duel
        assert duel is not None
        b = _table(view)
        attacker = duel.attacker * _TOKENS + duel.attacker_token
        defender = duel.defender * _TOKENS + duel.defender_token
        win, lose = b.copy(), b.copy()
        settle_duel(win.board, win.keys, win.status, attacker, defender, True)
        settle_duel(lose.board, lose.keys, lose.status, attacker, defender, False)
        stake = float(abs(ctx.score_diff(win) - ctx.score_diff(lose)))
        if not ctx.last_turn:
            stake += abs(ctx.threat(win) - ctx.threat(lose)) * 0.5
        return stake + 1.0  # a beaten token is one fewer to fight with

    def card_cost(self, ctx: _Context, attacking: bool) -> float:
        """What one card spent in this duel costs this seat (D11f)."""
        view = ctx.view
        w = self.weights
        if attacking:
            if ctx.last_turn:
                return 0.0
            if not (view.placed and view.moved):
                return w.attacker_card_cost_mid
            return w.attacker_card_cost
        # The defender's cards are missing from its next turn — unless the round ends first.
        if view.final_turn or view.turn_number >= 60:
            return 0.0
        return w.defender_card_cost

    def duel_plan(self, ctx: _Context, stake: float, cost: float) -> tuple[
            _DuelPlan, tuple[int, ...], tuple[int, ...], int, list[tuple[int, ...]]]:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        if attacking:
            own, opp = duel.attacker_dice, duel.defender_dice
            margin = duel.attacker_add - duel.defender_add
            run = duel.attacker_run
            lock: Callable[[tuple[int, ...], tuple[int, ...], int], float] = \
                ctx.attacker_lock_chance
        else:
            own, opp = duel.defender_dice, duel.attacker_dice
            margin = duel.defender_add - duel.attacker_add
            run = duel.defender_run
            lock = _defender_lock
        plan = _DuelPlan(stake, cost, attacking, lock)
        runs = _runs(view.hand, legal.run_letter(run))
        return plan, tuple(sorted(own)), tuple(sorted(opp)), margin, runs


def _card_for(choice: int, run: Sequence[int]) -> int:
    """A card of ``run`` doing ``choice`` (1–3 add, 4 ↑, 5 ↓); lettered cards before Wilds."""
    if choice in (_UP, _DOWN):
        return next(c for c in run if CARD_CORNER[c] == choice)
    lettered = [c for c in run if CARD_LETTER[c] >= 0 and CARD_CORNER[c] == choice]
    if lettered:
        return lettered[0]
    return next(c for c in run if CARD_LETTER[c] < 0)


class SharpBot(_Thinker):
    """Plays the best line it sees: every Place and Move, the best second action after its
    best first ones, the opponent's answer next turn; in a duel, card by card, whichever of
    adding and rerolling raises its chance of winning more (exact odds), while it pays.

    >>> from musicgames.duel import DuelState, Place, card_ids
    >>> game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 D3 E1 F2", "C1"),
    ...                                tokens=([], [(14, 1)]))
    >>> str(SharpBot().choose(game.view(0)))
    'Place D1 + D2 + D3 on D (left)'
    """

    name = "Sharp"
    #: First actions of each kind whose best second action is searched.
    beam = 30

    def turn_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        b = _table(view)
        distinct = view.legal_actions(distinct=True)
        scored: list[tuple[float, int, Action, list[tuple[float, Table]]]] = []
        for i, action in enumerate(distinct):
            if type(action) is EndTurn:
                scored.append((ctx.evaluate(b), i, action, []))
                continue
            outs = self.outcomes(ctx, b, action)
            scored.append((sum(p * ctx.evaluate(a) for p, a in outs), i, action, outs))
        best_value, _, best, _ = max(scored, key=lambda s: (s[0], -s[1]))
        if not (view.placed or view.moved):
            # Search second actions after the best first actions of each kind.
            places = sorted((s for s in scored if type(s[2]) is Place),
                            key=lambda s: (-s[0], s[1]))[: self.beam]
            moves = sorted((s for s in scored if type(s[2]) in (Move, Shift)),
                           key=lambda s: (-s[0], s[1]))[: self.beam]
            for _, _, action, outs in places + moves:
                total = 0.0
                for p, after in outs:
                    total += p * self.best_second(ctx, after)
                if total > best_value + 1e-9:
                    best_value, best = total, action
        return best

    def best_second(self, ctx: _Context, b: Table) -> float:
        """Value of the best way to finish the turn from ``b`` (a second action or none)."""
        best = ctx.evaluate(b)
        seat = ctx.seat
        for action in legal.turn_actions(seat, b.hand, b.status, b.board, b.placed, b.moved,
                                         True):
            if type(action) is EndTurn:
                continue
            v = sum(p * ctx.evaluate(a) for p, a in self.outcomes(ctx, b, action))
            if v > best:
                best = v
        return best

    def duel_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        stake = self.duel_stake(ctx)
        cost = self.card_cost(ctx, attacking)
        plan, own, opp, margin, runs = self.duel_plan(ctx, stake, cost)
        lock_value = stake * plan.lock_chance(own, opp, margin)
        best_value = lock_value
        best_action: Action = _LOCK_IN
        for run in runs:
            adds, ups, downs = _profile(run)
            for choice in plan.choices(adds, ups, downs):
                v = plan.after(choice, own, opp, margin, adds, ups, downs) - cost
                if v > best_value + 1e-9:
                    best_value, best_action = v, DuelCard(_card_for(choice, run))
        return best_action


class CasualBot(_Thinker):
    """Makes loose choices, as a beginner does, but not careless ones: it weighs every Place
    and Move on its own (no second action, a lighter eye on threats) and picks among the
    few best at random, the better the likelier — never moving a token to a lower-value
    key for nothing (:func:`gives_points_away`). In a duel it uses the exact odds one card
    ahead, spends at most a budget of cards that grows with the key's worth, and lets some
    duels go; but an attack on a token worth 6 points or more it always answers when a
    run in its hand helps (:data:`WORTH_ANSWERING`, :func:`answer_is_useful`).

    >>> from musicgames.duel import DuelState
    >>> game = DuelState.new_game(seed=4)
    >>> CasualBot(seed=2).choose(game.view(0)) in game.legal_actions()
    True
    """

    name = "Casual"
    #: It picks among this many of the best-looking actions …
    top = 4
    #: … at random, the better the likelier: a softmax with this temperature, in points.
    temperature = 2.0
    #: Chance of letting a duel go: playing no card at all.
    let_go = 0.35
    #: Points of stake per duel card it is willing to spend.
    points_per_card = 5.0
    weights = _Weights(threat=0.5, second_threat=0.0)

    def turn_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        b = _table(view)
        distinct = view.legal_actions(distinct=True)
        # Loose, not careless: it never moves a token to a lower-value key for nothing
        # (unless nothing else is allowed, D7).
        kept = [a for a in distinct if not gives_points_away(view, a)] or list(distinct)
        scored = sorted(((self.end_value(ctx, b, a), i, a) for i, a in enumerate(kept)),
                        key=lambda s: (-s[0], s[1]))[: self.top]
        best = scored[0][0]
        weights = [math.exp((value - best) / self.temperature) for value, _, _ in scored]
        return ctx.rng.choices([a for _, _, a in scored], weights=weights)[0]

    def duel_action(self, ctx: _Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        run = duel.attacker_run if attacking else duel.defender_run
        if not attacking and defended_worth(view) >= WORTH_ANSWERING:
            # An attack on a key worth 6 or more is answered whenever a run helps: the
            # card that leaves the best chance, until no card raises it (exact odds).
            odds = duel_odds(view)
            if odds.best > odds.now:
                return DuelCard(max(sorted(odds.after_card),
                                    key=lambda c: (odds.after_card[c], -c)))
            return _LOCK_IN
        # Decide once per duel whether to let it go: on the first card of this seat's run.
        if not run and ctx.rng.random() < self.let_go:
            return _LOCK_IN
        stake = self.duel_stake(ctx)
        budget = max(1, int(stake / self.points_per_card))
        if len(run) >= budget:
            return _LOCK_IN
        plan, own, opp, margin, runs = self.duel_plan(ctx, stake, 0.0)
        # Greedy, one card ahead: the card with the best exact chance if play stopped after it.
        now = plan.lock_chance(own, opp, margin)
        best_chance = now
        best_action: Action = _LOCK_IN
        for cards in runs:
            adds, ups, downs = _profile(cards)
            for choice in plan.choices(adds, ups, downs):
                if choice == _UP:
                    chance = sum(plan.lock_chance(_sorted_with(own, 0, f), opp, margin)
                                 for f in _FACES) / 6
                elif choice == _DOWN:
                    chance = sum(plan.lock_chance(own, _sorted_with(opp, len(opp) - 1, f),
                                                  margin) for f in _FACES) / 6
                else:
                    chance = plan.lock_chance(own, opp, margin + choice)
                if chance > best_chance + 1e-9:
                    best_chance, best_action = chance, DuelCard(_card_for(choice, cards))
        return best_action


#: The computer players by name, weakest first.
BOT_NAMES: tuple[str, ...] = ("random", "casual", "sharp")
_BOTS: dict[str, type[_SeededBot]] = {"random": RandomBot, "casual": CasualBot,
                                      "sharp": SharpBot}


def make_bot(name: str, seed: int | random.Random = 0) -> Bot:
    """A computer player by name (``'random'``, ``'casual'`` or ``'sharp'``, any case).

    >>> make_bot("Sharp").name
    'Sharp'
    >>> make_bot("expert")
    Traceback (most recent call last):
    ...
    musicgames.duel.bots.UnknownBot: 'expert' is not a computer player: use random, casual or sharp
    """
    try:
        cls = _BOTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownBot(f"{name!r} is not a computer player: use "
                         f"{', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]}") from None
    bot: Bot = cls(seed)  # type: ignore[assignment]
    return bot

