"""Why a Keyboard Duel action was refused: one error class per cause.

Every error is a :class:`DuelError`, itself a ``ValueError``. The message names the input
and the reason, and the game state is left exactly as it was.
"""

from __future__ import annotations

__all__ = [
    "BadSavedGame",
    "CardNotInHand",
    "DuelError",
    "DuplicateCard",
    "GameIsOver",
    "KeyOffBoard",
    "MixedLetters",
    "MustActFirst",
    "NoCards",
    "NoSuchPianoCard",
    "NoTokenLeft",
    "NoTokenThere",
    "NotAnAction",
    "NotNow",
    "NotYourToken",
    "NotYourTurn",
    "NothingToUndo",
    "SecondMove",
    "SecondPlace",
    "TooManyCards",
    "WrongCard",
    "WrongKey",
    "WrongSteps",
]


class DuelError(ValueError):
    """Base class: an action or a saved game the Keyboard Duel rules do not allow."""


class NotAnAction(DuelError):
    """The input is not one of the action classes, or a field has the wrong type."""


class GameIsOver(DuelError):
    """The game has ended (D15): no more actions."""


class NotYourTurn(DuelError):
    """A seat acted while the decision belongs to the other seat."""


class NotNow(DuelError):
    """The action does not fit the moment: a Place during a duel, a duel card outside one."""


class CardNotInHand(DuelError):
    """A card the acting player does not hold (or an id that is no card)."""


class DuplicateCard(DuelError):
    """The same card listed twice in one Place."""


class NoCards(DuelError):
    """A Place with no cards (D8 needs at least one)."""


class TooManyCards(DuelError):
    """A Place with more than 6 cards (D8)."""


class MixedLetters(DuelError):
    """Cards of two letters in one Place (D8) or one duel run (D11b)."""


class KeyOffBoard(DuelError):
    """A key number outside 0–23 (D2)."""


class WrongKey(DuelError):
    """A Place on a key that is not the letter's white key (D8)."""


class NoTokenLeft(DuelError):
    """A Place when all five tokens have been placed this round."""


class SecondPlace(DuelError):
    """A second Place in one turn (D7)."""


class SecondMove(DuelError):
    """A second Move or Shift in one turn (D7)."""


class NoTokenThere(DuelError):
    """A Move from an empty key, or a Shift of a piano card holding none of your tokens."""


class NotYourToken(DuelError):
    """A Move of the opponent's token."""


class WrongSteps(DuelError):
    """A Move whose distance is not the card's number (a Wild moves 1) (D9)."""


class WrongCard(DuelError):
    """A card that cannot do this: an arrow for a Move, a number or Wild for a Shift (D9)."""


class NoSuchPianoCard(DuelError):
    """A piano card number other than 0 (left) or 1 (right)."""


class MustActFirst(DuelError):
    """Ending a turn before taking an action while one is possible (D7)."""


class NothingToUndo(DuelError):
    """``undo()`` with no action left to take back."""


class BadSavedGame(DuelError):
    """A saved game that is malformed, inconsistent or does not replay."""
