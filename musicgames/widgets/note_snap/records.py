"""What a Note Snap table keeps of its games: one record per card flipped, one per game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from musicgames.snap import TAKEN_UNSLAPPED

__all__ = ["CardRecord", "GameRecord"]



@dataclass(frozen=True)
class CardRecord:
    """What happened to one flipped card.

    ``reactions`` has one entry per seat: its reaction time in ms, or ``None`` when it did
    not slap (a miss on a match). ``outcome`` is the :class:`~musicgames.snap.Reason`
    value; ``taker`` the seat that took the centre pile (``None``: nobody).
    """

    number: int
    note: str
    called: str
    expected: str
    flipper: int
    match: bool
    reactions: tuple[float | None, ...]
    outcome: str
    taker: int | None
    cards_taken: int

    @property
    def slappable(self) -> bool:
        """True when the card was open for slaps: not taken at once by a wrong call (S10)
        or by a flip onto a match nobody slapped (S9), which no one could slap."""
        return self.outcome not in TAKEN_UNSLAPPED

    @property
    def slappable_match(self) -> bool:
        """True when the card was a match the players could slap (S6, S7)."""
        return self.match and self.slappable

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return {
            "number": self.number,
            "note": self.note,
            "called": self.called,
            "expected": self.expected,
            "flipper": self.flipper,
            "match": self.match,
            "reactions": list(self.reactions),
            "outcome": self.outcome,
            "taker": self.taker,
            "cards_taken": self.cards_taken,
        }


@dataclass
class GameRecord:
    """One game: who sat where, its seed and settings, every card, and who won.

    ``saved`` is, once the game is finished, the engine's saved game
    (:meth:`musicgames.snap.SnapState.to_dict`: the deal and every action), from which
    ``SnapState.from_json`` replays it exactly.
    """

    game: int
    seed: int
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    cards: list[CardRecord] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    finished: bool = False
    saved: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data."""
        return {
            "game": self.game,
            "seed": self.seed,
            "settings": self.settings,
            "seats": self.seats,
            "cards": [c.to_dict() for c in self.cards],
            "winners": list(self.winners),
            "finished": self.finished,
            "saved": self.saved,
        }

