"""The teacher's charts (matplotlib, imported when a chart is first drawn, so reading
progress stays quick): each note answered on a staff, items as bars, days as a line."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from musicgames.i18n import day_said, month_name, month_said
from musicgames.progress.answers import Answer
from musicgames.progress.stats import daily_stats, item_stats
from musicgames.progress.words import item_label, percent_said, seconds_said, word
from musicgames.smufl import glyph_path
from musicgames.theory import LETTERS, Naming, Note, NoteError, load_music21

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.path import Path as Outline

__all__ = ["plot_days", "plot_items", "plot_notes"]


@cache
def _chart_class() -> type[Figure]:
    """A matplotlib Figure that shows itself in a notebook (a bare Figure made without
    pyplot would show only its text form)."""
    from matplotlib.figure import Figure

    class Chart(Figure):
        def _repr_png_(self) -> bytes:
            out = io.BytesIO()
            self.savefig(out, format="png", dpi=100)
            return out.getvalue()

    return Chart


def _new_figure(width: float, height: float) -> Figure:
    return _chart_class()(figsize=(width, height), layout="constrained")


def _staff_position(note: Note) -> float:
    """Where a note sits on the treble staff, in line spacings above the bottom line (Mi3)."""
    diatonic = note.scientific_octave * 7 + LETTERS.index(note.step)
    return (diatonic - (4 * 7 + 2)) / 2


#: music21's accidental names and their SMuFL glyphs.
_ACCIDENTALS = {"double-sharp": "accidentalDoubleSharp", "sharp": "accidentalSharp",
                "natural": "accidentalNatural", "flat": "accidentalFlat",
                "double-flat": "accidentalDoubleFlat"}
_NOTE_STEP = 1.6  # staff spaces from one note to the next
_FIRST_NOTE = 3.8  # the first note's x: its head clear of the clef
_NOTEHEAD_HALF = 0.6  # half the width of the chart's notehead
_ACCIDENTAL_GAP = 0.25  # between an accidental and its notehead, as verovio engraves it


def _signs_shown(notes: Sequence[Note]) -> list[str | None]:
    """The accidental engraved before each note, the chart read as one line of music
    (music21's ``makeAccidentals``): a sharp or flat note has its sign, and a natural note
    after a sharp or flat of the same letter and octave has a natural (♮) cancelling it.

    >>> _signs_shown([Note.parse(n) for n in ("Mib3", "Mi3", "Fa3", "Mi4")])
    ['flat', 'natural', None, None]
    """
    load_music21()
    from music21.note import Note as Music21Note
    from music21.stream import Stream

    line: Stream[Music21Note] = Stream()
    for note in notes:
        line.append(Music21Note(note.to_music21()))
    line.makeAccidentals(inPlace=True, cautionaryPitchClass=False)
    return [
        sign.name if (sign := engraved.pitch.accidental) is not None and sign.displayStatus
        else None
        for engraved in line.notes
    ]


def _staff_places(notes: Sequence[Note]) -> list[tuple[float, Outline | None]]:
    """Where each note goes along the staff (x, in staff spaces) and, for a note with an
    engraved accidental (:func:`_signs_shown`), its outline put in place: left of the
    notehead, at the height of the head, as engraved music has it. A note with an
    accidental moves right by the sign's width, so the sign never touches the note or clef
    before it.

    >>> [(round(x, 2), sign is not None) for x, sign in
    ...  _staff_places([Note.parse("Fa3"), Note.parse("Sol#3")])]
    [(3.8, False), (6.44, True)]
    """
    from matplotlib.transforms import Affine2D

    places: list[tuple[float, Outline | None]] = []
    x = _FIRST_NOTE - _NOTE_STEP
    for note, sign in zip(notes, _signs_shown(notes), strict=True):
        x += _NOTE_STEP
        name = _ACCIDENTALS.get(sign) if sign is not None else None
        if name is None:
            places.append((x, None))
            continue
        glyph = glyph_path(name)
        width = float(glyph.get_extents().x1)
        x += width + _ACCIDENTAL_GAP
        right = x - _NOTEHEAD_HALF - _ACCIDENTAL_GAP
        moved = glyph.transformed(Affine2D().translate(right - width, _staff_position(note)))
        places.append((x, moved))
    return places


def plot_notes(
    answers: Iterable[Answer],
    *,
    naming: Naming | str = Naming.SOLFEGE,
    title: str | None = None,
    activity: str | None = "drill",
    language: str = "en",
) -> Figure:
    """Each note answered, drawn on a treble staff: its colour is the share of right answers
    (red to green), and under it stand its name, that share and the median response time.
    Items that are not notes are left out (see :func:`plot_items` for those)."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.patches import Ellipse

    naming = Naming(naming)
    stats = []
    for s in item_stats(answers, activity):
        try:
            stats.append((Note.parse(s.item), s))
        except NoteError:
            continue
    places = _staff_places([note for note, _ in stats])
    width = max(places[-1][0] + 1.0 if places else 0.0, _FIRST_NOTE + 4 * _NOTE_STEP + 1.0)
    fig = _new_figure(1.5 + 3.8 * (width + 0.4) / 14.5, 3.8)
    ax = fig.add_subplot()
    ax.set_title(title if title is not None else word("chart.title.notes", language))
    ax.set_axis_off()
    for line in range(5):
        ax.plot([0, width], [line, line], color="#333", linewidth=1)
    from matplotlib.patches import PathPatch
    from matplotlib.transforms import Affine2D

    clef = glyph_path("gClef").transformed(Affine2D().translate(0.3, 1.0))  # on the G line
    ax.add_patch(PathPatch(clef, facecolor="#222", edgecolor="none"))
    cmap = colormaps["RdYlGn"]
    norm = Normalize(0, 1)
    for (note, s), (x, accidental) in zip(stats, places, strict=True):
        y = _staff_position(note)
        if accidental is not None:
            ax.add_patch(PathPatch(accidental, facecolor="#222", edgecolor="none"))
        ledger = -1.0
        while ledger >= y:
            ax.plot([x - 0.75, x + 0.75], [ledger, ledger], color="#333", linewidth=1)
            ledger -= 1
        ledger = 5.0
        while ledger <= y:
            ax.plot([x - 0.75, x + 0.75], [ledger, ledger], color="#333", linewidth=1)
            ledger += 1
        ax.add_patch(
            Ellipse(
                (x, y),
                1.2,
                0.95,
                angle=-15,
                facecolor=cmap(norm(s.accuracy)),
                edgecolor="#111",
                linewidth=1.2,
            )
        )
        ms = seconds_said(s.median_ms, language, digits=1).replace(" s", "s")  # compact
        ax.text(
            x,
            -3.2,
            f"{note.label(naming, language=language)}\n"
            f"{percent_said(s.accuracy, language)}\n{ms}\n×{s.count}",
            ha="center",
            va="top",
            fontsize=8,
        )
    if not stats:
        ax.text(
            width / 2, 2, word("chart.no_answers", language), ha="center", va="center", color="#777"
        )
    ax.set_xlim(-0.2, width + 0.2)
    ax.set_ylim(-7.5, 7)
    ax.set_aspect("equal")
    fig.colorbar(
        ScalarMappable(norm, cmap), ax=ax, label=word("chart.right", language), shrink=0.7
    )
    return fig


def plot_items(
    answers: Iterable[Answer],
    *,
    activity: str | None = None,
    title: str | None = None,
    naming: Naming | str | None = None,
    language: str = "en",
) -> Figure:
    """Two bar charts side by side: the share of right answers and the median response time
    for each item (notes low to high, then chords and other items by name)."""
    stats = item_stats(answers, activity)
    fig = _new_figure(9, max(2.5, 0.3 * len(stats) + 1.2))
    left, right = fig.subplots(1, 2, sharey=True)
    names = [item_label(s.item, naming, language) for s in stats]
    positions = list(range(len(stats)))
    left.barh(positions, [s.accuracy * 100 for s in stats], color="#66a182")
    left.set_xlim(0, 100)
    left.set_xlabel(word("chart.right_pct", language))
    left.set_yticks(positions, names)
    left.invert_yaxis()
    right.barh(
        positions,
        [(s.median_ms or 0) / 1000 for s in stats],
        color="#00798c",
    )
    right.set_xlabel(word("chart.median_s", language))
    fig.suptitle(title if title is not None else word("chart.title.items", language))
    return fig


def _dates_in(language: str) -> Any:
    """The days chart's tick labels in ``language``, its month names the CLDR's (Babel): a
    year at its first day, a month's abbreviation at a month's first day, else the day's
    number (or the hour, for ticks within one day); the offset names the month and year (or
    the day) the ticks start in."""
    from matplotlib.dates import num2date
    from matplotlib.ticker import Formatter

    def label(when: datetime, one_day: bool) -> str:
        if one_day:
            return f"{when:%H:%M}"
        if when.day == 1:
            return str(when.year) if when.month == 1 else month_name(when.month, language,
                                                                   short=True)
        return str(when.day)

    class DaysInLanguage(Formatter):
        offset = ""

        def __call__(self, x: float, pos: int | None = None) -> str:
            return label(num2date(x), one_day=False)

        def format_ticks(self, values: Any) -> list[str]:
            ticks = [num2date(v) for v in values]
            one_day = len({t.date() for t in ticks}) < len(ticks)
            labels = [label(t, one_day) for t in ticks]
            first = ticks[0].date() if ticks else None
            if first is None:
                self.offset = ""
            elif one_day:
                self.offset = day_said(first, language)
            elif all(t.day == 1 for t in ticks):
                self.offset = "" if any(t.month == 1 for t in ticks) else str(first.year)
            else:
                self.offset = month_said(first, language)
            return labels

        def get_offset(self) -> str:
            return self.offset

    return DaysInLanguage()


def plot_days(
    answers: Iterable[Answer],
    *,
    activity: str | None = None,
    title: str | None = None,
    language: str = "en",
) -> Figure:
    """Progress over days: the share of right answers and the median response time per day,
    with the number of answers each day as bars."""
    stats = daily_stats(answers, activity)
    fig = _new_figure(8, 3.6)
    ax = fig.add_subplot()
    from matplotlib.dates import AutoDateLocator, date2num

    days = [float(date2num(s.day)) for s in stats]
    ax.bar(days, [s.count for s in stats], color="#dddddd", label=word("chart.answers", language))
    ax.set_ylabel(word("chart.answers_per_day", language))
    share = ax.twinx()
    share.plot(
        days,
        [s.accuracy * 100 for s in stats],
        "o-",
        color="#66a182",
        label=word("chart.right_short", language),
    )
    share.set_ylim(0, 105)
    share.set_ylabel(word("chart.right_pct", language), color="#3d7a55")
    time_axis = ax.twinx()
    time_axis.spines["right"].set_position(("axes", 1.12))
    time_axis.plot(
        days,
        [(s.median_ms or math.nan) / 1000 for s in stats],
        "s--",
        color="#d1495b",
        label=word("chart.median", language),
    )
    time_axis.set_ylim(bottom=0)
    time_axis.set_ylabel(word("chart.median_s", language), color="#d1495b")
    ax.set_title(title if title is not None else word("chart.title.days", language))
    locator = AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(_dates_in(language))
    if not stats:
        ax.text(
            0.5, 0.5, word("chart.no_answers", language), transform=ax.transAxes, ha="center",
            color="#777",
        )
    return fig
