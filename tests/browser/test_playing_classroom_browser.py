"""Answering by playing in the classroom's apps (issue 22): Voila pages opened from the start
page, not JupyterLab.

One classroom server for the whole module (the classroom tests' own fixture), and one
Chromium whose microphone is Chromium's fake capture (playing silence, so it answers
nothing) and which also reaches the server as ``classroom.test`` — a name that is not this
computer, so a page from it is what a class on the school's network gets over plain http:
not a secure context. The MIDI keyboards are the Lab tests' stand-in Web MIDI (an init
script whose keyboards send real MIDI bytes).

* A student opens the note drill from the start page, switches to the MIDI keyboard and
  answers a question right and one wrong by playing: the key played shows on the keyboard,
  the wrong note is explained. The choice is kept in that student's progress file in the
  class folder, not in another student's, and the app opens again with it.
* A lesson's note exercise is answered by playing (right and wrong), and the choice made
  there is what the note drill app opens with.
* The microphone is offered; chosen, it listens only while a question waits, through its
  AudioWorklet loaded in the Voila page, and is released when the page is hidden and when
  the student leaves the app.
* Over plain http from another computer, MIDI and the microphone are greyed out and say why
  (and a student whose kept choice is the microphone is told why it does not listen).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from musicgames.i18n import text
from musicgames.progress import read_answers
from musicgames.progress.files import reading
from musicgames.theory import Naming, Note
from tests.audio_samples import silence
from tests.browser.classroom_helpers import Visitor
from tests.browser.conftest import CHROMIUM_ARGS, Server
from tests.browser.fake_midi import FAKE_MIDI, send_midi

pytestmark = pytest.mark.browser

#: A name for this computer that the browser does not take for it: pages from it are not a
#: secure context, as a classroom server's pages over plain http on a school network are.
ELSEWHERE = "classroom.test"


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    """Chromium with a fake microphone (silence), that reaches 127.0.0.1 as ``classroom.test``
    too."""
    from playwright.sync_api import sync_playwright

    args = [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={silence(2.0)}",
        "--autoplay-policy=no-user-gesture-required",
        f"--host-resolver-rules=MAP {ELSEWHERE} 127.0.0.1",
    ]
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=args
        )
        yield chromium
        chromium.close()


def student(browser: Any, server: Server, name: str, init_script: str = FAKE_MIDI) -> Any:
    """A student's browser (with the stand-in Web MIDI), signed in on the start page."""
    visitor = Visitor(browser, server)
    if init_script:
        visitor.context.add_init_script(init_script)
    visitor.sign_in(name)
    return visitor


def open_drill(visitor: Any) -> Any:
    visitor.page.goto("/")
    visitor.open("Note drill")
    widget = visitor.page.locator(".mg-practice")
    widget.locator(".mg-play").wait_for()  # the app has started
    return widget


def kept_playing(path: Path) -> str | None:
    """How the student answers, as their progress file keeps it (``None``: never chosen)."""
    with reading(path) as connection:
        row = connection.execute(
            "SELECT value FROM meta WHERE key = 'setting:playing'").fetchone()
    return None if row is None else str(row[0])


def wait_until_kept(path: Path, wanted: str) -> None:
    """Wait until the student's progress file keeps a choice of how to answer that holds
    ``wanted`` (the kernel stores it once the page's message reaches it)."""
    deadline = time.monotonic() + 15
    while wanted not in ((kept_playing(path) if path.exists() else None) or ""):
        assert time.monotonic() < deadline, f"{path.name} never kept {wanted}"
        time.sleep(0.2)


def answers(path: Path, activity: str, count: int) -> list[Any]:
    """The student's answers to ``activity`` once ``count`` of them are in their file (the
    kernel writes them after the page shows the verdict)."""
    deadline = time.monotonic() + 15
    while True:
        rows = [r for r in read_answers(path) if r.activity == activity] if path.exists() else []
        if len(rows) >= count:
            return rows
        assert time.monotonic() < deadline, f"{path.name} has {len(rows)} {activity} answers"
        time.sleep(0.2)


def midi_of(hz: float) -> int:
    return round(69 + 12 * math.log2(hz / 440))


def name_of(midi: int) -> str:
    return Note.parse(midi).label(Naming.SOLFEGE, language="en")


def asked_midi(widget: Any) -> int:
    """The note the drill asks for, as a student hears it: "Hear it" plays it."""
    page = widget.page
    before = page.evaluate("() => (globalThis.musicgamesSound || {starts: []}).starts.length")
    widget.locator(".mg-drill-hear").click()
    page.wait_for_function("(n) => globalThis.musicgamesSound.starts.length > n", arg=before)
    hz: float = page.evaluate("() => globalThis.musicgamesSound.starts.at(-1).hz[0]")
    return midi_of(hz)


#: Plays a note on "Keys A" and gives back what the drill says to it, and the keys it marks
#: (their pitch), as they are the moment its answer is shown (a right answer's feedback
#: gives way to the next question after a short pause).
PLAY_AND_SEE_JS = """(midi) => new Promise((resolve, reject) => {
  const root = document.querySelector(".mg-practice");
  const line = root.querySelector(".mg-practice-feedback");
  const hz = (selector) => {
    const key = root.querySelector(selector);
    return key ? Number(key.getAttribute("data-hz")) : null;
  };
  const timer = setTimeout(() => {
    observer.disconnect();
    reject(new Error("the drill said nothing to the note played"));
  }, 10000);
  const observer = new MutationObserver(() => {
    if (!line.textContent) return;
    observer.disconnect();
    clearTimeout(timer);
    resolve({ said: line.textContent, played: hz(".mg-key.mg-played"),
              wrong: hz(".mg-key.mg-wrong") });
  });
  observer.observe(line, { childList: true, characterData: true, subtree: true,
                           attributes: true });
  window.mgMidi.send("a", [0x90, midi, 100]);
})"""


def play_and_see(page: Any, midi: int) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(PLAY_AND_SEE_JS, midi)
    return seen


def test_a_student_answers_the_note_drill_app_with_a_midi_keyboard_kept_as_theirs(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, folder = classroom
    ana, bruno = student(browser, server, "Ana"), student(browser, server, "Bruno")
    try:
        drill = open_drill(ana)
        bruno_drill = open_drill(bruno)
        drill.locator('.mg-play-input[data-input="midi"]').click()
        switch = drill.locator(".mg-play")
        expect(switch).to_have_attribute("data-midi", "on", timeout=10_000)
        expect(drill.locator(".mg-play-status")).to_contain_text("Listening to Keys A.")
        drill.locator(".mg-practice-start").click()
        count = drill.locator(".mg-practice-count")
        expect(count).to_have_text("Question 1 of 20", timeout=10_000)

        # Right: the note asked, played; its key shows as played.
        right = asked_midi(drill)
        seen = play_and_see(ana.page, right)
        assert seen["said"].startswith("Right"), seen
        assert midi_of(seen["played"]) == right
        send_midi(ana.page, "a", [0x80, right, 0])

        # Wrong: a neighbouring white key, explained by where that note sits.
        expect(count).to_have_text("Question 2 of 20", timeout=10_000)  # after a short pause
        asked = asked_midi(drill)
        keys = {midi_of(float(hz)) for hz in drill.locator(".mg-key").evaluate_all(
            "keys => keys.map((key) => key.getAttribute('data-hz'))")}
        wrong = next(m for m in (asked + 1, asked + 2, asked - 1, asked - 2)
                     if m % 12 in (0, 2, 4, 5, 7, 9, 11) and m in keys)
        seen = play_and_see(ana.page, wrong)
        assert seen["said"].startswith("Not quite"), seen
        assert midi_of(seen["played"]) == wrong and midi_of(seen["wrong"]) == wrong
        expect(drill.locator(".mg-practice-why")).to_contain_text(name_of(wrong))

        # Kept in Ana's file in the class folder; Bruno's app and file untouched.
        kept = kept_playing(folder / "ana.sqlite3")
        assert kept is not None and '"input": "midi"' in kept
        assert kept_playing(folder / "bruno.sqlite3") is None
        expect(bruno_drill.locator(".mg-play")).to_have_attribute("data-input", "click")
        rows = answers(folder / "ana.sqlite3", "drill", 2)
        assert [(r.student, r.answer, r.correct) for r in rows] == [
            ("Ana", Note.parse(right).solfege, True), ("Ana", Note.parse(wrong).solfege, False)]

        # The app opened again (a new kernel) starts with the MIDI keyboard.
        again = open_drill(ana)
        expect(again.locator(".mg-play")).to_have_attribute("data-input", "midi")
        expect(again.locator(".mg-play")).to_have_attribute("data-midi", "on", timeout=10_000)
        assert not ana.failures and not bruno.failures
        assert ana.foreign_requests() == []
    finally:
        ana.close()
        bruno.close()


def test_a_lessons_note_exercise_is_answered_by_playing_and_the_drill_app_keeps_the_choice(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    from musicgames.lessons import open_lesson

    server, folder = classroom
    # The lesson's questions come from its seed: the same as the app's page asks.
    shown = open_lesson("01-the-staff", "en", remember=False, record=False).show("name-notes")
    questions = shown.children[0].questions
    cleo = student(browser, server, "Cleo")
    try:
        cleo.page.locator('a.app[data-app="lesson"]').first.click()
        exercise = cleo.page.locator(".mg-exercise").filter(has=cleo.page.locator(".mg-play"))
        exercise.first.wait_for()  # the lesson has run
        expect(exercise).to_have_count(1)
        exercise.scroll_into_view_if_needed()
        options = exercise.locator(".mg-exercise-option")
        assert [t.strip() for t in options.all_inner_texts()] == list(questions[0].options)
        exercise.locator('.mg-play-input[data-input="midi"]').click()
        expect(exercise.locator(".mg-play")).to_have_attribute("data-midi", "on",
                                                               timeout=10_000)
        first = questions[0]
        send_midi(cleo.page, "a", [0x90, first.notes[first.answer].midi + 12, 100])  # any octave
        expect(exercise.locator(".mg-exercise-feedback")).to_contain_text("Right",
                                                                          timeout=10_000)
        switch = exercise.locator(".mg-play")
        expect(switch).to_have_attribute("data-asking", "false")  # answered: no note counts
        exercise.locator(".mg-exercise-next").click()
        expect(switch).to_have_attribute("data-asking", "true")  # the next question waits
        second = questions[1]
        other = next(i for i in range(len(second.options)) if i != second.answer)
        send_midi(cleo.page, "a", [0x90, second.notes[other].midi, 100])
        feedback = exercise.locator(".mg-exercise-feedback.mg-wrong")
        expect(feedback).to_contain_text("Not quite", timeout=10_000)
        expect(feedback).to_contain_text(second.why[other])  # where the note played sits
        expect(exercise.locator(".mg-exercise-option.mg-wrong")).to_have_text(
            second.options[other])
        rows = answers(folder / "cleo.sqlite3", "lesson", 2)
        assert [(r.student, r.correct) for r in rows] == [("Cleo", True), ("Cleo", False)]
        assert '"input": "midi"' in (kept_playing(folder / "cleo.sqlite3") or "")
        drill = open_drill(cleo)
        expect(drill.locator(".mg-play")).to_have_attribute("data-input", "midi")
        assert not cleo.failures
    finally:
        cleo.close()


#: Keeps every microphone stream the page is given (``window.mgStreams``) and every
#: AudioWorklet module it loads (``window.mgWorklets``: "loaded" or the error); when the
#: page is hidden — also when it is left — it notes in sessionStorage how many tracks are
#: still live (a listener on the window: it runs after the page's own, on the document).
KEEP_MICROPHONE = """
(() => {
  window.mgStreams = [];
  window.mgWorklets = [];
  const live = () => window.mgStreams.flatMap((s) => s.getTracks())
    .filter((t) => t.readyState === "live").length;
  window.mgLive = live;
  if (navigator.mediaDevices) {
    const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await ask(constraints);
      window.mgStreams.push(stream);
      return stream;
    };
  }
  if (globalThis.AudioWorklet) {
    const add = AudioWorklet.prototype.addModule;
    AudioWorklet.prototype.addModule = function (...args) {
      return add.apply(this, args).then(
        (done) => { window.mgWorklets.push("loaded"); return done; },
        (error) => { window.mgWorklets.push(String(error)); throw error; });
    };
  }
  window.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      sessionStorage.setItem("mg-live-when-hidden", String(live()));
    }
  });
})();
"""

HIDE_JS = """(hidden) => {
  if (hidden) {
    Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  } else {
    delete document.visibilityState;  // the browser's own again
  }
  document.dispatchEvent(new Event("visibilitychange", {bubbles: true}));
}"""


def test_the_microphone_in_an_app_listens_while_asked_and_is_released_when_hidden_or_left(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, _ = classroom
    dana = student(browser, server, "Dana", KEEP_MICROPHONE)
    try:
        dana.context.grant_permissions(["microphone"], origin=server.url)
        drill = open_drill(dana)
        page = dana.page
        assert page.evaluate("window.isSecureContext")  # 127.0.0.1 is this computer
        button = drill.locator('.mg-play-input[data-input="microphone"]')
        expect(button).to_be_enabled()
        button.click()
        switch = drill.locator(".mg-play")
        expect(switch).to_have_attribute("data-input", "microphone", timeout=10_000)
        expect(switch).to_have_attribute("data-microphone", "off")  # nothing asked yet
        expect(switch).to_contain_text("Nothing is recorded")
        assert page.evaluate("window.mgStreams.length") == 0
        drill.locator(".mg-practice-start").click()
        expect(switch).to_have_attribute("data-microphone", "on", timeout=10_000)
        assert page.evaluate("window.mgLive()") == 1
        assert page.evaluate("window.mgWorklets") == ["loaded"]  # the worklet, in Voila
        # Hidden (another tab): released; shown again: listening again.
        page.evaluate(HIDE_JS, True)
        expect(switch).to_have_attribute("data-microphone", "off", timeout=5_000)
        assert page.evaluate("window.mgLive()") == 0
        page.evaluate(HIDE_JS, False)
        expect(switch).to_have_attribute("data-microphone", "on", timeout=10_000)
        assert page.evaluate("window.mgLive()") == 1
        # Left (the way back to the start page): released as the page goes.
        page.evaluate("sessionStorage.removeItem('mg-live-when-hidden')")
        page.locator(".musicgames-app-student a").click()
        page.locator("#apps").wait_for()
        assert page.evaluate("sessionStorage.getItem('mg-live-when-hidden')") == "0"
        assert not dana.failures
    finally:
        dana.close()


def test_over_plain_http_from_another_computer_midi_and_the_microphone_say_why(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, folder = classroom
    # Eve chose the microphone on a computer that reaches the class securely…
    eve = student(browser, server, "Eve", "")
    try:
        drill = open_drill(eve)
        drill.locator('.mg-play-input[data-input="microphone"]').click()
        expect(drill.locator(".mg-play")).to_have_attribute("data-input", "microphone")
        wait_until_kept(folder / "eve.sqlite3", '"input": "microphone"')
    finally:
        eve.close()
    # …then opens the note drill from a page reached over plain http on the network.
    elsewhere = Server(f"http://{ELSEWHERE}:{server.port}", server.port, server.process,
                       server.log_path, server.workdir)
    eve = student(browser, elsewhere, "Eve", "")
    try:
        drill = open_drill(eve)
        assert eve.page.evaluate("window.isSecureContext") is False
        switch = drill.locator(".mg-play")
        expect(switch).to_have_attribute("data-input", "microphone")
        # Not "this browser has no Web MIDI": the page is what lacks, and how to reach one.
        for kind, key in (("midi", "play.midi.insecure"), ("microphone", "play.mic.insecure")):
            button = drill.locator(f'.mg-play-input[data-input="{kind}"]')
            expect(button).to_be_disabled()
            expect(button).to_have_attribute("title", text(key, "en"))
        expect(switch).to_have_attribute("data-microphone", "insecure")
        expect(drill.locator(".mg-play-status")).to_contain_text(text("play.mic.insecure", "en"))
        drill.locator(".mg-practice-start").click()  # a question waits: still nothing asked
        expect(drill.locator(".mg-practice-count")).to_have_text("Question 1 of 20")
        expect(switch).to_have_attribute("data-microphone", "insecure")
        assert not eve.failures
    finally:
        eve.close()
