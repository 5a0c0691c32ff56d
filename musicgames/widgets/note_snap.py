"""Note Snap in a notebook: a table of 2–4 seats, people and computer players.

The rules live in :mod:`musicgames.snap`; this widget only runs the table. The page (the
JavaScript view in ``note_snap.js``) draws the ``table`` it is sent and reports what people
did as small messages; the widget checks each message, turns it into an engine action, and
sends the new table back. Timing follows rule S13: the page notes when a card was painted
and when a key was pressed, and sends the difference as ``reaction_ms``; computer players'
reaction times are drawn here and sent with the card, so the page shows each computer slap
at its moment. The clock of the kernel never decides who was last.

Kernel timers — a computer player's pause before flipping, the slap window — are asyncio
tasks, all cancelled by :meth:`NoteSnapWidget.new_game` and :meth:`NoteSnapWidget.close`.

Start a game in a notebook with :func:`play_note_snap`:

>>> game = play_note_snap(people=1, computers=2, level="beginner", seed=7)
>>> [(s.kind, s.level) for s in game.settings.seats]
[('person', 'beginner'), ('computer', 'beginner'), ('computer', 'beginner')]
>>> [s["name"] for s in game.table["seats"]], game.table["seats"][0]["key"]
(['You', 'Computer 1', 'Computer 2'], 'Space')
>>> game.close()

The page's messages can be fed in by hand, which is how the tests drive the widget:

>>> game = play_note_snap(people=2, computers=0, seed=3)
>>> game.receive({"type": "flip", "game": game.game_number, "seat": 0, "call": None})
>>> game.table["phase"], game.table["card"]["call"]
('slaps', 'Do')
>>> game.receive({"type": "slap", "game": game.game_number, "number": 1, "seat": 5,
...               "reaction_ms": 300})
>>> game.refused[-1]
('slap', 'seat 5 is not a person at this table')
>>> game.close()
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anywidget
import traitlets

from musicgames.i18n import LANGUAGES, catalogue, counted, text
from musicgames.progress import ProgressSink, not_saved_notice
from musicgames.render import staff_svg
from musicgames.shown import short_repr
from musicgames.snap import (
    CALL_CYCLE,
    TAKEN_UNSLAPPED,
    CallMode,
    CloseSlaps,
    ConfigError,
    Flip,
    Flipped,
    GameLength,
    Outcome,
    Pass,
    Phase,
    Slap,
    SnapConfig,
    SnapError,
    SnapState,
    TimeUp,
    card_note,
    early_close_ms,
    is_match,
    new_game,
)
from musicgames.snap.bots import LEVELS, Bot
from musicgames.snap.config import (
    DEFAULT_FLIP_PAUSE_MS,
    DEFAULT_SLAP_WINDOW_MS,
    DEFAULT_TIE_WINDOW_MS,
    MAX_CARD_LIMIT,
)
from musicgames.sound import notes, sound_strings
from musicgames.theory import CARD_NOTES, LETTERS, Naming, Note
from musicgames.widgets._assets import joined

__all__ = [
    "CardRecord",
    "GameRecord",
    "MessageError",
    "NoteSnapWidget",
    "SeatSetting",
    "SettingsError",
    "SnapSettings",
    "how_to_play",
    "play_note_snap",
]

_LOG = logging.getLogger(__name__)

PERSON = "person"
COMPUTER = "computer"
#: The slap key of a person alone at the table (a ``KeyboardEvent.code``).
SOLO_KEY = "Space"
#: The slap keys of people sharing one keyboard, in seat order: far apart, and keys that
#: laptop keyboards register when pressed together.
SHARED_KEYS: tuple[str, ...] = ("KeyA", "KeyL", "KeyZ", "KeyM")
#: Keys the page keeps for itself: flip (Enter), call (1–7), close a panel (Escape).
RESERVED_KEYS: frozenset[str] = frozenset(
    {"Enter", "NumpadEnter", "Escape", "Tab", "KeyN", "KeyP"}
    | {f"Digit{i}" for i in range(1, 8)}
    | {f"Numpad{i}" for i in range(1, 8)}
)
DEFAULT_LEVEL = "intermediate"
#: The game lengths a table offers (:class:`~musicgames.snap.GameLength` values).
LENGTHS: tuple[str, ...] = tuple(length.value for length in GameLength)

#: How long after the slap window the kernel still waits for a person's slap message:
#: the window is counted on the page, the message then needs a moment to arrive.
WINDOW_GRACE_MS = 250.0
#: If no page reports a card as painted within this time (no view open, or a hidden
#: browser tab), the kernel opens the slap window itself, so the game never stalls; a page
#: that reports the card later still gets its whole window from then.
SHOWN_TIMEOUT_MS = 1500.0
#: When everyone has slapped, the result waits this long after the last computer slap
#: is due, so the page has drawn that slap before the result replaces it.
SETTLE_MS = 120.0
#: The height in pixels of the staff on a play card; the guide card's notes are drawn at
#: the same size (their heads as big as the card's), four to a row.
CARD_SIZE = 100
GUIDE_ROW = 4
#: How many cards the history strip keeps.
HISTORY_KEPT = 5
#: A short game also ends once this many cards have been flipped (lesson 3's game): at the
#: default pace it fits in 3 minutes.
SHORT_CARD_LIMIT = 40
#: The most notes a practice opened at the end of a game drills.
PRACTICE_MOST = 6
#: The "no match" key of a person alone at the table (S14 v2), and the pause key.
PASS_KEY = "KeyN"
PAUSE_KEYS: frozenset[str] = frozenset({"KeyP", "Escape"})
#: How many refused messages :attr:`NoteSnapWidget.refused` keeps.
_REFUSED_KEPT = 200


class SettingsError(ValueError):
    """Settings the table cannot use: an unknown seat kind or level, a clashing key, …

    Its words come from the catalogue (the key ``what`` and its ``values``): ``str(err)`` is the
    English, :meth:`say` gives them in any language of the page, never with Python syntax.

    >>> SnapSettings(pace_ms=-5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.widgets.note_snap.SettingsError: Computer's pause before flipping (ms) must be ...
    >>> try:
    ...     SnapSettings(seats=(SeatSetting(key="KeyQ"), SeatSetting(key="KeyQ")))
    ... except SettingsError as err:
    ...     print(err.say("es"))
    Dos personas tienen la misma tecla: Q.
    """

    def __init__(self, what: str, /, **values: object) -> None:
        self.what = what
        self.values = values
        super().__init__(self.say("en"))

    def say(self, language: str) -> str:
        """The error in ``language``: a key code is named as on the keyboard."""
        values = dict(self.values)
        if isinstance(values.get("keyname"), str):
            values["keyname"] = key_label(str(values["keyname"]), language)
        if isinstance(values.get("setting"), str):
            values["setting"] = text(f"snap.settings.{values['setting']}", language)
        return text(self.what, language, **values)


def key_label(code: str, language: str = "en") -> str:
    """A key code as the keyboard names it: ``'Space'`` → Space / Espacio, ``'KeyA'`` → A.

    >>> key_label("KeyA"), key_label("Space", "es"), key_label("Digit3")
    ('A', 'Espacio', '3')
    """
    if code == SOLO_KEY:
        return text("snap.key.space", language)
    if code in ("Enter", "NumpadEnter"):
        return text("snap.key.enter", language)
    for prefix in ("Key", "Digit", "Numpad"):
        if code.startswith(prefix) and len(code) > len(prefix):
            return code[len(prefix):]
    return code


class MessageError(ValueError):
    """A message from the page that is not one the widget understands."""


# -- settings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSetting:
    """One seat: a ``'person'`` or a ``'computer'`` (with its ``level``, S17).

    ``key`` is a person's slap key as a ``KeyboardEvent.code`` (``'Space'``, ``'KeyA'``);
    empty means the default: Space for a person alone, else A, L, Z, M in seat order.
    """

    kind: str = PERSON
    level: str = DEFAULT_LEVEL
    key: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in (PERSON, COMPUTER):
            raise SettingsError("snap.error.kind")
        if not isinstance(self.level, str) or self.level not in LEVELS:
            raise SettingsError("snap.error.level")
        if not isinstance(self.key, str) or (self.key and not self.key.isalnum()):
            raise SettingsError("snap.error.key")
        if self.key in RESERVED_KEYS:
            raise SettingsError("snap.error.reserved", keyname=self.key)


def default_keys(people: int) -> tuple[str, ...]:
    """The slap keys of ``people`` sharing the keyboard, in seat order, when none is chosen:
    Space for a person alone, else A, L, Z, M. The page's settings form is sent these.

    >>> default_keys(1), default_keys(3)
    (('Space',), ('KeyA', 'KeyL', 'KeyZ'))
    """
    return (SOLO_KEY,) if people == 1 else SHARED_KEYS[:people]


#: The table's name of each engine setting that is a time, and its catalogue word
#: (``snap.settings.<word>``), for errors: the engine (:class:`SnapConfig`) checks them.
_TIME_SETTINGS = {"flip_pause_ms": ("pace_ms", "pace"),
                  "slap_window_ms": ("slap_window_ms", "slap_window"),
                  "tie_window_ms": ("tie_window_ms", "tie_window")}


@dataclass(frozen=True)
class SnapSettings:
    """Everything a table needs to start a game.

    ``seats`` lists 2–4 :class:`SeatSetting`. ``pace_ms`` is how long a computer player
    waits before it flips (S15); ``slap_window_ms`` and ``tie_window_ms`` are the windows of
    S14 and S13; ``call_mode`` is ``'auto'`` (names called for people) or ``'self'``
    (people choose them, S10). Computer players always call for themselves, so their
    level's wrong-call rate applies (S17). ``length`` is how a game ends
    (:class:`~musicgames.snap.GameLength`): ``'classic'`` (S11), ``'short'`` (the first to
    empty a hand, or someone holding 40 cards, or 40 cards flipped: ``SHORT_CARD_LIMIT``,
    unless ``card_limit`` says otherwise) or ``'timed'`` (after ``minutes`` of play,
    not counting pauses; the default: 5 minutes). ``card_limit``, with any length, also
    ends the game once that many cards have been flipped (a lesson's game "ends after 40
    cards"; ``None``: no such limit). ``hear_cards``
    plays each card's note as it is drawn (off by default). ``naming`` is how
    names are shown, ``language`` the language of the page; ``seed`` makes the shuffle and
    the computer players repeat (``None``: a new one each game); ``opener`` is the seat
    that flips first (S5).

    >>> s = SnapSettings.from_dict({"seats": [{"kind": "person"}, {"kind": "computer"}]})
    >>> s.keys(), s.config().players
    (('Space', ''), 2)
    >>> SnapSettings(seats=(SeatSetting(),))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.widgets.note_snap.SettingsError: 1 players cannot play: Note Snap is for 2, 3 ...
    """

    seats: tuple[SeatSetting, ...] = (
        SeatSetting(PERSON),
        SeatSetting(COMPUTER),
        SeatSetting(COMPUTER),
    )
    pace_ms: float = DEFAULT_FLIP_PAUSE_MS
    slap_window_ms: float = DEFAULT_SLAP_WINDOW_MS
    tie_window_ms: float = DEFAULT_TIE_WINDOW_MS
    call_mode: str = "auto"
    naming: Naming = Naming.SOLFEGE
    language: str = "en"
    seed: int | None = None
    opener: int = 0
    length: str = "timed"
    minutes: float = 5.0
    hear_cards: bool = False
    card_limit: int | None = None

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        object.__setattr__(self, "seats", seats)
        if not all(isinstance(s, SeatSetting) for s in seats):
            raise SettingsError("snap.error.form")
        if not 2 <= len(seats) <= 4:
            raise SettingsError("snap.error.players", n=len(seats))
        if not isinstance(self.length, str) or self.length not in LENGTHS:
            raise SettingsError("snap.error.length")
        minutes = self.minutes
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not (
                math.isfinite(minutes) and 0 < minutes <= 120):
            raise SettingsError("snap.error.minutes")
        if not isinstance(self.hear_cards, bool):
            raise SettingsError("snap.error.form")
        object.__setattr__(self, "minutes", float(minutes))
        if not isinstance(self.call_mode, str) or self.call_mode not in ("auto", "self"):
            raise SettingsError("snap.error.form")
        object.__setattr__(self, "naming", _naming(self.naming))
        if not isinstance(self.language, str) or self.language not in LANGUAGES:
            raise SettingsError("snap.error.form")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(
                self.seed, int)):
            raise SettingsError("snap.error.seed")
        opener = self.opener
        if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < len(
                seats):
            raise SettingsError("snap.error.opener", n=len(seats))
        keys = [k for k in self.keys() if k]
        for key in keys:
            if keys.count(key) > 1:
                raise SettingsError("snap.error.same_key", keyname=key)
        try:
            config = self.config()  # the engine checks its settings (their one home)
        except ConfigError as err:
            raise _said_by_table(err, self) from None
        except SnapError:
            raise SettingsError("snap.error.form") from None
        for engine, (name, _) in _TIME_SETTINGS.items():  # as the engine reads them: ms
            object.__setattr__(self, name, getattr(config, engine))

    def keys(self) -> tuple[str, ...]:
        """Each seat's slap key (``''`` for a computer), defaults filled in
        (:func:`default_keys`, those not chosen by hand)."""
        people = [i for i, s in enumerate(self.seats) if s.kind == PERSON]
        taken = {s.key for s in self.seats if s.kind == PERSON and s.key}
        spare = iter(k for k in default_keys(len(people)) if k not in taken)
        keys: list[str] = []
        for seat in self.seats:
            if seat.kind != PERSON:
                keys.append("")
            elif seat.key:
                keys.append(seat.key)
            else:
                keys.append(next(spare))
        return tuple(keys)

    def config(self) -> SnapConfig:
        """The engine's settings for this table."""
        modes = tuple(
            CallMode(self.call_mode) if s.kind == PERSON else CallMode.SELF for s in self.seats
        )
        return SnapConfig(
            players=len(self.seats),
            tie_window_ms=self.tie_window_ms,
            slap_window_ms=self.slap_window_ms,
            call_modes=modes,
            flip_pause_ms=self.pace_ms,
            length=GameLength(self.length),
            time_limit_s=self.minutes * 60.0,
            card_limit=self.card_limit if self.card_limit is not None or self.length != "short"
            else SHORT_CARD_LIMIT,
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON data (what the page's settings form shows)."""
        return {
            "seats": [
                {"kind": s.kind, "level": s.level, "key": k}
                for s, k in zip(self.seats, self.keys(), strict=True)
            ],
            "pace_ms": self.pace_ms,
            "slap_window_ms": self.slap_window_ms,
            "tie_window_ms": self.tie_window_ms,
            "call_mode": self.call_mode,
            "naming": self.naming.value,
            "language": self.language,
            "seed": self.seed,
            "opener": self.opener,
            "length": self.length,
            "minutes": self.minutes,
            "hear_cards": self.hear_cards,
            "card_limit": self.card_limit,
        }

    @classmethod
    def from_dict(cls, data: object, base: SnapSettings | None = None) -> SnapSettings:
        """Settings from :meth:`to_dict` data (missing keys are taken from ``base``)."""
        if not isinstance(data, Mapping):
            raise SettingsError("snap.error.form")
        known = set(cls().to_dict())
        if not set(data) <= known:
            raise SettingsError("snap.error.form")
        values = dict(data)
        if "seats" in values:
            seats = values["seats"]
            if not isinstance(seats, Sequence) or isinstance(seats, str):
                raise SettingsError("snap.error.form")
            parsed = []
            for seat in seats:
                if not isinstance(seat, Mapping) or not set(seat) <= {"kind", "level", "key"}:
                    raise SettingsError("snap.error.form")
                parsed.append(SeatSetting(**{k: v for k, v in seat.items() if v is not None}))
            values["seats"] = tuple(parsed)
        if "naming" in values:
            values["naming"] = _naming(values["naming"])
        return replace(base or cls(), **values)


def _said_by_table(err: ConfigError, settings: SnapSettings) -> SettingsError:
    """The engine's refusal of a setting, in the words of the table's page."""
    window = settings.slap_window_ms
    no_window = err.setting == "slap_window_ms" and not isinstance(window, bool) and window == 0
    if err.settings == ("tie_window_ms", "slap_window_ms") or no_window:
        return SettingsError("snap.error.windows", tie=round(settings.tie_window_ms),
                             window=round(settings.slap_window_ms))
    if err.setting in _TIME_SETTINGS:
        return SettingsError("snap.error.ms", setting=_TIME_SETTINGS[err.setting][1])
    if err.setting == "card_limit":
        return SettingsError("snap.error.card_limit", most=MAX_CARD_LIMIT)
    return SettingsError("snap.error.form")


def _language_of(settings: Mapping[str, Any] | None, default: str) -> str:
    """The language a settings form asked for, when it is one of the page's."""
    chosen = settings.get("language") if settings is not None else None
    return chosen if isinstance(chosen, str) and chosen in LANGUAGES else default


def _naming(value: Naming | str) -> Naming:
    try:
        return Naming(value)
    except (ValueError, TypeError):
        raise SettingsError("snap.error.naming") from None


def _table_seats(
    people: int, computers: int, level: str | Sequence[str], keys: Sequence[str] | None
) -> tuple[SeatSetting, ...]:
    levels = [level] * computers if isinstance(level, str) else list(level)
    if len(levels) != computers:
        raise SettingsError("snap.error.levels", n=computers)
    own_keys = list(keys) if keys is not None else [""] * people
    if len(own_keys) != people:
        raise SettingsError("snap.error.keys", n=people)
    return tuple(SeatSetting(PERSON, levels[0] if levels else DEFAULT_LEVEL, k)
                 for k in own_keys) + tuple(SeatSetting(COMPUTER, lv) for lv in levels)


# -- records ------------------------------------------------------------------------------


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


# -- messages from the page ---------------------------------------------------------------


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


#: The page's messages: type → how to read it and which method handles it.
_DISPATCH: dict[str, Callable[[NoteSnapWidget, Mapping[str, Any]], None]] = {
    "ready": lambda w, p: w._on_ready(ReadyMessage.parse(p)),
    "shown": lambda w, p: w._on_shown(ShownMessage.parse(p)),
    "slap": lambda w, p: w._on_slap(SlapMessage.parse(p)),
    "flip": lambda w, p: w._on_flip(FlipMessage.parse(p)),
    "new_game": lambda w, p: w._on_new_game(NewGameMessage.parse(p)),
    "display": lambda w, p: w._on_display(DisplayMessage.parse(p)),
    "pass": lambda w, p: w._on_pass(PassMessage.parse(p)),
    "pause": lambda w, p: w._on_pause(PauseMessage.parse(p)),
    "practise": lambda w, p: w.practise(),
    "close_practice": lambda w, p: w._close_practice(),
}


class _Refused(Exception):
    """A well-formed message that does not apply now (a stale card, a second slap)."""


# -- the card being played ----------------------------------------------------------------


@dataclass
class _CardInPlay:
    number: int
    card: int
    flipper: int
    call: str
    computer_slaps: dict[int, float]
    computer_passes: dict[int, float] = field(default_factory=dict)
    shown_at: float | None = None  # the kernel loop's time when the page said "painted"
    shown_by_timeout: bool = False  # no page said so in time: the kernel started the window
    person_slaps: dict[int, float] = field(default_factory=dict)
    person_passes: dict[int, float] = field(default_factory=dict)


# -- the widget ---------------------------------------------------------------------------


class NoteSnapWidget(anywidget.AnyWidget):
    """A game of Note Snap at a table of people and computer players.

    Build it with :func:`play_note_snap` or from :class:`SnapSettings`. Useful attributes:

    * :attr:`state` — the engine's :class:`~musicgames.snap.SnapState` of the game;
    * :attr:`record` — this game's :class:`GameRecord` so far; :attr:`records` — the
      finished games; :meth:`on_game_over` — a callback for each finished game;
    * :meth:`new_game` — start again (cancels every pending timer); :meth:`receive` —
      handle one message as the page sends it.
    """

    _esm = joined("_dom.js", "_focus.js", "_sound.js", "note_snap.js")
    _css = joined("_focus.css", "_sound.css", "note_snap.css")

    table = traitlets.Dict().tag(sync=True)
    form = traitlets.Dict().tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    notice = traitlets.Unicode("").tag(sync=True)
    card_svgs = traitlets.Dict().tag(sync=True)
    guide = traitlets.Dict().tag(sync=True)
    sounds = traitlets.Dict().tag(sync=True)
    #: The practice of the notes hesitated on, once asked for at the end of a game: a
    #: reference to a :class:`~musicgames.widgets.note_drill.NoteDrill` the page shows.
    practice = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        settings: SnapSettings | None = None,
        *,
        progress: ProgressSink | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._settings = settings or SnapSettings()
        self._progress = progress
        #: Progress writes that failed (the person is told once; the game goes on).
        self.progress_errors: list[str] = []
        self._listeners: list[Callable[[GameRecord], None]] = []
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._closed = False
        self._started = False
        self._game_number = 0
        self._card: _CardInPlay | None = None
        self._last_outcome: Outcome | None = None
        self._last_slaps: Outcome | None = None
        self._last_flip: Flipped | None = None
        self.records: list[GameRecord] = []
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
        self._paused = False
        self._played_s = 0.0
        self._clock_from: float | None = None
        self._history: list[dict[str, Any]] = []
        #: The note drill opened from the end of a game ("Practise these notes"), if any.
        self.practice_drill: Any = None
        self.card_svgs = {note.solfege: str(staff_svg(note, size=CARD_SIZE))
                          for note in CARD_NOTES}
        self.sounds = {
            "notes": {note.solfege: notes([note]) for note in CARD_NOTES},
            "right": notes(["Do4", "Mi4", "Sol4"], broken=True),
            "wrong": notes(["Do3", "Fa#3"]),
        }
        self.on_msg(self._on_page_message)
        self._start_game()

    # -- public API -----------------------------------------------------------------------
    @property
    def settings(self) -> SnapSettings:
        """The settings of the game being played."""
        return self._settings

    @property
    def state(self) -> SnapState:
        """The engine's state of the game being played."""
        return self._state

    @property
    def record(self) -> GameRecord:
        """The record of the game being played (complete once it is finished)."""
        return self._record

    @property
    def game_number(self) -> int:
        """Counts the games of this widget from 1; the page tags its messages with it."""
        return self._game_number

    def new_game(
        self,
        settings: SnapSettings | None = None,
        *,
        hands: Sequence[Sequence[int]] | None = None,
        **changes: Any,
    ) -> None:
        """Start a new game, with ``settings`` or the current ones changed by ``changes``
        (any :class:`SnapSettings` field, e.g. ``seed=3, pace_ms=300``). Every timer of
        the game being played is cancelled first.

        ``hands`` deals the piles you choose (card ids, each pile bottom to top, see
        :func:`musicgames.snap.stacked_deal`) instead of a shuffle: for a lesson
        that shows one rule at work, or a test.
        """
        try:
            chosen = replace(settings or self._settings, **changes)
        except TypeError:
            raise SettingsError("snap.error.form") from None
        if hands is not None:
            SnapState.from_deal(hands, chosen.config(), chosen.opener)  # check it first
        self._settings = chosen
        self._start_game(hands)

    def start(self) -> None:
        """Start the game clock (a page does this when it shows the widget)."""
        if not self._started:
            self._started = True
            self._run_clock()
            self._next_turn()

    @property
    def paused(self) -> bool:
        """True while the game waits (Settings or the guide open, the page unfocused, P)."""
        return self._paused

    def pause(self) -> None:
        """Pause the game: computer players stop, the slap window and the game clock stop."""
        if self._paused:
            return
        self._paused = True
        self._stop_clock()
        for name in ("flip", "close", "shown", "time_up"):
            self._cancel(name)
        card = self._card
        if card is not None:  # the card is shown again, with its whole window, on resume
            card.shown_at = None
            card.shown_by_timeout = False
        self._publish()

    def resume(self) -> None:
        """Go on after a pause (the page counts 3-2-1 first, then says so)."""
        if not self._paused:
            return
        self._paused = False
        self._run_clock()
        self._publish()
        if self._card is not None:
            self._later("shown", SHOWN_TIMEOUT_MS, self._shown_by_timeout)
        else:
            self._next_turn()

    def played_seconds(self) -> float:
        """Seconds of play in this game, pauses not counted."""
        running = 0.0 if self._clock_from is None else self._now() - self._clock_from
        return self._played_s + running

    def _run_clock(self) -> None:
        if self._clock_from is None and self._started and not self._paused \
                and not self._state.is_terminal():
            self._clock_from = self._now()

    def _stop_clock(self) -> None:
        if self._clock_from is not None:
            self._played_s += self._now() - self._clock_from
            self._clock_from = None

    def _time_left_s(self) -> float | None:
        if self._settings.length != GameLength.TIMED.value:
            return None
        return max(0.0, self._settings.minutes * 60.0 - self.played_seconds())

    def on_game_over(self, callback: Callable[[GameRecord], None]) -> None:
        """Call ``callback(record)`` each time a game ends."""
        self._listeners.append(callback)

    def receive(self, content: object) -> None:
        """Handle one message from the page (a dict with a ``type``).

        A message that cannot be read, or does not apply now, changes nothing; it is noted
        in :attr:`refused` with the reason.
        """
        kind = content.get("type") if isinstance(content, Mapping) else None
        handler = _DISPATCH.get(kind) if isinstance(kind, str) else None
        if handler is None or not isinstance(content, Mapping):
            shown = short_repr(content)
            self._refuse(short_repr(kind), f"{shown} is not a Note Snap message")
            return
        try:
            handler(self, content)
        except (MessageError, _Refused) as err:
            self._refuse(str(kind), str(err))
        except Exception as err:  # a message nobody foresaw: refused, never raised
            _LOG.exception("Note Snap: a %s message could not be handled", kind)
            self._refuse(str(kind), f"the message could not be handled ({type(err).__name__})")

    def close(self) -> None:
        """Cancel every timer and close the widget."""
        self._closed = True
        self.cancel_timers()
        self._close_practice()
        super().close()

    def _close_practice(self) -> None:
        if self.practice_drill is not None:
            self.practice_drill.close()
            self.practice_drill = None
        self.practice = ""

    def cancel_timers(self) -> None:
        """Cancel every pending kernel timer (computer flips, slap windows)."""
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()

    @property
    def pending_timers(self) -> tuple[str, ...]:
        """The names of the kernel timers still waiting (for tests and curious teachers)."""
        return tuple(name for name, task in self._timers.items() if not task.done())

    # -- game flow ------------------------------------------------------------------------
    def _start_game(self, hands: Sequence[Sequence[int]] | None = None) -> None:
        self.cancel_timers()
        settings = self._settings
        self._game_number += 1
        seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(
            2**31)
        self._seed = seed
        if hands is None:
            self._state = new_game(random.Random(seed), settings.config(), settings.opener)
        else:
            self._state = SnapState.from_deal(hands, settings.config(), settings.opener)
        bot_rng = random.Random(f"note-snap bots {seed}")
        self._bots = {
            seat: Bot(seat, s.level, random.Random(bot_rng.getrandbits(64)))
            for seat, s in enumerate(settings.seats)
            if s.kind == COMPUTER
        }
        self._card = None
        self._last_outcome = None
        self._last_slaps = None
        self._last_flip = None
        self._paused = False
        self._played_s = 0.0
        self._clock_from = None
        self._history = []
        self._close_practice()
        self._run_clock()
        self._record = GameRecord(
            game=self._game_number,
            seed=seed,
            settings=settings.to_dict(),
            seats=[
                {"seat": i, "name": n, "kind": s.kind,
                 "level": s.level if s.kind == COMPUTER else None}
                for i, (s, n) in enumerate(zip(settings.seats, self._seat_names(), strict=True))
            ],
        )
        self.notice = ""
        self._publish_display()
        self._publish()
        if self._started:
            self._next_turn()

    def _next_turn(self) -> None:
        state = self._state
        if self._closed or not self._started or self._paused or state.phase is not Phase.FLIP:
            return
        left = self._time_left_s()
        if left is not None:
            if left <= 0:
                self._time_up()
                return
            self._later("time_up", left * 1000.0 + 50.0, self._time_up)
        seat = state.to_flip
        if seat in self._bots:
            self._later("flip", self._settings.pace_ms, self._computer_flips)

    def _time_up(self) -> None:
        """A timed game's time is over: between two cards, the game ends."""
        left = self._time_left_s()
        if self._paused or self._state.phase is not Phase.FLIP or left is None:
            return
        if left > 0:
            self._later("time_up", left * 1000.0 + 50.0, self._time_up)
            return
        self._state.apply(TimeUp())
        self._end_game()
        self._publish()

    def _computer_flips(self) -> None:
        state = self._state
        if self._paused or state.phase is not Phase.FLIP or state.to_flip not in self._bots:
            return
        bot = self._bots[state.to_flip]
        self._flip(bot.flip(state.view(bot.seat)))

    def _flip(self, flip: Flip) -> None:
        events = self._state.apply(flip)
        flipped = next(e for e in events if isinstance(e, Flipped))
        self._last_flip = flipped
        outcomes = [e for e in events if isinstance(e, Outcome)]
        if outcomes:  # a wrong call (S10) or a missed match (S9): no slap phase
            self._finish_card(outcomes, flipped)
            return
        plan: dict[int, float] = {}
        passes: dict[int, float] = {}
        for seat, bot in self._bots.items():
            decision = bot.decide(self._state.view(seat))
            if isinstance(decision, Slap):
                plan[seat] = decision.reaction_ms
            elif isinstance(decision, Pass):
                passes[seat] = decision.at_ms
        self._card = _CardInPlay(flipped.number, flipped.card, flipped.seat, flipped.call, plan,
                                 passes)
        self._publish()
        self._later("shown", SHOWN_TIMEOUT_MS, self._shown_by_timeout)

    def _shown_by_timeout(self) -> None:
        card = self._card
        if card is not None and card.shown_at is None:
            card.shown_by_timeout = True
            self._card_shown(card)

    def _card_shown(self, card: _CardInPlay) -> None:
        if self._paused:
            return
        card.shown_at = self._now()
        self._cancel("shown")
        self._later("close", self._settings.slap_window_ms + WINDOW_GRACE_MS, self._close_slaps)
        self._close_early_if_all_decided()

    def _close_early_if_all_decided(self) -> None:
        """S14 v2: once every seat has slapped or passed, the card is judged."""
        card = self._card
        if card is None or card.shown_at is None or self._paused:
            return
        # when each seat decided, in ms from the card's showing: the people's decisions are
        # past (0: now at the latest), the computer players' are due at their drawn times
        decided = dict.fromkeys([*card.person_slaps, *card.person_passes], 0.0)
        decided.update(card.computer_slaps)
        decided.update(card.computer_passes)
        last_due = early_close_ms(len(self._settings.seats), decided)
        if last_due is None:
            return  # a seat has not decided: the window closes by itself (S14)
        elapsed_ms = (self._now() - card.shown_at) * 1000.0
        self._later("close", max(0.0, last_due - elapsed_ms) + SETTLE_MS, self._close_slaps)

    def _close_slaps(self) -> None:
        card = self._card
        state = self._state
        if card is None or state.phase is not Phase.SLAPS:
            return
        events: list[Any] = []
        decisions: list[Slap | Pass] = [Slap(seat, ms) for seat, ms in card.computer_slaps.items()]
        decisions += [Pass(seat, ms) for seat, ms in card.computer_passes.items()]
        decisions.sort(key=lambda d: d.reaction_ms if isinstance(d, Slap) else d.at_ms)
        for decision in decisions:
            if state.phase is Phase.SLAPS:
                events.extend(state.apply(decision))
        if state.phase is Phase.SLAPS:
            events.extend(state.apply(CloseSlaps()))
        self._finish_card([e for e in events if isinstance(e, Outcome)], self._last_flip)

    def _finish_card(self, outcomes: Sequence[Outcome], flipped: Flipped | None) -> None:
        """Record what became of the card and go on. ``outcomes`` has one
        :class:`Outcome`, or two when nobody can flip any more: the card's own, then the
        dead pile's (S16)."""
        self._cancel("close")
        self._cancel("shown")
        self._card = None
        judged, final = outcomes[0], outcomes[-1]
        self._last_outcome = final
        self._last_slaps = judged
        reactions: list[float | None] = [None] * len(self._settings.seats)
        for slap in judged.slaps:
            reactions[slap.seat] = slap.reaction_ms
        self._record.cards.append(
            CardRecord(
                number=flipped.number if flipped is not None else self._state.flips,
                note=card_note(final.card).solfege,
                called=final.call,
                expected=flipped.expected if flipped is not None else final.call,
                flipper=final.flipper,
                match=final.match,
                reactions=tuple(reactions),
                outcome=final.reason.value,
                taker=final.taker,
                cards_taken=final.cards_taken,
            )
        )
        self._to_progress(self._record.cards[-1])
        self._remember(self._record.cards[-1], flipped)
        if self._state.is_terminal():
            self._end_game()
        self._publish()
        self._next_turn()

    def _remember(self, card: CardRecord, flipped: Flipped | None) -> None:
        """The history strip: the last five cards, newest first."""
        person = self._single_person()
        naming = self._settings.naming
        note = card_note(flipped.card) if flipped is not None else None
        self._history.insert(0, {
            "number": card.number,
            "note": card.note,
            "label": note.label(naming) if note is not None else card.note,
            "call": card.called,
            "match": card.slappable_match,
            "slappable": card.slappable,
            "reason": card.outcome,
            "taker": card.taker,
            "cards": card.cards_taken,
            "your_ms": card.reactions[person] if person is not None else None,
        })
        del self._history[HISTORY_KEPT:]

    def summary(self) -> dict[str, Any]:
        """How the person alone at the table played this game (empty with no such person):
        why it ended, the mean reaction on matches slapped, matches missed, false slaps, and
        the notes hesitated on (missed, or slapped slower than 1.25 × the person's median).
        ``practice`` is the notes to practise: those hesitated on, then those slapped by
        mistake. ``ended`` and ``lines`` are the sentences the page shows, in the table's
        language; ``advice`` names the notes to practise, or praises a game with no
        hesitation, no false slap and no miss."""
        person = self._single_person()
        state = self._state
        out: dict[str, Any] = {"ended_by": state.ended_by, "flips": state.flips,
                               "ended": self._ended_sentences()}
        if person is None:
            return out
        played = [c for c in self._record.cards if c.slappable]
        hits = [c.reactions[person] for c in played if c.match and c.reactions[person]
                is not None]
        times = [ms for ms in hits if ms is not None]
        median = statistics.median(times) if times else None
        hesitated: dict[str, int] = {}
        for c in played:
            ms = c.reactions[person]
            if c.match and (ms is None or (median is not None and ms > 1.25 * median)):
                hesitated[c.note] = hesitated.get(c.note, 0) + 1
        missed_matches = [c for c in played if c.match and c.reactions[person] is None]
        notes_ = sorted(hesitated, key=lambda n: (-hesitated[n], n))[:4]
        naming = self._settings.naming
        false_slaps = [c for c in played if not c.match and c.reactions[person] is not None]
        names = self._call_names()
        out.update({
            "mean_ms": round(statistics.fmean(times)) if times else None,
            "matches": len(times),
            "misses": len(missed_matches),
            "false_slaps": len(false_slaps),
            "false_cards": [
                {"number": c.number, "label": Note.parse(c.note).label(naming),
                 "call": names[CALL_CYCLE.index(c.called)]}
                for c in false_slaps
            ],
            "hesitated": notes_,
            "hesitated_labels": [Note.parse(n).label(naming) for n in notes_],
        })
        practice = list(notes_)
        for c in false_slaps:
            if c.note not in practice and len(practice) < PRACTICE_MOST:
                practice.append(c.note)
        out["practice"] = practice
        out["practice_labels"] = [Note.parse(n).label(naming) for n in practice]
        out["lines"] = self._summary_sentences(out)
        language = self._settings.language
        out["advice"] = (
            text("snap.summary.practise", language, notes=", ".join(out["practice_labels"]))
            if practice else text("snap.summary.none", language))
        return out

    def _ended_sentences(self) -> list[str]:
        """Why the game ended, and how many cards were flipped (said once: a game ended by
        its card limit says it in its reason)."""
        state = self._state
        language = self._settings.language
        if state.ended_by is None:
            return []
        config = state.config
        cards = counted("snap.summary.cards", config.card_limit or 0, language)
        minutes = self._settings.minutes
        why = text(f"snap.over.{state.ended_by}", language, limit=config.hand_limit,
                   cards=cards, minutes=f"{minutes:g}")
        if state.ended_by == "card_limit":
            return [why]
        return [why, counted("snap.summary.flips", state.flips, language)]

    def _summary_sentences(self, summary: Mapping[str, Any]) -> list[str]:
        """The person's game in whole sentences, each count in its singular or plural."""
        language = self._settings.language
        lines: list[str] = []
        if summary["mean_ms"] is None:
            lines.append(text("snap.summary.mean_none", language))
        else:
            lines.append(counted("snap.summary.mean", summary["matches"], language,
                                 ms=summary["mean_ms"]))
        lines.append(counted("snap.summary.misses", summary["misses"], language))
        false_line = counted("snap.summary.false", summary["false_slaps"], language)
        if summary["false_cards"]:
            cards = ", ".join(
                text("snap.summary.false_card", language, note=c["label"], call=c["call"])
                for c in summary["false_cards"])
            those = counted("snap.summary.false_cards", len(summary["false_cards"]), language,
                            cards=cards)
            false_line = f"{false_line} {those}"
        lines.append(false_line)
        return lines

    def standings(self) -> list[dict[str, Any]]:
        """Every seat's place at the end of the game: the fewest cards in hand first (equal
        counts share a place), with its name and card count. The winners come first even
        when they hold cards (a game ended by S11 is won with none).

        >>> game = play_note_snap(people=1, computers=2, seed=1)
        >>> [(s["place"], s["name"], s["cards"]) for s in game.standings()]
        [(1, 'Computer 2', 18), (2, 'You', 19), (2, 'Computer 1', 19)]
        >>> game.close()
        """
        names = self._seat_names()
        sizes = self._state.hand_sizes
        winners = set(self._state.winners)
        key = [(0 if seat in winners else 1, size) for seat, size in enumerate(sizes)]
        order = sorted(range(len(sizes)), key=lambda seat: (key[seat], seat))
        return [
            {"seat": seat, "name": names[seat], "cards": sizes[seat],
             "place": 1 + sum(1 for other in key if other < key[seat])}
            for seat in order
        ]

    def practise(self) -> Any:
        """Open a note drill of the notes to practise from the game that ended (the page's
        "Practise these notes" button); refused while the game is on or when there are none."""
        summary = self.summary() if self._state.is_terminal() else {}
        chosen = summary.get("practice") or []
        if not chosen:
            raise _Refused("no notes to practise: the game is not over or none held you up")
        from musicgames.widgets.note_drill import NoteDrill

        if self.practice_drill is not None:
            self.practice_drill.close()
        settings = self._settings
        drill = NoteDrill(chosen, naming=settings.naming, language=settings.language,
                          questions=max(8, 2 * len(chosen)), progress=self._progress)
        self.practice_drill = drill
        self.practice = f"IPY_MODEL_{drill.model_id}"
        return drill

    def _end_game(self) -> None:
        self._stop_clock()
        self.cancel_timers()
        record = self._record
        record.winners = self._state.winners
        record.finished = True
        record.saved = self._state.to_dict()
        self.records.append(record)
        if self._progress is not None and self._single_person() is not None:
            person = self._single_person()
            won = person in record.winners
            try:
                self._progress.record("note_snap", "game", "won" if won else "lost", None, None)
            except Exception as err:  # disk full, file locked: the game goes on
                self._progress_failed(err)
        for listener in list(self._listeners):
            listener(record)

    def _single_person(self) -> int | None:
        people = [i for i, s in enumerate(self._settings.seats) if s.kind == PERSON]
        return people[0] if len(people) == 1 else None

    def _to_progress(self, card: CardRecord) -> None:
        """One row per card shown to the person (only when one person plays)."""
        person = self._single_person()
        if self._progress is None or person is None:
            return
        if not card.slappable:
            return  # the card was never open for slaps
        ms = card.reactions[person]
        slapped = ms is not None
        try:
            self._progress.record(
                "note_snap", card.note, "slap" if slapped else "no slap", slapped == card.match, ms
            )
        except Exception as err:  # disk full, file locked: the game goes on
            self._progress_failed(err)

    def _progress_failed(self, err: BaseException) -> None:
        """A progress write failed: say so once (in the table's language), play on."""
        self.progress_errors.append(str(err))
        if len(self.progress_errors) == 1:
            self.notice = not_saved_notice(err, self._settings.language)

    # -- handlers of the page's messages --------------------------------------------------
    def _on_ready(self, message: ReadyMessage) -> None:
        self.start()

    def _current(self, game: int, number: int) -> _CardInPlay:
        if game != self._game_number:
            raise _Refused(f"game {game} is over: this is game {self._game_number}")
        card = self._card
        if card is None or card.number != number or self._state.phase is not Phase.SLAPS:
            raise _Refused(f"card {number} is no longer waiting for slaps")
        return card

    def _on_shown(self, message: ShownMessage) -> None:
        card = self._current(message.game, message.number)
        if card.shown_at is not None and not card.shown_by_timeout:
            raise _Refused(f"card {message.number} was already shown")
        card.shown_by_timeout = False  # a page painted it late: its window counts from now
        self._card_shown(card)

    def _on_slap(self, message: SlapMessage) -> None:
        seats = self._settings.seats
        if not 0 <= message.seat < len(seats) or seats[message.seat].kind != PERSON:
            raise _Refused(f"seat {message.seat} is not a person at this table")
        card = self._current(message.game, message.number)
        if message.seat in card.person_slaps or message.seat in card.person_passes:
            raise _Refused(f"seat {message.seat} has already slapped or passed card "
                           f"{message.number}")
        try:
            events = self._state.apply(Slap(message.seat, message.reaction_ms))
        except SnapError as err:
            raise _Refused(str(err)) from None
        card.person_slaps[message.seat] = message.reaction_ms
        outcomes = [e for e in events if isinstance(e, Outcome)]
        if outcomes:  # every seat has slapped: the engine closed the phase (S14)
            self._finish_card(outcomes, self._last_flip)
            return
        self._publish()
        self._close_early_if_all_decided()

    def _on_pass(self, message: PassMessage) -> None:
        seats = self._settings.seats
        if not 0 <= message.seat < len(seats) or seats[message.seat].kind != PERSON:
            raise _Refused(f"seat {message.seat} is not a person at this table")
        card = self._current(message.game, message.number)
        if message.seat in card.person_slaps or message.seat in card.person_passes:
            raise _Refused(f"seat {message.seat} has already slapped or passed")
        try:
            events = self._state.apply(Pass(message.seat, message.at_ms))
        except SnapError as err:
            raise _Refused(str(err)) from None
        card.person_passes[message.seat] = message.at_ms
        outcomes = [e for e in events if isinstance(e, Outcome)]
        if outcomes:  # every seat has decided: the engine closed the phase (S14 v2)
            self._finish_card(outcomes, self._last_flip)
            return
        self._publish()
        self._close_early_if_all_decided()

    def _on_pause(self, message: PauseMessage) -> None:
        if self._state.is_terminal():
            raise _Refused("the game is over: nothing to pause")
        if message.paused:
            self.pause()
        else:
            self.resume()

    def _on_flip(self, message: FlipMessage) -> None:
        if message.game != self._game_number:
            raise _Refused(f"game {message.game} is over: this is game {self._game_number}")
        if self._paused:
            raise _Refused("the game is paused")
        seats = self._settings.seats
        if not 0 <= message.seat < len(seats) or seats[message.seat].kind != PERSON:
            raise _Refused(f"seat {message.seat} is not a person at this table")
        try:
            flip = Flip(message.seat, message.call)
            if not self._state.is_legal(flip):
                self._state.apply(flip)  # raises the engine's error, which says why
        except SnapError as err:
            raise _Refused(str(err)) from None
        self._flip(flip)

    def _on_new_game(self, message: NewGameMessage) -> None:
        try:
            settings = (
                self._settings
                if message.settings is None
                else SnapSettings.from_dict(message.settings, self._settings)
            )
        except SettingsError as err:
            language = _language_of(message.settings, self._settings.language)
            self.notice = text("snap.settings.error", language, why=err.say(language))
            raise MessageError(f"settings refused: {err}") from None
        except TypeError:
            self.notice = text("snap.settings.error", self._settings.language,
                               why=text("snap.error.form", self._settings.language))
            raise MessageError("settings refused: the form sent something unexpected") from None
        self._settings = settings
        self._start_game()

    def _on_display(self, message: DisplayMessage) -> None:
        changes: dict[str, Any] = {k: v for k, v in (("language", message.language),
                                     ("naming", message.naming)) if v is not None}
        try:
            if "naming" in changes:
                changes["naming"] = _naming(changes["naming"])
            self._settings = replace(self._settings, **changes)
        except SettingsError as err:
            raise MessageError(str(err)) from None
        self._publish_display()
        self._publish()

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def _refuse(self, kind: str, why: str) -> None:
        if len(why) > 300:  # a reason, not an echo of a huge value
            why = f"{why[:297]}…"
        self.refused.append((kind, why))
        del self.refused[:-_REFUSED_KEPT]
        _LOG.debug("Note Snap refused a %s message: %s", kind, why)

    # -- timers ---------------------------------------------------------------------------
    @staticmethod
    def _now() -> float:
        """The kernel's clock in seconds: only used to schedule timers, never to judge."""
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return time.monotonic()

    def _later(self, name: str, delay_ms: float, step: Callable[[], None]) -> None:
        """Run ``step`` after ``delay_ms`` unless cancelled or the game changed meanwhile.
        A timer of the same name is replaced."""
        self._cancel(name)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            _LOG.debug("Note Snap: no asyncio event loop is running, so the %s timer "
                       "cannot start", name)
            return
        game = self._game_number

        async def wait_then_step() -> None:
            await asyncio.sleep(max(0.0, delay_ms) / 1000.0)
            if self._closed or game != self._game_number:
                return
            if self._timers.get(name) is task:
                del self._timers[name]
            try:
                step()
            except Exception as err:  # a bug must not pass silently, nor kill the kernel
                _LOG.exception("Note Snap: the %s timer failed (%s)", name, err)
                self.notice = text("snap.error.internal", self._settings.language)

        task = loop.create_task(wait_then_step())
        self._timers[name] = task

    def _cancel(self, name: str) -> None:
        task = self._timers.pop(name, None)
        if task is not None:
            task.cancel()

    # -- what the page is sent ------------------------------------------------------------
    def _seat_names(self) -> list[str]:
        language = self._settings.language
        seats = self._settings.seats
        people = sum(1 for s in seats if s.kind == PERSON)
        names: list[str] = []
        counts = {PERSON: 0, COMPUTER: 0}
        for seat in seats:
            counts[seat.kind] += 1
            if seat.kind == PERSON:
                names.append(
                    text("snap.seat.alone", language)
                    if people == 1
                    else text("snap.seat.person", language, n=counts[PERSON])
                )
            else:
                names.append(text("snap.seat.computer", language, n=counts[COMPUTER]))
        return names

    def _publish_display(self) -> None:
        settings = self._settings
        language = settings.language
        self.strings = {**catalogue(language, "snap."), **sound_strings(language)}
        self.guide = {
            "rows": [
                {"svg": str(staff_svg(row, size=CARD_SIZE)),
                 "labels": [note.label(settings.naming) for note in row]}
                for row in (CARD_NOTES[i:i + GUIDE_ROW] for i in range(0, len(CARD_NOTES),
                                                                        GUIDE_ROW))
            ],
        }
        self.form = settings.to_dict()
        self.options = {
            "levels": [
                {"id": name, "label": text(f"snap.level.{name}", language)} for name in LEVELS
            ],
            "languages": [{"code": c, "name": text("language.name", c)} for c in LANGUAGES],
            # the keys the settings form fills in, by how many people play
            "default_keys": {str(n): list(default_keys(n)) for n in range(1, 5)},
            "lengths": [
                {"id": length, "label": text(f"snap.settings.length_{length}", language,
                                             minutes=f"{settings.minutes:g}")}
                for length in LENGTHS
            ],
        }

    def _call_names(self) -> list[str]:
        return list(LETTERS if self._settings.naming is Naming.LETTERS else CALL_CYCLE)

    def _publish(self) -> None:
        """Send the page the whole table (small: the card drawings are sent once)."""
        state = self._state
        settings = self._settings
        language = settings.language
        naming = settings.naming
        names = self._seat_names()
        keys = settings.keys()
        hands = state.hand_sizes
        seats = [
            {
                "seat": i,
                "name": names[i],
                "kind": s.kind,
                "level": s.level if s.kind == COMPUTER else None,
                "level_label": text(f"snap.level.{s.level}", language)
                if s.kind == COMPUTER else None,
                "cards": hands[i],
                "key": keys[i],
                "call_mode": state.config.call_modes[i].value,
                "is_you": s.kind == PERSON and self._single_person() == i,
            }
            for i, s in enumerate(settings.seats)
        ]
        card: dict[str, Any] | None = None
        flipped = self._last_flip
        if flipped is not None:
            note = card_note(flipped.card)
            live = self._card
            card = {
                "number": flipped.number,
                "note": note.solfege,
                "label": note.label(naming),
                "call": flipped.call,
                # a slap on it is right: the rules' judgement (S6), which the page only reads
                "match": is_match(flipped.card, flipped.call),
                "flipper": flipped.seat,
                "window_ms": settings.slap_window_ms,
                "computer_slaps": sorted(
                    ([s, ms] for s, ms in live.computer_slaps.items()), key=lambda x: x[1]
                ) if live is not None and live.number == flipped.number else [],
                "computer_passes": sorted(
                    ([s, ms] for s, ms in live.computer_passes.items()), key=lambda x: x[1]
                ) if live is not None and live.number == flipped.number else [],
            }
        live = self._card
        outcome = self._last_outcome
        result: dict[str, Any] | None = None
        if outcome is not None:
            last = self._record.cards[-1]
            judged = self._last_slaps or outcome
            result = {
                **outcome.to_dict(),
                "slaps": [[s.seat, s.reaction_ms] for s in judged.slaps],
                "not_slapped": list(judged.not_slapped),
                "number": last.number,
                "match": last.slappable_match,  # "A match!" only for a card one could slap
                "slappable": last.slappable,
                "label": card_note(outcome.card).label(naming),
                "expected": last.expected,
            }
        self.table = {
            "game": self._game_number,
            "started": self._started,
            "phase": state.phase.value,
            "naming": naming.value,
            "language": language,
            "names": self._call_names(),
            "seats": seats,
            "turn": state.to_flip if state.phase is Phase.FLIP else None,
            "next_call": state.next_call,
            "centre": len(state.centre),
            "card": card,
            "slaps": sorted(
                ([s, ms] for s, ms in live.person_slaps.items()), key=lambda x: x[1]
            ) if live is not None and state.phase is Phase.SLAPS else [],
            "result": result,
            "winners": list(state.winners),
            "flips": state.flips,
            "paused": self._paused,
            "length": settings.length,
            "minutes": settings.minutes,
            "hand_limit": state.config.hand_limit,
            "card_limit": state.config.card_limit,
            "time_left_s": self._time_left_s(),
            "hear_cards": settings.hear_cards,
            "pass_key": PASS_KEY if self._single_person() is not None else None,
            "passes": sorted(live.person_passes) if live is not None
            and state.phase is Phase.SLAPS else [],
            "history": self._history,
            "summary": self.summary() if state.is_terminal() else None,
            "standings": self.standings() if state.is_terminal() else None,
        }


def play_note_snap(
    people: int = 1,
    computers: int = 2,
    *,
    level: str | Sequence[str] = DEFAULT_LEVEL,
    keys: Sequence[str] | None = None,
    pace_ms: float = DEFAULT_FLIP_PAUSE_MS,
    slap_window_ms: float = DEFAULT_SLAP_WINDOW_MS,
    tie_window_ms: float = DEFAULT_TIE_WINDOW_MS,
    call_mode: str = "auto",
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    seed: int | None = None,
    opener: int = 0,
    length: str = "timed",
    minutes: float = 5.0,
    hear_cards: bool = False,
    card_limit: int | None = None,
    progress: ProgressSink | None = None,
) -> NoteSnapWidget:
    """Open a Note Snap table: ``people`` at the keyboard (seated first), then ``computers``
    computer players at ``level`` (one level, or one per computer player).

    One person slaps with Space; several share the keyboard with A, L, Z, M (or ``keys``,
    as ``KeyboardEvent.code`` values like ``'KeyQ'``). Everything else is a
    :class:`SnapSettings` field. ``progress`` (a :class:`musicgames.progress.ProgressStore`)
    receives one row per card when one person plays.
    """
    settings = SnapSettings(
        seats=_table_seats(people, computers, level, keys),
        pace_ms=pace_ms,
        slap_window_ms=slap_window_ms,
        tie_window_ms=tie_window_ms,
        call_mode=call_mode,
        naming=_naming(naming),
        language=language,
        seed=seed,
        opener=opener,
        length=length,
        minutes=minutes,
        hear_cards=hear_cards,
        card_limit=card_limit,
    )
    return NoteSnapWidget(settings, progress=progress)


def how_to_play(language: str = "en") -> Any:
    """The rules and keys of the game in ``language``, as Markdown a notebook displays.

    >>> how_to_play("es").data.startswith("# Mano a la nota")
    True
    """
    from IPython.display import Markdown

    title = text("snap.title", language)
    return Markdown(f"# {title}\n\n{text('snap.help.body', language)}")
