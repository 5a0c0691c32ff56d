"""Note Snap played in a real browser: JupyterLab and Voila on 127.0.0.1, Debian Chromium.

The test plays through the page like a person: it clicks the table, presses Enter to flip
on its turn, reads each card the page paints and presses Space to slap. How the reaction
time is checked honestly: the page marks each card with the ``performance.now()`` read in
the ``requestAnimationFrame`` callback after the card was put in the page (S13). The test
waits, *in the page*, until that mark plus a chosen delay, reads the page's clock when its
wait ends, and then presses Space with Playwright (a real key event sent through the
browser's input pipeline). The reaction time the kernel records must be the delay the test
really waited (from the paint mark to the end of its wait), plus at most 20 ms: all that
may separate them is the time the key press takes to travel from the test to the page.

The kernel is asked for its record with ``kernel.requestExecute`` (``kernel_execute``).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import (
    Server,
    kernel_execute,
    new_lab_page,
    open_notebook,
)
from tests.browser.snap_helpers import (
    CARD_HEAD_JS,
    GUIDE_JS,
    SIZE_JS,
    SOUND_JS,
    TIMINGS_JS,
    WAIT_UNTIL_JS,
    PageTable,
    fresh_game,
    median,
    wait_for_something_to_do,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/note-snap.ipynb"
DELAY_MS = 350.0
TOLERANCE_MS = 20.0
PLAY_TIMEOUT_S = 150.0

Execute = Callable[[Any, str], str]


def js_round(ms: float) -> int:
    """Round as the page does (``Math.round``: halves go up, unlike Python's ``round``)."""
    return math.floor(ms + 0.5)


NOTEBOOK_SHAPE_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return {mode: panel.content.mode,
          cells: panel.content.widgets.map((cell) => cell.model.type)};
}"""


@pytest.fixture(scope="module")
def snap_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module's Lab tests, the notebook opened in it once (a Lab page
    and its kernel take seconds to start); each test plays on a fresh game widget, see
    :func:`fresh_game`. Lab is kept from autosaving the played notebook."""
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, NOTEBOOK)
        page.evaluate("""() => {
          const commands = window.jupyterapp.commands;
          if (commands.isToggled('docmanager:toggle-autosave')) {
            return commands.execute('docmanager:toggle-autosave');
          }
        }""")
        yield page


@pytest.fixture
def snap_page(snap_lab: Any) -> Any:
    """The module's Lab page at the size a new page has; call :func:`fresh_game` on it."""
    snap_lab.set_viewport_size({"width": 1400, "height": 1000})
    return snap_lab


#: What a card's result panel says (its card number in ``data-number``).
_RESULT_JS = """(el) => ({
    reason: el.dataset.reason,
    taker: el.dataset.taker === '' ? null : Number(el.dataset.taker),
    slaps: [...el.querySelectorAll('.mg-snap-result-slap')].map(
        (li) => [Number(li.dataset.seat), Number(li.dataset.ms)]),
    missed: [...el.querySelectorAll('.mg-snap-result-missed')].map(
        (li) => Number(li.dataset.seat)),
    reason_text: el.querySelector('.mg-snap-result-reason').textContent,
    text: el.textContent,
})"""
#: From now on keep, in ``window.mgSnapResults``, what each card's result panel said while
#: it was shown, for games numbered ``first`` (``data-game``) or later: the panel stays only
#: until the next card's result, which comes about a second later when the computers play
#: on, sooner than a busy test may look.
_RECORD_RESULTS_JS = f"""(first) => {{
  const root = document.querySelector('.mg-snap');
  if (window.mgSnapResultsWatch) window.mgSnapResultsWatch.disconnect();
  window.mgSnapResults = {{}};
  const read = {_RESULT_JS};
  const keep = () => {{
    const el = root.querySelector('.mg-snap-result');
    if (el && el.getClientRects().length && Number(root.dataset.game) >= first) {{
      window.mgSnapResults[el.dataset.number] = read(el);
    }}
  }};
  window.mgSnapResultsWatch = new MutationObserver(keep);
  window.mgSnapResultsWatch.observe(root, {{childList: true, subtree: true, attributes: true,
                                           characterData: true}});
}}"""


def _start_game(page: Any, kernel_execute: Execute, code: str) -> Any:
    """Change the notebook's game through the kernel, wait for the page to draw it. The
    page keeps what each card's result panel said from now on (:func:`_page_result`)."""
    before = int(page.locator(".mg-snap").get_attribute("data-game"))
    page.evaluate(_RECORD_RESULTS_JS, before + 1)
    kernel_execute(page, code)
    page.wait_for_function(
        "(n) => Number(document.querySelector('.mg-snap').dataset.game) > n", arg=before
    )
    root = page.locator(".mg-snap")
    root.locator(".mg-snap-title").click()  # focus the table, as a player would
    return root


def _flip(page: Any, root: Any) -> None:
    """Press Enter on the person's turn and wait until the kernel has the flip (or the
    game's time ran out meanwhile: a timed game can end on the person's turn)."""
    flips = int(root.get_attribute("data-flips"))
    page.keyboard.press("Enter")
    page.wait_for_function(
        """(n) => { const root = document.querySelector('.mg-snap');
                    return Number(root.dataset.flips) > n || root.dataset.phase === 'over'; }""",
        arg=flips, timeout=10_000,
    )


#: Keep the time the next press of the key ``code`` reaches the page (first of all its
#: listeners) in ``window.mgKeyAt``.
KEY_AT_JS = """(code) => {
  window.mgKeyAt = null;
  window.addEventListener('keydown', (event) => {
    if (event.code === code && window.mgKeyAt === null) window.mgKeyAt = performance.now();
  }, {capture: true});
}"""


def _slap_after(
    page: Any, root: Any, table: PageTable, delay_ms: float, key: str = "Space"
) -> float:
    """Wait in the page until ``delay_ms`` after the card was painted, then press ``key``
    (a key code: ``Space``, ``KeyL``). Returns how long after the paint mark the key reached
    the page (the test's own key travels to the page after the wait: on a busy machine,
    tens of ms later)."""
    assert table.shown_at is not None
    page.evaluate(KEY_AT_JS, key)
    ended = page.evaluate(WAIT_UNTIL_JS, [root.element_handle(), table.shown_at, delay_ms])
    page.keyboard.press(key)
    arrived = page.evaluate("() => window.mgKeyAt")
    assert arrived is not None and arrived >= ended, (arrived, ended)
    return float(arrived) - table.shown_at


def _kernel_card(page: Any, kernel_execute: Execute, number: int) -> dict[str, Any]:
    code = (
        "import json\n"
        f"print(json.dumps([c.to_dict() for c in game.record.cards if c.number == {number}]"
        " + [game.table['seats']]))"
    )
    found = json.loads(kernel_execute(page, code))
    assert len(found) == 2, f"the kernel has no record of card {number}: {found}"
    return {"card": found[0], "seats": found[1]}


def _record_results(root: Any) -> None:
    """Keep what each card's result panel of the game on the table says from now on."""
    root.page.evaluate(_RECORD_RESULTS_JS, int(root.get_attribute("data-game")))


def _page_result(root: Any, number: int) -> dict[str, Any]:
    """What the result panel of card ``number`` said while it was shown (the game was
    started with :func:`_start_game`, or :func:`_record_results` was called before)."""
    return dict(root.page.wait_for_function(
        "(n) => window.mgSnapResults && window.mgSnapResults[n]", arg=str(number),
        timeout=10_000).json_value())


def test_lab_person_slaps_a_match_and_a_false_slap_with_space_and_the_kernel_agrees(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    page = snap_page
    fresh_game(page)
    assert kernel_execute(page, "print(type(game).__name__)") == "NoteSnapWidget\n"
    shape = page.evaluate(NOTEBOOK_SHAPE_JS)
    root = _start_game(page, kernel_execute,
                       "game.new_game(seed=2024, pace_ms=300, slap_window_ms=1200, opener=0)")
    wanted = {"match": True, "false": True}
    handled: list[int] = []
    slapped: dict[int, tuple[str, float]] = {}
    deadline = time.monotonic() + PLAY_TIMEOUT_S
    while any(wanted.values()):
        assert time.monotonic() < deadline, f"no match and false slap in time: {slapped}"
        table = wait_for_something_to_do(page, root, handled)
        if table.phase == "over":
            root = _start_game(page, kernel_execute, "game.new_game()")
            handled.clear()
            continue
        if table.phase == "flip":
            _flip(page, root)
            continue
        assert table.number is not None
        handled.append(table.number)
        kind = "match" if table.is_match else "false"
        if not wanted[kind]:
            continue  # a card the test lets pass
        waited = _slap_after(page, root, table, DELAY_MS)
        # The page shows the slap at once, on the person's seat.
        seat_text = root.locator('.mg-snap-seat[data-seat="0"] .mg-snap-seat-slap')
        assert "ms" in seat_text.inner_text(timeout=1_000)
        slapped[table.number] = (kind, waited)
        wanted[kind] = False
        # What the page says about the slap phase, against the kernel's record.
        shown = _page_result(root, table.number)
        kernel = _kernel_card(page, kernel_execute, table.number)
        card = kernel["card"]
        names = [s["name"] for s in kernel["seats"]]
        assert card["match"] is (kind == "match")
        assert card["note"] == table.note and card["called"] == table.call
        reaction = card["reactions"][0]
        assert reaction is not None, f"the kernel did not get the slap on card {table.number}"
        # The test aimed at DELAY_MS; when its Space really reached the page (measured in
        # the page: a busy machine makes it later) is what the recorded time must match.
        assert waited >= DELAY_MS
        assert 0 <= reaction - waited <= TOLERANCE_MS, (reaction, waited, DELAY_MS)
        expected_slaps = sorted(
            ([seat, js_round(ms)] for seat, ms in enumerate(card["reactions"]) if ms is not None),
            key=lambda pair: pair[1],
        )
        assert sorted(shown["slaps"], key=lambda p: p[1]) == expected_slaps
        assert shown["reason"] == card["outcome"] and shown["taker"] == card["taker"]
        if card["taker"] is not None:
            assert names[card["taker"]] in shown["reason_text"]
            assert str(card["cards_taken"]) in shown["reason_text"]
        if kind == "false":
            assert card["outcome"] == "false_slap"
            first = min((ms, seat) for seat, ms in enumerate(card["reactions"]) if ms is not None)
            assert card["taker"] == first[1]  # the first false slapper takes the pile (S8)
        else:
            assert card["outcome"] in ("last_to_slap", "tie")
        # The number the page measured is the number the kernel judged with.
        timing = next(t for t in root.evaluate(TIMINGS_JS) if t["number"] == table.number)
        assert timing["reaction_ms"] == reaction

    assert sorted(kind for kind, _ in slapped.values()) == ["false", "match"]
    # Space and Enter went to the game, not to JupyterLab (Enter would edit the cell).
    assert page.evaluate(NOTEBOOK_SHAPE_JS) == shape == {
        "mode": "command", "cells": ["markdown", "code"]}


def test_lab_two_people_share_the_keyboard_and_lab_shortcuts_stay_quiet(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """A and L are JupyterLab shortcuts too (insert a cell, line numbers): in the game
    they slap, and the notebook is left alone."""
    page = snap_page
    fresh_game(page)
    shape = page.evaluate(NOTEBOOK_SHAPE_JS)
    # In Settings a second person joins the one at the table: the keys become A and L (as
    # the README says), and a person has no level to choose.
    table_root = page.locator(".mg-snap")
    table_root.locator(".mg-snap-open-settings").click()
    form = table_root.locator(".mg-snap-settings")
    assert form.locator("input[name=key0]").input_value() == "Space"
    form.locator("select[name=kind1]").select_option("person")
    assert form.locator("input[name=key0]").input_value() == "A"
    assert form.locator("input[name=key1]").input_value() == "L"
    assert form.locator("label.mg-snap-level1").is_hidden()
    assert form.locator("label.mg-snap-level2").is_visible()
    form.locator(".mg-snap-start").click()
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.game === '2'")
    keys = table_root.locator(".mg-snap-seat-key")
    assert [keys.nth(i).inner_text() for i in range(2)] == ["slap: A", "slap: L"]
    root = _start_game(page, kernel_execute, (
        "from musicgames.widgets.note_snap import SeatSetting, SnapSettings\n"
        "game.new_game(SnapSettings(seats=(SeatSetting('person'), SeatSetting('person')),"
        " seed=3, slap_window_ms=1500))"))
    keys = root.locator(".mg-snap-seat-key")
    assert [keys.nth(i).inner_text() for i in range(2)] == ["slap: A", "slap: L"]
    _flip(page, root)  # Player 1's turn
    table = wait_for_something_to_do(page, root, [])
    assert table.phase == "slaps" and table.number == 1
    _slap_after(page, root, table, 150.0)  # Space is no one's key here: it does nothing
    # L, then A: each slap is timed from the card to when its own key reached the page (on
    # a busy machine a key lands some ms after the test's wait, so compare with that).
    l_arrived = _slap_after(page, root, table, 200.0, "KeyL")
    a_arrived = _slap_after(page, root, table, 400.0, "KeyA")
    shown = _page_result(root, 1)
    assert [seat for seat, _ in shown["slaps"]] == [1, 0]
    (_, l_ms), (_, a_ms) = shown["slaps"]
    assert 200 <= l_ms < a_ms and a_ms >= 400
    assert 0 <= l_ms - js_round(l_arrived) <= TOLERANCE_MS
    assert 0 <= a_ms - js_round(a_arrived) <= TOLERANCE_MS
    card = _kernel_card(page, kernel_execute, 1)["card"]
    assert [js_round(ms) for ms in card["reactions"]] == [
        shown["slaps"][1][1], shown["slaps"][0][1]]
    assert page.evaluate(NOTEBOOK_SHAPE_JS) == shape


def test_voila_renders_the_game_and_a_slap_works(
    browser: Any,
    voila_server: Callable[[str], Any],
    watch_widget_failures: Callable[[Any], list[str]],
) -> None:
    server = voila_server(NOTEBOOK)
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    failures = watch_widget_failures(page)
    try:
        page.goto(server.url, timeout=120_000)
        root = page.locator(".mg-snap")
        root.locator(".mg-snap-seat").first.wait_for(timeout=120_000)
        assert root.locator(".mg-snap-seat").count() == 3
        assert root.locator(".mg-snap-seat-name").first.inner_text() == "You"
        text = page.locator("body").inner_text()
        assert "Run the cell" not in text and "Shift + Enter" not in text  # nothing to run
        assert "How to play" in text  # the rules, in the game's language
        root.locator(".mg-snap-title").click()
        _record_results(root)
        handled: list[int] = []
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no card to slap came"
            table = wait_for_something_to_do(page, root, handled)
            if table.phase == "flip":
                _flip(page, root)
                continue
            assert table.phase == "slaps" and table.number is not None
            break
        waited = _slap_after(page, root, table, 200.0)
        seat_text = root.locator('.mg-snap-seat[data-seat="0"] .mg-snap-seat-slap')
        assert "ms" in seat_text.inner_text(timeout=1_000)  # shown at once, by the page
        shown = _page_result(root, table.number)  # the kernel's verdict, drawn
        assert 0 in [seat for seat, _ in shown["slaps"]]
        mine = next(ms for seat, ms in shown["slaps"] if seat == 0)
        assert 0 <= mine - js_round(waited) <= TOLERANCE_MS
        assert not failures
    finally:
        page.close()


#: How long a test watches for something that must not happen (a page's message reaches the
#: kernel in a few milliseconds; the person's reaction times are checked to 20 ms).
QUIET_MS = 1_000


def _kernel_until(page: Any, code: str, done: Callable[[str], bool],
                  timeout_s: float = 10.0) -> str:
    """Run ``code`` in the kernel until what it prints satisfies ``done``; return that."""
    deadline = time.monotonic() + timeout_s
    while True:
        said = kernel_execute(page, code)
        if done(said):
            return said
        assert time.monotonic() < deadline, f"the kernel still says {said!r} to {code!r}"
        page.wait_for_timeout(50)


def _flips(root: Any) -> int:
    return int(root.get_attribute("data-flips"))


def _wait_for_flips_above(page: Any, count: int, timeout_ms: float = 15_000) -> None:
    page.wait_for_function(
        "(n) => Number(document.querySelector('.mg-snap').dataset.flips) > n", arg=count,
        timeout=timeout_ms,
    )


#: How long the pause test watches a paused game for flips: two cards' time, unpaused.
PAUSED_WATCH_MS = 1_500


def _wait_for_the_persons_turn(page: Any, root: Any, guide_head: float | None = None) -> None:
    """Wait until the person is to flip; with ``guide_head`` (the guide card's note head
    width), check on the way that no card shown has a bigger head than the guide's."""
    deadline = time.monotonic() + 40
    while True:
        assert time.monotonic() < deadline, "the person's turn never came"
        page.wait_for_timeout(200)
        head = root.evaluate(CARD_HEAD_JS)
        if head and guide_head:
            assert guide_head >= head - 0.5, (guide_head, head)
        turn = root.locator(".mg-snap-seat.is-turn.mg-snap-person")
        if root.get_attribute("data-phase") == "flip" and turn.count():
            return


def _next_call(page: Any) -> str:
    """The name the next card's flipper is to call, as the kernel has it."""
    return kernel_execute(page, "print(game.state.next_call)").strip()


def test_lab_pause_under_settings_and_guide_the_guide_beside_the_table_and_a_wrong_call(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """At 1280 x 800 (the notebook column about 850 px wide): Settings and the guide card
    pause the game (no flips while open); the guide shows the 15 notes, named in labels of
    14 px or more, heads as big as the play card's, beside the table, the whole widget
    within 848 x 700 px; P plays on; a wrong call leaves its card on view."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 800})
    fresh_game(page)
    # a short window: unpaused, a card is flipped at least every 750 ms (the person lets
    # every card pass, so each window runs its whole length)
    root = _start_game(page, kernel_execute, "game.new_game(seed=11, pace_ms=150, opener=1,"
                       " call_mode='self', slap_window_ms=600)")
    _wait_for_flips_above(page, 0)

    # Settings over the table: the game waits.
    root.locator(".mg-snap-open-settings").click()
    assert root.get_attribute("data-paused") == "true"
    before = _flips(root)
    page.wait_for_timeout(PAUSED_WATCH_MS)
    assert _flips(root) == before, "the computers flipped with Settings open"
    assert kernel_execute(page, "print(game.paused)") == "True\n"
    root.locator(".mg-snap-settings .mg-snap-close").click()  # 3-2-1, then play goes on
    _wait_for_flips_above(page, before)

    # The guide card beside the table: the game waits too. It opens just after the
    # person's own flip, while a computer is due to flip next (seat 1, after the person).
    _wait_for_the_persons_turn(page, root)
    calls = ["Do", "Re", "Mi", "Fa", "Sol", "La", "Si"]
    before = _flips(root)
    page.keyboard.press(str(calls.index(_next_call(page)) + 1))
    _wait_for_flips_above(page, before)
    root.locator(".mg-snap-open-guide").click()
    assert root.get_attribute("data-paused") == "true"
    before = _flips(root)
    page.wait_for_timeout(PAUSED_WATCH_MS)
    assert _flips(root) == before, "the computers flipped with the guide card open"
    guide = root.evaluate(GUIDE_JS)
    labels = [label for label, _, _ in guide["labels"]]
    assert labels[0] == "Do3" and labels[-1] == "Do5" and len(labels) == 15
    assert all(size >= 14 and height >= 14 for _, size, height in guide["labels"]), guide
    width, height = root.evaluate(SIZE_JS)
    assert width <= 848 and height <= 700, (width, height)
    guide_box = root.locator(".mg-snap-guide").bounding_box()
    table_box = root.locator(".mg-snap-table").bounding_box()
    assert guide_box["x"] >= table_box["x"] + table_box["width"] - 1  # beside, not over it

    # P plays on with the guide open; the person calls a wrong name on their turn.
    page.keyboard.press("p")
    _wait_for_the_persons_turn(page, root, guide["head_width"])
    expected = _next_call(page)
    wrong = next(i for i, name in enumerate(calls) if name != expected)
    page.keyboard.press(str(wrong + 1))
    result = root.locator('.mg-snap-result[data-reason="wrong_call"]')
    result.wait_for(timeout=10_000)
    assert result.locator(".mg-snap-result-staff > svg").is_visible()
    note = result.locator(".mg-snap-result-staff").get_attribute("data-note")
    card = root.locator(".mg-snap-history-card").first
    assert card.get_attribute("data-reason") == "wrong_call"
    assert card.locator(".mg-snap-history-staff").get_attribute("data-note") == note
    assert card.locator(".mg-snap-history-staff > svg").is_visible()
    width, height = root.evaluate(SIZE_JS)
    assert width <= 848 and height <= 700, (width, height)

    # Clicking away from the table pauses the game too; back at the table, P plays on.
    page.locator(".jp-MarkdownCell").first.click()
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.paused === 'true'",
                           timeout=5_000)
    assert root.locator(".mg-focus-overlay").is_visible()
    root.locator(".mg-focus-overlay").click()
    page.keyboard.press("p")
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.paused === 'false'",
                           timeout=10_000)


def test_lab_hear_the_card_starts_with_the_frame_the_card_is_drawn_in(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """With "hear the card" on, the card's note starts in the frame the card is painted in:
    performance.now() when the sound was started minus the frame's time, and the
    AudioContext's latency on top. Prints the figures."""
    page = snap_page
    fresh_game(page)
    root = _start_game(page, kernel_execute,
                       "game.new_game(seed=3, pace_ms=200, opener=1, hear_cards=True)")
    # two cards heard: the computers' and, on the person's turn, the person's own flip (the
    # first card may come before the click that lets the page sound); a minute allowed,
    # for a machine busy with other tests
    heard = "(root) => root.mgSnap.timings.filter((r) => r.kind === 'sound').length >= 2"
    deadline = time.monotonic() + 60
    try:
        while not page.evaluate(heard, root.element_handle()):
            if time.monotonic() > deadline:
                raise PlaywrightTimeout("two cards were not heard within a minute")
            person = root.locator(".mg-snap-seat.is-turn.mg-snap-person")
            if root.get_attribute("data-phase") == "flip" and person.count():
                _flip(page, root)
            page.wait_for_timeout(100)
    except PlaywrightTimeout:
        said = root.evaluate("(root) => ({flips: root.dataset.flips, paused: root.dataset"
                             ".paused, phase: root.dataset.phase, kinds: root.mgSnap.timings"
                             ".map((r) => r.kind), sound: !!globalThis.musicgamesSound &&"
                             " globalThis.musicgamesSound.unlocked})")
        raise AssertionError(f"fewer than two cards were heard: {said}") from None
    sound = root.evaluate(SOUND_JS)
    gaps = [r["start"]["perf"] - r["shown_at"] for r in sound["records"]]
    latency = 1000 * ((sound["base_latency"] or 0) + (sound["output_latency"] or 0))
    print(f"\nNote Snap, hear the card: sound started {median(gaps):.2f} ms after the frame "
          f"the card was drawn in (median of {len(gaps)}, max {max(gaps):.2f}); "
          f"AudioContext latency {latency:.1f} ms")
    assert all(0 <= gap < 20 for gap in gaps), gaps
    assert {r["start"]["hz"][0] for r in sound["records"]} <= {
        261.63, 293.66, 329.63, 349.23, 392.0, 440.0, 493.88, 523.25, 587.33, 659.26, 698.46,
        783.99, 880.0, 987.77, 1046.5}


#: The element a click at the middle of ``el`` lands on is ``el`` or inside it.
CLICK_LANDS_JS = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""


def test_lab_settings_opened_during_a_game_sit_above_the_pause_card(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """Settings opened mid-game are on top of the "Paused" card: every menu and button of
    the form takes the click (the Level menu opens and a level can be chosen), and Start
    uses it. A computer's wrong call that names its card is not called "A match!"."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 800})
    fresh_game(page)
    root = _start_game(page, kernel_execute, "game.new_game(seed=5, pace_ms=150, opener=1)")
    _wait_for_flips_above(page, 0)
    root.locator(".mg-snap-open-settings").click()
    assert root.locator("div.mg-snap-pause").is_visible()  # the game is paused under the form
    form = root.locator(".mg-snap-settings")
    for selector in ("select[name=level1]", "select[name=kind2]", "select[name=length]",
                     "input[name=pace_ms]", ".mg-snap-start", ".mg-snap-close"):
        control = form.locator(selector)
        control.scroll_into_view_if_needed()
        assert control.evaluate(CLICK_LANDS_JS), f"{selector} is covered"
    level = form.locator("select[name=level1]")
    level.click(timeout=3_000)  # fails if another element would receive the click
    level.select_option("expert")
    before = int(root.get_attribute("data-game"))
    form.locator(".mg-snap-start").click(timeout=3_000)
    page.wait_for_function(
        "(n) => Number(document.querySelector('.mg-snap').dataset.game) > n", arg=before)
    assert kernel_execute(page, "print(game.settings.seats[1].level)") == "expert\n"

    # A computer calls Mi out of order on a Mi card: the pile is taken at once (S10).
    kernel_execute(page, "\n".join([
        "from musicgames.snap import Flip, stacked_deal",
        "game.new_game(hands=stacked_deal([[8], [16], [24]]), opener=1, pace_ms=60_000)",
        "game.table_loop._flip(Flip(1, 'Mi'))",
    ]))
    result = root.locator('.mg-snap-result[data-reason="wrong_call"]')
    result.wait_for(timeout=10_000)
    words = result.inner_text()
    assert "Mi" in words and "A match!" not in words and "Not a match" not in words, words
    history = root.locator(".mg-snap-history-card").first
    assert "match" not in history.inner_text(), history.inner_text()


#: How the page draws the seats' slaps, the last card's panel and the table's height.
LOOK_JS = """(root) => {
  const seat = root.querySelector('.mg-snap-seat[data-seat="0"]');
  const result = root.querySelector('.mg-snap-result');
  const items = result ? [...result.querySelectorAll('.mg-snap-result-slap')] : [];
  return {
    seat_classes: seat ? [...seat.classList] : [],
    seat_border: seat ? getComputedStyle(seat).borderTopColor : '',
    table_height: root.querySelector('.mg-snap-table').getBoundingClientRect().height,
    controls_top: root.querySelector('.mg-snap-controls').getBoundingClientRect().top
      - root.getBoundingClientRect().top,
    result_number: result ? Number(result.dataset.number) : null,
    result_text: result ? result.innerText : '',
    lines_per_item: items.map((li) => {
      const rects = li.getClientRects();
      return rects.length;
    }),
    text: root.innerText,
  };
}"""

#: Words a page shows only when it prints a missing value or an object instead of text.
NOT_TEXT = ("null", "undefined", "NaN", "[object")


def _assert_only_text(text: str) -> None:
    for word in NOT_TEXT:
        assert word not in text, f"{word!r} on the table: {text!r}"


#: True when the game-over panel's Close button overlaps its title ("You win!").
OVERLAP_JS = """(panel) => {
  const a = panel.querySelector('.mg-snap-winner-close').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(panel.querySelector('.mg-snap-winner-text'));
  return [...range.getClientRects()].some((b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom);
}"""


#: True once the drill is wholly inside the window and the focus is in it.
DRILL_SHOWN_JS = """(drill) => {
  const box = drill.getBoundingClientRect();
  return box.height > 40 && box.top >= 0 && box.bottom <= window.innerHeight
    && drill.contains(document.activeElement);
}"""


#: True once the page shows what became of card ``number``, or the game is over.
CARD_ENDED_JS = """([root, number]) => root.dataset.phase === 'over'
  || !!root.querySelector(`.mg-snap-result[data-number="${number}"]`)"""


def _resize(page: Any, root: Any, width: int, height: int) -> None:
    """Resize the page as a person resizes the window, then bring the table back into view
    (the notebook reflows around it); the game pauses while less than half of the table
    is in sight, and a key brings the person back, as after scrolling away."""
    page.set_viewport_size({"width": width, "height": height})
    root.locator(".mg-snap-table").evaluate(
        """(el) => new Promise((done) => {
             el.scrollIntoView({block: 'center'});
             requestAnimationFrame(() => requestAnimationFrame(done));
           })""")
    if root.get_attribute("data-paused") == "true":
        page.keyboard.press("KeyX")
        page.wait_for_function(
            "() => document.querySelector('.mg-snap').dataset.paused === 'false'", timeout=6_000)


def _play_until_over(page: Any, root: Any, slap: Callable[[PageTable], bool],
                     looks: list[dict[str, Any]], timeout_s: float = 60.0,
                     sizes: Sequence[tuple[int, int]] = ()) -> None:
    """Play through the page until the game is over: Enter on the person's turn, Space on
    the cards ``slap`` picks; after each slap, note how the page looks. With ``sizes``
    (width, height), also note the layout after each card, then resize the page to the
    next size for the next card, in turn."""
    handled: list[int] = []
    deadline = time.monotonic() + timeout_s
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        table = wait_for_something_to_do(page, root, handled)
        if table.phase == "over":
            return
        if table.phase == "flip":
            _flip(page, root)
            continue
        assert table.number is not None
        handled.append(table.number)
        if slap(table):
            _slap_after(page, root, table, 150.0)
            page.wait_for_timeout(60)
            looks.append({"match": table.is_match, **root.evaluate(LOOK_JS)})
            _page_result(root, table.number)
        else:  # the window closes: what became of the card (or the game's time ran out)
            page.wait_for_function(CARD_ENDED_JS, arg=[root.element_handle(), table.number],
                                   timeout=10_000)
        looks.append({"after": table.number, **root.evaluate(LOOK_JS)})
        if sizes:
            size = page.viewport_size
            looks[-1]["layout"] = {"size": (size["width"], size["height"]),
                                   **root.evaluate(LAYOUT_JS)}
            width, height = sizes[(sizes.index(looks[-1]["layout"]["size"]) + 1) % len(sizes)]
            _resize(page, root, width, height)


def test_lab_game_over_standings_summary_practice_close_and_slap_colours(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """A short timed game played through the page: a right slap is green and a false one
    red; the table keeps its height whatever the last card's panel says; a reaction is
    never broken over two lines; "Nobody slapped" is said once. At the end: the standings
    with card counts and your place, the false slaps' cards, no Python code, a button that
    opens a note drill of the notes hesitated on; Escape and Close close the panel."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 800})
    fresh_game(page)
    root = _start_game(page, kernel_execute,
                       "game.new_game(seed=21, pace_ms=150, slap_window_ms=900, minutes=0.25)")
    wanted = {True: 1, False: 1}  # one slap on a match, one on a card that is not one

    def pick(table: PageTable) -> bool:
        if wanted[table.is_match] > 0:
            wanted[table.is_match] -= 1
            return True
        return False

    looks: list[dict[str, Any]] = []
    _play_until_over(page, root, pick, looks)
    slaps = [look for look in looks if "match" in look]
    assert {look["match"] for look in slaps} == {True, False}, "no match and false slap came"
    for look in slaps:
        assert "has-slapped" in look["seat_classes"]
        assert ("is-right" if look["match"] else "is-wrong") in look["seat_classes"], look
        green = look["seat_border"] == "rgb(46, 125, 50)"
        assert green is look["match"], look  # green when right, red when wrong
    assert len({look["table_height"] for look in looks}) == 1, looks
    assert len({look["controls_top"] for look in looks}) == 1, looks
    for look in looks:
        _assert_only_text(look["text"])
        assert all(n == 1 for n in look["lines_per_item"]), look
        assert look["result_text"].count("Nobody slapped") <= 1, look["result_text"]

    # Game over: standings, your place, what you slapped falsely, no code.
    winner = root.locator(".mg-snap-winner")
    winner.wait_for(timeout=10_000)
    standings = winner.locator(".mg-snap-standings li")
    assert standings.count() == 3
    sizes = json.loads(kernel_execute(
        page, "import json; print(json.dumps(game.state.hand_sizes))"))
    shown = [int(standings.nth(i).get_attribute("data-cards")) for i in range(3)]
    assert sorted(shown) == sorted(sizes) and shown == sorted(shown)
    words = winner.inner_text()
    _assert_only_text(root.inner_text())
    assert "You came" in words and f"with {sizes[0]} card" in words, words
    assert "when" in words and "was called" in words, words  # the false slap's card
    assert "NoteDrill" not in page.locator("body").inner_text()
    summary = json.loads(kernel_execute(
        page, "import json; print(json.dumps(game.summary()))"))
    assert summary["practice"]  # the false slap's note at least
    assert "well read" not in words
    winner.locator(".mg-snap-practise").click()
    assert not winner.is_visible()
    practice = root.locator("xpath=..").locator(".mg-snap-practice")
    drill = practice.locator(".mg-drill").first
    drill.wait_for(timeout=10_000)
    assert kernel_execute(page, "print(type(game.practice_drill).__name__)") == \
        "NoteDrill\n"
    # The drill is brought on screen whole (staff and buttons) and has the keyboard; it
    # says which notes it practises, and Close takes it away.
    page.wait_for_function(DRILL_SHOWN_JS, arg=drill.element_handle(), timeout=5_000)
    heading = practice.locator(".mg-snap-practice-title").inner_text()
    assert all(label in heading for label in summary["practice_labels"]), heading
    practice.locator(".mg-snap-practice-close").click()
    drill.wait_for(state="detached", timeout=5_000)
    assert kernel_execute(page, "print(game.practice_drill)") == "None\n"

    # Another game: Escape closes its end panel; and another: so does Close.
    for how in ("Escape", "Close"):
        overlay = root.locator(".mg-focus-overlay")
        if overlay.is_visible():  # the drill has the focus: back to the table
            overlay.click()
        root = _start_game(page, kernel_execute, "game.new_game(minutes=0.02, pace_ms=100)")
        root.locator(".mg-snap-winner").wait_for(timeout=30_000)
        _assert_only_text(root.inner_text())
        for width, height in ((1024, 768), (1280, 800)):  # the title never meets Close
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(100)
            assert not root.locator(".mg-snap-winner").evaluate(OVERLAP_JS), (width, height)
        if how == "Escape":
            page.keyboard.press("Escape")
        else:
            root.locator(".mg-snap-winner .mg-snap-close").click()
        root.locator(".mg-snap-winner").wait_for(state="detached", timeout=3_000)
        assert root.get_attribute("data-phase") == "over"


def test_lab_the_game_starts_only_on_screen_with_the_focus(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """No computer flips and no clock runs while the table is below the window's edge, or
    on screen without the focus; a click on the table brings it on screen and starts it."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 600})
    fresh_game(page)
    root = page.locator(".mg-snap")
    top = root.locator(".mg-snap-table").evaluate("(el) => el.getBoundingClientRect().top")
    assert top > 600, "the table is on screen: this test needs it below the edge"
    page.wait_for_timeout(QUIET_MS)
    assert kernel_execute(page, "print(game._started, game.state.flips)") == "False 0\n"

    page.keyboard.press("Enter")  # the table has the focus, but is not on screen
    page.locator(".jp-MarkdownCell").first.click()  # the focus goes to the notebook
    root.locator(".mg-snap-table").evaluate("(el) => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(QUIET_MS)
    assert root.locator(".mg-focus-overlay").is_visible()
    assert kernel_execute(page, "print(game._started, game.state.flips)") == "False 0\n"

    root.locator(".mg-focus-overlay").click()
    assert _kernel_until(page, "print(game._started)", lambda said: said == "True\n")
    _flip(page, root)  # the person opens: Enter flips


def test_voila_game_over_shows_no_code_and_practice_opens_a_drill(
    browser: Any,
    voila_server: Callable[[str], Any],
    watch_widget_failures: Callable[[Any], list[str]],
) -> None:
    """In Voila (an app: no code anywhere) a game that ends by its clock shows the standings
    and, for the notes the person let pass, a button that opens a note drill on the page."""
    server = voila_server("tests/browser/snap_over.ipynb")
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    failures = watch_widget_failures(page)
    try:
        page.goto(server.url, timeout=120_000)
        root = page.locator(".mg-snap")
        root.locator(".mg-snap-seat").first.wait_for(timeout=120_000)
        root.locator(".mg-snap-title").click()
        winner = root.locator(".mg-snap-winner")
        winner.wait_for(timeout=60_000)
        assert winner.locator(".mg-snap-standings li").count() == 3
        assert "You came" in winner.inner_text()
        assert "NoteDrill" not in page.locator("body").inner_text()
        practise = winner.locator(".mg-snap-practise")
        if practise.count():
            practise.click()
            page.locator(".mg-snap-practice .mg-drill").wait_for(timeout=15_000)
        else:  # no match came before the time was up: nothing to practise, and it says so
            assert "No note held you up" in winner.inner_text()
        assert not failures
    finally:
        page.close()


#: Where the keyboard's focus is: in the Settings form, in the end panel, on the table.
FOCUS_JS = """() => {
  const active = document.activeElement;
  const root = document.querySelector('.mg-snap');
  return {
    settings: Boolean(active && active.closest('.mg-snap-settings')),
    over: Boolean(active && active.closest('.mg-snap-winner')),
    table: active === root,
    main_inert: root.querySelector('.mg-snap-main').inert,
  };
}"""


def test_lab_the_keyboard_goes_into_settings_and_the_end_panel_and_back_to_the_table(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """Settings opened with the keyboard (Tab to it, Enter) takes the focus to its first
    control; Tab goes round inside it (the table under it is inert); closing it gives the
    focus back to the table. The same for the panel at the end of a game, which takes the
    focus itself (an Enter pressed to flip as the game ends does not close it)."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 800})
    fresh_game(page)
    root = _start_game(page, kernel_execute, "game.new_game(seed=5, pace_ms=150, opener=1)")
    _wait_for_flips_above(page, 0)
    root.locator(".mg-snap-open-settings").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.closest('.mg-snap-settings')",
                           timeout=3_000)
    controls = root.locator(".mg-snap-settings").evaluate(
        "(form) => form.querySelectorAll('button, select, input').length")
    for _ in range(controls + 3):  # round the form and past its end
        page.keyboard.press("Tab")
        where = page.evaluate(FOCUS_JS)
        assert where["settings"] and where["main_inert"], where
    for _ in range(controls + 3):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(FOCUS_JS)["settings"]
    root.locator(".mg-snap-settings .mg-snap-close").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement === document.querySelector('.mg-snap')",
                           timeout=3_000)
    assert not page.evaluate(FOCUS_JS)["main_inert"]

    root = _start_game(page, kernel_execute, "game.new_game(minutes=0.02, pace_ms=100)")
    root.locator(".mg-snap-winner").wait_for(timeout=30_000)
    page.wait_for_function("() => document.activeElement.closest('.mg-snap-winner')",
                           timeout=3_000)
    # an Enter meant to flip, pressed as the game ended, leaves the end panel open
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert root.locator(".mg-snap-winner").is_visible()
    for _ in range(6):
        page.keyboard.press("Tab")
        where = page.evaluate(FOCUS_JS)
        assert where["over"] and where["main_inert"], where
    page.keyboard.press("Escape")
    root.locator(".mg-snap-winner").wait_for(state="detached", timeout=3_000)
    page.wait_for_function("() => document.activeElement === document.querySelector('.mg-snap')",
                           timeout=3_000)


def test_lab_the_game_pauses_when_the_table_is_scrolled_off_the_screen(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """A game under way pauses (page and kernel: no clock, no flips) when the table is
    scrolled away, and plays on after the 3-2-1 once the person is back and presses a key."""
    page = snap_page
    page.set_viewport_size({"width": 1280, "height": 600})
    fresh_game(page)
    root = page.locator(".mg-snap")
    root.locator(".mg-snap-table").evaluate("(el) => el.scrollIntoView({block: 'center'})")
    # seat 1 (a computer) flips first; seat 2, a computer too, is due about 2.5 s later (the
    # default slap window): the game pauses well before that, even on a busy machine, and
    # the 3 s watch of the paused game spans the time seat 2 was due
    root = _start_game(page, kernel_execute, "game.new_game(seed=5, pace_ms=150, opener=1)")
    _wait_for_flips_above(page, 0)
    assert root.get_attribute("data-paused") == "false"
    page.locator(".jp-Cell").first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    top = root.locator(".mg-snap-table").evaluate("(el) => el.getBoundingClientRect().top")
    assert top > 400, "the table is still on screen: this test needs it scrolled away"
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.paused === 'true'",
                           timeout=3_000)
    before = _kernel_until(page, "print(game.paused, game.state.flips)",
                           lambda said: said.startswith("True "))
    assert before == "True 1\n", f"paused after seat 2 flipped, with the person due: {before}"
    page.wait_for_timeout(3_000)
    assert kernel_execute(page, "print(game.paused, game.state.flips)") == before

    root.locator(".mg-snap-table").evaluate("(el) => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    assert root.get_attribute("data-paused") == "true"  # back, but no key pressed yet
    page.keyboard.press("KeyX")
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.paused === 'false'",
                           timeout=6_000)
    assert _kernel_until(page, "print(game.paused)", lambda said: said == "False\n")


#: Parts of the table that scroll sideways, or whose text is cut, as the page is now.
LAYOUT_JS = """(root) => {
  const scrollers = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (!el.getClientRects().length || el.closest('svg')) continue;
    const style = getComputedStyle(el);
    const sideways = ['auto', 'scroll'].includes(style.overflowX)
      && el.scrollWidth > el.clientWidth + 1;
    if (sideways || style.overflowX === 'scroll') scrollers.push(el.className);
  }
  const around = [];  // the table's own boxes, and the notebook's output around it
  const page = '.jp-WindowedPanel-outer, .jp-Notebook, body';
  for (let el = root.parentElement; el && !el.matches(page); el = el.parentElement) {
    around.push(el);
  }
  const nested = [...around, root, ...root.querySelectorAll('*')].filter(
    (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowY)
      && el.scrollHeight > el.clientHeight + 1).length;
  const result = root.querySelector('.mg-snap-result');
  return {
    sideways: scrollers,
    page_sideways: document.documentElement.scrollWidth > window.innerWidth + 1,
    result_sizes: result ? [result.scrollHeight, result.clientHeight] : null,
    result_cut: result ? (result.scrollWidth > result.clientWidth + 1
      || result.scrollHeight > result.clientHeight + 1) : false,
    result_text: result ? result.innerText : '',
    scrollers: nested,
  };
}"""


#: The screens the layout test plays on: a small laptop's and JupyterLab's usual 1280×800.
SCREENS = ((1024, 768), (1280, 800))


def test_lab_no_part_of_the_table_scrolls_sideways_and_the_last_card_is_never_cut(
    snap_page: Any,
    kernel_execute: Execute,
) -> None:
    """At 1024×768 and 1280×800 (the page resized between cards, so each screen sees every
    kind of card), through a game with slaps, false slaps and missed matches: no part of
    the table has a horizontal scrollbar (the "Last cards" strip fits), the last card's
    text fits its panel (no scrollbar, nothing cut), and Settings scroll with one scrollbar
    at most (none nested in another)."""
    page = snap_page
    fresh_game(page)
    root = page.locator(".mg-snap")
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        root.locator(".mg-snap-open-settings").click()
        root.locator(".mg-snap-settings").wait_for()
        layout = root.evaluate(LAYOUT_JS)
        assert not layout["sideways"] and layout["scrollers"] <= 1, (width, layout)
        root.locator(".mg-snap-settings .mg-snap-close").click()
        root.locator(".mg-snap-settings").wait_for(state="hidden")
    root = _start_game(page, kernel_execute,
                       "game.new_game(seed=21, pace_ms=150, slap_window_ms=900, minutes=0.5)")
    seen: list[int] = []

    def pick(table: PageTable) -> bool:
        seen.append(table.number or 0)
        return len(seen) % 3 != 0  # slaps most cards: right, false, and some let pass

    looks: list[dict[str, Any]] = []
    _play_until_over(page, root, pick, looks, sizes=SCREENS)
    layouts = [look["layout"] for look in looks if "layout" in look]
    # every screen saw each turn of the slap pattern (every 3rd card let pass) at least once
    for screen in SCREENS:
        assert sum(layout["size"] == screen for layout in layouts) >= 6, (screen, len(layouts))
    for layout in layouts:
        assert not layout["sideways"] and not layout["page_sideways"], layout
        assert not layout["result_cut"], layout
