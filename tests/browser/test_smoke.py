"""The browser-test fixtures themselves: Lab and Voila start, widgets load, clicks reach Python."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SMOKE = "tests/browser/smoke.ipynb"


def test_lab_runs_a_notebook_and_clicks_reach_the_kernel(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    open_notebook(lab_page, SMOKE)
    lab_page.locator(".mg-smoke-button").click()
    lab_page.locator(".mg-smoke-any").click()
    assert lab_page.locator(".mg-smoke-any").inner_text() == "anywidget ready"
    seen = ""
    for _ in range(50):  # the clicks travel to the kernel as messages: give them a moment
        seen = kernel_execute(lab_page, "print(sorted(clicks))")
        if seen == "['button', 'clicked']\n":
            break
        lab_page.wait_for_timeout(100)
    assert seen == "['button', 'clicked']\n"


def test_kernel_execute_reports_a_kernel_error(
    lab_page: Any,
    open_notebook: Callable[[Any, str], None],
    kernel_execute: Callable[[Any, str], str],
) -> None:
    open_notebook(lab_page, SMOKE)
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        kernel_execute(lab_page, "1 / 0")


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


def test_lab_does_not_autosave_the_notebooks_tests_run(
    lab_page: Any, open_notebook: Callable[[Any, str], None]
) -> None:
    open_notebook(lab_page, SMOKE)
    settings = lab_page.evaluate(
        """async () => (await window.jupyterapp.serviceManager.settings.fetch(
             '@jupyterlab/docmanager-extension:plugin')).raw"""
    )
    assert '"autosave": false' in settings
