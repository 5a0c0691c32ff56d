"""What both games share: the error every refusal is, the table's seat, and the shape of a game.

Note Snap (:mod:`musicgames.snap`) and Keyboard Duel (:mod:`musicgames.duel`) speak one
protocol, in the shape of OpenSpiel's games with python-chess's manners: a :class:`Game` holds
the settings and makes states; a :class:`GameState` says who may act, lists and applies
actions, and says when the game is over and what each seat made of it. :mod:`musicgames.games`
finds a game by its name.

This module imports neither engine, so each engine can build on it.

>>> issubclass(GameError, ValueError)
True
>>> GameError("a slap with no card in the centre", rule="S6").rule
'S6'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = ["TABLE", "Bot", "Event", "Game", "GameError", "GameState", "compact", "grown_json"]

#: The seat of the table itself: it closes a slap window, rolls the dice. A state's
#: :meth:`GameState.to_act` lists it when the next step belongs to nobody at the table.
TABLE = -1


class GameError(ValueError):
    """Something a game's rules do not allow; the base of every refusal of both games.

    ``rule`` is the number of the rule that refuses (``"S6"``, ``"D11"``) as the rules pages
    in ``docs/rules/`` number them, or ``None`` for a refusal no single rule makes (an object
    that is not an action at all, a saved game that cannot be read). A refused action leaves
    the state exactly as it was.
    """

    #: The rule a whole class of refusals cites; an instance may name another.
    rule: str | None = None

    def __init__(self, message: str, *args: object, rule: str | None = None) -> None:
        super().__init__(message, *args)
        if rule is not None:
            self.rule = rule


@runtime_checkable
class Event(Protocol):
    """Something that happened in a game, for a table to show and a log to keep."""

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data; its ``"type"`` names what happened."""
        ...


class GameState(Protocol):
    """One position of a game, and the moves from it."""

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (:data:`TABLE` for the table itself); ``()`` when over."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may take now."""
        ...

    def apply(self, action: Any, seat: int) -> tuple[Event, ...]:
        """Play ``action`` for ``seat``; a :class:`GameError` (state unchanged) if illegal."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> tuple[float, ...]:
        """One number per seat: what each seat made of the game (so far)."""
        ...

    def view(self, seat: int) -> Any:
        """What ``seat`` may see: its own hand, not the others'."""
        ...

    def copy(self, *, history: bool = True) -> GameState:
        """An independent copy, with or without the actions that led here."""
        ...

    def to_json(self) -> str:
        """The whole state as JSON text, for :meth:`Game.from_json`."""
        ...

    def replay(self) -> GameState:
        """A new state made by playing this game's actions again from its start: the same
        game (the same :meth:`to_json`). A copy made with ``copy(history=False)`` may keep
        no actions to play again: then a :class:`GameError`."""
        ...


class Bot(Protocol):
    """A computer player: given what its seat sees, it chooses an action."""

    def choose(self, view: Any) -> Any:
        """The action this player takes (or ``None`` for one that waits)."""
        ...


class Game(Protocol):
    """A game with its settings: it makes new states, reads saved ones and makes bots."""

    name: str
    players: int
    bots: tuple[str, ...]

    def new_game(self, seed: int | Any = None) -> GameState:
        """A new game, shuffled by ``seed``: an int or a ``random.Random``."""
        ...

    def from_json(self, text: str) -> GameState:
        """A state saved by :meth:`GameState.to_json`."""
        ...

    def make_bot(self, name: str, *, seat: int, seed: int | Any = None) -> Bot:
        """The computer player called ``name`` (one of :attr:`bots`) for ``seat``."""
        ...

    def settings(self) -> Mapping[str, Any]:
        """The settings this game was made with, by keyword."""
        ...


# -- saving ---------------------------------------------------------------------------------

_COMPACT = json.JSONEncoder(separators=(",", ":"))
_Item = TypeVar("_Item")


def compact(data: object) -> str:
    """``data`` as compact JSON, the way both games write a save.

    >>> compact({"cards": [1, 2], "over": False})
    '{"cards":[1,2],"over":false}'
    """
    return _COMPACT.encode(data)


def grown_json(kept: tuple[int, str], items: Sequence[_Item],
               to_json: Callable[[_Item], object]) -> tuple[int, str]:
    """The JSON text of ``items`` as a list's items, without its brackets: ``kept`` is how
    many of the first items ``text`` holds, and that text; only the items added since are
    encoded (a save's actions grow with the game). Whoever cuts ``items`` shorter starts
    again from ``(0, "")``.

    >>> kept = grown_json((0, ""), ["Do"], str.upper)
    >>> kept
    (1, '"DO"')
    >>> grown_json(kept, ["Do", "Re", "Mi"], str.upper)
    (3, '"DO","RE","MI"')
    """
    count, text = kept
    if count == len(items):
        return kept
    new = compact([to_json(item) for item in items[count:]])[1:-1]
    return len(items), f"{text},{new}" if text else new
