"""A kernel's reply is read even when the loop never heard that it came
(:mod:`musicgames.classroom.replies`): the wait that the classroom server makes for every
cell of an app's notebook, and the suite for every cell of the notebooks it runs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from queue import Empty
from typing import Any

import pytest
import zmq
import zmq.asyncio
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.session import Session

from musicgames.classroom import replies
from musicgames.classroom.replies import read_lost_replies

#: The tests look again sooner than a server does, so as not to wait a second each.
LOOK_AGAIN_S = 0.2


@pytest.fixture(autouse=True)
def _look_again_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "LOOK_AGAIN_S", LOOK_AGAIN_S)
    read_lost_replies()


class _Watched:
    """A socket that notes the timeout (ms) of every poll made on it."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.looks: list[int | None] = []

    def poll(self, timeout: int | None = None, flags: int = zmq.POLLIN) -> Any:
        self.looks.append(timeout)
        return self.socket.poll(timeout, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.socket, name)


@asynccontextmanager
async def _client_and_kernel() -> AsyncIterator[tuple[Any, zmq.Socket[Any], Session]]:
    """A client's shell channel (its socket watched) and the kernel's end of it (a ROUTER,
    as ipykernel's), both closed after."""
    kernel: zmq.Socket[Any] = zmq.Context.instance().socket(zmq.ROUTER)
    client = zmq.asyncio.Context.instance().socket(zmq.DEALER)
    session = Session()
    channel = AsyncZMQSocketChannel(client, session)
    try:
        port = kernel.bind_to_random_port("tcp://127.0.0.1")
        client.connect(f"tcp://127.0.0.1:{port}")
        channel.socket = _Watched(client)  # type: ignore[assignment]  # forwards the rest
        yield channel, kernel, session
    finally:
        client.close(linger=0)
        kernel.close(linger=0)


def _run(scene: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run(asyncio.wait_for(scene(), 10))


def test_a_reply_whose_wake_up_was_consumed_is_still_read() -> None:
    async def scene() -> str:
        async with _client_and_kernel() as (channel, kernel, session):
            session.send(channel.socket.socket, "kernel_info_request")
            assert kernel.poll(5000)
            identity, *_ = kernel.recv_multipart()
            waiting = asyncio.ensure_future(channel.get_msg(timeout=None))
            await asyncio.sleep(0.1)  # the client now waits, its socket watched by the loop
            session.send(kernel, "kernel_info_reply", ident=[identity])
            # Before the loop looks, something reads the socket's state outside pyzmq's
            # asyncio wrapper (here, once the reply is there): the edge that would have
            # woken the loop is consumed.
            assert zmq.Socket.shadow(channel.socket.underlying).poll(5000, zmq.POLLIN)
            reply = await asyncio.wait_for(waiting, 5)
            return str(reply["msg_type"])

    assert _run(scene) == "kernel_info_reply"


def _looks_of_a_wait_no_reply_ends(timeout: float) -> list[int]:
    """The looks (ms) of a wait with ``timeout`` that no reply ends: it ends in ``Empty``."""
    async def scene() -> list[int | None]:
        async with _client_and_kernel() as (channel, _, _):
            with pytest.raises(Empty):
                await channel.get_msg(timeout=timeout)
            return list(channel.socket.looks)

    looks: list[int | None] = _run(scene)
    assert None not in looks, looks  # a wait with a timeout never looks for ever
    return [look for look in looks if look is not None]


def test_a_wait_with_a_timeout_looks_until_its_deadline_and_not_past_it() -> None:
    looks = _looks_of_a_wait_no_reply_ends(0.5)
    assert looks[0] == 200 and looks[-1] == 0, looks  # a last look once the deadline passed
    assert all(0 <= look <= 200 for look in looks), looks
    assert sum(looks) <= 500, looks  # never a look past the deadline


def test_a_wait_with_no_time_looks_once() -> None:
    assert _looks_of_a_wait_no_reply_ends(0) == [0]


@pytest.mark.parametrize("timeout", [None, -1], ids=["none", "negative"])
def test_a_wait_for_ever_goes_on_looking_until_the_reply_comes(timeout: float | None) -> None:
    async def scene() -> tuple[str, list[int | None]]:
        async with _client_and_kernel() as (channel, kernel, session):
            session.send(channel.socket.socket, "execute_request")
            assert kernel.poll(5000)
            identity, *_ = kernel.recv_multipart()
            loop = asyncio.get_running_loop()
            loop.call_later(0.5, lambda: session.send(kernel, "execute_reply",
                                                      ident=[identity]))
            reply = await channel.get_msg(timeout=timeout)
            return str(reply["msg_type"]), list(channel.socket.looks)

    kind, looks = _run(scene)
    assert kind == "execute_reply"
    assert len(looks) >= 3 and set(looks) == {200}, looks  # looked again, never gave up
