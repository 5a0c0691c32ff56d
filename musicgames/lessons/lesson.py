"""A lesson's settings and everything it shows: drawings, exercises that explain, play.

A lesson names notes one way throughout (Do Re Mi or C D E), in one language:

>>> lesson = Lesson(naming="letters", record=False)
>>> lesson.name("Sol3"), lesson.name("Sol3", octave=False)
('G4', 'G')
>>> ex = lesson.line_or_space(["Mi3", "Fa3"])
>>> ex.buttons[0].description, ex.buttons[1].description
('on a line', 'in a space')
>>> ex.buttons[1].click()          # Mi3 (E4) sits on the bottom line
>>> ex.correct
False
>>> "E4 sits on the 1st line (the bottom one)" in ex.feedback.value
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from musicgames.lessons.base import ROLES
from musicgames.lessons.chords import ChordQuestions
from musicgames.lessons.exercises import Exercise, Question
from musicgames.lessons.facts import where
from musicgames.lessons.reading_notes import NoteReading
from musicgames.lessons.sharps_and_flats import SharpsAndFlats
from musicgames.snap import call_index, is_match, next_call
from musicgames.theory import CARD_NOTES, LETTERS, SYLLABLES, Note, Triad

__all__ = ["Lesson"]


class Lesson(NoteReading, ChordQuestions, SharpsAndFlats):
    """One lesson's settings — naming, language, size, sound, the student — and what it
    shows. ``student`` (a name) keeps the answers in the student's progress file (see
    :mod:`musicgames.progress`); ``record=False`` records nothing. ``seed`` makes the
    exercises the same every time.

    Its parts, one module each: settings, names and asking
    (:class:`~musicgames.lessons.base.LessonBase`), drawings and tables
    (:class:`~musicgames.lessons.drawings.LessonDrawings`), and the exercises on reading
    notes (:class:`~musicgames.lessons.reading_notes.NoteReading`), on chords
    (:class:`~musicgames.lessons.chords.ChordQuestions`) and on sharps and flats
    (:class:`~musicgames.lessons.sharps_and_flats.SharpsAndFlats`); here, the games'
    exercises and the drill, quiz and games themselves."""

    # -- Note Snap: the call cycle and matches ---------------------------------------------
    def _syllable_name(self, syllable: str) -> str:
        return self.name(Note.parse(f"{syllable}3"), octave=False)

    def call_cycle(self, calls: Iterable[str]) -> Exercise:
        """"The last call was Sol. What is called next?" — Do Re Mi Fa Sol La Si, then Do
        again. ``calls`` are solfège syllables or letters."""
        cycle = [self._syllable_name(s) for s in SYLLABLES]
        items = []
        for call in calls:
            index = LETTERS.index(Note.parse(f"{call}3" if call[-1:].isalpha() else call).step)
            right = cycle[call_index(next_call(SYLLABLES[index]))]  # the game's rule (S5)
            options, answer = self._pick(cycle, right, 4)
            items.append(
                Question(
                    self._t("lesson.cycle.prompt", call=cycle[index]),
                    options,
                    answer,
                    "",
                    self._t("lesson.cycle.why", call=cycle[index], next=right,
                            cycle=" ".join(cycle), first=cycle[0]),
                )
            )
        return self._exercise("call_cycle", self._t("lesson.cycle.title"), items)

    def match_or_not(self, pairs: Iterable[tuple[str, Note | str]]) -> Exercise:
        """"The call is Re. Is this card a match?" for (call, card note) pairs: a match when
        the card's name is the name called, in any octave."""
        options = (self._t("lesson.match.yes"), self._t("lesson.match.no"))
        items = []
        for call, card in pairs:
            note = Note.parse(card)
            called = Note.parse(f"{call}3" if call[-1:].isalpha() else call)
            match = is_match(note, called.syllable)  # the game's own rule (S6)
            why = "lesson.match.why.yes" if match else "lesson.match.why.no"
            items.append(
                Question(
                    self._t("lesson.match.prompt", call=self.name(called, octave=False)),
                    options,
                    0 if match else 1,
                    str(self.staff(note)),
                    self._t(why, card=self.name(note), call=self.name(called, octave=False),
                            where=where(note, self.language)),
                    sound=(note,),
                )
            )
        return self._exercise("match_or_not", self._t("lesson.match.title"), items)

    # -- Keyboard Duel: what a key is worth ----------------------------------------------------
    def key_worth(self, chord: Triad | str, notes: Iterable[Note | str]) -> Exercise:
        """"On the Re major card, what is the key Fa♯ worth?" — ×3 for the root (fff), ×2 for
        the third (ff), ×1 for the fifth (f) and for every unmarked key."""
        card = self._card(chord)
        options = ("×1", "×2", "×3")
        tones = " – ".join(self.name(t, octave=False) for t in card.triad.tones)
        roles = {t.pitch_class: r for t, r in zip(card.triad.tones, ROLES, strict=True)}
        items = []
        for note in (Note.parse(n) for n in notes):
            multiplier = card.multiplier(note.pitch_class)
            mark = card.marks.get(note.pitch_class, "")
            name = self.name(card.triad.spell(note.pitch_class), octave=False)
            if mark:
                said = self._t("lesson.worth.why.mark", note=name, mark=mark, n=multiplier,
                               role=self._t(f"lesson.role.{roles[note.pitch_class]}"),
                               chord=self.chord_name(card.triad))
            else:
                said = self._t("lesson.worth.why.plain", note=name, n=multiplier, tones=tones,
                               chord=self.chord_name(card.triad))
            items.append(
                Question(
                    self._t("lesson.worth.prompt", chord=self.chord_name(card.triad), note=name),
                    options,
                    multiplier - 1,
                    str(self.piano_cards(card.triad)),
                    said,
                )
            )
        return self._exercise("key_worth", self._t("lesson.worth.title"), items)

    def token_score(self, tokens: Iterable[tuple[Triad | str, Note | str, int]]) -> Exercise:
        """"A token of power 2 stands on Fa♯ of the Re major card: what does it score?" —
        power × the key's multiplier (the game's own rule, ``kernel.token_points``)."""
        from musicgames.duel import kernel

        items = []
        for chord, key, power in tokens:
            card = self._card(chord)
            note = Note.parse(key)
            multiplier = card.multiplier(note.pitch_class)
            right = str(kernel.token_points(power, multiplier))
            candidates = ([str(kernel.token_points(power, m)) for m in (1, 2, 3)]
                          + [str(power + multiplier)])
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right]
            self.rng.shuffle(options)
            why = [
                "" if o == right else self._t("lesson.score.add") if o == str(power + multiplier)
                and right != str(power + multiplier) else ""
                for o in options
            ]
            items.append(
                Question(
                    self._t(
                        "lesson.score.prompt",
                        power=power,
                        note=self.name(note, octave=False),
                        chord=self.chord_name(card.triad),
                    ),
                    tuple(options),
                    options.index(right),
                    "",
                    self._t("lesson.score.why", note=self.name(note, octave=False), n=multiplier,
                            power=power, total=right, chord=self.chord_name(card.triad)),
                    tuple(why) if any(why) else (),
                )
            )
        return self._exercise("token_score", self._t("lesson.score.title"), items)

    # -- drills, quizzes and games ---------------------------------------------------------------
    def drill(self, notes: Iterable[Note | str] = CARD_NOTES, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.NoteDrill` in the lesson's naming and language, its
        staff as large as the exercises' (the Size setting), writing to the student's
        progress file. ``options`` go to the drill."""
        from musicgames.widgets.note_drill import NoteDrill

        options.setdefault("progress", self.progress)
        options.setdefault("staff_size", self._staff_size())
        return NoteDrill(notes, naming=self.naming, language=self.language, **options)

    def quiz(self, chords: Iterable[Triad | str] | None = None, **options: Any) -> Any:
        """A :class:`~musicgames.widgets.ChordTonesQuiz` in the lesson's naming and language
        (its staff at the Size setting)."""
        from musicgames.widgets.chord_quiz import DEFAULT_CHORDS, ChordTonesQuiz

        options.setdefault("progress", self.progress)
        options.setdefault("staff_size", self._staff_size())
        return ChordTonesQuiz(
            DEFAULT_CHORDS if chords is None else chords,
            naming=self.naming,
            language=self.language,
            **options,
        )

    def note_snap(
        self,
        *,
        people: int = 1,
        computers: int = 1,
        level: str = "beginner",
        length: str = "short",
        **options: Any,
    ) -> Any:
        """A game of Note Snap in the lesson's naming and language, writing to the
        student's progress file. A lesson's game is ``short`` by default: it ends when
        someone empties their hand, or someone holds 40 cards (then the fewest cards win);
        ``options`` are other :class:`~musicgames.widgets.note_snap.SnapSettings` fields."""
        from musicgames.widgets.note_snap import NoteSnapWidget, SnapSettings

        seats = [{"kind": "person"}] * people + [{"kind": "computer", "level": level}] * computers
        settings = SnapSettings.from_dict(
            {
                "seats": seats,
                "length": length,
                "naming": self.naming.value,
                "language": self.language,
                **options,
            }
        )
        return NoteSnapWidget(settings, progress=self.progress)

    def keyboard_duel(self, opponent: str | None = None, **options: Any) -> Any:
        """A game of Keyboard Duel (see :func:`musicgames.widgets.play_keyboard_duel`),
        writing the student's placements, duels, rounds and games to their progress file."""
        from musicgames.widgets.keyboard_duel import play_keyboard_duel

        options.setdefault("progress", self.progress)
        return play_keyboard_duel(
            opponent, naming=self.naming, language=self.language, **options
        )
