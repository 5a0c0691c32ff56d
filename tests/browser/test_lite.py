"""The static site in a browser cut off from every other host, with Python running in the
page (JupyterLite, Pyodide): the start page; a Note Snap card (the game has the keyboard as
it opens, no click needed) and a Keyboard Duel turn; answers kept in the browser across a
reload and two tabs, and handed in as a download; lesson 1 in English and in Spanish (an
exercise answered right and wrong in each), its four answers still there after a reload;
a note drill question answered by playing a MIDI note, the next through the microphone.

The tests share one site server and one browser (module fixtures); each opens its own
browser context, so no test sees another's storage.

The site is built once into ``build/lite/site`` (downloads kept in ``build/lite``, so a
second build fetches nothing) and built again only when musicgames' files change. It is
served on 127.0.0.1; the browser resolves no other host, and every request for another
origin is counted: the test wants none. Nothing stands between the page and the site
(Playwright's request routing would turn the browser's cache off), so a reload and a second
tab load the site from the cache as a student's browser does.

The build needs the downloads: the test runs when they are in ``build/lite`` already or
the package registries (npm, PyPI) answer, and is skipped otherwise, except on CI
(``CI`` set), where it must run.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS, MODEL_CLASS_FAILURE, REPO_ROOT
from tests.browser.duel_helpers import IDLE_JS, place_by_clicking, wait_idle
from tests.browser.duel_helpers import ROOT as DUEL
from tests.browser.fake_midi import FAKE_MIDI, send_midi
from tests.browser.snap_helpers import TABLE_TO_PLAY_JS, PageTable

# slow: each test boots Python in the page, and the module builds the site first; a
# parallel run starts it first, beside the other long module (the hub)
pytestmark = [pytest.mark.browser, pytest.mark.slow]

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
def piano_do3() -> Path | None:
    """A piano's Do3 (FluidR3, rendered by the tests' audio helper) for the microphone, or
    None where FluidSynth or its SoundFont is missing (``make test`` installs them)."""
    from tests import audio_samples

    if audio_samples.missing():
        return None
    return audio_samples.render_take("piano", [60]).path


@pytest.fixture(scope="module")
def offline_browser(chromium_path: Path, piano_do3: Path | None) -> Iterator[Any]:
    """Chromium that resolves no host name but 127.0.0.1's, and whose microphone (Chromium's
    fake capture) plays a piano's Do3 over and over."""
    from playwright.sync_api import sync_playwright

    microphone = [] if piano_do3 is None else [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={piano_do3}"]
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True,
            args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                  *microphone])
        yield chromium
        chromium.close()


class Student:
    """One student's browser on the site; every request for another origin (it fails: the
    browser resolves no other host) is kept in :attr:`elsewhere`."""

    def __init__(self, browser: Any, origin: str, init_script: str = "",
                 permissions: tuple[str, ...] = ()) -> None:
        self.origin = origin
        self.context = browser.new_context(viewport={"width": 1300, "height": 950},
                                           service_workers="block",
                                           permissions=list(permissions))
        if init_script:  # runs first in every document (a stand-in API, say)
            self.context.add_init_script(init_script)
        self.elsewhere: list[str] = []
        self.model_failures: list[str] = []
        self.context.on("request", self._seen)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        self.page.on("console", lambda m: self.model_failures.append(m.text)
                     if MODEL_CLASS_FAILURE in m.text else None)

    def _seen(self, request: Any) -> None:
        url = request.url
        if not url.startswith((self.origin + "/", "data:", "blob:")):
            self.elsewhere.append(url)

    def sign_in(self, name: str) -> None:
        self.page.goto(f"{self.origin}/index.html")
        self.page.locator("#name").fill(name)
        self.page.locator("#ask button").click()
        self.page.locator("#apps").wait_for()

    def open(self, title: str, start_page: str = "index.html") -> None:
        """Click an app or a lesson on a start page."""
        self.page.goto(f"{self.origin}/{start_page}")
        self.page.get_by_role("link", name=title, exact=True).click()

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
    # the table as it is when there is something to do, read in the same check (a card the
    # computers flip meanwhile cannot come between), or that it paused
    to_do_or_paused = ("([root, handled]) => root.dataset.paused === 'true' ? {paused: true}"
                       f" : ({TABLE_TO_PLAY_JS})([root, handled])")
    for _ in range(50):
        found = page.wait_for_function(to_do_or_paused, arg=[root.element_handle(), handled],
                                       timeout=60_000, polling="raf").json_value()
        if found.get("paused"):  # the console took the keyboard
            give_the_table_the_keyboard(root)
            continue
        table = PageTable(**found)
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


def the_game_has_the_keyboard_as_it_opens_and_keeps_it(page: Any) -> None:
    """No click needed: the game takes the keyboard as it opens, and its keys stay its own
    (Enter flips a card; the console around it does not take the keyboard back)."""
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


def test_a_request_for_another_host_fails_and_is_counted(student: Student) -> None:
    """The watch the other tests rely on to say the site needs no other host: a request the
    page makes for another origin fails and is counted."""
    student.page.goto(f"{student.origin}/index.html")
    failed = student.page.evaluate(
        "() => fetch('https://cdn.jsdelivr.net/npm/x.js').then(() => false, () => true)")
    assert failed
    for _ in range(50):  # the request's event may come after the answer
        if student.elsewhere:
            break
        student.page.wait_for_timeout(100)
    assert student.elsewhere == ["https://cdn.jsdelivr.net/npm/x.js"]


def test_the_site_plays_keyboard_duel_with_no_other_host(student: Student) -> None:
    """Keyboard Duel opened from the start page: a token placed by clicking, the turn
    ended, the computer's turn played in the page's Python (Note Snap is played in
    :func:`test_the_site_keeps_answers_across_a_reload_and_two_tabs_and_hands_them_in`)."""
    page = student.page
    student.sign_in("Ana")
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


#: How many times Ana's progress file kept in the site's IndexedDB holds a text
#: (Emscripten's IDBFS: a database and a folder named after
#: musicgames.lite.keeping.KEPT_FOLDER, each file whole under its path).
KEPT_ROWS_JS = """async ([file, needle]) => {
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
        .get(folder + "/" + file);
      asked.onsuccess = () => ok(asked.result);
      asked.onerror = () => no(asked.error);
    });
    if (!entry) return 0;
    return new TextDecoder("utf-8").decode(entry.contents).split(needle).length - 1;
  } finally {
    db.close();
  }
}"""


def wait_for_kept_rows(
    page: Any, rows: int, needle: str = "note_snap", file: str = "ana.sqlite3"
) -> None:
    """Wait until Ana's ``file`` kept in IndexedDB (her progress file, or another in the
    class folder) holds ``needle`` ``rows`` times."""
    deadline = time.monotonic() + 60
    while page.evaluate(KEPT_ROWS_JS, [file, needle]) < rows:
        assert time.monotonic() < deadline, f"{needle!r} was never kept {rows} times"
        page.wait_for_timeout(250)


def hand_in(page: Any, where: Any, tmp_path: Path) -> Any:
    """Click the hand-in button in ``where``: the download is Ana's file, saved in a class
    folder of its own, read as the teacher's notebook reads one."""
    from musicgames.progress import read_class

    with page.expect_download() as downloading:
        where.locator(".mg-hand-in-button").click()
    download = downloading.value
    assert download.suggested_filename == "ana.sqlite3"
    folder = tmp_path / "class"
    folder.mkdir()
    download.save_as(folder / download.suggested_filename)
    return read_class(folder)


def test_the_site_keeps_answers_across_a_reload_and_two_tabs_and_hands_them_in(
    student: Student, tmp_path: Path,
) -> None:
    """Note Snap opened from the start page, no code shown, has the keyboard as it opens.
    A card played in each of two tabs of one student is kept in the browser (IndexedDB):
    a reload of the first tab finds both, and its hand-in downloads the file the teacher's
    code reads. No other host was asked for anything."""

    page = student.page
    student.sign_in("Ana")
    student.open("Note Snap")
    page.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    assert "Ana" in page.locator(".musicgames-app-student").inner_text()
    assert "open_app" not in page.locator("body").inner_text()  # no code shown
    kept_line = page.locator(".mg-hand-in-kept").inner_text()
    assert "stay in this browser" in kept_line, kept_line
    the_game_has_the_keyboard_as_it_opens_and_keeps_it(page)
    other_tab = student.context.new_page()
    other_tab.set_default_timeout(60_000)
    other_tab.goto(page.url)
    other_tab.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    page.bring_to_front()
    play_a_note_snap_card(page)
    wait_for_kept_rows(page, 1)
    kept_by_the_first = page.evaluate(KEPT_ROWS_JS, "note_snap")
    between = datetime.now(timezone.utc)
    other_tab.bring_to_front()
    play_a_note_snap_card(other_tab)  # this tab saves the first tab's rows with its own
    wait_for_kept_rows(page, kept_by_the_first + 1)

    page.bring_to_front()
    page.reload()  # a new kernel: nothing of the last one is in memory
    page.locator(".mg-snap .mg-snap-seat").first.wait_for(timeout=START_TIMEOUT_MS)
    klass = hand_in(page, page.locator("body"), tmp_path)
    assert "ana.sqlite3" in page.locator(".mg-hand-in-message").inner_text()
    assert not klass.skipped, klass.skipped
    assert {a.student for a in klass.answers} == {"Ana"}
    cards = [datetime.fromisoformat(a.time) for a in klass.answers
             if a.activity == "note_snap" and a.item != "game"]
    assert min(cards) < between < max(cards), (cards, between)  # both tabs' cards
    assert student.elsewhere == [], student.elsewhere
    assert not student.model_failures, student.model_failures


# -- lessons ---------------------------------------------------------------------------------

#: Lesson 1 in each language: its start page and title, then exercise 1 ("How many lines
#: does a staff have?" 3, 4, 5 or 6) answered right, and exercise 3 ("Which line does the
#: treble clef curl around?") answered wrong (the 3rd), with the verdicts and why.
LESSON_ONE = {
    "en": ("index.html", "Lesson 1 · The staff", "Right!", "3rd", "Not quite.",
           "The 3rd line is the middle one"),
    "es": ("es.html", "Lección 1 · El pentagrama", "¡Bien!", "3.ª", "No, no es esa.",
           "La 3.ª línea es la del medio"),
}


def open_lesson_one(student: Student, language: str) -> Any:
    """Open lesson 1 from the start page in ``language``; its first exercise, once shown."""
    start_page, title, *_ = LESSON_ONE[language]
    student.open(title, start_page)
    page = student.page
    exercise = page.locator(".mg-exercise").first
    exercise.wait_for(timeout=START_TIMEOUT_MS)
    # the whole lesson has run (its summary at the end) and the page's Python listens
    page.locator(".jp-CodeConsole-content .jp-InputPrompt", has_text="[1]").first.wait_for(
        state="attached", timeout=START_TIMEOUT_MS)
    expect(page.locator(".mg-lesson-summary")).to_be_visible()
    return exercise


def answer_lesson_one(student: Student, language: str) -> None:
    """Answer lesson 1's exercise 1 right (5 lines) and exercise 3 wrong (the 3rd line),
    and check what the page says each time."""
    _, title, right, wrong_option, wrong, why = LESSON_ONE[language]
    page = student.page
    first = open_lesson_one(student, language)
    # the lesson as the classroom shows it: its text as text, its drawings, no code
    expect(page.locator("h1", has_text=title)).to_be_visible()
    assert page.locator(".mg-lesson-settings").count() == 1
    assert page.locator(".mg-figure svg").count() >= 3  # the staves drawn ahead
    assert "Ana" in page.locator(".musicgames-app-student").first.inner_text()
    shown = page.locator("body").inner_text()
    assert "open_lesson" not in shown and "lesson.show" not in shown
    assert "⏩" not in shown and "Shift + Enter" not in shown
    assert "music21" not in shown and "Traceback" not in shown

    first.get_by_role("button", name="5", exact=True).click()
    expect(first.locator(".mg-exercise-feedback")).to_contain_text(right)
    expect(first.locator(".mg-exercise-option.mg-right")).to_have_text("5")
    # the button to go on shows (a widget's None reaches the page as null)
    expect(first.locator(".mg-exercise-next")).to_be_visible()
    third = page.locator(".mg-exercise").nth(2)
    third.get_by_role("button", name=wrong_option, exact=True).click()
    verdict = third.locator(".mg-exercise-feedback")
    expect(verdict).to_contain_text(wrong)
    expect(verdict).to_contain_text(why)
    expect(third.locator(".mg-exercise-option.mg-wrong")).to_have_text(wrong_option)


def test_lesson_one_in_english_and_spanish_is_judged_and_kept_across_a_reload(
    student: Student, tmp_path: Path,
) -> None:
    """Lesson 1 opened from the English and the Spanish start page, an exercise answered
    right and one wrong in each; then the page is reloaded (a new Python: nothing of the
    last one in memory), and the lesson's hand-in downloads Ana's file with all four
    answers in it, kept in the browser."""

    student.sign_in("Ana")
    for language in ("en", "es"):
        answer_lesson_one(student, language)
        # the lesson's links to itself in the other languages open the site's pages for
        # them, as the same student
        other = "es" if language == "en" else "en"
        link = student.page.locator(f"a.mg-lesson-language[lang={other}]").first
        href = link.get_attribute("href") or ""
        assert "play/lessons/" in href and "student=Ana" in href
        assert f"language={other}" in href
        # and those in its text, in the same tab (JupyterLab opens a whole address in a new
        # one unless the link says otherwise)
        in_text = student.page.locator(".jp-RenderedMarkdown a[href*='play/lessons/']")
        assert in_text.count() >= 2
        for n in range(in_text.count()):
            assert in_text.nth(n).get_attribute("target") == "_self", in_text.nth(n).inner_html()
            assert "student=Ana" in (in_text.nth(n).get_attribute("href") or "")
    page = student.page
    # every save stores the whole file: once the last answer (the Spanish wrong one) is
    # kept, the three before it are too
    wait_for_kept_rows(page, 1, LESSON_ONE["es"][3])
    # the drawings made bigger: kept for the next visit too
    bigger = page.locator(".mg-lesson-settings").get_by_role("button", name="Más grande")
    bigger.click()
    wait_for_kept_rows(page, 1, '"size": "large"', ".lesson-settings/ana.json")

    page.reload()
    summary = page.locator(".mg-lesson-summary")
    summary.wait_for(timeout=START_TIMEOUT_MS)
    expect(bigger).to_have_class(re.compile(r"\bmod-active\b"))
    klass = hand_in(page, summary, tmp_path)
    assert not klass.skipped, klass.skipped
    lesson = [(a.item, a.correct) for a in klass.answers if a.activity == "lesson"]
    assert len(lesson) == 4, lesson  # two in English, two in Spanish
    assert sorted(correct for _, correct in lesson) == [False, False, True, True], lesson
    assert all(item.startswith("01-") for item, _ in lesson), lesson
    assert student.elsewhere == [], student.elsewhere
    assert not student.model_failures, student.model_failures


# -- practice: the note drill, answered on a MIDI keyboard ------------------------------------

@pytest.fixture
def student_with_midi(offline_browser: Any, site_url: str) -> Iterator[Student]:
    """A student whose browser has a MIDI keyboard plugged in (the stand-in Web MIDI), and
    lets the site use the microphone."""
    one = Student(offline_browser, site_url, init_script=FAKE_MIDI,
                  permissions=("microphone",))
    yield one
    one.close()


def test_the_note_drill_is_answered_on_a_midi_keyboard_and_through_the_microphone(
    student_with_midi: Student, piano_do3: Path | None,
) -> None:
    """Question 1 answered by playing Sol3 on the (stand-in) MIDI keyboard, question 2 by the
    microphone hearing a piano's Do3: each is taken as the answer, right or wrong as the
    question asked."""
    student = student_with_midi
    page = student.page
    student.sign_in("Ana")
    student.open("Note drill")
    drill = page.locator(".mg-practice")
    drill.wait_for(timeout=START_TIMEOUT_MS)
    assert "Ana" in page.locator(".musicgames-app-student").inner_text()
    drill.locator('.mg-play-input[data-input="midi"]').click()
    expect(drill.locator(".mg-play")).to_have_attribute("data-midi", "on", timeout=10_000)
    drill.locator(".mg-practice-start").click()
    expect(drill.locator(".mg-practice-count")).to_have_text("Question 1 of 20")
    expect(drill.locator(".mg-drill-staff > svg")).to_have_count(1)  # drawn ahead
    page.wait_for_timeout(200)  # the question painted: answers count from then
    send_midi(page, "a", [0x90, 67, 100])  # Sol3
    feedback = drill.locator(".mg-practice-feedback")
    expect(feedback).to_contain_text(re.compile(r"Right! It is Sol3|Not quite: you "
                                                r"answered Sol3"), timeout=30_000)
    expect(drill.locator(".mg-key.mg-played")).to_have_count(1)

    if piano_do3 is None:
        if os.environ.get("CI"):
            pytest.fail("FluidSynth or its SoundFont is missing on CI (make test-audio)")
        pytest.skip("no FluidSynth here: the microphone's half of the test cannot run")
    drill.locator('.mg-play-input[data-input="microphone"]').click()
    switch = drill.locator(".mg-play")
    expect(switch).to_have_attribute("data-input", "microphone", timeout=10_000)
    expect(switch).to_contain_text("Nothing is recorded")
    expect(drill.locator(".mg-practice-count")).to_have_text("Question 2 of 20",
                                                             timeout=10_000)
    expect(feedback).to_contain_text(
        re.compile(r"Right! It is Do|Not quite: you answered Do"), timeout=30_000)
    assert student.elsewhere == [], student.elsewhere
    assert not student.model_failures, student.model_failures
