"""What a lesson draws: notes on the staff, keyboards, piano cards, and small tables of
names and intervals, all at the lesson's size and in its naming."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from musicgames.lessons.base import (
    NOTES_PER_ROW,
    OCTAVE_NAME_SIZE,
    Figure,
    LessonBase,
    as_triad,
)
from musicgames.lessons.exercises import LessonError
from musicgames.progress.tables import Table
from musicgames.render import (
    CHORD_TONE_COLOURS,
    READABLE_KEY_PX,
    Drawing,
    keyboard_svg,
    staff_svg,
)
from musicgames.theory import CARD_NOTES, Naming, Note, Triad, load_music21

__all__ = ["LessonDrawings"]


class LessonDrawings(LessonBase):
    """The drawings and tables of a lesson."""

    def staff(
        self, notes: Any, *, labels: bool = False, size: float = 1.0
    ) -> Drawing | Figure:
        """Notes (or a chord: a triad, or a tuple of notes) on the treble staff, with their
        names under them if ``labels``; ``size`` 1 is an exercise's staff at this lesson's
        size setting. More than :data:`NOTES_PER_ROW` named notes go on several staves, one
        under the other, so that a narrow page does not shrink their names out of reading."""
        height = int(110 * self.scale * size)
        naming = self.naming if labels else None
        if labels and isinstance(notes, list) and len(notes) > NOTES_PER_ROW:
            rows = -(-len(notes) // NOTES_PER_ROW)
            per_row = -(-len(notes) // rows)
            staves = "".join(
                '<div class="mg-staff-row">'
                + staff_svg(notes[start:start + per_row], size=height, labels=naming,
                            language=self.language)
                + "</div>"
                for start in range(0, len(notes), per_row)
            )
            return Figure(f'<div class="mg-staff-rows">{staves}</div>')
        return staff_svg(notes, size=height, labels=naming, language=self.language)

    def _staff_size(self) -> int:
        """The height in pixels of an exercise's staff at this lesson's size setting."""
        return int(110 * self.scale)

    def keyboard(
        self,
        octaves: int = 2,
        *,
        highlight: Any = (),
        chord: Triad | str | Sequence[Triad | str | None] | None = None,
        labels: bool = True,
        lowest: Note | str = "Do3",
        width: int | None = None,
        octave_labels: bool = False,
        black_labels: bool | None = None,
        spelled_by: Triad | None = None,
    ) -> Drawing:
        """A piano keyboard starting on ``lowest``, names on the white keys if ``labels``
        (with octave numbers if ``octave_labels``); ``highlight`` colours keys (a list, or a
        mapping to colours), ``chord`` colours a triad's root, third and fifth (in every
        octave; or one triad per octave, ``None`` for a plain one); ``black_labels=False``
        leaves the black keys unnamed (when their name is the question); ``spelled_by``
        names the keys as that triad does, without colouring them."""
        chords: Triad | list[Triad | None] | None
        if chord is None or isinstance(chord, (Triad, str)):
            chords = as_triad(chord) if chord is not None else None
        else:
            chords = [as_triad(c) if c is not None else None for c in chord]
        svg = keyboard_svg(
            octaves,
            lowest=lowest,
            highlight=highlight,
            chord=chords,
            labels=self.naming if labels else None,
            black_labels=black_labels,
            spelled_by=spelled_by,
            width=width or self._keyboard_width(140, octaves),
            language=self.language,
        )
        if labels and octave_labels:
            svg = Drawing(self._with_octaves(svg))
        return svg

    def _keyboard_width(self, per_octave: float, octaves: int) -> int:
        """A keyboard's width on the page: ``per_octave`` at the first version's size, grown
        with the size setting, at most 800 px — and never so narrow that a key's name is
        under 11 px (a white key at least :data:`READABLE_KEY_PX` wide)."""
        wanted = max(per_octave * self.scale, 7 * READABLE_KEY_PX) * octaves
        return int(min(800, wanted))

    def _with_octaves(self, svg: str) -> str:
        """Write each white key's name with its octave number ("Do3", not "Do")."""

        def named(match: re.Match[str]) -> str:
            note = Note.parse(match.group(1))
            return f"{match.group(0)[: -len(match.group(3)) - 7]}{escape(self.name(note))}</text>"

        return re.sub(
            r'data-note="([A-G]-?\d+)"([^>]*)/><text[^>]*>([^<]*)</text>', named, svg
        ).replace('font-size="9"', f'font-size="{OCTAVE_NAME_SIZE}"')

    def _chord_keys(self, chord: Triad, *, black_labels: bool | None = False) -> Drawing:
        """Two octaves from Do3 with this very root, third and fifth in their colours (the
        black keys unnamed: the text names the chord's tones as its key spells them)."""
        colours = dict(zip(chord.tones, CHORD_TONE_COLOURS, strict=True))
        return self.keyboard(2, highlight=colours, black_labels=black_labels)

    def octave_table(self, notes: Iterable[Note | str] = CARD_NOTES) -> Any:
        """A table of notes in both numberings: Franco-Belgian solfège and scientific
        letters."""
        rows = tuple(
            (n.label(Naming.SOLFEGE, language=self.language), n.label(Naming.LETTERS))
            for n in (Note.parse(x) for x in notes)
        )
        headers = (self._t("lesson.col.solfege"), self._t("lesson.col.letters"))
        return Table(headers, rows)

    def _interval(self, low: Note, high: Note) -> str:
        load_music21()
        from music21.interval import Interval

        interval = Interval(low.to_music21(), high.to_music21())
        words = self._t(f"lesson.interval.{interval.name}")
        return self._t("lesson.interval.with_steps", name=words, n=interval.semitones)

    def triad_table(self, chords: Iterable[Triad | str]) -> Any:
        """Each triad's root, third and fifth, with the intervals music21 measures between
        them: a major third is 4 half steps, a minor third 3, a perfect fifth 7."""
        rows = []
        for chord in (as_triad(c) for c in chords):
            rows.append(
                (
                    self.chord_name(chord),
                    self.name(chord.root, octave=False),
                    self.name(chord.third, octave=False),
                    self.name(chord.fifth, octave=False),
                    self._interval(chord.root, chord.third),
                    self._interval(chord.root, chord.fifth),
                )
            )
        headers = tuple(
            self._t(f"lesson.col.{key}")
            for key in ("chord", "root", "third", "fifth", "root_third", "root_fifth")
        )
        return Table(headers, tuple(rows))

    def piano_cards(self, *chords: Triad | str) -> Drawing:
        """Piano cards side by side as on the Keyboard Duel board (two in a game): the chord
        tones coloured, the root marked fff, the third ff, the fifth f."""
        cards = [self._card(chord) for chord in chords]
        marks: dict[int, str] = {}
        for octave, card in enumerate(cards):
            for pitch_class, mark in card.marks.items():
                marks[12 * octave + pitch_class] = mark
        return keyboard_svg(
            len(cards),
            chord=[card.triad for card in cards],
            labels=self.naming,
            marks=marks,
            width=self._keyboard_width(150, len(cards)),
            language=self.language,
        )

    def _card(self, chord: Triad | str) -> Any:
        """The Keyboard Duel piano card of a triad (any spelling of its tones)."""
        from musicgames.duel.cards import PIANO_CARDS

        wanted = as_triad(chord)
        for card in PIANO_CARDS:
            if card.triad.pitch_classes == wanted.pitch_classes:
                return card
        raise LessonError(f"{chord!r} is not a piano card")  # pragma: no cover - all 24 are
