"""The note drill: a note on the staff, the student names it; notes they miss come back.

The student answers by clicking a name, pressing keys 1–7 (1 = Do/C … 7 = Si/B), or clicking
the note's key on the keyboard. Right or wrong is shown at once, with the right answer. The
questions follow the Leitner boxes of :mod:`musicgames.drill`: missed or slow notes come back
more often. A session lasts a number of questions or a time; a summary ends it.

The rules live here; the page (``note_drill.js``) draws what it is sent and reports what the
student did. It times each answer itself: when a note arrives it is put on the page, then in
the next ``requestAnimationFrame`` the time is read with ``performance.now()``; the time of the
click or key press minus that is sent as ``response_ms``.

A name counts as right when it is the note's name (any octave: the names have no octave
numbers); a key on the keyboard counts as right only when it is that very key (the octave
matters there).

The page's messages can be fed in by hand, which is how the tests drive the widget:

>>> drill = NoteDrill(["Sol3", "Fa3"], questions=2, seed=1)
>>> drill.receive({"type": "start"})
>>> drill.question["number"], drill.current.solfege
(1, 'Fa3')
>>> drill.receive({"type": "answer", "number": 1, "via": "name", "value": 3,
...                "response_ms": 850.0})
>>> drill.feedback["correct"], drill.feedback["answer"]
(True, 'Fa')
>>> drill.receive({"type": "next", "number": 1})
>>> drill.receive({"type": "answer", "number": 2, "via": "keyboard", "value": 5,
...                "response_ms": 1200.0})
>>> drill.feedback["correct"], drill.feedback["given"], drill.feedback["answer"]
(False, 'Fa3', 'Sol3')
>>> drill.receive({"type": "next", "number": 2})
>>> drill.phase, drill.summary["asked"], drill.summary["right"]
('over', 2, 1)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from musicgames.drill import DEFAULT_SLOW_MS, DrillError, DrillSession, DrillSummary
from musicgames.i18n import catalogue
from musicgames.progress import ProgressSink
from musicgames.render import keyboard_svg, staff_svg
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, Naming, Note

__all__ = ["ANSWER_WAYS", "MessageError", "NoteDrill", "ProgressSink", "SettingsError"]

_HERE = Path(__file__).parent
#: The ways to answer: name buttons (and keys 1–7), and the keyboard.
ANSWER_WAYS: tuple[str, ...] = ("names", "keyboard")
#: The longest answer time accepted from the page (longer is a page that slept).
MAX_RESPONSE_MS = 10 * 60 * 1000.0
#: The kernel ends a timed session when the page says time is up and the kernel's own clock
#: agrees within this margin.
TIME_UP_MARGIN_S = 1.0
_REFUSED_KEPT = 200


class SettingsError(ValueError):
    """Drill settings that cannot be used: no notes, an unknown way to answer, …"""


class MessageError(ValueError):
    """A message from the page that is not one the widget understands or can use now."""


def names_for(naming: Naming) -> list[str]:
    """The seven answer names in scale order, in the naming system chosen."""
    return list(SYLLABLES if naming is Naming.SOLFEGE else LETTERS)


def response_time(content: Mapping[str, Any]) -> float:
    """The ``response_ms`` of a message, checked: a number of milliseconds ≥ 0."""
    value = content.get("response_ms")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MessageError(f"response_ms {value!r} is not a number")
    if not math.isfinite(value) or not 0 <= value <= MAX_RESPONSE_MS:
        raise MessageError(f"response_ms {value!r} is not a time between 0 and 10 minutes")
    return float(value)


def whole_number(content: Mapping[str, Any], key: str) -> int:
    """A whole number field of a message, checked."""
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MessageError(f"{key} {value!r} is not a whole number")
    return value


def keyboard_span(notes: Iterable[Note]) -> tuple[Note, int]:
    """The C to start a keyboard on and how many octaves it needs to show ``notes``."""
    midis = [n.midi for n in notes]
    low = min(midis) - min(midis) % 12
    octaves = (max(midis) - low) // 12 + 1
    return Note.parse(low), octaves


class NoteDrill(anywidget.AnyWidget):
    """A drill of note reading on the treble staff.

    * ``notes`` — the notes to ask (default: the 15 card notes Do3–Do5);
    * ``naming`` — names in solfège (Do Re Mi) or letters (C D E); ``language`` — 'en'/'es';
    * ``questions`` / ``seconds`` — the session's length: a number of questions, a time, or
      both (whichever ends first);
    * ``answer_with`` — ``"names"`` (buttons and keys 1–7), ``"keyboard"``, or both;
    * ``progress`` — a :class:`musicgames.progress.ProgressStore`: each answer is stored;
    * ``seed`` — the same questions every time; ``slow_ms`` — slower right answers do not
      move a note up a Leitner box; ``clock`` — seconds, for timed sessions (tests pass a
      fake one).
    """

    _esm = _HERE / "note_drill.js"
    _css = _HERE / "note_drill.css"

    phase = traitlets.Unicode("ready").tag(sync=True)
    question = traitlets.Dict().tag(sync=True)
    feedback = traitlets.Dict().tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    score = traitlets.Dict().tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    keyboard = traitlets.Unicode("").tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        notes: Iterable[Note | str | int] = CARD_NOTES,
        *,
        naming: Naming | str = Naming.SOLFEGE,
        language: str = "en",
        questions: int | None = 20,
        seconds: float | None = None,
        answer_with: Iterable[str] = ANSWER_WAYS,
        progress: ProgressSink | None = None,
        seed: int | None = None,
        slow_ms: float = DEFAULT_SLOW_MS,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.notes: tuple[Note, ...] = tuple(dict.fromkeys(Note.parse(n) for n in notes))
        if not self.notes:
            raise SettingsError("notes is empty: give at least one note to ask")
        self.naming = Naming(naming)
        self.language = language
        ways = tuple(answer_with)
        unknown = [w for w in ways if w not in ANSWER_WAYS]
        if unknown or not ways:
            raise SettingsError(
                f"answer_with {ways!r}: choose from {', '.join(ANSWER_WAYS)} (at least one)"
            )
        self.answer_with = ways
        self._lengths = (questions, seconds, slow_ms)
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._sessions = 0
        self._progress = progress
        self._clock = clock
        self._started_at: float | None = None
        self._asked: Note | None = None
        self._answered = False
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
        self.session: DrillSession[Note] = self._new_session()
        self._lowest, octaves = keyboard_span(self.notes)
        self.strings = catalogue(language, "drill.")
        self.names = names_for(self.naming)
        if "keyboard" in ways:
            self.keyboard = str(keyboard_svg(octaves, lowest=self._lowest, width=190 * octaves))
        self.options = {
            "answer_with": list(ways),
            "questions": questions,
            "seconds": seconds,
            "right_pause_ms": 700,
            "wrong_pause_ms": 1800,
        }
        self._publish_score()
        self.on_msg(self._on_page_message)

    # -- public API -----------------------------------------------------------------------
    @property
    def current(self) -> Note | None:
        """The note being asked, or ``None``."""
        return self._asked

    def elapsed_s(self) -> float:
        """Seconds since the session started (0 before it starts)."""
        return 0.0 if self._started_at is None else self._clock() - self._started_at

    def start(self) -> None:
        """Start a new session (the page's Start and Again buttons do this)."""
        if self.session.results or self.session.is_over():
            self.session = self._new_session()
        self._started_at = self._clock()
        self.summary = {}
        self.feedback = {}
        self._ask()

    def drill_summary(self) -> DrillSummary[Note]:
        """The summary of the session so far."""
        return self.session.summary()

    def receive(self, content: object) -> None:
        """Handle one message from the page (a dict with a ``type``).

        A message that cannot be read, or does not apply now, changes nothing; it is noted
        in :attr:`refused` with the reason.
        """
        kind = content.get("type") if isinstance(content, Mapping) else None
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None or not isinstance(content, Mapping):
            self._refuse(str(kind), f"{content!r} is not a note drill message")
            return
        try:
            handler(self, content)
        except (MessageError, DrillError) as err:
            self._refuse(str(kind), str(err))

    # -- flow -----------------------------------------------------------------------------
    def _new_session(self) -> DrillSession[Note]:
        questions, seconds, slow_ms = self._lengths
        try:
            session = DrillSession(
                self.notes,
                random.Random(f"note drill {self._seed} {self._sessions}"),
                questions=questions,
                seconds=seconds,
                slow_ms=slow_ms,
            )
        except DrillError as err:
            raise SettingsError(str(err)) from None
        self._sessions += 1
        return session

    def _ask(self) -> None:
        session = self.session
        if session.is_over(self.elapsed_s()):
            self._finish()
            return
        note = session.ask(self.elapsed_s())
        self._asked = note
        self._answered = False
        remaining = None
        if session.seconds is not None:
            remaining = max(0.0, session.seconds - self.elapsed_s())
        self.phase = "asking"
        self.question = {
            "number": len(session.results) + 1,
            "svg": str(staff_svg(note, size=130)),
            "total": session.questions,
            "remaining_s": remaining,
        }

    def _finish(self) -> None:
        self.session.end()
        self._asked = None
        summary = self.session.summary()
        rows = [
            {
                "label": row.item.label(self.naming),
                "asked": row.asked,
                "right": row.right,
                "median_ms": row.median_ms,
            }
            for row in summary.items
        ]
        practise = list(summary.to_practise)
        self.summary = {
            "asked": summary.asked,
            "right": summary.right,
            "median_ms": summary.median_ms,
            "rows": rows,
            "practise": [n.label(self.naming) for n in practise],
            "practise_svg": str(staff_svg(practise[:8], size=110, labels=self.naming))
            if practise
            else "",
        }
        self.phase = "over"

    def _publish_score(self) -> None:
        results = self.session.results
        self.score = {"asked": len(results), "right": sum(1 for r in results if r.correct)}

    def _answer(self, content: Mapping[str, Any]) -> None:
        number = whole_number(content, "number")
        note = self._asked
        if self.phase != "asking" or note is None or self._answered:
            raise MessageError(f"question {number} is not waiting for an answer")
        if number != self.question.get("number"):
            raise MessageError(f"question {number} is over: this is {self.question.get('number')}")
        via = content.get("via")
        value = whole_number(content, "value")
        ms = response_time(content)
        if via in ("name", "key"):
            if "names" not in self.answer_with:
                raise MessageError("this drill is answered on the keyboard")
            if not 0 <= value < 7:
                raise MessageError(f"name number {value} is not between 0 and 6")
            given = self.names[value]
            stored = SYLLABLES[value]
            correct = LETTERS[value] == note.step
            given_key = None
        elif via == "keyboard":
            if "keyboard" not in self.answer_with:
                raise MessageError("this drill is answered with the names")
            if not 0 <= value < self._keyboard_keys():
                raise MessageError(f"key {value} is not on the keyboard")
            key = Note.parse(self._lowest.midi + value)
            given = key.label(self.naming)
            stored = key.solfege
            correct = key.midi == note.midi
            given_key = value
        else:
            raise MessageError(f"via {via!r} is not 'name', 'key' or 'keyboard'")
        elapsed = self.elapsed_s()
        self.session.answer(note, stored, correct=correct, response_ms=ms, elapsed_s=elapsed)
        self._answered = True
        if self._progress is not None:
            self._progress.record("drill", note.solfege, stored, correct, ms)
        by_name = via in ("name", "key")
        self.feedback = {
            "number": number,
            "correct": correct,
            "given": given,
            "given_key": given_key,
            "answer": note.label(self.naming, octave=not by_name),
            "name_index": LETTERS.index(note.step),
            "key": note.midi - self._lowest.midi,
            "response_ms": ms,
        }
        self._publish_score()

    def _keyboard_keys(self) -> int:
        return keyboard_span(self.notes)[1] * 12

    def _next(self, content: Mapping[str, Any]) -> None:
        number = whole_number(content, "number")
        if self.phase != "asking" or not self._answered or number != self.question.get("number"):
            raise MessageError(f"question {number} is not the one just answered")
        self._ask()

    def _time_up(self, content: Mapping[str, Any]) -> None:
        seconds = self.session.seconds
        if seconds is None or self.phase != "asking":
            raise MessageError("this session has no time limit running")
        if self.elapsed_s() < seconds - TIME_UP_MARGIN_S:
            raise MessageError(
                f"time is not up: {self.elapsed_s():.1f} s of {seconds:g} s have passed"
            )
        self._finish()

    def _refuse(self, kind: str, why: str) -> None:
        self.refused.append((kind, why))
        del self.refused[:-_REFUSED_KEPT]

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def __repr__(self) -> str:
        return (
            f"NoteDrill({len(self.notes)} notes, naming={self.naming.value!r}, "
            f"phase={self.phase!r}, answered={len(self.session.results)})"
        )


_HANDLERS: dict[str, Callable[[NoteDrill, Mapping[str, Any]], None]] = {
    "start": lambda drill, _content: drill.start(),
    "answer": NoteDrill._answer,
    "next": NoteDrill._next,
    "time_up": NoteDrill._time_up,
}
