"""Drawings: the staff engraved by verovio and the piano keyboard."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from musicgames import CARD_NOTES, Naming, Note, triad
from musicgames.render import CHORD_TONE_COLOURS, keyboard_svg, staff_svg

SVG = "{http://www.w3.org/2000/svg}"


def ledger_lines(svg: str) -> dict[str, int]:
    """Count verovio's ledger lines above and below the staff."""
    root = ET.fromstring(svg)
    counts = {"above": 0, "below": 0}
    for group in root.iter(f"{SVG}g"):
        cls = group.get("class", "")
        if cls.startswith("ledgerLines"):
            counts[cls.split()[1]] += len(group.findall(f"{SVG}path"))
    return counts


@pytest.mark.parametrize(
    ("note", "above", "below"),
    [("Do3", 0, 1), ("Sol3", 0, 0), ("Do5", 2, 0), ("La4", 1, 0), ("Si4", 1, 0), ("Re3", 0, 0)],
)
def test_ledger_lines(note: str, above: int, below: int) -> None:
    assert ledger_lines(staff_svg(note)) == {"above": above, "below": below}


@pytest.mark.parametrize("note", CARD_NOTES, ids=lambda n: n.solfege)
def test_every_card_note_parses_as_svg_with_one_notehead(note: Note) -> None:
    root = ET.fromstring(staff_svg(note))
    classes = [g.get("class", "") for g in root.iter(f"{SVG}g")]
    assert classes.count("note") == 1
    assert "clef" in classes
    assert "meterSig" not in classes  # a single card has no time signature


def test_several_notes_and_a_chord() -> None:
    several = ET.fromstring(staff_svg(["Do3", "Mi3", "Sol3"]))
    assert [g.get("class") for g in several.iter(f"{SVG}g")].count("note") == 3
    chord_svg = ET.fromstring(staff_svg([("Do3", "Mi3", "Sol3")]))
    classes = [g.get("class") for g in chord_svg.iter(f"{SVG}g")]
    assert classes.count("chord") == 1 and classes.count("note") == 3
    assert staff_svg(triad("Do", "major")) == staff_svg([("Do3", "Mi3", "Sol3")])


def test_accidentals_are_engraved() -> None:
    classes = [g.get("class") for g in ET.fromstring(staff_svg("Fa#3")).iter(f"{SVG}g")]
    assert "accid" in classes


def test_labels_write_names_under_notes() -> None:
    svg = staff_svg(["Do3", "Sol3"], labels=Naming.SOLFEGE)
    assert "Do3" in svg and "Sol3" in svg
    assert "G4" in staff_svg(["Sol3"], labels=Naming.LETTERS)


def test_size_sets_the_height_and_output_is_deterministic() -> None:
    small = ET.fromstring(staff_svg("Sol3", size=60))
    big = ET.fromstring(staff_svg("Sol3", size=180))
    assert small.get("height") == "60" and big.get("height") == "180"
    assert float(big.get("width", 0)) > float(small.get("width", 0))
    from musicgames import render

    first = staff_svg("Mi4")
    render._staff_svg_cached.cache_clear()
    assert staff_svg("Mi4") == first  # fixed id seed: the same drawing every time


def test_the_same_card_is_drawn_once_per_process() -> None:
    from musicgames import render

    render._staff_svg_cached.cache_clear()
    staff_svg("La3")
    staff_svg(Note.parse("La3"))
    staff_svg(69)
    info = render._staff_svg_cached.cache_info()
    assert info.misses == 1 and info.hits == 2


def test_bad_note_on_staff_is_a_note_error() -> None:
    from musicgames import NoteError

    with pytest.raises(NoteError):
        staff_svg("H3")


def test_keyboard_keys_chord_colours_labels_and_marks() -> None:
    svg = keyboard_svg(2, chord=triad("Sol", "major"), labels=Naming.SOLFEGE, marks={7: "fff"})
    root = ET.fromstring(svg)
    keys = [r for r in root.iter(f"{SVG}rect") if "mg-key" in r.get("class", "")]
    assert sorted(int(k.get("data-key", -1)) for k in keys) == list(range(24))
    fills = {int(k.get("data-key", -1)): k.get("fill") for k in keys}
    root_c, third_c, fifth_c = CHORD_TONE_COLOURS
    assert fills[7] == fills[19] == root_c  # G
    assert fills[11] == fills[23] == third_c  # B
    assert fills[2] == fills[14] == fifth_c  # D
    assert fills[0] == "#ffffff" and fills[1] == "#222222"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Sol" in texts and "fff" in texts
    assert sum(1 for k in keys if "mg-black" in k.get("class", "")) == 10


def test_keyboard_highlight_by_note_and_one_chord_per_octave() -> None:
    svg = keyboard_svg(2, highlight={"Mi4": "#123456"}, chord=[triad("Do", "major"), None])
    fills = {
        int(r.get("data-key", -1)): r.get("fill") for r in ET.fromstring(svg).iter(f"{SVG}rect")
    }
    assert fills[16] == "#123456"  # Mi4 is key 16 from Do3
    assert fills[12] == "#ffffff"  # the second octave has no chord


@pytest.mark.parametrize(
    "kwargs",
    [{"octaves": 0}, {"lowest": "Re3"}, {"highlight": ["Do6"]}],
)
def test_keyboard_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        keyboard_svg(**kwargs)  # type: ignore[arg-type]


def test_notes_and_triads_show_themselves_in_a_notebook() -> None:
    assert Note.parse("Sol3")._repr_svg_() == staff_svg("Sol3")
    assert triad("Re", "minor")._repr_svg_().startswith("<svg")


def test_a_keys_name_is_measured_as_the_printed_cards_words_are() -> None:
    """One measurer of words (the font's real widths): the keyboard fits its names with the
    one that wraps the printed cards' paragraphs, not with a table of its own."""
    from musicgames import fonts
    from musicgames.cards import text as card_text
    from musicgames.render import _text_ems

    assert card_text.text_width is fonts.text_width
    for name in ("Sol", "F♯", "Sol♯", "Do", "B♭"):
        assert _text_ems(name) == fonts.text_width(name, size=1.0), name


def test_drawings_kept_in_a_folder_are_the_same_and_need_no_engraver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The classroom's kernels share one folder of drawings: a card is engraved once for
    the class, and a kernel that finds it there does not load verovio."""
    from musicgames import render
    from musicgames.kept import DRAWINGS_ENV

    def fresh(note: str) -> str:
        render._staff_svg_cached.cache_clear()
        return str(staff_svg(note, size=100))

    monkeypatch.delenv(DRAWINGS_ENV, raising=False)
    engraved = fresh("Fa#3")
    monkeypatch.setenv(DRAWINGS_ENV, str(tmp_path))
    assert fresh("Fa#3") == engraved and len(list(tmp_path.glob("staff-*.svg"))) == 1

    def no_engraver() -> None:
        raise AssertionError("engraved again")

    monkeypatch.setattr(render, "_get_toolkit", no_engraver)
    assert fresh("Fa#3") == engraved  # read back, not engraved
    assert fresh("Fa#3") == staff_svg("Fa#3")  # the same drawing, also from memory
    with pytest.raises(AssertionError, match="engraved again"):
        fresh("Sol3")  # a drawing not kept yet is engraved
    render._staff_svg_cached.cache_clear()


def test_a_note_shows_itself_on_a_staff_with_the_renderer_loaded_only_then() -> None:
    """``import musicgames`` stays light (no renderer, no fonts); the first note a notebook
    shows loads the renderer, and is drawn exactly as :func:`staff_svg` draws it."""
    import subprocess
    import sys

    script = (
        "import sys, musicgames\n"
        "before = 'musicgames.render' in sys.modules\n"
        "svg = musicgames.Note.parse('Sol3')._repr_svg_()\n"
        "chord = musicgames.triad('F', 'major')._repr_svg_()\n"
        "from musicgames.render import staff_svg\n"
        "print(before, svg == staff_svg('Sol3'), chord.startswith('<svg'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.split() == ["False", "True", "True"]
