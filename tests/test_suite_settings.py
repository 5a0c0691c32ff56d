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


def test_a_browser_module_and_the_sites_module_each_run_on_one_worker(
    pytestconfig: pytest.Config,
) -> None:
    """A parallel run hands a browser module, and each module of ``KEPT_TOGETHER``, to one
    worker as a whole (they share what their module fixtures make); any other test alone."""
    pytest.importorskip("xdist")
    from tests.conftest import pytest_xdist_make_scheduler

    config = SimpleNamespace(option=SimpleNamespace(numprocesses=2, maxprocesses=None,
                                                    loadscopereorder=True),
                             getoption=lambda name, default=None: "load",
                             getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    scheduler = pytest_xdist_make_scheduler(config, None)
    scope = scheduler._split_scope
    assert scope("tests/browser/test_smoke.py::test_a[1]") == "tests/browser/test_smoke.py"
    assert scope("tests/test_lite.py::test_every_staff") == "tests/test_lite.py"
    assert scope("tests/test_theory.py::test_a[1]") == "tests/test_theory.py::test_a[1]"
    assert config.option.loadscopereorder is False  # the order the suite gives
