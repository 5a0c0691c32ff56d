"""How fast the 15 card notes are drawn on a staff.

Prints, per card note: the cold draw (first time in the process), the cached draw, and the
same note drawn the naive way (a music21 stream written to MusicXML, then verovio).
Targets: cold at least 3x faster than the naive way; cached at most 0.1 ms.

    python benchmarks/bench_render.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import verovio
from music21 import note as m21note
from music21 import stream
from music21.musicxml.m21ToXml import GeneralObjectExporter

from musicgames import CARD_NOTES, Note
from musicgames.render import _get_toolkit, _staff_svg_cached, staff_svg

_NAIVE_TOOLKIT = verovio.toolkit()  # made once, so the comparison is fair
_NAIVE_TOOLKIT.setOptions(
    {"adjustPageHeight": True, "adjustPageWidth": True, "svgViewBox": True, "scale": 40}
)


def naive_draw(card: Note) -> str:
    """music21 stream -> MusicXML -> verovio, as one would without the fast path."""
    part = stream.Part([m21note.Note(card.to_music21(), type="whole")])
    xml = GeneralObjectExporter(part).parse().decode("utf-8")
    _NAIVE_TOOLKIT.loadData(xml)
    svg: str = _NAIVE_TOOLKIT.renderToSVG(1)
    return svg


def timed_ms(action: Callable[[], object], repeats: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        action()
    return (time.perf_counter() - start) * 1000 / repeats


def main() -> None:
    _get_toolkit()  # make the one toolkit first: its set-up is paid once per process
    naive_draw(CARD_NOTES[0])  # warm music21's exporter the same way
    _staff_svg_cached.cache_clear()
    rows = []
    for card in CARD_NOTES:
        cold = timed_ms(lambda c=card: staff_svg(c))
        cached = timed_ms(lambda c=card: staff_svg(c), repeats=2000)
        naive = statistics.median(timed_ms(lambda c=card: naive_draw(c)) for _ in range(3))
        rows.append((card.solfege, cold, cached, naive))
    print(f"{'card':6} {'cold ms':>9} {'cached ms':>10} {'naive ms':>9} {'naive/cold':>10}")
    for name, cold, cached, naive in rows:
        print(f"{name:6} {cold:9.3f} {cached:10.5f} {naive:9.3f} {naive / cold:10.1f}")
    cold_m = statistics.median(r[1] for r in rows)
    cached_m = statistics.median(r[2] for r in rows)
    naive_m = statistics.median(r[3] for r in rows)
    print(
        f"median: cold {cold_m:.3f} ms, cached {cached_m:.5f} ms, naive {naive_m:.3f} ms, "
        f"cold is {naive_m / cold_m:.1f}x faster than naive"
    )


if __name__ == "__main__":
    main()
