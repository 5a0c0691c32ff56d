"""What happens in a game of Keyboard Duel, as small typed values (the game's story).

:meth:`DuelState.apply` returns the events an action caused, in order; :meth:`DuelState.
story` gives every event so far. A view narrates them as they are: each event carries the
figures it needs (the dice, the totals, the score of every token at a round's end), so
nothing has to be worked out again from the rules.

>>> from musicgames.duel import DuelState, Place, card_ids
>>> game = DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 1)]), seed=3)
>>> placed, started, rolled, answered = game.apply(Place(card_ids("C1"), key=0))
>>> placed
Placed(seat=0, token=0, key=0, power=1, cards=(0,))
>>> started.attacker, started.defender, started.attacker_power, started.defender_power
(0, 1, 1, 1)
>>> rolled.seat, answered.seat, len(rolled.dice), len(answered.dice)
(0, 1, 1, 1)

Events are named tuples: immutable, cheap to make, and readable as plain records.
:meth:`to_dict` gives each as plain JSON data keyed by its ``"type"``; hidden cards (another
seat's deal or draw, D16) are hidden by :func:`seen_by`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from musicgames.duel.actions import Action

__all__ = [
    "ActionTaken",
    "CardPlayed",
    "Dealt",
    "DiceRolled",
    "DieRerolled",
    "Drew",
    "DuelStarted",
    "DuelWon",
    "Event",
    "FinalTurnBegins",
    "GameOver",
    "LockedIn",
    "Merged",
    "Moved",
    "Placed",
    "Reshuffled",
    "RoundScored",
    "RoundStarted",
    "Shifted",
    "TokenScore",
    "TurnEnded",
    "seen_by",
    "to_dict",
]


class ActionTaken(NamedTuple):
    """``seat`` took ``action`` (the events it caused follow)."""

    seat: int
    action: Action

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class RoundStarted(NamedTuple):
    """Round ``round`` begins (D6, D14): ``starter`` moves first; ``piano`` holds the left and
    right piano card numbers."""

    round: int
    starter: int
    piano: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Dealt(NamedTuple):
    """``seat`` was dealt ``cards`` (D6). Seen by the other seat, ``cards`` is empty and only
    their number ``size`` shows (D16)."""

    seat: int
    cards: tuple[int, ...]
    size: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Placed(NamedTuple):
    """``seat`` placed its token ``token`` (0–4) on ``key`` with ``power`` = the number of
    ``cards`` played (D8)."""

    seat: int
    token: int
    key: int
    power: int
    cards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Moved(NamedTuple):
    """``seat`` played ``card`` to move its token ``token`` ``steps`` keys, from ``start`` to
    ``end`` (D9; movement wraps around the board, D2)."""

    seat: int
    token: int
    start: int
    end: int
    steps: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Shifted(NamedTuple):
    """``seat`` played the arrow ``card``: every token of its on piano card ``piano`` moved
    ``step`` (+1 right, −1 left) key; ``moves`` lists ``(token, start, end)`` (D9)."""

    seat: int
    piano: int
    step: int
    card: int
    moves: tuple[tuple[int, int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Merged(NamedTuple):
    """``seat``'s token ``token`` merged into its token ``into`` on ``key`` (D10): the power
    there is now ``power``; ``lost`` is the power over 6 that was lost."""

    seat: int
    token: int
    into: int
    key: int
    power: int
    lost: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class DuelStarted(NamedTuple):
    """``attacker``'s token landed on ``key``, held by the other seat: a duel (D11)."""

    key: int
    attacker: int
    attacker_token: int
    defender_token: int
    attacker_power: int
    defender_power: int

    @property
    def defender(self) -> int:
        """The defending seat."""
        return 1 - self.attacker

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class DiceRolled(NamedTuple):
    """``seat`` rolled ``dice`` for a duel (D11a): the chance outcome of a duel's start."""

    seat: int
    dice: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class CardPlayed(NamedTuple):
    """``seat`` played ``card`` into its duel run (D11b, c). ``effect`` is ``"add"`` (then
    ``amount`` is added), ``"reroll_own_lowest"`` (↑) or ``"reroll_their_highest"`` (↓);
    the totals are the attacker's and the defender's after the card took effect."""

    seat: int
    card: int
    effect: str
    amount: int
    attacker_total: int
    defender_total: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class DieRerolled(NamedTuple):
    """A reroll (D11b): ``owner``'s die number ``die`` (0-based, in the order rolled) went
    from ``old`` to ``new``; ``seat`` played the card."""

    seat: int
    owner: int
    die: int
    old: int
    new: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class LockedIn(NamedTuple):
    """``seat`` finished its duel run with ``total`` (D11b, c)."""

    seat: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class DuelWon(NamedTuple):
    """The duel on ``key`` is over (D11d, e): ``winner`` holds or takes the key; the loser's
    token ``beaten_token`` is beaten for the round."""

    key: int
    winner: int
    attacker: int
    attacker_total: int
    defender_total: int
    winner_token: int
    beaten_token: int

    @property
    def loser(self) -> int:
        """The losing seat."""
        return 1 - self.winner

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class TurnEnded(NamedTuple):
    """``seat`` ended its turn; ``passed`` if it took no action (D7)."""

    seat: int
    passed: bool

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Drew(NamedTuple):
    """``seat`` refilled its hand with ``cards`` (D7); seen by the other seat only their
    number ``size`` shows (D16)."""

    seat: int
    cards: tuple[int, ...]
    size: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class Reshuffled(NamedTuple):
    """The draw pile ran out: ``cards`` discards were shuffled into a new one (D7)."""

    cards: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class FinalTurnBegins(NamedTuple):
    """``placed_all`` has placed all five tokens and ended its turn: ``seat`` takes the one
    final turn of the round (D12)."""

    seat: int
    placed_all: int

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class TokenScore(NamedTuple):
    """One token's part in a round's score (D13): ``power`` × ``multiplier`` = ``points``."""

    seat: int
    token: int
    key: int
    power: int
    multiplier: int
    points: int


class RoundScored(NamedTuple):
    """Round ``round`` is scored (D12, D13). ``tokens`` lists each scoring token, key order;
    ``bonuses`` the ``(seat, piano)`` of every piano card whose colored keys one seat holds
    (+1 each); ``scores`` the round's scores and ``totals`` the banked totals, White's
    first. ``turn_limit`` is true when the round ended on the 60-turn guard (D12)."""

    round: int
    tokens: tuple[TokenScore, ...]
    bonuses: tuple[tuple[int, int], ...]
    scores: tuple[int, int]
    totals: tuple[int, int]
    turn_limit: bool

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


class GameOver(NamedTuple):
    """The game is over (D15): ``winner`` has the higher of ``totals``."""

    winner: int
    totals: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: ``{"type": ..., ...its fields}`` (:func:`to_dict`)."""
        return to_dict(self)


#: Any event of a Keyboard Duel game.
Event = (ActionTaken | RoundStarted | Dealt | Placed | Moved | Shifted | Merged | DuelStarted
         | DiceRolled | CardPlayed | DieRerolled | LockedIn | DuelWon | TurnEnded | Drew
         | Reshuffled | FinalTurnBegins | RoundScored | GameOver)


def seen_by(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: another seat's dealt or drawn cards hidden (D16).

    >>> seen_by(Drew(1, (4, 9), 2), 0)
    Drew(seat=1, cards=(), size=2)
    """
    if isinstance(event, Dealt) and event.seat != seat:
        return event._replace(cards=())
    if isinstance(event, Drew) and event.seat != seat:
        return event._replace(cards=())
    return event


def to_dict(event: Event) -> dict[str, Any]:
    """An event as plain JSON data, ``{"type": name, ...fields}``: what ``event.to_dict()``
    gives (the game protocol's events).

    >>> LockedIn(seat=1, total=9).to_dict()
    {'type': 'locked_in', 'seat': 1, 'total': 9}
    """
    data: dict[str, Any] = {"type": _NAMES[type(event)]}
    value: Any
    for name, value in zip(event._fields, event, strict=True):
        if name == "action":
            value = value.to_json()
        elif name == "tokens":
            value = [list(t) for t in value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[name] = value
    return data


_NAMES: dict[type, str] = {
    ActionTaken: "action_taken", RoundStarted: "round_started", Dealt: "dealt",
    Placed: "placed", Moved: "moved", Shifted: "shifted", Merged: "merged",
    DuelStarted: "duel_started", DiceRolled: "dice_rolled", CardPlayed: "card_played",
    DieRerolled: "die_rerolled", LockedIn: "locked_in", DuelWon: "duel_won",
    TurnEnded: "turn_ended", Drew: "drew", Reshuffled: "reshuffled",
    FinalTurnBegins: "final_turn_begins", RoundScored: "round_scored", GameOver: "game_over",
}
