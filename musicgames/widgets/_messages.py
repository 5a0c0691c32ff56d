"""The one refusal every widget gives a message from its page that it cannot use.

A page sends what the person did; a message that is not one the widget understands, or one
it cannot use now, is refused with a :class:`MessageError` saying why, and changes nothing.

>>> issubclass(MessageError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["MessageError"]


class MessageError(ValueError):
    """A message from the page that is not one the widget understands or can use now (the
    text says why)."""
