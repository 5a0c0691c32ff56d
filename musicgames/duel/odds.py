"""Exact duel odds (rule D11), by counting every way the dice can fall — no sampling.

Each side rolls half its token's power rounded up (D11a); the higher total wins and the
attacker wins ties (D11d). Before the roll, the chance that the attacker wins depends only
on the two powers and any known additions:

>>> attacker_win_probability(3, 3)
Fraction(721, 1296)
>>> round(attacker_win_chance(3, 3), 4), round(attacker_win_chance(3, 3, attacker_add=2), 4)
(0.5563, 0.7608)

Once the dice are rolled, every card changes the chance in a way that can be counted
exactly. Here the attacker rolled 2 and 3 against the defender's 6 and 4:

>>> now = dict(own_dice=(2, 3), opp_dice=(6, 4), attacker=True)
>>> win_chance_now(**now)
Fraction(0, 1)
>>> chances = chance_after_each_card(**now)
>>> chances[Effect.ADD_3], chances[Effect.REROLL_OWN_LOWEST], chances[Effect.REROLL_THEIR_HIGHEST]
(Fraction(0, 1), Fraction(0, 1), Fraction(1, 6))

With a 3 and a ↓ in hand, the best the attacker can do, if the defender cannot answer:

>>> best_run_chance(**now, adds=(3,), downs=1)
Fraction(2, 3)

Chances are for the side choosing ("own"): the attacker wins on a tie, the defender needs
more. Functions are cached, so a computer player can ask again and again cheaply.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations

from musicgames.duel.cards import CARD_ADD, CARD_LETTER, CARD_REROLL, DOWN_REROLL, UP_REROLL
from musicgames.duel.errors import NotAnOddsQuestionError
from musicgames.duel.kernel import MAX_POWER, after_reroll, dice_for_power
from musicgames.duel.view import SeatView
from musicgames.shown import short_repr

__all__ = [
    "EXACT_HANDS_LIMIT",
    "MOST_DICE",
    "DuelOdds",
    "Effect",
    "Profile",
    "attacker_win_chance",
    "attacker_win_probability",
    "best_run_chance",
    "chance_after_card",
    "chance_after_each_card",
    "dice_count",
    "duel_odds",
    "effect_of_card",
    "hidden_hands",
    "run_options",
    "run_profile",
    "run_profiles",
    "total_counts",
    "win_chance_now",
]

_FACES = range(1, 7)
#: The most dice one side rolls: a token of power 5 or 6 rolls 3 (D11a).
MOST_DICE = dice_for_power(MAX_POWER)


class Effect(str, Enum):
    """What a card does in a duel (D11b): its corner's job."""

    ADD_1 = "add_1"  #: a 1, or a Wild
    ADD_2 = "add_2"
    ADD_3 = "add_3"
    REROLL_OWN_LOWEST = "reroll_own_lowest"  #: ↑
    REROLL_THEIR_HIGHEST = "reroll_their_highest"  #: ↓

    @property
    def addition(self) -> int:
        """What the card adds to its player's total (0 for the rerolls)."""
        return _ADDITIONS.get(self, 0)


_ADDITIONS = {Effect.ADD_1: 1, Effect.ADD_2: 2, Effect.ADD_3: 3}
_ADDING = {n: e for e, n in _ADDITIONS.items()}
_REROLLS = {UP_REROLL: Effect.REROLL_OWN_LOWEST, DOWN_REROLL: Effect.REROLL_THEIR_HIGHEST}


def effect_of_card(card: int) -> Effect:
    """The duel effect of a Compose card id, as its corner says (``Corner.addition`` and
    ``Corner.reroll``, D11b): 1/2/3 add, ↑ and ↓ reroll, a Wild adds 1.

    >>> effect_of_card(3), effect_of_card(35)
    (<Effect.REROLL_OWN_LOWEST: 'reroll_own_lowest'>, <Effect.ADD_1: 'add_1'>)
    """
    reroll = CARD_REROLL[card]
    return _REROLLS[reroll] if reroll else _ADDING[CARD_ADD[card]]


def dice_count(power: int) -> int:
    """Dice rolled by a token of power 1–6: half the power rounded up (D11a).

    >>> [dice_count(p) for p in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    if not isinstance(power, int) or isinstance(power, bool) or not 1 <= power <= MAX_POWER:
        raise NotAnOddsQuestionError(f"{short_repr(power)} is not a token power: powers go "
                                     f"from 1 to {MAX_POWER} (D8, D10)", rule="D10",
                                     rules=("D8", "D10"))
    return dice_for_power(power)


@cache
def total_counts(dice: int) -> tuple[int, ...]:
    """How many of the ``6**dice`` rolls give each total: ``total_counts(n)[t]``.

    >>> total_counts(2)[7], sum(total_counts(2))
    (6, 36)
    """
    if not isinstance(dice, int) or isinstance(dice, bool) or not 0 <= dice <= MOST_DICE:
        raise NotAnOddsQuestionError(f"{short_repr(dice)} is not a number of dice: a side rolls "
                                     f"0 to {MOST_DICE} (D11a)",
                                     rule="D11a")
    counts = [1]
    for _ in range(dice):
        grown = [0] * (len(counts) + 6)
        for total, ways in enumerate(counts):
            for face in _FACES:
                grown[total + face] += ways
        counts = grown
    return tuple(counts)


@cache
def attacker_win_probability(
    attacker_power: int, defender_power: int, attacker_add: int = 0, defender_add: int = 0
) -> Fraction:
    """The exact chance, before the roll, that the attacker's dice plus ``attacker_add``
    reach the defender's dice plus ``defender_add`` (ties go to the attacker, D11d).

    >>> attacker_win_probability(1, 1)
    Fraction(7, 12)
    >>> attacker_win_probability(6, 1, 0, 30)
    Fraction(0, 1)
    """
    attack = total_counts(dice_count(attacker_power))
    defence = total_counts(dice_count(defender_power))
    # at_most[t] = ways the defender's dice total t or less
    at_most = []
    running = 0
    for ways in defence:
        running += ways
        at_most.append(running)
    wins = 0
    for total, ways in enumerate(attack):
        if ways:
            reach = total + attacker_add - defender_add  # the defender must not exceed this
            if reach >= len(at_most) - 1:
                wins += ways * running
            elif reach >= 0:
                wins += ways * at_most[reach]
    return Fraction(wins, sum(attack) * running)


@lru_cache(maxsize=4096)
def attacker_win_chance(
    attacker_power: int, defender_power: int, attacker_add: int = 0, defender_add: int = 0
) -> float:
    """:func:`attacker_win_probability` as a float (cached, for computer players)."""
    return float(attacker_win_probability(attacker_power, defender_power, attacker_add,
                                          defender_add))


# -- after the roll -------------------------------------------------------------------------


def _wins(own_total: int, opp_total: int, attacker: bool) -> bool:
    return own_total >= opp_total if attacker else own_total > opp_total


def _check_dice(dice: Sequence[int], name: str) -> tuple[int, ...]:
    values = tuple(dice)
    if not 1 <= len(values) <= 3 or not all(isinstance(d, int) and 1 <= d <= 6 for d in values):
        raise NotAnOddsQuestionError(f"{name}={short_repr(dice)}: a side rolls one to three "
                                     "dice showing 1–6 (D11a)", rule="D11a")
    return tuple(sorted(values))


def win_chance_now(
    own_dice: Sequence[int],
    opp_dice: Sequence[int],
    own_add: int = 0,
    opp_add: int = 0,
    *,
    attacker: bool,
) -> Fraction:
    """1 if the choosing side wins when both lock in now, else 0.

    >>> win_chance_now((3,), (3,), attacker=True), win_chance_now((3,), (3,), attacker=False)
    (Fraction(1, 1), Fraction(0, 1))
    """
    own = _check_dice(own_dice, "own_dice")
    opp = _check_dice(opp_dice, "opp_dice")
    return Fraction(int(_wins(sum(own) + own_add, sum(opp) + opp_add, attacker)))


def chance_after_card(
    effect: Effect,
    own_dice: Sequence[int],
    opp_dice: Sequence[int],
    own_add: int = 0,
    opp_add: int = 0,
    *,
    attacker: bool,
) -> Fraction:
    """The exact chance of winning if the chooser plays one card of this effect and then
    nothing more is played by either side.

    >>> chance_after_card(Effect.REROLL_OWN_LOWEST, (1, 5), (4, 4), attacker=True)
    Fraction(2, 3)
    """
    own = _check_dice(own_dice, "own_dice")
    opp = _check_dice(opp_dice, "opp_dice")
    return _after(Effect(effect), own, opp, own_add - opp_add, attacker)


@cache
def _after(effect: Effect, own: tuple[int, ...], opp: tuple[int, ...], margin: int,
           attacker: bool) -> Fraction:
    if effect is Effect.REROLL_OWN_LOWEST or effect is Effect.REROLL_THEIR_HIGHEST:
        way = UP_REROLL if effect is Effect.REROLL_OWN_LOWEST else DOWN_REROLL
        return Fraction(sum(_wins(sum(o) + margin, sum(p), attacker)
                            for o, p in _rerolled(own, opp, way)), 6)
    return Fraction(int(_wins(sum(own) + margin + effect.addition, sum(opp), attacker)))


def chance_after_each_card(
    own_dice: Sequence[int],
    opp_dice: Sequence[int],
    own_add: int = 0,
    opp_add: int = 0,
    *,
    attacker: bool,
) -> dict[Effect, Fraction]:
    """:func:`chance_after_card` for each of the five effects."""
    return {e: chance_after_card(e, own_dice, opp_dice, own_add, opp_add, attacker=attacker)
            for e in Effect}


def best_run_chance(
    own_dice: Sequence[int],
    opp_dice: Sequence[int],
    own_add: int = 0,
    opp_add: int = 0,
    *,
    adds: Iterable[int] = (),
    ups: int = 0,
    downs: int = 0,
    attacker: bool,
) -> Fraction:
    """The best exact chance of winning with these cards left to play, card by card, seeing
    each reroll before the next choice — when the other side will play nothing more.

    That is the defender's whole problem (it plays last, D11c), and the attacker's when
    the defender holds no cards. ``adds`` are the numbers on the adding cards (a Wild is
    1); ``ups`` and ``downs`` count the ↑ and ↓ cards.

    >>> best_run_chance((2,), (5,), attacker=True, ups=2)  # 1 − (2/3)²
    Fraction(5, 9)
    """
    own = _check_dice(own_dice, "own_dice")
    opp = _check_dice(opp_dice, "opp_dice")
    margin = own_add - opp_add + sum(adds)
    return _best(own, opp, margin, ups, downs, attacker)


def run_options(
    own_dice: Sequence[int],
    opp_dice: Sequence[int],
    own_add: int = 0,
    opp_add: int = 0,
    *,
    adds: Iterable[int] = (),
    ups: int = 0,
    downs: int = 0,
    attacker: bool,
) -> dict[str, Fraction]:
    """The best chance after each possible next step, then best play (see
    :func:`best_run_chance`): keys ``"lock_in"`` (with the adds still in hand unplayed),
    ``"add"`` (play every adding card), ``"reroll_own_lowest"`` and
    ``"reroll_their_highest"`` (only when such a card is held).

    >>> options = run_options((2, 3), (4, 4), attacker=False, adds=(2,), ups=1, downs=1)
    >>> [str(options[k]) for k in ("lock_in", "add", "reroll_own_lowest", "reroll_their_highest")]
    ['0', '2/3', '2/3', '11/18']
    """
    own = _check_dice(own_dice, "own_dice")
    opp = _check_dice(opp_dice, "opp_dice")
    base = own_add - opp_add
    extra = sum(adds)
    options = {"lock_in": Fraction(int(_wins(sum(own) + base, sum(opp), attacker)))}
    if extra:
        options["add"] = _best(own, opp, base + extra, ups, downs, attacker)
    if ups:
        options["reroll_own_lowest"] = sum(
            (_best(o, p, base + extra, ups - 1, downs, attacker)
             for o, p in _rerolled(own, opp, UP_REROLL)), Fraction(0)) / 6
    if downs:
        options["reroll_their_highest"] = sum(
            (_best(o, p, base + extra, ups, downs - 1, attacker)
             for o, p in _rerolled(own, opp, DOWN_REROLL)), Fraction(0)) / 6
    return options


@cache
def _rerolled(own: tuple[int, ...], opp: tuple[int, ...], way: int
              ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Both sides' dice after a reroll that way (D11b), for each face the new die may show."""
    return tuple(after_reroll(own, opp, way, face) for face in _FACES)


@lru_cache(maxsize=65536)
def _best(own: tuple[int, ...], opp: tuple[int, ...], margin: int, ups: int, downs: int,
          attacker: bool) -> Fraction:
    now = Fraction(int(_wins(sum(own) + margin, sum(opp), attacker)))
    if now == 1:
        return now
    best = now
    if ups:
        value = sum((_best(o, p, margin, ups - 1, downs, attacker)
                     for o, p in _rerolled(own, opp, UP_REROLL)), Fraction(0)) / 6
        best = max(best, value)
    if downs:
        value = sum((_best(o, p, margin, ups, downs - 1, attacker)
                     for o, p in _rerolled(own, opp, DOWN_REROLL)), Fraction(0)) / 6
        best = max(best, value)
    return best


# -- honest odds: the other side's best reply, and runs from the whole hand ------------------

#: A duel run's effects: the additions (sorted), the number of ↑ and of ↓ cards.
Profile = tuple[tuple[int, ...], int, int]

#: Hidden hands are enumerated exactly when there are at most this many; else sampled.
EXACT_HANDS_LIMIT = 3003


def run_profiles(hand: Iterable[int], letter: int = -1) -> tuple[Profile, ...]:
    """The runs a hand can play in a duel (D11b), as profiles: for each letter in the hand,
    its cards plus every Wild (a Wild adds 1); Wilds alone if the hand holds no letter.
    With ``letter`` ≥ 0 the run is already tied to that letter. Only the whole run of a
    letter is listed: adding a card never lowers a chance, so a best play uses them all
    (rerolls chosen one at a time, seeing each die).

    >>> from musicgames.duel.cards import card_ids
    >>> run_profiles(card_ids("D1 D↑ E3 Wild"))
    (((1, 1), 1, 0), ((1, 3), 0, 0))
    """
    cards = tuple(hand)
    wilds = [c for c in cards if CARD_LETTER[c] < 0]
    letters = [letter] if letter >= 0 else sorted({CARD_LETTER[c] for c in cards} - {-1})
    if not letters:
        return (run_profile(wilds),) if wilds else ()
    return tuple(run_profile([c for c in cards if CARD_LETTER[c] == x] + wilds) for x in letters)


def run_profile(run: Iterable[int]) -> Profile:
    """What a run of cards does in a duel (D11b), as its corners say: the additions (sorted),
    the number of ↑ (reroll one's own lowest die) and of ↓ (the opponent's highest).

    >>> from musicgames.duel.cards import card_ids
    >>> run_profile(card_ids("D1 D↑ D↓ Wild D3"))
    ((1, 1, 3), 1, 1)
    """
    adds: list[int] = []
    ups = downs = 0
    for card in run:
        reroll = CARD_REROLL[card]
        if reroll == UP_REROLL:
            ups += 1
        elif reroll == DOWN_REROLL:
            downs += 1
        else:
            adds.append(CARD_ADD[card])
    return tuple(sorted(adds)), ups, downs


def hidden_hands(unseen: Sequence[int], size: int, *, samples: int = 400, seed: int = 0
                 ) -> tuple[tuple[tuple[Fraction, tuple[Profile, ...]], ...], bool]:
    """The hands the other seat may hold — ``size`` cards from the ``unseen`` ones, all
    equally likely (D16) — as ``(weight, the runs it could play)``, and whether that is
    exact. Every hand is listed when there are at most :data:`EXACT_HANDS_LIMIT`; else
    ``samples`` hands are dealt from ``random.Random(seed)`` (the same answer every time).

    >>> from musicgames.duel.cards import card_ids
    >>> hands, exact = hidden_hands(card_ids("D1 D2 E1"), 1)   # D1 and E1 do the same
    >>> exact, [(str(w), p) for w, p in hands]
    (True, [('2/3', (((1,), 0, 0),)), ('1/3', (((2,), 0, 0),))])
    """
    pool = list(unseen)
    size = max(0, min(size, len(pool)))
    counts: dict[tuple[Profile, ...], int] = {}
    if math.comb(len(pool), size) <= EXACT_HANDS_LIMIT:
        hands: Iterable[Sequence[int]] = combinations(pool, size)
        exact = True
    else:
        rng = random.Random(seed)
        hands = [rng.sample(pool, size) for _ in range(samples)]
        exact = False
    total = 0
    for hand in hands:
        runs = run_profiles(hand)
        counts[runs] = counts.get(runs, 0) + 1
        total += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return tuple((Fraction(n, total), runs) for runs, n in ordered), exact


@dataclass(frozen=True)
class DuelOdds:
    """Honest odds for the side about to play in a duel (D11), from what it can see.

    * ``now`` — the chance to win if it locks in now, the other side then answering with
      its best run from the cards it could hold (none for a defender: it plays last);
    * ``best`` — the best chance reachable with a run from the current hand: every adding
      card of one letter plus Wilds, and each reroll chosen after seeing the dice so far;
    * ``after_card`` — for each card it may play next, the best chance after playing it
      first (then playing on at its best);
    * ``exact`` — False when the other side's hidden hand was sampled, not enumerated.
    """

    attacker: bool
    now: Fraction
    best: Fraction
    after_card: dict[int, Fraction]
    exact: bool


def duel_odds(view: object, *, samples: int = 400, seed: int = 0) -> DuelOdds:
    """Honest odds for the seat of ``view`` (a :class:`~musicgames.duel.view.SeatView`) when
    it is its decision in a duel. The attacker's chances count the defender's best reply
    over every hand the defender could hold (:func:`hidden_hands`); the defender's are
    exact, as the attacker has locked in (D11c).
    """
    if not isinstance(view, SeatView) or view.duel is None or view.to_act != view.seat:
        raise NotAnOddsQuestionError("duel_odds needs the view of the seat whose decision it "
                                     "is in a duel (D11)", rule="D11")
    duel = view.duel
    attacker = view.seat == duel.attacker
    if attacker:
        own, opp = duel.attacker_dice, duel.defender_dice
        margin = duel.attacker_add - duel.defender_add
        run = duel.attacker_run
        hands, exact = hidden_hands(view.unseen_cards(), view.hand_sizes[duel.defender],
                                    samples=samples, seed=seed)
    else:
        own, opp = duel.defender_dice, duel.attacker_dice
        margin = duel.defender_add - duel.attacker_add
        run = duel.defender_run
        hands, exact = (), True
    tied = -1
    for card in run:
        if CARD_LETTER[card] >= 0:
            tied = CARD_LETTER[card]
            break
    solver = _Solver(attacker, hands)
    own_t, opp_t = tuple(sorted(own)), tuple(sorted(opp))
    now = solver.lock(own_t, opp_t, margin)
    best = now
    for profile in run_profiles(view.hand, tied):
        best = max(best, solver.value(own_t, opp_t, margin, profile))
    after: dict[int, Fraction] = {}
    for card in sorted(set(view.hand)):
        letter = CARD_LETTER[card]
        if tied >= 0 and letter >= 0 and letter != tied:
            continue
        rest = [c for c in view.hand if c != card]
        tie = tied if tied >= 0 else letter
        options = run_profiles(rest, tie) if tie >= 0 else run_profiles(rest)
        options = options or (((), 0, 0),)
        if tie < 0 and letter < 0:  # a Wild first: the run may still take any letter
            options = tuple(options) + (run_profile([c for c in rest if CARD_LETTER[c] < 0]),)
        after[card] = max(solver.after(card, own_t, opp_t, margin, p) for p in options)
    return DuelOdds(attacker, now, best, after, exact)


class _Solver:
    """Best play of one side's run, card by card, against the other side's best reply."""

    def __init__(self, attacker: bool,
                 hands: Sequence[tuple[Fraction, tuple[Profile, ...]]]) -> None:
        self.attacker = attacker
        self.hands = hands
        self.memo: dict[tuple[object, ...], Fraction] = {}

    def lock(self, own: tuple[int, ...], opp: tuple[int, ...], margin: int) -> Fraction:
        """The chance to win after locking in with these dice and this margin."""
        if not self.attacker:
            return Fraction(int(_wins(sum(own) + margin, sum(opp), False)))
        key = (own, opp, margin)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        lost = Fraction(0)
        for weight, runs in self.hands:
            answer = max((_best(opp, own, -margin + sum(adds), ups, downs, False)
                          for adds, ups, downs in runs), default=Fraction(0))
            # With no run the defender's chance is whether it is ahead already (it is not:
            # ties go to the attacker) — _best with nothing to play gives exactly that.
            answer = max(answer, _best(opp, own, -margin, 0, 0, False))
            lost += weight * answer
        value = 1 - lost if self.hands else self._unanswered(own, opp, margin)
        self.memo[key] = value
        return value

    @staticmethod
    def _unanswered(own: tuple[int, ...], opp: tuple[int, ...], margin: int) -> Fraction:
        return Fraction(int(_wins(sum(own) + margin, sum(opp), True)))

    def value(self, own: tuple[int, ...], opp: tuple[int, ...], margin: int,
              profile: Profile) -> Fraction:
        """The best chance with this run still in hand: all additions, rerolls as they pay."""
        adds, ups, downs = profile
        return self._reroll(own, opp, margin + sum(adds), ups, downs)

    def _reroll(self, own: tuple[int, ...], opp: tuple[int, ...], margin: int, ups: int,
                downs: int) -> Fraction:
        key = ("r", own, opp, margin, ups, downs)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        best = self.lock(own, opp, margin)
        if best < 1 and ups:
            best = max(best, sum((self._reroll(o, p, margin, ups - 1, downs)
                                  for o, p in _rerolled(own, opp, UP_REROLL)), Fraction(0)) / 6)
        if best < 1 and downs:
            best = max(best, sum((self._reroll(o, p, margin, ups, downs - 1)
                                  for o, p in _rerolled(own, opp, DOWN_REROLL)), Fraction(0)) / 6)
        self.memo[key] = best
        return best

    def after(self, card: int, own: tuple[int, ...], opp: tuple[int, ...], margin: int,
              profile: Profile) -> Fraction:
        """The best chance after playing ``card`` first (its corner's effect, D11b), then
        ``profile`` (the rest of the run) as well as possible."""
        adds, ups, downs = profile
        margin += sum(adds)
        reroll = CARD_REROLL[card]
        if reroll:
            return sum((self._reroll(o, p, margin, ups, downs)
                        for o, p in _rerolled(own, opp, reroll)), Fraction(0)) / 6
        return self._reroll(own, opp, margin + CARD_ADD[card], ups, downs)
