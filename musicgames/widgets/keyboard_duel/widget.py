"""The Keyboard Duel widget: runs the table between the person, the engine and the computer.

See the package's notes (:mod:`musicgames.widgets.keyboard_duel`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from typing import Any

import anywidget
import traitlets

from musicgames.duel import (
    Action,
    DuelError,
    DuelState,
    EndTurn,
    SeatView,
    TokenState,
)
from musicgames.duel.bots import Bot
from musicgames.duel.events import GameOver, RoundScored, RoundStarted
from musicgames.duel.odds import DuelOdds, duel_odds
from musicgames.i18n import LANGUAGES, LanguageError, catalogue, text
from musicgames.progress import ProgressSink
from musicgames.sound import sound_strings
from musicgames.theory import Naming
from musicgames.widgets._assets import joined
from musicgames.widgets.keyboard_duel.messages import (
    OPPONENTS,
    ActMessage,
    ContinueMessage,
    HintMessage,
    MessageError,
    NewGameMessage,
    PageMessage,
    SettingsMessage,
    UndoMessage,
    make_player,
    parse_message,
)
from musicgames.widgets.keyboard_duel.narration import Story, Words, say
from musicgames.widgets.keyboard_duel.progress import PROGRESS_ACTIVITY, progress_rows
from musicgames.widgets.keyboard_duel.table import (
    COMPUTER,
    PERSON,
    Scene,
    build_table,
    piano_svg,
)

__all__ = ["DEFAULT_PAUSE", "KeyboardDuelWidget", "play_keyboard_duel"]

#: Seconds between the computer's steps, so a person can follow them.
DEFAULT_PAUSE = 0.7
_PERSON, _COMPUTER = PERSON, COMPUTER


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

    _esm = joined("_dom.js", "_focus.js", "_sound.js", "keyboard_duel_draw.js", "keyboard_duel.js")
    _css = joined("_focus.css", "_sound.css", "keyboard_duel.css")

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
        self._progress_seen = 0  # events of the engine's story already told to the progress store
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
        self._story = Story()
        self._duel_put_away = 0
        self._error: str | None = None
        # the hint shown, with the position it was worked out for (see _hint_position)
        self._hint: dict[str, Any] | None = None
        self._seq = 0
        self._svg_key: tuple[Any, ...] | None = None
        self._odds_cache: tuple[Any, DuelOdds] | None = None
        self._finished_trays: tuple[tuple[TokenState, ...], ...] | None = None
        #: Messages the widget refused, newest last: ``(type, why)``; ``("progress", why)``
        #: when the progress store refused a row (the game goes on).
        self.refused: list[tuple[str, str]] = []
        #: How long the computer took to choose each of its steps, in ms, newest last.
        self.think_ms: list[float] = []
        self.on_msg(self._on_page_message)
        self.strings = _strings(language)
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
        words = Words(self._language, self._naming)
        return [say(words, key, values) for key, values in self._story.entries]

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
        self._story = Story(piano=self._start_piano)
        self._progress_seen = len(self._state.story())
        self._duel_put_away = 0
        self._error = None
        self._hint = None
        self._after_change()

    def take_back(self) -> bool:
        """Take back the person's last action, if it showed no chance and no hidden card:
        the engine's rule (:meth:`DuelState.take_back`) stops at the last die roll, card
        draw or computer's action. Returns False when nothing can be taken back."""
        state = self._state
        if state is None or not self._can_undo():
            return False
        self.cancel_tasks()
        state.take_back(1, _PERSON)
        # rows of turns that ended stay written; the turn in progress had none (module notes)
        self._progress_seen = min(self._progress_seen, len(state.story()))
        self._story = Story(piano=self._start_piano)  # duels keep their numbers
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
        except MessageError as err:
            self._refuse(str(kind), str(err))
        except DuelError as err:  # the page offered a move the engine refuses (a stale click)
            self._refuse(str(kind), str(err), shown=refusal_text(err, self._language))

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

    def _refuse(self, kind: str, why: str, *, shown: str | None = None) -> None:
        """Note ``why`` in :attr:`refused`; the page shows ``shown`` (in the page's language)
        when given, else ``why``."""
        self.refused.append((kind, why))
        self._error = why if shown is None else shown
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
            label = self._undo_label()  # what stops it, if anything was played
            why = "duel.error.nothing_to_take_back" if label == "duel.button.take_back" else label
            raise MessageError(text(why, self._language))

    def _on_hint(self, message: HintMessage) -> None:
        state = self._require_game()
        if state.seat_to_act != _PERSON or self._screen != "play":
            raise MessageError(text("duel.error.no_hint_now", self._language))
        self._error = None
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            # No event loop (a plain script): work the hint out at once.
            assert self._hinter is not None
            self._give_hint(self._choose(self._hinter, state.view(_PERSON)))
            return
        self._spawn(self._hint_task(self._game_number, self._hint_position()))
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
            self.strings = _strings(self._language)
        self._publish()

    def _require_game(self) -> DuelState:
        if self._state is None:
            raise MessageError(text("duel.error.no_game", self._language))
        return self._state

    # -- the flow of the game -----------------------------------------------------------------
    def _play(self, action: Action, seat: int) -> None:
        """Apply one action for ``seat`` (the engine checks it) and note what it caused."""
        state = self._require_game()
        trays = tuple(tuple(tok.state for tok in state.tokens(s)) for s in (0, 1))
        events = state.apply(action, seat)
        self._error = None
        self._hint = None
        if any(isinstance(event, RoundScored) for event in events):
            self._finished_trays = trays  # the trays as the round finished, for its end
        if isinstance(action, EndTurn):
            self._write_progress(state)
        self._story.read(state.story(_PERSON))
        for event in events:
            if isinstance(event, RoundScored):
                self._screen = "round_end"
            elif isinstance(event, GameOver):
                self._screen = "game_over"

    def _write_progress(self, state: DuelState) -> None:
        """Store the rows of the turn that just ended (see the module's notes)."""
        story = state.story()
        start, self._progress_seen = self._progress_seen, len(story)
        if self._progress is None:
            return
        piano = next((event.piano for event in reversed(story[:start])
                      if isinstance(event, RoundStarted)), self._start_piano)
        for item, answer, correct in progress_rows(story[start:], piano, _PERSON):
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
                and state.seat_to_act == _COMPUTER)

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
        """Bring the story up to date."""
        if self._state is not None:
            self._story.read(self._state.story(_PERSON))

    def _choose(self, player: Bot, view: SeatView) -> Action:
        action = player.choose(view)
        if action not in view.legal_actions():
            raise MessageError(f"the computer chose {action}, which is not legal now")
        return action

    def _spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """Collect what a finished task raised, so nothing is left "never retrieved": it is
        noted in :attr:`refused` (``("task", why)``) and the game goes on."""
        if task.cancelled():
            return
        err = task.exception()
        if err is not None:
            self.refused.append(("task", f"{type(err).__name__}: {err}"))

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

    async def _hint_task(self, game: int, position: tuple[int, str, str]) -> None:
        state = self._state
        if state is None or self._hinter is None:
            return
        view = state.view(_PERSON)
        try:
            action = await asyncio.to_thread(self._choose, self._hinter, view)
        except (DuelError, MessageError) as err:
            if game == self._game_number and self._hint_position() == position:
                self.refused.append(("hint", str(err)))
            return  # a hint for a turn that has ended is of no use: dropped
        if game != self._game_number or self._state is not state:
            return
        if self._hint_position() != position:
            return  # the position moved on while the hint was worked out: dropped
        self._give_hint(action)

    def _give_hint(self, action: Action) -> None:
        """Show ``action`` as the hint for the position the game is in now."""
        self._hint = {"action": action.to_json(), "position": self._hint_position()}
        self._publish()

    def _hint_position(self) -> tuple[int, str, str]:
        """Where the game stands, for a hint: the game, the screen and the engine's saved
        game (its position and record, take-backs included). A hint belongs to the position
        it was worked out for and is shown only while the game is there."""
        state = self._state
        return (self._game_number, self._screen, "" if state is None else state.to_json())

    def _current_hint(self) -> dict[str, Any] | None:
        """The hint, if the game is still where it was given; a hint whose position changed
        (an action, a take-back, the end of a duel or a round, a new game) is dropped."""
        if self._hint is not None and self._hint["position"] != self._hint_position():
            self._hint = None
        return self._hint

    def _duel_odds(self) -> DuelOdds | None:
        """The engine's honest odds for the person's decision in a duel (given the other
        side's best reply, and the best run from the person's hand), kept until the duel
        or the hand changes."""
        state = self._state
        if state is None or state.duel is None or state.seat_to_act != _PERSON:
            return None
        view = state.view(_PERSON)
        key = (self._game_number, view.duel, view.hand)
        if self._odds_cache is None or self._odds_cache[0] != key:
            self._odds_cache = (key, duel_odds(view))
        return self._odds_cache[1]

    def _can_undo(self) -> bool:
        state = self._state
        return (state is not None and self._screen == "play"
                and state.take_back_reach(_PERSON).actions > 0)

    def _undo_label(self) -> str:
        """The Take back button's words: plain, or what stops it (a die roll, a card draw,
        the computer's action) when it cannot go further."""
        state = self._state
        if state is None or self._screen != "play":
            return "duel.button.take_back"
        reach = state.take_back_reach(_PERSON)
        if reach.actions or reach.stop not in ("dice", "draw", "other_player", "not_their_move"):
            return "duel.button.take_back"
        stop = "other_player" if reach.stop == "not_their_move" else reach.stop
        return f"duel.button.take_back_stops.{stop}"

    # -- what the page is sent ----------------------------------------------------------------
    def _publish(self) -> None:
        if self._closed:
            return
        state = self._state
        if state is not None:
            piano = (state.piano_cards[0].index, state.piano_cards[1].index)
            if self._screen in ("round_end", "game_over") and self._story.rounds:
                piano = self._story.rounds[-1].piano  # the finished board stays in view
            key = (piano, self._naming)
            if key != self._svg_key:
                self._svg_key = key
                self.cards_svg = [piano_svg(card, self._naming) for card in piano]
        self.table = build_table(Scene(
            state=state, story=self._story, screen=self._screen, opponent=self._opponent,
            game=self._game_number, seq=self._seq, error=self._error, thinking=self._thinking,
            hint=self._current_hint(), duel_put_away=self._duel_put_away,
            can_undo=self._can_undo(),
            undo_label=self._undo_label(),
            odds=self._duel_odds(), finished_trays=self._finished_trays,
            naming=self._naming, language=self._language,
        ))


_HANDLERS: dict[type, Callable[[KeyboardDuelWidget, Any], None]] = {
    ActMessage: KeyboardDuelWidget._on_act,
    NewGameMessage: KeyboardDuelWidget._on_new_game,
    UndoMessage: KeyboardDuelWidget._on_undo,
    HintMessage: KeyboardDuelWidget._on_hint,
    ContinueMessage: KeyboardDuelWidget._on_continue,
    SettingsMessage: KeyboardDuelWidget._on_settings,
}


def _strings(language: str) -> dict[str, str]:
    """The page's words: the game's and the sound control's."""
    return {**catalogue(language, "duel."), **sound_strings(language)}


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


def refusal_text(err: DuelError, language: str) -> str:
    """What the page says when the engine refuses a move: the reason in the page's language,
    with the rules the engine cites (its ``rules``; the engine's own message is English, for
    developers).

    >>> from musicgames.duel.errors import SecondPlaceError
    >>> refusal_text(SecondPlaceError("Place D1 on D refused: ...", rule="D7"), "es")
    'Ya colocaste una ficha en este turno. (D7)'
    """
    key = f"duel.refused.{type(err).__name__}"
    try:
        reason = text(key, language)
    except LanguageError:
        reason = text("duel.refused.other", language)
    if not err.rules:
        return reason
    return text("duel.refused.rule", language, reason=reason, rules=", ".join(err.rules))
