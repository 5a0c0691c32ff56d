"""musicgames: note reading and chord tones through play, in Jupyter.

The note and chord model lives in :mod:`musicgames.theory` and is re-exported here; a note
or chord shows itself on a staff in a notebook, drawn by :mod:`musicgames.render`, which is
loaded the first time one is shown (``import musicgames`` stays light).

>>> import musicgames
>>> len(musicgames.ALL_TRIADS)
24
"""

from typing import TYPE_CHECKING, Any

from musicgames import theory
from musicgames.theory import (
    CARD_NOTES,
    LETTERS,
    SYLLABLES,
    Naming,
    Note,
    NoteError,
    Triad,
    TriadError,
    franco_belgian_to_music21_octave,
    music21_to_franco_belgian_octave,
    triad,
)

__all__ = [
    "ALL_TRIADS",
    "CARD_NOTES",
    "LETTERS",
    "SYLLABLES",
    "Naming",
    "Note",
    "NoteError",
    "Triad",
    "TriadError",
    "franco_belgian_to_music21_octave",
    "music21_to_franco_belgian_octave",
    "triad",
]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from musicgames.theory import ALL_TRIADS


def _staff(notes: list[Any]) -> str:
    """A note's or chord's staff, as :func:`musicgames.render.staff_svg` engraves it; the
    renderer is loaded the first time a note is shown (it then draws the notes itself)."""
    from musicgames.render import staff_svg

    return staff_svg(notes)


theory.draw_staves_with(_staff)


def __getattr__(name: str) -> object:
    """``ALL_TRIADS`` is built on first use: ``import musicgames`` does not load music21."""
    if name == "ALL_TRIADS":
        return theory.ALL_TRIADS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
