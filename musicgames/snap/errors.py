"""The errors of the Note Snap engine: one class per cause, all of them ``ValueError``.

Every error message names the input and says why it was refused. An action that raises
leaves the game exactly as it was.

>>> issubclass(NotYourTurnError, SnapError) and issubclass(SnapError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ActionError",
    "CallError",
    "CallModeError",
    "ConfigError",
    "DoubleSlapError",
    "GameOverError",
    "LateSlapError",
    "NotYourTurnError",
    "PhaseError",
    "ReactionTimeError",
    "SaveError",
    "SeatError",
    "SnapError",
]


class SnapError(ValueError):
    """Something the Note Snap rules do not allow; the base of every error here."""


class ConfigError(SnapError):
    """Settings or a deal that cannot make a game: 5 players, a negative window, …

    ``setting`` names the setting refused (``"card_limit"``, …) when one setting alone is
    wrong, so that a table can say which in the words of its page; otherwise ``None``.
    """

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


class ActionError(SnapError):
    """An object that is not a Note Snap action at all."""


class SeatError(SnapError):
    """A seat that does not exist at this table (seats are numbered from 0)."""


class GameOverError(SnapError):
    """An action after the game has ended."""


class PhaseError(SnapError):
    """An action at the wrong moment: a flip while a card waits for slaps, a slap with none."""


class NotYourTurnError(SnapError):
    """A flip by a seat whose turn it is not (S5, S11)."""


class CallError(SnapError):
    """A call that is not one of the seven note names."""


class CallModeError(SnapError):
    """A call given by a seat in auto-call mode, or missing from a seat that calls itself."""


class ReactionTimeError(SnapError):
    """A reaction time that is not a finite, non-negative number of milliseconds."""


class LateSlapError(ReactionTimeError):
    """A slap whose reaction time is after the slap window closed (S14)."""


class DoubleSlapError(SnapError):
    """A second slap by the same seat on the same card."""


class SaveError(SnapError):
    """A saved game that is not valid JSON of a Note Snap game, or does not replay."""
