"""Facts the lessons teach, and the plain words that explain them.

Where a note sits on the treble staff, counted in lines from the bottom line (Mi3/E4) as 0
up to the top line (Fa4/F5) as 4; spaces are halves:

>>> staff_place("Mi3"), staff_place("Sol3"), staff_place("Do4"), staff_place("Do3")
(0.0, 1.0, 2.5, -1.0)
>>> where("Re3"), where("Mi3")
('hangs just below the bottom line', 'sits on the 1st line (the bottom one)')
>>> where("Do3", "es")
'está en la primera línea adicional, debajo del pentagrama'

Half steps are counted on the keyboard, every key (black or white) one step:

>>> half_steps("Re3", "Fa#3"), half_steps("Mi3", "Fa3")
(4, 1)
>>> third_words("Re3", "Fa#3")
'from Re to Fa♯ is 4 half steps: a major third'

The same words explain the lessons' exercises, the note drill and the chord quiz:

>>> named_why("La3")
'La3 sits in the 2nd space.'
>>> said = named_wrong("La3", "Sol3")
>>> said.startswith("Sol3 sits on the 2nd line"), said.endswith("one step higher: it is La3.")
(True, True)
"""

from __future__ import annotations

from musicgames.i18n import counted, text
from musicgames.theory import LETTERS, Naming, Note, Triad

__all__ = [
    "chord_third_words",
    "half_steps",
    "heard_words",
    "ledger_lines",
    "named_why",
    "named_wrong",
    "nearest_named",
    "on_a_line",
    "staff_place",
    "steps_between",
    "steps_words",
    "third_words",
    "where",
]


def staff_place(note: Note | str) -> float:
    """Where a note sits on the treble staff: 0 is the bottom line (Mi3/E4), 4 the top line
    (Fa4/F5), spaces are halves; below the staff is negative."""
    n = Note.parse(note)
    return (n.scientific_octave * 7 + LETTERS.index(n.step) - (4 * 7 + 2)) / 2


def on_a_line(note: Note | str) -> bool:
    """Whether a note sits on a line (a staff line or a ledger line) rather than in a space.

    >>> on_a_line("Sol3"), on_a_line("La3"), on_a_line("Do3")
    (True, False, True)
    """
    return staff_place(note) == int(staff_place(note))


def ledger_lines(note: Note | str) -> int:
    """How many short ledger lines a note needs below or above the treble staff.

    >>> [ledger_lines(n) for n in ("Do3", "Re3", "Sol4", "La4", "Si4", "Do5")]
    [1, 0, 0, 1, 1, 2]
    """
    place = staff_place(note)
    if place < 0:
        return int(-place)
    if place > 4:
        return int(place) - 4
    return 0


def where(note: Note | str, language: str = "en") -> str:
    """Where the note's head sits, in words a beginner knows ("sits on the 2nd line")."""
    place = staff_place(note)
    doubled = int(place * 2)
    if 0 <= place <= 4:
        if doubled % 2 == 0:
            return text(f"lesson.where.line.{int(place) + 1}", language)
        return text(f"lesson.where.space.{int(place) + 1}", language)
    if place < 0:
        side, count = "below", int(-place * 2)  # 1 = just below the staff, 2 = on ledger 1…
    else:
        side, count = "above", int((place - 4) * 2)
    if count == 1:
        return text(f"lesson.where.just.{side}", language)
    ledger = count // 2
    if count % 2 == 0:
        return text(f"lesson.where.ledger.{side}", language, n=_ordinal(ledger, language))
    return text(f"lesson.where.past.{side}", language, n=_ordinal(ledger, language))


def _ordinal(n: int, language: str) -> str:
    return text(f"lesson.ordinal.word.{min(n, 3)}", language)


def steps_between(low: Note | str, high: Note | str) -> int:
    """How many note names (lines and spaces) from ``low`` up to ``high`` on the staff.

    >>> steps_between("La3", "Si3"), steps_between("Si3", "La3"), steps_between("Do3", "Do4")
    (1, -1, 7)
    """
    return int(round((staff_place(high) - staff_place(low)) * 2))


def half_steps(low: Note | str, high: Note | str) -> int:
    """How many half steps (keys on the keyboard, black or white) from ``low`` up to ``high``."""
    return Note.parse(high).midi - Note.parse(low).midi


def third_words(
    root: Note | str, third: Note | str, language: str = "en", naming: Naming | str = "solfege"
) -> str:
    """"From Re to Fa♯ is 4 half steps: a major third" (3 half steps: a minor third)."""
    n = half_steps(root, third) % 12
    kind = {4: "major", 3: "minor"}.get(n, "other")
    return text(
        f"lesson.third.{kind}",
        language,
        low=Note.parse(root).label(naming, octave=False, language=language),
        high=Note.parse(third).label(naming, octave=False, language=language),
        n=n,
    )


def chord_third_words(chord: Triad, language: str = "en", naming: Naming | str = "solfege") -> str:
    """"Re major: from Re to Fa♯ is 4 half steps: a major third." — a triad's quality, told
    by its third.

    >>> from musicgames.theory import triad
    >>> chord_third_words(triad("A", "minor"), "es")
    'La menor: de La a Do hay 3 semitonos: una tercera menor.'
    """
    said = third_words(chord.root, chord.third, language, naming)
    return text("lesson.third.chord", language, chord=chord.name(Naming(naming), language),
                third=said)


def heard_words(chord: Triad, language: str = "en", naming: Naming | str = "solfege") -> str:
    """"It was Re major: from Re to Fa♯ is 4 half steps: a major third, so it sounds bright."
    — what a chord heard was, and why it sounds as it does."""
    return text(
        f"lesson.ear.why.{chord.quality}",
        language,
        chord=chord.name(Naming(naming), language),
        third=third_words(chord.root, chord.third, language, naming),
    )


def steps_words(n: int, language: str = "en") -> str:
    """How far up or down on the staff, in words: "one step higher", "3 steps lower"."""
    if n == 0:
        return text("lesson.steps.same", language)
    return counted("lesson.steps.up" if n > 0 else "lesson.steps.down", abs(n), language)


def nearest_named(letter: str, note: Note | str) -> Note:
    """The note named ``letter`` (C … B) nearest to ``note`` on the staff: where a wrong
    name would put the note.

    >>> nearest_named("G", "La3").solfege, nearest_named("C", "Si3").solfege
    ('Sol3', 'Do4')
    """
    near = Note.parse(note)
    candidates = [Note(letter, 0, near.scientific_octave + k) for k in (-1, 0, 1)]
    return min(candidates, key=lambda n: abs(steps_between(near, n)))


def named_why(note: Note | str, language: str = "en", naming: Naming | str = "solfege") -> str:
    """"La3 sits in the 2nd space." — where a note sits, which names it."""
    n = Note.parse(note)
    return text("lesson.name.why", language, name=n.label(naming, language=language),
                where=where(n, language))


def named_wrong(
    note: Note | str, chosen: Note | str, language: str = "en", naming: Naming | str = "solfege"
) -> str:
    """Why ``chosen`` is not ``note``: where the chosen note would sit, where this one sits,
    and how far apart they are ("Sol3 sits on the 2nd line …; this note sits in the 2nd
    space, one step higher: it is La3.")."""
    n, other = Note.parse(note), Note.parse(chosen)
    return text(
        "lesson.name.wrong",
        language,
        chosen=other.label(naming, language=language),
        chosen_where=where(other, language),
        where=where(n, language),
        steps=steps_words(steps_between(other, n), language),
        name=n.label(naming, language=language),
    )
