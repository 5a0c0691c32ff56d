"""Both games by name: Note Snap and Keyboard Duel through one protocol.

:func:`load_game` makes a game with its settings, given by keyword and checked once, by the
game itself; the game then makes new states, reads saved ones and makes computer players
(:mod:`musicgames.protocol` says what each can do). In both games ``state.replay()`` is one
operation: a new state made by playing the state's actions again from its start.

>>> from musicgames.games import GAMES, GameError, load_game
>>> GAMES
('note_snap', 'keyboard_duel')
>>> game = load_game("keyboard_duel")
>>> state = game.new_game(seed=7)
>>> state.to_act()
(0,)
>>> state.replay().to_json() == state.to_json()   # its actions played again from the start
True
>>> load_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musicgames.protocol.GameError: there is no game called 'chess': the games are note_snap and ...

From the command line, ``python -m musicgames.games simulate GAME`` and ``tournament GAME``
play many games between computer players (:mod:`musicgames.play`) and print what they show.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from musicgames.play import Checker, Report, play_games, protocol_problems
from musicgames.protocol import TABLE, Game, GameError, GameState
from musicgames.shown import short_repr

__all__ = ["GAMES", "TABLE", "GameError", "invariant_check", "load_game", "main"]

#: The games' names, as :func:`load_game` knows them.
GAMES = ("note_snap", "keyboard_duel")

# Where each game lives: imported when the game is first loaded, so that a page that plays
# one game does not load the other.
_HOMES = {
    "note_snap": ("musicgames.snap.game", "NoteSnap"),
    "keyboard_duel": ("musicgames.duel.game", "KeyboardDuel"),
}
# A game's own invariants, checked in every state beside the protocol's (the cards in play,
# the turn order): the engine's checker, where it has one.
_OWN_CHECKS = {
    "note_snap": ("musicgames.snap.invariants", "check_invariants"),
}


def load_game(name: str, **config: Any) -> Game:
    """The game called ``name`` (one of :data:`GAMES`), with the settings ``config``.

    The game checks its settings once, here: an unknown name or setting, or a value the
    game cannot take, raises :class:`GameError` naming it.
    """
    home = _HOMES.get(name) if isinstance(name, str) else None
    if home is None:
        raise GameError(f"there is no game called {short_repr(name)}: the games are "
                        f"{' and '.join(GAMES)}")
    module, maker = home
    game: Game = getattr(importlib.import_module(module), maker)(**config)
    return game


def invariant_check(game: Game) -> Checker:
    """What checks a state of ``game`` in a simulation: the protocol's invariants
    (:func:`~musicgames.play.protocol_problems`) and the game's own, where its engine has a
    checker (Note Snap's cards, turn order and call cycle). It returns the problems found.

    >>> snap = load_game("note_snap", players=2)
    >>> invariant_check(snap)(snap.new_game(seed=1))
    []
    """
    players = game.players
    home = _OWN_CHECKS.get(game.name)
    own: Checker | None = (getattr(importlib.import_module(home[0]), home[1])
                           if home is not None else None)

    def check(state: GameState) -> list[str]:
        problems = protocol_problems(state, players)
        if own is not None:
            problems.extend(own(state))
        return problems

    return check


# -- the command line ---------------------------------------------------------------------


def _setting(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` from the command line; the value is read as JSON when it is JSON."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.games",
        description="Play many games of Note Snap or Keyboard Duel between computer players.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for command, helping, bots, games in (
        ("simulate", "play games, each player keeping its seat", None, 1000),
        ("tournament", "play games, the players changing seats every game (colours "
         "alternate in a two-player game)", None, 100),
    ):
        sub = commands.add_parser(command, help=helping, description=helping)
        sub.add_argument("game", choices=GAMES, help="which game")
        sub.add_argument("--players", type=int, default=None,
                         help="how many seats (default: the game's own)")
        sub.add_argument("--bots", default=bots,
                         help="computer players, comma-separated, one per seat or one for "
                              "all: the game's levels, or 'random' (default: the game's "
                              "strongest level against its first)")
        sub.add_argument("--games", type=int, default=games,
                         help=f"how many games (default {games})")
        sub.add_argument("--seed", type=int, default=0, help="seed of the whole run")
        sub.add_argument("--set", dest="settings", type=_setting, action="append",
                         default=[], metavar="NAME=VALUE",
                         help="a setting of the game (a JSON value or a word), e.g. "
                              "--set length=short; may be repeated")
        sub.add_argument("--no-check", dest="check", action="store_false",
                         help="do not check every invariant after every action")
        sub.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _bots(text: str | None, game: Game) -> list[str | None]:
    """The players ``--bots`` names, one per seat (``None``: the driver's random player)."""
    names: list[str | None]
    if text is None:  # the strongest level against the first, in turn
        levels = list(game.bots)
        pair = [levels[-1], levels[0]] if len(levels) > 1 else levels
        return [pair[seat % len(pair)] for seat in range(game.players)]
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names *= game.players
    if len(names) != game.players:
        raise GameError(f"--bots names {len(names)} players for {game.players} seats")
    for seat, name in enumerate(names):
        try:
            game.make_bot(str(name), seat=seat, seed=0)  # an unknown level stops here
        except GameError:
            if name != "random":
                raise
            names[seat] = None  # a game without a random player of its own: the driver's
    return names


def run(argv: Sequence[str] | None = None) -> tuple[Report, bool]:
    """Parse the command line and play the games; the report and whether ``--json``."""
    parser = _parser()
    args = parser.parse_args(argv)
    settings = dict(args.settings)
    if args.players is not None:
        settings["players"] = args.players
    if args.games < 1:
        parser.error(f"--games {args.games}: play at least one game")
    try:
        game = load_game(args.game, **settings)
        bots = _bots(args.bots, game)
        report = play_games(game, bots, args.games, args.seed,
                            rotate=args.command == "tournament",
                            check=invariant_check(game) if args.check else None,
                            clock=time.perf_counter)
    except GameError as err:
        parser.error(str(err))
    return report, args.json


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status is 1 when an invariant was broken."""
    report, as_json = run(argv)
    print(json.dumps(report.to_dict()) if as_json else report.text())
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
