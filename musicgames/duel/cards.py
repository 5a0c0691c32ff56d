"""Keyboard Duel cards: the 24 piano cards (rules D2–D4) and the 42 Compose cards (D5).

The board is two piano cards side by side, 24 keys numbered 0–23 from the left card's C
to the right card's B (D2). Key ``k`` lies on piano card ``k // 12`` and has pitch class
``k % 12`` (0 = C … 11 = B):

>>> key_for_letter("D", piano=1)
14
>>> key_name(14), key_name(1, Naming.SOLFEGE)
('D (right)', 'Do♯ (left)')

A piano card is one of the 24 major and minor triads from :mod:`musicgames.theory`. Its
root key is marked fff (×3), its third ff (×2) and its fifth f (×1); every other key
counts ×1 (D4):

>>> card = PIANO_CARDS[2]
>>> card.name(), card.marks
('D major', {2: 'fff', 6: 'ff', 9: 'f'})
>>> card.multiplier(2), card.multiplier(6), card.multiplier(9), card.multiplier(0)
(3, 2, 1, 1)

Compose cards are numbered 0–41. Cards 0–34 show a letter and a corner (five per letter,
corners 1, 2, 3, ↑, ↓); cards 35–41 are Wilds (D5). Cards are named by short codes:

>>> [str(COMPOSE_DECK[i]) for i in (0, 3, 4, 7, 35)]
['C1', 'C↑', 'C↓', 'D3', 'Wild']
>>> card_ids("D2 D^ Wild Wild")
(6, 8, 35, 36)
>>> COMPOSE_DECK[8].label(Naming.SOLFEGE)
'Re↑'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from musicgames.duel.errors import DuelError
from musicgames.shown import short_repr
from musicgames.theory import ALL_TRIADS, LETTERS, SYLLABLES, Naming, Note, Triad

__all__ = [
    "BOARD_KEYS",
    "CARD_ADD",
    "CARD_LETTER",
    "CARD_REROLL",
    "CARD_SHIFT",
    "CARD_STEPS",
    "CHORD_TONE_MULTIPLIERS",
    "COMPOSE_DECK",
    "DOWN_REROLL",
    "DECK_SIZE",
    "HAND_SIZE",
    "KEYS_PER_CARD",
    "LETTER_PITCH_CLASSES",
    "MARKS",
    "UP_REROLL",
    "PIANO_CARDS",
    "WILD_IDS",
    "CardCodeError",
    "ComposeCard",
    "Corner",
    "PianoCard",
    "card_ids",
    "key_for_letter",
    "key_name",
    "key_words",
    "key_piano",
    "key_pitch_class",
    "piano_keys",
]

#: Keys on one piano card (one octave, black keys included).
KEYS_PER_CARD = 12
#: Keys on the board: two piano cards (D2).
BOARD_KEYS = 24
#: Compose cards in the deck (D5).
DECK_SIZE = 42
#: Cards in a full hand (D6, D7).
HAND_SIZE = 5

#: Pitch class of each letter's white key, in the order of :data:`LETTERS` (C D E F G A B).
LETTER_PITCH_CLASSES: tuple[int, ...] = (0, 2, 4, 5, 7, 9, 11)

#: The multiplier of a piano card's chord tones, root, third and fifth (D4): the one home of
#: which tone gets which mark; every other key counts 1.
CHORD_TONE_MULTIPLIERS: tuple[int, int, int] = (3, 2, 1)
#: The mark printed on a key for each multiplier of a chord tone: as many f's as it
#: multiplies (D4).
MARKS: dict[int, str] = {m: "f" * m for m in CHORD_TONE_MULTIPLIERS}

_PITCH_CLASS_NAMES = ("C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B")
_SIDES = ("left", "right")


class CardCodeError(DuelError):
    """A card code such as ``'D2'`` or ``'Wild'`` that names no Compose card (D5)."""


# -- the board ----------------------------------------------------------------------------


def key_piano(key: int) -> int:
    """The piano card a key lies on: 0 for the left card (keys 0–11), 1 for the right."""
    return key // KEYS_PER_CARD


def key_pitch_class(key: int) -> int:
    """The pitch class of a key (0 = C … 11 = B)."""
    return key % KEYS_PER_CARD


def piano_keys(piano: int) -> range:
    """The board keys of piano card 0 (left) or 1 (right), C to B (D2).

    >>> piano_keys(1)
    range(12, 24)
    """
    return range(piano * KEYS_PER_CARD, (piano + 1) * KEYS_PER_CARD)


def key_for_letter(letter: str | int, piano: int) -> int:
    """The white key of a letter (``'D'``, ``'Re'`` or its index 0–6) on piano card 0 or 1.

    >>> key_for_letter("Sol", 0), key_for_letter(0, 1)
    (7, 12)
    """
    index = _letter_index(letter)
    return piano * KEYS_PER_CARD + LETTER_PITCH_CLASSES[index]


def key_name(key: int, naming: Naming | str = Naming.LETTERS) -> str:
    """A key's note name without octave and the card it lies on: ``'F♯ (left)'``.

    Black keys are named with sharps.
    """
    pitch_class = key_pitch_class(key)
    name = _PITCH_CLASS_NAMES[pitch_class]
    if Naming(naming) is Naming.SOLFEGE:
        name = SYLLABLES[LETTERS.index(name[0])] + name[1:]
    return f"{name} ({_SIDES[key_piano(key)]})"


def _letter_index(letter: str | int) -> int:
    if isinstance(letter, int) and not isinstance(letter, bool) and 0 <= letter < 7:
        return letter
    if isinstance(letter, str):
        text = letter.strip()
        if text.upper() in LETTERS:
            return LETTERS.index(text.upper())
        lowered = [s.lower() for s in SYLLABLES]
        if text.lower() in lowered:
            return lowered.index(text.lower())
    raise CardCodeError(
        f"{short_repr(letter)} is not a note letter: use one of {' '.join(LETTERS)} or "
        f"{' '.join(SYLLABLES)} (D5)", rule="D5"
    )


# -- piano cards (D3, D4) -------------------------------------------------------------------


@dataclass(frozen=True)
class PianoCard:
    """One piano card: an octave whose chord tones are the colored keys (D3).

    ``index`` is the triad's place in :data:`musicgames.theory.ALL_TRIADS` (0–23).
    """

    index: int
    triad: Triad

    @property
    def chord_pitch_classes(self) -> tuple[int, int, int]:
        """Pitch classes of root, third and fifth: the card's colored keys."""
        return self.triad.pitch_classes

    @property
    def marks(self) -> dict[int, str]:
        """Pitch class → mark for the three colored keys: root fff, third ff, fifth f."""
        return {pc: MARKS[m] for pc, m in zip(self.chord_pitch_classes, CHORD_TONE_MULTIPLIERS,
                                                strict=True)}

    @property
    def tone_marks(self) -> tuple[tuple[Note, str], ...]:
        """The chord's tones, root first, each with its mark (D4), as the card prints them.

        >>> [(n.label("letters", octave=False), m) for n, m in PIANO_CARDS[2].tone_marks]
        [('D', 'fff'), ('F♯', 'ff'), ('A', 'f')]
        """
        return tuple((note, MARKS[m]) for note, m in zip(self.triad.tones,
                                                          CHORD_TONE_MULTIPLIERS, strict=True))

    @property
    def multipliers(self) -> tuple[int, ...]:
        """The scoring multiplier of each of the 12 keys, C to B (D4, D13)."""
        return _PIANO_MULTIPLIERS[self.index]

    def multiplier(self, pitch_class: int) -> int:
        """Number of f's on the key of this pitch class; an unmarked key counts 1."""
        return _PIANO_MULTIPLIERS[self.index][pitch_class % KEYS_PER_CARD]

    def key_note(self, pitch_class: int) -> Note:
        """The name a card lands on this card's key by (D8), octave 3: a white key is its
        plain letter (F on F♯ major, never E♯; B on E♭ minor, never C♭), a black key is
        spelled in the chord's key (:meth:`Triad.spell`: B♭ in F major, A♯ in B major).

        The one rule for every key name the game shows, on the screen and on the printed
        cards.

        >>> f_sharp = PIANO_CARDS[6]
        >>> f_sharp.name(), f_sharp.key_note(5).label("letters", octave=False)
        ('F♯ major', 'F')
        >>> f_sharp.key_note(10).label("letters", octave=False)
        'A♯'
        """
        pc = pitch_class % KEYS_PER_CARD
        if pc in LETTER_PITCH_CLASSES:
            return Note(LETTERS[LETTER_PITCH_CLASSES.index(pc)], 0, 4)
        return self.triad.spell(pc)

    def name(self, naming: Naming | str = Naming.LETTERS, language: str = "en") -> str:
        """The chord's name, e.g. ``'D major'`` or ``'Re mayor'``."""
        return self.triad.name(naming, language)

    def key_words(self, pitch_class: int, naming: Naming | str = Naming.LETTERS) -> str:
        """A key of this card in words, spelled in the chord's key (``Triad.spell``), with its
        mark: ``'B♭ (fff) of B♭ major'``, ``'E♭ of B♭ major'`` — never A♯ in B♭ major.

        >>> PIANO_CARDS[10].key_words(10), PIANO_CARDS[10].key_words(3, "solfege")
        ('B♭ (fff) of B♭ major', 'Mi♭ of Si♭ major')
        """
        return _key_words(self.index, pitch_class % KEYS_PER_CARD, Naming(naming))

    def __repr__(self) -> str:
        return f"PIANO_CARDS[{self.index}]"


@cache
def _key_words(index: int, pitch_class: int, naming: Naming) -> str:
    card = PIANO_CARDS[index]
    note = card.triad.spell(pitch_class)
    mark = card.marks.get(pitch_class)
    words = note.label(naming.value, octave=False)
    return f"{words} ({mark}) of {card.name(naming)}" if mark else f"{words} of {card.name(naming)}"


def key_words(key: int, piano: tuple[int, int] | list[int],
              naming: Naming | str = Naming.LETTERS) -> str:
    """Key ``key`` (0–23) of a board whose piano cards are ``piano`` (left, right), in words
    spelled in its chord's key: ``key_words(22, (0, 10))`` is ``'B♭ (fff) of B♭ major'``.

    >>> key_words(22, (0, 10)), key_words(1, (0, 10))
    ('B♭ (fff) of B♭ major', 'D♭ of C major')
    """
    return PIANO_CARDS[piano[key // KEYS_PER_CARD]].key_words(key % KEYS_PER_CARD, naming)


def _multipliers(t: Triad) -> tuple[int, ...]:
    table = [1] * KEYS_PER_CARD
    for pitch_class, multiplier in zip(t.pitch_classes, CHORD_TONE_MULTIPLIERS, strict=True):
        table[pitch_class] = multiplier
    return tuple(table)


_PIANO_MULTIPLIERS: tuple[tuple[int, ...], ...] = tuple(_multipliers(t) for t in ALL_TRIADS)
#: The chord-tone pitch classes of each piano card, precomputed for the engine.
PIANO_CHORD_PITCH_CLASSES: tuple[tuple[int, int, int], ...] = tuple(
    t.pitch_classes for t in ALL_TRIADS
)
#: The 24 piano cards, in the order of :data:`musicgames.theory.ALL_TRIADS`.
PIANO_CARDS: tuple[PianoCard, ...] = tuple(PianoCard(i, t) for i, t in enumerate(ALL_TRIADS))


# -- Compose cards (D5) ---------------------------------------------------------------------


class Corner(IntEnum):
    """What a Compose card's corner shows: its movement (D9) and its duel effect (D11b)."""

    ONE = 1
    TWO = 2
    THREE = 3
    UP = 4
    DOWN = 5
    WILD = 6

    @property
    def symbol(self) -> str:
        """``'1'``, ``'2'``, ``'3'``, ``'↑'``, ``'↓'`` or ``''`` for a Wild."""
        return _CORNER_SYMBOLS[self]

    @property
    def steps(self) -> int:
        """Keys a Move with this card goes (D9): 1–3 for numbers, 1 for a Wild, 0 for arrows."""
        return _CORNER_STEPS[self]

    @property
    def shift(self) -> int:
        """Which way an arrow shifts a player's tokens on a piano card (D9): +1 (right) for
        ↑, −1 (left) for ↓, 0 for a card that is no arrow."""
        return _CORNER_ARROWS.get(self, 0)

    @property
    def addition(self) -> int:
        """What the card adds to its player's duel total (D11b): its number, 1 for a Wild (its
        corner does the same job as in a Move, D9), 0 for arrows."""
        return _CORNER_STEPS[self]

    @property
    def reroll(self) -> int:
        """Which die the card rerolls in a duel (D11b): +1 the player's own lowest (↑), −1 the
        opponent's highest (↓), 0 none."""
        return _CORNER_ARROWS.get(self, 0)


_CORNER_SYMBOLS = {
    Corner.ONE: "1",
    Corner.TWO: "2",
    Corner.THREE: "3",
    Corner.UP: "↑",
    Corner.DOWN: "↓",
    Corner.WILD: "",
}
# What each corner does (D9, D11b): the one home of the corners' meaning. A number moves and
# adds its value, a Wild 1; an arrow moves nothing and adds nothing, but points up (right,
# one's own lowest die) or down (left, the opponent's highest).
_CORNER_STEPS = {Corner.ONE: 1, Corner.TWO: 2, Corner.THREE: 3, Corner.UP: 0, Corner.DOWN: 0,
                 Corner.WILD: 1}
_CORNER_ARROWS = {Corner.UP: 1, Corner.DOWN: -1}
_LETTER_CORNERS = (Corner.ONE, Corner.TWO, Corner.THREE, Corner.UP, Corner.DOWN)


@dataclass(frozen=True)
class ComposeCard:
    """One Compose card: ``id`` 0–41, a letter index 0–6 (C–B) or ``None`` for a Wild."""

    id: int
    letter: int | None
    corner: Corner

    @property
    def is_wild(self) -> bool:
        """True for the seven Wilds."""
        return self.letter is None

    @property
    def letter_name(self) -> str | None:
        """The card's letter (``'D'``), or ``None`` for a Wild."""
        return None if self.letter is None else LETTERS[self.letter]

    def label(self, naming: Naming | str = Naming.LETTERS) -> str:
        """The card's name for display: ``'D2'``, ``'Re↑'``, ``'Wild'``."""
        if self.letter is None:
            return "Wild"
        names = SYLLABLES if Naming(naming) is Naming.SOLFEGE else LETTERS
        return f"{names[self.letter]}{self.corner.symbol}"

    def __str__(self) -> str:
        return self.label(Naming.LETTERS)

    def __repr__(self) -> str:
        return f"COMPOSE_DECK[{self.id}]"


#: The 42 Compose cards by id: ids ``5 * letter + corner`` for the lettered ones, 35–41 Wilds.
COMPOSE_DECK: tuple[ComposeCard, ...] = tuple(
    ComposeCard(5 * letter + j, letter, corner)
    for letter in range(7)
    for j, corner in enumerate(_LETTER_CORNERS)
) + tuple(ComposeCard(35 + w, None, Corner.WILD) for w in range(7))
#: The ids of the seven Wilds.
WILD_IDS: tuple[int, ...] = tuple(range(35, 42))

#: What a ↑ card and a ↓ card reroll (``Corner.reroll``, D11b), for the odds and the computer
#: players, who count a reroll's outcomes with ``kernel.after_reroll``.
UP_REROLL, DOWN_REROLL = Corner.UP.reroll, Corner.DOWN.reroll

#: Fast tables for the engine, by card id: the letter index (−1 for a Wild), and what the
#: card's corner does (:class:`Corner`): keys a Move goes (D9), which way an arrow shifts
#: (D9), what it adds in a duel and which die it rerolls (D11b).
CARD_LETTER: tuple[int, ...] = tuple(-1 if c.letter is None else c.letter for c in COMPOSE_DECK)
CARD_STEPS: tuple[int, ...] = tuple(c.corner.steps for c in COMPOSE_DECK)
CARD_SHIFT: tuple[int, ...] = tuple(c.corner.shift for c in COMPOSE_DECK)
CARD_ADD: tuple[int, ...] = tuple(c.corner.addition for c in COMPOSE_DECK)
CARD_REROLL: tuple[int, ...] = tuple(c.corner.reroll for c in COMPOSE_DECK)

_CODE_CORNERS = {
    "1": Corner.ONE, "2": Corner.TWO, "3": Corner.THREE,
    "↑": Corner.UP, "^": Corner.UP, "u": Corner.UP, "up": Corner.UP,
    "↓": Corner.DOWN, "v": Corner.DOWN, "d": Corner.DOWN, "down": Corner.DOWN,
}


def card_ids(codes: str | Iterable[str]) -> tuple[int, ...]:
    """Card ids from codes: a letter or syllable with 1, 2, 3, ↑ (or ^) or ↓ (or v); ``Wild``.

    Successive Wilds get successive Wild ids, so the result holds distinct cards.

    >>> card_ids(["Sol3", "Gv", "wild"])
    (22, 24, 35)
    >>> card_ids("H2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.duel.cards.CardCodeError: 'H2' is not a card: use a letter C–B or a syllable ...
    """
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    ids: list[int] = []
    wilds = iter(WILD_IDS)
    for code in codes:
        text = code.strip()
        if text.lower() in ("wild", "w", "jam"):
            try:
                ids.append(next(wilds))
            except StopIteration:
                raise CardCodeError("there are only 7 Wilds in the deck (D5)", rule="D5") from None
            continue
        ids.append(_lettered_card_id(text))
    if len(set(ids)) != len(ids):
        raise CardCodeError(f"{short_repr(codes)} names a card twice: each card is unique "
                            "(D5)", rule="D5")
    return tuple(ids)


def _lettered_card_id(text: str) -> int:
    for split in range(len(text) - 1, 0, -1):
        name, corner = text[:split], text[split:].lower()
        if corner in _CODE_CORNERS:
            try:
                letter = _letter_index(name)
            except CardCodeError:
                break
            return 5 * letter + _LETTER_CORNERS.index(_CODE_CORNERS[corner])
    raise CardCodeError(
        f"{short_repr(text)} is not a card: use a letter C–B or a syllable Do–Si followed by "
        "1, 2, 3, "
        "↑ or ↓, or 'Wild' (D5)", rule="D5"
    )
