"""A lesson's sound: the note after an answer, a chord to hear, played in the page.

The lesson puts one :class:`LessonSound` in its settings panel; exercises then ask it to
play through :meth:`LessonSound.play`. The sound is made in the browser (the shared Web Audio
module, ``_sound.js``); without a browser nothing plays and nothing fails:

>>> player = LessonSound()
>>> player.play(["Do3"])
>>> player.sound, player.count
({'hz': [261.63], 'broken': False}, 1)
>>> player.enabled = False
>>> player.play(["Sol3"]); player.count          # the Sound setting is off: nothing asked
1
"""

from __future__ import annotations

from collections.abc import Iterable

import anywidget
import traitlets

from musicgames.sound import notes, sound_strings
from musicgames.theory import Note
from musicgames.widgets._assets import joined

__all__ = ["LessonSound"]


class LessonSound(anywidget.AnyWidget):
    """Plays what a lesson asks for; ``enabled`` is the lesson's Sound setting."""

    _esm = joined("_dom.js", "_sound.js", "lesson_sound.js")
    _css = joined("_sound.css")

    sound = traitlets.Dict({}).tag(sync=True)
    count = traitlets.Int(0).tag(sync=True)
    enabled = traitlets.Bool(True).tag(sync=True)
    strings = traitlets.Dict({}).tag(sync=True)

    def __init__(self, *, language: str = "en", enabled: bool = True) -> None:
        super().__init__(enabled=enabled, strings=sound_strings(language))

    def play(self, items: Iterable[Note | str | int], *, broken: bool = False) -> None:
        """Play notes together (or one after another when ``broken``)."""
        if not self.enabled:
            return
        chosen = list(items)
        if not chosen:
            return
        self.sound = notes(chosen, broken=broken)
        self.count += 1
