"""What the Keyboard Duel page may send, read into typed messages.

Every message is a JSON object with a ``type`` and an optional sequence number ``seq`` that
the widget echoes once it has handled the message. Anything else is refused with the
reason, never an exception out of the widget (see :meth:`KeyboardDuelWidget.receive`).

>>> parse_message({"type": "act", "seq": 3, "action": {"type": "end_turn"}})
(3, ActMessage(action=EndTurn()))
>>> parse_message({"type": "new_game", "opponent": "grandmaster"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.widgets._messages.MessageError: opponent 'grandmaster' is not one of ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from musicgames.duel import Action, DuelError, action_from_json
from musicgames.duel.bots import OPPONENT_LEVELS, Bot, make_bot
from musicgames.i18n import LANGUAGES
from musicgames.theory import Naming
from musicgames.widgets._messages import MessageError

__all__ = [
    "OPPONENTS",
    "ActMessage",
    "ContinueMessage",
    "HintMessage",
    "MessageError",
    "NewGameMessage",
    "PageMessage",
    "SettingsMessage",
    "UndoMessage",
    "make_player",
    "parse_message",
]

#: The computer opponents a person can choose (the rules page, "Computer opponents"): the
#: engine's levels. The page's chooser lists exactly these, in this order.
OPPONENTS: tuple[str, ...] = OPPONENT_LEVELS


def _whole(payload: Mapping[str, Any], key: str) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MessageError(f"{key!r} must be a whole number ≥ 0, not {_shown(value)}")
    return value


def _shown(value: object) -> str:
    """A value from the page, shown briefly in a refusal (never a long repr)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


@dataclass(frozen=True)
class ActMessage:
    """The person plays an engine action: ``{"type": "act", "action": {...}}``."""

    action: Action

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> ActMessage:
        try:
            return cls(action_from_json(payload.get("action")))
        except DuelError as err:
            raise MessageError(str(err)) from None
        except (TypeError, ValueError, RecursionError, KeyError) as err:  # any shape at all
            raise MessageError(f"the action {_shown(payload.get('action'))} cannot be read "
                               f"({type(err).__name__})") from None


@dataclass(frozen=True)
class NewGameMessage:
    """Start again against ``opponent``: ``{"type": "new_game", "opponent": "sharp"}``."""

    opponent: str

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> NewGameMessage:
        opponent = payload.get("opponent")
        if not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise MessageError(f"opponent {_shown(opponent)} is not one of "
                               f"{', '.join(OPPONENTS)}")
        return cls(opponent)


@dataclass(frozen=True)
class UndoMessage:
    """Take back the person's last action, if it showed nothing new: ``{"type": "undo"}``."""

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> UndoMessage:
        return cls()


@dataclass(frozen=True)
class HintMessage:
    """Ask what Sharp would do in the person's place: ``{"type": "hint"}``."""

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> HintMessage:
        return cls()


@dataclass(frozen=True)
class ContinueMessage:
    """Close the round-end screen and play on: ``{"type": "continue"}``."""

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> ContinueMessage:
        return cls()


@dataclass(frozen=True)
class SettingsMessage:
    """Change the naming and/or the page language:
    ``{"type": "settings", "naming": "letters", "language": "es"}``."""

    naming: Naming | None
    language: str | None

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> SettingsMessage:
        naming = payload.get("naming")
        language = payload.get("language")
        if naming is None and language is None:
            raise MessageError("a settings message changes 'naming' or 'language'")
        namings = {n.value for n in Naming}
        if naming is not None and (not isinstance(naming, str) or naming not in namings):
            raise MessageError(f"naming {_shown(naming)} is not 'solfege' or 'letters'")
        if language is not None and (not isinstance(language, str) or language not in LANGUAGES):
            raise MessageError(f"language {_shown(language)} is not one of "
                               f"{', '.join(LANGUAGES)}")
        return cls(Naming(naming) if naming is not None else None, language)


PageMessage = (
    ActMessage | NewGameMessage | UndoMessage | HintMessage | ContinueMessage | SettingsMessage
)

_MESSAGE_TYPES: dict[str, Callable[[Mapping[str, Any]], PageMessage]] = {
    "act": ActMessage.parse,
    "new_game": NewGameMessage.parse,
    "undo": UndoMessage.parse,
    "hint": HintMessage.parse,
    "continue": ContinueMessage.parse,
    "settings": SettingsMessage.parse,
}


def parse_message(content: object) -> tuple[int | None, PageMessage]:
    """Read one message from the page: its sequence number (if any) and its typed payload.
    Anything that is not a message raises :class:`MessageError` saying why."""
    if not isinstance(content, Mapping):
        raise MessageError(f"{_shown(content)} is not a Keyboard Duel message (not an object)")
    kind = content.get("type")
    parser = _MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise MessageError(f"{_shown(kind)} is not a Keyboard Duel message type: use one of "
                           f"{', '.join(_MESSAGE_TYPES)}")
    seq = _whole(content, "seq") if "seq" in content else None
    return seq, parser(content)


def make_player(level: str, seed: int) -> Bot:
    """The computer player of a level (one of :data:`OPPONENTS`), seeded.

    >>> make_player("sharp", 1).name
    'Sharp'
    """
    if level not in OPPONENTS:
        raise MessageError(f"opponent {_shown(level)} is not one of {', '.join(OPPONENTS)}")
    return make_bot(level, seed)
