"""The course: six lessons, each defined once with its text in every language of LANGUAGES."""

from __future__ import annotations

from musicgames.lessons.course import (
    lesson01,
    lesson02,
    lesson03,
    lesson04,
    lesson05,
    lesson06,
)
from musicgames.lessons.plan import Plan

__all__ = ["COURSE"]

#: The lessons, in order.
COURSE: tuple[Plan, ...] = tuple(
    m.PLAN for m in (lesson01, lesson02, lesson03, lesson04, lesson05, lesson06)
)
