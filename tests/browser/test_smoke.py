"""The browser-test fixtures themselves: Lab and Voila start, widgets load, clicks reach Python."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.conftest import Server, new_lab_page, open_notebook

pytestmark = pytest.mark.browser

SMOKE = "tests/browser/smoke.ipynb"


@pytest.fixture(scope="module")
def smoke_lab(browser: Any, lab_server: Server) -> Iterator[Any]:
    """One Lab page with the smoke notebook opened and run (by ``open_notebook``, which
    fails on a cell that raised or a widget that did not load), for the module's Lab tests."""
    with new_lab_page(browser, lab_server) as page:
        open_notebook(page, SMOKE)
        yield page


def test_lab_runs_a_notebook_and_clicks_reach_the_kernel(
    smoke_lab: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    page = smoke_lab
    page.locator(".mg-smoke-button").click()
    page.locator(".mg-smoke-any").click()
    assert page.locator(".mg-smoke-any").inner_text() == "anywidget ready"
    seen = ""
    for _ in range(50):  # the clicks travel to the kernel as messages: give them a moment
        seen = kernel_execute(page, "print(sorted(clicks))")
        if seen == "['button', 'clicked']\n":
            break
        page.wait_for_timeout(100)
    assert seen == "['button', 'clicked']\n"


def test_kernel_execute_reports_a_kernel_error(
    smoke_lab: Any, kernel_execute: Callable[[Any, str], str]
) -> None:
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        kernel_execute(smoke_lab, "1 / 0")


def test_voila_serves_the_notebook_with_its_widgets(
    browser: Any,
    voila_server: Callable[[str], Any],
    watch_widget_failures: Callable[[Any], list[str]],
) -> None:
    server = voila_server(SMOKE)
    page = browser.new_page()
    failures = watch_widget_failures(page)
    page.goto(server.url, timeout=120_000)
    page.locator(".mg-smoke-any").wait_for(timeout=120_000)
    assert page.locator(".mg-smoke-button").is_visible()
    assert not failures
    page.close()


def test_lab_does_not_autosave_the_notebooks_tests_run(smoke_lab: Any) -> None:
    settings = smoke_lab.evaluate(
        """async () => (await window.jupyterapp.serviceManager.settings.fetch(
             '@jupyterlab/docmanager-extension:plugin')).raw"""
    )
    assert '"autosave": false' in settings
