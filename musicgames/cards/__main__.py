"""``python -m musicgames.cards snap|duel --out FILE.pdf``: print-and-play decks as a PDF.

Options: ``--paper a4|letter``, ``--naming solfege|letters``, ``--language en|es|fr`` and
``--back`` (a sheet of card backs after each sheet of cards, for printing on both sides).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from musicgames.cards import GAMES, PAPERS, make_deck
from musicgames.i18n import LANGUAGES
from musicgames.theory import Naming

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.cards",
        description="Print-and-play cards of Note Snap or Keyboard Duel, as a PDF.",
    )
    parser.add_argument("game", choices=GAMES, help="snap: Note Snap; duel: Keyboard Duel")
    parser.add_argument("--out", required=True, help="the PDF file to write")
    parser.add_argument("--paper", choices=tuple(PAPERS), default="a4")
    parser.add_argument("--naming", choices=[n.value for n in Naming], default="solfege",
                        help="note names: solfege (Do Re Mi) or letters (C D E)")
    parser.add_argument("--language", choices=LANGUAGES, default="en",
                        help="en: English; es: Latin-American Spanish; fr: French")
    parser.add_argument("--back", action="store_true",
                        help="add card backs (print on both sides, flip on the long edge)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        path = make_deck(args.game, args.out, paper=args.paper, naming=args.naming,
                         language=args.language, back=args.back)
    except (ValueError, RuntimeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"wrote {path} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
