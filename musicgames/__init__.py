"""musicgames: note reading and chord tones through play, in Jupyter.

The note and chord model lives in :mod:`musicgames.theory` and is re-exported here.
"""

from musicgames.theory import (
    ALL_TRIADS,
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
