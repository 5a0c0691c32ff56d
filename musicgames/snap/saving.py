"""The saved-game format of Note Snap: settings, deal and actions as JSON, read back with
every part checked. Nothing in a save is ever executed.

>>> read_save('{"format": "chess"}')
Traceback (most recent call last):
...
musicgames.snap.errors.SaveError: saved game: format 'chess' is not 'musicgames.snap'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from musicgames.protocol import compact, grown_json
from musicgames.shown import short_repr
from musicgames.snap.actions import Action, action_to_json
from musicgames.snap.config import SnapConfig
from musicgames.snap.errors import SaveError, SnapError

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "Save", "grown_actions", "read_save", "save_text"]

#: The ``format`` value of a saved game.
SAVE_FORMAT = "musicgames.snap"
#: The ``version`` of the saved-game layout written by ``SnapState.to_json``.
SAVE_VERSION = 1


class Save(NamedTuple):
    """A saved game's parts, each checked for its shape (its actions are checked when
    they are played again): settings, deal, actions and, if saved, the position."""

    config: SnapConfig
    hands: Any
    opener: Any
    actions: list[Any]
    position: Any


def grown_actions(kept: tuple[int, str], actions: Sequence[Action]) -> tuple[int, str]:
    """The items of the save's list of ``actions`` (``kept``: how many of the first
    actions ``text`` holds, and that text), with the actions played since added.

    >>> from musicgames.snap.actions import Flip, Slap
    >>> kept = grown_actions((0, ""), [Flip(0)])
    >>> kept
    (1, '["flip",0,null]')
    >>> grown_actions(kept, [Flip(0), Slap(1, 250.0)])
    (2, '["flip",0,null],["slap",1,250.0]')
    """
    return grown_json(kept, actions, action_to_json)


def save_text(settings: dict[str, Any], position: dict[str, Any], actions: str) -> str:
    """A save as ``SnapState.to_json`` writes it: ``settings`` (format, version, settings
    and deal), the ``actions`` (their text: :func:`grown_actions`), then the ``position``."""
    return f'{compact(settings)[:-1]},"actions":[{actions}],"position":{compact(position)}}}'


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not allowed")


def read_save(data: str | bytes | dict[str, Any]) -> Save:
    """The parts of a game saved by ``SnapState.to_json`` (text or already-parsed data);
    anything wrong raises :class:`SaveError` naming the part and the reason."""
    if isinstance(data, (str, bytes, bytearray)):
        try:
            parsed = json.loads(data, parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError, RecursionError) as err:
            raise SaveError(f"saved game: not valid JSON ({err})") from None
    else:
        parsed = data
    if not isinstance(parsed, dict):
        raise SaveError(f"saved game: {type(parsed).__name__} is not a JSON object")
    if not isinstance(parsed.get("format"), str) or parsed["format"] != SAVE_FORMAT:
        raise SaveError(
            f"saved game: format {short_repr(parsed.get('format'))} is not {SAVE_FORMAT!r}"
        )
    version = parsed.get("version")
    if isinstance(version, bool) or version != SAVE_VERSION:  # True == 1, yet no version
        raise SaveError(
            f"saved game: version {short_repr(parsed.get('version'))} is not {SAVE_VERSION} "
            "(the only one this engine reads)"
        )
    deal = parsed.get("deal")
    if not isinstance(deal, dict) or set(deal) != {"hands", "opener"}:
        raise SaveError(f"saved game: deal {short_repr(deal)} must be "
                        f"{{'hands': ..., 'opener': ...}}")
    try:
        config = SnapConfig.from_dict(parsed.get("config"))
    except (SnapError, TypeError) as err:
        raise SaveError(f"saved game: {err}") from None
    actions = parsed.get("actions")
    if not isinstance(actions, list):
        raise SaveError(f"saved game: actions {short_repr(actions)} is not a list")
    return Save(config, deal["hands"], deal["opener"], actions, parsed.get("position"))
