"""A stand-in for the Keyboard Duel widget's page in headless tests."""

from __future__ import annotations

from typing import Any

from musicgames.duel import Action
from musicgames.widgets.keyboard_duel import KeyboardDuelWidget


class Pager:
    """Sends messages as the page does, numbering them, and checks that each is
    acknowledged."""

    def __init__(self, widget: KeyboardDuelWidget) -> None:
        self.widget = widget
        self.seq = 0

    def send(self, message: dict[str, Any]) -> None:
        self.seq += 1
        self.widget.receive({**message, "seq": self.seq})
        assert self.widget.table["seq"] == self.seq, "the page's message was not acknowledged"

    def act(self, action: Action) -> None:
        self.send({"type": "act", "action": action.to_json()})
