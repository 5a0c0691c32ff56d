"""The errors of the Note Snap engine: one class per cause, all of them a :class:`GameError`
(a ``ValueError``) with the rule that refuses in ``.rule``.

Every error message names the input and says why it was refused. An action that raises
leaves the game exactly as it was. ``.rule`` is the number of the rule on the rules page
(``"S5"``, ``"S14"``), or ``None`` for a refusal no rule makes: an object that is not an
action at all, a saved game that cannot be read, a setting the rules leave to the table.
Each class names its usual rule; a refusal may name another (a flip by a seat with no
cards is refused by S11, not S5).

>>> issubclass(NotYourTurnError, SnapError) and issubclass(SnapError, GameError)
True
>>> NotYourTurnError("it is seat 1's turn").rule, SaveError("not JSON").rule is None
('S5', True)
"""

from __future__ import annotations

from musicgames.protocol import GameError

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


class SnapError(GameError):
    """Something the Note Snap rules do not allow; the base of every error here."""


class ConfigError(SnapError):
    """Settings or a deal that cannot make a game: 5 players, a negative window, …

    ``setting`` names the setting refused (``"card_limit"``, …) when one setting alone is
    wrong, so that a table can say which in the words of its page; otherwise ``None``.
    ``rule`` is the rule the setting serves (``players``: S3, ``tie_window_ms``: S13,
    ``slap_window_ms``: S14, ``call_modes`` and ``flip_pause_ms``: S15, a deal: S4), or
    ``None`` for a setting the rules leave to the table (how long a game lasts).
    """

    def __init__(
        self,
        message: str,
        setting: str | None = None,
        *,
        settings: tuple[str, ...] = (),
        rule: str | None = None,
    ) -> None:
        super().__init__(message, rule=rule)
        self.setting = setting
        #: Every setting at fault: ``(setting,)``, or several that do not go together
        #: (a tie window not shorter than the slap window), or ``()``.
        self.settings = settings or ((setting,) if setting is not None else ())


class ActionError(SnapError):
    """An object that is not a Note Snap action at all."""


class SeatError(SnapError):
    """A seat that does not exist at this table (seats are numbered from 0)."""

    rule = "S3"


class GameOverError(SnapError):
    """An action after the game has ended."""

    rule = "S11"


class PhaseError(SnapError):
    """An action at the wrong moment: a flip while a card waits for slaps, a slap with none."""

    rule = "S14"


class NotYourTurnError(SnapError):
    """A flip by a seat whose turn it is not (S5, S11)."""

    rule = "S5"


class CallError(SnapError):
    """A call that is not one of the seven note names."""

    rule = "S5"


class CallModeError(SnapError):
    """A call given by a seat in auto-call mode, or missing from a seat that calls itself."""

    rule = "S15"


class ReactionTimeError(SnapError):
    """A reaction time that is not a finite, non-negative number of milliseconds."""

    rule = "S13"


class LateSlapError(ReactionTimeError):
    """A slap whose reaction time is after the slap window closed (S14)."""

    rule = "S14"


class DoubleSlapError(SnapError):
    """A second slap by the same seat on the same card."""

    rule = "S7"


class SaveError(SnapError):
    """A saved game that is not valid JSON of a Note Snap game, or does not replay."""
