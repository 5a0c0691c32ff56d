"""A plain page on 127.0.0.1 that runs the widgets' microphone code on test audio.

The page loads the microphone's script as the widgets join it (``vendor/fft.js``,
``vendor/pitchy.js``, ``_microphone.js``) and nothing else; the test audio
(:mod:`tests.audio_samples`) is served next to it under ``/audio/<file name>``.
:data:`ANALYSE_JS` decodes a WAV and feeds it to ``MicPitchTracker`` (straight, or through the
microphone's AudioWorklet in an OfflineAudioContext) and returns the notes it named;
:func:`score` compares them with the notes the take played.

Used by ``tests/browser/test_microphone_browser.py`` and ``benchmarks/bench_pitch.py``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from musicgames.widgets._assets import joined

SCRIPTS = ("vendor/fft.js", "vendor/pitchy.js", "_microphone.js")

PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>microphone</title>
<script src="/microphone.js"></script></head><body><p>listening test page</p></body></html>
"""

#: ``({url, options, worklet}) -> {notes: [{midi, at, cents, clarity}], frames, kind}``.
ANALYSE_JS = """async ({url, options, worklet}) => {
  const data = await (await fetch(url)).arrayBuffer();
  const buffer = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(data);
  const notes = [];
  let frames = 0;
  const tracker = new MicPitchTracker(buffer.sampleRate, Object.assign({}, options, {
    onNote: (midi, info) => notes.push(Object.assign({midi}, info)),
    onHeard: () => { frames += 1; },
  }));
  if (!worklet) {
    tracker.push(buffer.getChannelData(0));
    return {notes, frames, kind: "direct"};
  }
  const offline = new OfflineAudioContext(1, buffer.length, buffer.sampleRate);
  const source = offline.createBufferSource();
  source.buffer = buffer;
  let blocks = 0;
  const tap = await micTap(offline, source, (block) => { blocks += 1; tracker.push(block); });
  source.start(0);
  await offline.startRendering();
  const expected = Math.floor(buffer.length / MIC_HOP);
  const until = performance.now() + 10000;
  while (blocks < expected && performance.now() < until) {
    await new Promise((done) => setTimeout(done, 10));
  }
  tap.close();
  return {notes, frames, kind: tap.kind, blocks, expected};
}"""


@dataclass
class Score:
    """How a take was heard: one entry per note played."""

    right: int = 0
    missed: int = 0
    wrong: list[tuple[float, int, int | None]] = field(default_factory=list)  # (at, named, played)
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.right + self.missed


def score(onsets: Sequence[tuple[float, int]], named: Sequence[dict[str, Any]]) -> Score:
    """Compare the notes named (``{midi, at}``) with the notes played (``(onset, midi)``).

    A named note belongs to the last note begun before it; it is wrong unless it is that
    note (the exact MIDI number: an octave off is wrong), or when no note has begun yet. A
    note played is right when the first note named for it is it; the latency is from its
    onset to that answer.

    >>> s = score([(0.5, 60), (2.0, 62)], [{"midi": 60, "at": 0.6}, {"midi": 61, "at": 2.1}])
    >>> s.right, s.missed, s.wrong, [round(x) for x in s.latencies_ms]
    (1, 1, [(2.1, 61, 62)], [100])
    """
    result = Score()
    answered: set[int] = set()
    for note in named:
        index = max((i for i, (at, _) in enumerate(onsets) if at <= note["at"]), default=None)
        played = None if index is None else onsets[index][1]
        if note["midi"] != played:
            result.wrong.append((round(note["at"], 3), note["midi"], played))
        elif index is not None and index not in answered:
            answered.add(index)
            result.right += 1
            result.latencies_ms.append((note["at"] - onsets[index][0]) * 1000)
    result.missed = len(onsets) - result.right
    return result


@contextlib.contextmanager
def serve(audio_folder: Path) -> Iterator[str]:
    """Serve the page, its script and ``audio_folder``'s files on 127.0.0.1; yields the URL."""
    script = joined(*SCRIPTS).encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                body, kind = PAGE, "text/html"
            elif path == "/microphone.js":
                body, kind = script, "text/javascript"
            elif path.startswith("/audio/") and "/" not in path[7:]:
                file = audio_folder / path[7:]
                if not file.is_file():
                    self.send_error(404)
                    return
                body, kind = file.read_bytes(), "audio/wav"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
