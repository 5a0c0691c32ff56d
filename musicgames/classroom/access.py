"""Who may reach the classroom server's inner doors: whether an address is this computer
only, and the proof with which a kernel started ahead asks for its own page's request.

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

__all__ = ["KERNEL_PROOF_HEADER", "is_loopback", "kernel_proof"]

#: The header with which a kernel started ahead (``--warm``) asks for its own page's request.
KERNEL_PROOF_HEADER = "X-Musicgames-Kernel-Proof"


def kernel_proof(key: bytes | str, kernel_id: str) -> str:
    """What kernel ``kernel_id`` shows the server to be given its page's request: a digest
    of its id under its connection key, which only the server and that kernel know (the
    key itself is never sent).

    >>> kernel_proof(b"k3y", "a-b-c-d-e") == kernel_proof("k3y", "a-b-c-d-e")
    True
    >>> kernel_proof(b"k3y", "a-b-c-d-e") == kernel_proof(b"k3y", "a-b-c-d-f")
    False
    """
    secret = key.encode() if isinstance(key, str) else key
    return hmac.new(secret, b"musicgames voila query " + kernel_id.encode(),
                    hashlib.sha256).hexdigest()


def is_loopback(ip: str) -> bool:
    """Whether ``ip`` is reachable from this computer only."""
    if ip == "localhost":
        return True
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return False
