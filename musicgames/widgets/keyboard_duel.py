"""Keyboard Duel in a notebook: you (White) against a computer player (Casual or Sharp).

The rules live in :mod:`musicgames.duel`; this widget only runs the table. The page (the
JavaScript view in ``keyboard_duel.js``) draws the ``table`` it is sent — the board, both
trays, your hand, the duel panel, the log — and offers only the choices the engine lists as
legal. What you do comes back as a small typed message; the widget checks it, turns it into
an engine action, and sends the new table. If the engine refuses an action, its error text
is shown as it is.

The computer's turns play out step by step: each step is an asyncio task that asks the
computer player (in a worker thread, so the kernel keeps answering) and waits a short pause
before showing the result. Every task is cancelled by :meth:`KeyboardDuelWidget.new_game`,
:meth:`~KeyboardDuelWidget.take_back` and :meth:`~KeyboardDuelWidget.close`.

Start a game in a notebook with :func:`play_keyboard_duel`:

>>> game = play_keyboard_duel("casual", seed=4, naming="letters")
>>> game.table["screen"], game.table["to_act"], len(game.table["hand"])
('play', 'white', 5)
>>> game.close()

The page's messages can be fed in by hand, which is how the tests drive the widget:

>>> game = play_keyboard_duel("casual", seed=4)
>>> game.receive({"type": "act", "seq": 1, "action": {"type": "lock_in"}})
>>> print(game.table["error"])
Lock in refused: there is no duel now; it is White's turn
>>> game.close()

Progress
--------
Given ``progress=`` (a :class:`musicgames.progress.ProgressStore`), the widget stores what
the game teaches about chord tones, from the person's side (White), under the activity
``"keyboard_duel"``. Every row's ``item`` names a key as ``"<note> of <chord>"``: the key's
note in solfège without octave, black keys with sharps as on the board (D2), and the chord
of the piano card it lies on, in English letter names as the chord quiz stores them —
``"Sol of C major"``, ``"Do♯ of A major"`` (see :func:`progress_item`).

* each Place by the person: ``item`` the key (``"Sol of C major"``), ``answer`` its mark
  (``"fff"``, ``"ff"``, ``"f"`` or ``"none"``), ``correct`` True on a chord tone (a marked
  key);
* each duel (every duel is the person's, attacking or defending): ``item``
  ``"duel on Re of D major"``, ``answer`` ``"won"`` or ``"lost"``;
* each round: ``item`` ``"round 2"``, ``answer`` the scores, the person's first (``"14–5"``);
* the game: ``item`` ``"game"``, ``answer`` ``"won"`` or ``"lost"``.

Only the placements judge what the person knows, so only they are right or wrong. Duels,
rounds and the game are outcomes, with dice in them: they are stored with ``correct`` left
empty, as :class:`musicgames.progress.Answer` has it for a game won, so they do not count in
the accuracy tables and figures (nor become a student's "weakest item"). Response times are
``None``: nothing is timed.

Rows are written as each turn ends — the person's or the computer's — for what happened in
that turn: the person's placements, its duels, and the round and the game if that turn ended
them. A turn taken back before it ended leaves no rows, and so does a turn left unfinished by
New game. A turn taken back after it ended keeps its rows (the progress file only grows, and
they record what was played then); the turn played again adds its own.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from musicgames.duel import (
    BLACK,
    COMPOSE_DECK,
    PIANO_CARDS,
    WHITE,
    Action,
    DuelCard,
    DuelError,
    DuelState,
    EndTurn,
    LockIn,
    Move,
    Phase,
    Place,
    SeatView,
    Shift,
    TokenState,
    action_from_json,
    attacker_win_chance,
    chance_after_card,
    effect_of_card,
    key_name,
    win_chance_now,
)
from musicgames.duel.bots import Bot, make_bot
from musicgames.duel.cards import KEYS_PER_CARD
from musicgames.i18n import LANGUAGES, LanguageError, catalogue, text
from musicgames.progress import ProgressSink
from musicgames.render import keyboard_svg
from musicgames.theory import Naming

__all__ = [
    "OPPONENTS",
    "ActMessage",
    "ContinueMessage",
    "HintMessage",
    "KeyboardDuelWidget",
    "MessageError",
    "NewGameMessage",
    "PROGRESS_ACTIVITY",
    "PageMessage",
    "ProgressSink",
    "SettingsMessage",
    "UndoMessage",
    "make_player",
    "parse_message",
    "play_keyboard_duel",
    "progress_item",
    "progress_rows",
]

_HERE = Path(__file__).parent

#: The computer opponents a person can choose (the rules page, "Computer opponents").
OPPONENTS: tuple[str, ...] = ("casual", "sharp")
#: Seconds between the computer's steps, so a person can follow them.
DEFAULT_PAUSE = 0.7
#: Lines of the log sent to the page (the newest).
LOG_LINES_SHOWN = 300

_SEAT_KEYS = ("white", "black")
_PERSON, _COMPUTER = WHITE, BLACK
_TRAY_STATES = {
    TokenState.ON_BOARD: "board",
    TokenState.MERGED: "merged",
    TokenState.BEATEN: "beaten",
    TokenState.UNPLACED: "unplaced",
}
_RULES_KEYS = (
    "duel.rules.goal.head", "duel.rules.goal",
    "duel.rules.table.head", "duel.rules.table",
    "duel.rules.turn.head", "duel.rules.turn", "duel.rules.place", "duel.rules.move",
    "duel.rules.amplify.head", "duel.rules.amplify",
    "duel.rules.duel.head", "duel.rules.duel.roll", "duel.rules.duel.run",
    "duel.rules.duel.result",
    "duel.rules.tray.head", "duel.rules.tray",
    "duel.rules.score.head", "duel.rules.score", "duel.rules.round",
    "duel.rules.computer.head", "duel.rules.computer",
)


class MessageError(ValueError):
    """A message from the page that is not one this widget understands (the text says why)."""


# -- progress ----------------------------------------------------------------------------------

#: The activity of Keyboard Duel's rows in a progress file (see ``musicgames.progress``).
PROGRESS_ACTIVITY = "keyboard_duel"


def progress_item(key: int, piano: Sequence[int]) -> str:
    """How a progress row names a key (0–23) of the board whose piano cards are ``piano``: its
    note in solfège without octave (black keys with sharps, as on the board), then the chord
    of its card in English letter names. The same key of the same chord is always named the
    same, whatever the page's naming and language.

    >>> progress_item(7, (0, 9)), progress_item(13, (0, 9))
    ('Sol of C major', 'Do♯ of A major')
    """
    note = key_name(key, Naming.SOLFEGE).split(" (")[0]
    chord = PIANO_CARDS[piano[key // KEYS_PER_CARD]].name(Naming.LETTERS, "en")
    return f"{note} of {chord}"


def progress_rows(
    events: Sequence[Mapping[str, Any]], piano: Sequence[int], seat: int = WHITE
) -> list[tuple[str, str, bool | None]]:
    """The progress rows ``(item, answer, correct)`` that engine events tell, from ``seat``'s
    side; ``piano`` is the pair of piano cards in play at the first event (a ``round_start``
    event changes it). See the module's notes for what each row means.

    >>> progress_rows([{"event": "place", "seat": 0, "key": 7, "power": 2, "cards": [1, 2]},
    ...                {"event": "place", "seat": 0, "key": 2, "power": 1, "cards": [3]},
    ...                {"event": "round_end", "round": 1, "scores": [6, 9]},
    ...                {"event": "game_over", "winner": 1}], piano=(0, 9))
    [('Sol of C major', 'f', True), ('Re of C major', 'none', False), \
('round 1', '6–9', None), ('game', 'lost', None)]
    """
    rows: list[tuple[str, str, bool | None]] = []
    cards = (piano[0], piano[1])
    for event in events:
        kind = event["event"]
        if kind == "round_start":
            cards = (event["piano"][0], event["piano"][1])
        elif kind == "place" and event["seat"] == seat:
            key = event["key"]
            mark = PIANO_CARDS[cards[key // KEYS_PER_CARD]].marks.get(key % KEYS_PER_CARD, "")
            rows.append((progress_item(key, cards), mark or "none", bool(mark)))
        elif kind == "duel_result":
            won = event["winner"] == seat
            rows.append(("duel on " + progress_item(event["key"], cards),
                         "won" if won else "lost", None))
        elif kind == "round_end":
            own, other = event["scores"][seat], event["scores"][1 - seat]
            rows.append((f"round {event['round']}", f"{own}–{other}", None))
        elif kind == "game_over":
            rows.append(("game", "won" if event["winner"] == seat else "lost", None))
    return rows


# -- messages from the page ------------------------------------------------------------------


def _whole(payload: Mapping[str, Any], key: str) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MessageError(f"{key!r} must be a whole number ≥ 0, not {value!r}")
    return value


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


@dataclass(frozen=True)
class NewGameMessage:
    """Start again against ``opponent``: ``{"type": "new_game", "opponent": "sharp"}``."""

    opponent: str

    @classmethod
    def parse(cls, payload: Mapping[str, Any]) -> NewGameMessage:
        opponent = payload.get("opponent")
        if opponent not in OPPONENTS:
            raise MessageError(f"opponent {opponent!r} is not one of {', '.join(OPPONENTS)}")
        return cls(str(opponent))


@dataclass(frozen=True)
class UndoMessage:
    """Take back the person's last turn and the computer's reply: ``{"type": "undo"}``."""

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
        if naming is not None and naming not in {n.value for n in Naming}:
            raise MessageError(f"naming {naming!r} is not 'solfege' or 'letters'")
        if language is not None and language not in LANGUAGES:
            raise MessageError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
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

    >>> parse_message({"type": "act", "seq": 3, "action": {"type": "end_turn"}})
    (3, ActMessage(action=EndTurn()))
    >>> parse_message({"type": "new_game", "opponent": "grandmaster"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.widgets.keyboard_duel.MessageError: opponent 'grandmaster' is not one of ...
    """
    if not isinstance(content, Mapping):
        raise MessageError(f"{content!r} is not a Keyboard Duel message (not an object)")
    kind = content.get("type")
    parser = _MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise MessageError(
            f"{kind!r} is not a Keyboard Duel message type: use one of {', '.join(_MESSAGE_TYPES)}"
        )
    seq = _whole(content, "seq") if "seq" in content else None
    return seq, parser(content)


# -- computer players --------------------------------------------------------------------------


def make_player(level: str, seed: int) -> Bot:
    """The computer player of a level (``"casual"`` or ``"sharp"``), seeded.

    >>> make_player("sharp", 1).name
    'Sharp'
    """
    if level not in OPPONENTS:
        raise MessageError(f"opponent {level!r} is not one of {', '.join(OPPONENTS)}")
    return make_bot(level, seed)


# -- words -------------------------------------------------------------------------------------


@dataclass
class _Words:
    """Says things about the game in one language and naming."""

    language: str
    naming: Naming

    def t(self, entry: str, **values: object) -> str:
        # formatted here: i18n.text's own parameters are named key and language
        template = text(entry, self.language)
        return template.format(**values) if values else template

    def seat(self, seat: int) -> str:
        return self.t(f"duel.seat.{_SEAT_KEYS[seat]}")

    def chord(self, piano_card: int) -> str:
        return PIANO_CARDS[piano_card].name(self.naming, self.language)

    def note(self, key: int) -> str:
        return key_name(key, self.naming).split(" (")[0]

    def key(self, key: int, piano: Sequence[int]) -> str:
        """``'Sol (fff) of C major'``: the key's note, its mark, the chord of its card."""
        card = PIANO_CARDS[piano[key // KEYS_PER_CARD]]
        mark = card.marks.get(key % KEYS_PER_CARD, "")
        return self.t(
            "duel.words.key",
            note=self.note(key),
            mark=f" ({mark})" if mark else "",
            chord=card.name(self.naming, self.language),
        )

    def card(self, card: int) -> str:
        face = COMPOSE_DECK[card]
        return self.t("duel.card.wild") if face.is_wild else face.label(self.naming)

    def cards(self, cards: Sequence[int]) -> str:
        return " + ".join(self.card(c) for c in cards)

    def direction(self, steps: int) -> str:
        return self.t("duel.words.right" if steps > 0 else "duel.words.left")

    def dice(self, dice: Sequence[int]) -> str:
        return " ".join(str(d) for d in dice)


# -- what happened, from the engine's event log ---------------------------------------------------


@dataclass
class _DuelRecord:
    """A duel as the panel shows it, rebuilt from the engine's events."""

    number: int
    key: int
    piano: tuple[int, int]
    attacker: int
    powers: tuple[int, int]
    first_dice: tuple[tuple[int, ...], tuple[int, ...]]
    dice: list[list[int]]
    adds: list[int] = field(default_factory=lambda: [0, 0])
    runs: tuple[list[tuple[int, dict[str, Any], int]], list[tuple[int, dict[str, Any], int]]] = (
        field(default_factory=lambda: ([], [])))
    locked: list[bool] = field(default_factory=lambda: [False, False])
    winner: int | None = None
    result_totals: tuple[int, int] | None = None

    def role(self, seat: int) -> int:
        return 0 if seat == self.attacker else 1

    def seat(self, role: int) -> int:
        return self.attacker if role == 0 else 1 - self.attacker

    def total(self, role: int) -> int:
        return sum(self.dice[role]) + self.adds[role]


@dataclass
class _RoundRecord:
    """A scored round, for the round-end screen."""

    number: int
    piano: tuple[int, int]
    board: list[tuple[int, int, int, int]]  # (seat, token, key, power)
    scores: tuple[int, int]
    totals: tuple[int, int]


@dataclass
class _Story:
    """The engine's log told as entries (a key in the catalogue and its values), plus the
    duels and rounds it contains. Rebuilt from scratch after an undo."""

    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    duels: list[_DuelRecord] = field(default_factory=list)
    rounds: list[_RoundRecord] = field(default_factory=list)
    seen: int = 0
    piano: tuple[int, int] = (0, 1)
    placed: list[int] = field(default_factory=lambda: [0, 0])
    final_said: bool = False
    action: dict[str, Any] | None = None

    def read(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Take in the events not seen yet."""
        for event in events[self.seen:]:
            self._event(event)
        self.seen = len(events)

    def _add(self, entry: str, **values: Any) -> None:
        self.entries.append((entry, values))

    def _event(self, event: Mapping[str, Any]) -> None:
        kind = event["event"]
        if kind == "action":
            self.action = dict(event["action"])
        elif kind == "round_start":
            self.piano = (event["piano"][0], event["piano"][1])
            self.placed = [0, 0]
            self.final_said = False
            self._add("duel.log.round_start", round=event["round"], piano=self.piano,
                      seat=event["starter"])
        elif kind == "place":
            self.placed[event["seat"]] += 1
            self._add("duel.log.place", seat=event["seat"], power=event["power"],
                      key=event["key"], piano=self.piano, cards=list(event["cards"]))
        elif kind == "merge":
            self._add("duel.log.merge" if not event["lost"] else "duel.log.merge_lost",
                      seat=event["seat"], power=event["power"], lost=event["lost"],
                      key=event["key"], piano=self.piano)
        elif kind == "move":
            action = self.action or {}
            self._add("duel.log.move", seat=event["seat"], start=event["from"],
                      end=event["to"], steps=action.get("steps", 0), card=action.get("card"),
                      piano=self.piano)
        elif kind == "shift":
            action = self.action or {}
            self._add("duel.log.shift", seat=event["seat"], card=action.get("card"),
                      side=event["piano"], step=event["step"], piano=self.piano)
        elif kind == "duel":
            attacker = event["attacker"]
            record = _DuelRecord(
                number=len(self.duels) + 1,
                key=event["key"],
                piano=self.piano,
                attacker=attacker,
                powers=(event["attacker_power"], event["defender_power"]),
                first_dice=(tuple(event["attacker_dice"]), tuple(event["defender_dice"])),
                dice=[list(event["attacker_dice"]), list(event["defender_dice"])],
            )
            self.duels.append(record)
            self._add("duel.log.duel", seat=attacker, other=1 - attacker, key=event["key"],
                      piano=self.piano, power=record.powers[0], other_power=record.powers[1],
                      dice=record.first_dice[0], other_dice=record.first_dice[1])
        elif kind == "duel_card":
            record = self.duels[-1]
            role = record.role(event["seat"])
            if event["effect"] == "add":
                record.adds[role] += event["amount"]
                side = role
            else:
                side = role if event["effect"] == "reroll_own_lowest" else 1 - role
                record.dice[side][event["die"]] = event["new"]
            record.runs[role].append((event["card"], dict(event), record.total(side)))
            self._add(f"duel.log.card.{event['effect']}", seat=event["seat"],
                      other=1 - event["seat"], card=event["card"], amount=event.get("amount"),
                      old=event.get("old"), new=event.get("new"), total=record.total(side))
        elif kind == "lock_in":
            record = self.duels[-1]
            role = record.role(event["seat"])
            record.locked[role] = True
            self._add("duel.log.lock_in", seat=event["seat"], total=record.total(role))
        elif kind == "duel_result":
            record = self.duels[-1]
            record.winner = event["winner"]
            record.result_totals = (event["attacker_total"], event["defender_total"])
            self._add("duel.log.duel_result", seat=event["winner"], other=1 - event["winner"],
                      key=event["key"], piano=record.piano,
                      score=max(record.result_totals), other_score=min(record.result_totals))
        elif kind == "end_turn":
            seat = event["seat"]
            self._add("duel.log.pass" if event["passed"] else "duel.log.end_turn", seat=seat,
                      drawn=0)
            if self.placed[seat] == 5 and not self.final_said:
                self.final_said = True  # D12: the opponent takes one final turn
                self._add("duel.log.final_turn", seat=seat, other=1 - seat)
        elif kind == "draw":
            key, values = self.entries[-1] if self.entries else ("", {})
            count = event.get("count", len(event.get("cards", ())))
            if key in ("duel.log.end_turn", "duel.log.pass") and values["seat"] == event["seat"]:
                values["drawn"] = count
        elif kind == "reshuffle":
            self._add("duel.log.reshuffle", count=event["cards"])
        elif kind == "round_end":
            board = [(int(s), int(t), int(k), int(p)) for s, t, k, p in event["board"]]
            self.rounds.append(_RoundRecord(
                number=event["round"], piano=self.piano, board=board,
                scores=(event["scores"][0], event["scores"][1]),
                totals=(event["totals"][0], event["totals"][1]),
            ))
            self._add("duel.log.round_end", round=event["round"], score=event["scores"][0],
                      other_score=event["scores"][1], total=event["totals"][0],
                      other_total=event["totals"][1])
        elif kind == "game_over":
            totals = event["totals"]
            self._add("duel.log.game_over", seat=event["winner"],
                      score=max(totals), other_score=min(totals))


def _say(words: _Words, entry: str, values: Mapping[str, Any]) -> str:
    """One log entry in words."""
    shown: dict[str, object] = {}
    piano = values.get("piano", (0, 1))
    for name, value in values.items():
        if name in ("seat", "other"):
            shown[name] = words.seat(value)
        elif name in ("key", "start", "end"):
            shown[name] = words.key(value, piano)
        elif name == "cards":
            shown[name] = words.cards(value)
        elif name == "card":
            shown[name] = words.card(value) if value is not None else "?"
        elif name == "side":
            shown[name] = words.chord(piano[value])
        elif name == "steps":
            shown[name] = abs(value)
            shown["direction"] = words.direction(value)
        elif name == "step":
            shown["direction"] = words.direction(value)
        elif name in ("dice", "other_dice"):
            shown[name] = words.dice(value)
        elif name == "piano":
            shown["left"] = words.chord(value[0])
            shown["right"] = words.chord(value[1])
        else:
            shown[name] = value
    if entry in ("duel.log.end_turn", "duel.log.pass") and values.get("drawn"):
        entry += "_drew"
    return words.t(entry, **shown)


# -- the widget ----------------------------------------------------------------------------------


class KeyboardDuelWidget(anywidget.AnyWidget):
    """A game of Keyboard Duel: the person plays White against a computer's Black.

    Build it with :func:`play_keyboard_duel`. Useful attributes and methods:

    * :attr:`state` — the engine's :class:`~musicgames.duel.DuelState` (``None`` until an
      opponent is chosen); :attr:`opponent`; :attr:`game_number`;
    * :meth:`new_game` — start again (cancels every pending task);
    * :meth:`receive` — handle one message as the page sends it; :attr:`refused` lists the
      messages that were refused and why;
    * :meth:`settle` — wait until the computer has nothing left to do (for scripts and tests);
    * ``seed`` and ``pause`` — set them before a new game to make it replay exactly, or to
      make the computer's steps faster or slower;
    * ``progress`` — a :class:`musicgames.progress.ProgressStore` that receives the person's
      placements, duels, rounds and games as each turn ends (see the module's notes).
    """

    _esm = _HERE / "keyboard_duel.js"
    _css = _HERE / "keyboard_duel.css"

    table = traitlets.Dict().tag(sync=True)
    cards_svg = traitlets.List(traitlets.Unicode()).tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        opponent: str | None = None,
        *,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
        seed: int | None = None,
        pause: float = DEFAULT_PAUSE,
        progress: ProgressSink | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if language not in LANGUAGES:
            raise LanguageError(f"{language!r} is not a language of the page: use one of "
                                f"{', '.join(LANGUAGES)}")
        #: Seed of the next new game (``None``: a fresh random game each time).
        self.seed = seed
        #: Seconds between the computer's steps.
        self.pause = float(pause)
        self._progress = progress
        self._progress_seen = 0  # events of the engine's log already told to the progress store
        self._naming = Naming(naming)
        self._language = language
        self._state: DuelState | None = None
        self._opponent: str | None = None
        self._player: Bot | None = None
        self._hinter: Bot | None = None
        self._game_number = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._thinking = False
        self._screen = "setup"
        self._start_piano = (0, 1)
        self._story = _Story()
        self._checkpoints: list[int] = []
        self._duel_put_away = 0
        self._error: str | None = None
        self._hint: dict[str, Any] | None = None
        self._seq = 0
        self._svg_key: tuple[Any, ...] | None = None
        #: Messages the widget refused, newest last: ``(type, why)``; ``("progress", why)``
        #: when the progress store refused a row (the game goes on).
        self.refused: list[tuple[str, str]] = []
        #: How long the computer took to choose each of its steps, in ms, newest last.
        self.think_ms: list[float] = []
        self.on_msg(self._on_page_message)
        self.strings = catalogue(language, "duel.")
        if opponent is not None:
            self.new_game(opponent)
        else:
            self._publish()

    # -- public API ---------------------------------------------------------------------------
    @property
    def state(self) -> DuelState | None:
        """The engine's state of the game being played (``None`` before the first game)."""
        return self._state

    @property
    def opponent(self) -> str | None:
        """The computer's level: ``"casual"`` or ``"sharp"`` (``None`` before the first game)."""
        return self._opponent

    @property
    def game_number(self) -> int:
        """Counts the games of this widget from 1."""
        return self._game_number

    @property
    def naming(self) -> Naming:
        """How note names are shown: solfège (Do Re Mi) or letters (C D E)."""
        return self._naming

    @property
    def language(self) -> str:
        """The page's language: ``"en"`` or ``"es"``."""
        return self._language

    @property
    def thinking(self) -> bool:
        """True while the computer is choosing its next step."""
        return self._thinking

    @property
    def pending_tasks(self) -> int:
        """How many kernel tasks (computer steps, hints) are still waiting."""
        return sum(1 for task in self._tasks if not task.done())

    def log_lines(self) -> list[str]:
        """The game's log in words, in the page's language and naming."""
        words = _Words(self._language, self._naming)
        return [_say(words, key, values) for key, values in self._story.entries]

    def new_game(
        self,
        opponent: str | None = None,
        *,
        position: DuelState | None = None,
        computer: Bot | None = None,
    ) -> None:
        """Start a new game against ``opponent`` (default: the same one). Every pending task
        of the game being played is cancelled first, so none of its moves can arrive.

        ``position`` starts from a set-up game instead of a fresh deal (the widget plays on a
        copy of it), for a lesson or a puzzle: see :meth:`DuelState.from_position`.
        ``computer`` replaces the level's computer player with any object that has
        ``choose(view) -> action`` (a :class:`~musicgames.duel.bots.Bot`).
        """
        level = opponent or self._opponent
        if level not in OPPONENTS:
            raise MessageError(f"opponent {level!r} is not one of {', '.join(OPPONENTS)}")
        self.cancel_tasks()
        self._game_number += 1
        seed = self.seed if self.seed is not None else random.SystemRandom().randrange(2**31)
        game_seed = seed + self._game_number - 1
        self._state = (position.clone() if position is not None
                       else DuelState.new_game(seed=game_seed))
        self._opponent = level
        self._player = computer if computer is not None else make_player(level, game_seed)
        self._hinter = make_player("sharp", game_seed + 7919)
        self._screen = "play" if not self._state.is_terminal() else "game_over"
        cards = self._state.piano_cards
        self._start_piano = (cards[0].index, cards[1].index)
        self._story = _Story(piano=self._start_piano)
        self._progress_seen = len(self._state.log)
        self._checkpoints = []
        self._duel_put_away = 0
        self._error = None
        self._hint = None
        self._after_change()

    def take_back(self) -> bool:
        """Undo the person's last turn and the computer's reply (or the person's turn in
        progress). Returns False when there is nothing to take back."""
        state = self._state
        if state is None:
            return False
        done = len(state.actions())
        earlier = [c for c in self._checkpoints if c < done]
        if not earlier:
            return False
        target = earlier[-1]
        self.cancel_tasks()
        while len(state.actions()) > target:
            state.undo()
        # rows of turns that ended stay written; the turn in progress had none (module notes)
        self._progress_seen = min(self._progress_seen, len(state.log))
        self._checkpoints = [c for c in self._checkpoints if c <= target]
        self._story = _Story(piano=self._start_piano)
        self._duel_put_away = 0
        self._screen = "play"
        self._error = None
        self._hint = None
        self._after_change()
        return True

    def receive(self, content: object) -> None:
        """Handle one message from the page (a dict with a ``type``).

        A message that cannot be read, or an action the engine refuses, changes nothing but
        the error shown on the page; it is noted in :attr:`refused` with the reason.
        """
        kind = content.get("type") if isinstance(content, Mapping) else None
        try:
            seq, message = parse_message(content)
        except MessageError as err:
            if isinstance(content, Mapping) and isinstance(content.get("seq"), int):
                self._seq = max(self._seq, int(content["seq"]))
            self._refuse(str(kind), str(err))
            return
        if seq is not None:
            self._seq = max(self._seq, seq)
        try:
            self._handle(message)
        except (MessageError, DuelError) as err:
            self._refuse(str(kind), str(err))

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait until no computer step or hint is pending (tasks may start others)."""
        async def drain() -> None:
            while True:
                live = [task for task in self._tasks if not task.done()]
                if not live:
                    return
                await asyncio.gather(*live, return_exceptions=True)

        await asyncio.wait_for(drain(), timeout)

    def cancel_tasks(self) -> None:
        """Cancel every pending kernel task (computer steps, hints)."""
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
        self._thinking = False

    def close(self) -> None:
        """Cancel every task and close the widget."""
        self._closed = True
        self.cancel_tasks()
        super().close()

    # -- messages -----------------------------------------------------------------------------
    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def _refuse(self, kind: str, why: str) -> None:
        self.refused.append((kind, why))
        self._error = why
        self._publish()

    def _handle(self, message: PageMessage) -> None:
        handler = _HANDLERS[type(message)]
        handler(self, message)

    def _on_act(self, message: ActMessage) -> None:
        self._require_game()
        if self._screen != "play":
            raise MessageError(text("duel.error.not_now", self._language))
        finished = self._finished_duel()
        self._play(message.action, _PERSON)
        self._duel_put_away = max(self._duel_put_away, finished)
        self._after_change()

    def _finished_duel(self) -> int:
        """The number of the last duel if it is over (its panel stays up until the person's
        next action), else 0."""
        state = self._state
        if state is not None and state.duel is None and self._story.duels:
            return self._story.duels[-1].number
        return 0

    def _on_new_game(self, message: NewGameMessage) -> None:
        self.new_game(message.opponent)

    def _on_undo(self, message: UndoMessage) -> None:
        self._require_game()
        if not self.take_back():
            raise MessageError(text("duel.error.nothing_to_take_back", self._language))

    def _on_hint(self, message: HintMessage) -> None:
        state = self._require_game()
        if state.to_act != _PERSON or self._screen != "play":
            raise MessageError(text("duel.error.no_hint_now", self._language))
        self._error = None
        self._spawn(self._hint_task(self._game_number, len(state.actions())))
        self._publish()

    def _on_continue(self, message: ContinueMessage) -> None:
        self._require_game()
        if self._screen == "round_end":
            self._screen = "play"
            self._duel_put_away = max(self._duel_put_away, self._finished_duel())
        self._error = None
        self._after_change()

    def _on_settings(self, message: SettingsMessage) -> None:
        if message.naming is not None:
            self._naming = message.naming
        if message.language is not None and message.language != self._language:
            self._language = message.language
            self.strings = catalogue(self._language, "duel.")
        self._publish()

    def _require_game(self) -> DuelState:
        if self._state is None:
            raise MessageError(text("duel.error.no_game", self._language))
        return self._state

    # -- the flow of the game -----------------------------------------------------------------
    def _play(self, action: Action, seat: int) -> None:
        """Apply one action for ``seat`` (the engine checks it) and note what it caused."""
        state = self._require_game()
        state.apply(action, seat)
        self._error = None
        self._hint = None
        if isinstance(action, EndTurn):
            self._write_progress(state)
        events = state.events(_PERSON)
        new = events[self._story.seen:]
        self._story.read(events)
        for event in new:
            if event["event"] == "round_end":
                self._screen = "round_end"
            elif event["event"] == "game_over":
                self._screen = "game_over"

    def _write_progress(self, state: DuelState) -> None:
        """Store the rows of the turn that just ended (see the module's notes)."""
        log = state.log
        start, self._progress_seen = self._progress_seen, len(log)
        if self._progress is None:
            return
        piano = next((event["piano"] for event in reversed(log[:start])
                      if event["event"] == "round_start"), self._start_piano)
        for item, answer, correct in progress_rows(log[start:], piano, _PERSON):
            try:
                self._progress.record(PROGRESS_ACTIVITY, item, answer, correct, None)
            except Exception as err:  # a file that refuses rows must not stop the game
                self.refused.append(("progress", str(err)))
                self._error = str(err)
                return

    def _after_change(self) -> None:
        """Bring the story up to date, start the computer if it is its turn, publish."""
        if self._state is not None:
            self._after_step()
            self._maybe_start_computer()
        self._publish()

    def _computer_to_act(self) -> bool:
        state = self._state
        return (state is not None and not self._closed and self._screen == "play"
                and state.to_act == _COMPUTER)

    def _maybe_start_computer(self) -> None:
        if not self._computer_to_act() or self._thinking:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            # No event loop (a plain script): play the computer's steps at once.
            self._play_computer_now()
            return
        self._thinking = True
        self._spawn(self._computer_task(self._game_number))

    def _play_computer_now(self) -> None:
        while self._computer_to_act():
            state = self._require_game()
            assert self._player is not None
            self._play(self._choose(self._player, state.view(_COMPUTER)), _COMPUTER)
            self._after_step()

    def _after_step(self) -> None:
        """Bring the story up to date and note where each of the person's turns starts (the
        points Take back returns to)."""
        state = self._state
        if state is None:
            return
        self._story.read(state.events(_PERSON))
        done = len(state.actions())
        if (state.phase is Phase.TURN and state.to_act == _PERSON
                and not (state.placed_this_turn or state.moved_this_turn)
                and done not in self._checkpoints):
            self._checkpoints.append(done)

    def _choose(self, player: Bot, view: SeatView) -> Action:
        action = player.choose(view)
        if action not in view.legal_actions():
            raise MessageError(f"the computer chose {action}, which is not legal now")
        return action

    def _spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _computer_task(self, game: int) -> None:
        """The computer's steps, one by one, with a pause before each is shown."""
        loop = asyncio.get_running_loop()
        try:
            while game == self._game_number and self._computer_to_act():
                state = self._require_game()
                assert self._player is not None
                self._thinking = True
                self._publish()
                started = loop.time()
                view = state.view(_COMPUTER)
                action = await asyncio.to_thread(self._choose, self._player, view)
                self.think_ms.append((loop.time() - started) * 1000)
                wait = self.pause - (loop.time() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                if game != self._game_number or self._state is not state:
                    return  # a new game (or a take back) happened meanwhile
                self._play(action, _COMPUTER)
                self._after_step()
                self._publish()
        except (DuelError, MessageError) as err:
            self._error = str(err)
            self.refused.append(("computer", str(err)))
        finally:
            if game == self._game_number:
                self._thinking = False
                self._publish()

    async def _hint_task(self, game: int, done: int) -> None:
        state = self._require_game()
        assert self._hinter is not None
        view = state.view(_PERSON)
        action = await asyncio.to_thread(self._choose, self._hinter, view)
        if game != self._game_number or len(state.actions()) != done:
            return
        self._hint = {"action": action.to_json()}
        self._publish()

    # -- what the page is sent ----------------------------------------------------------------
    def _publish(self) -> None:
        if self._closed:
            return
        words = _Words(self._language, self._naming)
        state = self._state
        if state is not None:
            key = (state.piano_cards[0].index, state.piano_cards[1].index, self._naming)
            if key != self._svg_key:
                self._svg_key = key
                self.cards_svg = [_piano_svg(card.index, self._naming) for card in
                                  state.piano_cards]
        self.table = self._build_table(words)

    def _build_table(self, words: _Words) -> dict[str, Any]:
        state = self._state
        table: dict[str, Any] = {
            "seq": self._seq,
            "game": self._game_number,
            "screen": self._screen,
            "opponent": self._opponent,
            "naming": self._naming.value,
            "language": self._language,
            "languages": [[code, text("language.name", code)] for code in LANGUAGES],
            "you": _SEAT_KEYS[_PERSON],
            "rules_keys": list(_RULES_KEYS),
            "error": self._error,
            "thinking": self._thinking,
        }
        if state is None:
            table.update(status=words.t("duel.status.choose"), tokens=[], hand=[], log=[],
                         players={}, pianos=[], legal=_no_choices(), duel=None, hint=None,
                         your_turn=False, duel_active=False, can_undo=False, to_act=None)
            return table
        to_act = state.to_act
        your_turn = to_act == _PERSON and self._screen == "play"
        piano = (state.piano_cards[0].index, state.piano_cards[1].index)
        table.update(
            round=state.round,
            turn=state.turn_number,
            to_act=None if to_act is None else _SEAT_KEYS[to_act],
            your_turn=your_turn,
            duel_active=state.duel is not None,
            duel_key=state.duel.key if state.duel is not None else None,
            can_undo=any(c < len(state.actions()) for c in self._checkpoints),
            status=self._status(words),
            turn_help=self._turn_help(),
            pianos=[_piano_info(p, words) for p in piano],
            tokens=_tokens(state, words, piano),
            players=self._players(state, words),
            hand=[_card_info(c, words) for c in state.hand(_PERSON)],
            legal=_choices(state, words) if your_turn else _no_choices(),
            duel=self._duel_panel(words),
            hint=self._hint_info(words),
            log=self.log_lines()[-LOG_LINES_SHOWN:],
            result=self._result(words),
        )
        return table

    def _status(self, words: _Words) -> str:
        state = self._state
        assert state is not None
        level = words.t(f"duel.opponent.{self._opponent}")
        if self._screen == "game_over":
            return words.t("duel.status.game_over")
        if self._screen == "round_end":
            return words.t("duel.status.round_over", round=self._story.rounds[-1].number
                           if self._story.rounds else state.round)
        if state.to_act == _COMPUTER:
            return words.t("duel.status.computer", seat=words.seat(_COMPUTER), level=level)
        duel = state.duel
        if duel is not None:
            key = words.key(duel.key, (state.piano_cards[0].index, state.piano_cards[1].index))
            if duel.attacker == _PERSON:
                return words.t("duel.status.attack", key=key)
            return words.t("duel.status.defend", key=key, seat=words.seat(_COMPUTER))
        head = words.t("duel.status.final_turn" if state.final_turn else "duel.status.your_turn",
                       round=state.round, turn=state.turn_number)
        return head

    def _turn_help(self) -> str:
        state = self._state
        assert state is not None
        if state.to_act != _PERSON or state.duel is not None:
            return "duel.help.wait"
        actions = state.legal_actions()
        if len(actions) == 1 and isinstance(actions[0], EndTurn):
            return "duel.help.pass" if not (state.placed_this_turn or state.moved_this_turn) \
                else "duel.help.done"
        if state.placed_this_turn:
            return "duel.help.after_place"
        if state.moved_this_turn:
            return "duel.help.after_move"
        return "duel.help.start"

    def _players(self, state: DuelState, words: _Words) -> dict[str, Any]:
        running = state.running_scores()
        out: dict[str, Any] = {}
        for seat in (WHITE, BLACK):
            who = (words.t("duel.you") if seat == _PERSON
                   else words.t(f"duel.opponent.{self._opponent}"))
            out[_SEAT_KEYS[seat]] = {
                "name": words.t("duel.label.player", who=who, seat=words.seat(seat)),
                "tray": [_TRAY_STATES[tok.state] for tok in state.tokens(seat)],
                "total": state.totals[seat],
                "running": running[seat],
                "hand": state.hand_size(seat),
            }
        return out

    def _duel_panel(self, words: _Words) -> dict[str, Any] | None:
        state = self._state
        assert state is not None
        if not self._story.duels:
            return None
        record = self._story.duels[-1]
        active = state.duel is not None
        if not active and (record.winner is None or record.number == self._duel_put_away):
            return None
        you = record.role(_PERSON)
        sides: dict[str, Any] = {}
        for role in (0, 1):
            seat = record.seat(role)
            sides[_SEAT_KEYS[seat]] = {
                "title": words.t("duel.label.side_attacker" if role == 0 else
                                 "duel.label.side_defender", seat=words.seat(seat),
                                 power=record.powers[role]),
                "dice": list(record.dice[role]),
                "first_dice": list(record.first_dice[role]),
                "added": record.adds[role],
                "total": record.total(role),
                "locked": record.locked[role],
                "run": [
                    {"card": _card_info(card, words),
                     "effect": _effect_words(words, event, total, role, record)}
                    for card, event, total in record.runs[role]
                ],
            }
        before = attacker_win_chance(record.powers[0], record.powers[1])
        chance_before = before if you == 0 else 1.0 - before
        own, opp = record.dice[you], record.dice[1 - you]
        chance_now = float(win_chance_now(own, opp, record.adds[you], record.adds[1 - you],
                                          attacker=you == 0))
        you_decide = active and state.to_act == _PERSON
        card_chance: dict[str, float] = {}
        if you_decide:
            for action in state.legal_actions():
                if isinstance(action, DuelCard):
                    card_chance[str(action.card)] = float(chance_after_card(
                        effect_of_card(action.card), own, opp, record.adds[you],
                        record.adds[1 - you], attacker=you == 0))
        if record.winner is not None and record.result_totals is not None:
            winner = record.winner
            result: str | None = words.t(
                "duel.result.won" if winner == _PERSON else "duel.result.lost",
                seat=words.seat(winner), score=max(record.result_totals),
                other_score=min(record.result_totals),
            )
            stage = "done"
        else:
            result = None
            stage = "attacker" if not record.locked[0] else "defender"
        return {
            "id": f"{self._game_number}-{record.number}",
            "title": words.t("duel.label.duel_title", key=words.key(record.key, record.piano),
                             seat=words.seat(record.attacker),
                             other=words.seat(1 - record.attacker)),
            "attacker": _SEAT_KEYS[record.attacker],
            "defender": _SEAT_KEYS[1 - record.attacker],
            "sides": sides,
            "stage": stage,
            "you_decide": you_decide,
            "help": "duel.help.attack" if you == 0 else "duel.help.defend",
            "chance_before": chance_before,
            "chance_now": chance_now,
            "card_chance": card_chance,
            "result": result,
        }

    def _hint_info(self, words: _Words) -> dict[str, Any] | None:
        state = self._state
        if self._hint is None or state is None:
            return None
        action = action_from_json(self._hint["action"])
        piano = (state.piano_cards[0].index, state.piano_cards[1].index)
        keys: list[int] = []
        cards: list[int] = []
        if isinstance(action, Place):
            keys, cards = [action.key], list(action.cards)
            line = words.t("duel.hint.place", cards=words.cards(action.cards),
                           key=words.key(action.key, piano), power=len(action.cards))
        elif isinstance(action, Move):
            end = (action.key + action.steps) % 24
            keys, cards = [action.key, end], [action.card]
            line = words.t("duel.hint.move", card=words.card(action.card),
                           start=words.key(action.key, piano), end=words.key(end, piano))
        elif isinstance(action, Shift):
            cards = [action.card]
            keys = [tok.key for tok in state.tokens(_PERSON)
                    if tok.key is not None and tok.key // KEYS_PER_CARD == action.piano]
            line = words.t("duel.hint.shift", card=words.card(action.card),
                           chord=words.chord(piano[action.piano]))
        elif isinstance(action, DuelCard):
            cards = [action.card]
            line = words.t("duel.hint.duel_card", card=words.card(action.card))
        elif isinstance(action, LockIn):
            line = words.t("duel.hint.lock_in")
        else:
            line = words.t("duel.hint.end_turn")
        return {"text": words.t("duel.hint.prefix") + " " + line, "keys": keys, "cards": cards,
                "action": self._hint["action"]}

    def _result(self, words: _Words) -> dict[str, Any] | None:
        if self._screen not in ("round_end", "game_over") or not self._story.rounds:
            return None
        state = self._state
        assert state is not None
        last = self._story.rounds[-1]
        out: dict[str, Any] = {}
        for seat in (WHITE, BLACK):
            lines = []
            held: dict[int, int] = {}
            for owner, _token, key, power in sorted(last.board, key=lambda b: b[2]):
                held[key] = owner
                if owner != seat:
                    continue
                card = PIANO_CARDS[last.piano[key // KEYS_PER_CARD]]
                mult = card.multiplier(key % KEYS_PER_CARD)
                lines.append(words.t("duel.result.token", key=words.key(key, last.piano),
                                     power=power, mult=mult, points=power * mult))
            for side in (0, 1):
                card = PIANO_CARDS[last.piano[side]]
                tones = [side * KEYS_PER_CARD + pc for pc in card.chord_pitch_classes]
                if all(held.get(k) == seat for k in tones):
                    lines.append(words.t("duel.result.bonus", chord=card.name(words.naming,
                                                                                words.language)))
            if not lines:
                lines.append(words.t("duel.result.nothing"))
            who = (words.t("duel.you") if seat == _PERSON
                   else words.t(f"duel.opponent.{self._opponent}"))
            out[_SEAT_KEYS[seat]] = {
                "name": words.t("duel.label.player", who=who, seat=words.seat(seat)),
                "lines": lines,
                "score": last.scores[seat],
                "summary": words.t("duel.result.summary", score=last.scores[seat],
                                   total=last.totals[seat]),
            }
        if self._screen == "game_over" and state.winner is not None:
            out["title"] = words.t("duel.result.game_title")
            won = state.winner == _PERSON
            out["line"] = words.t("duel.result.you_win" if won else "duel.result.you_lose",
                                  score=state.totals[_PERSON],
                                  other_score=state.totals[_COMPUTER])
        else:
            out["title"] = words.t("duel.result.round_title", round=last.number)
            nxt = state.starter
            out["line"] = words.t("duel.result.next", seat=words.seat(nxt),
                                  round=state.round)
        return out


_HANDLERS: dict[type, Callable[[KeyboardDuelWidget, Any], None]] = {
    ActMessage: KeyboardDuelWidget._on_act,
    NewGameMessage: KeyboardDuelWidget._on_new_game,
    UndoMessage: KeyboardDuelWidget._on_undo,
    HintMessage: KeyboardDuelWidget._on_hint,
    ContinueMessage: KeyboardDuelWidget._on_continue,
    SettingsMessage: KeyboardDuelWidget._on_settings,
}


# -- pieces of the table ----------------------------------------------------------------------


def _piano_svg(index: int, naming: Naming) -> str:
    card = PIANO_CARDS[index]
    return str(keyboard_svg(1, chord=card.triad, marks=card.marks, labels=naming, width=420))


def _piano_info(index: int, words: _Words) -> dict[str, Any]:
    card = PIANO_CARDS[index]
    root, third, fifth = card.chord_pitch_classes
    tones = ", ".join(
        f"{words.note(pc)} {card.marks[pc]}" for pc in (root, third, fifth)
    )
    return {"index": index, "name": card.name(words.naming, words.language), "tones_text": tones}


def _card_info(card: int, words: _Words) -> dict[str, Any]:
    face = COMPOSE_DECK[card]
    label = words.card(card)
    letter = label if face.is_wild else label[: len(label) - len(face.corner.symbol)]
    return {
        "id": card,
        "code": str(face),
        "label": label,
        "letter": letter,
        "corner": face.corner.symbol,
        "wild": face.is_wild,
        "title": words.t(f"duel.card.does.{face.corner.name.lower()}", card=label),
    }


def _tokens(state: DuelState, words: _Words, piano: tuple[int, int]) -> list[dict[str, Any]]:
    out = []
    for seat in (WHITE, BLACK):
        for tok in state.tokens(seat):
            if tok.key is None:
                continue
            holder = state.board_token(tok.key)
            arriving = holder is None or (holder.seat, holder.index) != (tok.seat, tok.index)
            out.append({
                "key": tok.key,
                "seat": _SEAT_KEYS[seat],
                "power": tok.power,
                "dice": tok.dice,
                "score": tok.score,
                "arriving": arriving,
                "title": words.t("duel.token.title", seat=words.seat(seat), power=tok.power,
                                 dice=tok.dice, score=tok.score,
                                 key=words.key(tok.key, piano)),
            })
    return out


def _no_choices() -> dict[str, Any]:
    return {"place": {}, "move": [], "shift": [], "duel_cards": [], "lock_in": False,
            "end_turn": False}


def _choices(state: DuelState, words: _Words) -> dict[str, Any]:
    """The person's legal actions, shaped for the page."""
    piano = (state.piano_cards[0].index, state.piano_cards[1].index)
    place: dict[str, list[int]] = {}
    move: list[dict[str, Any]] = []
    shift: list[dict[str, Any]] = []
    duel_cards: list[int] = []
    lock_in = end_turn = False
    for action in state.legal_actions():
        if isinstance(action, Place):
            place.setdefault(",".join(str(c) for c in action.cards), []).append(action.key)
        elif isinstance(action, Move):
            end = (action.key + action.steps) % 24
            move.append({"card": action.card, "key": action.key, "steps": action.steps,
                         "to": end, "to_name": words.key(end, piano)})
        elif isinstance(action, Shift):
            shift.append({"card": action.card, "piano": action.piano,
                          "up": COMPOSE_DECK[action.card].corner.symbol == "↑"})
        elif isinstance(action, DuelCard):
            duel_cards.append(action.card)
        elif isinstance(action, LockIn):
            lock_in = True
        elif isinstance(action, EndTurn):
            end_turn = True
    return {"place": place, "move": move, "shift": shift, "duel_cards": duel_cards,
            "lock_in": lock_in, "end_turn": end_turn}


def _effect_words(words: _Words, event: Mapping[str, Any], total: int, role: int,
                  record: _DuelRecord) -> str:
    effect = event["effect"]
    if effect == "add":
        return words.t("duel.effect.add", amount=event["amount"], total=total)
    if effect == "reroll_own_lowest":
        return words.t("duel.effect.reroll_own_lowest", old=event["old"], new=event["new"],
                       total=total)
    return words.t("duel.effect.reroll_their_highest", old=event["old"], new=event["new"],
                   total=total, seat=words.seat(record.seat(1 - role)))


def play_keyboard_duel(
    opponent: str | None = None,
    *,
    naming: Naming | str = Naming.SOLFEGE,
    language: str = "en",
    seed: int | None = None,
    pause: float = DEFAULT_PAUSE,
    progress: ProgressSink | None = None,
) -> KeyboardDuelWidget:
    """Open a game of Keyboard Duel: you play White and move first.

    ``opponent`` is ``"casual"`` or ``"sharp"``; leave it out to choose on the page.
    ``naming`` shows notes as ``"solfege"`` (Do Re Mi) or ``"letters"`` (C D E); ``language``
    is ``"en"`` or ``"es"``; ``seed`` makes the game replay exactly; ``pause`` is the time in
    seconds between the computer's steps. ``progress`` (a
    :class:`musicgames.progress.ProgressStore`) receives the person's placements, duels,
    rounds and games, as each turn ends (see the module's notes).

    >>> game = play_keyboard_duel()
    >>> game.table["screen"], game.state is None
    ('setup', True)
    >>> game.close()
    """
    return KeyboardDuelWidget(opponent, naming=naming, language=language, seed=seed,
                              pause=pause, progress=progress)
