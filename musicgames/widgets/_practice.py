"""What the note drill and the chord quiz share: a session of questions, asked one at a time.

A practice widget asks an item (a note, a chord), waits for the page's answer, shows right or
wrong, and asks the next, in the order of the spaced schedule of :mod:`musicgames.drill`
(given a progress store, it starts from the student's memory states: what is due first,
then new items), until a number of questions is answered or the time is up; then it sums the
session up, with the next review day. The page
sends four messages, checked here:

* ``{"type": "start"}`` — Start, or Practise again;
* ``{"type": "answer", "number": n, ..., "response_ms": ms}`` — the answer to question ``n``
  (what else it carries is the widget's own business), timed in the page;
* ``{"type": "next", "number": n}`` — after the feedback pause, on to the next question;
* ``{"type": "time_up"}`` — a timed session's clock in the page reached 0;

and, at any time, ``{"type": "input", "settings": {...}}`` — the student changed how they
answer (:mod:`musicgames.widgets._playing`).

Each widget says what a question looks like (:meth:`PracticeWidget._question_for`), how an
answer is judged (:meth:`PracticeWidget._judge`), what the summary shows
(:meth:`PracticeWidget._summary_rows`) and how an item is written in the progress file
(:meth:`PracticeWidget._progress_item`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

import anywidget
import traitlets

from musicgames.drill import DrillError, DrillSession, DrillSummary
from musicgames.i18n import month_name, text
from musicgames.memory import Memory
from musicgames.progress.sink import ProgressSink, why_not_saved
from musicgames.shown import short_repr
from musicgames.widgets._messages import MessageError
from musicgames.widgets._playing import PlayingInput

__all__ = [
    "MAX_RESPONSE_MS",
    "STAFF_SIZE",
    "TIME_UP_MARGIN_S",
    "Judged",
    "MessageError",
    "PracticeWidget",
    "SettingsError",
    "next_review_text",
    "response_time",
    "staff_height",
    "whole_number",
]

#: The longest answer time accepted from the page (longer is a page that slept).
MAX_RESPONSE_MS = 10 * 60 * 1000.0
#: The kernel ends a timed session when the page says time is up and the kernel's own clock
#: agrees within this margin.
TIME_UP_MARGIN_S = 1.0
_REFUSED_KEPT = 200

Item = TypeVar("Item", bound=Hashable)


class SettingsError(ValueError):
    """Drill or quiz settings that cannot be used: no notes, an unknown way to answer, …"""


def response_time(content: Mapping[str, Any]) -> float:
    """The ``response_ms`` of a message, checked: a number of milliseconds ≥ 0."""
    value = content.get("response_ms")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MessageError(f"response_ms {short_repr(value)} is not a number")
    if isinstance(value, int) and not 0 <= value <= MAX_RESPONSE_MS:  # 10**400 too
        raise MessageError(f"response_ms {short_repr(value)} is not a time between 0 and "
                           "10 minutes")
    if not math.isfinite(value) or not 0 <= value <= MAX_RESPONSE_MS:
        raise MessageError(f"response_ms {short_repr(value)} is not a time between 0 and "
                           "10 minutes")
    return float(value)


def whole_number(content: Mapping[str, Any], key: str, limit: int = 1_000_000) -> int:
    """A whole number field of a message, checked (at most ``limit`` either way)."""
    value = content.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MessageError(f"{key} {short_repr(value)} is not a whole number")
    if not -limit <= value <= limit:
        raise MessageError(f"{key} {short_repr(value)} is out of range")
    return value


#: The staff's height in pixels, unless a lesson's Size setting says otherwise.
STAFF_SIZE = 130


def staff_height(size: object) -> int:
    """A staff height in pixels, checked: a whole number from 60 to 400."""
    if isinstance(size, bool) or not isinstance(size, int) or not 60 <= size <= 400:
        raise SettingsError(f"staff_size={size!r} must be a whole number of pixels, 60 to 400")
    return size


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def next_review_text(days: int, day: date, names: Sequence[str], language: str) -> str:
    """When the next review is, said as a person would, and of what (six names at most):
    tomorrow, in 2 to 6 days, else on a date (with its year when that is another year).

    >>> next_review_text(1, date(2026, 3, 3), ["Re4", "Sol3"], "en")
    'Next review: tomorrow: Re4, Sol3'
    >>> next_review_text(3, date(2026, 3, 5), ["La3"], "es")
    'Próximo repaso: en 3 días: La3'
    >>> next_review_text(12, date(2026, 3, 14), ["La3"], "es")
    'Próximo repaso: el 14 de marzo: La3'
    >>> next_review_text(40, date(2027, 1, 9), ["Do4"], "en")
    'Next review: on 9 January 2027: Do4'
    """
    shown = ", ".join(names[:6]) + (" …" if len(names) > 6 else "")
    if days <= 1:
        return text("progress.next.tomorrow", language, items=shown)
    if days < 7:
        return text("progress.next.days", language, days=days, items=shown)
    month = month_name(day.month, language)
    if day.year == (day - timedelta(days=days)).year:
        return text("progress.next.date", language, day=day.day, month=month, items=shown)
    return text(
        "progress.next.date.year", language, day=day.day, month=month, year=day.year, items=shown
    )


class Judged(NamedTuple):
    """An answer, judged: what is stored, whether it is right, its time, what the page shows."""

    stored: str
    correct: bool
    response_ms: float
    feedback: dict[str, Any]


class PracticeWidget(PlayingInput, anywidget.AnyWidget, Generic[Item]):
    """A session of questions on ``Item`` s (notes, chords), run for the page.

    A widget sets :attr:`_title` and :attr:`_activity`, checks its own settings, calls
    :meth:`_setup_session`, and fills in the four methods named in the module's docstring.
    How the student answers (click, MIDI keyboard, microphone: :class:`PlayingInput`) is
    taken from their progress file there, and changed by the page's message
    ``{"type": "input", "settings": {...}}``.
    """

    #: What the widget is called in refused messages; it also seeds the questions.
    _title: ClassVar[str]
    #: The activity its answers are stored under in the progress file.
    _activity: ClassVar[str]

    phase = traitlets.Unicode("ready").tag(sync=True)
    question = traitlets.Dict().tag(sync=True)
    feedback = traitlets.Dict().tag(sync=True)
    summary = traitlets.Dict().tag(sync=True)
    score = traitlets.Dict().tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    #: A line the page shows above the questions ("progress not saved: …"), or "".
    notice = traitlets.Unicode("").tag(sync=True)

    def _setup_session(
        self,
        items: tuple[Item, ...],
        *,
        questions: int | None,
        seconds: float | None,
        slow_ms: float,
        seed: int | None,
        progress: ProgressSink | None,
        clock: Callable[[], float],
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        """Keep the session's settings and make its first (not yet started) session.
        ``now`` is the date and time (UTC) answers are reviewed at."""
        self._items = items
        self._lengths = (questions, seconds, slow_ms)
        self._seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self._sessions = 0
        self._progress = progress
        self._clock = clock
        self._now = now
        #: Progress writes (or reads) that failed: the person is told once, play goes on.
        self.progress_errors: list[str] = []
        self._started_at: float | None = None
        self._asked: Item | None = None
        self._answered = False
        #: Messages the widget did not act on, newest last: ``(type, why)``.
        self.refused: list[tuple[str, str]] = []
        self.session: DrillSession[Item] = self._new_session()
        self._setup_playing(progress, getattr(self, "naming", "solfege"), self._language())

    def _say_intro(self, intro: str | None, prefix: str, language: str) -> None:
        """Before Start, say ``intro`` — what this session practises, in a lesson's words —
        in place of the widget's own words (``None``: its own); the clock starts on Start."""
        if intro is None:
            return
        if not isinstance(intro, str) or not intro.strip():
            raise SettingsError(f"intro={short_repr(intro)} must be a sentence to show")
        said = text(f"{prefix}.ready.intro", language, intro=intro.strip())
        self.strings = {**self.strings, f"{prefix}.ready": said}

    # -- public API -----------------------------------------------------------------------
    @property
    def current(self) -> Item | None:
        """What is being asked, or ``None``."""
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

    def receive(self, content: object) -> None:
        """Handle one message from the page (a dict with a ``type``).

        A message that cannot be read, or does not apply now, changes nothing; it is noted
        in :attr:`refused` with the reason.
        """
        kind = content.get("type") if isinstance(content, Mapping) else None
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None or not isinstance(content, Mapping):
            self._refuse(short_repr(kind), f"{short_repr(content)} is not a {self._title} message")
            return
        try:
            handler(self, content)
        except (MessageError, DrillError) as err:
            self._refuse(str(kind), str(err))
        except (TypeError, ValueError, KeyError, IndexError, OverflowError) as err:
            # A field of a type the checks above did not foresee: refused all the same.
            self._refuse(str(kind), f"the message could not be used ({type(err).__name__})")

    # -- what each widget fills in --------------------------------------------------------
    def _question_for(
        self, item: Item, *, number: int, total: int | None, remaining_s: float | None
    ) -> dict[str, Any]:
        """The ``question`` trait for ``item``: its number, the session's length in
        questions and the seconds left (or ``None``), and what the page shows."""
        raise NotImplementedError

    def _judge(self, item: Item, number: int, content: Mapping[str, Any]) -> Judged:
        """Check and judge the page's answer to question ``number`` (on ``item``); raise
        :class:`MessageError` when it cannot be used. Nothing may change here."""
        raise NotImplementedError

    def _summary_rows(self, summary: DrillSummary[Item]) -> dict[str, Any]:
        """What the ``summary`` trait shows after the totals: rows and what to practise."""
        raise NotImplementedError

    def _progress_item(self, item: Item) -> str:
        """``item`` as the progress file names it."""
        raise NotImplementedError

    def staves(self) -> list[str]:
        """Every staff this widget can show, whatever is asked and answered (its questions,
        its answers' and its summary's), drawn by the same calls as when they are shown.
        The static site draws them all when it is built, where the browser cannot."""
        raise NotImplementedError

    def _label(self, item: Item) -> str:
        """``item`` as the page names it (in the widget's naming)."""
        return str(item)

    def _language(self) -> str:
        return str(getattr(self, "language", "en"))

    # -- progress ---------------------------------------------------------------------------
    def _progress_failed(self, err: BaseException) -> None:
        """A progress read or write failed: note it, tell the person once, play on."""
        why = why_not_saved(err, self._language())
        self.progress_errors.append(why)
        if not self.notice:
            self.notice = text("progress.not_saved", self._language(), why=why)

    def _playing_not_kept(self, err: BaseException) -> None:
        self._progress_failed(err)

    def _memory(self) -> Memory | None:
        """The student's memory states for this activity, from the progress store."""
        read = getattr(self._progress, "memory", None)
        if not callable(read):
            return None
        try:
            found = read(self._activity)
        except Exception as err:  # an unreadable file: start fresh, say so once
            self._progress_failed(err)
            return None
        return found if isinstance(found, Memory) else None

    # -- flow -----------------------------------------------------------------------------
    def _new_session(self) -> DrillSession[Item]:
        questions, seconds, slow_ms = self._lengths
        self._rng = random.Random(f"{self._title} {self._seed} {self._sessions}")
        try:
            session = DrillSession(
                self._items,
                self._rng,
                questions=questions,
                seconds=seconds,
                slow_ms=slow_ms,
                memory=self._memory(),
                key=self._progress_item,
                clock=self._now,
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
        item = session.ask(self.elapsed_s())
        self._asked = item
        self._answered = False
        remaining = None
        if session.seconds is not None:
            remaining = max(0.0, session.seconds - self.elapsed_s())
        question = self._question_for(
            item, number=len(session.results) + 1, total=session.questions, remaining_s=remaining
        )
        self.phase = "asking"
        self.question = question

    def _finish(self) -> None:
        self.session.end()
        self._asked = None
        summary = self.session.summary()
        self.summary = {
            "asked": summary.asked,
            "right": summary.right,
            "median_ms": summary.median_ms,
            "next_review": self._next_review_text(summary),
            **self._summary_rows(summary),
        }
        self.phase = "over"

    def _next_review_text(self, summary: DrillSummary[Item]) -> str:
        """"Next review: tomorrow: Re4, Sol3" (or in 3 days, or on a date)."""
        if summary.next_review_days is None or summary.next_review_day is None:
            return ""
        names = [self._label(item) for item in summary.next_review]
        return next_review_text(
            summary.next_review_days, summary.next_review_day, names, self._language()
        )

    def _publish_score(self) -> None:
        results = self.session.results
        self.score = {"asked": len(results), "right": sum(1 for r in results if r.correct)}

    def _answer(self, content: Mapping[str, Any]) -> None:
        number = whole_number(content, "number")
        item = self._asked
        if self.phase != "asking" or item is None or self._answered:
            raise MessageError(f"question {number} is not waiting for an answer")
        if number != self.question.get("number"):
            raise MessageError(f"question {number} is over: this is {self.question.get('number')}")
        judged = self._judge(item, number, content)
        stored, correct, ms = judged.stored, judged.correct, judged.response_ms
        elapsed = self.elapsed_s()
        self.session.answer(item, stored, correct=correct, response_ms=ms, elapsed_s=elapsed)
        self._answered = True
        if self._progress is not None:
            try:
                self._progress.record(
                    self._activity, self._progress_item(item), stored, correct, ms
                )
            except Exception as err:  # disk full, file locked, …: the drill goes on
                self._progress_failed(err)
        self.feedback = judged.feedback
        self._publish_score()

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


_HANDLERS: dict[str, Callable[[PracticeWidget[Any], Mapping[str, Any]], None]] = {
    "start": lambda widget, _content: widget.start(),
    "answer": lambda widget, content: widget._answer(content),
    "next": lambda widget, content: widget._next(content),
    "time_up": lambda widget, content: widget._time_up(content),
    "input": lambda widget, content: widget.set_playing(content.get("settings")),
}
