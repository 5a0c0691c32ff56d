"""The classroom server in Chromium: the start page, two students' Note Snap at once, their
progress files in the class folder, and nothing fetched from beyond this computer.

Every request each page makes is recorded; any that leaves 127.0.0.1 fails the test (Voila's
own template asks a CDN for an icon font: the classroom's template must not).
"""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from musicgames.classroom.apps import APPS
from musicgames.progress import read_answers
from tests.browser.classroom_helpers import Visitor
from tests.browser.conftest import CONNECT_TIMEOUT_S, Server
from tests.browser.snap_helpers import SOMETHING_TO_DO_JS, read_table

pytestmark = pytest.mark.browser

RUN_THE_CELL = re.compile(r"\brun\b[^.\n]*\b(cells?|notebook)\b|shift\s*\+\s*enter", re.I)
PLAY_TIMEOUT_S = 120.0


@dataclass
class Unshown:
    """A lesson page fetched with no browser to show it: its kernel, and when it was sent."""

    kernels: set[int]
    sent_at: float


@pytest.fixture(scope="module")
def unshown_lesson(classroom: tuple[Server, Path]) -> Unshown:
    """A lesson fetched but never shown (no kernel is started ahead for lessons). The
    server frees its kernel only ``CONNECT_TIMEOUT_S`` after sending the page, so the page
    is fetched early in the module (a test asks for it) and the kernel's end is checked by
    :func:`test_a_page_fetched_but_never_shown_does_not_hold_a_kernel`, the module's last
    test: the other tests run meanwhile instead of a test waiting the whole time."""
    import urllib.request

    server, _ = classroom
    before = set(kernels(server))
    with urllib.request.urlopen(f"{server.url}/voila/render/lessons/01-the-staff.ipynb",
                                timeout=120) as response:
        assert response.status == 200
        response.read()
    sent_at = time.monotonic()
    # kernels started ahead for the apps may be starting too: the lesson's own is new and
    # serves a lesson page
    started = {pid for pid in set(kernels(server)) - before if _serves_a_lesson(pid)}
    assert len(started) == 1, "the page was served without a kernel of its own"
    return Unshown(started, sent_at)


def _rows(path: Path) -> list[Any]:
    return read_answers(path) if path.exists() else []


def kernels(server: Server) -> list[int]:
    """The server's kernels (processes) running now."""
    import psutil

    found = []
    for process in psutil.Process(server.process.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if any("ipykernel" in part for part in process.cmdline()):
                found.append(process.pid)
    return found


class SnapPlayer:
    """Plays Note Snap in a page like a person: Enter on their turn, Space on each card."""

    def __init__(self, visitor: Visitor) -> None:
        self.page = visitor.page
        self.root = self.page.locator(".mg-snap")
        self.root.locator(".mg-snap-seat").first.wait_for()
        self.root.locator(".mg-snap-title").click()  # focus the table
        self.handled: list[int] = []
        self.slaps = 0

    def step(self) -> None:
        self.page.wait_for_function(SOMETHING_TO_DO_JS,
                                    arg=[self.root.element_handle(), self.handled],
                                    timeout=30_000, polling="raf")
        table = read_table(self.root)
        if table.phase == "over":
            return
        if table.phase == "flip":
            self.page.keyboard.press("Enter")
            return
        assert table.number is not None
        self.handled.append(table.number)
        self.page.keyboard.press("Space")
        self.slaps += 1


def test_two_students_play_note_snap_at_once_and_each_has_their_own_file(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, folder = classroom
    ana, bruno = Visitor(browser, server), Visitor(browser, server)
    try:
        ana.sign_in("Ana")
        bruno.sign_in("Bruno")
        assert "Ana" in ana.page.locator("#who").inner_text()
        ana.open("Note Snap")
        bruno.open("Note Snap")
        players = [SnapPlayer(ana), SnapPlayer(bruno)]
        for visitor in (ana, bruno):
            body = visitor.page.locator("body").inner_text()
            assert not RUN_THE_CELL.search(body), body
            assert "student=" in visitor.page.url
        deadline = time.monotonic() + PLAY_TIMEOUT_S
        while min(p.slaps for p in players) < 3:
            assert time.monotonic() < deadline, "the games did not deal enough cards"
            for player in players:  # both tables run at once; each is played in turn
                player.step()
        for player in players:  # the kernel's answer to the last slap is drawn
            player.page.wait_for_function(
                "(root) => root.mgSnap.timings.every((t) => t.answer_at !== null)",
                arg=player.root.element_handle(), timeout=15_000)
        for visitor in (ana, bruno):
            assert not visitor.failures, visitor.failures
            assert visitor.foreign_requests() == []
    finally:
        ana.close()
        bruno.close()
    # each page's kernel stops; what is left is the kernels started ahead, one per app
    warm = len(APPS)
    deadline = time.monotonic() + 30
    while len(kernels(server)) > warm and time.monotonic() < deadline:
        time.sleep(0.25)
    assert len(kernels(server)) <= warm, "a student left the app, but its kernel kept running"
    files = sorted(p.name for p in folder.glob("*.sqlite3"))
    assert files == ["ana.sqlite3", "bruno.sqlite3"]
    for file, name in (("ana.sqlite3", "Ana"), ("bruno.sqlite3", "Bruno")):
        rows = read_answers(folder / file)
        assert rows, f"{file} has no rows"
        assert {r.student for r in rows} == {name}
        assert {r.activity for r in rows} == {"note_snap"}


def test_every_app_and_a_lesson_open_as_apps_without_run_instructions(
    browser: Any, classroom: tuple[Server, Path], unshown_lesson: Unshown
) -> None:
    # (``unshown_lesson``: a lesson is fetched and not shown, before this test; its kernel
    # is checked at the end of the module)
    server, folder = classroom
    carla = Visitor(browser, server)
    try:
        carla.sign_in("Carla")
        apps = {"Keyboard Duel": ".mg-duel", "Note drill": ".mg-practice",
                "Chord quiz": ".mg-practice"}
        for title, selector in apps.items():
            carla.page.goto("/")
            carla.open(title)
            carla.page.locator(selector).first.wait_for()
            body = carla.page.locator("body").inner_text()
            assert not RUN_THE_CELL.search(body), f"{title}: {body[:500]}"
            assert "Carla" in body
        carla.page.goto("/")
        lesson = carla.page.locator('a.app[data-app="lesson"]').first
        lesson.click()
        answer = carla.page.locator(".mg-exercise .mg-exercise-option").first
        answer.wait_for()
        answer.scroll_into_view_if_needed()
        answer.click()  # an exercise answered in the lesson app
        carla.page.locator(".mg-exercise .mg-right, .mg-exercise .mg-wrong").first.wait_for()
        # the lesson shows the verdict first, then stores the answer: wait for it on disk
        deadline = time.monotonic() + 15
        while not any(r.activity == "lesson" for r in _rows(folder / "carla.sqlite3")):
            assert time.monotonic() < deadline, "the lesson's answer never reached the file"
            time.sleep(0.2)
        body = carla.page.locator("body").inner_text()
        assert not RUN_THE_CELL.search(body), body[:1000]
        assert "Carla" in body
        carla.page.goto("/voila/tree")  # no file browser: back to the start page
        assert carla.page.locator("#apps").is_visible()
        assert not carla.failures, carla.failures
        assert carla.foreign_requests() == []
    finally:
        carla.close()
    rows = read_answers(folder / "carla.sqlite3")
    assert {(r.student, r.activity) for r in rows} == {("Carla", "lesson")}


# -- lessons: each page records for its own student, and says so once ----------------------

LESSON_LINK = 'a.app[data-app="lesson"]'


def _chosen(page: Any) -> list[str]:
    """The lesson settings' chosen buttons (note names, size), as the page shows them."""
    page.locator(".mg-lesson-settings").wait_for()
    return [t.strip() for t in
            page.locator(".mg-lesson-settings button.mod-active").all_inner_texts()]


def _answer_an_exercise(page: Any) -> None:
    answer = page.locator(".mg-exercise .mg-exercise-option").first
    answer.wait_for()
    answer.scroll_into_view_if_needed()
    answer.click()
    page.locator(".mg-exercise .mg-right, .mg-exercise .mg-wrong").first.wait_for()


def _wait_for_lesson_rows(path: Path) -> list[Any]:
    deadline = time.monotonic() + 15
    while not [r for r in _rows(path) if r.activity == "lesson"]:
        assert time.monotonic() < deadline, f"the lesson's answer never reached {path.name}"
        time.sleep(0.2)
    return _rows(path)


def test_two_students_lessons_keep_their_own_settings_and_their_own_files(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, folder = classroom
    dora, eli = Visitor(browser, server), Visitor(browser, server)
    try:
        dora.sign_in("Dora")
        eli.sign_in("Eli")
        dora.page.locator(LESSON_LINK).first.click()
        assert _chosen(dora.page) == ["Do Re Mi", "Big"]
        dora.page.locator(".mg-lesson-settings button", has_text="Bigger").click()
        dora.page.locator(".mg-lesson-settings button", has_text="C D E").click()
        # the kernel keeps the settings, then draws the lesson again: in C D E
        dora.page.wait_for_function("() => document.body.innerHTML.includes('>G4<')")
        eli.page.locator(LESSON_LINK).first.click()
        assert _chosen(eli.page) == ["Do Re Mi", "Big"]  # Eli's lesson: not Dora's choices
        eli.page.locator("a.mg-lesson-language[lang=es]").click()  # "Español"
        eli.page.wait_for_url(re.compile(r"/lessons/es/"))
        assert "student=Eli" in eli.page.url
        assert _chosen(eli.page) == ["Do Re Mi", "Grande"]
        body = eli.page.locator("body").inner_text()
        assert body.count("Tus respuestas se guardan para Eli") == 1, body[:800]
        assert "Dora" not in body and "no se registra" not in body
        _answer_an_exercise(eli.page)
        rows = _wait_for_lesson_rows(folder / "eli.sqlite3")
        assert {r.student for r in rows} == {"Eli"}
        assert _rows(folder / "dora.sqlite3") == []  # Dora answered nothing: nothing is hers
    finally:
        dora.close()
        eli.close()


def test_a_lesson_without_a_student_records_nothing_and_says_so_once(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, folder = classroom
    before = {p.name: len(_rows(p)) for p in folder.glob("*.sqlite3")}
    nobody, fede = Visitor(browser, server), Visitor(browser, server)
    try:
        nobody.page.goto("/voila/render/lessons/01-the-staff.ipynb")  # typed by hand
        _chosen(nobody.page)
        body = nobody.page.locator("body").inner_text()
        assert body.count("nothing you do here is recorded") == 1, body[:800]
        assert "kept for" not in body and "Write your name" not in body
        _answer_an_exercise(nobody.page)
        time.sleep(2)  # had the answer gone to a file, it would be there by now
        assert {p.name: len(_rows(p)) for p in folder.glob("*.sqlite3")} == before
        # the start page's naming choice reaches the lesson
        fede.sign_in("Fede")
        fede.page.locator('input[name="naming"][value="letters"]').check()
        fede.page.locator(LESSON_LINK).first.click()
        assert _chosen(fede.page) == ["C D E", "Big"]
        assert "naming=letters" in fede.page.url
    finally:
        nobody.close()
        fede.close()


#: From a page: where each of its links to the server's apps leads, once the page has seen
#: it pointed at (as a person does before following or copying it).
APP_LINKS_JS = """() => [...document.querySelectorAll("a[href]")].map((a) => {
  a.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
  return a.href;
}).filter((href) => href.includes("/voila/render/"))"""


def test_the_lessons_own_link_to_the_other_language_keeps_the_student_and_naming(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    from playwright.sync_api import expect

    server, folder = classroom
    iris, nobody = Visitor(browser, server), Visitor(browser, server)
    try:
        iris.sign_in("Iris")
        iris.page.locator(LESSON_LINK).first.click()
        assert _chosen(iris.page) == ["Do Re Mi", "Big"]
        iris.page.locator(".mg-lesson-settings button", has_text="C D E").click()
        iris.page.wait_for_function("() => document.body.innerHTML.includes('>G4<')")
        # the "Español" link in the lesson's text (not the one in the settings box)
        in_text = iris.page.locator(".jp-RenderedMarkdown a", has_text="Español")
        assert in_text.count() == 1
        in_text.click()
        iris.page.wait_for_url(re.compile(r"/lessons/es/"))
        assert "student=Iris" in iris.page.url and "naming=letters" in iris.page.url
        assert _chosen(iris.page) == ["C D E", "Grande"]
        body = iris.page.locator("body").inner_text()
        assert body.count("Tus respuestas se guardan para Iris") == 1, body[:800]
        assert "no se registra" not in body and "nothing you do" not in body
        # every link of this page to an app of the server keeps Iris
        links = iris.page.evaluate(APP_LINKS_JS)
        assert links and all("student=Iris" in href for href in links), links
        _answer_an_exercise(iris.page)
        rows = _wait_for_lesson_rows(folder / "iris.sqlite3")
        assert {r.student for r in rows} == {"Iris"}
        # and back, by the Spanish lesson's own "English" link
        iris.page.locator(".jp-RenderedMarkdown a", has_text="English").click()
        iris.page.wait_for_url(re.compile(r"/lessons/01-"))
        assert "student=Iris" in iris.page.url
        expect(iris.page.locator(".musicgames-app-student")).to_contain_text(
            "Your answers are kept for Iris")
        # a Spanish lesson opened without a student says so once, in Spanish; its links
        # stay without a student
        nobody.page.goto("/voila/render/lessons/es/01-el-pentagrama.ipynb")
        _chosen(nobody.page)
        body = nobody.page.locator("body").inner_text()
        assert body.count("aquí no se registra nada") == 1, body[:800]
        assert "nothing you do here is recorded" not in body
        links = nobody.page.evaluate(APP_LINKS_JS)
        assert links and not any("student=" in href for href in links), links
    finally:
        iris.close()
        nobody.close()


#: Adds links to ``hrefs`` to the page, points at each, and gives back where each leads.
ELSEWHERE_JS = """(hrefs) => hrefs.map((href) => {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = href;
  document.querySelector(".musicgames-app").append(a);
  a.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
  a.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
  return a.href;
})"""


def test_a_game_or_practice_page_keeps_the_student_in_its_links(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, _ = classroom
    jon = Visitor(browser, server)
    try:
        jon.sign_in("Jon")
        for title, selector in {"Note Snap": ".mg-snap", "Keyboard Duel": ".mg-duel",
                                "Note drill": ".mg-practice", "Chord quiz": ".mg-practice"
                                }.items():
            jon.page.goto("/")
            jon.open(title)
            jon.page.locator(selector).first.wait_for()
            # the way back to the start page, and no link to an app that drops the student
            assert jon.page.locator(".musicgames-app-student a").count() == 1
            assert jon.page.evaluate(APP_LINKS_JS) == [], title
            # a link the app shows to another app (as a lesson's text does) keeps Jon
            jon.page.evaluate("""() => {
              const a = document.createElement("a");
              a.href = "chord-quiz.ipynb";
              a.textContent = "another app";
              document.querySelector(".musicgames-app").append(a);
            }""")
            [link] = jon.page.evaluate(APP_LINKS_JS)
            assert "student=Jon" in link and "naming=solfege" in link, (title, link)
            assert "language=en" in link, (title, link)
            # links that only look like the server's apps, or go elsewhere, are left alone
            elsewhere = ["https://other.example/voila/render/x.ipynb",
                         "//other.example/voila/render/x.ipynb", "/other/voila/render/x.ipynb",
                         "/files/x"]
            hrefs = jon.page.evaluate(ELSEWHERE_JS, elsewhere)
            assert not [href for href in hrefs if "student=" in href], (title, hrefs)
    finally:
        jon.close()


# -- kernels: each page reaches its own, none is held by a page never shown, a lost one is said


KERNEL_ID_JS = ("() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
                ".kernelId")
#: From a page: what the server answers to each way of reaching kernel ``id`` (its REST
#: route, Voila's shutdown, its websocket), sent with this page's cookies.
REACH_JS = """async (id) => {
  const xsrf = decodeURIComponent((document.cookie.match(/_xsrf=([^;]+)/) || ["", ""])[1]);
  const headers = { "X-XSRFToken": xsrf };
  const get = (await fetch(`/api/kernels/${id}`)).status;
  const socket = await new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/api/kernels/${id}/channels`);
    ws.onopen = () => { ws.close(); resolve("open"); };
    ws.onerror = () => resolve("refused");
  });
  const shutdown = (await fetch(`/voila/api/shutdown/${id}`, { method: "POST", headers })).status;
  const remove = (await fetch(`/api/kernels/${id}`, { method: "DELETE", headers })).status;
  return { get, socket, shutdown, remove };
}"""
OWN_KERNEL_JS = "async (id) => (await fetch(`/api/kernels/${id}`)).status"


def test_a_page_reaches_its_own_kernel_and_no_other(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    server, _ = classroom
    ana, bruno = Visitor(browser, server), Visitor(browser, server)
    try:
        for visitor, name in ((ana, "Ana"), (bruno, "Bruno")):
            visitor.sign_in(name)
            visitor.open("Note drill")
            visitor.page.locator(".mg-practice").first.wait_for()
        anas = ana.page.evaluate(KERNEL_ID_JS)
        brunos = bruno.page.evaluate(KERNEL_ID_JS)
        assert anas != brunos
        # Bruno has learned the id of Ana's kernel: he can neither watch, drive nor stop it
        tried = bruno.page.evaluate(REACH_JS, anas)
        assert tried == {"get": 403, "socket": "refused", "shutdown": 403, "remove": 403}
        assert bruno.page.evaluate(OWN_KERNEL_JS, brunos) == 200
        assert ana.page.evaluate(OWN_KERNEL_JS, anas) == 200  # Ana's kernel still runs
        option = ana.page.locator(".mg-practice button").filter(has_text=re.compile(r"\S"))
        option.first.wait_for()
        assert ana.page.locator(".musicgames-kernel-lost").count() == 0
    finally:
        ana.close()
        bruno.close()


def _serves_a_lesson(pid: int) -> bool:
    """The kernel ``pid`` serves a lesson's page (its environment names the page)."""
    import psutil

    with contextlib.suppress(psutil.Error):
        return "/lessons/" in psutil.Process(pid).environ().get("SCRIPT_NAME", "")
    return False


def _lesson_kernel_of(server: Server, student: str) -> int:
    """The process of the kernel of the lesson page whose address names ``student``."""
    import psutil

    for pid in kernels(server):
        with contextlib.suppress(psutil.Error):
            env = psutil.Process(pid).environ()
            if ("/lessons/" in env.get("SCRIPT_NAME", "")
                    and f"student={student}" in env.get("QUERY_STRING", "")):
                return pid
    raise AssertionError(f"no lesson's kernel serves {student}")


def test_a_page_whose_kernel_stops_says_so_and_reloads(
    browser: Any, classroom: tuple[Server, Path]
) -> None:
    import os
    import signal

    from playwright.sync_api import expect

    server, _ = classroom
    hana = Visitor(browser, server)
    try:
        hana.sign_in("Hana")
        hana.open("Chord quiz")
        hana.page.locator(".mg-practice").first.wait_for()
        lost = hana.page.locator(".musicgames-kernel-lost")
        assert lost.count() == 0
        # the kernel is stopped (as the server does to a page gone quiet)
        stopped = hana.page.evaluate("""async (id) => {
          const xsrf = decodeURIComponent(document.cookie.match(/_xsrf=([^;]+)/)[1]);
          return (await fetch(`/api/kernels/${id}`,
                              { method: "DELETE", headers: { "X-XSRFToken": xsrf } })).status;
        }""", hana.page.evaluate(KERNEL_ID_JS))
        assert stopped == 204
        expect(lost).to_be_visible(timeout=15_000)
        expect(lost).to_contain_text("This app has stopped")
        expect(lost.get_by_role("button", name="Reload")).to_be_focused()
        lost.get_by_role("button", name="Reload").click()
        hana.page.locator(".mg-practice").first.wait_for()
        assert lost.count() == 0
        # a lesson in Spanish whose kernel crashes (the server restarts it, empty): said too
        hana.page.goto("/?language=es")
        hana.page.locator(LESSON_LINK).first.click()
        _chosen(hana.page)
        os.kill(_lesson_kernel_of(server, "Hana"), signal.SIGKILL)
        expect(lost).to_be_visible(timeout=30_000)
        expect(lost).to_contain_text("Esta aplicación se detuvo")
        expect(lost.get_by_role("button", name="Volver a cargar")).to_be_visible()
    finally:
        hana.close()


# Last in the module: the lesson of ``unshown_lesson`` was fetched by an earlier test.
def test_a_page_fetched_but_never_shown_does_not_hold_a_kernel(
    classroom: tuple[Server, Path], unshown_lesson: Unshown
) -> None:
    server, _ = classroom
    deadline = unshown_lesson.sent_at + CONNECT_TIMEOUT_S + 30
    while unshown_lesson.kernels & set(kernels(server)):
        assert time.monotonic() < deadline, "a page nobody opened still holds its kernel"
        time.sleep(0.5)
