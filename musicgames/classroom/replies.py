"""A kernel's reply is read when it comes, even when its wake-up was lost.

Voila (the classroom server, running an app's notebook for a page) and nbclient (which runs
the notebooks in the test suite) wait for a kernel's reply with jupyter_client's
``AsyncZMQSocketChannel.get_msg``: it polls the channel's zmq socket through the asyncio
loop. zmq tells the loop that a message has come through an edge-triggered file descriptor:
a read of the socket's state made outside pyzmq's asyncio wrapper consumes that edge (what
does so in a loaded server is not known; the tests make such a read on purpose). The loop
then never hears of the message: it sits unread, in the socket, until the wait times out
(nbclient then looks once more and finds it) or for ever when there is no timeout (Voila's
default). On a busy 2-core machine this cost a notebook of the suite 300 s instead of 5
(nbmake's cell timeout) in about one run in three, and it could keep a student's app page
from ever appearing.

:func:`read_lost_replies` makes that wait look at the socket itself at least once a
:data:`LOOK_AGAIN_S`, so a reply that has come is read within that time whatever happened to
its wake-up; a reply whose wake-up came is read at once, as before. Nothing else changes: the
same timeout, the same ``queue.Empty`` when it passes with no message. (The widgets' own
messages, once the page is shown, go through Jupyter Server's websocket, not this wait.)
"""

from __future__ import annotations

import time
from queue import Empty
from typing import Any

__all__ = ["LOOK_AGAIN_S", "read_lost_replies"]

#: The longest a reply that has come can wait unread, in seconds.
LOOK_AGAIN_S = 1.0


async def _get_msg(self: Any, timeout: float | None = None) -> dict[str, Any]:
    """jupyter_client 8's ``AsyncZMQSocketChannel.get_msg``, looking at the socket again
    every :data:`LOOK_AGAIN_S` (a poll that ends by its timeout asks the socket itself).

    ``timeout`` in seconds; ``None`` or a negative one waits for ever, as zmq's does."""
    assert self.socket is not None
    if timeout is not None and timeout < 0:
        timeout = None
    deadline = None if timeout is None else time.monotonic() + timeout
    longest_ms = max(1, int(LOOK_AGAIN_S * 1000))
    while True:
        look_ms = longest_ms
        if deadline is not None:
            look_ms = min(look_ms, max(0, int((deadline - time.monotonic()) * 1000)))
        if await self.socket.poll(look_ms):
            message: dict[str, Any] = await self._recv()
            return message
        if look_ms == 0:  # the deadline has passed, and a last look found nothing
            raise Empty


def read_lost_replies() -> None:
    """Make jupyter_client's asyncio channels read a reply whose wake-up was lost (in this
    process: the classroom server, the test suite). Calling it again changes nothing."""
    from jupyter_client.channels import AsyncZMQSocketChannel

    AsyncZMQSocketChannel.get_msg = _get_msg  # type: ignore[method-assign]
