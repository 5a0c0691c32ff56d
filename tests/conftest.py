"""Suite-wide test settings."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

if sys.dont_write_bytecode and not sys.pycache_prefix:
    # With PYTHONDONTWRITEBYTECODE set (as some containers do) every test process would
    # rewrite the asserts of every test module again on every run, a few seconds of CPU per
    # worker. The test processes write compiled modules as Python does by default, in the
    # git-ignored __pycache__ folders (a cache folder elsewhere, sys.pycache_prefix, would
    # hide the installed packages' own compiled files and compile them all again).
    sys.dont_write_bytecode = False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        help="play the long soaks (tests marked soak) in full: 10,000 Note Snap games and "
        "2,000 Keyboard Duel games instead of the suite's seeded sample (make soak)",
    )


_DATA_DIR = "MUSICGAMES_DATA_DIR"
_saved_data_dir: list[str | None] = []


def pytest_configure(config: pytest.Config) -> None:
    """Progress files go to a throw-away folder of this run (of this worker, when the suite
    runs in parallel), never to the user's own: the notebooks the suite runs (their kernels
    inherit the environment) and any test that does not choose a folder itself.

    The notebooks run through nbclient, which waits for each reply of their kernel: a reply
    whose wake-up was lost is read within a second, not at the cell's timeout (300 s).
    """
    from musicgames.classroom.replies import read_lost_replies

    read_lost_replies()
    _saved_data_dir.append(os.environ.get(_DATA_DIR))
    os.environ[_DATA_DIR] = tempfile.mkdtemp(prefix="musicgames-test-data-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if not _saved_data_dir:
        return
    shutil.rmtree(os.environ.get(_DATA_DIR, ""), ignore_errors=True)
    saved = _saved_data_dir.pop()
    if saved is None:
        os.environ.pop(_DATA_DIR, None)
    else:
        os.environ[_DATA_DIR] = saved


def cores() -> int:
    """The cores this process may run on (a container's share, not the host's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def browser_tests_may_run(config: pytest.Config) -> bool:
    """False when the run's ``-m`` leaves out the tests marked ``browser`` (as the quick
    loop's ``-m "not browser and not slow"`` does), True otherwise."""
    markexpr = config.getoption("markexpr", "")
    if not markexpr:
        return True
    from _pytest.mark.expression import Expression

    return Expression.compile(markexpr).evaluate(lambda name, **_: name == "browser")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (as ``pyproject.toml`` asks): one worker per core, and one more when
    browser tests run. A browser test spends part of its time waiting on a page, a kernel
    or a server; with one worker per core the cores stood idle about a seventh of the run,
    which the extra worker fills (the suite runs about a tenth faster on two cores).
    Without them (the quick loop) every test keeps a core busy, and an extra worker only
    adds its start and its share of collecting (the loop took about 5 % longer)."""
    return cores() + 1 if browser_tests_may_run(config) else cores()


#: Modules whose tests run on one worker in a parallel run, as the browser modules do: the
#: site's tests draw every staff the site can show once for the module (seconds of CPU),
#: which every worker running one of them would do again.
KEPT_TOGETHER = frozenset({"tests/test_lite.py"})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """In a parallel run (pytest-xdist's ``--dist load``, the default with ``-n``), the tests
    of one browser module go to one worker together: they share its Chromium, and the pages
    and servers the module opens once (``scope="module"``); so do those of the modules in
    :data:`KEPT_TOGETHER`, whose module fixtures take seconds. Every other test goes to
    whichever worker is free, in the order :func:`pytest_collection_modifyitems` gives."""
    if config.getoption("dist") != "load":
        return None  # another --dist asked for by name
    from xdist.scheduler import LoadScopeScheduling

    class BrowserModulesTogether(LoadScopeScheduling):
        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.config.option.loadscopereorder = False  # the order given below

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path.startswith("tests/browser/") or path in KEPT_TOGETHER else nodeid

    return BrowserModulesTogether(config, log)


@pytest.fixture
def app_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """As in a classroom app: app mode on, the class folder ``tmp_path`` (returned)."""
    from musicgames import appmode

    monkeypatch.setenv(appmode.APP_ENV, "1")
    monkeypatch.setenv(appmode.CLASS_FOLDER_ENV, str(tmp_path))
    return tmp_path


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    """True when the run asked for the long soaks (``--soak``)."""
    return bool(request.config.getoption("soak"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests last in a serial run, first in a parallel one.

    Playwright's synchronous API keeps an asyncio event loop running on the main thread
    while its browser is open, and the headless widget tests drive their own loops with
    ``asyncio.run``; the ``browser`` fixture is per module, closed before a test of another
    module runs, and a serial run keeps every other test ahead of them all the same. In a
    parallel run (pytest-xdist hands out tests in this order) the longest tests, the
    browser tests, go first (a slow one, then the modules with the most tests), then the
    other slow ones, so that the workers end together on short tests.
    """
    parallel = hasattr(config, "workerinput")  # a pytest-xdist worker

    tests = Counter(item.path for item in items)  # per module

    def order(item: pytest.Item) -> tuple[bool, bool, int]:
        browser = item.get_closest_marker("browser") is not None
        if not parallel:
            return browser, False, 0
        # a slow browser module (one long test) first, then the largest modules
        slow = item.get_closest_marker("slow") is not None
        return not browser, not slow, -tests[item.path] if browser else 0

    items.sort(key=order)
