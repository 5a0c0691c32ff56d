"""Exercises on chords: major or minor (seen and heard), and a triad's root, third and
fifth."""

from __future__ import annotations

from collections.abc import Iterable

from musicgames.lessons.base import ROLES, as_triad
from musicgames.lessons.drawings import LessonDrawings
from musicgames.lessons.exercises import Exercise, LessonError, Question
from musicgames.lessons.facts import chord_third_words, heard_words
from musicgames.render import Drawing
from musicgames.theory import LETTERS, SYLLABLES, SYLLABLES_BY_LANGUAGE, Naming, Note, Triad

__all__ = ["ChordQuestions"]


class ChordQuestions(LessonDrawings):
    """Exercises on major and minor triads and their tones."""

    def chord_quality(self, chords: Iterable[Triad | str]) -> Exercise:
        """"Major or minor?" — each triad on the staff and the keyboard, its root red, its
        third yellow, its fifth blue; explained by counting half steps."""
        options = (self._t("lesson.major"), self._t("lesson.minor"))
        items = []
        for chord in (as_triad(c) for c in chords):
            picture = f"{self.staff(chord, size=0.8)}<br>{self._chord_keys(chord)}"
            said = chord_third_words(chord, self.language, self.naming)
            other = "minor" if chord.quality == "major" else "major"
            why = [
                "" if (i == 0) == (chord.quality == "major")
                else self._t(f"lesson.quality.would.{other}")
                for i in range(2)
            ]
            items.append(
                Question(
                    self._t("lesson.quality.prompt"),
                    options,
                    0 if chord.quality == "major" else 1,
                    picture,
                    said,
                    tuple(why),
                    sound=chord.tones,
                )
            )
        return self._exercise("chord_quality", self._t("lesson.quality.title"), items)

    def by_ear(self, chords: Iterable[Triad | str]) -> Exercise:
        """"Listen: major or minor?" — the chord is only heard (Listen plays it); after the
        answer it is shown and explained by its third."""
        options = (self._t("lesson.major"), self._t("lesson.minor"))
        items = []
        for chord in (as_triad(c) for c in chords):
            said = heard_words(chord, self.language, self.naming)
            items.append(
                Question(
                    self._t("lesson.ear.prompt"),
                    options,
                    0 if chord.quality == "major" else 1,
                    "",
                    said,
                    wrong_picture=str(self._chord_keys(chord)),
                    sound=chord.tones,
                    listen=True,
                )
            )
        return self._exercise("by_ear", self._t("lesson.ear.title"), items)

    def chord_tone(self, chords: Iterable[Triad | str], which: str = "third") -> Exercise:
        """"What is the third (fifth) of Re major?" with note names to choose from. The root
        is asked without naming the chord (the name would give it away): "These three keys
        are a piano card's chord tones: which is the root, the key marked fff?"."""
        if which not in ROLES:
            raise LessonError(f"which={which!r}: use 'root', 'third' or 'fifth'")
        items = []
        for chord in (as_triad(c) for c in chords):
            tone = getattr(chord, which)
            right = self.name(tone, octave=False)
            roles = {self.name(t, octave=False): r for t, r in zip(chord.tones, ROLES,
                                                                     strict=True)}
            candidates = [*roles]
            notes = {self.name(t, octave=False): t for t in chord.tones}
            if which != "root":  # a key a half step away: the third of the other quality
                near = self._half_step_from(tone, chord)
                candidates.append(self.name(near, octave=False))
                notes.setdefault(self.name(near, octave=False), near)
            options = [right] + [c for c in dict.fromkeys(candidates) if c != right][:3]
            self.rng.shuffle(options)
            why = []
            for option in options:
                if option == right:
                    why.append("")
                elif option in roles:
                    why.append(self._t("lesson.tone.is_other", chosen=option,
                                       role=self._t(f"lesson.role.{roles[option]}"),
                                       chord=self.chord_name(chord)))
                else:
                    why.append(self._t("lesson.tone.half_step", chosen=option, right=right))
            if which == "root":
                prompt = self._t("lesson.tone.prompt.root")
                picture = str(self._tones_in_any_order(chord))
                wrong_picture = str(self.piano_cards(chord))
            else:
                prompt = self._t(f"lesson.tone.prompt.{which}", chord=self.chord_name(chord))
                picture = wrong_picture = ""
            items.append(
                Question(
                    prompt,
                    tuple(options),
                    options.index(right),
                    picture,
                    self._t(
                        f"lesson.tone.why.{which}",
                        chord=self.chord_name(chord),
                        tones=" – ".join(self.name(t, octave=False) for t in chord.tones),
                        root=self.name(chord.root, octave=False),
                        tone=right,
                        letters=" ".join(self._letters_from(chord.root, which)),
                    ),
                    tuple(why),
                    wrong_picture=wrong_picture,
                    sound=chord.tones,
                    notes=tuple(notes[o] for o in options),
                    octave="never",
                )
            )
        return self._exercise("chord_tone", self._t(f"lesson.tone.title.{which}"), items)

    def _half_step_from(self, tone: Note, chord: Triad) -> Note:
        """The note a half step from a chord tone (down in a major chord, up in a minor
        one), spelled as the student has been taught: Mi♭ from Mi, but Si (not Do♭) from
        Do."""
        shift = 1 if chord.quality == "minor" else -1
        if abs(tone.alter + shift) <= 1:
            spelled = Note(tone.step, tone.alter + shift, tone.scientific_octave)
            if self.is_taught(spelled):
                return spelled
        return Note.parse(tone.midi + shift)

    def _tones_in_any_order(self, chord: Triad) -> Drawing:
        """A triad's three keys in one colour, named as the chord names them, the lowest key
        picked at random (root, third or fifth), so neither the colours nor the order tell
        the root: it may be the lowest, middle or top key."""
        lowest = self.rng.randrange(3)
        tones = chord.tones[lowest:] + chord.tones[:lowest]
        midis = [60 + tones[0].pitch_class]
        for tone in tones[1:]:  # each tone the next key of its name up
            midis.append(midis[-1] + (tone.pitch_class - midis[-1]) % 12)
        keys = [Note.parse(midi) for midi in midis]
        return self.keyboard(2, highlight=keys, spelled_by=chord)

    def _letters_from(self, root: Note, which: str) -> list[str]:
        """The note names counted from the root up to the third (3) or the fifth (5)."""
        count = {"root": 1, "third": 3, "fifth": 5}[which]
        start = LETTERS.index(root.step)
        solfege = SYLLABLES_BY_LANGUAGE.get(self.language, SYLLABLES)
        names = solfege if self.naming is Naming.SOLFEGE else LETTERS
        return [names[(start + k) % 7] for k in range(count)]
