"""The settings of a Note Snap table: how many players, the tie and slap windows, call modes.

>>> c = SnapConfig(players=3, call_modes=(CallMode.SELF, CallMode.AUTO, CallMode.AUTO))
>>> c.tie_window_ms, c.slap_window_ms, c.call_modes[0]
(10.0, 2500.0, <CallMode.SELF: 'self'>)
>>> SnapConfig(players=2).call_modes
(<CallMode.AUTO: 'auto'>, <CallMode.AUTO: 'auto'>)
>>> SnapConfig(players=5)
Traceback (most recent call last):
...
musicgames.snap.errors.ConfigError: players=5 cannot play Note Snap: 2, 3 or 4 players play (S3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from musicgames.shown import short_repr
from musicgames.snap.actions import CallMode, GameLength
from musicgames.snap.errors import ConfigError

__all__ = [
    "DEFAULT_FLIP_PAUSE_MS",
    "DEFAULT_SLAP_WINDOW_MS",
    "DEFAULT_TIE_WINDOW_MS",
    "MAX_CARD_LIMIT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SETTING_RULES",
    "SnapConfig",
    "check_players",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: The most cards a game may be limited to (``card_limit``): far more than a game flips.
MAX_CARD_LIMIT = 10_000


#: The rule each setting serves, for the ``rule`` of its :class:`ConfigError` (``None``: a
#: setting the rules leave to the table).
SETTING_RULES: dict[str, str | None] = {
    "players": "S3",
    "tie_window_ms": "S13",
    "slap_window_ms": "S14",
    "call_modes": "S15",
    "flip_pause_ms": "S15",
    "length": None,
    "hand_limit": None,
    "time_limit_s": None,
    "card_limit": None,
}
#: The defaults of the settings that are times (S13, S14, S15): a table's settings take
#: them from here. The slap window is 2.5 s and the tie window 10 ms as the rules say
#: (S13, S14); a computer player pauses 0.8 s before it flips (S15).
DEFAULT_TIE_WINDOW_MS = 10.0
DEFAULT_SLAP_WINDOW_MS = 2500.0
DEFAULT_FLIP_PAUSE_MS = 800.0


def _refused(setting: str, message: str) -> ConfigError:
    return ConfigError(message, setting, rule=SETTING_RULES[setting])


def _milliseconds(name: str, value: object, *, positive: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _refused(name, f"{name}={short_repr(value)} is not a number of milliseconds")
    try:
        number = float(value)
    except OverflowError:  # a whole number too large for a float: 10**400
        raise _refused(name, f"{name}={short_repr(value)} is not allowed: it is too "
                             "large") from None
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        need = "more than 0" if positive else "0 or more"
        raise _refused(name, f"{name}={short_repr(value)} is not allowed: it must be finite "
                             f"and {need} ms")
    return number


def check_players(players: object) -> int:
    """``players`` if that many can play Note Snap (S3: 2, 3 or 4), else a
    :class:`ConfigError` for the setting ``players``; the one home of that rule, which a
    table's settings ask before they build a whole :class:`SnapConfig`.

    >>> check_players(3)
    3
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise _refused("players", f"players={short_repr(players)} is not a whole number "
                                  "of players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _refused(
            "players",
            f"players={short_repr(players)} cannot play Note Snap: 2, 3 or 4 players play (S3)"
        )
    return players


@dataclass(frozen=True)
class SnapConfig:
    """Settings of one game (they never change while it is played).

    * ``players`` — 2, 3 or 4 (S3);
    * ``tie_window_ms`` — two slaps for last place closer than this are a tie (S13, S12);
    * ``slap_window_ms`` — how long slaps are collected after a card shows (S14);
    * ``call_modes`` — for each seat, :attr:`CallMode.AUTO` (the engine calls the name) or
      :attr:`CallMode.SELF` (the player must choose it); empty means every seat is auto;
    * ``flip_pause_ms`` — how long a computer player waits before flipping (S15). The rules
      do not use it; the table that runs the game does;
    * ``length`` — how the game ends (:class:`GameLength`): ``classic`` (S11 only),
      ``short`` (also when a seat holds ``hand_limit`` cards after a take) or ``timed``
      (also when the table says :class:`~musicgames.snap.actions.TimeUp`, after
      ``time_limit_s`` seconds of play: the table keeps the time, the rules do not);
    * ``card_limit`` — with any length, the game also ends once this many cards have been
      flipped, as soon as the last of them is judged: then the fewest cards in hand win
      (``None``, the default: no such limit). A lesson's game "ends after 40 cards".
    """

    players: int = 4
    tie_window_ms: float = DEFAULT_TIE_WINDOW_MS
    slap_window_ms: float = DEFAULT_SLAP_WINDOW_MS
    call_modes: tuple[CallMode, ...] = field(default=())
    flip_pause_ms: float = DEFAULT_FLIP_PAUSE_MS
    length: GameLength = GameLength.CLASSIC
    hand_limit: int = 40
    time_limit_s: float = 300.0
    card_limit: int | None = None

    def __post_init__(self) -> None:
        players = check_players(self.players)
        set_ = object.__setattr__
        set_(self, "tie_window_ms", _milliseconds("tie_window_ms", self.tie_window_ms,
                                                  positive=False))
        set_(self, "slap_window_ms", _milliseconds("slap_window_ms", self.slap_window_ms,
                                                   positive=True))
        set_(self, "flip_pause_ms", _milliseconds("flip_pause_ms", self.flip_pause_ms,
                                                  positive=False))
        if self.tie_window_ms >= self.slap_window_ms:
            raise ConfigError(  # two settings together: no one setting alone is wrong
                f"tie_window_ms={self.tie_window_ms!r} must be shorter than "
                f"slap_window_ms={self.slap_window_ms!r}",
                settings=("tie_window_ms", "slap_window_ms"), rule="S13",
            )
        try:
            set_(self, "length", GameLength(self.length))
        except ValueError:
            raise _refused(
                "length", f"length={short_repr(self.length)} is not 'classic', 'short' or 'timed'"
            ) from None
        limit = self.hand_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 2 <= limit <= 56:
            raise _refused("hand_limit", f"hand_limit={short_repr(limit)} is not a number of "
                                         "cards from 2 to 56")
        seconds = self.time_limit_s
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
                (not isinstance(seconds, int) or abs(seconds) <= 10**9)  # 10**400 is no float
                and math.isfinite(seconds) and seconds > 0):
            raise _refused(
                "time_limit_s",
                f"time_limit_s={short_repr(seconds)} is not a number of seconds above 0"
            )
        set_(self, "time_limit_s", float(seconds))
        cards = self.card_limit
        if cards is not None and (isinstance(cards, bool) or not isinstance(cards, int)
                                  or not 1 <= cards <= MAX_CARD_LIMIT):
            raise _refused(
                "card_limit",
                f"card_limit={short_repr(cards)} is not a number of cards from 1 to "
                f"{MAX_CARD_LIMIT} (or None: no limit)"
            )
        modes = self.call_modes
        if isinstance(modes, (str, bytes)) or not isinstance(modes, (tuple, list)):
            raise _refused(
                "call_modes",
                f"call_modes={short_repr(modes)} must be a list with one mode ('auto' or "
                "'self') per seat"
            )
        if not modes:
            modes = (CallMode.AUTO,) * players
        if len(modes) != players:
            raise _refused(
                "call_modes",
                f"call_modes={short_repr(list(modes))} has {len(modes)} modes for {players} "
                "players: give one per seat"
            )
        try:
            set_(self, "call_modes", tuple(CallMode(m) for m in modes))
        except ValueError:
            raise _refused(
                "call_modes",
                f"call_modes={short_repr(list(modes))} has a mode that is not 'auto' or 'self'"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON data.

        >>> SnapConfig(players=2).to_dict()["call_modes"]
        ['auto', 'auto']
        """
        return {
            "players": self.players,
            "tie_window_ms": self.tie_window_ms,
            "slap_window_ms": self.slap_window_ms,
            "call_modes": [m.value for m in self.call_modes],
            "flip_pause_ms": self.flip_pause_ms,
            "length": self.length.value,
            "hand_limit": self.hand_limit,
            "time_limit_s": self.time_limit_s,
            "card_limit": self.card_limit,
        }

    @classmethod
    def from_dict(cls, data: object) -> SnapConfig:
        """Settings from :meth:`to_dict` data, checked (a :class:`ConfigError` if wrong)."""
        if not isinstance(data, dict):
            raise ConfigError(f"settings {short_repr(data)} are not a JSON object")
        known = {"players", "tie_window_ms", "slap_window_ms", "call_modes", "flip_pause_ms",
                 "length", "hand_limit", "time_limit_s", "card_limit"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"settings have unknown keys {short_repr(unknown)}: use "
                              f"{short_repr(sorted(known))}")
        if "call_modes" in data and isinstance(data["call_modes"], list):
            data = {**data, "call_modes": tuple(data["call_modes"])}
        return cls(**data)
