"""Keyboard Duel in a real browser: JupyterLab and Voila on 127.0.0.1, Debian's Chromium.

The game is made deterministic by setting the widget's seed and a short computer pause
through the kernel before the opponent is chosen on the page; everything else is done by
clicking the page's own cards, keys and buttons.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    Server,
    kernel_execute,
    new_lab_page,
    open_notebook,
    open_notebook_here,
    run_notebook_again,
)
from tests.browser.duel_helpers import (
    ROOT,
    TIMEOUT_MS,
    acked,
    active,
    assert_page_matches_engine,
    click_key,
    dismiss_notifications,
    engine_snapshot,
    move_by_clicking,
    page_snapshot,
    place_by_clicking,
    play_one_decision,
    press_until,
    set_position,
    start_game,
    until_still,
    wait_idle,
    watch_page_errors,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/keyboard-duel.ipynb"
NOTEBOOK_FILE = Path(__file__).resolve().parents[2] / NOTEBOOK
SEED = 5
PAUSE = 0.05


@pytest.fixture(scope="module")
def duel_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module's Lab tests, the notebook opened in it once (a Lab page
    and its kernel take seconds to start); each test plays on a fresh widget, see
    :func:`_fresh_game`. Afterwards the notebook file is as it was (Lab autosaves a
    notebook it ran, outputs and all, and the repository keeps it with outputs cleared)."""
    original = NOTEBOOK_FILE.read_bytes()
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, NOTEBOOK)
        yield page
    if NOTEBOOK_FILE.read_bytes() != original:
        NOTEBOOK_FILE.write_bytes(original)


@pytest.fixture
def duel_page(duel_lab: Any) -> Any:
    """The module's Lab page at the size a new page has; call :func:`_fresh_game` on it."""
    duel_lab.set_viewport_size({"width": 1400, "height": 1000})
    return duel_lab


def _fresh_game(page: Any) -> None:
    """The notebook's game as a new page shows it: the last test's game closed (its tasks
    with it) and the notebook run again, which makes the widget ``game`` anew."""
    kernel_execute(page, "game.close()")
    run_notebook_again(page)
    dismiss_notifications(page)
    page.locator(ROOT).wait_for()


def test_play_the_first_round_against_casual_by_clicking(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    page.locator(f"{ROOT}-chooser").wait_for()
    start_game(page, kernel_execute, "casual", seed=SEED, pause=PAUSE)
    rng = random.Random(SEED)
    assert page.locator(f"{ROOT}-slot[data-state=unplaced]").count() == 10
    assert page.locator(f"{ROOT}-chord").all_inner_texts()[0].strip()

    # place a token by clicking cards and a lit key
    key = place_by_clicking(page, rng)
    assert key is not None
    token = page.locator(f"{ROOT}-token-white[data-board-key='{key}']")
    token.wait_for()
    engine = assert_page_matches_engine(page, kernel_execute)
    assert [t[0] for t in engine["tokens"] if t[1] == 0] == [key]
    assert page.locator(".mg-duel-player-white .mg-duel-slot").first.get_attribute(
        "data-state") == "board"

    # move it: click the token, then a card-and-direction button
    moved = move_by_clicking(page, rng)
    assert moved is not None and moved[0] == key
    page.locator(f"{ROOT}-token-white[data-board-key='{moved[1]}']").wait_for()
    assert_page_matches_engine(page, kernel_execute)

    # end the turn and watch the computer move, step by step, written in the log
    log_before = page.locator(f"{ROOT}-log-line").count()
    page.locator(f"{ROOT}-end").click()
    acked(page)
    wait_idle(page)
    lines = page.locator(f"{ROOT}-log-line").all_inner_texts()[log_before:]
    assert lines[0].startswith("White ends the turn")
    assert any(line.startswith("Black ") for line in lines[1:]), lines
    assert_page_matches_engine(page, kernel_execute)

    # keep playing through the page until the first round is scored
    done: list[str] = []
    for _ in range(200):
        wait_idle(page)
        if page.locator(f"{ROOT}[data-screen=round_end]").count():
            break
        if page.locator(f"{ROOT}-end").is_enabled() or done[-1:] == ["end_turn"]:
            assert_page_matches_engine(page, kernel_execute)
        done.append(play_one_decision(page, rng))
    else:
        pytest.fail(f"the first round did not end: {done}")
    dialog = page.locator(f"{ROOT}-round-end")
    dialog.wait_for()
    engine = engine_snapshot(page, kernel_execute)
    assert engine["round"] == 2 and len(engine["round_scores"]) == 1
    white, black = engine["round_scores"][0]
    scores = [int(dialog.locator(f".mg-duel-breakdown-side[data-seat={seat}] "
                                 ".mg-duel-breakdown-score").get_attribute("data-value"))
              for seat in ("white", "black")]
    assert scores == [white, black]
    assert page_snapshot(page)["totals"] == engine["totals"] == [white, black]
    assert "place" in done and "end_turn" in done
    # the next round starts once the person closes the round screen
    page.locator(f"{ROOT}-next").click()
    wait_idle(page)
    assert page.locator(f"{ROOT}[data-screen=play]").count() == 1
    assert page.locator(f"{ROOT}-slot[data-state=unplaced]").count() >= 8
    assert_page_matches_engine(page, kernel_execute)
    assert_log_as_sent(page, kernel_execute)
    assert not errors


def test_voila_renders_the_board_and_a_placement_works(
    browser: Any,
    voila_server: Callable[[str], Any],
    watch_widget_failures: Callable[[Any], list[str]],
) -> None:
    server = voila_server(NOTEBOOK)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(TIMEOUT_MS)
    failures = watch_widget_failures(page)
    errors = watch_page_errors(page)
    page.goto(server.url, timeout=120_000)
    page.locator(f"{ROOT}-opponent[data-opponent=casual]").click()
    page.locator(f"{ROOT}[data-screen=play]").wait_for()
    wait_idle(page)
    assert page.locator(f"{ROOT}-svg rect.mg-key").count() == 24
    assert len(page.locator(f"{ROOT}-chord").all_inner_texts()) == 2
    key = place_by_clicking(page, random.Random(1))
    assert key is not None
    token = page.locator(f"{ROOT}-token-white[data-board-key='{key}']")
    token.wait_for()
    assert token.get_attribute("data-power") == "1"
    assert page.locator(".mg-duel-player-white .mg-duel-slot").first.get_attribute(
        "data-state") == "board"
    assert page.locator(f"{ROOT}-log-line").last.inner_text().startswith(
        "White places a power-1 token on ")
    assert not failures and not errors
    page.close()


SOUNDS_JS = """() => ((globalThis.musicgamesSound || {}).starts || [])
  .filter((s) => s.name === 'keyboard_duel').map((s) => s.hz)"""

ACTIONS_SO_FAR = """
import json
print(json.dumps([[type(a).__name__, a.to_json()] for a in game.state.actions()]))
"""


def test_a_whole_turn_with_the_keyboard_only(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """Place, move into a duel, lock in and end the turn without the mouse: Tab, arrows,
    Enter and the L and E shortcuts. White holds a token on the left C, Black on the left D."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute,
                 "piano=(0, 7), hands=('A1 D2 C1 E3 G1', 'E1 F2 B1'), "
                 "tokens=([(0, 1)], [(2, 1)])")
    page.locator(ROOT).focus()

    # Place: Tab to the hand, arrows to the A card, Enter selects it
    card = press_until(page, "Tab", lambda a: a["card"] is not None)
    assert "none" not in card["outline"], card  # the focus shows
    card = press_until(page, "ArrowRight", lambda a: a["card"] == "A1", limit=6)
    page.keyboard.press("Enter")
    assert active(page)["pressed"] == "true"
    # back to the keys (Shift+Tab), along them to the left card's A (lit), Enter places
    press_until(page, "Shift+Tab", lambda a: a["key"] is not None)
    key = press_until(page, "ArrowRight", lambda a: a["key"] == "9", limit=24)
    assert "mg-duel-keybtn" in key["classes"] and "is-target" in key["classes"], key
    assert key["label"].startswith("La, left card"), key
    assert "none" not in key["outline"], key
    page.keyboard.press("Enter")
    acked(page)
    page.locator(f"{ROOT}-token-white[data-board-key='9']").wait_for()
    assert "your power-1 token" in active(page)["label"]

    # Move: Home goes to the left card's C, Enter picks the token up; Tab to the move
    # button that takes it two keys right onto Black's D, which says it starts a duel
    press_until(page, "Home", lambda a: a["key"] == "0", limit=2)
    page.keyboard.press("Enter")
    move = press_until(page, "Tab", lambda a: "mg-duel-move" in a["classes"]
                       and a["to"] == "2" and a["steps"] == "2")
    assert "starts a duel" in move["label"], move
    page.keyboard.press("Enter")
    acked(page)
    page.locator(f"{ROOT}-lock").wait_for()

    # Lock in with L; Black answers; E ends the turn
    page.keyboard.press("l")
    page.locator(f"{ROOT}-duelpanel {ROOT}-result").wait_for(timeout=TIMEOUT_MS)
    wait_idle(page)
    assert page.locator(f"{ROOT}-decided").inner_text().startswith("What decided it")
    # the duel's result sounded (the person's keys unlocked the page's sound)
    expected = json.loads(kernel_execute(
        page, "import json; print(json.dumps(game.table['duel']['sound']['hz']))"))
    assert expected in page.evaluate(SOUNDS_JS), page.evaluate(SOUNDS_JS)
    assert page.locator(f"{ROOT}-end").is_enabled()
    page.keyboard.press("e")
    acked(page)
    played = json.loads(kernel_execute(page, ACTIONS_SO_FAR))
    kinds = [kind for kind, _ in played]
    assert kinds[:3] == ["Place", "Move", "LockIn"], played
    assert played[0][1] == {"type": "place", "cards": played[0][1]["cards"], "key": 9}
    assert "EndTurn" in kinds[3:], played
    # the keys stayed in the widget: the notebook is still in command mode, cells unchanged
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.mode") == "command"
    assert not errors


def test_spanish_shortcuts_are_the_letters_of_the_spanish_words(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """In Spanish, P asks for a Pista (H does nothing) and the buttons say their letters."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute,
                 "piano=(0, 7), hands=('A1 D2 C1 E3 G1', 'E1 F2 B1'), "
                 "tokens=([(0, 1)], [(2, 1)])")
    page.locator(f"{ROOT}-language").select_option("es")
    acked(page)
    page.locator(f"{ROOT}-hint-btn:has-text('Pista')").wait_for()
    assert page.locator(f"{ROOT}-hint-btn").get_attribute("aria-keyshortcuts") == "P"
    page.locator(ROOT).focus()
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert page.locator(f"{ROOT}-hint").is_hidden()
    page.keyboard.press("p")
    page.locator(f"{ROOT}-hint").wait_for(timeout=TIMEOUT_MS)
    assert page.locator(f"{ROOT}-hint").inner_text().startswith("Pista")
    assert not errors


def test_keyboard_duel_in_spanish_names_the_trays_and_the_opponent(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = duel_page
    _fresh_game(page)
    page.locator(f"{ROOT}-chooser").wait_for()
    page.locator(f"{ROOT}-language").select_option("es")
    expect(page.locator(f"{ROOT}-opponent[data-opponent=casual]")).to_contain_text("Tranquilo")
    expect(page.locator(f"{ROOT}-chooser")).to_contain_text(
        "Juegas con las blancas y empiezas tú.")
    start_game(page, kernel_execute, "casual", seed=5, pause=0)
    wait_idle(page)
    white = page.locator(f"{ROOT}-player-white {ROOT}-tray")
    black = page.locator(f"{ROOT}-player-black {ROOT}-tray")
    expect(white).to_have_attribute("aria-label", "Tus fichas (Blanco)")
    expect(black).to_have_attribute("aria-label", "Fichas de Tranquilo (Negro)")


def test_round_end_shows_the_finished_board_with_each_tokens_score(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """White's final turn (Black has placed all five): ending it scores the round. The board
    stays as it finished, each token's gold number is what it scored, the breakdown agrees;
    the next round's hand is not shown until Next round."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute,
                 "piano=(0, 7), hands=('A1 D2 C1 E3 G1', 'E1 F2 B1'), final_turn=True, "
                 "tokens=([(0, 2), (4, 1)], [(7, 3), (2, 1), (19, 2), (23, 1), (14, 1)])")
    page.locator(f"{ROOT}-hand {ROOT}-card[data-code=A1]").click()
    click_key(page, 9)
    acked(page)
    page.locator(f"{ROOT}-end").click()
    page.locator(f"{ROOT}[data-screen=round_end]").wait_for(timeout=TIMEOUT_MS)
    panel = page.locator(f"{ROOT}-roundend")
    panel.wait_for()
    assert page.locator(f"{ROOT}-hand").is_hidden()
    shown = sorted(
        (int(t.get_attribute("data-board-key")), t.get_attribute("data-seat"),
         int(t.locator(f"{ROOT}-gold").text_content() or "-1"))
        for t in page.locator(f"{ROOT}-token").all())
    # C major on the left: C fff ×3, E ff ×2, G f ×1; G major on the right: G (19) fff,
    # B (23) ff, D (14) f
    assert shown == [(0, "white", 6), (2, "black", 1), (4, "white", 2), (7, "black", 3),
                     (9, "white", 1), (14, "black", 1), (19, "black", 6), (23, "black", 2)]
    engine = json.loads(kernel_execute(
        page, "import json; print(json.dumps(list(game.state.round_scores[0])))"))
    white_score = int(panel.locator(".mg-duel-breakdown-side[data-seat=white] "
                                    ".mg-duel-breakdown-score").get_attribute("data-value"))
    black_score = int(panel.locator(".mg-duel-breakdown-side[data-seat=black] "
                                    ".mg-duel-breakdown-score").get_attribute("data-value"))
    assert [white_score, black_score] == engine == [9, 14]  # Black holds all of G major: +1
    assert page.locator(f"{ROOT}-chord").first.inner_text().startswith("Do")
    # Next round has the focus; Enter starts it, with fresh cards and hand
    heard = len(page.evaluate(SOUNDS_JS))
    page.keyboard.press("Enter")
    page.locator(f"{ROOT}[data-screen=play]").wait_for()
    wait_idle(page)
    assert page.locator(f"{ROOT}-hand").is_visible()
    # the new round's piano cards sound as they appear: a soft chord each, left first
    chords = json.loads(kernel_execute(
        page, "import json; print(json.dumps(game.table['sound']['chords']))"))
    page.wait_for_function(f"() => ({SOUNDS_JS})().length >= {heard + 2}", timeout=5_000)
    assert page.evaluate(SOUNDS_JS)[heard:] == [c["hz"] for c in chords]
    assert page.locator(f"{ROOT}-slot[data-state=unplaced]").count() >= 9
    assert_page_matches_engine(page, kernel_execute)
    # a scored round stays scored: Take back cannot reach into it
    assert not page.locator(f"{ROOT}-undo").is_enabled()
    assert not errors


# Points to click on every key of the board, in page pixels: a grid all over each black
# key, and on each white key the parts in sight (below the black keys, and beside them).
KEY_POINTS_JS = """() => {
  const out = [];
  const rects = [...document.querySelectorAll('.mg-duel-svg rect.mg-key')];
  const box = (r) => r.getBoundingClientRect();
  const blacks = rects.filter((r) => r.classList.contains('mg-black'));
  for (const r of rects) {
    const key = Number(r.getAttribute('data-board'));
    const b = box(r);
    if (r.classList.contains('mg-black')) {
      for (const fx of [0.15, 0.85]) for (const fy of [0.05, 0.5, 0.95]) {
        out.push({key, x: b.left + fx * b.width, y: b.top + fy * b.height});
      }
      out.push({key, x: b.left + b.width / 2, y: b.top + b.height / 2});
      continue;
    }
    out.push({key, x: b.left + b.width / 2, y: b.top + 0.8 * b.height});
    // beside a black key that covers part of this white key, in the black key's height
    for (const k of blacks) {
      const kb = box(k);
      if (Math.abs(kb.top - b.top) > 2 || kb.right < b.left || kb.left > b.right) continue;
      const x = kb.left > b.left + b.width / 2 ? kb.left - 3 : kb.right + 3;
      out.push({key, x, y: kb.top + 0.5 * kb.height});
    }
  }
  return out;
}"""


PICK_WILD_JS = """() => {
  const root = document.querySelector('.mg-duel');
  root.querySelector('.mg-duel-hand .mg-duel-card.is-wild').click();
  const lit = root.querySelectorAll('.mg-duel-target').length;
  if (lit !== 24) throw new Error(lit + ' keys lit, not 24');
  root.querySelector('.mg-duel-board').scrollIntoView({block: 'center'});
}"""
PLACED_JS = """() => {
  const root = document.querySelector('.mg-duel');
  const token = root.querySelector('.mg-duel-token-white');
  return root.dataset.busy === 'false' && token ? [Number(token.dataset.boardKey)] : null;
}"""
TAKEN_BACK_JS = """() => {
  const root = document.querySelector('.mg-duel');
  return root.dataset.busy === 'false' && !root.querySelector('.mg-duel-token-white');
}"""
#: Resolve with what ``done()`` gives once it gives something, checked each time the table
#: changes in the page (not on a clock); fail after ``ms`` milliseconds.
UNTIL_JS = """(done, ms, what) => new Promise((resolve, reject) => {
  const root = document.querySelector('.mg-duel');
  const check = () => {
    const value = done();
    if (!value) return false;
    observer.disconnect();
    clearTimeout(timer);
    resolve(value);
    return true;
  };
  const observer = new MutationObserver(check);
  const timer = setTimeout(() => { observer.disconnect(); reject(new Error(what)); }, ms);
  if (!check()) {
    observer.observe(root, {attributes: true, childList: true, subtree: true});
  }
})"""
#: Take the placing back, if there is one, and wait in the page until the kernel has.
TAKE_BACK_JS = f"""async () => {{
  const root = document.querySelector('.mg-duel');
  if (!root.querySelector('.mg-duel-token-white')) return;
  root.querySelector('.mg-duel-undo').click();
  await ({UNTIL_JS})({TAKEN_BACK_JS}, 10000, 'the placing was not taken back');
}}"""
#: The key the last click placed on once the kernel has it (``null`` before the first
#: click), then that placing taken back, the Wild picked (every key lights up) and the
#: ``index``-th point to click, where it is now (one call to the page instead of five);
#: with ``index`` null, only the placing checked and taken back.
NEXT_POINT_JS = f"""async ([index, clicked]) => {{
  const placed = clicked
    ? (await ({UNTIL_JS})({PLACED_JS}, 10000, 'the click placed nothing'))[0] : null;
  await ({TAKE_BACK_JS})();
  if (index === null) return {{placed, point: null}};  // no more points: none picked
  ({PICK_WILD_JS})();
  return {{placed, point: ({KEY_POINTS_JS})()[index]}};
}}"""


@pytest.mark.parametrize("width", [520, 800, 1100])
def test_the_key_clicked_is_the_key_played_at_every_layout_width(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
    width: int,
) -> None:
    """With a Wild picked every key is lit (D8: Wilds alone name any key), and every key's
    ring lies over its neighbours' drawing. A click anywhere on a black key, and on a white
    key's parts in sight, places on that very key; each placing is taken back (nothing was
    rolled or drawn) before the next click."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute, "piano=(0, 7), hands=('Wild C1 D1 E1 F1', 'G1 A1')")
    page.locator(ROOT).evaluate(f"(root) => {{ root.style.width = '{width}px'; }}")
    page.wait_for_function(
        f"() => document.querySelector('.mg-duel').getBoundingClientRect().width <= {width}")
    count = len(page.evaluate(KEY_POINTS_JS))
    clicked: set[int] = set()
    wrong = []
    last: dict[str, Any] | None = None  # the point clicked last
    for index in range(count + 1):
        # the key the last click placed on, that placing taken back, the Wild picked, and
        # the point to click next where it is now
        step = page.evaluate(NEXT_POINT_JS, [index if index < count else None,
                                             last is not None])
        if last is not None and step["placed"] != last["key"]:
            wrong.append((last["key"], step["placed"], round(last["x"]), round(last["y"])))
        last = step["point"]
        if last is None:
            break
        clicked.add(last["key"])
        page.mouse.click(last["x"], last["y"])
    assert clicked == set(range(24))
    assert not wrong, f"(key clicked, key played, x, y): {wrong}"
    assert_log_as_sent(page, kernel_execute)  # each placing's line added, then taken away
    assert not errors


def assert_log_as_sent(page: Any, kernel_execute: Callable[[Any, str], str]) -> None:
    """The page shows the log's lines the kernel sent last, in order (the page adds the new
    ones to those it shows, and draws them again when one before them changed)."""
    wait_idle(page)
    sent = json.loads(kernel_execute(
        page, "import json; print(json.dumps([line['text'] for line in game.table['log']]))"))
    assert page.locator(f"{ROOT}-log-line").all_inner_texts() == sent


#: The parts of the widget that changed (as their root's class names it) while ``act()`` ran
#: in the page, and what has the focus before and after (its data-focus name).
CHANGED_PARTS_JS = """(act) => new Promise((resolve) => {
  const root = document.querySelector('.mg-duel');
  const focus = () => document.activeElement.dataset.focus;
  const before = focus();
  const parts = new Set();
  const seen = [];
  const note = (records) => {
    for (const record of records) {
      const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      const part = node.closest('.mg-duel-header, .mg-duel-seats, .mg-duel-board, .mg-duel-hand,'
        + ' .mg-duel-choices, .mg-duel-actions, .mg-duel-log, .mg-duel-side, .mg-duel');
      parts.add(part.classList[0]);
      if (part === root) {  // not in a part: say what changed, should it ever fail
        seen.push([node.className, record.type, record.attributeName].join(' '));
      }
    }
  };
  const observer = new MutationObserver(note);
  observer.observe(root, {attributes: true, childList: true, subtree: true, characterData: true});
  new Function(act)();
  requestAnimationFrame(() => {
    note(observer.takeRecords());
    observer.disconnect();
    resolve({parts: [...parts].sort(), focus: [before, focus()], outside: seen});
  });
})"""


def test_picking_a_card_redraws_only_the_parts_it_changes(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """Picking a card changes the hand, the lit keys, the tip and the Clear button, nothing
    else: the header's menus, the trays and the log stay the very elements they were (a
    long game's page does not draw them all again at each click), and the focus stays on
    the card."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute, "piano=(0, 7), hands=('Wild C1 D1 E1 F1', 'G1 A1')")
    wait_idle(page)
    page.locator(f"{ROOT}-hand {ROOT}-card.is-wild").focus()
    page.locator(f"{ROOT}.mg-focused").wait_for()  # the focus guard has seen it, before the click
    changed = page.evaluate(CHANGED_PARTS_JS, "document.querySelector("
                            "'.mg-duel-hand .mg-duel-card.is-wild').click()")
    assert changed["parts"] == ["mg-duel-actions", "mg-duel-board", "mg-duel-choices",
                                "mg-duel-hand"], changed["outside"]
    wild = page.locator(f"{ROOT}-hand {ROOT}-card.is-wild").get_attribute("data-focus")
    assert changed["focus"] == [wild, wild]
    assert page.locator(f"{ROOT}-target").count() == 24  # the keys the Wild may name are lit
    assert not errors


# With every key lit: are names and marks drawn over the rings, and does any white key's ring
# cross a black key (points sampled all over each black key, tested against every ring)?
LIT_BOARD_JS = """() => {
  const out = {lit: 0, under: [], crossing: []};
  for (const svg of document.querySelectorAll('.mg-duel-svg')) {
    const layer = svg.querySelector('.mg-duel-layer');
    const rings = [...svg.querySelectorAll('.mg-duel-target')];
    out.lit += rings.length;
    for (const text of svg.querySelectorAll('text:not(.mg-duel-layer text)')) {
      if (!(layer.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING)) {
        out.under.push(text.textContent);
      }
    }
    for (const black of svg.querySelectorAll('rect.mg-key.mg-black')) {
      const x = Number(black.getAttribute('x')), w = Number(black.getAttribute('width'));
      const h = Number(black.getAttribute('height'));
      const key = Number(black.getAttribute('data-board'));
      for (let fx = 0.05; fx < 1; fx += 0.15) for (let fy = 0.02; fy < 1; fy += 0.08) {
        const point = svg.createSVGPoint();
        point.x = x + fx * w; point.y = fy * h;
        for (const ring of rings) {
          const other = Number(ring.dataset.boardKey);
          if (other !== key && (ring.isPointInStroke(point) || ring.isPointInFill(point))) {
            out.crossing.push([other, key]);
          }
        }
      }
    }
  }
  return out;
}"""


#: The animations running forever in an element and everything in it (pseudo-elements too).
ENDLESS_ANIMATIONS_JS = """(root) => root.getAnimations({subtree: true})
  .filter((a) => a.playState === 'running' && a.effect.getComputedTiming().iterations === Infinity)
  .map((a) => `${a.animationName || a.id} on ${a.effect.target.getAttribute('class')}`)"""


#: The classes of the drawings on the board's lit layer that a CSS filter redraws.
FILTERED_JS = """(root) => [...root.querySelectorAll('.mg-duel-layer *')]
  .filter((el) => getComputedStyle(el).filter !== 'none')
  .map((el) => el.getAttribute('class'))"""


def test_a_wild_lights_every_key_and_hides_no_name_or_mark(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """A Wild alone may name any of the 24 keys (D8): every key gets its ring, yet each
    key's name and mark stays on top, and a white key's ring steps round the black keys."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute, "piano=(0, 7), hands=('Wild C1 D1 E1 F1', 'G1 A1')")
    page.locator(f"{ROOT}-hand {ROOT}-card.is-wild").click()
    shown = page.evaluate(LIT_BOARD_JS)
    assert shown["lit"] == 24
    assert not shown["under"], f"names and marks under the rings: {shown['under']}"
    crossing = sorted(set(map(tuple, shown["crossing"])))
    assert not crossing, f"(ring of key, over black key): {crossing}"
    # the rings hold still while the player thinks: nothing is repainted again and again
    assert page.locator(ROOT).evaluate(ENDLESS_ANIMATIONS_JS) == []
    # and no ring, halo or dot is blurred by a filter, which would be redone at each redraw
    assert page.locator(ROOT).evaluate(FILTERED_JS) == []
    assert not errors


def test_the_rules_scroll_by_keyboard_with_the_close_button_at_the_top(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute, "piano=(0, 7), hands=('A1 D2 C1 E3 G1', 'E1 F2 B1')")
    page.locator(ROOT).focus()
    page.keyboard.press("r")
    rules = page.locator(f"{ROOT}-rules")
    rules.wait_for()
    scroll = "(box) => [box.scrollTop, box.scrollHeight - box.clientHeight]"
    top, room = rules.evaluate(scroll)
    assert top == 0 and room > 100, (top, room)  # there is more to read than fits
    close = page.locator(f"{ROOT}-rules-close")
    box, shut = rules.bounding_box(), close.bounding_box()
    assert box and shut and shut["y"] - box["y"] < 60, (box, shut)  # at the top
    page.keyboard.press("PageDown")
    down = rules.evaluate(scroll)[0]
    assert down > 0, down
    page.keyboard.press("ArrowDown")
    assert rules.evaluate(scroll)[0] > down
    page.keyboard.press("End")
    end, room = rules.evaluate(scroll)
    assert abs(end - room) <= 1, (end, room)
    shut = close.bounding_box()
    box = rules.bounding_box()
    assert box and shut and box["y"] <= shut["y"] < box["y"] + 60  # still in sight
    page.keyboard.press("Home")
    assert rules.evaluate(scroll)[0] == 0
    page.keyboard.press("Escape")
    rules.wait_for(state="hidden")
    assert not errors


def test_space_in_the_rules_pages_down_and_never_closes_them(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """The rules open with the focus on their close button: Space there pages down (and
    Shift+Space up) like on any page, as it does anywhere in the panel; only Enter, a click
    or Escape closes it."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    set_position(page, kernel_execute, "piano=(0, 7), hands=('A1 D2 C1 E3 G1', 'E1 F2 B1')")
    page.locator(ROOT).focus()
    page.keyboard.press("r")
    rules = page.locator(f"{ROOT}-rules")
    rules.wait_for()
    close = page.locator(f"{ROOT}-rules-close")
    on_close = "() => document.activeElement.classList.contains('mg-duel-rules-close')"
    assert page.evaluate(on_close)
    scroll = "(box) => [box.scrollTop, box.scrollHeight - box.clientHeight, box.clientHeight]"
    top, room, height = rules.evaluate(scroll)
    assert top == 0 and room > height, (top, room, height)  # more than a page to read
    page.keyboard.press("Space")
    page.wait_for_timeout(200)
    assert rules.is_visible() and page.evaluate(on_close)
    down = rules.evaluate(scroll)[0]
    assert down > height / 2, (down, height)  # a page down
    page.keyboard.press("Space")
    page.wait_for_timeout(200)
    further = rules.evaluate(scroll)[0]
    assert rules.is_visible() and further > down, (down, further)
    page.keyboard.press("Shift+Space")
    page.wait_for_timeout(200)
    assert rules.is_visible() and rules.evaluate(scroll)[0] < further
    page.keyboard.press("Enter")  # Enter on the close button closes
    rules.wait_for(state="hidden")
    page.keyboard.press("r")
    rules.wait_for()
    close.click()  # and so does a click
    rules.wait_for(state="hidden")
    assert not errors


COVER_JS = """() => {
  const root = document.querySelector('.mg-duel');
  const layer = root.querySelector('.mg-duel-overlay:not(.mg-duel-rules-overlay)');
  const box = (n) => {
    const r = n.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {root: box(root), layer: box(layer), shown: !layer.hidden,
          dialog: box(layer.querySelector('.mg-duel-dialog')), layout: root.dataset.layout};
}"""


def _covers(outer: list[float], inner: list[float]) -> bool:
    return (outer[0] <= inner[0] + 0.5 and outer[1] <= inner[1] + 0.5
            and outer[2] >= inner[2] - 0.5 and outer[3] >= inner[3] - 0.5)


def test_the_opponent_chooser_covers_the_whole_widget_at_every_width(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """The grey layer behind "Choose your opponent" covers the whole widget (the log column
    included), on opening and from New game, at 1280×800 (two columns) and 1024×768 (one);
    its dialog is in view."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    page.locator(f"{ROOT}-chooser").wait_for()
    for width, height in ((1280, 800), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        _layout(page)  # the widget's top in view
        shown = page.evaluate(COVER_JS)
        assert shown["shown"] and _covers(shown["layer"], shown["root"]), (width, shown)
    start_game(page, kernel_execute, "casual", seed=SEED, pause=PAUSE)
    for width, height in ((1280, 800), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(400)
        view = _layout(page)["view"]
        page.locator(f"{ROOT}-new").click()
        page.locator(f"{ROOT}-chooser").wait_for()
        shown = page.evaluate(COVER_JS)
        assert shown["shown"] and _covers(shown["layer"], shown["root"]), (width, shown)
        assert _inside(shown["dialog"], view), (width, view, shown)
        page.keyboard.press("Escape")
        page.locator(f"{ROOT}-chooser").wait_for(state="hidden")
    assert not errors


RULES_BUTTON_JS = """(label) => {
  const root = document.querySelector('.mg-duel');
  const box = (n) => {
    const r = n.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const found = [...root.querySelectorAll('button')].filter(
    (b) => b.textContent.trim() === label && !b.closest('[hidden]'));
  const clickable = found.filter((b) => {
    const [l, t, r, bottom] = box(b);
    const hit = document.elementFromPoint((l + r) / 2, (t + bottom) / 2);
    return r > l && bottom > t && hit && b.contains(hit);
  });
  return {found: found.length, clickable: clickable.map(box), width: box(root)[2] - box(root)[0],
          view: [0, 0, window.innerWidth, window.innerHeight]};
}"""
RULES_ON_TOP_JS = """() => {
  const rules = document.querySelector('.mg-duel .mg-duel-rules');
  if (!rules) return false;
  const r = rules.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return !!hit && rules.contains(hit);
}"""


def test_the_rules_button_can_be_clicked_while_the_opponent_chooser_is_shown(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """While "Choose your opponent" is shown, a Rules button is in sight and on top where it
    is drawn, in every language and at every width from a wide notebook column down to a
    narrow one; a click opens the rules over the chooser, and closing them comes back to it
    with the focus on that button."""
    from musicgames.i18n import LANGUAGES, text

    page = duel_page
    errors = watch_page_errors(page)
    open_notebook_here(page, NOTEBOOK)  # a new game's chooser, from the Lab running there
    dismiss_notifications(page)
    page.locator(f"{ROOT}-chooser").wait_for()
    widths = []
    for language in LANGUAGES:
        kernel_execute(page, f'game.receive({{"type": "settings", "language": "{language}"}})')
        label = text("duel.button.rules", language)
        page.locator(f"{ROOT}-chooser h3").filter(
            has_text=text("duel.opponent.prompt", language)).wait_for(timeout=TIMEOUT_MS)
        # the notebook's own column at 1400×1000 and 1024×768, then the widget made as
        # narrow as the layout tests make it
        for width in (None, 1024, 850, 700, 520, 400):
            page.set_viewport_size({"width": 1024, "height": 768} if width == 1024
                                   else {"width": 1400, "height": 1000})
            page.locator(ROOT).evaluate(
                "(root, width) => { root.style.width = width ? width + 'px' : ''; }",
                width if width and width < 1024 else None)
            until_still(page)
            page.locator(ROOT).evaluate("(root) => root.scrollIntoView({block: 'start'})")
            until_still(page)
            shown = page.evaluate(RULES_BUTTON_JS, label)
            widths.append(shown["width"])
            assert shown["clickable"], (language, width, shown)
            spot = shown["clickable"][0]
            assert _inside(spot, shown["view"]), (language, width, shown)
            page.mouse.click((spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2)
            page.locator(f"{ROOT}-rules").wait_for(timeout=TIMEOUT_MS)
            assert page.evaluate(RULES_ON_TOP_JS), (language, width)
            page.locator(f"{ROOT}-rules-close").click()
            page.locator(f"{ROOT}-rules").wait_for(state="hidden")
            assert page.locator(f"{ROOT}-chooser").is_visible()
            assert page.evaluate(
                "(label) => document.activeElement.textContent.trim() === label", label)
    assert min(widths) <= 400 and max(widths) > 850, widths  # narrow and wide columns
    # the rules' own key opens them over the chooser too, and Escape comes back to it
    key = kernel_execute(page, "print(game.table['shortcut_keys']['rules'])").strip()
    page.locator(f"{ROOT}-chooser button").first.focus()
    page.keyboard.press(key)
    page.locator(f"{ROOT}-rules").wait_for(timeout=TIMEOUT_MS)
    page.keyboard.press("Escape")
    page.locator(f"{ROOT}-rules").wait_for(state="hidden")
    assert page.locator(f"{ROOT}-chooser").is_visible()
    assert not errors


DICE_JS = """() => ['white', 'black'].map((seat) => [...document.querySelectorAll(
  '.mg-duel-duelpanel .mg-duel-side-' + seat + ' .mg-duel-die')]
  .map((d) => Number(d.dataset.value)))"""


def _attack_left_c(page: Any) -> list[list[int]]:
    page.locator(f"{ROOT}-hand {ROOT}-card[data-code=C1]").click()
    click_key(page, 0)
    acked(page)
    page.locator(f"{ROOT}-lock").wait_for()
    dice: list[list[int]] = page.evaluate(DICE_JS)
    return dice


def test_take_back_stops_at_the_dice_and_says_so_on_the_button(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """Seeded: the attack rolls White 4 against Black 4 1. Take back cannot roll it again:
    the button says it stops at the dice roll, and U changes nothing."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    position = ("piano=(0, 7), hands=('C1 D3 E1 G2 A1', 'E2 F1'), "
                "tokens=([(9, 1)], [(0, 3)]), seed=0")
    set_position(page, kernel_execute, position)
    undo = page.locator(f"{ROOT}-undo")
    assert undo.inner_text() == "Take back" and not undo.is_enabled()
    first = _attack_left_c(page)
    assert first == [[4], [4, 1]]
    assert undo.inner_text() == "Take back: stops at the dice roll"
    assert not undo.is_enabled()
    page.locator(ROOT).focus()
    page.keyboard.press("u")
    page.wait_for_timeout(300)
    acked(page)
    assert page.evaluate(DICE_JS) == first
    assert len(json.loads(kernel_execute(page, ACTIONS_SO_FAR))) == 1
    assert not errors


# Where the widget's parts are, and the part of the widget a person can see (clipped by the
# window and every scrolling ancestor: Lab scrolls the notebook inside a panel).
LAYOUT_JS = """() => {
  const root = document.querySelector('.mg-duel');
  let top = 0, bottom = window.innerHeight, left = 0, right = window.innerWidth;
  for (let up = root.parentElement; up; up = up.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(up).overflowY)) {
      const r = up.getBoundingClientRect();
      top = Math.max(top, r.top); bottom = Math.min(bottom, r.bottom);
      left = Math.max(left, r.left); right = Math.min(right, r.right);
    }
  }
  const box = (sel) => {
    const n = root.querySelector(sel);
    if (!n || !n.getClientRects().length) return null;
    const r = n.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    width: root.getBoundingClientRect().width, layout: root.dataset.layout,
    view: [left, top, right, bottom],
    parts: {
      board: box('.mg-duel-board'), hand: box('.mg-duel-hand'), end: box('.mg-duel-end'),
      white: box('.mg-duel-player-white .mg-duel-total'),
      black: box('.mg-duel-player-black .mg-duel-total'), log: box('.mg-duel-log'),
      lock: box('.mg-duel-lock'), duel: box('.mg-duel-duelpanel'),
      rules: box('.mg-duel-rules'),
    },
  };
}"""


def _inside(part: list[float], view: list[float]) -> bool:
    return (part[0] >= view[0] - 1 and part[1] >= view[1] - 1 and part[2] <= view[2] + 1
            and part[3] <= view[3] + 1)


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _layout(page: Any) -> dict[str, Any]:
    page.locator(ROOT).evaluate("(root) => root.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(150)
    result: dict[str, Any] = page.evaluate(LAYOUT_JS)
    return result


def test_fits_lab_at_1280x800_with_the_file_browser_open_and_at_1400x1000(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = duel_page
    page.set_viewport_size({"width": 1280, "height": 800})
    _fresh_game(page)
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.locator(".jp-FileBrowser").first.wait_for()
    # White holds a D; Black holds the left D: placing there starts a duel
    set_position(page, kernel_execute,
                 "piano=(0, 7), hands=('D1 A2 C1 E3 G1', 'E1 F2 B1'), "
                 "tokens=([(0, 1)], [(2, 3)])")
    sizes = {}
    for width, height in ((1280, 800), (1400, 1000)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        shown = _layout(page)
        sizes[(width, height)] = round(shown["width"])
        parts, view = shown["parts"], shown["view"]
        for name in ("board", "hand", "end", "white", "black"):
            assert parts[name] and _inside(parts[name], view), (width, name, shown)
        assert not _overlap(parts["black"], parts["log"]), shown  # Black's total stays clear
        assert shown["layout"] == ("wide" if shown["width"] >= 820 else "narrow"), shown
    # in a duel the hand stays in view next to the duel panel and its Lock in
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator(f"{ROOT}-hand {ROOT}-card[data-code=D1]").click()
    click_key(page, 2)
    page.locator(f"{ROOT}-lock").wait_for()
    shown = _layout(page)
    for name in ("hand", "lock", "duel", "board"):
        assert shown["parts"][name] and _inside(shown["parts"][name], shown["view"]), (
            name, shown)
    # Rules opens over the part of the widget in view, even scrolled halfway down it
    page.locator(ROOT).evaluate(
        "(root) => root.scrollIntoView({block: 'end'})")
    page.keyboard.press("r")
    page.locator(f"{ROOT}-rules").wait_for()
    shown = page.evaluate(LAYOUT_JS)
    rules = shown["parts"]["rules"]
    assert rules and rules[1] >= shown["view"][1] - 1 and rules[1] < shown["view"][3] - 100, shown
    assert "Tab" in page.locator(f"{ROOT}-rules").inner_text()  # the keys are listed
    # the dialog holds the focus: Tab and Shift+Tab stay in it
    for key in ("Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"):
        page.keyboard.press(key)
        assert page.evaluate(
            "() => !!document.activeElement.closest('.mg-duel-rules')"), key
    # Escape closes it and gives the focus back where it was (the widget)
    page.keyboard.press("Escape")
    assert page.locator(f"{ROOT}-rules").count() == 0 or page.locator(f"{ROOT}-rules").is_hidden()
    assert page.evaluate("() => !!document.activeElement.closest('.mg-duel')")
    # narrower than 820 px: one column
    page.set_viewport_size({"width": 1000, "height": 800})
    page.wait_for_function(
        "() => document.querySelector('.mg-duel').dataset.layout === 'narrow'", timeout=5_000)
    shown = _layout(page)
    assert not _overlap(shown["parts"]["black"], shown["parts"]["log"]), shown
    assert shown["parts"]["hand"][1] > shown["parts"]["board"][3], shown  # hand under board
    sizes[(1000, 800)] = round(shown["width"])
    print(f"\nKeyboard Duel widget width in Lab: {sizes}")


BLACK_ATTACKS = """
from musicgames.duel import DuelState, LockIn, Place, card_ids

class _BlackAttacks:
    \"\"\"Black's turn: attack White's token on the left C, lock in.\"\"\"
    def __init__(self):
        self.steps = [Place(card_ids("C1 C2"), key=0), LockIn()]
    def choose(self, view):
        return self.steps.pop(0)

game.pause = 0.05
game.new_game("casual", computer=_BlackAttacks(), position=DuelState.from_position(
    piano=(0, 7), turn=1, hands=("D1 D2 E3 G1 A1", "C1 C2 F2"), tokens=([(0, 1)], [(7, 2)])))
"""


def test_the_defenders_lock_in_is_on_screen_at_1024x768(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """Black attacks; White defends. At 1024×768 (one column), with the file browser closed
    and open, the widget's top in view: Lock in is on screen with the board."""
    page = duel_page
    page.set_viewport_size({"width": 1024, "height": 768})
    errors = watch_page_errors(page)
    _fresh_game(page)
    kernel_execute(page, BLACK_ATTACKS)
    page.locator(f"{ROOT}-lock").wait_for(timeout=TIMEOUT_MS)
    wait_idle(page)
    for browser_open in (False, True):
        if browser_open:
            page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
            page.locator(".jp-FileBrowser").first.wait_for()
            page.wait_for_timeout(300)
        shown = _layout(page)
        for name in ("lock", "board"):
            assert shown["parts"][name] and _inside(shown["parts"][name], shown["view"]), (
                browser_open, name, shown)
    assert not errors


BLACK_ENDS_THE_ROUND = """
from musicgames.duel import DuelState, EndTurn, LockIn, Place, card_ids
from musicgames.duel.bots import make_bot

class _BlackEndsTheRound:
    \"\"\"Black's final turn: attack White's token on the left C, lock in, end the turn;
    then play as Casual.\"\"\"
    def __init__(self):
        self.steps = [Place(card_ids("C1"), key=0), LockIn(), EndTurn()]
        self.casual = make_bot("casual", 0)
    def choose(self, view):
        return self.steps.pop(0) if self.steps else self.casual.choose(view)

game.pause = 0.05
game.new_game("casual", computer=_BlackEndsTheRound(), position=DuelState.from_position(
    piano=(0, 7), turn=1, final_turn=True, hands=("D1 E1 F1", "C1 G1"),
    tokens=([(0, 1), (4, 1), (7, 1), (9, 1), (11, 1)], [(14, 1)])))
"""


def test_the_duel_that_ends_the_round_is_shown_at_round_end(
    duel_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    """Black's final turn attacks; White locks in (L); Black ends the turn and the round is
    scored. The round's end shows that duel's result and what decided it beside the
    breakdown; after Next round it is gone."""
    page = duel_page
    errors = watch_page_errors(page)
    _fresh_game(page)
    kernel_execute(page, BLACK_ENDS_THE_ROUND)
    page.locator(f"{ROOT}-lock").wait_for(timeout=TIMEOUT_MS)
    wait_idle(page)
    page.locator(ROOT).focus()
    page.keyboard.press("l")
    page.locator(f"{ROOT}[data-screen=round_end]").wait_for(timeout=TIMEOUT_MS)
    assert page.locator(f"{ROOT}-roundend").is_visible()
    panel = page.locator(f"{ROOT}-duelpanel")
    assert panel.is_visible()
    assert panel.locator(f"{ROOT}-result").is_visible()
    assert panel.locator(f"{ROOT}-decided").inner_text().startswith("What decided it")
    page.locator(f"{ROOT}-next").click()
    page.locator(f"{ROOT}[data-screen=play]").wait_for()
    wait_idle(page)
    assert panel.is_hidden()
    assert not errors
