"""Exercises on sharps and flats: half steps, the two names of a black key, notes with a
sharp or flat on the staff, and how a chord's key spells a black key."""

from __future__ import annotations

from collections.abc import Iterable

from musicgames.i18n import counted
from musicgames.lessons.base import BLACK_PCS, ROLES, as_triad
from musicgames.lessons.drawings import LessonDrawings
from musicgames.lessons.exercises import Exercise, LessonError, Question
from musicgames.lessons.facts import half_steps, where
from musicgames.render import CHORD_TONE_COLOURS
from musicgames.theory import LETTERS, Note, Triad, load_music21

__all__ = ["SharpsAndFlats"]


class SharpsAndFlats(LessonDrawings):
    """Exercises on the black keys and the sharps and flats that name them."""

    def _sharp_name(self, midi: int) -> str:
        """A key's name going up: a white key's own name, a black key's sharp (Fa♯)."""
        if midi % 12 not in BLACK_PCS:
            return self.name(Note.parse(midi), octave=False)
        below = Note.parse(midi - 1)
        return self.name(Note(below.step, 1, below.scientific_octave), octave=False)

    def _flat_name(self, midi: int) -> str:
        """A black key's flat name (Sol♭): the white key above it, lowered."""
        above = Note.parse(midi + 1)
        return self.name(Note(above.step, -1, above.scientific_octave), octave=False)

    def _key_on_the_way(self, midi: int) -> str:
        """A key passed while counting half steps: its name, or "black key" while sharps
        are not taught yet."""
        if midi % 12 in BLACK_PCS and not self.is_taught(Note.parse(midi)):
            return self._t("lesson.half.black_key")
        return self._sharp_name(midi)

    def half_steps(self, pairs: Iterable[tuple[Note | str, Note | str]]) -> Exercise:
        """"How many half steps from Re up to Fa?" — both keys coloured; explained by the
        moves from key to key, black keys included (each move is one half step: the keys
        counted with both ends are one more, and a wrong answer that counted them says so)."""
        items = []
        for low_name, high_name in pairs:
            low, high = Note.parse(low_name), Note.parse(high_name)
            n = half_steps(low, high)
            path = " → ".join(self._key_on_the_way(m) for m in range(low.midi, high.midi + 1))
            options = tuple(str(k) for k in range(1, 6))
            said = counted(
                "lesson.half.why",
                n,
                self.language,
                low=self.name(low, octave=False),
                high=self.name(high, octave=False),
                path=path,
            )
            if n == 1 and low.is_natural and high.is_natural:
                said += " " + self._t("lesson.half.no_black")
            counted_keys = self._t("lesson.half.keys", low=self.name(low, octave=False),
                                   high=self.name(high, octave=False), keys=n + 1, n=n)
            why = tuple(counted_keys if int(o) == n + 1 else "" for o in options)
            colours = {low: CHORD_TONE_COLOURS[0], high: CHORD_TONE_COLOURS[2]}
            items.append(
                Question(
                    self._t("lesson.half.prompt", low=self.name(low, octave=False),
                            high=self.name(high, octave=False)),
                    options,
                    n - 1,
                    str(self.keyboard(1 if high.midi < 72 else 2, highlight=colours,
                                      black_labels=False)),
                    said,
                    why if any(why) else (),
                    sound=(low, high),
                    broken=True,
                )
            )
        return self._exercise("half_steps", self._t("lesson.half.title"), items)

    def black_key_names(self, notes: Iterable[Note | str]) -> Exercise:
        """"What are the two names of the coloured black key?" — Fa♯ = Sol♭."""
        items = []
        pairs = [
            self._t("lesson.same_key", a=self._sharp_name(60 + pc), b=self._flat_name(60 + pc))
            for pc in BLACK_PCS
        ]
        for note in (Note.parse(n) for n in notes):
            if note.pitch_class not in BLACK_PCS:
                raise LessonError(f"{note.solfege} is not a black key")
            right = pairs[BLACK_PCS.index(note.pitch_class)]
            options, index = self._pick(pairs, right, 4)
            below, above = Note.parse(note.midi - 1), Note.parse(note.midi + 1)
            items.append(
                Question(
                    self._t("lesson.black.prompt"),
                    options,
                    index,
                    str(self.keyboard(1, highlight=[note.midi - 60], black_labels=False)),
                    self._t(
                        "lesson.black.why",
                        low=self.name(below, octave=False),
                        high=self.name(above, octave=False),
                        sharp=self._sharp_name(note.midi),
                        flat=self._flat_name(note.midi),
                    ),
                    sound=(note,),
                )
            )
        return self._exercise("black_key_names", self._t("lesson.black.title"), items)

    def read_accidentals(self, notes: Iterable[Note | str]) -> Exercise:
        """"Which note is this?" for notes with a ♯ or ♭ on the staff."""
        items = []
        for note in (Note.parse(n) for n in notes):
            if note.is_natural:
                raise LessonError(f"{note.solfege} has no sharp or flat")
            natural = Note(note.step, 0, note.scientific_octave)
            opposite = Note(note.step, -note.alter, note.scientific_octave)
            neighbour_step = LETTERS[(LETTERS.index(note.step) + note.alter) % 7]
            neighbour = Note(neighbour_step, -note.alter, note.scientific_octave)
            neighbour_natural = Note(neighbour_step, 0, note.scientific_octave)
            candidates = (note, natural, opposite, neighbour, neighbour_natural)
            named = {self.name(n): n for n in reversed(candidates) if self.is_taught(n)}
            names = [self.name(n) for n in candidates if self.is_taught(n)]
            options = list(dict.fromkeys(names))[:4]
            self.rng.shuffle(options)
            sign = "sharp" if note.alter > 0 else "flat"
            items.append(
                Question(
                    self._t("lesson.name.prompt"),
                    tuple(options),
                    options.index(self.name(note)),
                    str(self.staff(note)),
                    self._t(
                        f"lesson.accidental.why.{sign}",
                        where=where(natural, self.language),
                        natural=self.name(natural),
                        name=self.name(note),
                    ),
                    sound=(note,),
                    notes=tuple(named[o] for o in options),
                )
            )
        return self._exercise("read_accidentals", self._t("lesson.accidental.title"), items)

    def enharmonic(self, notes: Iterable[Note | str]) -> Exercise:
        """"Fa♯ is the same key as…?" — the other name of a black key."""
        items = []
        for note in (Note.parse(n) for n in notes):
            if note.is_natural:
                raise LessonError(f"{note.solfege} has no sharp or flat")
            index = LETTERS.index(note.step)
            other_step = LETTERS[(index + note.alter) % 7]
            octave = note.scientific_octave + (
                1 if (note.step, note.alter) == ("B", 1)
                else -1 if (note.step, note.alter) == ("C", -1)
                else 0
            )
            other = Note(other_step, -note.alter, octave)
            wrong = [
                Note(note.step, -note.alter, note.scientific_octave),
                Note(other_step, note.alter, octave),
                Note(LETTERS[(index - note.alter) % 7], 0, note.scientific_octave),
                Note(other_step, 0, octave),
            ]
            names = [self.name(n, octave=False) for n in (other, *wrong) if self.is_taught(n)]
            options = list(dict.fromkeys(names))[:4]
            self.rng.shuffle(options)
            low = self._sharp_name(min(note.midi, other.midi) - 1)
            items.append(
                Question(
                    self._t("lesson.enharmonic.prompt", name=self.name(note, octave=False)),
                    tuple(options),
                    options.index(self.name(other, octave=False)),
                    "",
                    self._t(
                        "lesson.enharmonic.why",
                        name=self.name(note, octave=False),
                        other=self.name(other, octave=False),
                        low=low,
                        high=self.name(Note.parse(note.midi + 1), octave=False),
                    ),
                    wrong_picture=str(self.keyboard(1, highlight=[note.midi % 12])),
                    sound=(note,),
                )
            )
        return self._exercise("enharmonic", self._t("lesson.enharmonic.title"), items)

    def spell_in_chord(self, items: Iterable[tuple[Triad | str, int]]) -> Exercise:
        """"In Re major, is the black key between Fa and Sol called Fa♯ or Sol♭?" — the
        answer is how the chord's key names it (:meth:`Triad.spell`), explained by the
        letters."""
        questions = []
        for chord_name, pitch_class in items:
            chord = as_triad(chord_name)
            right_note = chord.spell(pitch_class)
            midi = 60 + pitch_class % 12
            options = (self._sharp_name(midi), self._flat_name(midi))
            right = self.name(right_note, octave=False)
            if right not in options:
                raise LessonError(f"{chord!r} spells {pitch_class} as {right}, not a black key")
            roles = {t.pitch_class: r for t, r in zip(chord.tones, ROLES, strict=True)}
            if pitch_class % 12 in roles:
                role = roles[pitch_class % 12]
                said = self._t(
                    "lesson.spell.why.tone",
                    chord=self.chord_name(chord),
                    tones=" – ".join(self.name(t, octave=False) for t in chord.tones),
                    role=self._t(f"lesson.role.{role}"),
                    letter=self.name(Note(right_note.step, 0, 4), octave=False),
                    name=right,
                )
            else:
                said = self._t(
                    "lesson.spell.why.scale",
                    chord=self.chord_name(chord),
                    scale=" ".join(self._scale(chord)),
                    name=right,
                )
            below = self.name(Note.parse(midi - 1), octave=False)
            above = self.name(Note.parse(midi + 1), octave=False)
            questions.append(
                Question(
                    self._t("lesson.spell.prompt", chord=self.chord_name(chord), low=below,
                            high=above),
                    options,
                    options.index(right),
                    str(self._chord_keys(chord)),
                    said,
                    sound=chord.tones,
                )
            )
        return self._exercise("spell_in_chord", self._t("lesson.spell.title"), questions)

    def _scale(self, chord: Triad) -> list[str]:
        """The seven notes of the chord's key (major, or natural minor), each letter once."""
        load_music21()
        from music21.key import Key

        tonic = chord.root.to_music21().name
        key = Key(tonic if chord.quality == "major" else tonic.lower())
        return [self.name(chord.spell(p.pitchClass), octave=False) for p in key.pitches[:7]]
