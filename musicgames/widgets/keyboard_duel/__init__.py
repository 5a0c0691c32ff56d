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
>>> print(game.table["error"])        # in the page's language, with the rules cited
That does not fit this moment of the game. (D7, D11)
>>> print(game.refused[-1][1])          # the engine's own words, for developers
Lock in refused: there is no duel now; it is White's turn to place or move (D7, D11)
>>> game.close()

Progress
--------
Given ``progress=`` (a :class:`musicgames.progress.ProgressStore`), the widget stores what
the game teaches about chord tones, from the person's side (White), under the activity
``"keyboard_duel"``. Every row's ``item`` names a key as ``"<note> of <chord>"``: the key's
note in solfège without octave, spelled in the key of its chord (``Triad.spell``), and the chord
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
them. An action taken back before its turn ended leaves no rows, and so does a turn left
unfinished by New game. A turn cannot be taken back once it has ended: ending a turn draws
cards, and Take back stops at the last die roll, card draw or computer's action (the
engine's rule, :meth:`musicgames.duel.DuelState.take_back`).

The package's modules follow the widget's seams: :mod:`~.messages` (what the page may send),
:mod:`~.narration` (the game told in words), :mod:`~.table` (what the page is sent),
:mod:`~.progress` (rows for a progress file) and :mod:`~.widget` (the widget itself).
"""

from __future__ import annotations

from musicgames.progress.sink import ProgressSink
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
from musicgames.widgets.keyboard_duel.progress import (
    PROGRESS_ACTIVITY,
    progress_item,
    progress_rows,
)
from musicgames.widgets.keyboard_duel.table import LOG_LINES_SHOWN
from musicgames.widgets.keyboard_duel.widget import (
    DEFAULT_PAUSE,
    KeyboardDuelWidget,
    play_keyboard_duel,
)

__all__ = [
    "DEFAULT_PAUSE",
    "LOG_LINES_SHOWN",
    "OPPONENTS",
    "PROGRESS_ACTIVITY",
    "ActMessage",
    "ContinueMessage",
    "HintMessage",
    "KeyboardDuelWidget",
    "MessageError",
    "NewGameMessage",
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
