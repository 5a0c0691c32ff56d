"""Note Snap's browser figures: key press to screen and to the kernel's answer, measured in
the page (printed, never asserted).

Run by ``benchmarks/bench_note_snap_browser.py``, which starts pytest on this file with the
browser tests' fixtures (``-p tests.browser.conftest``): JupyterLab on 127.0.0.1, Debian's
Chromium. Not a test: the suite does not collect it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.snap_helpers import BARE_ROUND_TRIPS_JS, TIMINGS_JS, median
from tests.browser.test_note_snap_browser import (
    PLAY_TIMEOUT_S,
    Execute,
    _flip,
    _open_game,
    _slap_after,
    _start_game,
    _wait_for_something_to_do,
)

pytestmark = pytest.mark.browser


def test_lab_figures_key_press_to_screen_and_to_the_kernels_answer(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Execute,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Measured in the page (speed is printed, never asserted)."""
    page = lab_page
    _open_game(page, open_notebook)
    root = _start_game(page, kernel_execute,
                       "game.new_game(seed=5, pace_ms=100, slap_window_ms=700, opener=0)")
    handled: list[int] = []
    slaps = 0
    deadline = time.monotonic() + PLAY_TIMEOUT_S
    while slaps < 25 and time.monotonic() < deadline:
        table = _wait_for_something_to_do(page, root, handled)
        if table.phase == "over":
            root = _start_game(page, kernel_execute, "game.new_game()")
            handled.clear()
        elif table.phase == "flip":
            _flip(page, root)
        else:
            assert table.number is not None
            handled.append(table.number)
            _slap_after(page, root, table, 80.0)
            slaps += 1
    page.wait_for_function(
        "(root) => root.mgSnap.timings.every((t) => t.answer_at !== null)",
        arg=root.element_handle(), timeout=10_000,
    )
    timings = [t for t in root.evaluate(TIMINGS_JS) if t["via"] == "key"]
    assert len(timings) >= 20
    drawn = [t["drawn_at"] - t["event_at"] for t in timings]
    painted = [t["painted_at"] - t["event_at"] for t in timings]
    answered = [t["answer_at"] - t["event_at"] for t in timings]
    bare = page.evaluate(BARE_ROUND_TRIPS_JS, [25, "lab"])
    with capsys.disabled():
        print(
            f"\nNote Snap in JupyterLab, Chromium headless, {len(timings)} slaps with Space:\n"
            f"  key press -> slap in the page (DOM updated):   median {median(drawn):6.1f} ms\n"
            f"  key press -> slap shown (next frame callback): median {median(painted):6.1f} ms"
            f"  (max {max(painted):.1f})\n"
            f"  key press -> kernel's answer shown:            median {median(answered):6.1f} ms"
            f"  (max {max(answered):.1f})\n"
            f"  bare kernel round trip requestExecute('pass'): median {median(bare):6.1f} ms"
            f"  ({len(bare)} runs)"
        )
