"""The run loop of a Note Snap table on screen: when computer players flip, when a card's
slap window opens and closes, when a timed game's time is up. The clock is injected, so
the loop runs alike under a notebook's event loop and a test's hand-turned clock.

A :class:`Table` plays a :class:`~musicgames.snap.SnapState` with computer players
(:class:`~musicgames.snap.Bot`) and people. It never reads a clock itself: it asks its
:class:`Clock` the time and to call it back later, and it is told what people did
(:meth:`Table.flip`, :meth:`Table.slap`, :meth:`Table.pass_`) and when the page painted a
card (:meth:`Table.shown`). Reaction times are the page's, measured from that painting
(S13); the table only decides *when* to close a window, never who was last.

>>> from musicgames.snap import SnapConfig, new_game
>>> clock = ManualClock()
>>> state = new_game(3, SnapConfig(players=2, call_modes=("self", "self")))
>>> bots = {seat: Bot(seat, "expert", seat) for seat in (0, 1)}
>>> table = Table(state, bots, clock)
>>> table.start()
>>> clock.advance(800.0)                 # the first computer player flips after its pause
>>> state.flips, table.card is not None
(1, True)
>>> clock.advance(1500.0 + 2500.0 + 250.0)   # unpainted, its window opens and closes (S14)
>>> table.outcomes[0].card == state.events[1].card        # the first card was judged
True
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from musicgames.snap.actions import (
    CloseSlaps,
    Event,
    Flip,
    Flipped,
    GameLength,
    Outcome,
    Pass,
    Phase,
    Slap,
    TimeUp,
)
from musicgames.snap.bots import Bot
from musicgames.snap.errors import PhaseError, SeatError
from musicgames.snap.state import SnapState
from musicgames.snap.window import early_close_ms

__all__ = ["GRACE_MS", "SETTLE_MS", "SHOWN_TIMEOUT_MS", "CardInPlay", "Clock", "ManualClock",
           "Table"]

#: How long after the slap window the table still waits for a person's slap: the window is
#: counted on the page, the message then needs a moment to arrive.
GRACE_MS = 250.0
#: If no page reports a card as painted within this time, the table opens the slap window
#: itself, so the game never stalls.
SHOWN_TIMEOUT_MS = 1500.0
#: When every seat has decided, the card is judged this long after the last decision is
#: due, so the page has drawn it before the result replaces it.
SETTLE_MS = 120.0


class Clock(Protocol):
    """What a table needs of time: the time now, and a call back later (by name: a second
    call of one name replaces the first)."""

    def now(self) -> float:
        """Seconds on a steady clock."""
        ...

    def later(self, name: str, delay_ms: float, step: Callable[[], None]) -> None:
        """Call ``step`` after ``delay_ms``, unless cancelled or replaced first."""
        ...

    def cancel(self, name: str) -> None:
        """Forget the call back ``name``, if any."""
        ...


class ManualClock:
    """A clock turned by hand (:meth:`advance`), for tests and simulations: nothing sleeps.

    >>> clock = ManualClock()
    >>> clock.later("bell", 100.0, lambda: print("ring"))
    >>> clock.advance(99.0)
    >>> clock.advance(1.0)
    ring
    """

    def __init__(self) -> None:
        self._now_ms = 0.0
        self._order = 0
        self._due: list[tuple[float, int, str]] = []
        self._steps: dict[str, tuple[int, Callable[[], None]]] = {}

    def now(self) -> float:
        return self._now_ms / 1000.0

    def later(self, name: str, delay_ms: float, step: Callable[[], None]) -> None:
        self._order += 1
        self._steps.pop(name, None)  # a replaced call back counts from now
        self._steps[name] = (self._order, step)
        heapq.heappush(self._due, (self._now_ms + max(0.0, delay_ms), self._order, name))

    def cancel(self, name: str) -> None:
        self._steps.pop(name, None)

    @property
    def pending(self) -> tuple[str, ...]:
        """The names of the call backs still waiting, in the order they were set."""
        return tuple(self._steps)

    def advance(self, ms: float) -> None:
        """Let ``ms`` pass, calling back every step that falls due, in time order."""
        until = self._now_ms + ms
        while self._due and self._due[0][0] <= until:
            at, order, name = heapq.heappop(self._due)
            waiting = self._steps.get(name)
            if waiting is None or waiting[0] != order:
                continue  # cancelled or replaced
            del self._steps[name]
            self._now_ms = at
            waiting[1]()
        self._now_ms = until


@dataclass
class CardInPlay:
    """The card waiting for slaps: its number, the computer players' decisions drawn when
    it was flipped (ms from its painting), the people's, and when it was shown."""

    number: int
    card: int
    flipper: int
    call: str
    computer_slaps: dict[int, float]
    computer_passes: dict[int, float] = field(default_factory=dict)
    shown_at: float | None = None
    shown_by_timeout: bool = False
    person_slaps: dict[int, float] = field(default_factory=dict)
    person_passes: dict[int, float] = field(default_factory=dict)


class Table:
    """The run loop of one game at a table on screen (see the module's introduction).

    ``bots`` are the computer players by seat; every other seat is a person. ``on_card``
    is called with the outcomes of each card once it is judged (one, or two when nobody
    can flip any more, S16) and the flip that showed it; ``on_change`` after anything the
    page should draw again. ``pace_ms`` is the computer players' pause before flipping
    (S15; the settings' ``flip_pause_ms`` unless said otherwise).
    """

    def __init__(
        self,
        state: SnapState,
        bots: Mapping[int, Bot],
        clock: Clock,
        *,
        pace_ms: float | None = None,
        on_card: Callable[[Sequence[Outcome], Flipped | None], None] | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.state = state
        self.bots = dict(bots)
        self.clock = clock
        config = state.config
        self.pace_ms = config.flip_pause_ms if pace_ms is None else pace_ms
        self.people = tuple(s for s in range(state.players) if s not in self.bots)
        self._on_card = on_card
        self._on_change = on_change
        self.card: CardInPlay | None = None
        self.last_flip: Flipped | None = None
        #: Every outcome so far, in order.
        self.outcomes: list[Outcome] = []
        self.started = False
        self.paused = False
        self.stopped = False
        self._played_s = 0.0
        self._clock_from: float | None = None

    # -- the game clock -------------------------------------------------------------------
    def played_seconds(self) -> float:
        """Seconds of play, pauses not counted."""
        running = 0.0 if self._clock_from is None else self.clock.now() - self._clock_from
        return self._played_s + running

    def time_left_s(self) -> float | None:
        """A timed game's seconds of play left (``None``: no time limit)."""
        config = self.state.config
        if config.length is not GameLength.TIMED:
            return None
        return max(0.0, config.time_limit_s - self.played_seconds())

    def _run_clock(self) -> None:
        if self._clock_from is None and self.started and not self.paused \
                and not self.state.is_terminal():
            self._clock_from = self.clock.now()

    def _stop_clock(self) -> None:
        if self._clock_from is not None:
            self._played_s += self.clock.now() - self._clock_from
            self._clock_from = None

    # -- what the table is told ------------------------------------------------------------
    def start(self) -> None:
        """Start play (a page does this once it shows the table)."""
        if not self.started:
            self.started = True
            self._run_clock()
            self._next_turn()

    def stop(self) -> None:
        """Stop for good: every call back is cancelled."""
        self.stopped = True
        self._stop_clock()
        for name in ("flip", "close", "shown", "time_up"):
            self.clock.cancel(name)

    def pause(self) -> None:
        """Pause: computer players stop, the slap window and the game clock stop."""
        if self.paused:
            return
        self.paused = True
        self._stop_clock()
        for name in ("flip", "close", "shown", "time_up"):
            self.clock.cancel(name)
        card = self.card
        if card is not None:  # the card is shown again, with its whole window, on resume
            card.shown_at = None
            card.shown_by_timeout = False
        self._changed()

    def resume(self) -> None:
        """Go on after a pause."""
        if not self.paused:
            return
        self.paused = False
        self._run_clock()
        self._changed()
        if self.card is not None:
            self.clock.later("shown", SHOWN_TIMEOUT_MS, self._shown_by_timeout)
        else:
            self._next_turn()

    def shown(self, number: int) -> None:
        """The page painted card ``number``: its slap window counts from now (S13)."""
        card = self._current(number)
        if card.shown_at is not None and not card.shown_by_timeout:
            raise PhaseError(f"card {number} was already shown", rule=None)
        card.shown_by_timeout = False  # painted late: its window counts from now
        self._card_shown(card)

    def flip(self, seat: int, call: str | None = None) -> None:
        """A person flips (S5, S15); a :class:`SnapError` if the rules refuse it."""
        if seat not in self.people:
            raise SeatError(f"seat {seat} is not a person at this table")
        if self.paused:
            raise PhaseError("the game is paused", rule=None)
        flip = Flip(seat, call)
        self.state.check(flip)
        self._flip(flip)

    def slap(self, seat: int, number: int, reaction_ms: float) -> None:
        """A person slapped card ``number``, ``reaction_ms`` after it was painted (S13)."""
        self._decide(Slap(seat, reaction_ms), number)

    def pass_(self, seat: int, number: int, at_ms: float) -> None:
        """A person passed on card ``number`` (S14 v2)."""
        self._decide(Pass(seat, at_ms), number)

    # -- the loop ------------------------------------------------------------------------
    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    def _current(self, number: int) -> CardInPlay:
        card = self.card
        if card is None or card.number != number or self.state.phase is not Phase.SLAPS:
            raise PhaseError(f"card {number} is no longer waiting for slaps")
        return card

    def _decide(self, decision: Slap | Pass, number: int) -> None:
        seat = decision.seat
        if seat not in self.people:
            raise SeatError(f"seat {seat} is not a person at this table")
        card = self._current(number)
        events = self.state.apply(decision)
        if type(decision) is Slap:
            card.person_slaps[seat] = decision.reaction_ms
        else:
            card.person_passes[seat] = decision.at_ms  # type: ignore[union-attr]
        outcomes = _outcomes(events)
        if outcomes:  # every seat has decided: the engine closed the window (S14)
            self._finish(outcomes, self.last_flip)
            return
        self._changed()
        self._close_early_if_all_decided()

    def _next_turn(self) -> None:
        state = self.state
        if self.stopped or not self.started or self.paused or state.phase is not Phase.FLIP:
            return
        left = self.time_left_s()
        if left is not None:
            if left <= 0:
                self._time_up()
                return
            self.clock.later("time_up", left * 1000.0 + 50.0, self._time_up)
        if state.to_flip in self.bots:
            self.clock.later("flip", self.pace_ms, self._computer_flips)

    def _time_up(self) -> None:
        left = self.time_left_s()
        if self.paused or self.state.phase is not Phase.FLIP or left is None:
            return
        if left > 0:
            self.clock.later("time_up", left * 1000.0 + 50.0, self._time_up)
            return
        self.state.apply(TimeUp())
        self._over()
        self._changed()

    def _computer_flips(self) -> None:
        state = self.state
        seat = state.to_flip
        if self.paused or state.phase is not Phase.FLIP or seat not in self.bots:
            return
        self._flip(self.bots[seat].flip(state.view(seat)))

    def _flip(self, flip: Flip) -> None:
        events = self.state.apply(flip)
        flipped = next(e for e in events if type(e) is Flipped)
        assert isinstance(flipped, Flipped)
        self.last_flip = flipped
        outcomes = _outcomes(events)
        if outcomes:  # a wrong call (S10) or a missed match (S9): no slap window
            self._finish(outcomes, flipped)
            return
        slaps: dict[int, float] = {}
        passes: dict[int, float] = {}
        for seat, bot in self.bots.items():
            decision = bot.decide(self.state.view(seat))
            if type(decision) is Slap:
                slaps[seat] = decision.reaction_ms
            elif type(decision) is Pass:
                passes[seat] = decision.at_ms
        self.card = CardInPlay(flipped.number, flipped.card, flipped.seat, flipped.call, slaps,
                               passes)
        self._changed()
        self.clock.later("shown", SHOWN_TIMEOUT_MS, self._shown_by_timeout)

    def _shown_by_timeout(self) -> None:
        card = self.card
        if card is not None and card.shown_at is None:
            card.shown_by_timeout = True
            self._card_shown(card)

    def _card_shown(self, card: CardInPlay) -> None:
        if self.paused:
            return
        card.shown_at = self.clock.now()
        self.clock.cancel("shown")
        window = self.state.config.slap_window_ms
        self.clock.later("close", window + GRACE_MS, self._close_slaps)
        self._close_early_if_all_decided()

    def _close_early_if_all_decided(self) -> None:
        """S14 v2: once every seat has slapped or passed, the card is judged."""
        card = self.card
        if card is None or card.shown_at is None or self.paused:
            return
        # the people's decisions are past (0: now at the latest), the computer players'
        # are due at their drawn times
        decided = dict.fromkeys([*card.person_slaps, *card.person_passes], 0.0)
        decided.update(card.computer_slaps)
        decided.update(card.computer_passes)
        last_due = early_close_ms(self.state.players, decided)
        if last_due is None:
            return  # a seat has not decided: the window closes by itself (S14)
        elapsed_ms = (self.clock.now() - card.shown_at) * 1000.0
        self.clock.later("close", max(0.0, last_due - elapsed_ms) + SETTLE_MS,
                         self._close_slaps)

    def _close_slaps(self) -> None:
        card = self.card
        state = self.state
        if card is None or state.phase is not Phase.SLAPS:
            return
        events: list[Event] = []
        decisions: list[Slap | Pass] = [Slap(s, ms) for s, ms in card.computer_slaps.items()]
        decisions += [Pass(s, ms) for s, ms in card.computer_passes.items()]
        decisions.sort(key=lambda d: d.reaction_ms if type(d) is Slap else d.at_ms)  # type: ignore[union-attr]
        for decision in decisions:
            if state.phase is Phase.SLAPS:
                events.extend(state.apply(decision))
        if state.phase is Phase.SLAPS:
            events.extend(state.apply(CloseSlaps()))
        self._finish(_outcomes(events), self.last_flip)

    def _finish(self, outcomes: Sequence[Outcome], flipped: Flipped | None) -> None:
        self.clock.cancel("close")
        self.clock.cancel("shown")
        self.card = None
        self.outcomes.extend(outcomes)
        if self.state.is_terminal():
            self._over()
        if self._on_card is not None:
            self._on_card(outcomes, flipped)
        self._changed()
        self._next_turn()

    def _over(self) -> None:
        self._stop_clock()
        for name in ("flip", "close", "shown", "time_up"):
            self.clock.cancel(name)


def _outcomes(events: Sequence[Event]) -> list[Outcome]:
    return [e for e in events if type(e) is Outcome]
