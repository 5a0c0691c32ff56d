"""Keyboard Duel as a game of the shared protocol (:mod:`musicgames.protocol`).

A :class:`KeyboardDuel` holds the settings, checked once when it is made; it makes new
games (:class:`~musicgames.duel.DuelState`), reads saved ones and makes computer players.

>>> game = KeyboardDuel()
>>> game.name, game.players, game.bots
('keyboard_duel', 2, ('casual', 'sharp'))
>>> state = game.new_game(seed=7)
>>> state.to_act(), len(state.legal_actions(0)) > 0, state.legal_actions(1)
((0,), True, ())
>>> bot = game.make_bot("sharp", seat=0, seed=1)
>>> bot.choose(state.view(0)) in state.legal_actions(0)
True
>>> game.from_json(state.to_json()).to_json() == state.to_json()
True
>>> KeyboardDuel(players=3)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.duel.errors.NotAGameSettingError: players=3 refused: Keyboard Duel is for two ...
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from musicgames.duel.bots import OPPONENT_LEVELS, Bot, make_bot
from musicgames.duel.errors import NotAGameSettingError
from musicgames.duel.state import DuelState
from musicgames.shown import short_repr

__all__ = ["KeyboardDuel"]


class KeyboardDuel:
    """Keyboard Duel with its settings: two players (D1), no other choice to make."""

    #: The game's name in :data:`musicgames.games.GAMES`.
    name = "keyboard_duel"
    #: The computer players a person can play against, weakest first (the rules page,
    #: "Computer opponents"); :meth:`make_bot` also makes the ``"random"`` baseline.
    bots: tuple[str, ...] = OPPONENT_LEVELS

    def __init__(self, *, players: int = 2, **unknown: object) -> None:
        if unknown:
            names = ", ".join(sorted(unknown))
            raise NotAGameSettingError(f"{names} refused: Keyboard Duel's only setting is "
                                       "players (2)")
        if players != 2 or not isinstance(players, int) or isinstance(players, bool):
            raise NotAGameSettingError(f"players={short_repr(players)} refused: Keyboard Duel "
                                       "is for two players, White and Black (D1)", rule="D1")
        self.players = 2

    def new_game(self, seed: int | random.Random | None = None) -> DuelState:
        """A new game, round 1 dealt, White to move (D1, D3, D6); ``seed`` an int or a
        ``random.Random`` (``None``: a game nobody can replay)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        return DuelState.new_game(seed)

    def from_json(self, text: str) -> DuelState:
        """A game saved by :meth:`DuelState.to_json` (``BadSavedGameError`` if it is not one)."""
        return DuelState.from_json(text)

    def make_bot(self, name: str, *, seat: int, seed: int | random.Random | None = 0) -> Bot:
        """The computer player ``name`` (one of :attr:`bots`, or ``"random"``) for ``seat``."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        return make_bot(name, seed, seat=seat)

    def settings(self) -> Mapping[str, Any]:
        """The settings this game was made with, by keyword."""
        return {"players": self.players}

    def __repr__(self) -> str:
        return "KeyboardDuel(players=2)"
