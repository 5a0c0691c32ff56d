"""Print-and-play decks: every card on the pages, both PDFs made, the staff drawn.

The PDFs are made once per module with rsvg-convert (as ``make test`` installs it) and read
back with poppler's pdfinfo, pdftotext and pdftoppm.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from musicgames.cards import GameError, make_deck, pages
from musicgames.cards.__main__ import main
from musicgames.cards.faces import key_names, piano_card
from musicgames.cards.layout import A4, LETTER, PAPERS, POKER, PRINTER_MARGIN, Grid, PaperError
from musicgames.duel.cards import COMPOSE_DECK, PIANO_CARDS
from musicgames.i18n import LanguageError, text
from musicgames.render import staff_svg
from musicgames.snap.cards import DECK
from musicgames.theory import CARD_NOTES, Naming, Note

TOOLS = ("rsvg-convert", "pdftoppm", "pdftotext", "pdfinfo", "pdffonts", "pdfimages")
needs_tools = pytest.mark.skipif(
    any(shutil.which(t) is None for t in TOOLS),
    reason="needs rsvg-convert (librsvg2-bin) and poppler-utils: `make test` installs them",
)


def _pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    match = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    assert match is not None
    return int(match.group(1))


def _pdf_text(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    pages = ["-f", str(first), "-l", str(last)] if first else []
    return subprocess.run(["pdftotext", *pages, str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def snap_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cards") / "snap.pdf"
    return make_deck("snap", out, paper="a4", naming="solfege", language="en")


@pytest.fixture(scope="module")
def duel_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cards") / "duel.pdf"
    status = main(["duel", "--out", str(out), "--paper", "letter", "--naming", "letters",
                   "--language", "es", "--back"])
    assert status == 0
    return out


# -- the pages (SVG) ---------------------------------------------------------------------------


def test_s1_every_note_card_is_on_the_snap_pages_with_its_staff_twice() -> None:
    """S1: the 56 cards of the engine's deck; each card shows its staff, and again turned."""
    svg = "".join(pages("snap", paper="letter", naming="letters", language="es"))
    for note, copies in Counter(DECK).items():
        drawing_id = re.search(r' id="([^"]+)"', staff_svg(note))
        assert drawing_id is not None
        assert len(re.findall(rf'<svg id="{drawing_id.group(1)}-\d+"', svg)) == copies, note
    assert sum(Counter(DECK).values()) == 56
    turned = re.findall(r'<use xlink:href="#note-(\d+)" transform="rotate\(180 ', svg)
    assert len(turned) == 56 and all(f'<g id="note-{slot}">' in svg for slot in set(turned))


def test_s2_guide_card_names_all_15_notes_in_the_chosen_naming() -> None:
    guide = pages("snap", naming="letters", language="es")[-1]
    labels = re.findall(r">(\w+\d)</tspan>", guide)
    # two guide cards on the page, each drawn once and shown again turned 180°
    assert Counter(labels) == Counter({n.label(Naming.LETTERS): 2 for n in CARD_NOTES})
    assert guide.count('<use xlink:href="#guide-') == 2
    assert text("snap.guide.title", "es") in guide


def test_staves_are_vectors_and_music_glyphs_are_paths() -> None:
    svg = pages("snap")[0]
    assert "<image" not in svg and "data:image" not in svg
    assert 'xlink:href="#E0A2' in svg  # the whole-note head, a path in <defs>
    assert "Leipzig" not in svg and "@font-face" not in svg  # glyphs are outlines, no font


def test_d3_d4_piano_keys_are_named_in_the_chord_key() -> None:
    b_flat = next(card for card in PIANO_CARDS if card.name() == "B♭ major")
    names = {pc: note.label(Naming.LETTERS, octave=False) for pc, note in
             key_names(b_flat).items()}
    assert (names[10], names[2], names[5], names[3]) == ("B♭", "D", "F", "E♭")
    face = piano_card(b_flat, Naming.LETTERS, "en")(POKER.turned())
    assert ">B♭<" in face and ">A♯<" not in face and ">G♭<" in face


_WHITE_KEYS = (0, 2, 4, 5, 7, 9, 11)  # pitch classes of the white keys


def _printed_key_names(face: str) -> dict[int, str]:
    """Each key of a printed piano card (pitch class) → the name printed on it, matched by
    the key's centre."""
    centres = {f"{float(x) + float(w) / 2:.1f}": int(key) for key, x, w in re.findall(
        r'data-key="(\d+)"[^>]*? x="([\d.]+)" y="0" width="([\d.]+)"', face)}
    names = {centres[x]: name for x, name in re.findall(
        r'<text x="([\d.]+)" y="[\d.]+" [^>]*font-size="(?:6\.5|8\.5)"[^>]*>([^<]+)</text>',
        face) if x in centres}
    assert sorted(names) == list(range(12)), names
    return names


@pytest.mark.parametrize("naming", list(Naming))
def test_d8_printed_white_keys_read_their_plain_letter_black_keys_the_chords_key(
        naming: Naming) -> None:
    """The names a card lands by, as on the screen: F on the F♯ major card (never E♯ or
    Mi♯), B on E♭ minor (never C♭); a black key as music21 spells it in the chord's key
    (its scale's spelling; a chromatic black key one ♯ or ♭ off a letter)."""
    from music21 import key as m21key
    from music21 import pitch as m21pitch

    for card in PIANO_CARDS:
        face = piano_card(card, naming, "en")(POKER.turned())
        scale = {p.pitchClass: p.name for p in m21key.Key(card.triad.key_name).pitches}
        for pc, printed in _printed_key_names(face).items():
            note = Note.parse(f"{printed}3".replace("♯", "#").replace("♭", "b"))
            if pc in _WHITE_KEYS:
                assert note.alter == 0 and note.pitch_class == pc, (card.name(), printed)
                continue
            spelled = m21pitch.Pitch(note.to_music21().name)
            assert spelled.pitchClass == pc and abs(note.alter) == 1, (card.name(), printed)
            if pc in scale:
                assert spelled.name == scale[pc], (card.name(), printed, scale[pc])
            else:
                assert printed == card.triad.tone_name(pc, naming), (card.name(), printed)
    f_sharp = next(card for card in PIANO_CARDS if card.name() == "F♯ major")
    assert _printed_key_names(piano_card(f_sharp, naming, "en")(POKER.turned()))[5] == (
        "Fa" if naming is Naming.SOLFEGE else "F")


@needs_tools
def test_d8_printed_duel_deck_has_no_sharp_or_flat_white_key(duel_pdf: Path) -> None:
    """No white-key name with a sign (E♯, B♯, F♭, C♭) in the printed deck's text."""
    words = _pdf_text(duel_pdf)
    for wrong in ("E♯", "B♯", "F♭", "C♭"):
        assert not re.search(rf"(?<!\w){wrong}(?!\w)", words), wrong


def test_cards_fit_both_papers_with_room_for_cut_marks() -> None:
    for paper in (A4, LETTER):
        grid = Grid.fit(paper, POKER)
        assert grid.per_page == 9 and min(grid.left, grid.top) >= 7
        assert Grid.fit(paper, POKER.turned()).per_page == 8


def test_backs_are_mirrored_for_printing_on_both_sides() -> None:
    grid = Grid.fit(A4, POKER)
    assert grid.origin(0, mirrored=True) == grid.origin(2)
    assert grid.origin(4, mirrored=True) == grid.origin(4)


def test_unknown_choices_are_refused_with_the_choices() -> None:
    with pytest.raises(GameError, match="'snap' or 'duel'"):
        pages("go")
    with pytest.raises(PaperError, match="'a4', 'letter'"):
        pages("snap", paper="a3")
    with pytest.raises(LanguageError, match="'en', 'es', 'fr'"):
        pages("duel", language="de")
    with pytest.raises(ValueError, match="'solfege', 'letters'"):
        pages("duel", naming="numbers")


# -- the PDFs ----------------------------------------------------------------------------------


@needs_tools
def test_snap_pdf_has_every_card_and_the_guide(snap_pdf: Path) -> None:
    assert _pdf_pages(snap_pdf) == 8  # 56 cards at 9 a page, then the guide cards
    words = _pdf_text(snap_pdf)
    assert words.count(text("cards.footer.snap", "en", count=56)) == 7
    guide = _pdf_text(snap_pdf, 8, 8)
    for note in CARD_NOTES:
        assert re.search(rf"\b{note.solfege}\b", guide), note


@needs_tools
def test_music_font_reaches_the_pdf_as_paths_not_as_a_font_or_images(snap_pdf: Path) -> None:
    fonts = subprocess.run(["pdffonts", str(snap_pdf)], capture_output=True, text=True,
                           check=True).stdout
    assert "DejaVuSans" in fonts
    assert "Leipzig" not in fonts and "Bravura" not in fonts
    images = subprocess.run(["pdfimages", "-list", str(snap_pdf)], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    assert images[2:] == []  # the header only: no bitmap anywhere


@needs_tools
def test_duel_pdf_has_every_card_tokens_and_rules(duel_pdf: Path) -> None:
    # rules, 5 sheets of Compose cards and 5 of backs, 3 + 3 of piano cards, tokens
    assert _pdf_pages(duel_pdf) == 18
    words = _pdf_text(duel_pdf)
    assert text("duel.rules.title", "es") in _pdf_text(duel_pdf, 1, 1)
    for card in COMPOSE_DECK:
        if not card.is_wild:
            assert words.count(f"{card.label(Naming.LETTERS)}:") == 1, card
    assert words.count(f"{text('duel.card.wild', 'es')}:") == 7
    for piano in PIANO_CARDS:
        name = piano.name(Naming.LETTERS, "es")
        assert len(re.findall(rf"(?<![\w♯♭]){re.escape(name)}", words)) == 1, name
    tokens = _pdf_text(duel_pdf, 18, 18)
    assert text("cards.tokens.title", "es") in tokens
    assert text("duel.seat.white", "es") in tokens and text("duel.seat.black", "es") in tokens
    assert pages("duel", paper="letter", language="es")[-1].count('class="token"') == 10


def _staff_lines(grey: np.ndarray) -> list[int]:
    """Rows of long dark horizontal lines (staff lines) in a region, one per line."""
    dark_share = (grey < 140).mean(axis=1)
    rows = np.flatnonzero(dark_share > 0.8)
    lines: list[int] = []
    for row in rows:
        if not lines or row > lines[-1] + 1:
            lines.append(int(row))
        else:
            lines[-1] = int(row)
    return lines


@needs_tools
def test_rasterised_note_cards_show_the_staff_drawn(snap_pdf: Path, tmp_path: Path) -> None:
    """Every note card on the printed sheets shows five staff lines in each half."""
    dpi = 150
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", "1", "-l", "7", str(snap_pdf),
                    str(tmp_path / "p")], check=True)
    grid = Grid.fit(A4, POKER)
    px = dpi / 25.4
    staves = 0
    for number, path in enumerate(sorted(tmp_path.glob("p-*.pgm"))):
        grey = np.asarray(Image.open(path))
        cards = DECK[number * 9 : number * 9 + 9]
        for slot in range(len(cards)):
            x, y = grid.origin(slot)
            for half in (0, 1):
                top = y + half * POKER.height / 2
                region = grey[round((top + 6) * px) : round((top + POKER.height / 2 - 6) * px),
                              round((x + 20) * px) : round((x + POKER.width - 20) * px)]
                lines = _staff_lines(region)
                assert len(lines) == 5, (number + 1, slot, half, lines)
                gaps = np.diff(lines)
                assert gaps.max() - gaps.min() <= 2  # evenly spaced, ≈ 3.25 mm apart
                staves += 1
    assert staves == 2 * len(DECK)


@needs_tools
def test_teacher_button_makes_both_decks(tmp_path: Path) -> None:
    from musicgames.cards.button import deck_button

    box = deck_button(tmp_path / "print", language="es")
    box.paper.value, box.naming.value, box.backs.value = "letter", "letters", True
    box.deck_language.value = "en"
    box.button.click()
    made = sorted(p.name for p in (tmp_path / "print").glob("*.pdf"))
    assert made == ["keyboard-duel-cards-letter.pdf", "note-snap-cards-letter.pdf"]
    assert _pdf_pages(tmp_path / "print" / "note-snap-cards-letter.pdf") == 15
    assert box.message.value.startswith("Listo: ")
    snap = _pdf_text(tmp_path / "print" / "note-snap-cards-letter.pdf", 15, 15)
    assert text("snap.guide.title", "en") in snap and "C4" in snap


def test_teacher_button_says_when_the_converter_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.cards import pdf
    from musicgames.cards.button import deck_button

    monkeypatch.setattr(pdf, "RSVG_CONVERT", "no-such-rsvg-convert")
    box = deck_button(tmp_path)
    box.make()
    assert box.message.value == text("cards.maker.missing", "en")
    assert not list(tmp_path.glob("*.pdf"))


# -- every mark readable, nothing in the printer's margin (rasterised pages) ----------------

_MARK = re.compile(r'<text class="mg-mark"[^>]*>[^<]*</text>')
_MARK_AT = re.compile(r'<text class="mg-mark" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
_CARD_AT = re.compile(r'<g transform="translate\(([\d.]+) ([\d.]+)\)">')
_KEYBOARD_AT = re.compile(r'<svg x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" '
                          r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)">')
_MAGENTA = "#ff00ff"  # no card uses it: where a mark is drawn in it, the mark's pixels lie


def _rasterise(svg_pages: list[str], folder: Path, name: str, dpi: int) -> list[Path]:
    """The pages printed to a PDF as the deck maker does, then rendered in colour (PPM)."""
    from musicgames.cards.pdf import svg_pages_to_pdf

    pdf = svg_pages_to_pdf(svg_pages, folder / f"{name}.pdf")
    subprocess.run(["pdftoppm", "-r", str(dpi), str(pdf), str(folder / name)], check=True)
    return sorted(folder.glob(f"{name}-*.ppm"))


def _rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")) / 255


def _luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB pixels (values 0–1)."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return np.asarray(linear @ np.array([0.2126, 0.7152, 0.0722]))


def _marks_on_page(page: str) -> list[tuple[int, str, float, float]]:
    """(card slot, mark, x mm, y mm on the page) of every mark's baseline centre."""
    found = []
    cards = _CARD_AT.split(page)[1:]
    for slot, (card_x, card_y, body) in enumerate(zip(cards[::3], cards[1::3], cards[2::3],
                                                       strict=True)):
        nested = _KEYBOARD_AT.search(body)
        if nested is None:
            continue
        x, y, width, height, vx, vy, vw, vh = (float(v) for v in nested.groups())
        for mx, my, mark in _MARK_AT.findall(body):
            found.append((slot, mark, float(card_x) + x + (float(mx) - vx) * width / vw,
                          float(card_y) + y + (float(my) - vy) * height / vh))
    return found


@needs_tools
@pytest.mark.slow  # renders every piano page three times
def test_d4_every_printed_mark_stands_out_from_what_is_under_it(tmp_path: Path) -> None:
    """D4: the fff, ff and f marks decide the score, so each of the 72 on the piano cards
    must be seen: its ink contrasts (3:1 or more) with what lies under it on the page.

    The piano pages are rendered three times: as printed, without the marks (what lies under
    them) and with the marks in magenta (which pixels they cover). Piano cards are the same
    size on A4 and Letter, so one paper shows them all."""
    dpi = 150
    piano = [p for p in pages("duel", paper="a4", naming="letters") if "mg-mark" in p]
    printed = _rasterise(piano, tmp_path, "printed", dpi)
    under = _rasterise([_MARK.sub("", p) for p in piano], tmp_path, "under", dpi)
    where = _rasterise([re.sub(r'(class="mg-mark"[^>]*?fill=")[^"]+"', rf'\1{_MAGENTA}"', p)
                        for p in piano], tmp_path, "where", dpi)
    px = dpi / 25.4
    seen: list[tuple[int, int, str]] = []
    for number, page in enumerate(piano):
        as_printed, without, magenta = _rgb(printed[number]), _rgb(under[number]), _rgb(
            where[number])
        for slot, mark, x, y in _marks_on_page(page):
            # the mark's box: 4.5 mm each side of its centre, from its top to under its base
            box = (slice(round((y - 4.5) * px), round((y + 1.5) * px)),
                   slice(round((x - 4.5) * px), round((x + 4.5) * px)))
            tint = magenta[box]
            pixels = (tint[..., 0] > 0.9) & (tint[..., 1] < 0.1) & (tint[..., 2] > 0.9)
            assert pixels.sum() >= 20, (number + 1, slot, mark, "no pixels")
            ink = _luminance(as_printed[box][pixels])
            paper_under = _luminance(without[box][pixels])
            contrast = (np.maximum(ink, paper_under) + 0.05) / (
                np.minimum(ink, paper_under) + 0.05)
            share = float((contrast >= 3).mean())
            assert share >= 0.95, (number + 1, slot, mark, round(share, 2))
            seen.append((number, slot, mark))
    assert Counter(mark for _, _, mark in seen) == {"fff": 24, "ff": 24, "f": 24}


@needs_tools
@pytest.mark.slow  # renders every page of both decks
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_ink_within_5_mm_of_the_paper_edge(paper: str, tmp_path: Path) -> None:
    """Most printers cannot print within 5 mm of the edge: cut marks, footers and everything
    else on every page of both decks (in both languages, with backs) stay inside."""
    dpi = 72
    margin = int(PRINTER_MARGIN / 25.4 * dpi)  # whole pixels lying within the margin
    all_pages = [page for game in ("snap", "duel") for language in ("en", "es")
                 for page in pages(game, paper=paper, language=language, back=True)]
    rendered = _rasterise(all_pages, tmp_path, "deck", dpi)
    size = PAPERS[paper]
    assert len(rendered) == len(all_pages)
    for number, path in enumerate(rendered):
        grey = np.asarray(Image.open(path)).min(axis=2)  # the darkest of red, green and blue
        height, width = grey.shape
        assert abs(width - size.width / 25.4 * dpi) <= 1.5
        edges = {"top": grey[:margin], "bottom": grey[height - margin:],
                 "left": grey[:, :margin], "right": grey[:, width - margin:]}
        for edge, strip in edges.items():
            assert strip.min() == 255, (paper, number + 1, edge)
        # the footer and the cut marks are there, just inside the margin
        assert grey[margin:height - margin, margin:width - margin].min() < 128
