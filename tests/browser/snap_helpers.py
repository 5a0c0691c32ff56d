"""Helpers for the Note Snap browser tests: read the table from the page, press keys at a
known moment after a card was painted, and collect the page's own timings.

The page marks each card it paints: the card element ``.mg-snap-card`` gets
``data-number`` (the card's number in the game) and ``data-shown-at`` (the page's
``performance.now()`` read in the ``requestAnimationFrame`` callback after the card was put
in the page — the moment the reaction time counts from, rule S13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.browser.conftest import kernel_execute, run_notebook_again

#: What the page shows now: the phase, whose turn, the card painted (if any), the result.
READ_TABLE_JS = """(root) => {
  const face = root.querySelector('.mg-snap-card');
  const result = root.querySelector('.mg-snap-result');
  const turn = root.querySelector('.mg-snap-seat.is-turn');
  return {
    game: Number(root.dataset.game),
    phase: root.dataset.phase,
    turn_is_person: !!(turn && turn.classList.contains('mg-snap-person')),
    number: face && face.dataset.shownAt ? Number(face.dataset.number) : null,
    shown_at: face && face.dataset.shownAt ? Number(face.dataset.shownAt) : null,
    note: face ? face.dataset.note || null : null,
    call: face ? face.dataset.call || null : null,
    live: !!(face && face.classList.contains('is-live')),
    result_number: result ? Number(result.dataset.number) : null,
  };
}"""

#: Resolve once there is something for the player to do: their turn to flip, a newly
#: painted card, or the end of the game.
SOMETHING_TO_DO_JS = """([root, handled]) => {
  const phase = root.dataset.phase;
  if (phase === 'over') return true;
  const turn = root.querySelector('.mg-snap-seat.is-turn');
  if (phase === 'flip' && turn && turn.classList.contains('mg-snap-person')) return true;
  const face = root.querySelector('.mg-snap-card.is-live');
  return !!(phase === 'slaps' && face && face.dataset.shownAt
            && !handled.includes(Number(face.dataset.number)));
}"""

#: Wait in the page until ``delay`` ms after the card was painted; return the page's time.
WAIT_UNTIL_JS = """async ([root, shownAt, delay]) => {
  const until = shownAt + delay;
  while (performance.now() < until - 4) {
    await new Promise((r) => setTimeout(r, Math.max(0, until - performance.now() - 4)));
  }
  while (performance.now() < until) { /* the last few ms: spin, timers are not that fine */ }
  return performance.now();
}"""

#: The page's timing records of the slaps it sent.
TIMINGS_JS = "(root) => root.mgSnap.timings.map((r) => Object.assign({}, r))"

#: A bare kernel round trip from the page, ``n`` times: ``requestExecute('pass')``.
BARE_ROUND_TRIPS_JS = """async ([n, kernelPath]) => {
  const kernel = kernelPath === 'lab'
    ? window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
    : null;
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await kernel.requestExecute({code: 'pass', silent: false, store_history: false}).done;
    times.push(performance.now() - start);
  }
  return times;
}"""


@dataclass
class PageTable:
    """What :data:`READ_TABLE_JS` reads."""

    game: int
    phase: str
    turn_is_person: bool
    number: int | None
    shown_at: float | None
    note: str | None
    call: str | None
    live: bool
    result_number: int | None

    @property
    def is_match(self) -> bool:
        """The card's name (the note without its octave) is the name called (S6)."""
        return bool(self.note and self.call and self.note.rstrip("0123456789") == self.call)


def read_table(root: Any) -> PageTable:
    """Read the table the page shows (``root`` is the ``.mg-snap`` locator)."""
    return PageTable(**root.evaluate(READ_TABLE_JS))


#: What :data:`READ_TABLE_JS` reads, once there is something to do (:data:`SOMETHING_TO_DO_JS`),
#: read in the same check: a card the computers flip meanwhile cannot come between the two.
TABLE_TO_PLAY_JS = f"""([root, handled]) => ({SOMETHING_TO_DO_JS})([root, handled])
  && ({READ_TABLE_JS})(root)"""


def wait_for_something_to_do(page: Any, root: Any, handled: list[int],
                             timeout_ms: float = 30_000) -> PageTable:
    """Wait until there is something for the player to do and return the table as it was
    at that very moment (:data:`TABLE_TO_PLAY_JS`)."""
    found = page.wait_for_function(
        TABLE_TO_PLAY_JS, arg=[root.element_handle(), handled], timeout=timeout_ms,
        polling="raf")
    return PageTable(**found.json_value())


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2

#: The guide card beside the table: each label's text and font size, and the width of the
#: first whole-note head in the guide (to compare with the play card's).
GUIDE_JS = """(root) => {
  const labels = [...root.querySelectorAll('.mg-snap-guide-label')];
  const head = root.querySelector('.mg-snap-guide-staff g.notehead');
  return {
    labels: labels.map((l) => [l.textContent, parseFloat(getComputedStyle(l).fontSize),
                               l.getBoundingClientRect().height]),
    head_width: head ? head.getBoundingClientRect().width : 0,
  };
}"""

#: The width of the note head on the play card, once a card is shown (else 0).
CARD_HEAD_JS = """(root) => {
  const head = root.querySelector('.mg-snap-card .mg-snap-staff g.notehead');
  return head ? head.getBoundingClientRect().width : 0;
}"""

#: The widget's size on the page.
SIZE_JS = "(root) => { const r = root.getBoundingClientRect(); return [r.width, r.height]; }"

#: The page's records of the card notes it played ("hear the card"): the frame's time, and
#: the sound's start (performance.now() when asked, AudioContext.currentTime it starts at),
#: with the context's own latencies.
SOUND_JS = """(root) => {
  const state = globalThis.musicgamesSound || {};
  const context = state.context;
  return {
    records: root.mgSnap.timings.filter((r) => r.kind === 'sound'),
    base_latency: context ? context.baseLatency || 0 : null,
    output_latency: context ? context.outputLatency || 0 : null,
  };
}"""


def fresh_game(page: Any) -> None:
    """The game notebook open in ``page`` as a new page shows it: the last test's game
    closed (its timers with it) and the notebook run again, which makes the widget ``game``
    anew."""
    kernel_execute(page, "game.close()")
    run_notebook_again(page)
    page.locator(".mg-snap .mg-snap-seat").first.wait_for()
