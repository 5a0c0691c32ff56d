"""A student of the classroom server without a browser: the page's protocol, spoken by hand.

:class:`ProtocolStudent` does what a student's browser does with the Note Snap app, and no
more: it opens the app's page for its student (``/voila/render/note-snap.ipynb?student=…``,
keeping the cookies the server sets: ``_xsrf`` and the secret of the page's kernel), reads
the kernel id from the page's configuration, fetches the page's scripts and style sheets,
asks for its kernel (``/api/kernels/<id>``, as Voila's page does), connects the kernel's
websocket (Jupyter's ``v1.kernel.websocket.jupyter.org`` protocol, as JupyterLab's client
does), asks the kernel's widgets for their state (the ``jupyter.widget.control`` comm's
``request_states``, as the ipywidgets manager of the page does) — the moment the table could
be drawn — and then sends the widget's own messages (``ready``, ``shown``, ``flip``,
``slap``, ``pass``, ``new_game``, the ``custom`` comm messages of ``note_snap.js``) with a
player's timing, reading the ``table`` the kernel sends back. Like the page, it asks every
10 s whether its kernel is still there, and when it leaves it tells the server to stop its
kernel (Voila's shutdown request with the ``_xsrf`` value).

Each flip, slap and "no match" is timed from the moment it is sent to the moment the
kernel's table carrying its answer arrives (the page's ``noteAnswers`` reads the same
table): what the server and the kernel add to a key press, without the browser's drawing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html import unescape
from typing import Any
from urllib.parse import urljoin, urlsplit

import aiohttp

#: Jupyter's websocket protocol for kernels (binary frames: offsets, channel, parts).
WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: How often the page asks whether its kernel is still there (``page.js``'s CHECK_EVERY_MS).
CHECK_EVERY_S = 10.0
#: What a page waits for its widgets' state before it gives up (ipywidgets waits 4 s, then
#: asks each comm on its own; here it is an error: the kernel did not answer).
STATE_TIMEOUT_S = 60.0
#: The calls a person chooses in "call for yourself" mode (``note_snap.js``'s CYCLE).
CYCLE = ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")

_CONFIG = re.compile(
    r'<script[^>]*id="jupyter-config-data"[^>]*>(.*?)</script>', re.S | re.I)
_SCRIPT = re.compile(r'<script[^>]*\bsrc="([^"]+)"', re.I)
_STYLE = re.compile(r'<link[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"', re.I)


def to_ws(channel: str, parts: list[bytes]) -> bytes:
    """A message as a binary websocket frame of the v1 protocol.

    >>> frame = to_ws("shell", [b"{}", b"{}", b"{}", b'{"a": 1}'])
    >>> from_ws(frame)
    ('shell', [b'{}', b'{}', b'{}', b'{"a": 1}'])
    """
    name = channel.encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(name))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(
        o.to_bytes(8, "little") for o in offsets)
    return head + name + b"".join(parts)


def from_ws(frame: bytes) -> tuple[str, list[bytes]]:
    """The channel and the parts (header, parent, metadata, content, buffers…) of a frame."""
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    channel = frame[offsets[0]:offsets[1]].decode()
    return channel, [frame[offsets[i]:offsets[i + 1]] for i in range(1, count - 1)]


def kernel_id_of(page: str) -> str:
    """The kernel id in a Voila page's configuration (``jupyter-config-data``)."""
    found = _CONFIG.search(page)
    if not found:
        raise StudentError("the page has no kernel (no jupyter-config-data)")
    kernel = json.loads(unescape(found.group(1))).get("kernelId")
    if not isinstance(kernel, str) or not kernel:
        raise StudentError("the page's configuration names no kernel")
    return kernel


def assets_of(page: str, url: str) -> list[str]:
    """The scripts and style sheets a page loads from its own server."""
    here = urlsplit(url)
    found = []
    for link in [*_SCRIPT.findall(page), *_STYLE.findall(page)]:
        absolute = urljoin(url, unescape(link))
        parts = urlsplit(absolute)
        if (parts.scheme, parts.netloc) == (here.scheme, here.netloc) and absolute not in found:
            found.append(absolute)
    return found


class StudentError(RuntimeError):
    """The server or the kernel did not do what a page needs."""


@dataclass
class Waiting:
    """A message sent whose answer has not come yet."""

    kind: str
    sent_at: float
    game: int
    number: int | None = None
    flips: int | None = None


@dataclass
class StudentFigures:
    """One student's figures."""

    name: str
    page_s: float | None = None  # the page's HTML received (kernel started, notebook run)
    table_s: float | None = None  # the widgets' state received: the table can be drawn
    asset_bytes: int = 0
    answers: list[tuple[str, float]] = field(default_factory=list)  # (kind, ms)
    unanswered: list[str] = field(default_factory=list)
    cards: int = 0
    games: int = 0
    notices: list[str] = field(default_factory=list)  # what the table said went wrong
    error: str | None = None


class ProtocolStudent:
    """One student playing Note Snap through the server's protocol (see the module)."""

    def __init__(self, base_url: str, name: str, *, seed: int, call_mode: str = "auto",
                 app: str = "note-snap.ipynb", assets: bool = True,
                 http: aiohttp.ClientSession | None = None) -> None:
        self.base = base_url if base_url.endswith("/") else base_url + "/"
        self.name = name
        self.rng = random.Random(seed)
        self.call_mode = call_mode
        self.app = app
        self.fetch_assets = assets
        self.figures = StudentFigures(name)
        self.stage = "not opened"  # where the student is: said when a step hangs
        self._http = http
        self._own_http = http is None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._session = uuid.uuid4().hex
        self._kernel = ""
        self._widget = ""  # the Note Snap model's comm id
        self._control = ""
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._states: asyncio.Future[dict[str, Any]] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._checker: asyncio.Task[None] | None = None
        self._action: asyncio.Task[None] | None = None
        self._acted: set[tuple[Any, ...]] = set()
        self._waiting: list[Waiting] = []
        self.table: dict[str, Any] = {}
        self.form: dict[str, Any] = {}
        self._changed = asyncio.Event()
        self._closing = False
        self._lost: str | None = None
        self._seat = 0
        self._asked_mode = False
        self._seen_cards: set[tuple[int, int]] = set()

    # -- opening the app ---------------------------------------------------------------------
    async def open(self) -> None:
        """Open the app as a browser does; returns once the table could be drawn."""
        if self._http is None:
            self._http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        http = self._http
        start = time.perf_counter()
        url = f"{self.base}voila/render/{self.app}?student={self.name}"
        self.stage = "waiting for the app's page"
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=600)) as reply:
            if reply.status != 200:
                raise StudentError(f"the app's page answered {reply.status}")
            page = await reply.text()
        self.figures.page_s = time.perf_counter() - start
        self._kernel = kernel_id_of(page)
        self.stage = "fetching the page's files"
        if self.fetch_assets:
            self.figures.asset_bytes = await self._fetch(assets_of(page, url))
        self.stage = "asking for the page's kernel"
        async with http.get(f"{self.base}api/kernels/{self._kernel}") as reply:
            if reply.status != 200:
                raise StudentError(f"the page's kernel answered {reply.status}")
        self.stage = "connecting the kernel's websocket"
        ws_url = (self.base.replace("http", "ws", 1)
                  + f"api/kernels/{self._kernel}/channels?session_id={self._session}")
        self._ws = await http.ws_connect(ws_url, protocols=(WS_PROTOCOL,), max_msg_size=0,
                                         origin=self.base.rstrip("/"), heartbeat=None)
        if self._ws.protocol != WS_PROTOCOL:
            raise StudentError(f"the server chose the websocket protocol {self._ws.protocol!r}")
        self._reader = asyncio.create_task(self._read())
        self.stage = "waiting for the kernel's info"
        await self._request("kernel_info_request", {})
        self.stage = "waiting for the widgets' state"
        states = await self._widget_states()
        self._find_table(states)
        self.figures.table_s = time.perf_counter() - start
        self.stage = "at the table"
        self._checker = asyncio.create_task(self._check_kernel())

    async def _fetch(self, urls: list[str]) -> int:
        assert self._http is not None
        http = self._http
        limit = asyncio.Semaphore(6)  # a browser's connections to one server

        async def one(url: str) -> int:
            async with limit, http.get(url) as reply:
                return len(await reply.read()) if reply.status == 200 else 0

        return sum(await asyncio.gather(*(one(u) for u in urls)))

    async def _widget_states(self) -> dict[str, Any]:
        """The ipywidgets manager's first question: every widget's state."""
        self._control = uuid.uuid4().hex
        self._states = asyncio.get_running_loop().create_future()
        await self._send("comm_open", {"comm_id": self._control,
                                       "target_name": "jupyter.widget.control", "data": {}},
                         metadata={"version": "1.0.0"})
        await self._send("comm_msg", {"comm_id": self._control,
                                      "data": {"method": "request_states"}})
        try:
            states = await asyncio.wait_for(self._states, STATE_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise StudentError("the kernel sent no widget state") from None
        await self._send("comm_close", {"comm_id": self._control, "data": {}})
        return states

    def _find_table(self, states: dict[str, Any]) -> None:
        for model_id, model in states.get("states", {}).items():
            state = model.get("state", {})
            if isinstance(state.get("table"), dict) and "card_svgs" in state:
                self._widget = model_id
                self.table = state["table"]
                self.form = state.get("form") or {}
                return
        raise StudentError("the page has no Note Snap table")

    # -- the websocket ------------------------------------------------------------------------
    def _parts(self, msg_type: str, content: dict[str, Any],
               metadata: dict[str, Any] | None = None) -> tuple[str, list[bytes]]:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "username": self.name,
                  "session": self._session, "version": "5.3",
                  "date": datetime.now(timezone.utc).isoformat()}
        return msg_id, [json.dumps(header).encode(), b"{}",
                        json.dumps(metadata or {}).encode(), json.dumps(content).encode()]

    async def _send(self, msg_type: str, content: dict[str, Any],
                    metadata: dict[str, Any] | None = None) -> str:
        if self._ws is None or self._ws.closed:
            raise StudentError(self._lost or "the kernel's websocket is closed")
        msg_id, parts = self._parts(msg_type, content, metadata)
        await self._ws.send_bytes(to_ws("shell", parts))
        return msg_id

    async def _request(self, msg_type: str, content: dict[str, Any]) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        msg_id, parts = self._parts(msg_type, content)
        self._replies[msg_id] = future
        assert self._ws is not None
        await self._ws.send_bytes(to_ws("shell", parts))
        try:
            return await asyncio.wait_for(future, STATE_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise StudentError(f"no reply to {msg_type}") from None
        finally:
            self._replies.pop(msg_id, None)

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for frame in self._ws:
                if frame.type == aiohttp.WSMsgType.BINARY:
                    self._receive(*from_ws(frame.data))
                elif frame.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
        finally:
            if not self._closing:
                self._lost = self._lost or "the kernel's websocket closed"
            self._changed.set()

    def _receive(self, channel: str, parts: list[bytes]) -> None:
        now = time.perf_counter()
        header = json.loads(parts[0])
        kind = header.get("msg_type")
        if channel == "shell":
            parent = json.loads(parts[1]).get("msg_id")
            future = self._replies.get(parent)
            if future is not None and not future.done():
                future.set_result(json.loads(parts[3]))
            return
        if kind == "status":
            state = json.loads(parts[3]).get("execution_state")
            if state in ("dead", "restarting", "autorestarting"):
                self._lost = f"the kernel is {state}"
                self._changed.set()
            return
        if kind != "comm_msg":
            return
        content = json.loads(parts[3])
        data = content.get("data") or {}
        comm = content.get("comm_id")
        if comm == self._control and data.get("method") == "update_states":
            if self._states is not None and not self._states.done():
                self._states.set_result(data)
        elif comm == self._widget and data.get("method") == "update":
            state = data.get("state") or {}
            if "form" in state:
                self.form = state["form"]
            if state.get("notice"):
                self.figures.notices.append(str(state["notice"]))
            if isinstance(state.get("table"), dict):
                self.table = state["table"]
                self._answered(self.table, now)
                self._changed.set()

    async def _check_kernel(self) -> None:
        """``page.js``: every 10 s, is the page's kernel still there?"""
        assert self._http is not None
        while not self._closing:
            await asyncio.sleep(CHECK_EVERY_S)
            with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                async with self._http.get(f"{self.base}api/kernels/{self._kernel}") as reply:
                    if reply.status != 200:
                        self._lost = f"the page's kernel is gone ({reply.status})"
                        self._changed.set()

    async def say(self, content: dict[str, Any]) -> None:
        """A message of the widget's page (``model.send(content)``)."""
        await self._send("comm_msg", {"comm_id": self._widget,
                                      "data": {"method": "custom", "content": content}})

    # -- answers --------------------------------------------------------------------------------
    def _answered(self, table: dict[str, Any], now: float) -> None:
        """Which messages this table answers (as the page's ``noteAnswers`` reads it)."""
        card = table.get("card") or {}
        result = table.get("result") or {}
        still = []
        for wait in self._waiting:
            if self._answers(wait, table, card, result):
                self.figures.answers.append((wait.kind, (now - wait.sent_at) * 1000.0))
            else:
                still.append(wait)
        self._waiting = still

    def _answers(self, wait: Waiting, table: dict[str, Any], card: dict[str, Any],
                 result: dict[str, Any]) -> bool:
        if wait.kind == "new_game":
            return int(table.get("game", 0)) > wait.game
        if table.get("game") != wait.game:
            return False
        if wait.kind == "flip":
            return int(table.get("flips", 0)) > (wait.flips or 0)
        seat = self._seat
        if wait.kind == "slap":
            return (card.get("number") == wait.number
                    and any(s == seat for s, _ in table.get("slaps") or [])) or (
                result.get("number") == wait.number
                and any(s == seat for s, _ in result.get("slaps") or []))
        if wait.kind == "pass":
            return (card.get("number") == wait.number and seat in (table.get("passes") or [])
                    and table.get("phase") == "slaps") or result.get("number") == wait.number
        return False

    async def _sent(self, kind: str, content: dict[str, Any], **where: Any) -> None:
        self._waiting.append(Waiting(kind, time.perf_counter(), int(self.table.get("game", 0)),
                                     **where))
        await self.say(content)

    # -- playing --------------------------------------------------------------------------------
    async def play(self, until: float) -> None:
        """Play until ``until`` (``time.perf_counter()``): a player at the table."""
        seats = self.table.get("seats") or []
        self._seat = next((s["seat"] for s in seats if s.get("is_you")), 0)
        await asyncio.sleep(0.25)  # the view is drawn and takes the focus, then: ready
        await self.say({"type": "ready"})  # the game starts (the kernel says nothing back)
        while time.perf_counter() < until:
            if self._lost:
                raise StudentError(self._lost)
            self._react()
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), max(0.05, until - time.perf_counter()))
        if self._action is not None:
            self._action.cancel()
        await asyncio.sleep(1.0)  # the last answers come in
        self.figures.unanswered = [w.kind for w in self._waiting]

    def _react(self) -> None:
        """What a player does about the table now (once per situation)."""
        table = self.table
        game, phase = table.get("game"), table.get("phase")
        card = table.get("card") or {}
        if phase == "over":
            situation: tuple[Any, ...] = (game, "over")
        elif phase == "flip":
            if table.get("turn") != self._seat or table.get("paused"):
                return
            situation = (game, "flip", table.get("flips"))
        elif phase == "slaps" and card.get("number") is not None:
            situation = (game, "card", card["number"])
        else:
            return
        if situation in self._acted:
            return
        self._acted.add(situation)
        if self._action is not None and not self._action.done():
            self._action.cancel()
        self._action = asyncio.create_task(self._act(situation, dict(table)))

    async def _act(self, situation: tuple[Any, ...], table: dict[str, Any]) -> None:
        rng = self.rng
        game = int(table["game"])
        if situation[1] == "over":
            self.figures.games += 1
            await asyncio.sleep(rng.uniform(2.0, 4.0))  # reads the end of the game
            await self._new_game()
        elif situation[1] == "flip":
            await asyncio.sleep(rng.uniform(0.3, 0.9))  # looks, then presses Enter (or 1–7)
            call = None
            if self.call_mode == "self":
                expected = table.get("next_call") or "Do"
                call = expected if rng.random() < 0.9 else rng.choice(CYCLE)
            await self._sent("flip", {"type": "flip", "game": game, "seat": self._seat,
                                      "call": call}, flips=int(table.get("flips", 0)))
        else:
            card = table["card"]
            number = int(card["number"])
            self.figures.cards += 1
            await asyncio.sleep(0.016)  # the next animation frame: painted
            painted = time.perf_counter()
            await self.say({"type": "shown", "game": game, "number": number})
            roll = rng.random()
            if card.get("match"):
                if roll < 0.92:
                    await self._after(painted, rng.uniform(350, 900))
                    await self._slap(game, number, painted)
            elif roll < 0.08:  # a false slap
                await self._after(painted, rng.uniform(300, 800))
                await self._slap(game, number, painted)
            elif roll < 0.75:  # "no match" (N)
                await self._after(painted, rng.uniform(500, 1200))
                ms = (time.perf_counter() - painted) * 1000.0
                await self._sent("pass", {"type": "pass", "game": game, "number": number,
                                          "seat": self._seat, "at_ms": ms}, number=number)

    @staticmethod
    async def _after(painted: float, ms: float) -> None:
        await asyncio.sleep(max(0.0, painted + ms / 1000.0 - time.perf_counter()))

    async def _slap(self, game: int, number: int, painted: float) -> None:
        ms = (time.perf_counter() - painted) * 1000.0
        await self._sent("slap", {"type": "slap", "game": game, "number": number,
                                  "seat": self._seat, "reaction_ms": ms}, number=number)

    async def _new_game(self) -> None:
        """New game: the same settings, or (a student who calls for themselves) the form's
        settings with "call for yourself" chosen, as the Settings panel sends them."""
        if self.call_mode == "self" and self.form:
            settings = {k: v for k, v in self.form.items()
                        if k not in ("opener", "minutes", "card_limit")}
            settings["call_mode"] = "self"
            await self._sent("new_game", {"type": "new_game", "settings": settings})
        else:
            await self._sent("new_game", {"type": "new_game"})

    async def start_playing(self) -> None:
        """A student who calls for themselves chooses it in Settings before playing."""
        if self.call_mode == "self" and not self._asked_mode:
            self._asked_mode = True
            await self._new_game()
            deadline = time.perf_counter() + STATE_TIMEOUT_S
            while self._waiting and time.perf_counter() < deadline and not self._lost:
                self._changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 1.0)

    # -- leaving --------------------------------------------------------------------------------
    async def leave(self) -> None:
        """Leave the page: Voila's page asks the server to stop its kernel, then closes."""
        self._closing = True
        for task in (self._action, self._checker):
            if task is not None:
                task.cancel()
        http = self._http
        if http is not None and self._kernel:
            xsrf = next((c.value for c in http.cookie_jar if c.key == "_xsrf"), "")
            with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                form = aiohttp.FormData({"_xsrf": xsrf})
                async with http.post(f"{self.base}voila/api/shutdown/{self._kernel}",
                                     data=form, timeout=aiohttp.ClientTimeout(total=30)):
                    pass
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
        if http is not None and self._own_http:
            await http.close()
