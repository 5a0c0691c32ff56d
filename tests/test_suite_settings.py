"""The suite's own settings (``tests/conftest.py``): how many workers a parallel run gets."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import browser_tests_may_run, cores, pytest_xdist_auto_num_workers


def _config(markexpr: str) -> Any:
    return SimpleNamespace(getoption=lambda name, default=None: markexpr)


@pytest.mark.parametrize(("markexpr", "browser"), [
    ("", True),
    ("browser", True),
    ("not slow", True),
    ("browser and not hub", True),
    ("not browser and not slow", False),  # the quick loop
    ("not browser", False),
    ("slow and not browser", False),
    ("soak", False),
])
def test_browser_tests_may_run_unless_the_marks_leave_them_out(
    markexpr: str, browser: bool
) -> None:
    assert browser_tests_may_run(_config(markexpr)) is browser


def test_the_extra_worker_is_there_for_browser_tests_only() -> None:
    assert pytest_xdist_auto_num_workers(_config("")) == cores() + 1
    assert pytest_xdist_auto_num_workers(_config("not browser and not slow")) == cores()
