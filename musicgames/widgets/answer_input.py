"""The "answer with" switch on its own, for a lesson's exercise that asks for a note.

A lesson's exercise is made of ipywidgets buttons; to let the student answer it by playing,
it holds an :class:`AnswerInput`: the same switch as the note drill's (Click / MIDI
keyboard / Microphone, see :mod:`musicgames.widgets._playing`), which reports each note
played while a question waits (``listening``). The exercise decides which answer the note
is; this widget only turns the page's note into the written note and says whether any
octave counts for it. The choice is kept in the student's progress file; when it cannot be
written, a line under the switch says so, and why. Without a browser nothing is played, and
nothing fails:

>>> heard = []
>>> box = AnswerInput(on_played=lambda midi, any_octave: heard.append((midi, any_octave)))
>>> box.receive({"type": "played", "midi": 67, "source": "midi"})
>>> box.listening = True
>>> box.receive({"type": "played", "midi": 67, "source": "midi"})
>>> box.set_playing({"instrument": "Bb"})
>>> box.receive({"type": "played", "midi": 65, "source": "microphone"})
>>> heard
[(67, False), (67, True)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import anywidget
import traitlets

from musicgames.i18n import text
from musicgames.progress.sink import why_not_saved
from musicgames.theory import Naming
from musicgames.widgets._assets import joined
from musicgames.widgets._messages import MessageError
from musicgames.widgets._playing import PlayingInput, playing_strings

__all__ = ["AnswerInput"]


class AnswerInput(PlayingInput, anywidget.AnyWidget):
    """The switch; ``on_played(midi, any_octave)`` is called with each written note played
    while ``listening``. ``progress`` is the student's progress file (their settings)."""

    _esm = joined("_dom.js", "_midi.js", "vendor/fft.js", "vendor/pitchy.js", "_microphone.js",
                  "_play_input.js", "answer_input.js")
    _css = joined("_play_input.css")

    listening = traitlets.Bool(False).tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    #: A line under the switch: the student's choice could not be kept in their progress
    #: file, and why ("" when there is nothing to say).
    notice = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        *,
        on_played: Callable[[int, bool], None] | None = None,
        progress: object = None,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
    ) -> None:
        super().__init__(strings=playing_strings(language))
        self.on_played = on_played
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
        self._setup_playing(progress, naming, language)
        self.on_msg(lambda _widget, content, _buffers: self.receive(content))

    def _playing_not_kept(self, err: BaseException) -> None:
        """The choice works on this page, and the student is told it is not kept, and why."""
        language = self._answering_language
        self.notice = text("progress.setting_not_kept", language,
                           why=why_not_saved(err, language))

    def _playing_kept(self) -> None:
        self.notice = ""

    def receive(self, content: object) -> None:
        """Handle one message from the page: ``{"type": "input", "settings": {...}}`` or
        ``{"type": "played", "midi": n, "source": "midi" | "microphone"}``."""
        kind = content.get("type") if isinstance(content, Mapping) else None
        try:
            if not isinstance(content, Mapping) or kind not in ("input", "played"):
                raise MessageError(f"{content!r:.40} is not a message of the answer switch")
            if kind == "input":
                self.set_playing(content.get("settings"))
            elif self.listening:
                midi, any_octave = self._written_played(content)
                if self.on_played is not None:
                    self.on_played(midi, any_octave)
        except MessageError as err:
            self.refused.append((str(kind), str(err)))
            del self.refused[:-50]

