"""The static site in a browser cut off from every other host: the start page, a Note Snap
card and a Keyboard Duel turn, with Python running in the page (JupyterLite, Pyodide).

The site is built once into ``build/lite/site`` (downloads kept in ``build/lite``, so a
second build fetches nothing) and built again only when musicgames' files change. It is
served on 127.0.0.1; the browser resolves no other host, and every request for another
origin is aborted and counted: the test wants none.

The build needs the downloads: the test runs when they are in ``build/lite`` already or
the package registries (npm, PyPI) answer, and is skipped otherwise, except on CI
(``CI`` set), where it must run.
"""

from __future__ import annotations

import importlib.util
import os
import random
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM_ARGS, MODEL_CLASS_FAILURE, REPO_ROOT
from tests.browser.duel_helpers import IDLE_JS, place_by_clicking, wait_idle
from tests.browser.duel_helpers import ROOT as DUEL
from tests.browser.snap_helpers import SOMETHING_TO_DO_JS, read_table

pytestmark = pytest.mark.browser

CACHE = REPO_ROOT / "build" / "lite"
SITE = CACHE / "site"
#: A cold start (Pyodide, then every package) takes tens of seconds on a busy machine.
START_TIMEOUT_MS = 300_000


def _downloads_kept() -> bool:
    from musicgames.lite.download import wheel_key
    from musicgames.lite.packages import PYODIDE_VERSION, normalize, pip_requirements

    if not (CACHE / f"pyodide-{PYODIDE_VERSION}" / "pyodide-lock.json").is_file():
        return False
    folder = CACHE / "wheels"
    have = {wheel_key(p.name) for p in folder.glob("*.whl")} if folder.is_dir() else set()
    return all((normalize(r.split("==")[0]), r.split("==")[1]) in have
               for r in pip_requirements())


def _registries_answer() -> bool:
    for url in ("https://registry.npmjs.org/pyodide", "https://pypi.org/simple/music21/"):
        try:
            with urllib.request.urlopen(url, timeout=5):
                pass
        except OSError:
            return False
    return True


def _cannot_build(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the static site cannot be built on CI: {why}")
    pytest.skip(f"the static site cannot be built here: {why}")


@pytest.fixture(scope="module")
def lite_site() -> Path:
    """The built site (built now if musicgames changed since the last build)."""
    if importlib.util.find_spec("jupyterlite_core") is None:
        _cannot_build("jupyterlite-core is not installed (pip install -e '.[lite]')")
    from musicgames.lite.site import STAMP_FILE, build_if_changed, source_stamp

    stamp = SITE / STAMP_FILE
    up_to_date = stamp.is_file() and stamp.read_text() == source_stamp()
    if not up_to_date and not _downloads_kept() and not _registries_answer():
        _cannot_build("its downloads are not in build/lite and the registries do not answer")
    return build_if_changed(SITE, CACHE).site


@pytest.fixture(scope="module")
def site_url(lite_site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 (a free port), as a classroom's laptop would."""
    from musicgames.lite.serve import make_server

    server = make_server(lite_site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def offline_browser(chromium_path: Path) -> Iterator[Any]:
    """Chromium that resolves no host name but 127.0.0.1's."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True,
            args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        yield chromium
        chromium.close()


class Student:
    """One student's browser on the site; every request for another origin is aborted
    and kept in :attr:`elsewhere`."""

    def __init__(self, browser: Any, origin: str) -> None:
        self.origin = origin
        self.context = browser.new_context(viewport={"width": 1300, "height": 950},
                                           service_workers="block")
        self.elsewhere: list[str] = []
        self.model_failures: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        self.page.on("console", lambda m: self.model_failures.append(m.text)
                     if MODEL_CLASS_FAILURE in m.text else None)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.origin + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.elsewhere.append(url)
            route.abort()

    def sign_in(self, name: str) -> None:
        self.page.goto(f"{self.origin}/index.html")
        self.page.locator("#name").fill(name)
        self.page.locator("#ask button").click()
        self.page.locator("#apps").wait_for()

    def open(self, title: str) -> float:
        """Click a game on the start page; the seconds until its page shows it."""
        self.page.goto(f"{self.origin}/index.html")
        started = time.monotonic()
        self.page.get_by_role("link", name=title, exact=True).click()
        return started

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def student(offline_browser: Any, site_url: str) -> Iterator[Student]:
    one = Student(offline_browser, site_url)
    yield one
    one.close()


def give_the_table_the_keyboard(root: Any) -> None:
    """Click the table (its "Click here to play" layer when it shows) and play on."""
    overlay = root.locator(".mg-focus-overlay")
    if overlay.count() and overlay.first.is_visible():
        overlay.first.click()
    else:
        root.locator(".mg-snap-title").click()
    root.page.wait_for_timeout(1500)  # the click may play on by itself
    if root.get_attribute("data-paused") == "true":
        root.page.keyboard.press("p")
        root.page.wait_for_function("(root) => root.dataset.paused !== 'true'",
                                    arg=root.element_handle(), timeout=30_000)


def play_a_note_snap_card(page: Any) -> None:
    """Flip on the person's turn (Enter) and slap (Space) the first card dealt; wait for
    the kernel's answer to the slap."""
    root = page.locator(".mg-snap")
    # the console puts the keyboard in its prompt once the cell has run: wait for that,
    # then give the table the keyboard (a person's one click)
    page.locator(".jp-CodeConsole-content .jp-InputPrompt", has_text="[1]").first.wait_for(
        state="attached")
    page.wait_for_timeout(1000)
    give_the_table_the_keyboard(root)
    handled: list[int] = []
    to_do_or_paused = ("([root, handled]) => root.dataset.paused === 'true' || ("
                       + SOMETHING_TO_DO_JS + ")([root, handled])")
    for _ in range(50):
        page.wait_for_function(to_do_or_paused, arg=[root.element_handle(), handled],
                               timeout=60_000, polling="raf")
        if root.get_attribute("data-paused") == "true":  # the console took the keyboard
            give_the_table_the_keyboard(root)
            continue
        table = read_table(root)
        assert table.phase != "over", "the game ended before a card was played"
        if table.phase == "flip":
            page.keyboard.press("Enter")
            continue
        assert table.number is not None
        assert root.locator(".mg-snap-card svg").count(), "the card has no staff"
        page.keyboard.press("Space")
        break
    else:
        raise AssertionError("no card was dealt")
    # the kernel's judgement of that card is drawn
    page.wait_for_function(
        "([root, number]) => { const r = root.querySelector('.mg-snap-result');"
        " return !!r && Number(r.dataset.number) >= number; }",
        arg=[root.element_handle(), table.number], timeout=60_000)


#: Where the keyboard is, as a test reads it: in the Note Snap table or not, and whether the
#: table paused (a table pauses when it loses the keyboard).
KEYBOARD_JS = """() => {
  const root = document.querySelector('.mg-snap');
  const active = document.activeElement;
  return {in_game: !!(root && active && root.contains(active)),
          paused: !!root && root.dataset.paused === 'true', phase: root && root.dataset.phase};
}"""


def test_the_game_has_the_keyboard_as_it_opens_and_keeps_it(student: Student) -> None:
    """No click needed: the game takes the keyboard as it opens, and its keys stay its own
    (Enter flips a card; the console around it does not take the keyboard back)."""
    page = student.page
    student.sign_in("Ana")
    student.open("Note Snap")
    page.wait_for_function(
        "() => { const t = document.querySelector('.mg-snap .mg-snap-seat.is-turn');"
        " return !!(t && t.classList.contains('mg-snap-person'))"
        " && document.querySelector('.mg-snap').dataset.phase === 'flip'; }",
        timeout=START_TIMEOUT_MS, polling=100)
    # the cell that opened the game has finished: the console is done with its prompt
    page.locator(".jp-CodeConsole-content .jp-InputPrompt", has_text="[1]").first.wait_for(
        state="attached")
    page.wait_for_timeout(1000)
    assert page.evaluate(KEYBOARD_JS) == {"in_game": True, "paused": False, "phase": "flip"}
    page.keyboard.press("Enter")  # the person's turn: Enter flips
    page.wait_for_function("() => document.querySelector('.mg-snap').dataset.phase !== 'flip'",
                           timeout=30_000)
    page.wait_for_timeout(500)
    after = page.evaluate(KEYBOARD_JS)
    assert after["in_game"] and not after["paused"], after


def test_the_site_plays_note_snap_and_keyboard_duel_with_no_other_host(
    student: Student,
) -> None:
    page = student.page
    student.sign_in("Ana")

    student.open("Note Snap")
    page.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    assert "Ana" in page.locator(".musicgames-app-student").inner_text()
    assert "open_app" not in page.locator("body").inner_text()  # no code shown
    play_a_note_snap_card(page)

    student.open("Keyboard Duel")
    page.locator(f"{DUEL}-opponent[data-opponent=casual]").click(timeout=START_TIMEOUT_MS)
    page.locator(f"{DUEL}[data-screen=play]").wait_for()
    wait_idle(page)
    assert page.locator(f"{DUEL}-svg rect.mg-key").count() == 24
    assert place_by_clicking(page, random.Random(3)) is not None
    page.locator(f"{DUEL}-end").click()
    # the computer plays its turn; then it is the person's turn again
    page.wait_for_function(
        "() => [...document.querySelectorAll('.mg-duel-log-line')]"
        ".some((line) => line.textContent.startsWith('Black '))", timeout=120_000)
    page.wait_for_function(IDLE_JS, timeout=120_000, polling=50)

    assert student.elsewhere == [], student.elsewhere
    assert not student.model_failures, student.model_failures


#: How many rows of Note Snap Ana's progress file kept in the site's IndexedDB holds
#: (Emscripten's IDBFS: a database and a folder named after
#: musicgames.lite.keeping.KEPT_FOLDER, each file whole under its path).
KEPT_ROWS_JS = """async () => {
  const folder = "/musicgames-progress";
  const db = await new Promise((ok, no) => {
    const asked = indexedDB.open(folder);
    asked.onsuccess = () => ok(asked.result);
    asked.onerror = () => no(asked.error);
  });
  try {
    if (!db.objectStoreNames.contains("FILE_DATA")) return 0;
    const entry = await new Promise((ok, no) => {
      const asked = db.transaction("FILE_DATA").objectStore("FILE_DATA")
        .get(folder + "/ana.sqlite3");
      asked.onsuccess = () => ok(asked.result);
      asked.onerror = () => no(asked.error);
    });
    if (!entry) return 0;
    return new TextDecoder("latin1").decode(entry.contents).split("note_snap").length - 1;
  } finally {
    db.close();
  }
}"""


def wait_for_kept_rows(page: Any, rows: int) -> None:
    deadline = time.monotonic() + 60
    while page.evaluate(KEPT_ROWS_JS) < rows:
        assert time.monotonic() < deadline, f"{rows} Note Snap rows were never kept"
        page.wait_for_timeout(250)


def test_the_site_keeps_answers_across_a_reload_and_two_tabs_and_hands_them_in(
    student: Student, tmp_path: Path,
) -> None:
    """A card played in each of two tabs of one student is kept in the browser
    (IndexedDB): a reload of the first tab finds both, and its hand-in downloads the file
    the teacher's code reads."""
    from musicgames.progress import read_class

    page = student.page
    student.sign_in("Ana")
    student.open("Note Snap")
    page.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    kept_line = page.locator(".mg-hand-in-kept").inner_text()
    assert "stay in this browser" in kept_line, kept_line
    other_tab = student.context.new_page()
    other_tab.set_default_timeout(60_000)
    other_tab.goto(page.url)
    other_tab.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    page.bring_to_front()
    play_a_note_snap_card(page)
    wait_for_kept_rows(page, 1)
    kept_by_the_first = page.evaluate(KEPT_ROWS_JS)
    between = datetime.now(timezone.utc)
    other_tab.bring_to_front()
    play_a_note_snap_card(other_tab)  # this tab saves the first tab's rows with its own
    wait_for_kept_rows(page, kept_by_the_first + 1)

    page.bring_to_front()
    page.reload()  # a new kernel: nothing of the last one is in memory
    page.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    with page.expect_download() as downloading:
        page.locator(".mg-hand-in-button").click()
    download = downloading.value
    assert download.suggested_filename == "ana.sqlite3"
    folder = tmp_path / "class"
    folder.mkdir()
    download.save_as(folder / download.suggested_filename)
    assert "ana.sqlite3" in page.locator(".mg-hand-in-message").inner_text()
    klass = read_class(folder)
    assert not klass.skipped, klass.skipped
    assert {a.student for a in klass.answers} == {"Ana"}
    cards = [datetime.fromisoformat(a.time) for a in klass.answers
             if a.activity == "note_snap" and a.item != "game"]
    assert min(cards) < between < max(cards), (cards, between)  # both tabs' cards
    assert student.elsewhere == [], student.elsewhere
