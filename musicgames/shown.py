"""How a value a program passed in is shown in an error message: short, and always showable.

Both game engines name the input they refuse. Python's own ``repr`` cannot always do that:
a whole number of more than 4300 digits (``10**5000``) raises ``ValueError`` when written
out, and a saved game can nest lists without end. :func:`short_repr` names such a number by
its size and cuts long or deep values short, so that the message of a refusal is never itself
an error.

>>> short_repr(10**400), short_repr("Do"), short_repr(True)
('a 401-digit number', "'Do'", 'True')
>>> short_repr(10**5000)
'a number of more than 3900 digits'
>>> short_repr([1, [2, [3, [4, [5, [6]]]]]])
'[1, [2, [3, [4, [...]]]]]'
"""

from __future__ import annotations

import reprlib

__all__ = ["short_repr"]

#: The longest text :func:`short_repr` returns (longer text keeps its start and its end).
LONGEST = 80


def _whole_number(value: int) -> str:
    """A whole number as written, or named by its size when it is too long to read."""
    if value.bit_length() <= 64:
        return int.__repr__(value)
    sign = "negative " if value < 0 else ""
    if value.bit_length() >= 13000:  # too long for str(): Python refuses 4300+ digits
        return f"a {sign}number of more than 3900 digits"
    return f"a {len(str(abs(value)))}-digit {sign}number"


class _ShortRepr(reprlib.Repr):
    """``reprlib``'s bounded repr, with whole numbers of any size shown safely."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 8
        self.maxstring = self.maxother = LONGEST

    def repr_int(self, x: int, level: int) -> str:
        return _whole_number(x)

    def repr_instance(self, x: object, level: int) -> str:
        if isinstance(x, int) and not isinstance(x, bool):  # a subclass of int
            return f"{type(x).__name__}({_whole_number(int(x))})"
        try:
            text = repr(x)
        except Exception:  # a repr that fails is no reason to lose the message
            return f"a {type(x).__name__} that cannot be shown"
        return text if len(text) <= self.maxother else f"{text[:60]}…{text[-12:]}"


_SHORT = _ShortRepr()


def short_repr(value: object) -> str:
    """``repr(value)`` for an error message: at most 80 characters, and never an error."""
    text = _SHORT.repr(value)
    return text if len(text) <= LONGEST else f"{text[:60]}…{text[-12:]}"
