"""Test audio for listening to notes: real instrument samples, rendered when a test asks.

The instruments are the General MIDI sounds of the FluidR3 SoundFont, played by FluidSynth
(Debian packages ``fluidsynth`` and ``fluid-soundfont-gm``; ``make test`` installs them as it
does Chromium). A *take* is one instrument playing notes one after another, each held
:data:`NOTE_S` seconds with :data:`GAP_S` of rest between them, after :data:`LEAD_S` of
silence; the MIDI file is written here with the standard library. Takes can have white noise
added at a signal-to-noise ratio (the signal's power measured while its notes are held).
:func:`silence` and :func:`speech_like_noise` are sounds that must name no note.

Everything is a 16-bit mono WAV at :data:`RATE` Hz, made once per test session in a
temporary folder and reused (the benchmark ``benchmarks/bench_pitch.py`` uses them too)::

    take = render_take("violin", [60, 64, 67], snr_db=20)
    take.path, take.onsets        # the WAV, and [(seconds, midi), ...] when each note starts
    render_takes([("flute", [60]), ("choir", [72])])   # several, in one FluidSynth run
"""

from __future__ import annotations

import atexit
import shutil
import struct
import subprocess
import tempfile
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

FLUIDSYNTH = "fluidsynth"
SOUNDFONT = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
PACKAGES = "fluidsynth fluid-soundfont-gm"

#: The General MIDI programs (numbered from 0) of the instruments the tests play.
INSTRUMENTS = {
    "piano": 0,  # Acoustic Grand Piano
    "violin": 40,
    "choir": 52,  # Choir Aahs
    "trumpet": 56,
    "clarinet": 71,
    "flute": 73,
    "recorder": 74,
}
#: Do3 to Do5 (MIDI 60–84), every semitone.
NOTES = tuple(range(60, 85))
RATE = 48000
LEAD_S = 0.5
NOTE_S = 1.0
GAP_S = 0.5
TAIL_S = 1.0  # after a take's last note, for it to die away
PEAK = 0.5  # each take is scaled so that its loudest sample is this (−6 dBFS)


@dataclass(frozen=True)
class Take:
    """A WAV file and the notes in it: ``onsets`` is ``[(seconds, midi), ...]``."""

    path: Path
    onsets: tuple[tuple[float, int], ...]
    instrument: str
    snr_db: float | None


def missing() -> str | None:
    """Why takes cannot be rendered here (FluidSynth or the SoundFont missing), or None."""
    if shutil.which(FLUIDSYNTH) is None or not SOUNDFONT.exists():
        return (
            f"the test audio needs FluidSynth and the FluidR3 SoundFont ({SOUNDFONT}): "
            f"install the Debian packages {PACKAGES} (make test does)"
        )
    return None


@cache
def _folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="musicgames-audio-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _variable_length(value: int) -> bytes:
    """A MIDI file's variable-length number.

    >>> _variable_length(0), _variable_length(200).hex()
    (b'\\x00', '8148')
    """
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def midi_file(
    parts: Sequence[tuple[int, Sequence[int]]],
    velocity: int = 100,
    note_s: float = NOTE_S,
    gap_s: float = GAP_S,
) -> bytes:
    """A standard MIDI file (format 0) playing each part ``(program, notes)`` on a channel of
    its own, one part after the other: each starts with :data:`LEAD_S` of rest, plays its
    notes one after another, each held ``note_s`` seconds with ``gap_s`` between them, and
    ends with :data:`TAIL_S` for the last to die away (see :func:`part_seconds`).

    The tempo makes one tick one millisecond (480 ticks a beat of 480,000 µs).

    >>> data = midi_file([(0, [60]), (40, [62, 64])])
    >>> data[:4], data[14:18], data.count(bytes([0xC1, 40]))
    (b'MThd', b'MTrk', 1)
    """
    timed: list[tuple[int, bytes]] = [(0, b"\xff\x51\x03" + (480_000).to_bytes(3, "big"))]
    start = 0.0
    for channel, (program, notes) in enumerate(parts):
        assert channel < 9, "channel 10 is the drums"
        timed.append((round(start * 1000), bytes([0xC0 | channel, program])))
        for at, note in onsets(notes, note_s, gap_s):
            timed.append((round((start + at) * 1000), bytes([0x90 | channel, note, velocity])))
            timed.append((round((start + at + note_s) * 1000), bytes([0x80 | channel, note, 0])))
        start += part_seconds(notes, note_s, gap_s)
    timed.append((round(start * 1000), b"\xff\x2f\x00"))
    events = bytearray()
    now = 0
    for at, event in sorted(timed, key=lambda item: item[0]):  # stable: in the order made
        events += _variable_length(at - now) + event
        now = at
    header = b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480)
    return header + b"MTrk" + struct.pack(">I", len(events)) + bytes(events)


def part_seconds(notes: Sequence[int], note_s: float = NOTE_S, gap_s: float = GAP_S) -> float:
    """How long a take of ``notes`` lasts, its lead and tail included.

    >>> part_seconds([60, 62], 1.0, 0.5)
    4.5
    """
    return LEAD_S + len(notes) * (note_s + gap_s) + TAIL_S


def onsets(
    notes: Sequence[int], note_s: float = NOTE_S, gap_s: float = GAP_S
) -> tuple[tuple[float, int], ...]:
    """When each note of a take starts (seconds) and which it is.

    >>> onsets([60, 62])
    ((0.5, 60), (2.0, 62))
    """
    return tuple((LEAD_S + i * (note_s + gap_s), note) for i, note in enumerate(notes))


def read_wav(path: Path) -> np.ndarray:
    """A 16-bit WAV's samples as floats in −1…1, mono (the channels averaged)."""
    with wave.open(str(path), "rb") as wav:
        channels = wav.getnchannels()
        assert wav.getsampwidth() == 2, f"{path}: not 16-bit"
        data = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return data.reshape(-1, channels).mean(axis=1) / 32768.0


def write_wav(path: Path, samples: np.ndarray) -> Path:
    """Write ``samples`` (−1…1) as a 16-bit mono WAV at :data:`RATE`."""
    pcm = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(pcm.tobytes())
    return path


_clean_takes: dict[tuple[str, tuple[int, ...], float, float], np.ndarray] = {}


def _render(parts: Sequence[tuple[str, tuple[int, ...]]], note_s: float, gap_s: float) -> None:
    """Render the takes ``(instrument, notes)`` not rendered yet, all in one FluidSynth run
    (which loads the SoundFont once), each scaled to :data:`PEAK`."""
    todo = [part for part in dict.fromkeys(parts) if (*part, note_s, gap_s) not in _clean_takes]
    if not todo:
        return
    reason = missing()
    if reason:
        raise RuntimeError(reason)
    name = f"render-{len(_clean_takes)}"
    midi_path = _folder() / f"{name}.mid"
    raw = _folder() / f"{name}.raw.wav"
    programs = [(INSTRUMENTS[instrument], notes) for instrument, notes in todo]
    midi_path.write_bytes(midi_file(programs, note_s=note_s, gap_s=gap_s))
    subprocess.run(
        [FLUIDSYNTH, "-n", "-i", "-q", "-C", "0", "-r", str(RATE), "-T", "wav", "-O", "s16",
         "-F", str(raw), str(SOUNDFONT), str(midi_path)],
        check=True, capture_output=True, timeout=300,
    )
    samples = read_wav(raw)
    raw.unlink()
    start = 0.0
    for instrument, notes in todo:
        length = part_seconds(notes, note_s, gap_s)
        piece = samples[round(start * RATE) : round((start + length) * RATE)]
        piece = np.pad(piece, (0, round(length * RATE) - piece.size))
        _clean_takes[instrument, notes, note_s, gap_s] = piece * (
            PEAK / max(float(np.abs(piece).max()), 1e-9)
        )
        start += length


def _held_power(samples: np.ndarray, starts: Sequence[tuple[float, int]], note_s: float) -> float:
    """The mean power of ``samples`` while the take's notes are held."""
    spans = [samples[round(at * RATE) : round((at + note_s) * RATE)] for at, _ in starts]
    return float(np.mean(np.concatenate(spans) ** 2))


def render_takes(
    plan: Sequence[tuple[str, Sequence[int]]],
    snr_db: float | None = None,
    seed: int = 1,
    note_s: float = NOTE_S,
    gap_s: float = GAP_S,
) -> list[Take]:
    """A take of each ``(instrument, notes)`` of ``plan`` (see :func:`render_take`), rendered
    together."""
    parts = [(instrument, tuple(notes)) for instrument, notes in plan]
    _render(parts, note_s, gap_s)
    return [_take(*part, snr_db, seed, note_s, gap_s) for part in parts]


def render_take(
    instrument: str,
    notes: Sequence[int] = NOTES,
    snr_db: float | None = None,
    seed: int = 1,
    note_s: float = NOTE_S,
    gap_s: float = GAP_S,
) -> Take:
    """``instrument`` (a key of :data:`INSTRUMENTS`) playing ``notes``, each held ``note_s``
    seconds with ``gap_s`` between them, with white noise at ``snr_db`` decibels below the
    notes' power when given (seeded)."""
    return render_takes([(instrument, notes)], snr_db, seed, note_s, gap_s)[0]


@cache
def _take(
    instrument: str,
    notes: tuple[int, ...],
    snr_db: float | None,
    seed: int,
    note_s: float,
    gap_s: float,
) -> Take:
    samples = _clean_takes[instrument, notes, note_s, gap_s]
    starts = onsets(notes, note_s, gap_s)
    name = f"{instrument}-{'-'.join(map(str, notes))}-{note_s:g}-{gap_s:g}"
    if snr_db is not None:
        noise_power = _held_power(samples, starts, note_s) / 10 ** (snr_db / 10)
        noise = np.random.default_rng(seed).normal(0.0, noise_power**0.5, samples.size)
        samples = samples + noise
        name += f"-snr{snr_db:g}"
    path = write_wav(_folder() / f"{name}.wav", samples)
    return Take(path, starts, instrument, snr_db)


@cache
def silence(seconds: float = 4.0) -> Path:
    """Digital silence."""
    return write_wav(_folder() / f"silence-{seconds:g}.wav", np.zeros(round(seconds * RATE)))


@cache
def white_noise(seconds: float = 4.0, level: float = 0.1, seed: int = 2) -> Path:
    """White noise of RMS ``level`` (a fan, hiss): no note."""
    samples = np.random.default_rng(seed).normal(0.0, level, round(seconds * RATE))
    return write_wav(_folder() / f"white-{seconds:g}-{seed}.wav", samples)


@cache
def speech_like_noise(seconds: float = 6.0, level: float = 0.1, seed: int = 3) -> Path:
    """Pink noise (power falling 3 dB an octave, as speech's does) cut into syllables of
    80–300 ms at about four a second, with pauses, at RMS ``level`` while it sounds."""
    rng = np.random.default_rng(seed)
    size = round(seconds * RATE)
    spectrum = np.fft.rfft(rng.normal(size=size))
    hz = np.fft.rfftfreq(size, 1 / RATE)
    spectrum[1:] /= np.sqrt(hz[1:])
    spectrum[0] = 0
    pink = np.fft.irfft(spectrum, size)
    envelope = np.zeros(size)
    at = 0.1
    while at < seconds:
        length = rng.uniform(0.08, 0.3)
        start, stop = round(at * RATE), min(size, round((at + length) * RATE))
        envelope[start:stop] = np.sin(np.linspace(0, np.pi, stop - start)) * rng.uniform(0.4, 1)
        pause = rng.uniform(0.3, 0.6) if rng.random() < 0.2 else 0.0  # between words
        at += length + rng.uniform(0.03, 0.25) + pause
    samples = pink * envelope
    samples *= level / np.sqrt(np.mean(samples[envelope > 0.2] ** 2))
    return write_wav(_folder() / f"speech-like-{seconds:g}-{seed}.wav", samples)
