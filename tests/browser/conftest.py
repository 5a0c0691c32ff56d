"""Shared fixtures for tests that open real notebooks in Chromium (JupyterLab and Voila).

How to use them in a test file of this folder::

    import pytest

    pytestmark = pytest.mark.browser

    def test_lesson(lab_page, open_notebook, kernel_execute):
        open_notebook(lab_page, "lessons/01-the-staff.ipynb")
        lab_page.locator(".mg-exercise button").first.click()
        assert kernel_execute(lab_page, "print(1 + 1)") == "2\\n"

    def test_game_in_voila(browser, voila_server):
        server = voila_server("notebooks/note-snap.ipynb")
        page = browser.new_page()
        page.goto(server.url)

What is here:

* ``chromium_path`` — ``/usr/bin/chromium``; every browser test is skipped, with a message
  saying how to install it, when it is missing (and only then).
* ``lab_server`` (session: one per test worker) — JupyterLab started as its own process group
  on 127.0.0.1 on a free port, with throw-away settings/workspaces folders; its root links
  to the repository's files and has a ``scratch`` folder of its own (``.root / "scratch"``)
  for notebooks a test makes; ready once ``/api/status`` answers 200; the whole group is
  stopped at the end.
* ``browser`` (per test module) — Playwright's Chromium, launched from ``/usr/bin/chromium``.
* ``lab_page`` — a fresh page whose base URL is the Lab server. The test fails if the page's
  console ever says "Failed to load model class" (a widget that did not load). After the
  test every kernel is shut down, so each test's notebook starts from a fresh kernel.
* ``open_notebook(page, path)`` — opens ``/lab/tree/<path>?reset``, waits for the kernel to be
  idle, runs all cells and waits for them to finish; fails on a cell error or on a widget
  that did not load. ``path`` is relative to the repository root.
* ``open_notebook_here(page, path)`` — the same in a page where Lab already runs (a module's
  shared page): the notebook is opened from that Lab, after every tab is closed and every
  kernel ended, so Lab does not start again.
* ``kernel_execute(page, code) -> str`` — runs ``code`` in the open notebook's kernel and
  returns what it printed on stdout (raises ``AssertionError`` on an exception).
* ``watch_widget_failures(page)`` — for pages you make yourself (Voila): a list that collects
  "Failed to load model class" console messages; assert it stays empty.
* ``voila_server(path)`` — starts ``voila`` on one notebook on a free port and returns a
  :class:`Server` (``.url``); stopped after the test.
* ``classroom`` (per test module) — ``python -m musicgames.classroom`` on 127.0.0.1 with a
  fresh class folder: ``(server, folder)``; a student's browser on it is
  :class:`tests.browser.classroom_helpers.Visitor`.

Each server gets its own ``MUSICGAMES_DATA_DIR`` in a temporary folder, so nothing a test
does lands in the real user's progress file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 90.0
NOTEBOOK_TIMEOUT_MS = 120_000
MODEL_CLASS_FAILURE = "Failed to load model class"

# The notebooks here are the pages the browser tests open: each test that opens one runs it
# top to bottom in the real JupyterLab and fails on any cell that raises (open_notebook), so
# nbmake running them again headless would check nothing more.
collect_ignore_glob = ["*.ipynb"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, marked or not."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


# -- servers ----------------------------------------------------------------------------


@dataclass
class Server:
    """A server started for the tests, running as its own process group."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path
    workdir: Path
    extra_dirs: list[Path] = field(default_factory=list)
    root: Path = REPO_ROOT  # the folder it serves notebooks from

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop the whole process group (server and its kernels)."""
        if self.process.poll() is None:
            _signal_group(self.process, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                _signal_group(self.process, signal.SIGKILL)
                self.process.wait(timeout=10)
        # Kernels started by the server are in its group too; make sure none is left.
        _signal_group(self.process, signal.SIGKILL)
        shutil.rmtree(self.workdir, ignore_errors=True)


def _signal_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)  # the group id is the leader's pid (start_new_session)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTERLAB_SETTINGS_DIR"] = str(workdir / "lab-settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(workdir / "lab-workspaces")
    env["JUPYTER_RUNTIME_DIR"] = str(workdir / "runtime")
    env["MUSICGAMES_DATA_DIR"] = str(workdir / "musicgames-data")
    env["PYTHONUNBUFFERED"] = "1"
    return env


_LAB_SETTINGS = {
    # No "get notified about Jupyter news?" toast over the page, and no update checks.
    ("apputils-extension", "notification"): '{"fetchNews": "false", "checkForUpdates": false}',
    # Lab would autosave the notebooks a test ran, outputs and all, into the repository.
    ("docmanager-extension", "plugin"): '{"autosave": false}',
}


def _quiet_lab_settings(workdir: Path) -> None:
    """Settings for the test's Lab: no news toasts, no autosaving of the notebooks it runs."""
    for (extension, plugin), settings in _LAB_SETTINGS.items():
        folder = workdir / "lab-settings" / "@jupyterlab" / extension
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{plugin}.jupyterlab-settings").write_text(settings, encoding="utf-8")


def _start(command: list[str], workdir: Path, port: int, ready: Callable[[], bool]) -> Server:
    _quiet_lab_settings(workdir)
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=_server_env(workdir),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, stopped as one
        )
    server = Server(f"http://127.0.0.1:{port}", port, process, log_path, workdir)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = server.log_tail()
            server.stop()
            pytest.fail(f"{command[2]} exited with code {process.returncode} on start:\n{tail}")
        if ready():
            return server
        time.sleep(0.25)
    tail = server.log_tail()
    server.stop()
    pytest.fail(f"{command[2]} did not become ready in {SERVER_START_TIMEOUT_S:.0f} s:\n{tail}")


def _status_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


# -- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Debian's Chromium; the browser tests are skipped only when it is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"browser tests need Chromium at {CHROMIUM}: "
            "install it with `apt-get update && apt-get install -y chromium`"
        )
    return CHROMIUM


SCRATCH = "scratch"


def _lab_root(workdir: Path) -> Path:
    """The folder the test's Lab serves: the repository's files and folders (linked, so
    paths such as ``notebooks/note-snap.ipynb`` work) and a ``scratch`` folder of its own
    for the notebooks a test makes, so nothing a test writes lands in the repository or
    meets what a test in another worker writes."""
    root = workdir / "root"
    root.mkdir()
    for entry in REPO_ROOT.iterdir():
        if not entry.name.startswith(".") and entry.name != SCRATCH:
            (root / entry.name).symlink_to(entry)
    (root / SCRATCH).mkdir()
    return root


@pytest.fixture(scope="session")
def lab_server(chromium_path: Path) -> Iterator[Server]:
    """JupyterLab on 127.0.0.1 (a free port) serving the repository's files, one per test
    worker (see :func:`_lab_root`)."""
    workdir = Path(tempfile.mkdtemp(prefix="musicgames-lab-"))
    root = _lab_root(workdir)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.ip=127.0.0.1",
        f"--port={port}",
        f"--ServerApp.root_dir={root}",
        f"--FileCheckpoints.checkpoint_dir={workdir / 'checkpoints'}",  # not in the repository
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
    ]
    server = _start(
        command, workdir, port, lambda: _status_ok(f"http://127.0.0.1:{port}/api/status")
    )
    server.root = root
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    """Playwright's Chromium API driving Debian's Chromium, headless.

    One per test module, not per session: while Playwright's sync API is open it runs an
    event loop in the main thread, which would break later tests that use ``asyncio.run``.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@contextlib.contextmanager
def new_lab_page(browser: Any, server: Server, init_script: str = "") -> Iterator[Any]:
    """A fresh page on the Lab server; fails if a widget model did not load in it. When it
    is done every kernel is shut down, so the next page starts with fresh kernels.

    Tests that can share one page (each uses its own widget of one notebook) open it once
    for their module with this (a parallel run keeps a browser module on one worker)."""
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    if init_script:  # runs first in every document of the page (a stand-in API, say)
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(NOTEBOOK_TIMEOUT_MS)
    failures = watch_widget_failures(page)
    yield page
    shut_down_kernels(page)
    context.close()
    assert not failures, f"a widget did not load in the page: {failures}"


@pytest.fixture
def lab_page(browser: Any, lab_server: Server) -> Iterator[Any]:
    """A fresh page on the Lab server; fails the test if a widget model did not load."""
    with new_lab_page(browser, lab_server) as page:
        yield page


_SHUT_DOWN_JS = """async () => {
  if (!window.jupyterapp) return 0;
  const sessions = window.jupyterapp.serviceManager.sessions;
  await sessions.refreshRunning();
  const running = Array.from(sessions.running()).length;
  await sessions.shutdownAll();
  return running;
}"""


def shut_down_kernels(page: Any) -> None:
    """End every kernel session of the Lab server, from a page of it (which knows how to
    pass the server's XSRF check)."""
    with contextlib.suppress(Exception):  # a page that broke has no kernels to end
        page.evaluate(_SHUT_DOWN_JS)


@pytest.fixture
def voila_server(chromium_path: Path) -> Iterator[Callable[[str], Server]]:
    """Start Voila on a notebook (a path relative to the repository root)."""
    started: list[Server] = []

    def start(notebook: str) -> Server:
        workdir = Path(tempfile.mkdtemp(prefix="musicgames-voila-"))
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "voila",
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--port={port}",
            notebook,
        ]
        server = _start(command, workdir, port, lambda: _port_open(port))
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


#: In the classroom tests, a page that never connects to its kernel frees it after this
#: many seconds.
CONNECT_TIMEOUT_S = 20


@pytest.fixture(scope="module")
def classroom(chromium_path: Path) -> Iterator[tuple[Server, Path]]:
    """``python -m musicgames.classroom`` on 127.0.0.1 with a fresh class folder."""
    workdir = Path(tempfile.mkdtemp(prefix="musicgames-classroom-test-"))
    folder = workdir / "class"
    port = free_port()
    # one kernel started ahead per app: the first visitor of an app gets it (the --warm
    # path), the next one a kernel started on the spot; both must serve the right student
    # a page that never connects to its kernel frees it after CONNECT_TIMEOUT_S
    command = [sys.executable, "-m", "musicgames.classroom", "--port", str(port),
               "--class-folder", str(folder), "--warm", "1",
               "--connect-timeout", str(CONNECT_TIMEOUT_S)]
    server = _start(command, workdir, port, lambda: _port_open(port))
    yield server, folder
    server.stop()


# -- helpers (plain functions, also offered as fixtures of the same name) ----------------


def watch_widget_failures(page: Any) -> list[str]:
    """Collect the page's "Failed to load model class" console messages (a widget that did
    not load) into the list returned; :func:`open_notebook` fails the test on any."""
    failures: list[str] = []

    def listen(message: Any) -> None:
        if MODEL_CLASS_FAILURE in message.text:
            failures.append(message.text)

    page.on("console", listen)
    page.mg_model_failures = failures
    return failures

_KERNEL_IDLE_JS = """() => {
  const widget = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = widget && widget.sessionContext && widget.sessionContext.session;
  return !!(session && session.kernel && session.kernel.status === 'idle');
}"""

_ALL_CELLS_RAN_JS = """() => {
  const widget = window.jupyterapp.shell.currentWidget;
  const kernel = widget.sessionContext.session && widget.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  for (const cell of widget.content.widgets) {
    const model = cell.model;
    if (model.type !== 'code' || model.sharedModel.getSource().trim() === '') continue;
    if (model.executionCount === null) return false;
  }
  return true;
}"""

_CELL_ERRORS_JS = """() => {
  const errors = [];
  for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {
    if (cell.model.type !== 'code') continue;
    const outputs = cell.model.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const out = outputs.get(i).toJSON();
      if (out.output_type === 'error') errors.push(out.ename + ': ' + out.evalue);
    }
  }
  return errors;
}"""

_KERNEL_EXECUTE_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code: code, stop_on_error: true, store_history: false});
  let stdout = '';
  let error = null;
  future.onIOPub = (msg) => {
    const type = msg.header.msg_type;
    if (type === 'stream' && msg.content.name === 'stdout') stdout += msg.content.text;
    if (type === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return {stdout: stdout, error: error};
}"""


def open_notebook(page: Any, path: str) -> None:
    """Open ``path`` (relative to the repository root) in Lab, run all cells, wait for them.

    Fails the test when a cell raised, or a widget model failed to load.
    """
    page.goto(f"/lab/tree/{path}?reset")
    _run_all_once_ready(page, path)


#: Close every tab of the Lab in the page, without saving (the suite keeps notebooks as
#: they are in the repository).
_CLOSE_EVERY_TAB_JS = """() => {
  for (const widget of [...window.jupyterapp.shell.widgets('main')]) widget.dispose();
}"""

_OPENED_JS = """(path) => {
  const widget = window.jupyterapp.shell.currentWidget;
  return !!(widget && widget.context && widget.context.path === path && widget.sessionContext);
}"""


def open_notebook_here(page: Any, path: str) -> None:
    """As :func:`open_notebook`, but in a page where Lab already runs, open ``path`` from
    that Lab, as a person opens a notebook from its file browser: every tab closed and
    every kernel ended first, then the notebook opened, run and waited for. A notebook
    opened this way costs the kernel and the notebook, not a Lab starting again (several
    seconds of the browser's time). In a page without Lab, it is :func:`open_notebook`."""
    if not page.evaluate("() => !!window.jupyterapp"):
        open_notebook(page, path)
        return
    page.evaluate(_CLOSE_EVERY_TAB_JS)
    shut_down_kernels(page)
    page.evaluate("(path) => window.jupyterapp.commands.execute('docmanager:open', {path})",
                  path)
    page.wait_for_function(_OPENED_JS, arg=path, timeout=NOTEBOOK_TIMEOUT_MS)
    _run_all_once_ready(page, path)


def _run_all_once_ready(page: Any, path: str) -> None:
    """Wait for the kernel of the notebook just opened, run all its cells, wait for them."""
    deadline = time.monotonic() + NOTEBOOK_TIMEOUT_MS / 1000
    while not page.evaluate(_KERNEL_IDLE_JS):
        # A notebook without kernel metadata makes Lab ask which kernel: take its default.
        accept = page.locator(".jp-Dialog .jp-mod-accept")
        if accept.count() and accept.first.is_visible():
            accept.first.click()
        assert time.monotonic() < deadline, f"{path}: the kernel never became idle"
        page.wait_for_timeout(200)
    # The command's promise settles once every cell has run (or one has raised).
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    errors = page.evaluate(_CELL_ERRORS_JS)
    assert not errors, f"{path}: a cell raised: {errors}"
    page.wait_for_function(_ALL_CELLS_RAN_JS, timeout=NOTEBOOK_TIMEOUT_MS, polling=200)
    errors = page.evaluate(_CELL_ERRORS_JS)
    assert not errors, f"{path}: a cell raised: {errors}"
    failures = getattr(page, "mg_model_failures", [])
    assert not failures, f"{path}: a widget did not load: {failures}"
    page.mg_left_collapsed = page.evaluate("() => window.jupyterapp.shell.leftCollapsed")


# The page as a fresh one has it before the notebook runs again: the sidebar as it opened,
# the notebook scrolled to the top with its first cell active, in command mode and focused;
# no sound unlocked by a click or key yet, and no sound settings kept for this tab.
_AS_OPENED_JS = """(leftCollapsed) => {
  const app = window.jupyterapp;
  if (leftCollapsed && !app.shell.leftCollapsed) app.shell.collapseLeft();
  const panel = app.shell.currentWidget;
  app.shell.activateById(panel.id);
  const notebook = panel.content;
  notebook.mode = 'command';
  notebook.activeCellIndex = 0;
  notebook.deselectAll();
  const scroller = panel.node.querySelector('.jp-WindowedPanel-outer') || notebook.node;
  scroller.scrollTop = 0;
  notebook.node.focus();
  const sound = globalThis.musicgamesSound;
  if (sound) {
    if (sound.context) sound.context.close().catch(() => {});
    Object.assign(sound, {context: null, bus: null, analyser: null, unlocked: false,
                          notesGone: false, failed: false, starts: []});
  }
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith('musicgames.')) sessionStorage.removeItem(key);
  }
}"""


def run_notebook_again(page: Any) -> None:
    """Run every cell of the notebook open in ``page`` (by :func:`open_notebook`) again, in
    the same kernel, with the page put back as it opened: fresh widgets in place of the old
    ones at a small part of the cost of a new page and kernel, for tests that share a page.
    Close what the old widgets run in the kernel first. Fails as :func:`open_notebook` does."""
    page.evaluate(_AS_OPENED_JS, getattr(page, "mg_left_collapsed", True))
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(_ALL_CELLS_RAN_JS, timeout=NOTEBOOK_TIMEOUT_MS, polling=100)
    errors = page.evaluate(_CELL_ERRORS_JS)
    assert not errors, f"a cell raised: {errors}"
    failures = getattr(page, "mg_model_failures", [])
    assert not failures, f"a widget did not load: {failures}"


def kernel_execute(page: Any, code: str) -> str:
    """Run ``code`` in the kernel of the notebook open in ``page``; return its stdout."""
    result = page.evaluate(_KERNEL_EXECUTE_JS, code)
    if result["error"]:
        raise AssertionError(f"the kernel raised {result['error']} running:\n{code}")
    return str(result["stdout"])


@pytest.fixture(name="open_notebook")
def open_notebook_fixture() -> Callable[[Any, str], None]:
    """:func:`open_notebook`, for tests that take it as a fixture."""
    return open_notebook


@pytest.fixture(name="watch_widget_failures")
def watch_widget_failures_fixture() -> Callable[[Any], list[str]]:
    """:func:`watch_widget_failures`, for tests that take it as a fixture."""
    return watch_widget_failures


@pytest.fixture(name="kernel_execute")
def kernel_execute_fixture() -> Callable[[Any, str], str]:
    """:func:`kernel_execute`, for tests that take it as a fixture."""
    return kernel_execute
