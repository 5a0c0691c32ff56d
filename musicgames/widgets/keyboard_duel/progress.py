"""Keyboard Duel's rows in a progress file, told from the engine's events.

See the package's notes (:mod:`musicgames.widgets.keyboard_duel`) for what each row means.
"""

from __future__ import annotations

from collections.abc import Sequence

from musicgames.duel import PIANO_CARDS, WHITE
from musicgames.duel.cards import key_piano, key_pitch_class
from musicgames.duel.events import DuelWon, Event, GameOver, Placed, RoundScored, RoundStarted
from musicgames.theory import Naming

__all__ = ["PROGRESS_ACTIVITY", "progress_item", "progress_rows"]

#: The activity of Keyboard Duel's rows in a progress file (see ``musicgames.progress``).
PROGRESS_ACTIVITY = "keyboard_duel"


def progress_item(key: int, piano: Sequence[int]) -> str:
    """How a progress row names a key (0–23) of the board whose piano cards are ``piano``:
    its note in solfège without octave, spelled in the key of its card's chord
    (``Triad.spell``: Si♭ in F major, La♯ in B major), then the chord of its card in English
    letter names. The same key of the same chord is always named the same, whatever the
    page's naming and language.

    >>> progress_item(7, (0, 9)), progress_item(13, (0, 9))
    ('Sol of C major', 'Do♯ of A major')
    """
    card = PIANO_CARDS[piano[key_piano(key)]]
    note = card.triad.tone_name(key_pitch_class(key), Naming.SOLFEGE)
    chord = card.name(Naming.LETTERS, "en")
    return f"{note} of {chord}"


def progress_rows(
    events: Sequence[Event], piano: Sequence[int], seat: int = WHITE
) -> list[tuple[str, str, bool | None]]:
    """The progress rows ``(item, answer, correct)`` that the engine's typed events tell, from
    ``seat``'s side; ``piano`` is the pair of piano cards in play at the first event (a
    :class:`~musicgames.duel.events.RoundStarted` changes it). See the package's notes for
    what each row means.

    >>> from musicgames.duel.events import GameOver, Placed, RoundScored
    >>> progress_rows([Placed(seat=0, token=0, key=7, power=2, cards=(1, 2)),
    ...                Placed(seat=0, token=1, key=2, power=1, cards=(3,)),
    ...                RoundScored(round=1, tokens=(), bonuses=(), scores=(6, 9),
    ...                            totals=(6, 9), turn_limit=False),
    ...                GameOver(winner=1, totals=(6, 9))], piano=(0, 9))
    [('Sol of C major', 'f', True), ('Re of C major', 'none', False), \
('round 1', '6–9', None), ('game', 'lost', None)]
    """
    rows: list[tuple[str, str, bool | None]] = []
    cards = (piano[0], piano[1])
    for event in events:
        if isinstance(event, RoundStarted):
            cards = (event.piano[0], event.piano[1])
        elif isinstance(event, Placed) and event.seat == seat:
            key = event.key
            mark = PIANO_CARDS[cards[key_piano(key)]].marks.get(key_pitch_class(key), "")
            rows.append((progress_item(key, cards), mark or "none", bool(mark)))
        elif isinstance(event, DuelWon):
            rows.append(("duel on " + progress_item(event.key, cards),
                         "won" if event.winner == seat else "lost", None))
        elif isinstance(event, RoundScored):
            own, other = event.scores[seat], event.scores[1 - seat]
            rows.append((f"round {event.round}", f"{own}–{other}", None))
        elif isinstance(event, GameOver):
            rows.append(("game", "won" if event.winner == seat else "lost", None))
    return rows
