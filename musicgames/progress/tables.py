"""Small tables that show themselves as HTML in a notebook (and as text in a terminal): the
teacher's tables of numbers (:meth:`Table.of`), and any table a lesson shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from musicgames.progress.stats import DayStats, ItemStats, StudentStats
from musicgames.progress.words import day_said, item_label, percent_said, seconds_said, word
from musicgames.theory import Naming

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    """A small table that shows itself as HTML in a notebook."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""

    @classmethod
    def of(
        cls,
        stats: Sequence[ItemStats | DayStats | StudentStats],
        caption: str = "",
        naming: Naming | str | None = None,
        language: str = "en",
    ) -> Table:
        """A table of :func:`item_stats`, :func:`daily_stats` or :func:`student_stats`; items
        (and the weakest item) in ``naming`` when given (see :func:`item_label`), headers
        and numbers in ``language``."""
        rows: list[tuple[str, ...]] = []
        headers: tuple[str, ...] = ()
        columns: tuple[str, ...]
        for s in stats:
            ms = seconds_said(s.median_ms, language)
            share = percent_said(s.accuracy, language)
            if isinstance(s, ItemStats):
                columns = ("item", "answers", "right", "median")
                rows.append((item_label(s.item, naming, language), str(s.count), share, ms))
            elif isinstance(s, DayStats):
                columns = ("day", "answers", "right", "median")
                rows.append((day_said(s.day, language), str(s.count), share, ms))
            else:
                columns = ("student", "answers", "right", "median", "days", "last", "weakest")
                last = day_said(s.last_day, language) if s.last_day else "–"
                weakest = item_label(s.weakest, naming, language) if s.weakest else "–"
                rows.append((s.student, str(s.count), share, ms, str(s.days), last, weakest))
            headers = tuple(word(f"report.col.{c}", language) for c in columns)
        return cls(headers, tuple(rows), caption)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(h)}</th>" for h in self.headers)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in self.rows
        )
        caption = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        return f'<table class="mg-table">{caption}<thead><tr>{head}</tr></thead>{body}</table>'

    def __str__(self) -> str:
        widths = [
            max([len(h)] + [len(r[i]) for r in self.rows]) for i, h in enumerate(self.headers)
        ]
        lines = ["  ".join(h.ljust(w) for h, w in zip(self.headers, widths, strict=True))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in self.rows]
        return "\n".join(([self.caption] if self.caption else []) + lines)
