"""A school on JupyterHub: three students and a teacher, through the hub, in Chromium.

JupyterHub runs on 127.0.0.1 with the project's ``deploy/jupyterhub/jupyterhub_config.py``
(configurable-http-proxy from npm; the test's shared password; every user's server run as
this system user in a folder of their own). Each student follows the teacher's link to lesson
1 in the course folder (``/hub/user-redirect/lab/tree/…``), logs in, runs the lesson in
JupyterLab and answers an exercise; the teacher logs in the same way and their notebook
reads the class's hand-in folder with ``musicgames.progress.open_class``: all three students
are there, each with their own answers.

Skipped when node or configurable-http-proxy is missing (``make test`` installs them).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser.conftest import (
    _ALL_CELLS_RAN_JS,
    _CELL_ERRORS_JS,
    _KERNEL_IDLE_JS,
    CHROMIUM,
    REPO_ROOT,
    Server,
    _quiet_lab_settings,
    _status_ok,
    free_port,
    kernel_execute,
    watch_widget_failures,
)

pytestmark = [pytest.mark.browser, pytest.mark.hub, pytest.mark.slow]

STUDENTS = ("ana", "bruno", "carla")
TEACHER = "lee"
PASSWORD = "do-re-mi-fa-sol"
TIMEOUT_MS = 240_000
START_TIMEOUT_S = 180


def _missing() -> str | None:
    if importlib.util.find_spec("jupyterhub") is None:
        return "jupyterhub is not installed (it is in the dev extra)"
    for program in ("node", "configurable-http-proxy"):
        if shutil.which(program) is None:
            return f"{program} is missing: `make proxy` installs configurable-http-proxy (npm)"
    if not CHROMIUM.exists():
        return f"Chromium is missing at {CHROMIUM}"
    return None


@pytest.fixture(scope="module")
def hub() -> Iterator[tuple[Server, Path]]:
    """JupyterHub on 127.0.0.1 for class 3b; returns the server and the hand-in root."""
    why = _missing()
    if why:
        pytest.skip(why)
    work = Path(tempfile.mkdtemp(prefix="musicgames-hub-"))
    course, homes = work / "course", work / "users"
    course.mkdir()
    for notebook in sorted((REPO_ROOT / "lessons").glob("*.ipynb")):
        shutil.copy(notebook, course / notebook.name)
    classes = work / "classes.json"
    classes.write_text(json.dumps({"3b": {"students": list(STUDENTS), "teachers": [TEACHER]}}))
    _quiet_lab_settings(work)
    ports: set[int] = set()
    while len(ports) < 3:  # three different free ports
        ports.add(free_port())
    port, hub_port, proxy_port = sorted(ports)
    config = work / "jupyterhub_test_config.py"
    config.write_text(
        f"load_subconfig({str(REPO_ROOT / 'deploy/jupyterhub/jupyterhub_config.py')!r})\n"
        "c.JupyterHub.hub_ip = '127.0.0.1'\n"
        f"c.JupyterHub.hub_port = {hub_port}\n"
        f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{proxy_port}'\n"
        "c.Spawner.ip = '127.0.0.1'\n"
        "c.Spawner.args = [*c.Spawner.args, '--LabApp.expose_app_in_browser=True',\n"
        "                  '--LabApp.news_url=None']\n"
        "c.Spawner.environment.update({\n"
        f"    'JUPYTERLAB_SETTINGS_DIR': {str(work / 'lab-settings')!r},\n"
        f"    'JUPYTERLAB_WORKSPACES_DIR': {str(work / 'lab-workspaces')!r}}})\n"
    )
    env = dict(os.environ)
    env.update({
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        "PYTHONPATH": f"{REPO_ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}",
        "MUSICGAMES_HUB_CLASSES": str(classes),
        "MUSICGAMES_HUB_COURSE": str(course),
        "MUSICGAMES_HUB_HAND_IN": str(work / "hand-in"),
        "MUSICGAMES_HUB_HOMES": str(homes),
        "MUSICGAMES_HUB_STATE": str(work / "state"),
        "MUSICGAMES_HUB_AUTH": "dummy",
        "MUSICGAMES_HUB_PASSWORD": PASSWORD,
        "MUSICGAMES_HUB_SPAWNER": "simple",
        "MUSICGAMES_HUB_URL": f"http://127.0.0.1:{port}",
    })
    env.pop("MUSICGAMES_PROGRESS_FILE", None)
    log_path = work / "hub.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    server = Server(f"http://127.0.0.1:{port}", port, process, log_path, work)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _status_ok(f"{server.url}/hub/api"):
        if process.poll() is not None or time.monotonic() > deadline:
            why = "exited" if process.poll() is not None else "not ready in time"
            tail = server.log_tail(8000)
            _stop(server)
            pytest.fail(f"JupyterHub did not start ({why}):\n{tail}")
        time.sleep(0.5)
    yield server, work / "hand-in"
    _stop(server)


def _stop(server: Server) -> None:
    """Stop the hub (it stops the users' servers) and the proxy it started, which runs in
    a session of its own and outlives a hub that was killed."""
    import signal

    pid_file = server.workdir / "state" / "jupyterhub-proxy.pid"
    proxy = int(pid_file.read_text()) if pid_file.exists() else None
    server.stop()
    if proxy is not None:
        try:
            with open(f"/proc/{proxy}/cmdline", "rb") as cmdline:
                ours = b"configurable-http-proxy" in cmdline.read()
        except OSError:
            ours = False
        if ours:
            os.kill(proxy, signal.SIGTERM)


def _log_in(browser: Any, server: Server, name: str, path: str) -> Any:
    """A browser of the user's own; follows a teacher's link to ``path`` (in the user's
    folder, through the hub's ``user-redirect``), logs in, and, without waiting for the page
    to load (the pages of a class load side by side), lets the hub start their server and
    open ``path`` in their JupyterLab."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    watch_widget_failures(page)
    link = quote(f"/hub/user-redirect/lab/tree/{path}?reset", safe="/")
    page.goto(f"{server.url}/hub/login?next={link}")
    page.locator("#username_input").fill(name)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    return page


#: The notebook at this path is the one JupyterLab shows.
_NOTEBOOK_OPEN_JS = """(path) => {
  const widget = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return !!(widget && widget.context && widget.context.path === path);
}"""


def _run(page: Any, name: str, path: str) -> None:
    """Once the notebook opened by :func:`_log_in` has its kernel: start running all its
    cells (without waiting for them)."""
    try:
        page.wait_for_function(_NOTEBOOK_OPEN_JS, arg=path, timeout=TIMEOUT_MS, polling=250)
    except Exception as error:
        raise AssertionError(f"{name}: {path} did not open; the page is at {page.url}") from error
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=TIMEOUT_MS, polling=250)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def _ran(page: Any, name: str, path: str) -> None:
    """Wait until every cell ran; no cell raised, every widget loaded."""
    page.wait_for_function(_ALL_CELLS_RAN_JS, timeout=TIMEOUT_MS, polling=250)
    errors = page.evaluate(_CELL_ERRORS_JS)
    assert not errors, f"{name}: {path}: a cell raised: {errors}"
    assert not page.mg_model_failures, page.mg_model_failures


def test_three_students_answer_lesson_1_and_the_teacher_reads_all_three(
    browser: Any, hub: tuple[Server, Path]
) -> None:
    server, hand_in = hub
    lessons = sorted(p.name for p in (server.workdir / "course").glob("01-*.ipynb"))
    assert lessons, "no lesson 1 in the course folder"
    lesson = f"course/{lessons[0]}"
    teacher = server.workdir / "users" / TEACHER
    teacher.mkdir(parents=True, exist_ok=True)
    (teacher / "class-3b.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "read", "metadata": {},
                   "outputs": [], "source": (
                       "import os\n"
                       "from musicgames.progress import open_class\n"
                       "klass = open_class(os.path.join(os.environ['MUSICGAMES_HAND_IN'], '3b'))\n"
                       "klass.table()")}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    # The three log in at once, as a class does, and the teacher with them (who reads the
    # class once the three have answered): their servers start side by side.
    # The teacher's notebook opens with the lessons (its kernel starts meanwhile); it runs
    # once the three have answered.
    paths = {**{name: lesson for name in STUDENTS}, TEACHER: "class-3b.ipynb"}
    pages = {name: _log_in(browser, server, name, path) for name, path in paths.items()}
    try:
        for name in STUDENTS:
            _run(pages[name], name, lesson)
        for name in STUDENTS:
            page = pages[name]
            _ran(page, name, lesson)
            answer = page.locator(".mg-exercise .mg-exercise-option:not([disabled])").first
            answer.scroll_into_view_if_needed()
            answer.click()
            stored = kernel_execute(page, (
                "import os\n"
                "from musicgames.progress import read_answers\n"
                "rows = read_answers(os.environ['MUSICGAMES_PROGRESS_FILE'])\n"
                "print(sorted({(r.student, r.activity) for r in rows}))"
            ))
            assert stored.strip() == f"[('{name}', 'lesson')]", stored
            # The file is in the class's hand-in folder already: the lesson's Hand in box
            # says so, rather than offering the shared course folder.
            box = page.locator(".mg-hand-in")
            box.scroll_into_view_if_needed()
            assert "nothing to hand in" in (box.text_content() or ""), box.text_content()
            assert box.locator("button").is_disabled()

        page = pages[TEACHER]
        _run(page, TEACHER, paths[TEACHER])
        _ran(page, TEACHER, "class-3b.ipynb")
        seen = kernel_execute(page, (
            "print(sorted(klass.students));"
            "print(sorted({a.student for a in klass.answers if a.activity == 'lesson'}))"
        )).split("\n")
        assert seen[0] == str(sorted(STUDENTS))
        assert seen[1] == str(sorted(STUDENTS))
    finally:
        for page in pages.values():
            page.context.close()
    assert sorted(p.name for p in (hand_in / "3b").glob("*.sqlite3")) == [
        f"{name}.sqlite3" for name in sorted(STUDENTS)]
