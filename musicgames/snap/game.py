"""Note Snap as a game of the shared protocol (:mod:`musicgames.protocol`): settings checked
once, new games from a seed, saved games read back, computer players by level.

>>> from musicgames.snap import TABLE, NoteSnap
>>> snap = NoteSnap(players=3)
>>> snap.name, snap.players, snap.bots
('note_snap', 3, ('beginner', 'intermediate', 'expert'))
>>> state = snap.new_game(seed=7)
>>> state.to_act(), state.hand_sizes
((0,), (19, 19, 18))
>>> bot = snap.make_bot("expert", seat=0, seed=1)
>>> state.apply(bot.choose(state.view(0)), 0)[0].to_dict()["type"]
'flipped'
>>> state.to_act()                       # every seat may slap or pass; the table may close
(0, 1, 2, -1)
>>> snap.from_json(state.to_json()).to_json() == state.to_json()
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from musicgames import protocol
from musicgames.shown import short_repr
from musicgames.snap.bots import LEVELS, Bot, level_named
from musicgames.snap.config import SnapConfig
from musicgames.snap.deal import seeded, shuffled_piles
from musicgames.snap.errors import ConfigError
from musicgames.snap.state import SnapState

__all__ = ["NoteSnap", "new_game"]


def new_game(
    seed: int | random.Random,
    config: SnapConfig | None = None,
    opener: int = 0,
) -> SnapState:
    """Shuffle with ``seed`` (a whole number or a seeded ``random.Random``) and deal all 56
    cards as evenly as possible (S4).

    Cards are dealt one at a time starting with the opener, so with 3 players the opener
    and the seat after it hold 19 cards and the third seat 18. The players choose who opens
    (S5): it is a parameter, seat 0 unless said otherwise.

    >>> state = new_game(random.Random(7), SnapConfig(players=3), opener=2)
    >>> state.hand_sizes, state.to_flip
    ((19, 18, 19), 2)
    >>> new_game(7, SnapConfig(players=3), opener=2).deal == state.deal   # the same seed
    True
    """
    rng = seeded(seed)
    config = SnapConfig() if config is None else config
    if not isinstance(config, SnapConfig):
        raise ConfigError(f"config={short_repr(config)} is not a SnapConfig")
    return SnapState._start(shuffled_piles(rng, config.players, opener), config, opener)


class NoteSnap:
    """Note Snap with its settings (any :class:`SnapConfig` field, by keyword), checked once.

    :meth:`new_game` deals a new game from a seed; :meth:`from_json` reads a saved one;
    :attr:`bots` names the levels of computer player (S17) and :meth:`make_bot` seats one.
    """

    name = "note_snap"
    #: The levels of computer player (S17), slowest first.
    bots: tuple[str, ...] = tuple(LEVELS)

    def __init__(self, **settings: Any) -> None:
        if "call_modes" in settings and isinstance(settings["call_modes"], list):
            settings["call_modes"] = tuple(settings["call_modes"])
        try:
            self.config = SnapConfig(**settings)
        except TypeError:
            known = ", ".join(SnapConfig.__dataclass_fields__)
            raise ConfigError(f"settings {short_repr(sorted(settings))} are not all Note Snap "
                              f"settings: use {known}") from None
        #: How many seats play (2–4, S3).
        self.players: int = self.config.players

    @classmethod
    def of(cls, config: SnapConfig) -> NoteSnap:
        """The game of settings already made."""
        if not isinstance(config, SnapConfig):
            raise ConfigError(f"config={short_repr(config)} is not a SnapConfig")
        made = object.__new__(cls)
        made.config = config
        made.players = config.players
        return made

    def settings(self) -> Mapping[str, Any]:
        """The settings, by keyword, as plain data."""
        return self.config.to_dict()

    def new_game(self, seed: int | random.Random = 0, *, opener: int = 0) -> SnapState:
        """A new game shuffled by ``seed`` (a whole number or a ``random.Random``), opened by
        seat ``opener`` (S4, S5)."""
        return new_game(seed, self.config, opener)

    def from_deal(self, hands: Any, opener: int = 0) -> SnapState:
        """A new game from the piles you give (see :meth:`SnapState.from_deal`)."""
        return SnapState.from_deal(hands, self.config, opener)

    def from_json(self, text: str | bytes | dict[str, Any]) -> SnapState:
        """A game saved by :meth:`SnapState.to_json`, checked and replayed (it keeps the
        settings it was saved with)."""
        return SnapState.from_json(text)

    def make_bot(self, name: str, *, seat: int, seed: int | random.Random = 0) -> Bot:
        """A computer player of level ``name`` (one of :attr:`bots`) at ``seat``, drawing
        from ``seed``."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ConfigError(f"seat={short_repr(seat)} is not a seat: this table has seats "
                              f"0–{self.players - 1}", rule="S3")
        return Bot(seat, level_named(name), seeded(seed))

    def __repr__(self) -> str:
        return f"NoteSnap(players={self.players})"



if TYPE_CHECKING:  # Note Snap is a game of the shared protocol: mypy checks it here
    _GAME: protocol.Game = NoteSnap()
    _STATE: protocol.GameState = _GAME.new_game()
