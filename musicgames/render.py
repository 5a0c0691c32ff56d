"""Drawings: notes on a treble staff (engraved by verovio) and piano keyboards (SVG).

Both return SVG text, so they show in a notebook, in a widget, or in a file.

>>> from musicgames import Note, triad
>>> svg = staff_svg(Note.parse("Do3"))
>>> svg.startswith("<svg") and 'class="ledgerLines below"' in svg
True
>>> "data-key=" in keyboard_svg(1, chord=triad("Do", "major"))
True

The staff is engraved by verovio from MEI written here directly (a few lines of XML per
note), which is several times faster than going through a music21 stream and MusicXML; the
SMuFL font (Leipzig) ships inside verovio, so nothing is fetched from the internet.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
import zlib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any, Union

from musicgames.fonts import FAMILY, text_width
from musicgames.kept import ENGRAVER_FILE, kept_folder
from musicgames.sound import midi_frequency
from musicgames.theory import Naming, Note, Triad, draw_staves_with

__all__ = [
    "CHORD_TONE_COLOURS",
    "READABLE_KEY_PX",
    "READABLE_PX",
    "Drawing",
    "keyboard_svg",
    "key_index",
    "staff_svg",
    "StaffItem",
]

#: A thing that can go on the staff: a note, a note name, or a chord (several notes).
StaffItem = Union[Note, str, int, Sequence[Union[Note, str, int]]]  # noqa: UP007


class Drawing(str):
    """SVG text that a notebook shows as a picture (it is still an ordinary ``str``).

    >>> d = Drawing("<svg></svg>")
    >>> d.upper(), d._repr_svg_()
    ('<SVG></SVG>', '<svg></svg>')
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"<Drawing: {len(self):,} characters of SVG>"


_MEI_ALTER = {-2: "ff", -1: "f", 1: "s", 2: "ss"}
_TOOLKIT_LOCK = threading.Lock()
_toolkit: Any = None

_MEI_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<mei xmlns="http://www.music-encoding.org/ns/mei" meiversion="5.0">'
    "<meiHead><fileDesc><titleStmt><title/></titleStmt><pubStmt/></fileDesc></meiHead>"
    "<music><body><mdiv><score><scoreDef>"
    '<staffGrp><staffDef n="1" lines="5" clef.shape="G" clef.line="2"{meter}/></staffGrp>'
    '</scoreDef><section><measure n="1" right="{barline}"><staff n="1"><layer n="1">'
)
_MEI_TAIL = "</layer></staff></measure></section></score></mdiv></body></music></mei>"


def _get_toolkit() -> Any:
    """One verovio toolkit per process, made on first use."""
    global _toolkit
    if _toolkit is None:
        import verovio

        verovio.enableLog(verovio.LOG_OFF)
        tk = verovio.toolkit()
        tk.setOptions(
            {
                "svgViewBox": True,
                "adjustPageHeight": True,
                "adjustPageWidth": True,
                "header": "none",
                "footer": "none",
                "breaks": "none",
                "pageMarginLeft": 20,
                "pageMarginRight": 20,
                "pageMarginTop": 20,
                "pageMarginBottom": 20,
                "scale": 40,
                "svgRemoveXlink": True,
            }
        )
        _toolkit = tk
    return _toolkit


def _mei_note(note: Note, *, in_chord: bool = False, label: str | None = None) -> str:
    accid = f' accid="{_MEI_ALTER[note.alter]}"' if note.alter else ""
    dur = "" if in_chord else ' dur="1"'
    syl = f"<verse><syl>{escape(label)}</syl></verse>" if label else ""
    pname = note.step.lower()
    return f'<note pname="{pname}" oct="{note.scientific_octave}"{dur}{accid}>{syl}</note>'


def _as_note(item: Note | str | int) -> Note:
    return Note.parse(item)


def _normalise(notes: StaffItem | Triad | Iterable[StaffItem]) -> tuple[tuple[Note, ...], ...]:
    """Turn what the caller gave into a tuple of events, each a tuple of notes (a chord)."""
    if isinstance(notes, Triad):
        return (notes.tones,)
    if isinstance(notes, (Note, str, int)):
        return ((_as_note(notes),),)
    events: list[tuple[Note, ...]] = []
    for item in notes:
        if isinstance(item, Triad):
            events.append(item.tones)
        elif isinstance(item, (Note, str, int)):
            events.append((_as_note(item),))
        else:
            events.append(tuple(_as_note(n) for n in item))
    return tuple(events)


def staff_svg(
    notes: StaffItem | Triad | Iterable[StaffItem],
    *,
    size: int = 100,
    labels: Naming | str | Sequence[str] | None = None,
    language: str = "en",
) -> Drawing:
    """Engrave notes on a treble (Sol) staff and return the SVG.

    ``notes`` is one note (a :class:`Note`, a name like ``"Sol3"`` or a MIDI number), a list
    of notes shown one after another, or a list holding a chord (a tuple of notes, or a
    :class:`Triad`). ``size`` is the height of the staff drawing in pixels, roughly; the
    width follows. ``labels`` writes each note's name under it, in either naming system
    (solfège as ``language`` spells it: ré in French), or is the list of texts to write, one
    per note.

    A single card has no time signature and no bar line, and the same drawing is made once
    per process (the result is cached). Ledger lines come from verovio:

    >>> staff_svg("Do5").count("<path", staff_svg("Do5").index("ledgerLines above"))  > 0
    True
    """
    events = _normalise(notes)
    naming: Naming | tuple[str, ...] | None
    if labels is None or isinstance(labels, (Naming, str)):
        naming = Naming(labels) if labels is not None else None
    else:
        naming = tuple(map(str, labels))
        if len(naming) != len(events):
            raise ValueError(f"{len(naming)} labels for {len(events)} notes")
    return _staff_svg_cached(events, size, naming, language)


@lru_cache(maxsize=2048)
def _staff_svg_cached(
    events: tuple[tuple[Note, ...], ...],
    size: int,
    naming: Naming | tuple[str, ...] | None,
    language: str = "en",
) -> Drawing:
    parts = []
    for number, chord in enumerate(events):
        label = (None if naming is None or len(chord) != 1 else
                 naming[number] if isinstance(naming, tuple) else
                 chord[0].label(naming, language=language))
        if len(chord) == 1:
            parts.append(_mei_note(chord[0], label=label))
        else:
            inner = "".join(_mei_note(n, in_chord=True) for n in chord)
            parts.append(f'<chord dur="1">{inner}</chord>')
    mei = _MEI_HEAD.format(meter="", barline="invis") + "".join(parts) + _MEI_TAIL
    kept = _kept_drawing(mei, size)
    if kept is not None:
        try:
            return Drawing(kept.read_text(encoding="utf-8"))
        except OSError:
            pass  # not there yet (or unreadable): engrave it
    with _TOOLKIT_LOCK:
        tk = _get_toolkit()
        # A fixed seed per drawing: the same card gives the same SVG, and different
        # drawings on one page get different element ids (0 would mean a random seed).
        tk.resetXmlIdSeed(zlib.crc32(mei.encode()) % 2_000_000_000 + 1)
        if not tk.loadData(mei):
            raise ValueError(f"verovio could not engrave {events!r}")
        svg: str = tk.renderToSVG(1)
    drawing = Drawing(_set_height(svg, size))
    if kept is not None:
        try:  # whole or not at all: another process may read it at any moment
            part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
            part.write_text(drawing, encoding="utf-8")
            os.replace(part, kept)
        except OSError:
            pass  # a drawing not kept is drawn again, nothing worse
    return drawing


def _kept_drawing(mei: str, size: int) -> Path | None:
    """Where the drawing of ``mei`` at ``size`` is kept (:mod:`musicgames.kept`: a folder
    a class's kernels share, or the static site's drawings made at build time), if it is."""
    folder = kept_folder()
    if folder is None:
        return None
    key = hashlib.sha256(f"verovio {_engraver(folder)}\n{size}\n{mei}".encode()).hexdigest()
    return folder / f"staff-{key}.svg"


@lru_cache(maxsize=4)
def _engraver(folder: Path) -> str:
    """The version of verovio installed (without loading it); where none is (the browser),
    the version that engraved the drawings kept in ``folder`` ahead of time."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("verovio")
    except PackageNotFoundError:
        try:
            return (folder / ENGRAVER_FILE).read_text(encoding="utf-8").strip()
        except OSError:
            return "?"


def _set_height(svg: str, height: int) -> str:
    """Give the outer <svg> a pixel height (and the width that keeps its shape)."""
    match = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if match is None:  # pragma: no cover - verovio always writes a viewBox with svgViewBox
        return svg
    width = float(match.group(1)) * height / float(match.group(2))
    return svg.replace("<svg ", f'<svg width="{width:.0f}" height="{height}" ', 1)


# -- keyboard -----------------------------------------------------------------------------

#: Colours of the chord tones: root, third, fifth.
CHORD_TONE_COLOURS: tuple[str, str, str] = ("#d1495b", "#edae49", "#00798c")
_HIGHLIGHT = "#66a182"
_WHITE_PCS = (0, 2, 4, 5, 7, 9, 11)
#: The smallest text a drawing writes on a key, in pixels on the page.
READABLE_PX = 11.0
#: A white key this wide on the page (or wider) leaves room to name its black keys at
#: :data:`READABLE_PX` or more; black keys are named by default from this width on.
READABLE_KEY_PX = 36
_BLACK_LABELS_MIN_PX = READABLE_KEY_PX
_BLACK_OFFSETS = {1: 0.65, 3: 1.75, 6: 3.6, 8: 4.7, 10: 5.8}  # in white-key widths


def key_index(note: Note | str | int, *, lowest: Note | str | int = "Do3") -> int:
    """The index of a note's key on a keyboard whose leftmost key is ``lowest`` (a C).

    >>> key_index("Sol3"), key_index("Do4"), key_index("Do#3")
    (7, 12, 1)
    """
    return Note.parse(note).midi - Note.parse(lowest).midi


def keyboard_svg(
    octaves: int = 1,
    *,
    lowest: Note | str | int = "Do3",
    highlight: Iterable[Note | str | int] | Mapping[Note | str | int, str] = (),
    chord: Triad | Sequence[Triad | None] | None = None,
    labels: Naming | str | None = None,
    black_labels: bool | None = None,
    marks: Mapping[int, str] | None = None,
    width: int = 280,
    spelled_by: Triad | None = None,
    plain_white: bool = False,
    language: str = "en",
) -> Drawing:
    """Draw a piano keyboard of ``octaves`` octaves starting on the C ``lowest``.

    - ``highlight``: notes (or key indexes as ints ≥ 0 and < 12·octaves) to colour, or a
      mapping from them to colours.
    - ``chord``: a triad whose tones are coloured in every octave (root, third, fifth in
      :data:`CHORD_TONE_COLOURS`), or one triad per octave (``None`` for a plain octave).
    - ``labels``: names on the keys, in solfège or letters. With a ``chord`` every key is
      named in the chord's key (:meth:`Triad.spell_midi`: B♭ and E♭ in B♭ major, never A♯
      or D♯); without one the white keys have their letter and the black keys a sharp.
    - ``black_labels``: whether the black keys are named too (when ``labels`` is given).
      By default they are when the keys are wide enough to read (a white key at least
      :data:`READABLE_KEY_PX` wide on the page); ``False`` keeps a small board
      uncluttered. A name is written at least :data:`READABLE_PX` high on the page (on two
      lines, "Sol" over "♯", when one line would not fit the key).
    - ``spelled_by``: a triad that names the keys (as ``chord`` does) without colouring them.
    - ``marks``: a mark per key index, such as ``{0: "fff", 4: "ff", 7: "f"}``: on a black
      key in the ink that reads on its colour, under a white key (on the page) in dark ink.
    - ``plain_white``: white keys are named by their plain letter even in a chord's key
      (F, never E♯): for a game whose cards land on a letter's white key.
    - ``language``: how solfège names are spelled (ré in French).

    Every key is a ``<rect>`` with ``class="mg-key"``, ``data-key`` = its index from the
    leftmost C, so a page can make keys clickable, and ``data-hz`` = its frequency (music21,
    A4 = 440 Hz), so a page can play it.

    >>> from musicgames import triad
    >>> svg = keyboard_svg(2, chord=triad("G", "major"), marks={7: "fff"})
    >>> svg.count('class="mg-key '), 'data-key="7"' in svg, ">fff<" in svg
    (24, True, True)
    >>> board = keyboard_svg(1, chord=triad("Bb"), labels="letters", width=340)
    >>> ">B♭<" in board and ">E♭<" in board and "♯" not in board
    True
    >>> ">B♭<" in keyboard_svg(1, chord=triad("Bb"), labels="letters", black_labels=False)
    False
    >>> sharp = keyboard_svg(1, chord=triad("C#"), labels="letters", width=340, plain_white=True)
    >>> ">E♯<" in sharp, ">F<" in sharp, ">C♯<" in sharp
    (False, True, True)
    """
    if octaves < 1:
        raise ValueError(f"octaves={octaves!r}: a keyboard needs at least one octave")
    start = Note.parse(lowest)
    if start.pitch_class != 0:
        raise ValueError(f"lowest={lowest!r}: the keyboard starts on a C")
    n_keys = 12 * octaves
    colours = _key_colours(n_keys, start, highlight, chord)
    naming = Naming(labels) if labels is not None else None
    marks = dict(marks or {})
    contexts = _spelling_contexts(octaves, chord if chord is not None else spelled_by)

    white_w, white_h = 24.0, 100.0
    black_w, black_h = 14.0, 62.0
    total_w = white_w * 7 * octaves
    scale = width / (total_w + 2)  # page pixels per unit (the view box has 1 more each side)
    if black_labels is None:
        black_labels = width / (7 * octaves) >= _BLACK_LABELS_MIN_PX
    height = white_h + (18 if marks else 0)
    body: list[str] = []
    blacks: list[str] = []
    for index in range(n_keys):
        octave, pc = divmod(index, 12)
        context = contexts[octave]
        midi = start.midi + index
        if context is None or (plain_white and pc in _WHITE_PCS):
            note = Note.parse(midi)
        else:
            note = context.spell_midi(midi)
        colour = colours.get(index)
        if pc in _WHITE_PCS:
            x = (octave * 7 + _WHITE_PCS.index(pc)) * white_w
            fill = colour or "#ffffff"
            body.append(
                f'<rect class="mg-key mg-white" data-key="{index}" data-note="{note.scientific}" '
                f'data-hz="{midi_frequency(midi)}" '
                f'x="{x:.1f}" y="0" width="{white_w}" height="{white_h}" fill="{fill}" '
                'stroke="#222" stroke-width="1"/>'
            )
            if naming is not None:
                body.append(
                    f'<text x="{x + white_w / 2:.1f}" y="{white_h - 8}" font-size="9" '
                    f'text-anchor="middle" font-family="{FAMILY}" fill="{_ink_on(fill)}" '
                    'pointer-events="none">'
                    f"{escape(note.label(naming, octave=False, language=language))}</text>"
                )
            centre = x + white_w / 2
            mark_y = white_h + 13
        else:
            x = (octave * 7 + _BLACK_OFFSETS[pc]) * white_w
            fill = colour or "#222222"
            blacks.append(
                f'<rect class="mg-key mg-black" data-key="{index}" data-note="{note.scientific}" '
                f'data-hz="{midi_frequency(midi)}" '
                f'x="{x:.1f}" y="0" width="{black_w}" height="{black_h}" fill="{fill}" '
                'stroke="#111" stroke-width="1"/>'
            )
            centre = x + black_w / 2
            mark_y = black_h - 6
            if naming is not None and black_labels:
                blacks.append(
                    _black_key_name(note.label(naming, octave=False, language=language),
                                    centre, black_h,
                                    black_w, scale, _ink_on(fill))
                )
        mark = marks.get(index)
        if mark:
            target = body if pc in _WHITE_PCS else blacks
            # A black key's mark is printed on the key; a white key's below the keyboard, on
            # the page (or card) itself, whatever colour the key is.
            mark_colour = _ink_on(fill) if pc not in _WHITE_PCS else _PAGE_INK
            target.append(
                f'<text class="mg-mark" x="{centre:.1f}" y="{mark_y}" font-size="10" '
                f'font-style="italic" font-weight="bold" text-anchor="middle" '
                f'font-family="serif" fill="{mark_colour}" pointer-events="none">'
                f"{escape(mark)}</text>"
            )
    return Drawing(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mg-keyboard" width="{width}" '
        f'height="{height * width / total_w:.0f}" viewBox="-1 -1 {total_w + 2} {height + 2}">'
        + "".join(body)
        + "".join(blacks)
        + "</svg>"
    )


#: The ink of words drawn on the page itself, outside any key.
_PAGE_INK = "#222"


def _text_ems(text: str) -> float:
    """How wide ``text`` is in ems, in the font the keys' names are written in (measured by
    :func:`musicgames.fonts.text_width`): a black key 14 units wide holds "Sol" at 9 units
    but not "Sol♯", which goes on two lines.

    >>> round(_text_ems("Sol"), 2), round(_text_ems("F♯"), 2), round(_text_ems("Sol♯"), 2)
    (1.52, 1.06, 2.01)
    >>> _text_ems("Sol") * 9 < 14 < _text_ems("Sol♯") * 9
    True
    """
    return text_width(text, size=1.0)


def _black_key_name(
    name: str, centre: float, key_h: float, key_w: float, scale: float, ink: str
) -> str:
    """A black key's name, at least :data:`READABLE_PX` high on the page; on two lines
    (the name, then its ♯ or ♭ under it) when one line would be wider than the key.

    >>> one = _black_key_name("F♯", 10, 62, 14, 2.5, "#fff")
    >>> one.count("<text"), 'font-size="7"' in one
    (1, True)
    >>> two = _black_key_name("Sol♯", 10, 62, 14, 1.5, "#fff")
    >>> two.count("<text"), ">Sol<" in two, ">♯<" in two
    (2, True, True)
    """
    size = max(7.0 if len(name) <= 2 else 5.5, math.ceil(READABLE_PX / scale * 10) / 10)
    room = key_w - 1
    lines = [name]
    if _text_ems(name) * size > room and name[-1:] in "♯♭":
        lines = [name[:-1], name[-1]]
    baseline = key_h - 20 if len(lines) == 1 else key_h - 18
    out = []
    for number, line in enumerate(lines):
        y = baseline - (len(lines) - 1 - number) * size * 1.05
        line_size = size * 1.3 if number == 1 else size  # a ♯ or ♭ alone: its glyph is small
        out.append(
            f'<text class="mg-black-label" x="{centre:.1f}" y="{y:.1f}" '
            f'font-size="{line_size:.3g}" text-anchor="middle" font-family="{FAMILY}" '
            f'fill="{ink}" pointer-events="none">{escape(line)}</text>'
        )
    return "".join(out)


def _ink_on(fill: str) -> str:
    """Dark or white text, whichever reads better on the colour ``fill`` (``#rrggbb``).

    >>> _ink_on("#ffffff"), _ink_on("#222222"), _ink_on("#00798c"), _ink_on("#edae49")
    ('#222', '#fff', '#fff', '#222')
    >>> _ink_on("gold")
    '#222'
    """
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", fill):
        return "#222"  # a colour by name: the usual dark ink
    red, green, blue = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = sum(
        weight * (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
        for weight, c in zip((0.2126, 0.7152, 0.0722), (red, green, blue), strict=True)
    )
    # WCAG contrast against near-black (#222) and white: take the larger.
    return "#222" if (luminance + 0.05) / 0.066 > 1.05 / (luminance + 0.05) else "#fff"


def _spelling_contexts(
    octaves: int, chord: Triad | Sequence[Triad | None] | None
) -> list[Triad | None]:
    """The triad whose key names the keys of each octave (``None``: plain names)."""
    if chord is None:
        return [None] * octaves
    if isinstance(chord, Triad):
        return [chord] * octaves
    per_octave = list(chord)[:octaves]
    return per_octave + [None] * (octaves - len(per_octave))


def _key_colours(
    n_keys: int,
    start: Note,
    highlight: Iterable[Note | str | int] | Mapping[Note | str | int, str],
    chord: Triad | Sequence[Triad | None] | None,
) -> dict[int, str]:
    colours: dict[int, str] = {}
    if chord is not None:
        per_octave = [chord] * (n_keys // 12) if isinstance(chord, Triad) else list(chord)
        for octave, one in enumerate(per_octave):
            if one is None:
                continue
            for pc, tone_colour in zip(one.pitch_classes, CHORD_TONE_COLOURS, strict=True):
                colours[octave * 12 + pc] = tone_colour
    items: Iterable[tuple[Note | str | int, str | None]] = (
        highlight.items() if isinstance(highlight, Mapping) else ((h, None) for h in highlight)
    )
    for item, colour in items:
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < n_keys:
            index = item
        else:
            index = Note.parse(item).midi - start.midi
        if not 0 <= index < n_keys:
            raise ValueError(f"{item!r} is not on this keyboard of {n_keys} keys")
        colours[index] = colour or _HIGHLIGHT
    return colours


draw_staves_with(staff_svg)  # notes and chords show themselves on a staff in a notebook
