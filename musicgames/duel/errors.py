"""Why a Keyboard Duel action was refused: one error class per cause.

Every error is a :class:`DuelError`, itself a :class:`musicgames.protocol.GameError` (a
``ValueError``). The message names the input, the reason and the rule of the rules page
(D1–D16) that refuses it; ``rule`` holds that rule (``"D8"``) and ``rules`` every rule the
message cites, set where the error is raised. The game state is left exactly as it was.

>>> err = SecondPlaceError("Place A3 refused: one Place per turn (D7)", rule="D7")
>>> isinstance(err, GameError), err.rule, err.rules
(True, 'D7', ('D7',))
>>> NoTokenLeftError("all five placed (D6, D8)", rule="D8", rules=("D6", "D8")).rules
('D6', 'D8')
"""

from __future__ import annotations

from musicgames.protocol import GameError

__all__ = [
    "BadSavedGameError",
    "BadSeedError",
    "CardNotInHandError",
    "DuelError",
    "DuplicateCardError",
    "GameIsOverError",
    "KeyOffBoardError",
    "MixedLettersError",
    "MustActFirstError",
    "NoCardsError",
    "NoSuchPianoCardError",
    "NoTokenLeftError",
    "NoTokenThereError",
    "NotAGameSettingError",
    "NotAnActionError",
    "NotAnOddsQuestionError",
    "NothingToUndoError",
    "NotNowError",
    "NotYourTokenError",
    "NotYourTurnError",
    "SecondMoveError",
    "SecondPlaceError",
    "TakeBackStoppedError",
    "TooManyCardsError",
    "UnknownBotError",
    "WrongCardError",
    "WrongKeyError",
    "WrongStepsError",
]


class DuelError(GameError):
    """Base class: an action, a setting or a saved game the Keyboard Duel rules do not allow.

    ``rule`` is the rule that refuses (``None`` when no single rule does: a saved game that
    cannot be read); ``rules`` every rule the message cites, ``rule`` among them.
    """

    def __init__(self, message: str, *args: object, rule: str | None = None,
                 rules: tuple[str, ...] | None = None) -> None:
        super().__init__(message, *args, rule=rule)
        if rules is None:
            rules = () if self.rule is None else (self.rule,)
        #: Every rule the message cites, in its order.
        self.rules: tuple[str, ...] = rules


class NotAnActionError(DuelError):
    """The input is not one of the action classes, or a field has the wrong type."""


class GameIsOverError(DuelError):
    """The game has ended (D15): no more actions."""


class NotYourTurnError(DuelError):
    """A seat acted while the decision belongs to the other seat."""


class NotNowError(DuelError):
    """The action does not fit the moment: a Place during a duel, a duel card outside one."""


class CardNotInHandError(DuelError):
    """A card the acting player does not hold (or an id that is no card)."""


class DuplicateCardError(DuelError):
    """The same card listed twice in one Place."""


class NoCardsError(DuelError):
    """A Place with no cards (D8 needs at least one)."""


class TooManyCardsError(DuelError):
    """A Place with more than 6 cards (D8)."""


class MixedLettersError(DuelError):
    """Cards of two letters in one Place (D8) or one duel run (D11b)."""


class KeyOffBoardError(DuelError):
    """A key number outside 0–23 (D2)."""


class WrongKeyError(DuelError):
    """A Place on a key that is not the letter's white key (D8)."""


class NoTokenLeftError(DuelError):
    """A Place when all five tokens have been placed this round."""


class SecondPlaceError(DuelError):
    """A second Place in one turn (D7)."""


class SecondMoveError(DuelError):
    """A second Move or Shift in one turn (D7)."""


class NoTokenThereError(DuelError):
    """A Move from an empty key, or a Shift of a piano card holding none of your tokens."""


class NotYourTokenError(DuelError):
    """A Move of the opponent's token."""


class WrongStepsError(DuelError):
    """A Move whose distance is not the card's number (a Wild moves 1) (D9)."""


class WrongCardError(DuelError):
    """A card that cannot do this: an arrow for a Move, a number or Wild for a Shift (D9)."""


class NoSuchPianoCardError(DuelError):
    """A piano card number other than 0 (left) or 1 (right)."""


class MustActFirstError(DuelError):
    """Ending a turn before taking an action while one is possible (D7)."""


class NothingToUndoError(DuelError):
    """``undo()`` with no action left to take back, or ``replay()`` of a copy that keeps none."""


class TakeBackStoppedError(NothingToUndoError):
    """``take_back()`` past what it may undo: a die roll or a card draw (chance and hidden
    cards, once shown, cannot be unseen), the other player's action, or the round's start.
    ``stop`` says which: ``"dice"``, ``"draw"``, ``"other_player"``, ``"not_their_move"``,
    ``"round"``, ``"over"`` or ``"start"``."""

    def __init__(self, message: str, stop: str, *, rule: str | None = None,
                 rules: tuple[str, ...] | None = None) -> None:
        super().__init__(message, rule=rule, rules=rules)
        self.stop = stop


class BadSavedGameError(DuelError):
    """A saved game that is malformed, inconsistent or does not replay."""


class BadSeedError(DuelError, TypeError):
    """A seed that is neither a whole number nor a ``random.Random`` (also a ``TypeError``,
    as it always was)."""


class NotAnOddsQuestionError(DuelError):
    """A question the odds cannot answer under the rules: a token power off 1–6, more dice
    than a side ever rolls (3, D11a), or dice showing other than 1–6."""


class NotAGameSettingError(DuelError):
    """A setting Keyboard Duel does not have, or a value it cannot take (two players, D1)."""


class UnknownBotError(DuelError):
    """A computer player's name that is not one of the levels (the rules page, "Computer
    opponents")."""
