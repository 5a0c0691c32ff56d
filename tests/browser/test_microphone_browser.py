"""Listening through the microphone (``musicgames/widgets/_microphone.js``), in Chromium.

The sounds are real instrument samples (:mod:`tests.audio_samples`: FluidSynth and the FluidR3
General MIDI SoundFont). A plain page on 127.0.0.1 (:mod:`tests.browser.pitch_page`) loads
the microphone's script as the widgets join it.

* A sample of Do3–Do5 on piano, flute, violin, clarinet, trumpet, recorder and choir "aah",
  clean and with white noise at 20 dB signal-to-noise, fed to the pitch tracker: the notes
  are named right (≥ 97 % clean, ≥ 90 % noisy) and no wrong note is ever named.
* Silence, white noise and speech-like noise name no note.
* The microphone's AudioWorklet (in an OfflineAudioContext) hands the tracker every sample,
  and it names what the tracker named from the samples themselves.
* A4 from 415 to 446 Hz; how far off a note is, in cents and in words; while told to be
  quiet (the page plays a note itself), that note is not named, even once the quiet is over.
* ``startMicrophone`` through getUserMedia, with Chromium's fake capture playing a piano
  take: the notes are named in order; the microphone is asked for without echo
  cancellation, noise suppression or gain control; ``stop()`` and hiding the page stop its
  tracks; a page with no microphone, or a refusal, is reported, not thrown.

The full figures, every note of every instrument: ``benchmarks/bench_pitch.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import audio_samples
from tests.browser.conftest import CHROMIUM_ARGS
from tests.browser.pitch_page import ANALYSE_JS, score, serve

pytestmark = pytest.mark.browser

#: The sample: each instrument plays every seventh note of Do3–Do5 (the seven together play
#: each note once), held 0.6 s with 0.3 s between them.
SAMPLE = {
    name: audio_samples.NOTES[i::7] for i, name in enumerate(audio_samples.INSTRUMENTS)
}
SAMPLE_NOTE_S = 0.6
SAMPLE_GAP_S = 0.3
LIVE_NOTES = (60, 64, 67, 72)


@pytest.fixture(scope="module")
def live_take() -> audio_samples.Take:
    reason = audio_samples.missing()
    if reason:
        pytest.skip(reason)
    return audio_samples.render_take("piano", LIVE_NOTES, note_s=0.5, gap_s=0.25)


@pytest.fixture(scope="module")
def page(chromium_path: Any, live_take: audio_samples.Take) -> Iterator[Any]:
    """The listening page in a Chromium whose microphone plays the piano take (looped)."""
    from playwright.sync_api import sync_playwright

    args = [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={live_take.path}",
        "--autoplay-policy=no-user-gesture-required",
    ]
    with serve(live_take.path.parent) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=args
        )
        context = browser.new_context(permissions=["microphone"])
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(url + "/")
        page.mg_url = url
        yield page
        browser.close()


def _analyse(page: Any, path: Any, worklet: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        ANALYSE_JS, {"url": f"/audio/{path.name}", "options": {}, "worklet": worklet}
    )
    return result


def test_instruments_notes_are_named_right_and_never_wrong_clean_and_at_20_db(
    page: Any,
) -> None:
    for snr_db, at_least in ((None, 0.97), (20.0, 0.90)):
        right = played = 0
        takes = audio_samples.render_takes(
            list(SAMPLE.items()), snr_db=snr_db, note_s=SAMPLE_NOTE_S, gap_s=SAMPLE_GAP_S
        )
        for take in takes:
            heard = score(take.onsets, _analyse(page, take.path)["notes"])
            assert heard.wrong == [], f"{take.instrument} at {snr_db} dB named a wrong note"
            right += heard.right
            played += heard.played
        assert right / played >= at_least, f"{right} of {played} named at SNR {snr_db}"


@pytest.mark.parametrize("sound", ["silence", "white_noise", "speech_like_noise"])
def test_silence_and_noise_name_no_note(page: Any, sound: str) -> None:
    path = getattr(audio_samples, sound)()
    result = _analyse(page, path)
    assert result["notes"] == []
    if sound == "silence":
        assert result["frames"] == 0  # not even a note shown as heard


def test_the_worklet_hands_every_sample_and_hears_what_the_samples_say(page: Any) -> None:
    notes = SAMPLE["clarinet"]
    take = audio_samples.render_take(
        "clarinet", notes, snr_db=20.0, note_s=SAMPLE_NOTE_S, gap_s=SAMPLE_GAP_S
    )
    direct = _analyse(page, take.path)
    through = _analyse(page, take.path, worklet=True)
    assert through["kind"] == "worklet"
    assert through["blocks"] >= through["expected"]
    assert [n["midi"] for n in through["notes"]] == [n["midi"] for n in direct["notes"]]
    assert score(take.onsets, through["notes"]).right >= len(notes) - 1


_SINE_JS = """([hz, a4]) => {
  const rate = 48000;
  const samples = new Float32Array(rate / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = 0.3 * Math.sin(2 * Math.PI * hz * i / rate);
  const notes = [];
  let last = null;
  const tracker = new MicPitchTracker(rate, {a4, onNote: (midi) => notes.push(midi),
    onHeard: (heard) => { if (heard) last = heard; }});
  tracker.push(samples);
  return {notes, last};
}"""


@pytest.mark.parametrize(
    ("hz", "a4", "midi", "cents", "tuning", "named"),
    [
        (415.0, 415, 69, 0.0, "in_tune", True),
        (440.0, 415, 70, 1.3, "in_tune", True),  # A4 = 440 is a semitone above A4 = 415
        (446.0, 446, 69, 0.0, "in_tune", True),
        (261.63 * 2 ** (-20 / 1200), 440, 60, -20.0, "a_little_flat", True),
        (261.63 * 2 ** (30 / 1200), 440, 60, 30.0, "sharp", True),
        (1046.5 * 2 ** (15 / 1200), 440, 84, 15.0, "a_little_sharp", True),
        # Nearly halfway to the next note: shown as heard (sharp), but not named.
        (261.63 * 2 ** (45 / 1200), 440, 60, 45.0, "sharp", False),
    ],
)
def test_a4_sets_equal_temperament_and_cents_say_how_far_off(
    page: Any, hz: float, a4: int, midi: int, cents: float, tuning: str, named: bool
) -> None:
    result = page.evaluate(_SINE_JS, [hz, a4])
    assert result["notes"] == ([midi] if named else [])
    assert result["last"]["midi"] == midi
    assert result["last"]["cents"] == pytest.approx(cents, abs=0.5)
    assert result["last"]["tuning"] == tuning


_QUIET_JS = """(quiet) => {
  const rate = 48000;
  const tone = (hz, seconds) => Float32Array.from(
    {length: rate * seconds}, (_, i) => 0.3 * Math.sin(2 * Math.PI * hz * i / rate));
  const notes = [];
  const tracker = new MicPitchTracker(rate, {onNote: (midi) => notes.push(midi)});
  if (quiet) tracker.quiet(0.5);
  tracker.push(tone(440, 0.8));  // the page's own La3, still sounding when the quiet ends
  tracker.push(new Float32Array(rate / 5));
  tracker.push(tone(523.25, 0.3));  // then a Do4 played
  return notes;
}"""


def test_while_quiet_the_pages_own_sound_is_not_named(page: Any) -> None:
    assert page.evaluate(_QUIET_JS, False) == [69, 72]
    assert page.evaluate(_QUIET_JS, True) == [72]


def test_a4_outside_415_to_446_is_refused(page: Any) -> None:
    for a4 in (414, 447):
        error = page.evaluate(
            "(a4) => startMicrophone({a4}).then(() => 'started', (e) => e.name)", a4
        )
        assert error == "RangeError"


_KEEP_STREAMS_JS = """() => {
  window.mgStreams = [];
  window.mgAsked = [];
  const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    window.mgAsked.push(constraints);
    const stream = await ask(constraints);
    window.mgStreams.push(stream);
    return stream;
  };
}"""

_START_JS = """async () => {
  window.mgNotes = [];
  window.mgEnded = [];
  window.mgStop = await startMicrophone({
    onNote: (midi) => window.mgNotes.push(midi),
    onEnd: (reason) => window.mgEnded.push(reason),
  });
  return window.mgStreams.length;
}"""

_LIVE_TRACKS_JS = (
    "() => window.mgStreams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live')"
    ".length"
)


def _named_in_order(page: Any) -> list[int]:
    page.wait_for_function("window.mgNotes.length >= 3", timeout=20_000)
    named: list[int] = page.evaluate("window.mgNotes")
    cycle = LIVE_NOTES * 3
    assert any(
        tuple(named[:3]) == cycle[i : i + 3] for i in range(len(LIVE_NOTES))
    ), f"named {named}, played {LIVE_NOTES} over and over"
    return named


def test_the_microphone_names_the_notes_played_and_stop_releases_it(page: Any) -> None:
    page.reload()
    page.evaluate(_KEEP_STREAMS_JS)
    assert page.evaluate(_START_JS) == 1
    assert page.evaluate("window.mgStop.kind") == "worklet"
    audio = page.evaluate("window.mgAsked[0].audio")
    assert audio == {
        "echoCancellation": False, "noiseSuppression": False, "autoGainControl": False
    }
    assert page.evaluate(_LIVE_TRACKS_JS) == 1
    _named_in_order(page)
    page.evaluate("window.mgStop()")
    assert page.evaluate(_LIVE_TRACKS_JS) == 0
    count = page.evaluate("window.mgNotes.length")
    page.wait_for_timeout(1200)  # a note or more would have been named by now
    assert page.evaluate("window.mgNotes.length") == count
    assert page.evaluate("window.mgEnded") == []


def test_without_an_audio_worklet_an_analyser_hears_the_same_notes(page: Any) -> None:
    page.reload()
    page.evaluate(_KEEP_STREAMS_JS)
    page.evaluate("() => { window.AudioWorkletNode = undefined; }")
    page.evaluate(_START_JS)
    assert page.evaluate("window.mgStop.kind") == "analyser"
    _named_in_order(page)
    page.evaluate("window.mgStop()")
    assert page.evaluate(_LIVE_TRACKS_JS) == 0


def test_hiding_the_page_releases_the_microphone(page: Any) -> None:
    page.reload()
    page.evaluate(_KEEP_STREAMS_JS)
    page.evaluate(_START_JS)
    assert page.evaluate(_LIVE_TRACKS_JS) == 1
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    assert page.evaluate(_LIVE_TRACKS_JS) == 0
    assert page.evaluate("window.mgEnded") == ["hidden"]


_FAILURE_JS = """async (how) => {
  if (how === 'none') {
    Object.defineProperty(navigator, 'mediaDevices', {value: undefined, configurable: true});
  } else {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('no', how));
  }
  const errors = [];
  const stop = await startMicrophone({onError: (e) => errors.push(e.reason)});
  stop();
  stop.quiet(1);
  const thrown = await startMicrophone({}).then(() => null, (e) => e.reason);
  return {errors, thrown};
}"""


@pytest.mark.parametrize(
    ("how", "reason"),
    [("none", "unsupported"), ("NotAllowedError", "denied"), ("NotFoundError", "no_device")],
)
def test_no_microphone_or_a_refusal_is_reported_not_thrown(
    page: Any, how: str, reason: str
) -> None:
    page.reload()
    assert page.evaluate(_FAILURE_JS, how) == {"errors": [reason], "thrown": reason}
