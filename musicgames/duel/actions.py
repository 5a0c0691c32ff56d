"""The things a Keyboard Duel player can do: small frozen values, equal when they do the same.

* :class:`Place` — play cards and put a new token on a key (D8);
* :class:`Move` — play a number card (or a Wild, which counts 1) to move one token (D9);
* :class:`Shift` — play an arrow card to shift all your tokens on one piano card (D9);
* :class:`DuelCard` — play one card into your duel run (D11b, c);
* :class:`LockIn` — finish your duel run (D11b, c);
* :class:`EndTurn` — finish your turn and refill your hand (D7); with nothing done and
  nothing possible this is the pass of D7.

Cards are Compose card ids (0–41, see :mod:`musicgames.duel.cards`); keys are 0–23.

>>> Place((36, 6), key=2)
Place(cards=(6, 36), key=2)
>>> for action in (Place((6, 36), key=2), Move(7, key=2, steps=-3), Shift(8, piano=1)):
...     print(action)
Place D2 + Wild on D (left)
Move D3: the token on D (left) 3 keys left
Shift D↑: right card
>>> action_from_json(Move(7, key=2, steps=-3).to_json())
Move(card=7, key=2, steps=-3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from musicgames.duel.cards import COMPOSE_DECK, key_name
from musicgames.duel.errors import NotAnActionError
from musicgames.shown import short_repr

__all__ = [
    "Action",
    "DuelCard",
    "EndTurn",
    "LockIn",
    "Move",
    "Place",
    "Shift",
    "action_from_json",
]


def _card_label(card: object) -> str:
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(COMPOSE_DECK):
        return str(COMPOSE_DECK[card])
    return f"card {short_repr(card)}"


def _cards_label(cards: object) -> str:
    if isinstance(cards, tuple | list):
        return " + ".join(_card_label(c) for c in cards) or "no cards"
    return f"cards {short_repr(cards)}"


def _key_label(key: object) -> str:
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < 24:
        return key_name(key)
    return f"key {short_repr(key)}"


@dataclass(frozen=True, slots=True)
class Place:
    """Play ``cards`` (one letter plus any Wilds, or Wilds alone) and place a token on ``key``.

    The cards are kept sorted, so the same cards in any order make the same action.
    """

    cards: tuple[int, ...]
    key: int

    def __post_init__(self) -> None:
        try:
            normal = tuple(sorted(self.cards))
        except TypeError:
            return  # left as given: the engine names what is wrong with it
        if normal != self.cards:
            object.__setattr__(self, "cards", normal)

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "place", "cards": [...], "key": k}``."""
        return {"type": "place", "cards": list(self.cards), "key": self.key}

    def __str__(self) -> str:
        return f"Place {_cards_label(self.cards)} on {_key_label(self.key)}"


@dataclass(frozen=True, slots=True)
class Move:
    """Play a number card or a Wild to move your token on ``key`` by ``steps`` keys.

    ``steps`` is negative to the left, positive to the right, and its size must be the
    card's number (1 for a Wild). Movement wraps from key 23 to key 0 and back (D2).
    """

    card: int
    key: int
    steps: int

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "move", "card": c, "key": k, "steps": s}``."""
        return {"type": "move", "card": self.card, "key": self.key, "steps": self.steps}

    def __str__(self) -> str:
        steps = self.steps
        if not _is_int(steps):
            return (f"Move {_card_label(self.card)}: the token on {_key_label(self.key)} "
                    f"by steps {short_repr(steps)}")
        direction = "right" if steps > 0 else "left"
        size = abs(steps)
        return (
            f"Move {_card_label(self.card)}: the token on {_key_label(self.key)} "
            f"{size} key{'s' if size != 1 else ''} {direction}"
        )


@dataclass(frozen=True, slots=True)
class Shift:
    """Play an arrow card: every token of yours on piano card ``piano`` (0 left, 1 right)
    moves one key right (↑) or left (↓)."""

    card: int
    piano: int

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "shift", "card": c, "piano": p}``."""
        return {"type": "shift", "card": self.card, "piano": self.piano}

    def __str__(self) -> str:
        piano = self.piano
        side = (("left card", "right card")[piano] if _is_int(piano) and piano in (0, 1)
                else f"piano {short_repr(piano)}")
        return f"Shift {_card_label(self.card)}: {side}"


@dataclass(frozen=True, slots=True)
class DuelCard:
    """Play one card into your run in the current duel; it takes effect at once (D11b)."""

    card: int

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "duel_card", "card": c}``."""
        return {"type": "duel_card", "card": self.card}

    def __str__(self) -> str:
        return f"Duel card {_card_label(self.card)}"


@dataclass(frozen=True, slots=True)
class LockIn:
    """Finish your run in the current duel (D11b, c)."""

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "lock_in"}``."""
        return {"type": "lock_in"}

    def __str__(self) -> str:
        return "Lock in"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Finish your turn; your hand refills to five (D7)."""

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object: ``{"type": "end_turn"}``."""
        return {"type": "end_turn"}

    def __str__(self) -> str:
        return "End turn"


#: Any Keyboard Duel action.
Action = Place | Move | Shift | DuelCard | LockIn | EndTurn

_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    "place": (Place, ("cards", "key")),
    "move": (Move, ("card", "key", "steps")),
    "shift": (Shift, ("card", "piano")),
    "duel_card": (DuelCard, ("card",)),
    "lock_in": (LockIn, ()),
    "end_turn": (EndTurn, ()),
}


def action_from_json(data: object) -> Action:
    """Read an action from its :meth:`to_json` form, checking every field's type.

    >>> action_from_json({"type": "place", "cards": [3, 35], "key": 0})
    Place(cards=(3, 35), key=0)
    >>> action_from_json({"type": "fly"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.duel.errors.NotAnActionError: {'type': 'fly'} is not an action: 'type' must be ...
    """
    shown = short_repr(data)
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise NotAnActionError(
            f"{shown} is not an action: 'type' must be one of {', '.join(_FIELDS)} (D7–D11)",
        rule="D11", rules=("D7", "D11")
        )
    assert isinstance(data, dict)
    cls, fields = _FIELDS[kind]
    if set(data) != {"type", *fields}:
        raise NotAnActionError(f"{shown} is not an action: a {kind} has the fields "
                               f"{', '.join(fields) or 'none'} (D7–D11)",
                               rule="D11", rules=("D7", "D11"))
    values: dict[str, Any] = {}
    for name in fields:
        value = data[name]
        if name == "cards":
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise NotAnActionError(f"{shown} is not an action: 'cards' must be a list of "
                                       "card ids (D8)",
                                       rule="D8")
            value = tuple(value)
        elif not _is_int(value):
            raise NotAnActionError(f"{shown} is not an action: {short_repr(name)} must be a whole "
                                   "number (D7–D11)",
                                   rule="D11", rules=("D7", "D11"))
        values[name] = value
    action: Action = cls(**values)
    return action


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
