"""Sound in the real page (JupyterLab): what the widgets play, checked by ear and by FFT.

* Every one of the 15 card notes and every tone of the 24 triads, as the widgets ask for them
  (``musicgames.sound``), rendered by the page's own synthesiser in an OfflineAudioContext,
  sounds within 5 cents of its equal-tempered frequency (A4 = 440 Hz); and the tone is not a
  bare sine (it has overtones) and dies away (an envelope).
* Nothing sounds before the first click, and the widgets say so; after it the drill plays the
  note after an answer and the ear quiz plays its chord; the mute button silences a widget,
  and is remembered for the session.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server, new_lab_page, open_notebook, run_notebook_again

pytestmark = pytest.mark.browser

NOTEBOOK = "tests/browser/sound.ipynb"
RATE = 16000
SECONDS = 0.6
CENTS = 5.0

_SOUNDS = """
import json
from musicgames import ALL_TRIADS, CARD_NOTES
from musicgames.sound import chord, notes
print(json.dumps([{"midi": [n.midi], "sound": notes([n])} for n in CARD_NOTES]
                 + [{"midi": [n.midi for n in t.tones], "sound": chord(t)} for t in ALL_TRIADS]))
"""

_LEVEL = """() => {
  const analyser = globalThis.musicgamesSound.analyser;
  const data = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(data);
  return Math.max(...data.map(Math.abs));
}"""


@pytest.fixture(scope="module")
def sound_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page for the module, the notebook opened in it once (a Lab page and its
    kernel take seconds to start); see :func:`sound_page`."""
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, NOTEBOOK)
        page.mg_as_opened = True
        yield page


@pytest.fixture
def sound_page(sound_lab: Any) -> Any:
    """The module's page as a new one shows it: the notebook run again (fresh widgets, no
    sound unlocked, nothing kept for the tab) unless no test has used it yet."""
    if not sound_lab.mg_as_opened:
        run_notebook_again(sound_lab)
    sound_lab.mg_as_opened = False
    return sound_lab


def _equal_tempered(midi: int) -> float:
    return 440.0 * 2 ** ((midi - 69) / 12)


def _peak_near(spectrum: np.ndarray, hz: float, n_fft: int) -> float:
    """The frequency of the strongest peak within 50 cents of ``hz`` (parabolic fit)."""
    low = int(hz * 2 ** (-50 / 1200) * n_fft / RATE)
    high = int(hz * 2 ** (50 / 1200) * n_fft / RATE) + 1
    k = low + int(np.argmax(spectrum[low:high]))
    a, b, c = np.log(spectrum[k - 1 : k + 2] + 1e-30)
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + offset) * RATE / n_fft


def test_every_card_note_and_triad_tone_sounds_within_5_cents(
    sound_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = sound_page
    expect(page.locator(".mg-test-sound-drill .mg-drill")).to_be_visible()
    wanted = json.loads(kernel_execute(page, _SOUNDS))
    assert len(wanted) == 15 + 24
    rendered = page.evaluate(
        """async ([sounds, seconds, rate]) => {
          const render = globalThis.musicgamesSound.render;
          const out = [];
          for (const s of sounds) out.push(await render(s, seconds, rate));
          return out;
        }""",
        [[w["sound"] for w in wanted], SECONDS, RATE],
    )
    n_fft = 1 << 17
    worst = 0.0
    for item, samples in zip(wanted, rendered, strict=True):
        x = np.asarray(samples)
        assert x.size == int(SECONDS * RATE) and np.abs(x).max() > 0.05
        spectrum = np.abs(np.fft.rfft(x * np.hanning(x.size), n_fft))
        for midi in item["midi"]:
            target = _equal_tempered(midi)
            heard = _peak_near(spectrum, target, n_fft)
            cents = 1200 * math.log2(heard / target)
            worst = max(worst, abs(cents))
            assert abs(cents) < CENTS, f"MIDI {midi}: {heard:.2f} Hz for {target:.2f} Hz"
        if len(item["midi"]) == 1:  # a single note: overtones, and an envelope
            f0 = _equal_tempered(item["midi"][0])
            if 2 * f0 < RATE / 2 * 0.9:
                second = _peak_near(spectrum, 2 * f0, n_fft)
                bin2 = int(round(second * n_fft / RATE))
                bin1 = int(round(f0 * n_fft / RATE))
                assert spectrum[bin2] > 0.05 * spectrum[bin1], "a bare sine"
            attack = np.abs(x[: RATE // 20]).max()
            tail = np.abs(x[-RATE // 20 :]).max()
            assert tail < 0.6 * attack, "the tone does not die away"
    print(f"\nworst pitch error over 15 notes and 72 triad tones: {worst:.3f} cents")


def test_sound_waits_for_the_first_click_plays_answers_and_mutes(
    sound_page: Any,
    kernel_execute: Callable[[Any, str], str],
) -> None:
    page = sound_page
    drill = page.locator(".mg-test-sound-drill .mg-drill")
    quiz = page.locator(".mg-test-sound-quiz .mg-quiz")
    expect(drill).to_be_visible()
    # Before any click: no audio context, and each widget says sound waits for a click.
    assert page.evaluate("globalThis.musicgamesSound.context") is None
    for widget in (drill, quiz):
        expect(widget.locator(".mg-sound-note")).to_have_text(
            "Sound starts after your first click (browsers ask for one)."
        )

    # The first click of all is on the lower widget: the notes going away must not move
    # its Start button from under the click. The ear quiz plays its chord as it asks.
    quiz.locator(".mg-practice-start").click()
    expect(quiz.locator(".mg-quiz-choice")).to_have_count(2)
    expect(quiz.locator(".mg-practice-staff")).to_be_hidden()
    expect(drill.locator(".mg-sound-note")).to_be_hidden()  # the note is said once, for all
    expect(quiz.locator(".mg-sound-note")).to_be_hidden()
    chord = json.loads(
        kernel_execute(page, "import json; print(json.dumps([n.midi for n in quiz.current.tones]))")
    )
    starts = page.evaluate("globalThis.musicgamesSound.starts")
    assert [s["name"] for s in starts] == ["mg-quiz"]
    assert starts[0]["hz"] == [round(_equal_tempered(m), 2) for m in chord]
    assert starts[0]["broken"] is False
    quiz.locator(".mg-quiz-hear-broken").click()
    last = page.evaluate("globalThis.musicgamesSound.starts.at(-1)")
    assert last["broken"] is True and last["name"] == "mg-quiz"
    page.keyboard.press("h")  # the quiz has the focus: H plays the chord together again
    assert page.evaluate("globalThis.musicgamesSound.starts.length") == 3
    assert page.evaluate("globalThis.musicgamesSound.starts.at(-1)")["broken"] is False

    # The drill (staff) is silent as it asks, and plays the note after the answer.
    drill.locator(".mg-practice-start").click()
    expect(drill.locator(".mg-practice-count")).to_have_text("Question 1 of 6")
    assert page.evaluate("globalThis.musicgamesSound.starts.length") == 3
    page.wait_for_timeout(1500)  # the quiz's chords have died away
    drill.locator(".mg-drill-name").first.click()
    expect(drill.locator(".mg-practice-feedback")).not_to_be_empty()
    note = kernel_execute(page, "print(drill.current.midi)").strip()
    last = page.evaluate("globalThis.musicgamesSound.starts.at(-1)")
    assert last["name"] == "mg-drill"
    assert last["hz"] == [round(_equal_tempered(int(note)), 2)]
    page.wait_for_timeout(150)
    assert page.evaluate(_LEVEL) > 0.01  # it is heard

    # Muted, the drill plays nothing, and the setting is kept for the session.
    drill.locator(".mg-sound-mute").click()
    expect(drill.locator(".mg-sound-mute")).to_have_attribute("aria-pressed", "true")
    expect(drill.locator(".mg-practice-count")).to_have_text("Question 2 of 6", timeout=10_000)
    page.wait_for_timeout(1500)  # the first note has died away
    drill.locator(".mg-drill-name").first.click()
    expect(drill.locator(".mg-practice-feedback")).not_to_be_empty()
    page.wait_for_timeout(150)
    assert page.evaluate("globalThis.musicgamesSound.starts.length") == 4  # nothing started
    assert page.evaluate(_LEVEL) < 1e-4
    assert json.loads(page.evaluate("sessionStorage.getItem('musicgames.sound.mg-drill')")) == {
        "volume": 0.8,
        "muted": True,
    }
