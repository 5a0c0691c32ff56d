"""Answering by playing, in JupyterLab (issue 22): a MIDI keyboard drives the note drill, the
chord quiz and a lesson's exercise; the microphone answers a drill question.

The browser's MIDI is replaced, before the page loads, by a stand-in for
``navigator.requestMIDIAccess`` (an init script) whose keyboards send real MIDI byte
messages (``Uint8Array [0x90, 67, 100]`` …) to the page's ``midimessage`` listeners, and
can be plugged in and out while the page is open (``statechange``). Two keyboards are plugged in
at the start. The tests share one page, opened once; each uses its own widget.

The microphone is Chromium's fake capture (``--use-fake-device-for-media-stream
--use-file-for-fake-audio-capture=FILE.wav``) playing a piano's Do3, rendered from the FluidR3
SoundFont by the tests' audio helper (:mod:`tests.audio_samples`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    CHROMIUM_ARGS,
    NOTEBOOK_TIMEOUT_MS,
    Server,
    new_lab_page,
    open_notebook,
    shut_down_kernels,
)
from tests.browser.fake_midi import FAKE_MIDI, listened_keyboard, send_midi

pytestmark = pytest.mark.browser

NOTEBOOK = "tests/browser/playing.ipynb"

NO_MIDI = "delete Navigator.prototype.requestMIDIAccess;"




@pytest.fixture(scope="module")
def page(browser: Any, lab_server: Server) -> Iterator[Any]:
    with new_lab_page(browser, lab_server, FAKE_MIDI) as page:
        open_notebook(page, NOTEBOOK)
        yield page


def results(page: Any, kernel_execute: Callable[[Any, str], str], name: str) -> str:
    return kernel_execute(
        page, f"print([(r.answer, r.correct) for r in {name}.session.results])"
    ).strip()


def next_question(page: Any, widget: Any, number: int) -> None:
    """Enter, with the focus on the widget (not on one of its menus): the next question."""
    widget.evaluate("node => node.focus()")
    page.keyboard.press("Enter")
    expect(widget.locator(".mg-practice-count")).to_have_text(f"Question {number} of 20",
                                                              timeout=5_000)
    page.wait_for_timeout(200)  # the question painted: answers count from then


def start_with_midi(page: Any, selector: str) -> Any:
    widget = page.locator(f"{selector} .mg-practice")
    widget.locator('.mg-play-input[data-input="midi"]').click()
    expect(widget.locator(".mg-play")).to_have_attribute("data-midi", "on", timeout=10_000)
    widget.locator(".mg-practice-start").click()
    expect(widget.locator(".mg-practice-count")).to_have_text("Question 1 of 20", timeout=10_000)
    page.wait_for_timeout(200)  # the question painted: answers count from then
    return widget


def test_a_midi_note_on_answers_the_drill_as_a_click_on_that_key(
    page: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    """Note-on (0x90) answers; a note-on of velocity 0 and a note-off (0x80) are releases
    and answer nothing; 67 = Sol3; the keyboard shows the key played; the student's choice
    of input is kept in their progress file."""
    widget = start_with_midi(page, ".mg-test-midi-drill")
    # Two keyboards: a list to choose from, the first listened to.
    device = widget.locator(".mg-play-device")
    expect(device).to_be_visible()
    assert device.locator("option").all_text_contents() == ["Keys A", "Keys B"]
    expect(widget.locator(".mg-play-status")).to_contain_text("Listening to Keys A.")

    send_midi(page, "a", [0x90, 65, 0], [0x80, 65, 64], [0x91, 64, 0])  # releases only
    page.wait_for_timeout(500)
    assert results(page, kernel_execute, "drill") == "[]"
    send_midi(page, "a", [0x90, 67, 100])  # Sol3
    feedback = widget.locator(".mg-practice-feedback")
    expect(feedback).to_contain_text("Right", timeout=5_000)
    assert results(page, kernel_execute, "drill") == "[('Sol3', True)]"
    expect(widget.locator('.mg-key.mg-played[data-key="7"]')).to_have_count(1)
    kept = kernel_execute(page, "print(store.setting('playing'))")
    assert '"input": "midi"' in kept

    # The next question: a wrong note (Fa3) is explained as a wrong click is.
    next_question(page, widget, 2)
    send_midi(page, "a", [0x80, 67, 0], [0x90, 65, 90])
    expect(feedback).to_contain_text("Not quite", timeout=5_000)
    expect(widget.locator(".mg-practice-why")).to_contain_text("Fa3")
    expect(widget.locator('.mg-key.mg-wrong[data-key="5"]')).to_have_count(1)


def test_the_chosen_keyboard_is_remembered_by_name_and_plugging_is_seen(
    page: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    """Two keyboards: only the chosen one answers, and it is remembered by its name;
    keyboards plugged in or out while the page is open show at once (onstatechange)."""
    widget = page.locator(".mg-test-midi-drill .mg-practice")
    next_question(page, widget, 3)
    widget.locator(".mg-play-device").select_option("Keys B")
    expect(widget.locator(".mg-play-status")).to_contain_text("Listening to Keys B.")
    assert page.evaluate("localStorage.getItem('musicgames.midi.device')") == "Keys B"
    send_midi(page, "a", [0x90, 67, 100])  # the keyboard not chosen
    page.wait_for_timeout(500)
    assert results(page, kernel_execute, "drill").count("Sol3") == 1
    page.evaluate("window.mgMidi.unplug('b')")
    expect(widget.locator(".mg-play-status")).to_contain_text("Listening to Keys A.")
    expect(widget.locator(".mg-play-device")).to_be_hidden()  # one keyboard: no list
    page.evaluate("window.mgMidi.plug('c', 'Keys C')")
    expect(widget.locator(".mg-play-device option")).to_have_count(2)
    page.evaluate("window.mgMidi.plug('b2', 'Keys B')")  # back, under another id
    expect(widget.locator(".mg-play-status")).to_contain_text("Listening to Keys B.")
    send_midi(page, "b2", [0x90, 67, 100])
    expect(widget.locator(".mg-practice-feedback")).to_contain_text("Right", timeout=5_000)
    assert results(page, kernel_execute, "drill").count("Sol3") == 2


def test_nothing_is_answered_while_the_page_is_hidden(
    page: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    widget = page.locator(".mg-test-midi-drill .mg-practice")
    next_question(page, widget, 4)
    before = results(page, kernel_execute, "drill")
    keys = listened_keyboard(page)
    page.evaluate("window.mgHidden = true")
    send_midi(page, keys, [0x90, 67, 100])
    page.wait_for_timeout(500)
    assert results(page, kernel_execute, "drill") == before
    page.evaluate("window.mgHidden = false")
    send_midi(page, keys, [0x80, 67, 0], [0x90, 67, 100])
    expect(widget.locator(".mg-practice-feedback")).to_contain_text("Right", timeout=5_000)


def test_a_chord_counts_when_its_tones_sound_together_the_pedal_holding_them(
    page: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    """Chord quiz: three tones struck within the window (~300 ms), any octave and voicing,
    all still sounding — held, or kept by the sustain pedal (control change 64)."""
    widget = start_with_midi(page, ".mg-test-midi-quiz")
    keys = listened_keyboard(page)
    # Do and Mi struck and let go before Sol, no pedal: no chord.
    send_midi(page, keys, [0x90, 48, 90], [0x80, 48, 0], [0x90, 76, 90], [0x90, 76, 0],
         [0x90, 67, 90])
    page.wait_for_timeout(600)
    assert results(page, kernel_execute, "quiz") == "[]"
    send_midi(page, keys, [0x80, 67, 0])
    # Struck too far apart (more than the window): no chord.
    send_midi(page, keys, [0x90, 48, 90], [0x90, 64, 90])
    page.wait_for_timeout(450)
    send_midi(page, keys, [0x90, 79, 90])
    page.wait_for_timeout(400)
    assert results(page, kernel_execute, "quiz") == "[]"
    send_midi(page, keys, [0x80, 48, 0], [0x80, 64, 0], [0x80, 79, 0])
    # The pedal down: Do and Mi let go still sound when Sol comes.
    send_midi(page, keys, [0xB0, 64, 127], [0x90, 48, 90], [0x80, 48, 0], [0x90, 76, 90],
         [0x80, 76, 0], [0x90, 67, 90])
    expect(widget.locator(".mg-practice-feedback")).to_contain_text("Right", timeout=5_000)
    assert results(page, kernel_execute, "quiz") == "[('C G E', True)]"  # low to high
    send_midi(page, keys, [0xB0, 64, 0], [0x80, 67, 0])
    # A wrong chord (Do Mib Sol) struck together: judged wrong, its wrong key shown.
    next_question(page, widget, 2)
    send_midi(page, keys, [0x90, 60, 90], [0x90, 63, 90], [0x90, 67, 90])
    expect(widget.locator(".mg-practice-feedback")).to_contain_text("Not quite", timeout=5_000)
    expect(widget.locator('.mg-key.mg-wrong[data-key="3"]')).to_have_count(1)


def test_a_lesson_question_is_answered_by_playing(
    page: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    exercise = page.locator(".mg-test-midi-lesson")
    exercise.locator('.mg-play-input[data-input="midi"]').click()
    expect(exercise.locator(".mg-play")).to_have_attribute("data-midi", "on", timeout=10_000)
    send_midi(page, listened_keyboard(page), [0x90, 79, 100])  # Sol4: the names carry no octave
    expect(exercise.locator(".mg-exercise-feedback")).to_contain_text("Right", timeout=5_000)
    assert kernel_execute(page, "print(exercise.correct)") == "True\n"


def test_without_web_midi_the_option_is_off_and_says_why(
    browser: Any, lab_server: Server
) -> None:
    with new_lab_page(browser, lab_server, NO_MIDI) as page:
        open_notebook(page, NOTEBOOK)
        button = page.locator('.mg-test-midi-drill .mg-play-input[data-input="midi"]')
        expect(button).to_be_disabled()
        assert "No Web MIDI" in (button.get_attribute("title") or "")


def test_the_microphone_answers_a_drill_question_and_is_released_after(
    browser: Any, lab_server: Server, chromium_path: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    audio_samples = pytest.importorskip("tests.audio_samples")
    reason = audio_samples.missing()
    if reason:
        pytest.skip(reason)
    take = audio_samples.render_take("piano", [60])
    args = [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={take.path}",
        "--autoplay-policy=no-user-gesture-required",
    ]
    listening = browser.browser_type.launch(
        executable_path=str(chromium_path), headless=True, args=args
    )
    try:
        context = listening.new_context(base_url=lab_server.url,
                                        viewport={"width": 1400, "height": 1000},
                                        permissions=["microphone"])
        page = context.new_page()
        page.set_default_timeout(NOTEBOOK_TIMEOUT_MS)
        open_notebook(page, NOTEBOOK)
        widget = page.locator(".mg-test-mic-drill .mg-practice")
        widget.scroll_into_view_if_needed()
        widget.locator('.mg-play-input[data-input="microphone"]').click()
        switch = widget.locator(".mg-play")
        expect(switch).to_have_attribute("data-input", "microphone", timeout=10_000)
        expect(switch).to_have_attribute("data-microphone", "off")  # nothing asked yet
        expect(switch).to_contain_text("Nothing is recorded")
        widget.locator(".mg-practice-start").click()
        feedback = widget.locator(".mg-practice-feedback")
        expect(feedback).to_contain_text("Right", timeout=30_000)
        done = kernel_execute(page, "print([(r.answer, r.correct) for r in mic.session.results])")
        assert done == "[('Do3', True)]\n"
        # The session over (one question), the microphone is released.
        expect(widget.locator(".mg-practice-summary")).to_be_visible(timeout=10_000)
        expect(switch).to_have_attribute("data-microphone", "off", timeout=5_000)
        shut_down_kernels(page)
        context.close()
    finally:
        listening.close()
