"""A kernel's reply is read even when the loop never heard that it came
(:mod:`musicgames.classroom.replies`): the wait that the classroom server's pages and the
suite's notebooks make for every cell."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
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


def _client_and_kernel(folder: Path) -> tuple[Any, zmq.Socket, Session]:
    """A client's shell channel and the kernel's end of it (a ROUTER, as ipykernel's)."""
    address = f"ipc://{folder}/shell"
    kernel = zmq.Context.instance().socket(zmq.ROUTER)
    kernel.bind(address)
    client = zmq.asyncio.Context.instance().socket(zmq.DEALER)
    client.connect(address)
    session = Session()
    return AsyncZMQSocketChannel(client, session), kernel, session


def test_a_reply_whose_wake_up_was_consumed_is_still_read(tmp_path: Path) -> None:
    read_lost_replies()

    async def scene() -> str:
        channel, kernel, session = _client_and_kernel(tmp_path)
        session.send(channel.socket, "kernel_info_request")
        identity, *_ = kernel.recv_multipart()
        waiting = asyncio.ensure_future(channel.get_msg(timeout=None))
        await asyncio.sleep(0.1)  # the client now waits, its socket watched by the loop
        session.send(kernel, "kernel_info_reply", ident=[identity])
        time.sleep(0.1)  # the reply comes while the loop is busy elsewhere...
        # ...and something asks the socket for its state before the loop looks: the edge
        # that would have woken the loop is consumed
        zmq.Socket.shadow(channel.socket.underlying).get(zmq.EVENTS)
        try:
            reply = await asyncio.wait_for(waiting, 5 * LOOK_AGAIN_S)
        finally:
            channel.close()
            kernel.close(linger=0)
        return str(reply["msg_type"])

    assert asyncio.run(scene()) == "kernel_info_reply"


def test_a_wait_with_a_timeout_and_no_reply_still_ends_in_empty(tmp_path: Path) -> None:
    read_lost_replies()

    async def scene() -> float:
        channel, kernel, _ = _client_and_kernel(tmp_path)
        start = time.monotonic()
        try:
            with pytest.raises(Empty):
                await channel.get_msg(timeout=0.5)
        finally:
            channel.close()
            kernel.close(linger=0)
        return time.monotonic() - start

    # its own timeout: looking again makes it end neither sooner nor later
    assert 0.5 <= asyncio.run(scene()) < 1.0
