"""The classroom server: Voila, with a start page, and nothing fetched from the internet.

:class:`ClassroomVoila` is Voila serving the app folder that :mod:`.apps` writes, with two
changes: ``/`` is the class's start page (the name is asked once, then the games, practice
and lessons are listed), and Voila's file browser (``/voila/tree``) sends people back there.
Its pages use the ``musicgames`` Voila template (Voila's lab template without the icon font
it would fetch from a CDN). Kernels accept only widget messages from the page (Voila's own
rule), so a student cannot run code; anyone who has the token or password can play.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from musicgames.classroom.apps import APPS, Lesson
from musicgames.i18n import LANGUAGES, text

__all__ = ["SHARE", "AppPageHandler", "ClassroomVoila", "StartPageHandler"]

#: Holds ``voila/templates/musicgames``: put on ``JUPYTER_PATH`` so Voila finds the template.
SHARE = Path(__file__).parent / "share"
_PAGES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(Path(__file__).parent)),
    autoescape=True,
    keep_trailing_newline=True,
)


class StartPageHandler(JupyterHandler):
    """The start page: the student's name, then the apps and lessons (``?language=es``)."""

    def initialize(self, lessons: Sequence[Lesson] = ()) -> None:
        self.lessons = list(lessons)

    @web.authenticated
    def get(self) -> None:
        language = self.get_argument("language", "en")
        if language not in LANGUAGES:
            language = "en"

        def t(key: str, **values: object) -> str:
            return text(key, language, **values)

        page = _PAGES.get_template("start.html.j2").render(
            t=t,
            language=language,
            languages=[(code, text("language.name", code)) for code in LANGUAGES],
            apps=APPS,
            lessons=[lesson for lesson in self.lessons if lesson.language == language]
            or [lesson for lesson in self.lessons if lesson.language == "en"],
        )
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


class _BackToStart(JupyterHandler):
    def get(self, *args: Any) -> None:
        self.redirect(url_path_join(self.settings.get("server_url", "/"), "/"))


class AppPageHandler(TornadoVoilaHandler):
    """Voila's app page, which also sets the ``_xsrf`` cookie.

    When a student leaves an app, the page asks the server to shut its kernel down, sending
    the ``_xsrf`` cookie's value with the request; Voila never sets that cookie, so the
    request was refused and every app a student left kept its kernel (and its memory).
    """

    async def get(self, path: str | None = None) -> Any:
        self.xsrf_token  # noqa: B018 -- reading it sets the cookie
        return await super().get(path)


class ClassroomVoila(Voila):
    """Voila with the class's start page at ``/``, no file browser, and app pages whose
    kernels stop when the student leaves."""

    lessons: list[Lesson] = []

    def init_handlers(self) -> list[Any]:
        theirs = [
            (rule[0], AppPageHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
            for rule in super().init_handlers()
        ]
        ours = [
            (url_path_join(self.server_url, r"/?"), StartPageHandler, {"lessons": self.lessons}),
            (url_path_join(self.server_url, r"/voila/tree(.*)"), _BackToStart),
            (url_path_join(self.server_url, r"/voila/api/contents(.*)"), _BackToStart),
        ]
        return ours + theirs


def share_on_jupyter_path() -> None:
    """Put :data:`SHARE` first on ``JUPYTER_PATH`` (where Voila looks for templates)."""
    current = os.environ.get("JUPYTER_PATH", "")
    parts = [p for p in current.split(os.pathsep) if p and p != str(SHARE)]
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(SHARE), *parts])
