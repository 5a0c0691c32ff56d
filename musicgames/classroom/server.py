"""The classroom server: Voila, with a start page, and nothing fetched from the internet.

:class:`ClassroomVoila` is Voila serving the app folder that :mod:`.apps` writes, with two
changes: ``/`` is the class's start page (the name is asked once, then the games, practice
and lessons are listed), and Voila's file browser (``/voila/tree``) sends people back there.
Its pages use the ``musicgames`` Voila template (Voila's lab template without the icon font
it would fetch from a CDN). Kernels accept only widget messages from the page (Voila's own
rule), so a student cannot run code; anyone who has the token or password can play.

Each app page reaches its own kernel and no other. When a page is served, its kernel is
given a secret, sent to that browser only, in cookies that go to that kernel's routes alone
(:data:`KERNEL_COOKIE` to ``/api/kernels/<id>`` and its websocket, :data:`SHUTDOWN_COOKIE` to
Voila's shutdown, :data:`EXECUTION_COOKIE` to Voila's progressive rendering when it is on);
those routes refuse every request without it (403), so a student who
learns another page's kernel id can neither watch, drive nor stop that kernel; a kernel
started ahead (``--warm``) is told its page's request only when it proves it is that kernel
(:class:`KernelQueryHandler`). A page whose
browser never connects to its kernel (a page fetched but not shown, a tab closed while
loading) has its kernel stopped after :attr:`ClassroomVoila.connect_timeout` seconds instead
of holding it for half an hour. When a page's kernel stops or restarts, the page says so
with a Reload button (``musicgames/page.js``, served by :class:`PageScriptHandler`).
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import os
import secrets
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import jinja2
from jupyter_core.utils import ensure_async
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Bool, Float
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.execution_request_handler import ExecutionRequestHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from musicgames.classroom.access import KERNEL_PROOF_HEADER, is_loopback, kernel_proof
from musicgames.classroom.apps import APPS, Lesson
from musicgames.classroom.replies import read_lost_replies
from musicgames.i18n import LANGUAGES, text

__all__ = [
    "EXECUTION_COOKIE",
    "KERNEL_COOKIE",
    "SHUTDOWN_COOKIE",
    "SHARE",
    "AppPageHandler",
    "ClassroomVoila",
    "PageKernels",
    "PageScriptHandler",
    "StartPageHandler",
    "start_page",
]

#: The cookie that lets a page reach its kernel (sent to ``/api/kernels/<its id>`` only).
KERNEL_COOKIE = "musicgames-kernel"
#: The cookie that lets a page stop its kernel (sent to ``/voila/api/shutdown/<its id>`` only).
SHUTDOWN_COOKIE = "musicgames-kernel-shutdown"
#: With Voila's progressive rendering: the cookie that lets a page have its notebook run and
#: receive its cells (sent to ``/voila/execution/<its id>`` only).
EXECUTION_COOKIE = "musicgames-kernel-execution"
_PAGE_KERNELS = "musicgames_page_kernels"
_CONNECT_TIMEOUT = "musicgames_connect_timeout"

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
        page = start_page(self.get_argument("language", "en"), self.lessons)
        self.set_header("Cache-Control", "no-store")
        self.finish(page)


def start_page(language: str, lessons: Sequence[Lesson] = ()) -> str:
    """The start page in ``language`` (English for a language the pages do not speak), with
    the lessons served in that language (the English ones when it has none), and a link to
    the page in every other language."""
    if language not in LANGUAGES:
        language = "en"

    def t(key: str, **values: object) -> str:
        return text(key, language, **values)

    return _PAGES.get_template("start.html.j2").render(
        t=t,
        language=language,
        languages=[(code, text("language.name", code)) for code in LANGUAGES],
        apps=APPS,
        lessons=[lesson for lesson in lessons if lesson.language == language]
        or [lesson for lesson in lessons if lesson.language == "en"],
    )


class PageKernels:
    """The kernels the server gave to app pages: each one's secret, and whether its page
    has connected to it."""

    def __init__(self) -> None:
        self._secrets: dict[str, str] = {}
        self._connected: set[str] = set()

    def give(self, kernel_id: str) -> str:
        """A new secret for the page given ``kernel_id``."""
        secret = secrets.token_urlsafe(24)
        self._secrets[kernel_id] = secret
        return secret

    def belongs(self, kernel_id: str, secret: str | None) -> bool:
        """Whether ``secret`` is the one given with ``kernel_id``."""
        given = self._secrets.get(kernel_id)
        return given is not None and secret is not None and hmac.compare_digest(
            given.encode(), secret.encode())

    def connected(self, kernel_id: str) -> None:
        self._connected.add(kernel_id)

    def has_connected(self, kernel_id: str) -> bool:
        return kernel_id in self._connected

    def forget(self, kernel_id: str) -> None:
        self._secrets.pop(kernel_id, None)
        self._connected.discard(kernel_id)

    def keep_only(self, running: Collection[str]) -> None:
        """Forget the kernels that are no longer ``running`` (stopped as idle, say)."""
        for kernel_id in [k for k in self._secrets if k not in running]:
            self.forget(kernel_id)


def _page_kernels(handler: web.RequestHandler) -> PageKernels:
    kernels = handler.settings.get(_PAGE_KERNELS)
    if not isinstance(kernels, PageKernels):
        raise web.HTTPError(403)
    return kernels


def _check_page(handler: web.RequestHandler, kernel_id: str,
                cookie: str = KERNEL_COOKIE) -> PageKernels:
    """Refuse (403) a request for ``kernel_id`` that does not come from its page."""
    kernels = _page_kernels(handler)
    if not kernels.belongs(kernel_id, handler.get_cookie(cookie)):
        raise web.HTTPError(403, "this page was not given that kernel")
    return kernels


class PageKernelHandler(KernelHandler):
    """``/api/kernels/<id>``: for the page that was given the kernel only."""

    async def get(self, kernel_id: str) -> None:
        _check_page(self, kernel_id)
        await ensure_async(super().get(kernel_id))

    async def delete(self, kernel_id: str) -> None:
        _check_page(self, kernel_id).forget(kernel_id)
        await ensure_async(super().delete(kernel_id))


class PageKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """The kernel's websocket: for the page that was given the kernel only."""

    async def get(self, kernel_id: str) -> None:
        _check_page(self, kernel_id).connected(kernel_id)
        await ensure_async(super().get(kernel_id))


class PageShutdownHandler(VoilaShutdownKernelHandler):
    """Voila's "the page is closing: stop its kernel", for that page only."""

    async def post(self, kernel_id: str) -> None:
        _check_page(self, kernel_id, SHUTDOWN_COOKIE).forget(kernel_id)
        await super().post(kernel_id)


class PageExecutionHandler(ExecutionRequestHandler):
    """With Voila's progressive rendering: where a page has its notebook run and receives
    its cells, for the page that was given the kernel only."""

    async def get(self, *args: Any, **kwargs: Any) -> None:
        kernel_id = str(kwargs.get("kernel_id") or (args[0] if args else ""))
        _check_page(self, kernel_id, EXECUTION_COOKIE)
        await ensure_async(super().get(*args, **kwargs))


class KernelQueryHandler(RequestInfoSocketHandler):
    """Where a kernel started ahead (``--warm``) waits for its page's request (the student's
    name is in its address): for that kernel alone, never for a visitor.

    The kernel proves who it is with :func:`musicgames.classroom.access.kernel_proof` under its
    connection key, which the server gave it when starting it; a request without the proof
    is refused (403), also from this computer (behind a reverse proxy on this computer every
    visitor comes from it).
    """

    async def get(self, *args: Any, **kwargs: Any) -> None:
        kernel_id = str(kwargs.get("kernel_id") or (args[0] if args else ""))
        manager = self.settings.get("kernel_manager")
        key: bytes = b""
        if manager is not None and kernel_id in manager:
            key = manager.get_kernel(kernel_id).session.key or b""
        shown = self.request.headers.get(KERNEL_PROOF_HEADER, "")
        if not (is_loopback(self.request.remote_ip or "") and key and hmac.compare_digest(
                kernel_proof(key, kernel_id).encode(), shown.encode())):
            raise web.HTTPError(403)
        await super().get(*args, **kwargs)


class _KernelRecorder:
    """The server's kernel manager as one page's request sees it: notes which kernel the
    page is given (started for it, or one started ahead)."""

    def __init__(self, manager: Any) -> None:
        self._manager = manager
        self.kernel_id: str | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._manager, name)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        self.kernel_id = str(await ensure_async(self._manager.start_kernel(*args, **kwargs)))
        return self.kernel_id

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        render_task, rendered_cache, kernel_id = await self._manager.get_rendered_notebook(
            *args, **kwargs)
        self.kernel_id = str(kernel_id)
        return render_task, rendered_cache, kernel_id


_WAITING: set[asyncio.Task[None]] = set()


async def _stop_unless_connected(manager: Any, kernels: PageKernels, kernel_id: str,
                                 after: float) -> None:
    await asyncio.sleep(after)
    if kernels.has_connected(kernel_id) or kernel_id not in manager:
        return
    kernels.forget(kernel_id)
    await ensure_async(manager.shutdown_kernel(kernel_id))


class PageScriptHandler(JupyterHandler):
    """``musicgames/page.js``: what every app page runs first — when its kernel stops or
    restarts, the page says so (in the page's language) and offers to reload; its links to
    the server's other apps keep the page's student and note naming."""

    def get(self) -> None:
        said = {code: {"stopped": text("classroom.kernel_stopped", code),
                       "reload": text("classroom.reload", code)} for code in LANGUAGES}
        root = self.settings.get("server_url") or self.base_url
        script = _PAGES.get_template("page.js.j2").render(said=said, root=root)
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(script)


class _BackToStart(JupyterHandler):
    def get(self, *args: Any) -> None:
        self.redirect(url_path_join(self.settings.get("server_url", "/"), "/"))


class AppPageHandler(TornadoVoilaHandler):
    """Voila's app page, which also sets the ``_xsrf`` cookie and its kernel's secret.

    When a student leaves an app, the page asks the server to shut its kernel down, sending
    the ``_xsrf`` cookie's value with the request; Voila never sets that cookie, so the
    request was refused and every app a student left kept its kernel (and its memory).

    The kernel Voila gives the page (started for it, or one started ahead) gets a secret,
    sent in the page's headers (:class:`PageKernels`); if the page's browser has not
    connected to the kernel ``connect_timeout`` seconds after the page was sent, the kernel
    is stopped.
    """

    _recorder: _KernelRecorder | None = None

    @property
    def kernel_manager(self) -> Any:
        if self._recorder is None:
            self._recorder = _KernelRecorder(self.settings["kernel_manager"])
        return self._recorder

    @web.authenticated
    async def get(self, path: str | None = None) -> None:
        self.xsrf_token  # noqa: B018 -- reading it sets the cookie
        recorder = self.kernel_manager
        given: str | None = None
        try:
            async for html in self.get_generator(path=path):
                if given is None and recorder.kernel_id is not None:
                    given = recorder.kernel_id
                    self._give(given)  # before the page's first byte: in its headers
                self.write(html)
                self.flush()
        finally:
            if given is not None:
                self._stop_unless_connected(given)

    def _give(self, kernel_id: str) -> None:
        """The secret of ``kernel_id``, in cookies its routes alone receive.

        Session cookies (no expiry): the browser drops them when it closes, rather than
        keeping the secret on the disk of a computer the class shares. Over https (behind a
        proxy the server was told to trust), they are sent over https only.
        """
        kernels = _page_kernels(self)
        kernels.keep_only(set(self.settings["kernel_manager"].list_kernel_ids()))
        secret = kernels.give(kernel_id)
        root = self.settings.get("server_url") or self.base_url
        secure = self.request.protocol == "https"
        routes = [(KERNEL_COOKIE, "api/kernels"), (SHUTDOWN_COOKIE, "voila/api/shutdown")]
        if self.voila_configuration.progressive_rendering:
            routes.append((EXECUTION_COOKIE, "voila/execution"))
        for name, route in routes:
            self.set_cookie(name, secret, path=url_path_join(root, route, kernel_id),
                            httponly=True, samesite="Strict", secure=secure)

    def _stop_unless_connected(self, kernel_id: str) -> None:
        after = float(self.settings.get(_CONNECT_TIMEOUT, 60.0))
        task = asyncio.ensure_future(_stop_unless_connected(
            self.settings["kernel_manager"], _page_kernels(self), kernel_id, after))
        _WAITING.add(task)
        task.add_done_callback(_WAITING.discard)


class ClassroomVoila(Voila):
    """Voila with the class's start page at ``/``, no file browser, and app pages whose
    kernels stop when the student leaves."""

    lessons: list[Lesson] = []
    connect_timeout = Float(
        60.0, config=True,
        help="stop an app's kernel when its page has not connected to it within this many "
             "seconds after it was served",
    )
    trust_xheaders = Bool(
        False, config=True,
        help="the server sits behind a reverse proxy (one that serves https, say): trust the "
             "X-Forwarded-Proto and X-Forwarded-For headers it sends, so that a page reached "
             "over https gets cookies sent over https only",
    )

    def init_settings(self) -> dict[str, Any]:
        read_lost_replies()  # a page never waits for ever on a reply already come
        settings = dict(super().init_settings())
        settings[_PAGE_KERNELS] = PageKernels()
        settings[_CONNECT_TIMEOUT] = self.connect_timeout
        return settings

    def listen(self) -> None:
        if self.trust_xheaders:
            # Voila starts its HTTP server without tornado's ``xheaders``; the request's
            # protocol is then always the proxy's (http), never the visitor's
            self.app.listen = functools.partial(self.app.listen, xheaders=True)
        super().listen()

    def init_handlers(self) -> list[Any]:
        page_only = {
            TornadoVoilaHandler: AppPageHandler,
            KernelHandler: PageKernelHandler,
            VoilaKernelWebsocketHandler: PageKernelWebsocketHandler,
            VoilaShutdownKernelHandler: PageShutdownHandler,
            RequestInfoSocketHandler: KernelQueryHandler,
            ExecutionRequestHandler: PageExecutionHandler,
        }
        theirs = [
            (rule[0], page_only.get(rule[1], rule[1]), *rule[2:])
            for rule in super().init_handlers()
        ]
        ours = [
            (url_path_join(self.server_url, r"/?"), StartPageHandler, {"lessons": self.lessons}),
            (url_path_join(self.server_url, r"/musicgames/page\.js"), PageScriptHandler),
            (url_path_join(self.server_url, r"/voila/tree(.*)"), _BackToStart),
            (url_path_join(self.server_url, r"/voila/api/contents(.*)"), _BackToStart),
        ]
        return ours + theirs


def share_on_jupyter_path() -> None:
    """Put :data:`SHARE` first on ``JUPYTER_PATH`` (where Voila looks for templates)."""
    current = os.environ.get("JUPYTER_PATH", "")
    parts = [p for p in current.split(os.pathsep) if p and p != str(SHARE)]
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(SHARE), *parts])
