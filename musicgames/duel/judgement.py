"""How the computer players judge Keyboard Duel: a board's worth, a hidden hand's threat,
and a duel's best play, worked out from one seat's view (D16).

Every figure is in points of this round, from the deciding seat's side: the running score
difference (D13, :func:`musicgames.duel.kernel.round_score`), minus the expected loss to the
opponent's best attack next turn (worked out from the hidden cards' *distribution*: the cards
this seat has not seen, dealt at random), plus a small value per token each side will still
get to place before the round ends (D12). Duels are counted with their exact odds
(:mod:`musicgames.duel.odds`) against the defender's best answer from a hand dealt from the
unseen cards. The players themselves are in :mod:`musicgames.duel.bots`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from musicgames.duel import kernel
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_LETTER,
    CARD_STEPS,
    CHORD_TONE_MULTIPLIERS,
    DOWN_REROLL,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
    PIANO_CARDS,
    UP_REROLL,
)
from musicgames.duel.kernel import Table, settle_duel
from musicgames.duel.odds import Effect, attacker_win_chance, best_run_chance, run_profile
from musicgames.duel.view import SeatView

__all__ = [
    "FACES",
    "REROLL_OWN",
    "REROLL_THEIRS",
    "Context",
    "DuelPlan",
    "Weights",
    "defender_lock",
    "duel_runs",
    "rerolled",
    "seat_table",
]

_TOKENS = kernel.TOKENS_PER_SEAT
_UNPLACED, _ON_BOARD = kernel.UNPLACED, kernel.ON_BOARD
_MAX_POWER = kernel.MAX_POWER
#: The faces of a die.
FACES = (1, 2, 3, 4, 5, 6)
#: The two rerolls a duel card can make (D11b), as a plan's choices name them.
REROLL_OWN, REROLL_THEIRS = Effect.REROLL_OWN_LOWEST, Effect.REROLL_THEIR_HIGHEST
#: The letter (0–6) whose white key has each pitch class, or 7 for a black key.
_KEY_LETTER = tuple(LETTER_PITCH_CLASSES.index(pc) if pc in LETTER_PITCH_CLASSES else 7
                    for pc in range(KEYS_PER_CARD))
#: Cards in a hand the bot has not seen: dealt from the unseen pile this many times to
#: model the other seat's duel answer.
_DEFENCE_SAMPLES = 24


# -- trying actions: the rules kernel's table ----------------------------------------------
# The look-ahead plays actions with the rules kernel (musicgames.duel.kernel), the same code
# the game state plays with; a duel it meets is split into its two chance outcomes.


def seat_table(view: SeatView) -> Table:
    """The public board plus this seat's hand, to try actions on."""
    return Table(list(view.board), list(view.token_keys), list(view.token_powers),
                 list(view.token_states), list(view.hand), view.placed, view.moved)


# -- what a hand can do in a duel ----------------------------------------------------------


def duel_runs(hand: Sequence[int], letter: int = -1) -> list[tuple[int, ...]]:
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


#: Rough worth of a reroll card in points of total when planning before the dice fall.
REROLL_WORTH = 1.0


def run_strength(run: Sequence[int]) -> float:
    adds, ups, downs = run_profile(run)
    return sum(adds) + REROLL_WORTH * (ups + downs)


def best_run(hand: Sequence[int]) -> tuple[int, ...]:
    runs = duel_runs(hand)
    return max(runs, key=run_strength) if runs else ()


# -- the exact duel decision ----------------------------------------------------------------


def hypergeometric(pool: int, good: int, drawn: int) -> list[float]:
    """P(exactly c good cards) for c = 0..drawn, drawing ``drawn`` of ``pool`` cards."""
    total = math.comb(pool, drawn) if 0 <= drawn <= pool else 0
    if total == 0:
        return [1.0]
    return [math.comb(good, c) * math.comb(pool - good, drawn - c) / total
            for c in range(drawn + 1)]


def at_least_one(pool: int, good: int, drawn: int) -> float:
    if drawn <= 0 or good <= 0:
        return 0.0
    if drawn > pool:
        drawn = pool
    return 1.0 - math.comb(pool - good, drawn) / math.comb(pool, drawn)


@cache
def _points_table(points: Callable[[int, int], int]) -> list[list[int]]:
    """What a token of each power (two merged: at most 12) scores on a key of each multiplier
    (0–3): the rule's own figures (D13, ``kernel.token_points``, passed in so that the table
    is made again if the rule is), looked up in the look-ahead's loops."""
    return [[points(power, mult) for mult in range(max(CHORD_TONE_MULTIPLIERS) + 1)]
            for power in range(2 * _MAX_POWER + 1)]


@cache
def rerolled(own: tuple[int, ...], opp: tuple[int, ...], way: int
             ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Both sides' dice after a reroll that way (``UP_REROLL`` or ``DOWN_REROLL``, D11b), for
    each face the new die may show (:func:`musicgames.duel.kernel.after_reroll`; kept, as
    a duel's few dice give few cases)."""
    return tuple(kernel.after_reroll(own, opp, way, face) for face in FACES)


@dataclass
class DuelPlan:
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
    def choices(adds: tuple[int, ...], ups: int, downs: int) -> list[int | Effect]:
        """Distinct next cards: an addition 1–3, or a reroll (↑ one's own lowest die, ↓ the
        opponent's highest, D11b)."""
        out: list[int | Effect] = list(sorted(set(adds)))
        if ups:
            out.append(REROLL_OWN)
        if downs:
            out.append(REROLL_THEIRS)
        return out

    def after(self, choice: int | Effect, own: tuple[int, ...], opp: tuple[int, ...],
              margin: int, adds: tuple[int, ...], ups: int, downs: int) -> float:
        """Expected value of playing ``choice`` now and the best play after it."""
        if choice is REROLL_OWN:
            return sum(self.value(o, p, margin, adds, ups - 1, downs)
                       for o, p in rerolled(own, opp, UP_REROLL)) / 6
        if choice is REROLL_THEIRS:
            return sum(self.value(o, p, margin, adds, ups, downs - 1)
                       for o, p in rerolled(own, opp, DOWN_REROLL)) / 6
        assert isinstance(choice, int)
        rest = list(adds)
        rest.remove(choice)
        return self.value(own, opp, margin + choice, tuple(rest), ups, downs)


def defender_lock(own: tuple[int, ...], opp: tuple[int, ...], margin: int) -> float:
    return 1.0 if sum(own) + margin > sum(opp) else 0.0


# -- the planning context: everything one decision needs ------------------------------------


@dataclass(frozen=True)
class Weights:
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


class Context:
    """One decision's view of the game, with the tables every evaluation shares."""

    def __init__(self, view: SeatView, rng: random.Random, weights: Weights) -> None:
        self.view = view
        self.seat = view.seat
        self.opp = 1 - view.seat
        self.rng = rng
        self.w = weights
        left = PIANO_CARDS[view.piano[0]].multipliers
        right = PIANO_CARDS[view.piano[1]].multipliers
        self.mult: tuple[int, ...] = tuple(left) + tuple(right)
        self.piano = view.piano
        self.chords = kernel.board_layout(view.piano)[1]
        self.points = _points_table(kernel.token_points)
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
        """This seat's running score minus the opponent's (D13): each token's points and each
        chord bonus, as :func:`kernel.round_score` counts them."""
        board, power, mult, points = b.board, b.power, self.mult, self.points
        diff = 0
        seat_first = self.seat * _TOKENS
        for k in range(BOARD_KEYS):
            t = board[k]
            if t >= 0:
                v = points[power[t]][mult[k]]
                diff += v if seat_first <= t < seat_first + _TOKENS else -v
        for keys in self.chords:  # the chord bonus (D13): the seat holding all three keys
            seat = kernel.chord_holder(board, keys)
            if seat >= 0:
                diff += 1 if seat == self.seat else -1
        return diff

    # -- the hidden hand's threat --------------------------------------------------------
    def threat_tables(self) -> tuple[list[list[float]], list[float]]:
        """For each letter (and 7: Wilds alone, for black keys) the distribution of how many
        cards the opponent could place on that key; and for each distance 1–3 the chance it
        holds a card that moves that far."""
        if self._threat_tables is None:
            pool, h = len(self.unseen), self.opp_hand
            letter_count = [0] * 8
            steps_count = [0] * 4
            for c in self.unseen:
                letter = CARD_LETTER[c]
                letter_count[7 if letter < 0 else letter] += 1
                steps_count[CARD_STEPS[c]] += 1  # how far the card moves a token (D9)
            wild = letter_count[7]
            place = [hypergeometric(pool, letter_count[x] + wild, h) for x in range(7)]
            place.append(hypergeometric(pool, wild, h))
            move = [0.0] + [at_least_one(pool, steps_count[d], h) for d in (1, 2, 3)]
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
        points = self.points
        v = 0.0
        for c in range(1, len(dist)):
            if dist[c]:
                gain = win[min(c, _MAX_POWER)][power] * points[c + power][m] - c * alt
                if gain > 0:
                    v += dist[c] * gain
        self._place_memo[memo_key] = v
        return v

    def win_table(self) -> list[list[float]]:
        """``[attacker power][defender power]``: the attacker's chance before the roll, the
        defender expected to find :attr:`Weights.defence_bonus` in additions."""
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
        points = self.points
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
                    gain = move[d] * (win[q][p] * points[q + p][mult[k]] - points[q][mult[ok]])
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
                profiles = {run_profile(run) for run in duel_runs(hand)}
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
            best = max((sum(a) + REROLL_WORTH * (u + d) for a, u, d in profiles), default=0.0)
            x = round(best)
            counts[x] = counts.get(x, 0.0) + 1.0 / len(samples)
        return counts

    def planning_duel(self, b: Table, attacker: int, defender: int) -> list[tuple[float,
                                                                                  Table]]:
        """Split a duel this seat starts into its two outcomes (used while planning)."""
        run = best_run(b.hand)
        strength = round(run_strength(run))
        p = self.attack_chance(b.power[attacker], b.power[defender], strength)
        for card in run:  # the attacker is expected to throw its best run in
            b.hand.remove(card)
        win = b.copy()
        settle_duel(win.board, win.keys, win.status, attacker, defender, True)
        settle_duel(b.board, b.keys, b.status, attacker, defender, False)
        return [(p, win), (1.0 - p, b)]
