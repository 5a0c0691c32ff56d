"""The classroom server's parts, headless: options, the app folder, the kernel's side."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from musicgames import appmode
from musicgames.classroom import default_lessons, parse_args, voila_config
from musicgames.classroom.access import is_loopback
from musicgames.classroom.apps import (
    APPS,
    LAB_ONLY_TAG,
    build_app_folder,
    find_lessons,
    lesson_for_app,
    strip_run_instructions,
)
from musicgames.classroom.kernel import begin_lesson, close_app, open_app, student_store
from musicgames.progress import read_answers

RUN_THE_CELL = re.compile(
    r"\brun\b[^.\n]*\b(cells?|notebook)\b|shift\s*\+\s*enter"
    r"|\bejecut\w*[^.\n]*\b(celdas?|cuaderno|todo)\b|may[úu]s\w*\s*\+\s*enter|⏩",
    re.I,
)


# -- options -------------------------------------------------------------------------------


def test_loopback_by_default_without_a_token(tmp_path: Path) -> None:
    options = parse_args(["--class-folder", str(tmp_path)])
    assert options.ip == "127.0.0.1" and is_loopback(options.ip)
    config = voila_config(options, tmp_path)
    assert config["Voila"]["ip"] == "127.0.0.1"
    assert "token" not in config["Voila"]  # Voila's default then: no token on loopback
    assert config["VoilaConfiguration"]["template"] == "musicgames"


def test_beyond_loopback_a_token_is_made_up(tmp_path: Path) -> None:
    first = voila_config(parse_args(["--ip", "0.0.0.0", "--port", "9000"]), tmp_path)
    second = voila_config(parse_args(["--ip", "0.0.0.0"]), tmp_path)
    assert first["Voila"]["port"] == 9000
    tokens = [first["Voila"]["token"], second["Voila"]["token"]]
    assert all(isinstance(t, str) and len(t) >= 10 for t in tokens)
    assert tokens[0] != tokens[1]


def test_beyond_loopback_an_empty_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="token or a password is required"):
        voila_config(parse_args(["--ip", "192.168.1.20", "--token", ""]), tmp_path)
    # on loopback an empty token is the teacher's choice
    assert voila_config(parse_args(["--token", ""]), tmp_path)["Voila"].get("token") is None


def test_a_given_token_or_a_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = voila_config(parse_args(["--ip", "0.0.0.0", "--token", "do-re-mi"]), tmp_path)
    assert config["Voila"]["token"] == "do-re-mi"
    monkeypatch.setenv("MUSICGAMES_CLASS_PASSWORD", "sol-la-si")
    config = voila_config(parse_args(["--ip", "0.0.0.0", "--password"]), tmp_path)
    hashed = config["PasswordIdentityProvider"]["hashed_password"]
    assert isinstance(hashed, str) and "sol-la-si" not in hashed
    from jupyter_server.auth import passwd_check

    assert passwd_check(hashed, "sol-la-si") and not passwd_check(hashed, "do")
    assert config["Voila"]["token"] == ""


# -- the app folder ------------------------------------------------------------------------


def test_students_kernels_keep_no_command_history(tmp_path: Path) -> None:
    from traitlets.config.loader import PyFileConfigLoader

    from musicgames.classroom import kernel_profile

    folder = kernel_profile(tmp_path / "ipython")
    settings = PyFileConfigLoader("ipython_kernel_config.py",
                                  path=str(folder / "profile_default")).load_config()
    assert settings.HistoryManager.enabled is False


def test_app_folder_has_every_app_and_the_lessons_ready_for_apps(tmp_path: Path) -> None:
    lessons = find_lessons(default_lessons())
    assert lessons, "the project's lessons were not found"
    served = build_app_folder(tmp_path, lessons)
    for app in APPS:
        notebook = json.loads((tmp_path / app.notebook).read_text(encoding="utf-8"))
        [cell] = notebook["cells"]
        assert f"open_app({app.name!r})" in cell["source"]
    assert [s.notebook for s in served] == [
        f"lessons/{p.name}" if p.parent.name == "lessons" else f"lessons/{p.parent.name}/{p.name}"
        for p in lessons
    ]
    assert {s.language for s in served} >= {"en"}
    assert all(s.title for s in served)
    for lesson in served:
        notebook = json.loads((tmp_path / lesson.notebook).read_text(encoding="utf-8"))
        assert f"begin_lesson({lesson.language!r})" in notebook["cells"][0]["source"]
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                source = "".join(cell["source"])
                assert not RUN_THE_CELL.search(source), (lesson.notebook, source)


def test_each_lessons_language_link_finds_the_other_lesson_where_it_is_served(
    tmp_path: Path,
) -> None:
    from musicgames.lessons import open_lesson
    from musicgames.lessons.course import COURSE

    build_app_folder(tmp_path, find_lessons(default_lessons()))
    for plan in COURSE:
        for language, here in (("en", "lessons"), ("es", "lessons/es")):
            lesson = open_lesson(plan.id, language, remember=False, record=False)
            href = re.search(r'href="([^"?]+)', lesson._language_link())
            assert href is not None
            assert (tmp_path / here / href.group(1)).resolve().is_file(), (plan.id, href)


def test_lab_only_cells_are_left_out_and_other_text_kept() -> None:
    notebook = {"cells": [
        {"cell_type": "markdown", "metadata": {"tags": [LAB_ONLY_TAG]}, "source": "Lab only"},
        {"cell_type": "markdown", "metadata": {},
         "source": ["# Title\n", "\n", "Read. Run the notebook from the top. Then play.\n",
                    "\n", "| a | b |\n", "|---|---|\n"]},
        {"cell_type": "markdown", "metadata": {}, "source": "Run ▸ Run All Cells."},
        {"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": []},
    ], "metadata": {}}
    ready = lesson_for_app(notebook)
    sources = ["".join(c["source"]) for c in ready["cells"]]
    assert len(sources) == 3 and "begin_lesson" in sources[0]
    assert sources[1] == "# Title\n\nRead. Then play.\n\n| a | b |\n|---|---|"
    assert sources[2] == "x = 1"


@pytest.mark.parametrize(("text", "kept"), [
    ("Run the cell below (**Shift + Enter**): you play.", ""),
    ("Ejecuta la celda de abajo. Luego juega.", "Luego juega."),
    ("Press **Mayús + Enter** para empezar. Bien.", "Bien."),
    ("A runner runs. Cells are small.", "A runner runs. Cells are small."),
])
def test_run_instructions_in_both_languages(text: str, kept: str) -> None:
    assert strip_run_instructions(text) == kept


# -- the kernel's side -----------------------------------------------------------------------


@pytest.fixture
def classroom_kernel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The environment Voila gives a classroom app's kernel."""
    monkeypatch.setenv(appmode.APP_ENV, "1")
    monkeypatch.setenv(appmode.CLASS_FOLDER_ENV, str(tmp_path))
    # begin_lesson() sets MUSICGAMES_PROGRESS_FILE: the test's end must remove it again
    monkeypatch.setenv("MUSICGAMES_PROGRESS_FILE", "")
    monkeypatch.delenv("MUSICGAMES_PROGRESS_FILE")
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path / "teacher-data"))
    return tmp_path


def _widget(box: Any) -> Any:
    return box.children[-1]


@pytest.mark.parametrize(("app", "kind"), [
    ("note-snap", "NoteSnapWidget"), ("keyboard-duel", "KeyboardDuelWidget"),
    ("note-drill", "NoteDrill"), ("chord-quiz", "ChordTonesQuiz"),
])
def test_each_app_opens_for_the_student_in_the_address(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch, app: str, kind: str
) -> None:
    monkeypatch.setenv("QUERY_STRING", "student=Ana&language=es&naming=letters")
    box = open_app(app)
    try:
        assert type(_widget(box)).__name__ == kind
        assert "Ana" in box.children[0].value
        assert 'href="/?language=es"' in box.children[0].value  # back to the start page
        assert _widget(box)._progress.path == classroom_kernel / "ana.sqlite3"
    finally:
        close_app(box)


def test_an_unknown_app_is_refused(classroom_kernel: Path) -> None:
    with pytest.raises(ValueError, match="'solitaire' is not a classroom app"):
        open_app("solitaire")


def test_without_a_name_the_app_asks_for_it_first(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUERY_STRING", "")
    box = open_app("note-drill")
    note, row = box.children
    field, button = row.children
    field.value = "   "
    button.click()
    assert "at least one letter" in note.value and len(box.children) == 2
    field.value = " Bruno "
    button.click()
    try:
        assert type(_widget(box)).__name__ == "NoteDrill"
        assert (classroom_kernel / "bruno.sqlite3").exists()
    finally:
        close_app(box)


def test_students_never_share_a_file(classroom_kernel: Path) -> None:
    ana, bruno, ana_again = student_store("Ana"), student_store("Bruno"), student_store("ana")
    try:
        ana.record("drill", "Sol3", "Sol", correct=True, response_ms=500)
        bruno.record("drill", "La3", "Sol", correct=False, response_ms=900)
        ana_again.record("drill", "Do3", "Do", correct=True, response_ms=700)
    finally:
        for store in (ana, bruno, ana_again):
            store.close()
    assert ana.path == ana_again.path != bruno.path
    assert [(a.student, a.item) for a in read_answers(ana.path)] == [
        ("Ana", "Sol3"), ("Ana", "Do3")]
    assert [(a.student, a.item) for a in read_answers(bruno.path)] == [("Bruno", "La3")]


def test_a_lesson_records_to_the_students_file(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.lessons import Lesson

    monkeypatch.setenv("QUERY_STRING", "student=Carla")
    begin_lesson()
    lesson = Lesson("solfege")
    try:
        assert lesson.progress is not None
        assert lesson.progress.path == classroom_kernel / "carla.sqlite3"
        assert lesson.progress.student == "Carla"
    finally:
        lesson.progress.close()


def test_a_lesson_page_writes_to_the_file_a_game_made_whatever_the_spelling(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.lessons import open_lesson

    game = student_store("Ana")  # a game first made Ana's file
    game.close()
    monkeypatch.setenv("QUERY_STRING", "student=ana")  # the lesson's app: typed in lower case
    lesson = open_lesson("01-the-staff", remember=False)
    try:
        assert lesson.store_problem == ""
        assert lesson.progress is not None
        assert lesson.progress.path == classroom_kernel / "ana.sqlite3"
        assert lesson.progress.student == "Ana"
    finally:
        lesson.progress.close()
    assert sorted(p.name for p in classroom_kernel.glob("*.sqlite3")) == ["ana.sqlite3"]


def test_a_lesson_without_a_student_records_nowhere(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames.lessons import Lesson
    from musicgames.progress import ProgressStore

    # the teacher's own progress file, with a name: a lesson in an app must not write there
    teacher = ProgressStore(classroom_kernel / "teacher-data" / "progress.sqlite3",
                            student="Teacher")
    teacher.close()
    monkeypatch.setenv("QUERY_STRING", "")
    begin_lesson()
    assert Lesson("solfege").progress is None
    assert list(classroom_kernel.glob("*.sqlite3")) == []


def _said_by_first_cell(notebook: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """What a served lesson's first cell shows, run as the app's kernel runs it."""
    import IPython.display

    shown: list[str] = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **_: shown.extend(
        str(getattr(o, "data", o)) for o in objs))
    cell = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]
    exec("".join(cell["source"]), {})  # noqa: S102 -- the cell the server itself runs
    return "".join(shown)


@pytest.mark.parametrize("query", ["", "language=en", "student=&naming=letters"])
def test_a_spanish_lesson_without_a_student_says_so_in_spanish(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, query: str
) -> None:
    from musicgames.i18n import text

    served = build_app_folder(tmp_path / "apps", find_lessons(default_lessons()))
    spanish = next(s for s in served if s.language == "es")
    english = next(s for s in served if s.language == "en")
    monkeypatch.setenv("QUERY_STRING", query)
    said = _said_by_first_cell(tmp_path / "apps" / spanish.notebook, monkeypatch)
    assert said.count(text("classroom.no_student", "es")) == 1, said
    assert text("classroom.no_student", "en") not in said
    assert "?language=es" in said  # the way back: to the Spanish start page
    # an English lesson opened from a Spanish address speaks English, as its text does
    monkeypatch.setenv("QUERY_STRING", "language=es")
    said = _said_by_first_cell(tmp_path / "apps" / english.notebook, monkeypatch)
    assert said.count(text("classroom.no_student", "en")) == 1, said


def _lesson_for(monkeypatch: pytest.MonkeyPatch, query: str, lesson_id: str = "01-the-staff",
                language: str = "en") -> Any:
    """A lesson page as the classroom serves it at an address with ``query``."""
    from musicgames.lessons import open_lesson

    monkeypatch.setenv("QUERY_STRING", query)
    lesson = open_lesson(lesson_id, language)
    lesson.settings()
    return lesson


def _close(lesson: Any) -> None:
    if lesson.progress is not None:
        lesson.progress.close()


def test_each_students_lesson_settings_are_their_own(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dora = _lesson_for(monkeypatch, "student=Dora&language=en")
    dora.controls["naming"].value = "letters"
    dora.controls["size"].value = "large"
    _close(dora)
    eli = _lesson_for(monkeypatch, "student=Eli&language=en", "03-reading-fast")
    assert (eli.naming.value, eli.size, eli.student) == ("solfege", "normal", "Eli")
    _close(eli)
    again = _lesson_for(monkeypatch, "student=dora&language=en", "02-octaves-do3-to-do5")
    assert (again.naming.value, again.size, again.progress.student) == ("letters", "large", "Dora")
    _close(again)
    # kept in the class folder, hidden from the teacher's view, one file per student
    assert sorted(p.name for p in (classroom_kernel / ".lesson-settings").iterdir()) == [
        "dora.json"]
    assert not (classroom_kernel / "teacher-data" / "lesson-settings.json").exists()


def test_a_lesson_page_without_a_student_writes_for_nobody(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dora = _lesson_for(monkeypatch, "student=Dora")
    dora.controls["size"].value = "large"
    _close(dora)
    # the lesson's other-language page opened without ?student= (as its link once did)
    nobody = _lesson_for(monkeypatch, "language=es", "01-the-staff", "es")
    assert nobody.student is None and nobody.progress is None
    assert nobody.size == "normal"  # nobody's settings: not Dora's
    assert nobody.controls["name"].layout.display == "none"
    assert nobody._status() == ""  # the classroom's one line at the top says it, not this
    nobody.controls["name"].value = "Dora"  # a name typed in the page changes nothing
    block = nobody.show("line-or-space")
    block.children[0].buttons[1].click()
    assert nobody.student is None and nobody.progress is None
    assert read_answers(classroom_kernel / "dora.sqlite3") == []
    assert sorted(p.name for p in classroom_kernel.glob("*.sqlite3")) == ["dora.sqlite3"]


def test_the_other_language_link_keeps_the_student_and_the_naming(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eli = _lesson_for(monkeypatch, "student=Eli&language=en&naming=solfege")
    link = eli.settings().children[4].children[1]
    assert 'href="es/01-el-pentagrama.ipynb?student=Eli&amp;language=es&amp;naming=solfege"' \
        in link.value
    assert 'data-musicgames-naming="solfege"' in link.value  # the page's other links keep it
    eli.controls["naming"].value = "letters"
    panel_link = eli._panel.children[4].children[1]
    assert "naming=letters" in panel_link.value and "student=Eli" in panel_link.value
    assert 'data-musicgames-naming="letters"' in panel_link.value
    _close(eli)
    nobody = _lesson_for(monkeypatch, "language=es", "01-the-staff", "es")
    back = nobody._panel.children[4].children[1].value
    assert 'href="../01-the-staff.ipynb?language=en&amp;naming=solfege"' in back


def test_a_lesson_opens_in_the_start_pages_naming(
    classroom_kernel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _lesson_for(monkeypatch, "student=Eli&naming=letters")
    assert first.naming.value == "letters"
    figure = first.show("lines")
    assert ">G4<" in figure.children[0].value
    _close(first)


# -- the server's kernel routes ----------------------------------------------------------------


def test_a_kernels_secret_is_its_pages_alone() -> None:
    from musicgames.classroom.server import PageKernels

    kernels = PageKernels()
    anas, brunos = kernels.give("k-ana"), kernels.give("k-bruno")
    assert anas != brunos
    assert kernels.belongs("k-ana", anas) and kernels.belongs("k-bruno", brunos)
    assert not kernels.belongs("k-ana", brunos)  # Bruno's page, Ana's kernel
    assert not kernels.belongs("k-ana", None) and not kernels.belongs("k-ana", "")
    assert not kernels.belongs("k-nobody", anas)  # a kernel no page was given
    kernels.connected("k-ana")
    assert kernels.has_connected("k-ana") and not kernels.has_connected("k-bruno")
    kernels.forget("k-ana")
    assert not kernels.belongs("k-ana", anas) and not kernels.has_connected("k-ana")
    kernels.keep_only({"k-other"})  # Bruno's kernel was stopped (as idle): forgotten too
    assert not kernels.belongs("k-bruno", brunos)


#: Ways to run the server, and the route to a kernel each of them adds.
SERVER_KINDS = {
    "plain": ([], {}, None),
    "warm": (["--warm", "1"], {}, "/voila/query/"),  # kernels started ahead
    "progressive": ([], {"progressive_rendering": True}, "/voila/execution/"),
}


@pytest.mark.parametrize("kind", SERVER_KINDS)
def test_every_route_to_a_kernel_asks_for_its_page(tmp_path: Path, kind: str) -> None:
    from traitlets.config import Config

    from musicgames.classroom import server

    extra, voila_options, route = SERVER_KINDS[kind]
    options = parse_args(["--class-folder", str(tmp_path), "--connect-timeout", "5", *extra])
    config = voila_config(options, tmp_path)
    config["VoilaConfiguration"].update(voila_options)
    assert config["ClassroomVoila"]["connect_timeout"] == 5.0
    app = server.ClassroomVoila(config=Config(config))
    app.initialize([])
    settings = app.init_settings()
    assert settings["musicgames_connect_timeout"] == 5.0
    routes = {rule[0]: rule[1] for rule in app.init_handlers()}
    kernel_routes = {pattern: handler for pattern, handler in routes.items()
                     if any(word in pattern for word in
                            ("kernel", "shutdown", "query", "execution"))}
    assert len(kernel_routes) >= 3
    assert route is None or any(route in pattern for pattern in kernel_routes), routes
    page_only = (server.PageKernelHandler, server.PageKernelWebsocketHandler,
                 server.PageShutdownHandler, server.KernelQueryHandler,
                 server.PageExecutionHandler)
    assert all(issubclass(h, page_only) for h in kernel_routes.values()), kernel_routes
    assert any(issubclass(h, server.AppPageHandler) for h in routes.values())



def _kernel_cookies(tmp_path: Path, forwarded: str, *extra: str,
                    progressive: bool = False) -> list[str]:
    """The Set-Cookie headers of an app page given kernel ``k-1``, asked for through a proxy
    that says the visitor came over ``forwarded`` (http or https)."""
    import asyncio

    from tornado import httpclient, testing, web
    from tornado.httpserver import HTTPServer
    from traitlets.config import Config

    from musicgames.classroom import server

    options = parse_args(["--class-folder", str(tmp_path), "--token", "class-3b", *extra])
    config = voila_config(options, tmp_path)
    config["VoilaConfiguration"]["progressive_rendering"] = progressive
    app = server.ClassroomVoila(config=Config(config))
    app.initialize([])

    class GivenKernel(server.AppPageHandler):
        async def get(self, path: str | None = None) -> None:
            self._give("k-1")  # as when Voila has started kernel k-1 for this page
            self.finish("page")

    settings = app.init_settings()
    [kwargs] = [rule[2] for rule in app.init_handlers() if rule[1] is server.AppPageHandler]
    application = web.Application([(r"/voila/render/(.*)", GivenKernel, kwargs)], **settings)

    async def serve() -> list[str]:
        socket, port = testing.bind_unused_port()
        http = HTTPServer(application, xheaders=app.trust_xheaders)
        http.add_sockets([socket])
        try:
            response = await httpclient.AsyncHTTPClient().fetch(
                f"http://127.0.0.1:{port}/voila/render/note-drill.ipynb?student=Ana"
                "&token=class-3b", headers={"X-Forwarded-Proto": forwarded})
        finally:
            http.stop()
        return list(response.headers.get_list("Set-Cookie"))

    cookies = asyncio.run(serve())
    return [c for c in cookies if c.startswith("musicgames-kernel")]


@pytest.mark.parametrize(("forwarded", "behind_proxy", "secure"), [
    ("http", True, False),
    ("https", True, True),  # the proxy served the page over https
    ("https", False, False),  # no proxy was declared: the header is anyone's word
])
def test_a_kernels_cookies_live_as_long_as_the_browser_session_and_go_to_its_routes_only(
    tmp_path: Path, forwarded: str, behind_proxy: bool, secure: bool
) -> None:
    cookies = _kernel_cookies(tmp_path, forwarded, *(["--behind-proxy"] if behind_proxy else []))
    paths = set()
    for cookie in cookies:
        parts = {p.split("=")[0].strip().lower(): p.partition("=")[2]
                 for p in cookie.split(";")}
        # a session cookie: never written to the disk of a computer the class shares
        assert "expires" not in parts and "max-age" not in parts, cookie
        assert "httponly" in parts and parts["samesite"] == "Strict", cookie
        assert ("secure" in parts) == secure, cookie
        paths.add(parts["path"])
    assert len(cookies) == 2
    assert paths == {"/api/kernels/k-1", "/voila/api/shutdown/k-1"}


def test_with_progressive_rendering_a_page_is_given_its_kernels_cells_alone(
    tmp_path: Path,
) -> None:
    import asyncio

    from tornado import httpclient, testing, web, websocket
    from tornado.httpserver import HTTPServer
    from traitlets.config import Config

    from musicgames.classroom import server

    cookies = _kernel_cookies(tmp_path, "http", progressive=True)
    assert any(c.startswith(server.EXECUTION_COOKIE + "=")
               and "Path=/voila/execution/k-1;" in c for c in cookies), cookies
    # the route itself: for the page given the kernel only
    config = voila_config(parse_args(["--class-folder", str(tmp_path)]), tmp_path)
    config["VoilaConfiguration"]["progressive_rendering"] = True
    app = server.ClassroomVoila(config=Config(config))
    app.initialize([])
    application = web.Application(**app.init_settings())
    application.add_handlers(".*$", app.init_handlers())
    anas, brunos = "aaaa-0000-0000-0000-000a", "bbbb-0000-0000-0000-000b"
    kernels = application.settings["musicgames_page_kernels"]
    secrets = {anas: kernels.give(anas), brunos: kernels.give(brunos)}

    async def run() -> None:
        socket, port = testing.bind_unused_port()
        http = HTTPServer(application)
        http.add_sockets([socket])
        cells = f"ws://127.0.0.1:{port}/voila/execution/{anas}"
        try:
            for cookie in ("", f"{server.EXECUTION_COOKIE}={secrets[brunos]}",
                           f"{server.KERNEL_COOKIE}={secrets[anas]}"):
                with pytest.raises(httpclient.HTTPClientError) as refused:
                    await websocket.websocket_connect(httpclient.HTTPRequest(
                        cells, headers={"Cookie": cookie} if cookie else {}))
                assert refused.value.code == 403, cookie
            mine = await websocket.websocket_connect(httpclient.HTTPRequest(
                cells, headers={"Cookie": f"{server.EXECUTION_COOKIE}={secrets[anas]}"}))
            assert json.loads(await mine.read_message() or "{}")["action"] == "initialized"
            mine.close()
        finally:
            http.stop()

    asyncio.run(run())


def test_behind_a_proxy_the_server_trusts_its_forwarded_headers_only_when_told(
    tmp_path: Path,
) -> None:
    plain = voila_config(parse_args(["--class-folder", str(tmp_path)]), tmp_path)
    assert plain["ClassroomVoila"]["trust_xheaders"] is False
    proxied = voila_config(parse_args(["--class-folder", str(tmp_path), "--behind-proxy"]),
                           tmp_path)
    assert proxied["ClassroomVoila"]["trust_xheaders"] is True


def test_behind_a_proxy_the_server_asks_for_a_token_or_a_password(tmp_path: Path) -> None:
    """Everyone who reaches the proxy comes in from 127.0.0.1: a server behind one is no
    server for this computer alone, so it makes up a token, and refuses an empty one."""
    here = voila_config(parse_args(["--class-folder", str(tmp_path)]), tmp_path)
    assert "token" not in here["Voila"]  # this computer only: no token asked
    proxied = voila_config(parse_args(["--class-folder", str(tmp_path), "--behind-proxy"]),
                           tmp_path)
    assert len(str(proxied["Voila"]["token"])) >= 8
    with pytest.raises(SystemExit, match="--behind-proxy lets the network in"):
        voila_config(parse_args(["--class-folder", str(tmp_path), "--behind-proxy",
                                 "--token", ""]), tmp_path)


class _Kernels(dict[str, Any]):
    """The server's kernels as the query route sees them: each with its connection key."""

    def get_kernel(self, kernel_id: str) -> Any:
        return self[kernel_id]


def test_only_a_kernel_started_ahead_is_told_its_pages_request(tmp_path: Path) -> None:
    """Behind a reverse proxy on the server's computer every visitor comes from 127.0.0.1:
    the query route asks for the kernel's own proof, not for a local address."""
    import asyncio

    from jupyter_client import KernelManager
    from tornado import httpclient, testing, web, websocket
    from tornado.httpserver import HTTPServer
    from voila.request_info_handler import RequestInfoSocketHandler

    from musicgames.classroom import server
    from musicgames.classroom.access import KERNEL_PROOF_HEADER, kernel_proof
    from musicgames.classroom.kernel import wait_for_request

    anas, brunos = "aaaa-0000-0000-0000-000a", "bbbb-0000-0000-0000-000b"
    kernels = _Kernels({anas: KernelManager(), brunos: KernelManager()})
    application = web.Application(
        [(r"/voila/query/(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)", server.KernelQueryHandler)],
        kernel_manager=kernels)

    async def run() -> None:
        socket, port = testing.bind_unused_port()
        http = HTTPServer(application)
        http.add_sockets([socket])
        query = f"ws://127.0.0.1:{port}/voila/query/{anas}"
        # Ana opened her app: the server keeps her request for the kernel it gave her
        RequestInfoSocketHandler.send_updates(
            {"kernel_id": anas, "payload": {"QUERY_STRING": "student=Ana"}})
        try:
            for headers in ({}, {KERNEL_PROOF_HEADER: "guess"},
                            # Bruno's kernel's proof, or Ana's kernel id under his key
                            {KERNEL_PROOF_HEADER: kernel_proof(kernels[brunos].session.key,
                                                               brunos)},
                            {KERNEL_PROOF_HEADER: kernel_proof(kernels[brunos].session.key,
                                                               anas)}):
                with pytest.raises(httpclient.HTTPClientError) as refused:
                    await websocket.websocket_connect(httpclient.HTTPRequest(
                        query, headers=headers))
                assert refused.value.code == 403, headers
            # Ana's own kernel, with its own key: told her request
            told = await asyncio.to_thread(wait_for_request, query, anas,
                                           kernels[anas].session.key)
            assert told == {"QUERY_STRING": "student=Ana"}
        finally:
            http.stop()
            RequestInfoSocketHandler._cache.pop(anas, None)

    asyncio.run(run())

# -- the server, end to end (no browser) -----------------------------------------------------


@contextlib.contextmanager
def _classroom_server(tmp_path: Path, *options: str) -> Iterator[int]:
    """The classroom server started as a teacher starts it, with ``options``, on a free
    port of this computer; yields the port once it accepts connections, and stops it."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "musicgames.classroom", "--port", str(port), *options,
         "--class-folder", str(tmp_path / "class")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the classroom server did not start"
                time.sleep(0.25)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.slow
def test_with_a_token_nothing_is_served_without_it(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)

    with _classroom_server(tmp_path, "--token", "la-si-do") as port:

        def status(path: str) -> tuple[int, str]:
            try:
                with opener.open(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as err:
                return err.code, err.headers.get("Location", "")

        code, where = status("/")
        assert code in (302, 303) and "/login" in where
        code, where = status("/voila/render/note-snap.ipynb?student=Ana")
        assert code in (302, 303, 403) and (code == 403 or "/login" in where)
        code, page = status("/?token=la-si-do")
        assert code == 200 and "Note Snap" in page
        assert not list((tmp_path / "class").glob("*.sqlite3"))  # no app ran for anyone


@pytest.mark.slow
def test_the_servers_kernels_listen_on_unix_sockets_not_tcp_ports(tmp_path: Path) -> None:
    """A kernel told to listen on a free TCP port could find it taken by the time it
    started when a whole class opened the apps at once (40 students: the port had become a
    connection's own); the kernel died and Voila left that student's page waiting for ever.
    On Unix sockets there are no ports to race for."""
    import stat
    import urllib.request

    import psutil

    if os.name != "posix":
        pytest.skip("Unix sockets are for POSIX systems; elsewhere kernels keep TCP")
    with _classroom_server(tmp_path) as port:
        page = f"http://127.0.0.1:{port}/voila/render/note-drill.ipynb?student=Ana"
        with urllib.request.urlopen(page, timeout=120) as response:
            assert response.status == 200
            response.read()
        server = next(p for p in psutil.process_iter(["cmdline"])
                      if str(port) in (p.info["cmdline"] or [])
                      and "musicgames.classroom" in (p.info["cmdline"] or []))
        kernels = [p for p in server.children(recursive=True)
                   if "ipykernel_launcher" in " ".join(p.cmdline())]
        assert len(kernels) == 1
        command = kernels[0].cmdline()
        connection = json.loads(Path(command[command.index("-f") + 1]).read_text())
        assert connection["transport"] == "ipc"
        for channel in ("shell", "iopub", "stdin", "control", "hb"):
            assert stat.S_ISSOCK(
                Path(f"{connection['ip']}-{connection[channel + '_port']}").stat().st_mode)


@pytest.mark.slow
def test_behind_a_proxy_an_https_page_gets_its_kernels_cookies_for_https_only(
    tmp_path: Path,
) -> None:
    import urllib.request

    with _classroom_server(tmp_path, "--behind-proxy", "--token", "class-3b") as port:
        # as the reverse proxy asks, for a student who reached it over https
        asked = urllib.request.Request(
            f"http://127.0.0.1:{port}/voila/render/note-drill.ipynb?student=Ana&token=class-3b",
            headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"})
        with urllib.request.urlopen(asked, timeout=120) as response:
            cookies = [c for c in response.headers.get_all("Set-Cookie") or []
                       if c.startswith("musicgames-kernel")]
            response.read()
    assert len(cookies) == 2, cookies
    for cookie in cookies:
        attributes = {p.split("=")[0].strip().lower() for p in cookie.split(";")[1:]}
        assert {"secure", "httponly", "samesite", "path"} <= attributes, cookie
        assert not attributes & {"expires", "max-age"}, cookie


@pytest.mark.parametrize("behind_proxy", [True, False], ids=["behind_proxy", "direct"])
def test_the_server_started_behind_a_proxy_takes_the_visitors_protocol_from_its_headers(
    tmp_path: Path, behind_proxy: bool
) -> None:
    """The real server's ``start`` and ``listen``: a request the proxy forwards with
    ``X-Forwarded-Proto: https`` is an https request behind a proxy the server was told to
    trust (its cookies then go over https only), and stays http otherwise."""
    import socket

    import tornado.web
    from tornado.httpclient import AsyncHTTPClient
    from tornado.ioloop import IOLoop
    from traitlets.config import Config

    from musicgames.classroom.apps import build_app_folder
    from musicgames.classroom.server import ClassroomVoila

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ["--class-folder", str(tmp_path / "class"), "--port", str(port), "--token", "t0ken123"]
    root = tmp_path / "served"
    root.mkdir()
    build_app_folder(root, [])
    config = voila_config(parse_args([*args, *(["--behind-proxy"] if behind_proxy else [])]),
                          root)
    config["Voila"].update(open_browser=False, port_retries=0, ip="127.0.0.1")
    server = ClassroomVoila(config=Config(config))
    server.initialize([])

    class Protocol(tornado.web.RequestHandler):
        def get(self) -> None:
            self.finish(self.request.protocol)

    seen: list[str] = []

    async def ask() -> None:  # once the server listens
        try:
            server.app.add_handlers(".*$", [("/protocol", Protocol)])
            reply = await AsyncHTTPClient().fetch(f"http://127.0.0.1:{port}/protocol",
                                                  headers={"X-Forwarded-Proto": "https"})
            seen.append(reply.body.decode())
        finally:
            IOLoop.current().stop()

    IOLoop.current().add_callback(ask)
    server.start()  # builds the app and listens, until ask() has its answer
    assert seen == (["https"] if behind_proxy else ["http"])
