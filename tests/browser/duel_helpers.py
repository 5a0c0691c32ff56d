"""Helpers for the Keyboard Duel browser tests: read the board off the page, ask the kernel
for the engine's state, and play through the page's own buttons and keys.

The widget's root element carries its state as data attributes (``data-screen``,
``data-busy``, ``data-your-turn``); tokens are ``.mg-duel-token`` groups with ``data-board-key``,
``data-seat`` and ``data-power`` and a gold ``.mg-duel-gold`` number; tray squares carry
``data-state``; totals and running figures carry ``data-value``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

ROOT = ".mg-duel"
TIMEOUT_MS = 60_000

KernelExecute = Callable[[Any, str], str]

# What the page shows, read from the DOM.
PAGE_SNAPSHOT_JS = """() => {
  const root = document.querySelector('.mg-duel');
  const tokens = [...root.querySelectorAll('.mg-duel-token:not(.is-arriving)')].map((g) => [
    Number(g.getAttribute('data-board-key')),
    g.getAttribute('data-seat') === 'white' ? 0 : 1,
    Number(g.querySelector('.mg-duel-power').textContent),
    Number(g.querySelector('.mg-duel-gold').textContent),
    g.querySelectorAll('.mg-duel-pip').length,
  ]).sort((a, b) => a[0] - b[0]);
  const seat = (name) => root.querySelector('.mg-duel-player-' + name);
  const trays = ['white', 'black'].map((name) =>
    [...seat(name).querySelectorAll('.mg-duel-slot')].map((s) => s.dataset.state));
  const totals = ['white', 'black'].map((name) =>
    Number(seat(name).querySelector('.mg-duel-total').dataset.value));
  const running = ['white', 'black'].map((name) =>
    Number(seat(name).querySelector('.mg-duel-running').dataset.value));
  const hand = [...root.querySelectorAll('.mg-duel-hand .mg-duel-card')]
    .map((c) => Number(c.dataset.id));
  return {tokens, trays, totals, running, hand};
}"""

# The same, from the engine in the kernel (the notebook's widget is called ``game``).
ENGINE_SNAPSHOT = """
import json as _json
_s = game.state
_tray = {"on_board": "board", "merged": "merged", "beaten": "beaten", "unplaced": "unplaced"}
print(_json.dumps({
    "tokens": sorted([t.key, t.seat, t.power, t.score, t.dice]
                     for _seat in (0, 1) for t in _s.tokens(_seat)
                     if t.key is not None and _s.board_token(t.key) == t),
    "trays": [[_tray[t.state.value] for t in _s.tokens(_seat)] for _seat in (0, 1)],
    "totals": list(_s.totals),
    "running": list(_s.running_scores()),
    "hand": list(_s.hand(0)),
    "actions": len(_s.actions()),
    "round": _s.round,
    "round_scores": [list(r) for r in _s.round_scores],
}))
"""

IDLE_JS = """() => {
  const root = document.querySelector('.mg-duel');
  if (!root || root.dataset.busy !== 'false') return false;
  const screen = root.dataset.screen;
  return screen === 'round_end' || screen === 'game_over' || root.dataset.yourTurn === 'true';
}"""


def engine_snapshot(page: Any, kernel_execute: KernelExecute) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(kernel_execute(page, ENGINE_SNAPSHOT))
    return result


def page_snapshot(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(PAGE_SNAPSHOT_JS)
    return result


def assert_page_matches_engine(page: Any, kernel_execute: KernelExecute) -> dict[str, Any]:
    """The tray, the tokens with their power, pips and gold numbers, the totals and running
    figures, and the hand on the page equal the engine's."""
    shown = page_snapshot(page)
    engine = engine_snapshot(page, kernel_execute)
    tokens = sorted([key, seat, power, score, dice]
                    for key, seat, power, score, dice in engine["tokens"])
    assert shown["tokens"] == tokens, (shown["tokens"], tokens)
    assert shown["trays"] == engine["trays"]
    assert shown["totals"] == engine["totals"]
    assert shown["running"] == engine["running"]
    assert shown["hand"] == engine["hand"]
    return engine


def watch_page_errors(page: Any) -> list[str]:
    """Collect uncaught JavaScript errors of the page (a broken view shows itself there)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def dismiss_notifications(page: Any) -> None:
    """Close JupyterLab's "news" toast if it shows (it can cover the board's corner)."""
    toast = page.locator(".jp-toast-button:has-text('No')")
    if toast.count():
        toast.first.click()


def wait_idle(page: Any) -> None:
    """Until the page waits for the person (or shows a round / game end screen)."""
    page.wait_for_function(IDLE_JS, timeout=TIMEOUT_MS, polling=50)


#: Resolve once the widget has kept its place, size and layout for two frames running:
#: the page has laid itself out after a resize or a scroll (ResizeObserver, the notebook).
STILL_JS = """() => new Promise((done) => {
  let last = '', same = 0;
  const step = () => {
    const root = document.querySelector('.mg-duel');
    const box = root.getBoundingClientRect();
    const now = [box.x, box.y, box.width, box.height, root.dataset.layout].join();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 2) done(); else requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})"""


def until_still(page: Any) -> None:
    """Wait until the widget is laid out where it will stay (:data:`STILL_JS`)."""
    page.evaluate(STILL_JS)


def start_game(page: Any, kernel_execute: KernelExecute, opponent: str, *, seed: int,
               pause: float) -> None:
    """Set the seed and the computer's pause, then choose the opponent on the page."""
    kernel_execute(page, f"game.seed = {seed}; game.pause = {pause}")
    page.locator(f"{ROOT}-opponent[data-opponent={opponent}]").click()
    page.locator(f"{ROOT}[data-screen=play]").wait_for(timeout=TIMEOUT_MS)
    wait_idle(page)


def enabled_cards(page: Any) -> Any:
    return page.locator(f"{ROOT}-hand {ROOT}-card:not([aria-disabled=true])")


def acked(page: Any) -> None:
    """Until the kernel has answered the page's last message."""
    page.wait_for_function(
        "() => document.querySelector('.mg-duel').dataset.busy === 'false'",
        timeout=TIMEOUT_MS, polling=20)


def click_key(page: Any, key: int) -> None:
    """Click a lit key where a person would: on its dot, the part of the key in sight (the
    ring and dot only show; the click goes to the key drawn there)."""
    dot = page.locator(f"{ROOT}-target-dot[data-board-key='{key}']").first
    dot.scroll_into_view_if_needed()
    box = dot.bounding_box()
    assert box is not None, f"key {key} is not lit"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def place_by_clicking(page: Any, rng: random.Random) -> int | None:
    """Select one card that can place, then click one of the lit keys. Returns the key, or
    None when no card in hand can place now."""
    cards = enabled_cards(page)
    for i in range(cards.count()):
        card = cards.nth(i)
        card.click()
        targets = page.locator(f"{ROOT}-target")
        if targets.count():
            keys = [int(k) for k in targets.evaluate_all(
                "(els) => els.map((e) => e.getAttribute('data-board-key'))")]
            key = rng.choice(keys)
            click_key(page, key)
            acked(page)
            return key
        card.click()  # not a placing card: put it back
    return None


def move_by_clicking(page: Any, rng: random.Random) -> tuple[int, int] | None:
    """Click one of the person's tokens, then one of the offered card-and-direction buttons.
    Returns (from, to), or None when no token can move now."""
    tokens = page.locator(f"{ROOT}-token-white:not(.is-arriving)")
    for i in range(tokens.count()):
        token = tokens.nth(i)
        start = int(token.get_attribute("data-board-key"))
        token.click()
        choices = page.locator(f"{ROOT}-move")
        if choices.count():
            choice = choices.nth(rng.randrange(choices.count()))
            end = int(choice.get_attribute("data-to"))
            choice.click()
            acked(page)
            return start, end
    page.locator(f"{ROOT}-clear").click()
    return None


def answer_duel(page: Any, rng: random.Random) -> None:
    """Play zero or more cards into the person's run, then lock in."""
    while rng.random() < 0.5:
        playable = page.locator(f"{ROOT}-hand {ROOT}-card.is-duel-play")
        if not playable.count():
            break
        playable.first.click()
        acked(page)
    page.locator(f"{ROOT}-lock").click()
    acked(page)


def play_one_decision(page: Any, rng: random.Random) -> str:
    """Make the person's next move through the page; returns what was done."""
    if page.locator(f"{ROOT}-lock").count() and page.locator(f"{ROOT}-lock").is_enabled():
        answer_duel(page, rng)
        return "duel"
    end = page.locator(f"{ROOT}-end")
    root = page.locator(ROOT)
    help_text = page.locator(f"{ROOT}-choices").inner_text()
    if "Placed." not in help_text and place_by_clicking(page, rng) is not None:
        return "place"
    if not end.is_enabled() and move_by_clicking(page, rng) is not None:
        return "move"
    assert end.is_enabled(), root.inner_text()
    end.click()
    acked(page)
    return "end_turn"


# -- the keyboard ------------------------------------------------------------------------------

ACTIVE_JS = """() => {
  const a = document.activeElement;
  if (!a) return {};
  const style = getComputedStyle(a);
  return {
    key: a.dataset ? a.dataset.keyButton ?? null : null,
    card: a.closest && a.closest('.mg-duel-hand') && a.dataset.code ? a.dataset.code : null,
    classes: a.className && a.className.baseVal === undefined ? a.className : '',
    to: a.dataset ? a.dataset.to ?? null : null,
    steps: a.dataset ? a.dataset.steps ?? null : null,
    label: a.getAttribute('aria-label') || a.textContent || '',
    pressed: a.getAttribute('aria-pressed'),
    outline: style.outlineStyle + ' ' + style.outlineWidth,
    inWidget: !!a.closest('.mg-duel'),
  };
}"""


def active(page: Any) -> dict[str, Any]:
    """What has the keyboard focus: its key, card code, classes, accessible name, outline."""
    result: dict[str, Any] = page.evaluate(ACTIVE_JS)
    return result


def press_until(page: Any, key: str, done: Callable[[dict[str, Any]], bool],
                limit: int = 40) -> dict[str, Any]:
    """Press ``key`` until what has the focus satisfies ``done``; return it."""
    for _ in range(limit):
        now = active(page)
        if done(now):
            return now
        page.keyboard.press(key)
    now = active(page)
    assert done(now), f"pressing {key} {limit} times never reached it: {now}"
    return now


def set_position(page: Any, kernel_execute: KernelExecute, position: str, *,
                 opponent: str = "casual", pause: float = 0.05) -> None:
    """Start a game from ``DuelState.from_position(<position>)`` through the kernel."""
    kernel_execute(page, "from musicgames.duel import DuelState\n"
                         f"game.pause = {pause}\n"
                         f"game.new_game({opponent!r}, position=DuelState.from_position("
                         f"{position}))")
    page.locator(f"{ROOT}[data-screen=play]").wait_for(timeout=TIMEOUT_MS)
    wait_idle(page)
