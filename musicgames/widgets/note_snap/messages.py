"""The messages a Note Snap page sends: each read into a small typed message, or refused
with a :class:`MessageError` that names the field and why."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from musicgames.shown import short_repr
from musicgames.widgets._messages import MessageError

__all__ = [
    "DisplayMessage",
    "FlipMessage",
    "MessageError",
    "NewGameMessage",
    "PassMessage",
    "PauseMessage",
    "ReadyMessage",
    "ShownMessage",
    "SlapMessage",
]



def _whole(payload: Mapping[str, Any], key: str) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        # JSON numbers may arrive as floats: accept 3.0 but not 3.5
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise MessageError(f"{key}={short_repr(value)} is not a whole number")
    if not -1_000_000 <= value <= 1_000_000:
        raise MessageError(f"{key}={short_repr(value)} is out of range")
    return value


def _milliseconds_in(payload: Mapping[str, Any], key: str) -> float:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MessageError(f"{key}={short_repr(value)} is not a number of milliseconds")
    if isinstance(value, int) and not 0 <= value <= 10**9:  # 10**400 is no float
        raise MessageError(f"{key}={short_repr(value)} is not a time of 0 ms or more")
    if not math.isfinite(value) or value < 0:
        raise MessageError(f"{key}={short_repr(value)} is not a time of 0 ms or more")
    return float(value)


@dataclass(frozen=True)
class ReadyMessage:
    """A view of the widget is on the page: the game clock may start."""

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> ReadyMessage:
        return cls()


@dataclass(frozen=True)
class ShownMessage:
    """Card ``number`` of game ``game`` was painted on the page."""

    game: int
    number: int

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> ShownMessage:
        return cls(_whole(payload, "game"), _whole(payload, "number"))


@dataclass(frozen=True)
class SlapMessage:
    """``seat`` slapped card ``number``, ``reaction_ms`` after it was painted (S13)."""

    game: int
    number: int
    seat: int
    reaction_ms: float

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> SlapMessage:
        return cls(
            _whole(payload, "game"),
            _whole(payload, "number"),
            _whole(payload, "seat"),
            _milliseconds_in(payload, "reaction_ms"),
        )


@dataclass(frozen=True)
class FlipMessage:
    """``seat`` flips its top card, calling ``call`` (``None`` in auto-call mode)."""

    game: int
    seat: int
    call: str | None

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> FlipMessage:
        call = payload.get("call")
        if call is not None and not isinstance(call, str):
            raise MessageError(f"call={short_repr(call)} is not a name")
        return cls(_whole(payload, "game"), _whole(payload, "seat"), call)


@dataclass(frozen=True)
class NewGameMessage:
    """Start a new game, with new settings from the form or the same ones."""

    settings: Mapping[str, Any] | None

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> NewGameMessage:
        settings = payload.get("settings")
        if settings is not None and not isinstance(settings, Mapping):
            raise MessageError(f"settings={short_repr(settings)} is not an object")
        return cls(settings)


@dataclass(frozen=True)
class DisplayMessage:
    """Show the page in another ``language`` or ``naming``; the game goes on."""

    language: str | None
    naming: str | None

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> DisplayMessage:
        language, naming = payload.get("language"), payload.get("naming")
        for key, value in (("language", language), ("naming", naming)):
            if value is not None and not isinstance(value, str):
                raise MessageError(f"{key}={short_repr(value)} is not text")
        return cls(language, naming)


@dataclass(frozen=True)
class PassMessage:
    """``seat`` pressed "no match" on card ``number``, ``at_ms`` after it was painted."""

    game: int
    number: int
    seat: int
    at_ms: float

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> PassMessage:
        return cls(
            _whole(payload, "game"),
            _whole(payload, "number"),
            _whole(payload, "seat"),
            _milliseconds_in(payload, "at_ms"),
        )


@dataclass(frozen=True)
class PauseMessage:
    """The page paused the game (``paused``) or, after its 3-2-1, goes on."""

    paused: bool

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> PauseMessage:
        paused = payload.get("paused")
        if not isinstance(paused, bool):
            raise MessageError(f"paused={short_repr(paused)} is not true or false")
        return cls(paused)

