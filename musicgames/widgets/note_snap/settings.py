"""The settings of a Note Snap table: its seats (people and computer players, their keys),
how long a game lasts, how it is shown. The times and the card limit are the engine's
settings (:class:`~musicgames.snap.SnapConfig`): their defaults and their checks are the
engine's, said here in the words of the page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from musicgames.i18n import LANGUAGES, text
from musicgames.snap import (
    CALL_CYCLE,
    CallMode,
    ConfigError,
    GameLength,
    SnapConfig,
    SnapError,
)
from musicgames.snap.bots import LEVELS
from musicgames.snap.config import (
    DEFAULT_FLIP_PAUSE_MS,
    DEFAULT_SLAP_WINDOW_MS,
    DEFAULT_TIE_WINDOW_MS,
    MAX_CARD_LIMIT,
    check_players,
)
from musicgames.theory import LETTERS, SYLLABLES_BY_LANGUAGE, Naming

__all__ = [
    "COMPUTER",
    "DEFAULT_LEVEL",
    "LENGTHS",
    "PERSON",
    "RESERVED_KEYS",
    "SHARED_KEYS",
    "SHORT_CARD_LIMIT",
    "SOLO_KEY",
    "SeatSetting",
    "SettingsError",
    "SnapSettings",
    "call_names",
    "default_keys",
    "key_label",
    "language_of",
    "naming_of",
    "seat_names",
    "single_person",
    "table_seats",
]

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

#: A short game also ends once this many cards have been flipped (lesson 3's game): at the
#: default pace it fits in 3 minutes.
SHORT_CARD_LIMIT = 40


class SettingsError(ValueError):
    """Settings the table cannot use: an unknown seat kind or level, a clashing key, …

    Its words come from the catalogue (the key ``what`` and its ``values``): ``str(err)`` is the
    English, :meth:`say` gives them in any language of the page, never with Python syntax.

    >>> SnapSettings(pace_ms=-5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.widgets.note_snap.settings.SettingsError: Computer's pause before ...
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
    musicgames.widgets.note_snap.settings.SettingsError: 1 players cannot play: ...
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
        try:
            check_players(len(seats))  # the engine's rule (S3), before the seats are read
        except ConfigError:
            raise SettingsError("snap.error.players", n=len(seats)) from None
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
        object.__setattr__(self, "naming", naming_of(self.naming))
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
            values["naming"] = naming_of(values["naming"])
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


def language_of(settings: Mapping[str, Any] | None, default: str) -> str:
    """The language a settings form asked for, when it is one of the page's."""
    chosen = settings.get("language") if settings is not None else None
    return chosen if isinstance(chosen, str) and chosen in LANGUAGES else default


def naming_of(value: Naming | str) -> Naming:
    """``value`` as a :class:`~musicgames.theory.Naming` (``'letters'`` or one already)."""
    try:
        return Naming(value)
    except (ValueError, TypeError):
        raise SettingsError("snap.error.naming") from None


def table_seats(
    people: int, computers: int, level: str | Sequence[str], keys: Sequence[str] | None
) -> tuple[SeatSetting, ...]:
    """The seats of :func:`~musicgames.widgets.note_snap.play_note_snap`: ``people`` first
    (with their ``keys``, or the defaults), then ``computers`` at ``level`` (one for all, or
    one each)."""
    levels = [level] * computers if isinstance(level, str) else list(level)
    if len(levels) != computers:
        raise SettingsError("snap.error.levels", n=computers)
    own_keys = list(keys) if keys is not None else [""] * people
    if len(own_keys) != people:
        raise SettingsError("snap.error.keys", n=people)
    return tuple(SeatSetting(PERSON, levels[0] if levels else DEFAULT_LEVEL, k)
                 for k in own_keys) + tuple(SeatSetting(COMPUTER, lv) for lv in levels)



def seat_names(settings: SnapSettings) -> list[str]:
    """Each seat's name on the page, in the table's language: "You" for a person alone,
    else "Person 1", "Person 2", …; "Computer 1", "Computer 2", …"""
    language = settings.language
    seats = settings.seats
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


def single_person(settings: SnapSettings) -> int | None:
    """The seat of the person alone at the table (``None``: no person, or several)."""
    people = [i for i, s in enumerate(settings.seats) if s.kind == PERSON]
    return people[0] if len(people) == 1 else None


def call_names(naming: Naming, language: str = "en") -> list[str]:
    """The seven names called, in order, as the page shows them: letters, or solfège as the
    language spells it (ré in French)."""
    if naming is Naming.LETTERS:
        return list(LETTERS)
    return list(SYLLABLES_BY_LANGUAGE.get(language, CALL_CYCLE))
