"""The Note Snap cards (S1) and guide card (S2), and the cycle of names that players call.

The deck has 56 cards. Each card shows one natural note from Do3 (middle C) to Do5 and
each of the seven names appears on 8 cards (S1, resolved): Do3 ×3, Do4 ×3, Do5 ×2, and
every other name ×4 in octave 3 and ×4 in octave 4.

A card is a number from 0 to 55, its *card id*, so that the engine can move cards around
quickly; :data:`DECK` gives the note printed on each card. Cards are numbered name by
name, so the cards of ``Do`` are 0–7, those of ``Re`` 8–15, and so on.

>>> len(DECK), DECK[0], DECK[55]
(56, Note.parse('Do3'), Note.parse('Si4'))
>>> card_name(10), card_note(10).solfege
('Re', 'Re3')
>>> from collections import Counter
>>> sorted(Counter(n.solfege for n in DECK if n.syllable == "Do").items())
[('Do3', 3), ('Do4', 3), ('Do5', 2)]

Players call the names in the order of :data:`CALL_CYCLE`, starting again at Do after Si:

>>> CALL_CYCLE
('Do', 'Re', 'Mi', 'Fa', 'Sol', 'La', 'Si')
>>> call_index("sol"), call_index("G")
(4, 4)
"""

from __future__ import annotations

from musicgames.shown import short_repr
from musicgames.snap.errors import CallError
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, Naming, Note

__all__ = [
    "CALL_CYCLE",
    "CARD_NAME_INDEX",
    "CARD_NAMES",
    "DECK",
    "DECK_SIZE",
    "GUIDE_CARD",
    "call_index",
    "card_name",
    "cards_of",
    "card_note",
    "guide_card",
    "is_match",
    "next_call",
]

#: The names called in turn, from Do to Si; a new round starts again at Do (S5).
CALL_CYCLE: tuple[str, ...] = SYLLABLES

#: How many cards of each Franco-Belgian octave every name has (S1, resolved).
_COPIES: dict[str, tuple[tuple[int, int], ...]] = {
    "Do": ((3, 3), (4, 3), (5, 2)),
    **{name: ((3, 4), (4, 4)) for name in SYLLABLES[1:]},
}


def _build_deck() -> tuple[Note, ...]:
    by_label = {note.solfege: note for note in CARD_NOTES}
    deck: list[Note] = []
    for name in CALL_CYCLE:
        for octave, copies in _COPIES[name]:
            deck.extend([by_label[f"{name}{octave}"]] * copies)
    return tuple(deck)


#: The note printed on each card, indexed by card id (0–55).
DECK: tuple[Note, ...] = _build_deck()
#: The number of cards in the game: 56.
DECK_SIZE: int = len(DECK)
#: For each card id, the index of its name in :data:`CALL_CYCLE` (0 = Do … 6 = Si).
#: Precomputed so the rules never need music21 while a game runs.
CARD_NAME_INDEX: tuple[int, ...] = tuple(CALL_CYCLE.index(note.syllable) for note in DECK)
#: For each card id, its name without octave: ``'Do'`` … ``'Si'``.
CARD_NAMES: tuple[str, ...] = tuple(CALL_CYCLE[i] for i in CARD_NAME_INDEX)

#: The guide card (S2): all 15 card notes, low to high, each with its solfège name.
GUIDE_CARD: tuple[tuple[Note, str], ...] = tuple((note, note.solfege) for note in CARD_NOTES)

_CALL_LOOKUP: dict[str, int] = {
    **{name.lower(): i for i, name in enumerate(CALL_CYCLE)},
    **{letter.lower(): i for i, letter in enumerate(LETTERS)},
    "ré": 1,
}


def card_note(card: int) -> Note:
    """The note printed on a card.

    >>> card_note(8)
    Note.parse('Re3')
    """
    return DECK[card]


def card_name(card: int) -> str:
    """The name of the note on a card, without octave: what a player compares with a call.

    >>> [card_name(c) for c in (0, 5, 7, 8, 55)]
    ['Do', 'Do', 'Do', 'Re', 'Si']
    """
    return CARD_NAMES[card]


def is_match(card: int | Note, call: str) -> bool:
    """True when ``card`` is a match for the name ``call`` called on it (S6): the note's name,
    in any octave, is the name called. The one place the rules decide what a match is: the
    engine, the computer players, the table and the lessons all ask it.

    ``card`` is a card id or a :class:`~musicgames.theory.Note`; ``call`` a name as
    :data:`CALL_CYCLE` spells it (:func:`call_index` reads any other spelling).

    >>> is_match(8, "Re"), is_match(8, "Do")   # card 8 shows Re3
    (True, False)
    >>> is_match(Note.parse("Do5"), "Do"), is_match(Note.parse("Sol3"), "La")
    (True, False)
    """
    try:
        return CARD_NAMES[card] == call  # type: ignore[index]  # a card id: the game's path
    except TypeError:
        return card.syllable == call  # type: ignore[union-attr]


def next_call(call: str) -> str:
    """The name called after ``call`` (S5): the next of the cycle, and Do again after Si.
    The one place the rules say so: the engine, the checks of every position and the
    lessons all ask it.

    >>> next_call("Sol"), next_call("Si"), next_call("D")
    ('La', 'Do', 'Mi')
    """
    return CALL_CYCLE[(call_index(call) + 1) % len(CALL_CYCLE)]


def cards_of(name: str) -> tuple[int, ...]:
    """The ids of the cards showing a name (``'Sol'``, any octave) or a note (``'Sol3'``).

    >>> cards_of("Do4"), cards_of("Do5"), cards_of("Re")
    ((3, 4, 5), (6, 7), (8, 9, 10, 11, 12, 13, 14, 15))
    >>> cards_of("Sol5")  # no card shows Sol5: the cards stop at Do5
    ()
    """
    try:
        index = call_index(name)
    except CallError:
        note = Note.parse(name)
        return tuple(card for card, n in enumerate(DECK) if n == note)
    return tuple(card for card, i in enumerate(CARD_NAME_INDEX) if i == index)


def guide_card(
    naming: Naming | str = Naming.SOLFEGE, language: str = "en"
) -> tuple[tuple[Note, str], ...]:
    """The guide card (S2): the 15 notes of the deck with their names, low to high, in
    ``naming`` as ``language`` writes it. The one home of the guide card: the table on
    screen and the printed card both show what it returns.

    >>> [label for _, label in guide_card("letters")][:3]
    ['C4', 'D4', 'E4']
    >>> guide_card()[-1], guide_card(language="fr")[1]
    ((Note.parse('Do5'), 'Do5'), (Note.parse('Re3'), 'ré3'))
    """
    naming = Naming(naming)
    return tuple((note, note.label(naming, language=language)) for note in CARD_NOTES)


def call_index(call: object) -> int:
    """The place in :data:`CALL_CYCLE` of a called name (0 = Do … 6 = Si).

    A call is a solfège syllable or a letter name, in any case, without octave.

    >>> call_index("Do"), call_index("si"), call_index("A")
    (0, 6, 5)
    >>> call_index("Do3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.snap.errors.CallError: call 'Do3' is not a note name: call one of Do Re Mi ...
    """
    if isinstance(call, str):
        index = _CALL_LOOKUP.get(call.strip().lower())
        if index is not None:
            return index
    raise CallError(
        f"call {short_repr(call)} is not a note name: call one of {' '.join(CALL_CYCLE)} "
        f"(or {' '.join(LETTERS)}), without octave"
    )
