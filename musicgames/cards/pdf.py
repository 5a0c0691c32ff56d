"""SVG pages → one PDF, with librsvg's ``rsvg-convert`` (Debian ``librsvg2-bin``).

Chosen by measurement (``benchmarks/bench_cards.py``): of rsvg-convert, CairoSVG,
svglib + ReportLab, Inkscape and Chromium's print to PDF, rsvg-convert drew the card pages
closest to Chromium's own drawing of the same SVG and was the fastest, keeping verovio's
staves as vector paths and every word as text. All pages go to it in one call.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ConverterMissingError", "RSVG_CONVERT", "svg_pages_to_pdf"]

#: The converter's command.
RSVG_CONVERT = "rsvg-convert"


class ConverterMissingError(RuntimeError):
    """``rsvg-convert`` is not installed: say how to install it."""


def svg_pages_to_pdf(pages: Sequence[str], out: str | Path) -> Path:
    """Write the SVG ``pages`` (one SVG document each) as the pages of one PDF at ``out``."""
    if not pages:
        raise ValueError("no pages to write")
    command = shutil.which(RSVG_CONVERT)
    if command is None:
        raise ConverterMissingError(
            "making the PDF needs rsvg-convert from librsvg: install it with "
            "'apt-get install librsvg2-bin' (Debian, Ubuntu), 'brew install librsvg' (macOS) "
            "or 'conda install -c conda-forge librsvg'"
        )
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="musicgames-cards-") as tmp:
        files = []
        for number, page in enumerate(pages):
            path = Path(tmp) / f"page{number:03d}.svg"
            path.write_text(page, encoding="utf-8")
            files.append(str(path))
        done = subprocess.run(
            [command, "--format=pdf", f"--output={out}", *files],
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        raise RuntimeError(f"rsvg-convert could not make {out}: {done.stderr.strip()}")
    return out
