"""Print-and-play: which SVG → PDF converter draws the cards faithfully, and how fast.

For each candidate converter this turns the same pages (Note Snap sheets with verovio
staves, a Keyboard Duel sheet of piano cards, the rules page, the Dice Tokens) into a PDF,
rasterises every page with pdftoppm (poppler) and compares it with Chromium's own drawing
of the same SVG page, pixel by pixel, at the same size:

- ``mean diff``: mean absolute grey-level difference, 0–255 (0 = identical), after a 3×3
  box blur of both drawings (two renderers anti-alias an edge differently);
- ``bad px %``: share of pixels that differ by more than 64 grey levels after that blur
  (anti-aliasing differences stay under it; a missing glyph, a lost line or a misplaced word
  does not), mean over the pages and for each page;
- ``worst page``: the page with the largest ``bad px %``;
- ``s/page``: wall time to make the whole PDF, divided by the pages (start-up included:
  what a teacher waits for);
- ``PDF KiB``, and whether the PDF has text (pdftotext finds the words) and no images
  (``pdfimages -list``: the staves are vectors).

Candidates missing on this machine are listed as such. Run: ``python benchmarks/bench_cards.py``
(``--pages N`` to compare fewer pages, ``--dpi`` for the rasterising resolution).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from musicgames.cards.decks import duel_pages, snap_pages
from musicgames.cards.layout import A4

Converter = Callable[[list[str], Path], None]


def _write_pages(pages: list[str], folder: Path) -> list[Path]:
    paths = []
    for i, page in enumerate(pages):
        path = folder / f"page{i:03d}.svg"
        path.write_text(page, encoding="utf-8")
        paths.append(path)
    return paths


def _merge(parts: list[Path], out: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(str(part))
    with out.open("wb") as handle:
        writer.write(handle)


def rsvg(pages: list[str], out: Path) -> None:
    """librsvg's rsvg-convert: every page in one call, one multi-page PDF."""
    with tempfile.TemporaryDirectory() as tmp:
        files = _write_pages(pages, Path(tmp))
        subprocess.run(["rsvg-convert", "-f", "pdf", "-o", str(out), *map(str, files)],
                       check=True)


def cairosvg(pages: list[str], out: Path) -> None:
    """CairoSVG: one PDF per page, joined with pypdf."""
    import cairosvg as cs

    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, page in enumerate(pages):
            part = Path(tmp) / f"{i:03d}.pdf"
            cs.svg2pdf(bytestring=page.encode(), write_to=str(part))
            parts.append(part)
        _merge(parts, out)


def svglib(pages: list[str], out: Path) -> None:
    """svglib + ReportLab: each page read into a ReportLab drawing, drawn on one canvas."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import svg2rlg

    canvas: Canvas | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for path in _write_pages(pages, Path(tmp)):
            drawing = svg2rlg(str(path))
            if canvas is None:
                canvas = Canvas(str(out), pagesize=(drawing.width, drawing.height))
            canvas.setPageSize((drawing.width, drawing.height))
            renderPDF.draw(drawing, canvas, 0, 0)
            canvas.showPage()
    if canvas is not None:
        canvas.save()


def inkscape(pages: list[str], out: Path) -> None:
    """Inkscape 1.x: one PDF per page, joined with pypdf."""
    with tempfile.TemporaryDirectory() as tmp:
        files = _write_pages(pages, Path(tmp))
        subprocess.run(["inkscape", "--export-type=pdf", *map(str, files)], check=True,
                       capture_output=True)
        _merge([f.with_suffix(".pdf") for f in files], out)


def _chromium_args() -> list[str]:
    return ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"]


def chromium(pages: list[str], out: Path) -> None:
    """Chromium's print to PDF (Playwright): all pages in one HTML document."""
    from playwright.sync_api import sync_playwright

    body = "".join(f'<div style="break-after: page">{p}</div>' for p in pages)
    html = f"<html><head><style>@page {{ margin: 0 }} body {{ margin: 0 }}</style></head>" \
           f"<body>{body}</body></html>"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=_chromium_args())
        page = browser.new_page()
        page.set_content(html)
        page.pdf(path=str(out), width=f"{A4.width}mm", height=f"{A4.height}mm",
                 print_background=True, margin={"top": "0", "bottom": "0", "left": "0",
                                                "right": "0"})
        browser.close()


CANDIDATES: dict[str, tuple[Converter, Callable[[], bool]]] = {
    "rsvg-convert": (rsvg, lambda: shutil.which("rsvg-convert") is not None),
    "cairosvg": (cairosvg, lambda: _importable("cairosvg") and _importable("pypdf")),
    "svglib+reportlab": (svglib, lambda: _importable("svglib")),
    "inkscape": (inkscape, lambda: shutil.which("inkscape") is not None and _importable("pypdf")),
    "chromium print": (chromium, lambda: Path("/usr/bin/chromium").exists()
                       and _importable("playwright")),
}


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def chromium_reference(pages: list[str], folder: Path, dpi: int) -> list[np.ndarray]:
    """Chromium's drawing of each SVG page (a screenshot at ``dpi``), as grey levels."""
    from playwright.sync_api import sync_playwright

    width = round(A4.width / 25.4 * dpi)
    height = round(A4.height / 25.4 * dpi)
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=_chromium_args())
        page = browser.new_page(viewport={"width": width, "height": height})
        for i, svg in enumerate(pages):
            sized = svg.replace(f'width="{A4.width}mm" height="{A4.height}mm"',
                                f'width="{width}" height="{height}"', 1)
            page.set_content(f'<html><body style="margin:0">{sized}</body></html>')
            path = folder / f"ref{i:03d}.png"
            page.screenshot(path=str(path))
            shots.append(np.asarray(Image.open(path).convert("L"), dtype=np.int16))
        browser.close()
    return shots


def rasterise(pdf: Path, folder: Path, size: tuple[int, int], dpi: int) -> list[np.ndarray]:
    """Every page of ``pdf`` drawn by pdftoppm at exactly ``size`` pixels, as grey levels."""
    prefix = folder / pdf.stem
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-scale-to-x", str(size[0]),
                    "-scale-to-y", str(size[1]), str(pdf), str(prefix)], check=True)
    return [np.asarray(Image.open(p), dtype=np.int16)
            for p in sorted(folder.glob(f"{pdf.stem}-*.pgm"))]


def _blur(grey: np.ndarray) -> np.ndarray:
    """A 3×3 box blur: edges drawn half a pixel apart by two renderers then nearly agree."""
    padded = np.pad(grey.astype(np.float32), 1, mode="edge")
    height, width = grey.shape
    return sum(padded[dy : dy + height, dx : dx + width] for dy in range(3)
               for dx in range(3)) / 9


def _facts(pdf: Path) -> tuple[bool, bool]:
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True,
                            text=True).stdout.splitlines()[2:]
    return ("Dice Tokens" in words and "Note Snap" in words, not images)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=0, help="compare only this many pages")
    parser.add_argument("--dpi", type=int, default=100)
    parser.add_argument("--keep", metavar="FOLDER", help="keep the PDFs and drawings there")
    args = parser.parse_args(argv)
    if shutil.which("pdftoppm") is None or not _importable("playwright"):
        print("needs pdftoppm (poppler-utils) and Playwright with /usr/bin/chromium")
        return 0
    snap = snap_pages(A4)
    duel = duel_pages(A4)
    # Sheets of every kind: note cards, the guide cards, rules, Compose, piano, tokens.
    pages = [snap[0], snap[3], snap[-1], duel[0], duel[1], duel[6], duel[-1]]
    if args.pages:
        pages = pages[: args.pages]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        reference = chromium_reference(pages, folder, args.dpi)
        size = (reference[0].shape[1], reference[0].shape[0])
        print(f"{len(pages)} A4 pages; reference: Chromium's drawing of each SVG at {args.dpi} dpi "
              f"({size[0]}×{size[1]} px)\n")
        print(f"{'converter':18} {'mean diff':>9} {'bad px %':>9} {'worst page':>11} "
              f"{'s/page':>7} {'PDF KiB':>8}  text  vectors  bad px % per page")
        for name, (convert, available) in CANDIDATES.items():
            if not available():
                print(f"{name:18} not installed here")
                continue
            out = folder / f"{name.split()[0].replace('+', '_')}.pdf"
            start = time.perf_counter()
            try:
                convert(pages, out)
            except Exception as err:  # a candidate that fails is a result too
                print(f"{name:18} failed: {type(err).__name__}: {str(err)[:60]}")
                continue
            seconds = (time.perf_counter() - start) / len(pages)
            drawn = rasterise(out, folder, size, args.dpi)
            if len(drawn) != len(pages):
                print(f"{name:18} made {len(drawn)} pages instead of {len(pages)}")
                continue
            diffs = [np.abs(_blur(a) - _blur(b)) for a, b in zip(drawn, reference, strict=True)]
            mean = float(np.mean([d.mean() for d in diffs]))
            bad = [float((d > 64).mean() * 100) for d in diffs]
            worst = int(np.argmax(bad))
            has_text, vectors = _facts(out) if len(pages) == 7 else (True, True)
            kib = out.stat().st_size / 1024
            print(f"{name:18} {mean:9.2f} {float(np.mean(bad)):9.2f} "
                  f"{f'{worst + 1} ({bad[worst]:.1f})':>11} {seconds:7.2f} {kib:8.0f}  "
                  f"{'yes' if has_text else 'NO ':4}  {'yes' if vectors else 'NO ':7}  "
                  + " ".join(f"{b:.1f}" for b in bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
