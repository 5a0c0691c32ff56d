"""Keyboard Duel's browser figures, measured in the page (printed, never asserted).

Run by ``benchmarks/bench_keyboard_duel_browser.py``, which starts pytest on this file with the
browser tests' fixtures (``-p tests.browser.conftest``): JupyterLab on 127.0.0.1, Debian's
Chromium. Not a test: the suite does not collect it.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.duel_helpers import (
    ROOT,
    TIMEOUT_MS,
    acked,
    dismiss_notifications,
    place_by_clicking,
    play_one_decision,
    start_game,
    wait_idle,
)
from tests.browser.test_keyboard_duel_browser import NOTEBOOK, PAUSE, SEED, duel_page

pytestmark = pytest.mark.browser

__all__ = ["duel_page"]  # the fixture, used by the measuring test below

SPACING_MS = 150

BARE_ROUND_TRIPS_JS = """async ([n, gap]) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const times = [];
  for (let i = 0; i < n; i++) {
    if (gap) await new Promise((resolve) => setTimeout(resolve, gap));
    const t0 = performance.now();
    await kernel.requestExecute({code: 'pass', silent: true, store_history: false}).done;
    times.push(performance.now() - t0);
  }
  return times;
}"""

START_MONITOR_JS = """() => {
  const m = {frames: [], kernel: [], running: true};
  window.mgDuelMonitor = m;
  let last = performance.now();
  const frame = (now) => {
    m.frames.push(now - last);
    last = now;
    if (m.running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  (async () => {
    while (m.running) {
      const t0 = performance.now();
      await kernel.requestExecute({code: 'pass', silent: true, store_history: false}).done;
      const thinking = document.querySelector('.mg-duel').dataset.busy === 'true';
      m.kernel.push([performance.now() - t0, thinking]);
    }
  })();
}"""


# The floor of any widget's round trip: a minimal anywidget whose page sends one message and
# waits for the kernel to set a synced number in reply (the same path a click takes).
ECHO_WIDGET_CODE = r'''
import anywidget, traitlets

class EchoFloor(anywidget.AnyWidget):
    _esm = """
export default { render({ model, el }) {
  const button = document.createElement("button");
  button.className = "mg-echo-floor";
  button.textContent = "echo";
  el.appendChild(button);
  window.mgEchoFloor = [];
  let sentAt = 0;
  model.on("change:n", () => window.mgEchoFloor.push(performance.now() - sentAt));
  button.onclick = () => { sentAt = performance.now(); model.send({ n: model.get("n") + 1 }); };
} };
"""
    n = traitlets.Int(0).tag(sync=True)

    def __init__(self):
        super().__init__()
        self.on_msg(lambda _w, content, _b: setattr(self, "n", content["n"]))

EchoFloor()
'''


def echo_floor_ms(page: Any, clicks: int = 30) -> list[float]:
    """Round trips of the minimal widget above, run in a new cell of the open notebook."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:insert-cell-below')")
    page.evaluate(
        "(code) => { window.jupyterapp.shell.currentWidget.content.activeCell.model"
        ".sharedModel.setSource(code); }",
        ECHO_WIDGET_CODE,
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")
    button = page.locator(".mg-echo-floor")
    button.wait_for(timeout=TIMEOUT_MS)
    for _ in range(clicks):
        page.wait_for_timeout(SPACING_MS)
        button.click()
    page.wait_for_timeout(500)
    times: list[float] = page.evaluate("() => window.mgEchoFloor")
    return times


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def test_figures_click_to_page_and_responsiveness_while_sharp_thinks(
    duel_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = duel_page
    open_notebook(page, NOTEBOOK)
    dismiss_notifications(page)
    start_game(page, kernel_execute, "casual", seed=SEED, pause=PAUSE)
    rng = random.Random(2)
    page.evaluate(BARE_ROUND_TRIPS_JS, [10, 0])  # warm up
    # A person's clicks come hundreds of milliseconds apart; back-to-back messages can wait
    # on TCP's delayed acknowledgement. Both are measured; clicks are compared with the
    # spaced bare round trips.
    back_to_back = page.evaluate(BARE_ROUND_TRIPS_JS, [30, 0])
    spaced = page.evaluate(BARE_ROUND_TRIPS_JS, [30, SPACING_MS])
    page.evaluate("() => { window.mgKeyboardDuel.timings.length = 0; }")
    # click → page updated: place a token by clicking, take it back, again and again
    for _ in range(20):
        assert place_by_clicking(page, rng) is not None
        page.wait_for_timeout(SPACING_MS)
        page.locator(f"{ROOT}-undo").click()
        acked(page)
        page.wait_for_timeout(SPACING_MS)
    spaced += page.evaluate(BARE_ROUND_TRIPS_JS, [30, SPACING_MS])
    back_to_back += page.evaluate(BARE_ROUND_TRIPS_JS, [30, 0])
    timings = page.evaluate("() => window.mgKeyboardDuel.timings")
    clicks = {kind: [t["ms"] for t in timings if t["type"] == kind] for kind in ("place", "undo")}
    place_ms, undo_ms = clicks["place"], clicks["undo"]
    bare_ms = _median(spaced)
    click_ms = _median(place_ms + undo_ms)
    echo_ms = echo_floor_ms(page)

    # Sharp's turns: watch the page's frames and the kernel's answers while it thinks. The
    # echo cell took the focus: the widget's "click to play" bar is over its top until it
    # has the keys again.
    page.locator(f"{ROOT} .mg-focus-overlay").click()
    page.locator(f"{ROOT}-new").click()
    kernel_execute(page, "game.pause = 0")
    page.locator(f"{ROOT}-opponent[data-opponent=sharp]").click()
    wait_idle(page)
    page.evaluate(START_MONITOR_JS)
    for _ in range(16):
        wait_idle(page)
        if page.locator(f"{ROOT}[data-screen=play]").count() == 0:
            page.locator(f"{ROOT}-next, {ROOT}-again").first.click()
            continue
        play_one_decision(page, rng)
    page.evaluate("() => { window.mgDuelMonitor.running = false; }")
    monitor = page.evaluate("() => window.mgDuelMonitor")
    think = json.loads(kernel_execute(page, "import json; print(json.dumps(game.think_ms))"))
    frames = monitor["frames"][1:]
    during = [ms for ms, thinking in monitor["kernel"] if thinking]
    print(
        "\nKeyboard Duel in JupyterLab (Chromium, loopback):"
        f"\n  bare kernel round trip requestExecute('pass'): median {bare_ms:.1f} ms "
        f"{SPACING_MS} ms apart (n={len(spaced)}), {_median(back_to_back):.1f} ms back to back "
        f"(n={len(back_to_back)})"
        f"\n  click → page updated with the kernel's answer: median {click_ms:.1f} ms "
        f"(place {_median(place_ms):.1f} ms n={len(place_ms)}, take back "
        f"{_median(undo_ms):.1f} ms n={len(undo_ms)}) = {click_ms / bare_ms:.2f}× the bare "
        "round trip"
        f"\n  a minimal anywidget's message round trip in the same run (the floor of any "
        f"click): median {_median(echo_ms):.1f} ms (n={len(echo_ms)}); the click is "
        f"{click_ms / _median(echo_ms):.2f}× of it"
        f"\n  while Sharp thought: longest gap between page frames {max(frames):.1f} ms "
        f"(median {_median(frames):.1f} ms, n={len(frames)}); kernel round trips "
        f"median {_median(during):.1f} ms, longest {max(during, default=float('nan')):.1f} ms "
        f"(n={len(during)}); Sharp's think time per step median {_median(think):.1f} ms, "
        f"longest {max(think):.1f} ms (n={len(think)})"
    )
    assert place_ms and undo_ms and frames and echo_ms
