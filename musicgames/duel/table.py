"""What the Keyboard Duel table shows, as small public values: the phase, each token's
state, a token as the tray and the board show it, a duel in progress.

These are shared by the game state (:mod:`musicgames.duel.state`) and a seat's view
(:mod:`musicgames.duel.view`), so neither needs the other's insides.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from musicgames.duel import legal
from musicgames.duel.kernel import attacker_wins, dice_for_power
from musicgames.theory import LETTERS

__all__ = ["DuelInfo", "Phase", "Token", "TokenState", "dice_for_power"]


class TokenState(str, Enum):
    """Where a Dice Token is this round (the squares of a player's tray)."""

    UNPLACED = "unplaced"
    ON_BOARD = "on_board"
    MERGED = "merged"
    BEATEN = "beaten"


class Phase(str, Enum):
    """What the game is waiting for."""

    TURN = "turn"  #: the turn player's Place / Move / Shift / EndTurn
    ATTACK = "attack"  #: the attacker's duel run (D11b)
    DEFEND = "defend"  #: the defender's duel run (D11c)
    OVER = "over"  #: the game has ended (D15)


@dataclass(frozen=True)
class Token:
    """One Dice Token as the table shows it.

    ``key`` is ``None`` unless the token is on the board; ``score`` is what it scores now
    (power × the key's multiplier, D13), 0 off the board and while it is still arriving
    (in a duel, or waiting its turn in an arrow move).
    """

    seat: int
    index: int
    state: TokenState
    key: int | None
    power: int
    dice: int
    score: int


@dataclass(frozen=True)
class DuelInfo:
    """A duel in progress (D11), all of it public.

    Seats are 0 (White) / 1 (Black); tokens are indexed 0–4 within their seat. ``to_act``
    is the attacker during ``Phase.ATTACK`` and the defender during ``Phase.DEFEND``.
    """

    key: int
    attacker: int
    defender: int
    attacker_token: int
    defender_token: int
    attacker_power: int
    defender_power: int
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_add: int
    defender_add: int
    attacker_run: tuple[int, ...]
    defender_run: tuple[int, ...]
    to_act: int

    @property
    def attacker_total(self) -> int:
        """The attacker's dice plus additions (D11d)."""
        return sum(self.attacker_dice) + self.attacker_add

    @property
    def defender_total(self) -> int:
        """The defender's dice plus additions (D11d)."""
        return sum(self.defender_dice) + self.defender_add

    @property
    def attacker_leads(self) -> bool:
        """True if the attacker would win if both locked in now (ties go to the attacker)."""
        return attacker_wins(self.attacker_total, self.defender_total)

    @property
    def run_letter(self) -> str | None:
        """The letter the acting side's run is tied to, or ``None`` while it holds no letter."""
        run = self.attacker_run if self.to_act == self.attacker else self.defender_run
        letter = legal.run_letter(run)
        return None if letter < 0 else LETTERS[letter]
