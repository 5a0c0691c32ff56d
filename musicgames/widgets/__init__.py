"""Interactive widgets for notebooks (anywidget on ipywidgets 8).

Each widget is a thin Python class with its JavaScript view in its own ``.js`` file next to
it: the rules live in Python, the page draws what it is sent and reports what the person did.
The names below are imported on first use, so ``import musicgames.widgets`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "NoteSnapWidget": "musicgames.widgets.note_snap",
    "play_note_snap": "musicgames.widgets.note_snap",
    "how_to_play": "musicgames.widgets.note_snap",
    "KeyboardDuelWidget": "musicgames.widgets.keyboard_duel",
    "play_keyboard_duel": "musicgames.widgets.keyboard_duel",
    "NoteDrill": "musicgames.widgets.note_drill",
    "ChordTonesQuiz": "musicgames.widgets.chord_quiz",
    "HandInBox": "musicgames.widgets.hand_in",
    "hand_in_button": "musicgames.widgets.hand_in",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'musicgames.widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
