"""The kernel's clock for a Note Snap table on screen: the run loop
(:class:`musicgames.snap.table.Table`) asks it the time and to call it back later, and each
call back is an asyncio task of the notebook's event loop, so the kernel keeps answering
while a computer player waits or a slap window runs.

A test gives the widget a :class:`musicgames.snap.table.ManualClock` instead, turned by
hand: nothing sleeps.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from musicgames.snap.table import Clock

__all__ = ["AsyncioClock", "TableClock"]

_LOG = logging.getLogger(__name__)


class TableClock(Clock, Protocol):
    """A :class:`~musicgames.snap.table.Clock` that also says which call backs still wait
    (the widget's :attr:`~musicgames.widgets.note_snap.NoteSnapWidget.pending_timers`)."""

    @property
    def pending(self) -> tuple[str, ...]:
        """The names of the call backs still waiting, in the order they were set."""
        ...


class AsyncioClock:
    """Call backs as asyncio tasks of the running event loop (a notebook's kernel has one).

    Outside a running loop (a script, a test without one) a call back cannot start: it is
    left out, and the game waits for what people do. A call back that fails is logged and
    reported to ``on_error`` (its name and the error), never raised into the loop.

    >>> async def ring() -> list[str]:
    ...     heard: list[str] = []
    ...     clock = AsyncioClock()
    ...     clock.later("bell", 0.0, lambda: heard.append("ring"))
    ...     pending = clock.pending
    ...     await asyncio.sleep(0)
    ...     await asyncio.sleep(0)
    ...     return [*pending, *heard, *clock.pending]
    >>> asyncio.run(ring())
    ['bell', 'ring']
    """

    def __init__(self, on_error: Callable[[str, Exception], None] | None = None) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._on_error = on_error

    def now(self) -> float:
        """The event loop's time in seconds (only used to schedule, never to judge)."""
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return time.monotonic()

    def later(self, name: str, delay_ms: float, step: Callable[[], None]) -> None:
        """Call ``step`` after ``delay_ms``; a call back of the same name is replaced."""
        self.cancel(name)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            _LOG.debug("Note Snap: no asyncio event loop is running, so the %s timer "
                       "cannot start", name)
            return

        async def wait_then_step() -> None:
            await asyncio.sleep(max(0.0, delay_ms) / 1000.0)
            if self._tasks.get(name) is not task:
                return  # replaced meanwhile
            del self._tasks[name]
            try:
                step()
            except Exception as err:  # a bug must not pass silently, nor kill the kernel
                _LOG.exception("Note Snap: the %s timer failed (%s)", name, err)
                if self._on_error is not None:
                    self._on_error(name, err)

        task = loop.create_task(wait_then_step())
        self._tasks[name] = task

    def cancel(self, name: str) -> None:
        """Forget the call back ``name``, if any."""
        task = self._tasks.pop(name, None)
        if task is not None:
            task.cancel()

    @property
    def pending(self) -> tuple[str, ...]:
        """The names of the call backs still waiting, in the order they were set."""
        return tuple(name for name, task in self._tasks.items() if not task.done())
