"""Whole games between computer players in *table time*: Note Snap's reaction-time model.

:func:`play_game` plays one seeded game as a table on screen would: on each card every
computer player decides once, at a drawn time, whether to slap or pass, the decisions are
given in time order and the window closes (S14). With ``check=True`` every invariant is
checked after every action (:func:`~musicgames.snap.invariants.check_invariants`). Many
games between any players, of either game, are :func:`musicgames.play.play_games` (and
``python -m musicgames.games simulate note_snap``).

>>> result = play_game(["beginner", "expert"], seed=1)
>>> result.violations, len(result.winners) >= 1, result.state.is_terminal()
((), True, True)

Each game also has a length in *table time*: what it would last on screen, card by card,
at a :class:`TablePace` (the pause before each flip, the slap window closing early once
every seat has slapped or passed, S14 v2). :func:`game_minutes` gives many games' lengths,
to choose settings that fit a lesson:

>>> from musicgames.snap import GameLength
>>> short = SnapConfig(players=3, call_modes=(CallMode.SELF,) * 3, length=GameLength.SHORT)
>>> minutes = game_minutes(["intermediate", "beginner", "beginner"], 20, seed=1, config=short)
>>> len(minutes), all(m > 0 for m in minutes)
(20, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from musicgames.snap.actions import CallMode, CloseSlaps, GameLength, Pass, Phase, Slap, TimeUp
from musicgames.snap.bots import Bot, BotLevel, level_named
from musicgames.snap.config import DEFAULT_FLIP_PAUSE_MS, SnapConfig
from musicgames.snap.errors import ConfigError
from musicgames.snap.game import new_game
from musicgames.snap.invariants import check_invariants
from musicgames.snap.state import SnapState
from musicgames.snap.window import closes_early

__all__ = ["GameResult", "TablePace", "game_minutes", "play_game"]

#: A game longer than this many flips counts as one that never ends (an invariant).
MAX_FLIPS = 100_000



@dataclass(frozen=True)
class TablePace:
    """How long each card lasts at a table on screen, to give simulated games a length.

    * ``flip_ms`` — the pause before each flip (a computer player's pace, S15; a person
      pressing Enter takes about as long);
    * ``settle_ms`` — after the last seat has slapped or passed, before the result shows;
    * ``grace_ms`` — after a slap window that ran its whole length;
    * ``early_close`` — the window closes once every seat has slapped or passed (S14 v2);
    * ``passes`` — per seat, whether it passes (a person pressing "no match"); ``None``
      means every seat does. A seat that never passes keeps each non-match card open for
      the whole window.
    """

    flip_ms: float = DEFAULT_FLIP_PAUSE_MS
    settle_ms: float = 120.0
    grace_ms: float = 250.0
    early_close: bool = True
    passes: tuple[bool, ...] | None = None


@dataclass(frozen=True)
class GameResult:
    """One finished (or abandoned) game: its flips, winners and broken invariants, and how
    long it would last on screen (``seconds``, at the :class:`TablePace` given)."""

    flips: int
    actions: int
    winners: tuple[int, ...]
    violations: tuple[str, ...]
    state: SnapState = field(repr=False, compare=False)
    seconds: float = 0.0


def play_game(
    levels: Sequence[BotLevel | str],
    seed: int,
    *,
    config: SnapConfig | None = None,
    opener: int = 0,
    check: bool = True,
    max_flips: int = MAX_FLIPS,
    pace: TablePace | None = None,
) -> GameResult:
    """Play one game between computer players, one per level, from ``seed``.

    The deal and each bot draw from their own ``random.Random``, all seeded from ``seed``,
    so the same seed plays the same game. Bots flip on their turn; on each card shown every
    bot decides once whether to slap or pass and when, and the decisions are given in time
    order; then the window closes (unless every seat slapped or passed, which closes it by
    itself). The game's table time is counted at ``pace`` (default :class:`TablePace`); a
    timed game (:attr:`GameLength.TIMED`) ends with :class:`TimeUp` at the first flip
    after its time limit.
    """
    players = len(levels)
    if config is None:
        config = SnapConfig(players=players, call_modes=(CallMode.SELF,) * players)
    elif config.players != players:
        raise ConfigError(f"{players} levels for a {config.players}-player table")
    seeder = random.Random(seed)
    state = new_game(random.Random(seeder.getrandbits(64)), config, opener)
    bots = [Bot(seat, level, random.Random(seeder.getrandbits(64))) for seat, level in
            enumerate(levels)]
    violations: list[str] = []
    checker: Callable[[SnapState], list[str]] | None = check_invariants if check else None
    apply = state.apply
    view = state.view
    flippers = [bot.flip for bot in bots]
    pace = pace or TablePace()
    passing = pace.passes or (True,) * players
    deciders = [(bot.seat, bot.decide, passing[bot.seat]) for bot in bots]
    close = CloseSlaps()
    slapping = Phase.SLAPS
    over = Phase.OVER
    window_ms = config.slap_window_ms
    full_ms = window_ms + pace.grace_ms
    flip_ms, settle_ms, early = pace.flip_ms, pace.settle_ms, pace.early_close
    limit_ms = config.time_limit_s * 1000.0 if config.length is GameLength.TIMED else None
    elapsed_ms = 0.0
    actions = 0
    while True:
        phase = state.phase
        if phase is over:
            break
        if phase is not slapping:
            if limit_ms is not None and elapsed_ms >= limit_ms:
                apply(TimeUp())
                actions += 1
                if checker is not None:
                    violations.extend(checker(state))
                break
            if state.flips >= max_flips:
                violations.append(f"the game did not end within {max_flips} flips")
                break
            seat = state.to_flip
            assert seat is not None
            apply(flippers[seat](view(seat)))
            elapsed_ms += flip_ms
            actions += 1
            if checker is not None:
                violations.extend(checker(state))
            continue
        decisions: list[Slap | Pass] = []
        for seat, decide, passes in deciders:
            decision = decide(view(seat))
            if decision is not None and (passes or type(decision) is not Pass):
                decisions.append(decision)
        if len(decisions) > 1:
            decisions.sort(key=_decision_time)
        for decision in decisions:
            if type(decision) is Pass and not early:
                continue  # without S14 v2 a pass is simply no slap
            apply(decision)
            actions += 1
            if checker is not None:
                violations.extend(checker(state))
        if early and closes_early(players, len(decisions)):  # S14 v2: all slapped or passed
            elapsed_ms += _decision_time(decisions[-1]) + settle_ms  # the last of them
        else:
            elapsed_ms += full_ms
        if state.phase is slapping:
            apply(close)
            actions += 1
            if checker is not None:
                violations.extend(checker(state))
    return GameResult(state.flips, actions, state.winners, tuple(violations), state,
                      elapsed_ms / 1000.0)


def _decision_time(decision: Slap | Pass) -> float:
    return decision.reaction_ms if type(decision) is Slap else decision.at_ms  # type: ignore[union-attr]


def game_minutes(
    levels: Sequence[BotLevel | str],
    games: int,
    seed: int = 0,
    *,
    config: SnapConfig | None = None,
    pace: TablePace | None = None,
) -> list[float]:
    """How many minutes each of ``games`` simulated games lasts at the table's ``pace``."""
    seeder = random.Random(seed)
    resolved = [level_named(level) for level in levels]
    return [
        play_game(resolved, seeder.getrandbits(64), config=config, check=False,
                  pace=pace).seconds / 60.0
        for _ in range(games)
    ]
