"""musicgames: note reading and chord tones through play, in Jupyter.

The note and chord model lives in :mod:`musicgames.theory` and is re-exported here;
:mod:`musicgames.render` is loaded with it, so a note or chord shows itself on a staff.

>>> import musicgames
>>> len(musicgames.ALL_TRIADS)
24
"""

from typing import TYPE_CHECKING

from musicgames import (
    render,  # noqa: F401 - loaded so notes and chords draw themselves
    theory,
)
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


def __getattr__(name: str) -> object:
    """``ALL_TRIADS`` is built on first use: ``import musicgames`` does not load music21."""
    if name == "ALL_TRIADS":
        return theory.ALL_TRIADS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
