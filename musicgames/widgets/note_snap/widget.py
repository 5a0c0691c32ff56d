"""The Note Snap widget: runs a table between the people at the keyboard, the engine and the
computer players.

See the package's notes (:mod:`musicgames.widgets.note_snap`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import anywidget
import traitlets

from musicgames.i18n import LANGUAGES, catalogue, text
from musicgames.progress.sink import ProgressSink, not_saved_notice
from musicgames.render import staff_svg
from musicgames.shown import short_repr
from musicgames.snap import (
    Flipped,
    Outcome,
    Phase,
    SnapError,
    SnapState,
    card_note,
    is_match,
    new_game,
)
from musicgames.snap.bots import LEVELS, Bot
from musicgames.snap.cards import guide_card
from musicgames.snap.config import (
    DEFAULT_FLIP_PAUSE_MS,
    DEFAULT_SLAP_WINDOW_MS,
    DEFAULT_TIE_WINDOW_MS,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from musicgames.snap.table import Table
from musicgames.sound import notes, sound_strings
from musicgames.theory import CARD_NOTES, Naming, Note
from musicgames.widgets._assets import joined
from musicgames.widgets.note_snap.clock import AsyncioClock, TableClock
from musicgames.widgets.note_snap.messages import (
    DisplayMessage,
    FlipMessage,
    MessageError,
    NewGameMessage,
    PassMessage,
    PauseMessage,
    ReadyMessage,
    ShownMessage,
    SlapMessage,
)
from musicgames.widgets.note_snap.records import CardRecord, GameRecord
from musicgames.widgets.note_snap.settings import (
    COMPUTER,
    DEFAULT_LEVEL,
    LENGTHS,
    PERSON,
    SettingsError,
    SnapSettings,
    call_names,
    default_keys,
    language_of,
    naming_of,
    seat_names,
    single_person,
    table_seats,
)
from musicgames.widgets.note_snap.summary import standings as table_standings
from musicgames.widgets.note_snap.summary import summary as game_summary

__all__ = ["NoteSnapWidget", "how_to_play", "play_note_snap"]

_LOG = logging.getLogger(__name__)

#: The height in pixels of the staff on a play card; the guide card's notes are drawn at
#: the same size (their heads as big as the card's), four to a row.
CARD_SIZE = 100
GUIDE_ROW = 4
#: How many cards the history strip keeps.
HISTORY_KEPT = 5
#: The "no match" key of a person alone at the table (S14 v2).
PASS_KEY = "KeyN"
#: How many refused messages :attr:`NoteSnapWidget.refused` keeps.
_REFUSED_KEPT = 200
#: The page's files, after the shared ones: the view's class comes in three parts.
_PAGE_JS = ("note_snap/form.js", "note_snap/drawing.js", "note_snap/view.js")


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


# -- the widget ---------------------------------------------------------------------------


class NoteSnapWidget(anywidget.AnyWidget):
    """A game of Note Snap at a table of people and computer players.

    Build it with :func:`play_note_snap` or from :class:`SnapSettings`. Useful attributes:

    * :attr:`state` — the engine's :class:`~musicgames.snap.SnapState` of the game;
    * :attr:`record` — this game's :class:`GameRecord` so far; :attr:`records` — the
      finished games; :meth:`on_game_over` — a callback for each finished game;
    * :meth:`new_game` — start again (cancels every pending timer); :meth:`receive` —
      handle one message as the page sends it;
    * :attr:`table_loop` — the run loop of the game being played
      (:class:`musicgames.snap.table.Table`): when computer players flip, when a slap
      window closes. Its clock is ``clock`` (an asyncio one unless a test gives a
      :class:`~musicgames.snap.table.ManualClock`).
    """

    _esm = joined("_dom.js", "_focus.js", "_sound.js", *_PAGE_JS)
    _css = joined("_focus.css", "_sound.css", "note_snap/table.css")

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
        clock: TableClock | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._settings = settings or SnapSettings()
        self._progress = progress
        #: The clock of the table's run loop: the kernel's event loop unless one is given.
        self.clock: TableClock = clock if clock is not None else AsyncioClock(self._timer_failed)
        #: Progress writes that failed (the person is told once; the game goes on).
        self.progress_errors: list[str] = []
        self._listeners: list[Callable[[GameRecord], None]] = []
        self._closed = False
        self._started = False
        self._game_number = 0
        self._last_outcome: Outcome | None = None
        self._last_slaps: Outcome | None = None
        self.records: list[GameRecord] = []
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
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
        self._loop: Table  # the run loop of the game being played, made by _start_game
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
        return self._loop.state

    @property
    def table_loop(self) -> Table:
        """The run loop of the game being played: flips, slap windows, pauses, time up."""
        return self._loop

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
            self._loop.start()

    @property
    def paused(self) -> bool:
        """True while the game waits (Settings or the guide open, the page unfocused, P)."""
        return self._loop.paused

    def pause(self) -> None:
        """Pause the game: computer players stop, the slap window and the game clock stop."""
        self._loop.pause()

    def resume(self) -> None:
        """Go on after a pause (the page counts 3-2-1 first, then says so)."""
        self._loop.resume()

    def played_seconds(self) -> float:
        """Seconds of play in this game, pauses not counted."""
        return self._loop.played_seconds()

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
        loop: Table | None = getattr(self, "_loop", None)  # none if __init__ failed early
        if loop is not None:
            loop.stop()
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
        for name in self.clock.pending:
            self.clock.cancel(name)

    @property
    def pending_timers(self) -> tuple[str, ...]:
        """The names of the kernel timers still waiting (for tests and curious teachers)."""
        return self.clock.pending

    def _timer_failed(self, name: str, err: Exception) -> None:
        """A kernel timer's step failed (it is logged): the page says something went wrong."""
        self.notice = text("snap.error.internal", self._settings.language)

    # -- game flow ------------------------------------------------------------------------
    def _start_game(self, hands: Sequence[Sequence[int]] | None = None) -> None:
        if self._game_number:
            self._loop.stop()
        self.cancel_timers()
        settings = self._settings
        self._game_number += 1
        seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(
            2**31)
        self._seed = seed
        if hands is None:
            state = new_game(random.Random(seed), settings.config(), settings.opener)
        else:
            state = SnapState.from_deal(hands, settings.config(), settings.opener)
        self._state = state
        bot_rng = random.Random(f"note-snap bots {seed}")
        bots = {
            seat: Bot(seat, s.level, random.Random(bot_rng.getrandbits(64)))
            for seat, s in enumerate(settings.seats)
            if s.kind == COMPUTER
        }
        self._loop = Table(state, bots, self.clock, pace_ms=settings.pace_ms,
                           on_card=self._card_judged, on_change=self._changed)
        self._last_outcome = None
        self._last_slaps = None
        self._unsaved: CardRecord | None = None
        self._history = []
        self._close_practice()
        self._record = GameRecord(
            game=self._game_number,
            seed=seed,
            settings=settings.to_dict(),
            seats=[
                {"seat": i, "name": n, "kind": s.kind,
                 "level": s.level if s.kind == COMPUTER else None}
                for i, (s, n) in enumerate(zip(settings.seats, seat_names(settings), strict=True))
            ],
        )
        self.notice = ""
        self._publish_display()
        self._publish()
        if self._started:
            self._loop.start()

    def _card_judged(self, outcomes: Sequence[Outcome], flipped: Flipped | None) -> None:
        """Record what became of the card (the run loop then goes on). ``outcomes`` has one
        :class:`Outcome`, or two when nobody can flip any more: the card's own, then the
        dead pile's (S16)."""
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
        self._remember(self._record.cards[-1], flipped)
        self._unsaved = self._record.cards[-1]

    def _changed(self) -> None:
        """The run loop moved on: a game just over is recorded, and the page redrawn. A card
        just judged is sent to the page before its progress row is written (the page does not
        wait for the disk, tens of ms), except the last, whose row comes before the game's."""
        card, self._unsaved = self._unsaved, None
        over = self._state.is_terminal() and not self._record.finished
        if card is not None and not over:
            self._publish()
            self._to_progress(card)
            return
        if card is not None:
            self._to_progress(card)
        if over:
            self._end_game()
        self._publish()

    def _remember(self, card: CardRecord, flipped: Flipped | None) -> None:
        """The history strip: the last five cards, newest first."""
        person = single_person(self._settings)
        note = card_note(flipped.card) if flipped is not None else None
        self._history.insert(0, {
            "number": card.number,
            "note": card.note,
            "label": self._note_label(note) if note is not None else card.note,
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
        see :func:`musicgames.widgets.note_snap.summary.summary`."""
        return game_summary(self._state, self._settings, self._record.cards)

    def standings(self) -> list[dict[str, Any]]:
        """Every seat's place at the end of the game: the fewest cards in hand first (equal
        counts share a place), with its name and card count. The winners come first even
        when they hold cards (a game ended by S11 is won with none).

        >>> game = play_note_snap(people=1, computers=2, seed=1)
        >>> [(s["place"], s["name"], s["cards"]) for s in game.standings()]
        [(1, 'Computer 2', 18), (2, 'You', 19), (2, 'Computer 1', 19)]
        >>> game.close()
        """
        return table_standings(self._state, seat_names(self._settings))

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
        record = self._record
        record.winners = self._state.winners
        record.finished = True
        record.saved = self._state.to_dict()
        self.records.append(record)
        person = single_person(self._settings)
        if self._progress is not None and person is not None:
            won = person in record.winners
            try:
                self._progress.record("note_snap", "game", "won" if won else "lost", None, None)
            except Exception as err:  # disk full, file locked: the game goes on
                self._progress_failed(err)
        for listener in list(self._listeners):
            listener(record)

    def _to_progress(self, card: CardRecord) -> None:
        """One row per card shown to the person (only when one person plays)."""
        person = single_person(self._settings)
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

    def _this_game(self, game: int) -> None:
        if game != self._game_number:
            raise _Refused(f"game {game} is over: this is game {self._game_number}")

    def _on_shown(self, message: ShownMessage) -> None:
        self._this_game(message.game)
        try:
            self._loop.shown(message.number)
        except SnapError as err:
            raise _Refused(str(err)) from None

    def _on_slap(self, message: SlapMessage) -> None:
        self._this_game(message.game)
        try:
            self._loop.slap(message.seat, message.number, message.reaction_ms)
        except SnapError as err:
            raise _Refused(str(err)) from None

    def _on_pass(self, message: PassMessage) -> None:
        self._this_game(message.game)
        try:
            self._loop.pass_(message.seat, message.number, message.at_ms)
        except SnapError as err:
            raise _Refused(str(err)) from None

    def _on_pause(self, message: PauseMessage) -> None:
        if self._state.is_terminal():
            raise _Refused("the game is over: nothing to pause")
        if message.paused:
            self.pause()
        else:
            self.resume()


    def _on_flip(self, message: FlipMessage) -> None:
        self._this_game(message.game)
        try:
            self._loop.flip(message.seat, message.call)
        except SnapError as err:  # the engine's error, which says why
            raise _Refused(str(err)) from None

    def _on_new_game(self, message: NewGameMessage) -> None:
        try:
            settings = (
                self._settings
                if message.settings is None
                else SnapSettings.from_dict(message.settings, self._settings)
            )
        except SettingsError as err:
            language = language_of(message.settings, self._settings.language)
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
                changes["naming"] = naming_of(changes["naming"])
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


    # -- what the page is sent ------------------------------------------------------------
    def _note_label(self, note: Note) -> str:
        """A note's name in the page's naming and language ("ré4" in French)."""
        return note.label(self._settings.naming, language=self._settings.language)

    def _publish_display(self) -> None:
        settings = self._settings
        language = settings.language
        self.strings = {**catalogue(language, "snap."), **sound_strings(language),
                        **catalogue(language, "language.")}  # the code: numbers and plurals
        named = guide_card(settings.naming, language)  # the guide card's notes, named (S2)
        self.guide = {
            "rows": [
                {"svg": str(staff_svg([note for note, _ in row], size=CARD_SIZE)),
                 "labels": [label for _, label in row]}
                for row in (named[i:i + GUIDE_ROW] for i in range(0, len(named), GUIDE_ROW))
            ],
        }
        self.form = settings.to_dict()
        self.options = {
            "levels": [
                {"id": name, "label": text(f"snap.level.{name}", language)} for name in LEVELS
            ],
            "languages": [{"code": c, "name": text("language.name", c)} for c in LANGUAGES],
            # how many may sit at the table (S3), as the engine says
            "players": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
            # the keys the settings form fills in, by how many people play
            "default_keys": {str(n): list(default_keys(n)) for n in range(1, 5)},
            "lengths": [
                {"id": length, "label": text(f"snap.settings.length_{length}", language,
                                             minutes=f"{settings.minutes:g}")}
                for length in LENGTHS
            ],
        }

    def _publish(self) -> None:
        """Send the page the whole table (small: the card drawings are sent once)."""
        state = self._state
        settings = self._settings
        language = settings.language
        naming = settings.naming
        names = seat_names(settings)
        keys = settings.keys()
        hands = state.hand_sizes
        person = single_person(settings)
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
                "is_you": s.kind == PERSON and person == i,
            }
            for i, s in enumerate(settings.seats)
        ]
        card: dict[str, Any] | None = None
        flipped = self._loop.last_flip
        if flipped is not None:
            note = card_note(flipped.card)
            live = self._loop.card
            card = {
                "number": flipped.number,
                "note": note.solfege,
                "label": self._note_label(note),
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
        live = self._loop.card
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
                "label": self._note_label(card_note(outcome.card)),
                "expected": last.expected,
            }
        self.table = {
            "game": self._game_number,
            "started": self._started,
            "phase": state.phase.value,
            "naming": naming.value,
            "language": language,
            "names": call_names(naming, language),
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
            "paused": self._loop.paused,
            "length": settings.length,
            "minutes": settings.minutes,
            "hand_limit": state.config.hand_limit,
            "card_limit": state.config.card_limit,
            "time_left_s": self._loop.time_left_s(),
            "hear_cards": settings.hear_cards,
            "pass_key": PASS_KEY if person is not None else None,
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
    clock: TableClock | None = None,
) -> NoteSnapWidget:
    """Open a Note Snap table: ``people`` at the keyboard (seated first), then ``computers``
    computer players at ``level`` (one level, or one per computer player).

    One person slaps with Space; several share the keyboard with A, L, Z, M (or ``keys``,
    as ``KeyboardEvent.code`` values like ``'KeyQ'``). Everything else is a
    :class:`SnapSettings` field. ``progress`` (a :class:`musicgames.progress.ProgressStore`)
    receives one row per card when one person plays. ``clock`` is the run loop's clock
    (the kernel's event loop unless a test gives a hand-turned one).
    """
    settings = SnapSettings(
        seats=table_seats(people, computers, level, keys),
        pace_ms=pace_ms,
        slap_window_ms=slap_window_ms,
        tie_window_ms=tie_window_ms,
        call_mode=call_mode,
        naming=naming_of(naming),
        language=language,
        seed=seed,
        opener=opener,
        length=length,
        minutes=minutes,
        hear_cards=hear_cards,
        card_limit=card_limit,
    )
    return NoteSnapWidget(settings, progress=progress, clock=clock)


def how_to_play(language: str = "en") -> Any:
    """The rules and keys of the game in ``language``, as Markdown a notebook displays.

    >>> how_to_play("es").data.startswith("# Mano a la nota")
    True
    """
    from IPython.display import Markdown

    title = text("snap.title", language)
    return Markdown(f"# {title}\n\n{text('snap.help.body', language)}")
