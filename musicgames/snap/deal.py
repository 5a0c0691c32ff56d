"""The deal of Note Snap (S4): the shuffle from a seed, piles checked, piles stacked.

>>> piles = shuffled_piles(7, 3, opener=2)
>>> [len(p) for p in piles]                      # one card at a time from the opener (S4)
[19, 18, 19]
>>> checked_piles(piles, 3, 2) == piles
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from musicgames.shown import short_repr
from musicgames.snap.cards import DECK_SIZE
from musicgames.snap.errors import ConfigError, SeatError

__all__ = ["checked_opener", "checked_piles", "seeded", "shuffled_piles", "stacked_deal"]


def seeded(seed: object) -> random.Random:
    """The ``random.Random`` a game draws from: ``seed`` itself, or one seeded by a whole
    number (the same number, the same shuffle).

    >>> seeded(3).random() == random.Random(3).random()
    True
    """
    if isinstance(seed, random.Random):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed={short_repr(seed)} is not a whole number or a random.Random: "
                          "pass one, so that the game can be played again")
    return random.Random(seed)


def checked_opener(opener: object, players: int) -> int:
    """``opener`` if it is a seat of a table of ``players`` (S5), else a :class:`SeatError`."""
    if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < players:
        raise SeatError(f"opener={short_repr(opener)} is not a seat: this table has seats "
                        f"0–{players - 1}", rule="S5")
    return opener


def shuffled_piles(seed: object, players: int, opener: int = 0) -> list[list[int]]:
    """Shuffle with ``seed`` (a whole number or a ``random.Random``) and deal all 56 cards
    one at a time from the opener, as evenly as possible (S4); each pile bottom to top."""
    rng = seeded(seed)
    checked_opener(opener, players)
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    # one card at a time from the opener: the card at position i goes to seat opener + i
    return [deck[(seat - opener) % players::players] for seat in range(players)]


def checked_piles(hands: object, players: int, opener: object) -> list[list[int]]:
    """The piles ``hands`` as lists, once checked: one per seat, each of the 56 cards
    exactly once (S4), and the opener holding a card (S5)."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ConfigError(f"hands={short_repr(hands)} is not a list of piles", rule="S4")
    if len(hands) != players:
        raise ConfigError(f"hands has {len(hands)} piles for {players} players: give one per "
                          "seat", rule="S4")
    piles: list[list[int]] = []
    seen: set[int] = set()
    for seat, pile in enumerate(hands):
        if isinstance(pile, (str, bytes)) or not isinstance(pile, Sequence):
            raise ConfigError(f"hands[{seat}]={short_repr(pile)} is not a list of card ids",
                              rule="S4")
        for card in pile:
            if isinstance(card, bool) or not isinstance(card, int):
                raise ConfigError(f"hands[{seat}] holds {short_repr(card)}, which is not "
                                  "a card id", rule="S4")
            if not 0 <= card < DECK_SIZE:
                raise ConfigError(f"hands[{seat}] holds card {short_repr(card)}: card ids "
                                  "go 0–55", rule="S4")
            if card in seen:
                raise ConfigError(f"hands[{seat}] holds card {card}, which is dealt twice",
                                  rule="S4")
            seen.add(card)
        piles.append(list(pile))
    if len(seen) != DECK_SIZE:
        missing = sorted(set(range(DECK_SIZE)) - seen)
        raise ConfigError(f"the deal leaves out cards {missing}: deal all 56 (S4)", rule="S4")
    seat = checked_opener(opener, players)
    if not piles[seat]:
        raise ConfigError(f"opener={seat} has no cards to flip", rule="S5")
    return piles


def stacked_deal(first_flips: Sequence[Sequence[int]]) -> list[list[int]]:
    """Piles for :meth:`~musicgames.snap.SnapState.from_deal` whose first flips are the
    cards you choose.

    ``first_flips[seat]`` lists the cards that seat will flip first, in order; the rest
    of the deck is shared out, in card order, underneath. Handy to show one rule at work.

    >>> piles = stacked_deal([[0, 8], [16]])      # seat 0 flips Do3 then Re3; seat 1 Mi3
    >>> [p[-2:] for p in piles], sum(map(len, piles))
    ([[8, 0], [54, 16]], 56)
    """
    chosen = [card for cards in first_flips for card in cards]
    if len(set(chosen)) != len(chosen):
        raise ConfigError(f"first_flips={short_repr(first_flips)} names a card twice",
                          rule="S4")
    for card in chosen:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise ConfigError(f"first_flips names {short_repr(card)}, which is not a card id "
                              "0–55", rule="S4")
    n = len(first_flips)
    if n == 0:
        raise ConfigError("first_flips is empty: give one list per seat", rule="S4")
    taken = set(chosen)
    rest = [card for card in range(DECK_SIZE) if card not in taken]
    return [rest[seat::n] + list(reversed(first_flips[seat])) for seat in range(n)]
