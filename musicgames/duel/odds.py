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

from collections.abc import Iterable, Sequence
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache

from musicgames.duel.cards import CARD_CORNER

__all__ = [
    "Effect",
    "attacker_win_chance",
    "attacker_win_probability",
    "best_run_chance",
    "chance_after_card",
    "chance_after_each_card",
    "dice_count",
    "effect_of_card",
    "run_options",
    "total_counts",
    "win_chance_now",
]

_FACES = range(1, 7)


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
_CORNER_EFFECTS = {1: Effect.ADD_1, 2: Effect.ADD_2, 3: Effect.ADD_3,
                   4: Effect.REROLL_OWN_LOWEST, 5: Effect.REROLL_THEIR_HIGHEST, 6: Effect.ADD_1}


def effect_of_card(card: int) -> Effect:
    """The duel effect of a Compose card id: 1/2/3 add, ↑ and ↓ reroll, a Wild adds 1.

    >>> effect_of_card(3), effect_of_card(35)
    (<Effect.REROLL_OWN_LOWEST: 'reroll_own_lowest'>, <Effect.ADD_1: 'add_1'>)
    """
    return _CORNER_EFFECTS[CARD_CORNER[card]]


def dice_count(power: int) -> int:
    """Dice rolled by a token of power 1–6: half the power rounded up (D11a).

    >>> [dice_count(p) for p in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    if not isinstance(power, int) or isinstance(power, bool) or not 1 <= power <= 6:
        raise ValueError(f"{power!r} is not a token power: powers go from 1 to 6")
    return (power + 1) // 2


@cache
def total_counts(dice: int) -> tuple[int, ...]:
    """How many of the ``6**dice`` rolls give each total: ``total_counts(n)[t]``.

    >>> total_counts(2)[7], sum(total_counts(2))
    (6, 36)
    """
    if not isinstance(dice, int) or dice < 0:
        raise ValueError(f"{dice!r} is not a number of dice")
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
        raise ValueError(f"{name}={dice!r}: a side rolls one to three dice showing 1–6")
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
    if effect is Effect.REROLL_OWN_LOWEST:
        rest = sum(own) - own[0] + margin
        opp_total = sum(opp)
        return Fraction(sum(_wins(rest + f, opp_total, attacker) for f in _FACES), 6)
    if effect is Effect.REROLL_THEIR_HIGHEST:
        rest = sum(opp) - opp[-1]
        own_total = sum(own) + margin
        return Fraction(sum(_wins(own_total, rest + f, attacker) for f in _FACES), 6)
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
            (_best(_replace(own, 0, f), opp, base + extra, ups - 1, downs, attacker)
             for f in _FACES), Fraction(0)) / 6
    if downs:
        options["reroll_their_highest"] = sum(
            (_best(own, _replace(opp, len(opp) - 1, f), base + extra, ups, downs - 1, attacker)
             for f in _FACES), Fraction(0)) / 6
    return options


def _replace(dice: tuple[int, ...], index: int, face: int) -> tuple[int, ...]:
    changed = list(dice)
    changed[index] = face
    return tuple(sorted(changed))


@lru_cache(maxsize=65536)
def _best(own: tuple[int, ...], opp: tuple[int, ...], margin: int, ups: int, downs: int,
          attacker: bool) -> Fraction:
    now = Fraction(int(_wins(sum(own) + margin, sum(opp), attacker)))
    if now == 1:
        return now
    best = now
    if ups:
        value = sum((_best(_replace(own, 0, f), opp, margin, ups - 1, downs, attacker)
                     for f in _FACES), Fraction(0)) / 6
        best = max(best, value)
    if downs:
        value = sum((_best(own, _replace(opp, len(opp) - 1, f), margin, ups, downs - 1,
                           attacker) for f in _FACES), Fraction(0)) / 6
        best = max(best, value)
    return best
