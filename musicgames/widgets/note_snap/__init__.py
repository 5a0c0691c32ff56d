"""Note Snap in a notebook: a table of 2–4 seats, people and computer players.

The rules live in :mod:`musicgames.snap`; this widget only runs the table. The page (the
JavaScript view in ``view.js``, ``drawing.js`` and ``form.js``) draws the ``table`` it is
sent and reports what people did as small messages; the widget checks each message, turns
it into an engine action, and sends the new table back. Timing follows rule S13: the page
notes when a card was painted and when a key was pressed, and sends the difference as
``reaction_ms``; computer players' reaction times are drawn here and sent with the card, so
the page shows each computer slap at its moment. The clock of the kernel never decides who
was last.

When a computer player flips and when a slap window closes is decided by the table's run
loop, :class:`musicgames.snap.table.Table`, on the clock it is given: the kernel's timers are
asyncio tasks (:class:`~.clock.AsyncioClock`), all cancelled by
:meth:`NoteSnapWidget.new_game` and :meth:`NoteSnapWidget.close`; a test gives a
:class:`~musicgames.snap.table.ManualClock` and turns it by hand, so nothing sleeps.

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

The package's modules follow the widget's seams: :mod:`~.settings` (the table's settings,
checked by the engine's :class:`~musicgames.snap.SnapConfig`), :mod:`~.messages` (what the
page may send), :mod:`~.records` (what is kept of each card and game), :mod:`~.summary` (how
a game went, in words), :mod:`~.clock` (the kernel's clock for the run loop) and
:mod:`~.widget` (the widget itself).
"""

from __future__ import annotations

from musicgames.widgets.note_snap.clock import AsyncioClock, TableClock
from musicgames.widgets.note_snap.messages import MessageError
from musicgames.widgets.note_snap.records import CardRecord, GameRecord
from musicgames.widgets.note_snap.settings import (
    RESERVED_KEYS,
    SHARED_KEYS,
    SHORT_CARD_LIMIT,
    SOLO_KEY,
    SeatSetting,
    SettingsError,
    SnapSettings,
    default_keys,
    key_label,
)
from musicgames.widgets.note_snap.widget import NoteSnapWidget, how_to_play, play_note_snap

__all__ = [
    "RESERVED_KEYS",
    "SHARED_KEYS",
    "SHORT_CARD_LIMIT",
    "SOLO_KEY",
    "AsyncioClock",
    "CardRecord",
    "GameRecord",
    "MessageError",
    "NoteSnapWidget",
    "SeatSetting",
    "SettingsError",
    "SnapSettings",
    "TableClock",
    "default_keys",
    "how_to_play",
    "key_label",
    "play_note_snap",
]
