"""Exercises on reading notes: line or space, which note, its octave number in both
namings, ledger lines, and which key of the keyboard."""

from __future__ import annotations

from collections.abc import Iterable

from musicgames.lessons.drawings import LessonDrawings
from musicgames.lessons.exercises import Exercise, Question
from musicgames.lessons.facts import (
    ledger_lines,
    named_why,
    named_wrong,
    nearest_named,
    on_a_line,
    staff_place,
    where,
)
from musicgames.theory import CARD_NOTES, LETTERS, Naming, Note

__all__ = ["NoteReading"]


class NoteReading(LessonDrawings):
    """Exercises on reading notes on the staff and the keyboard."""

    def line_or_space(self, notes: Iterable[Note | str]) -> Exercise:
        """"Is this note on a line or in a space?" for each note."""
        options = (self._t("lesson.line"), self._t("lesson.space"))
        questions = []
        for note in (Note.parse(n) for n in notes):
            line = on_a_line(note)
            if line:
                why = "lesson.los.ledger" if ledger_lines(note) else "lesson.los.line"
            else:
                why = "lesson.los.space"
            questions.append(
                Question(
                    self._t("lesson.line_or_space.prompt"),
                    options,
                    0 if line else 1,
                    str(self.staff(note)),
                    self._t(why, name=self.name(note), where=where(note, self.language)),
                    wrong_picture=str(self.staff(note, labels=True, size=0.8)),
                    sound=(note,),
                )
            )
        return self._exercise("line_or_space", self._t("lesson.line_or_space.title"), questions)

    def name_notes(
        self, notes: Iterable[Note | str], *, questions: int | None = None, choices: int = 4
    ) -> Exercise:
        """"Which note is this?" — a note on the staff, names to choose from (no octave). A
        wrong name is explained by where that note would sit, and how far it is."""
        pool = [Note.parse(n) for n in notes]
        if questions is not None:
            pool = [self.rng.choice(pool) for _ in range(questions)] if questions else []
        names = [self.name(n, octave=False) for n in CARD_NOTES[:7]]
        items = []
        for note in pool:
            right = self.name(note, octave=False)
            options, index = self._pick(names, right, choices)
            why = []
            for option in options:
                if option == right:
                    why.append("")
                    continue
                other = nearest_named(LETTERS[names.index(option)], note)
                why.append(named_wrong(note, other, self.language, self.naming))
            items.append(
                Question(
                    self._t("lesson.name.prompt"),
                    options,
                    index,
                    str(self.staff(note)),
                    named_why(note, self.language, self.naming),
                    tuple(why),
                    wrong_picture=str(self.staff(note, labels=True, size=0.8)),
                    sound=(note,),
                    explain_wrong=False,
                    notes=tuple(nearest_named(LETTERS[names.index(o)], note) for o in options),
                    octave="never",
                )
            )
        return self._exercise("name_notes", self._t("lesson.name.title"), items)

    def octave_names(self, notes: Iterable[Note | str]) -> Exercise:
        """"This note is Sol3 in solfège: what is it in letter names?" (and the other way
        round with letters), with the neighbouring octave numbers as wrong answers."""
        items = []
        for note in (Note.parse(n) for n in notes):
            shown_naming = self.naming
            other = Naming.LETTERS if shown_naming is Naming.SOLFEGE else Naming.SOLFEGE
            right = note.label(other, language=self.language)
            base = note.label(other, octave=False, language=self.language)
            number = note.scientific_octave if other is Naming.LETTERS else note.octave
            options = [f"{base}{number - 1}", right, f"{base}{number + 1}"]
            self.rng.shuffle(options)
            why = [
                ""
                if o == right
                else self._t(
                    "lesson.octave.off.low" if o < right else "lesson.octave.off.high", chosen=o
                )
                for o in options
            ]
            items.append(
                Question(
                    self._t(f"lesson.octave.prompt.{other.value}", name=self.name(note)),
                    tuple(options),
                    options.index(right),
                    str(self.staff(note)),
                    self._t(
                        "lesson.octave.why",
                        solfege=note.label(Naming.SOLFEGE, language=self.language),
                        letters=note.label(Naming.LETTERS),
                    ),
                    tuple(why),
                    sound=(note,),
                )
            )
        return self._exercise("octave_names", self._t("lesson.octave.title"), items)

    def ledger_line_count(self, notes: Iterable[Note | str]) -> Exercise:
        """"How many ledger lines does this note need?" — explained by where the note sits
        and by its neighbour on the staff."""
        items = []
        for note in (Note.parse(n) for n in notes):
            count = ledger_lines(note)
            place = staff_place(note)
            said = self._t("lesson.ledger.where", name=self.name(note),
                           where=where(note, self.language))
            if place in (-0.5, 4.5):  # just outside: the staff line next to it is enough
                neighbour = Note.parse("Mi3" if place < 0 else "Fa4")
                said += " " + self._t("lesson.ledger.none.outside", other=self.name(neighbour),
                                      where=where(neighbour, self.language))
                picture = self.staff([note, neighbour], labels=True, size=0.8)
            elif count == 0:
                said += " " + self._t("lesson.ledger.none.inside")
                picture = self.staff(note, labels=True, size=0.8)
            else:
                said += " " + self._t("lesson.ledger.some", n=count)
                picture = self.staff(note, labels=True, size=0.8)
            items.append(
                Question(
                    self._t("lesson.ledger.prompt", name=self.name(note)),
                    ("0", "1", "2", "3"),
                    count,
                    str(self.staff(note)),
                    said,
                    wrong_picture=str(picture),
                    sound=(note,),
                )
            )
        return self._exercise("ledger_line_count", self._t("lesson.ledger.title"), items)

    def marked_key(self, notes: Iterable[Note | str], *, octaves: int = 3) -> Exercise:
        """"Which note is the coloured key?" — with octave numbers, so the octave matters."""
        items = []
        for note in (Note.parse(n) for n in notes):
            right = self.name(note)
            base = self.name(note, octave=False)
            number = note.octave if self.naming is Naming.SOLFEGE else note.scientific_octave
            shifts = [-1, 0, 1]
            self.rng.shuffle(shifts)
            options = [f"{base}{number + k}" for k in shifts]
            do = Note("C", 0, note.scientific_octave)
            why = [
                ""
                if o == right
                else self._t("lesson.key.off.low" if o < right else "lesson.key.off.high",
                             chosen=o)
                for o in options
            ]
            items.append(
                Question(
                    self._t("lesson.key.prompt"),
                    tuple(options),
                    options.index(right),
                    str(self.keyboard(octaves, highlight=[note], labels=False)),
                    self._t("lesson.key.why", name=right, do=self.name(do),
                            nth=self._t(f"lesson.nth.{note.octave - 2}")),
                    tuple(why),
                    wrong_picture=str(
                        self.keyboard(octaves, highlight=[note], octave_labels=True,
                                      black_labels=False)
                    ),
                    sound=(note,),
                    notes=tuple(Note(note.step, note.alter, note.scientific_octave + k)
                                for k in shifts),
                    octave="always",  # the question is which octave
                )
            )
        return self._exercise("marked_key", self._t("lesson.key.title"), items)
