"""Whole games of either game, played through the shared protocol, and what many of them show.

:func:`play_game` plays one game to its end: each seat is a computer player named by its
level (``game.bots``) or, for a seat given no name, a player that takes a random legal
action. :func:`play_games` plays many, seats fixed or passed round (a tournament), and sums
them up in a :class:`Report`: wins, each player's mean score, the events of a game, how long
each player thinks and how fast the games go. It knows nothing of either game's rules: it
asks the state who may act (:meth:`~musicgames.protocol.GameState.to_act`) and what they may
do, and lets the game judge.

The command line (``python -m musicgames.games simulate`` and ``tournament``) prints these
reports; the test suite drives its random games through :func:`play_game` too.

A round of a game between computer players goes like this: every seat that may act is asked
once, on the same position, and the actions chosen are played in seat order (a player that
waits answers ``None``). When every seat that may still act has been asked and waits, the
table acts (it closes a slap window, rolls the dice): that is seat
:data:`~musicgames.protocol.TABLE`, and its action is drawn at random from its legal ones.

>>> from musicgames.duel import KeyboardDuel
>>> played = play_game(KeyboardDuel(), 7, bots=["sharp", "casual"])
>>> played.finished, len(played.returns), played.winners == (played.state.winner,)
(True, 2, True)
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from musicgames.protocol import TABLE, Event, Game, GameError, GameState

__all__ = [
    "MAX_STEPS",
    "Checker",
    "PlayedGame",
    "Report",
    "percentile",
    "play_game",
    "play_games",
    "protocol_problems",
    "wilson_interval",
]

#: A game that has not ended after this many steps (an action, or a round of computer
#: players) counts as one that never ends.
MAX_STEPS = 200_000

#: What a game's states are checked with after every action: the problems found, described.
Checker = Callable[[GameState], list[str]]

#: Called with every state a game passes through, before anyone acts on it; it may give back
#: another state to play on from (a game saved and loaded again), or ``None``.
Watcher = Callable[[GameState], "GameState | None"]

#: The names the players of a report go by: the first player is ``a``, the next ``b``, …
LETTERS = "abcdefgh"


@dataclass
class PlayedGame:
    """One game played to its end (``finished``), or stopped after :data:`MAX_STEPS`.

    ``moves`` are the ``(seat, action)`` pairs in the order played, the table's included;
    ``events`` everything the game reported on the way; ``think_s`` each seat's time per
    decision, in seconds, when a clock was given; ``problems`` what ``check`` found.
    """

    state: GameState
    moves: list[tuple[int, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    think_s: dict[int, list[float]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    finished: bool = False

    @property
    def returns(self) -> tuple[float, ...]:
        """What each seat made of the game (:meth:`~musicgames.protocol.GameState.returns`)."""
        return tuple(self.state.returns())

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest return (several on a tie); none if unfinished."""
        if not self.finished:
            return ()
        returns = self.returns
        best = max(returns)
        return tuple(seat for seat, value in enumerate(returns) if value == best)

    def event_counts(self) -> Counter[str]:
        """How many events of each ``"type"`` the game had (an event's type is asked once
        per class of event: every event of a class has the same)."""
        by_class = Counter(map(type, self.events))
        named: Counter[str] = Counter()
        for kind, count in by_class.items():
            named[_type_name(kind, self.events)] += count
        return named


def _type_name(kind: type, events: Sequence[Event]) -> str:
    """The ``"type"`` of the events of class ``kind``."""
    name = _TYPE_NAMES.get(kind)
    if name is None:
        name = _TYPE_NAMES[kind] = next(e for e in events if type(e) is kind).to_dict()["type"]
    return name


_TYPE_NAMES: dict[type, str] = {}


def _rng(seed: int | random.Random | None) -> random.Random:
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise GameError(f"seed={seed!r} is not a whole number or a random.Random")
    return random.Random(seed)


def play_game(
    game: Game,
    seed: int | random.Random | None = None,
    *,
    bots: Sequence[str | None] | None = None,
    check: Checker | None = None,
    watch: Watcher | None = None,
    clock: Callable[[], float] | None = None,
    max_steps: int = MAX_STEPS,
) -> PlayedGame:
    """Play one game of ``game`` to its end, from ``seed``.

    ``bots`` names a computer player (one of ``game.bots``) for each seat, or ``None`` for a
    seat that takes a random legal action; without ``bots`` every seat plays at random, one
    action at a time, a seat drawn at random among those that may act. The deal, each
    player and the random choices draw from their own ``random.Random``, all seeded from
    ``seed``: the same seed plays the same game.

    ``check`` is called with the state after every action and its problems are collected
    (and a finished game is replayed, :meth:`~musicgames.protocol.GameState.replay`, to see
    that its actions lead to the same state again);
    ``watch`` sees every state before anyone acts and may hand back another one to go on
    from; ``clock`` (such as ``time.perf_counter``) times each player's decisions.
    """
    rng = _rng(seed)
    state = game.new_game(seed=rng.getrandbits(64))
    players = game.players
    if bots is not None and len(bots) != players:
        raise GameError(f"{len(bots)} players named for a {players}-player game")
    made = [None if bots is None or bots[seat] is None else
            game.make_bot(str(bots[seat]), seat=seat, seed=rng.getrandbits(64))
            for seat in range(players)]
    chooser = random.Random(rng.getrandbits(64))
    played = PlayedGame(state, think_s={seat: [] for seat in range(players)})

    moves, events, think = played.moves, played.events, played.think_s

    def act(seat: int, action: Any) -> None:
        state = played.state
        events.extend(state.apply(action, seat))
        moves.append((seat, action))
        if check is not None:
            played.problems.extend(check(state))

    def random_action(seat: int) -> Any:
        return chooser.choice(list(played.state.legal_actions(seat)))

    def decide(seat: int) -> Any:
        bot = made[seat]
        if bot is None:
            return random_action(seat)
        view = played.state.view(seat)
        if clock is None:
            return bot.choose(view)
        before = clock()
        action = bot.choose(view)
        think[seat].append(clock() - before)
        return action

    made.append(None)  # made[TABLE], made[-1]: the table has no computer player
    everyone_random = bots is None
    steps = 0
    while steps < max_steps:
        if watch is not None:
            replaced = watch(played.state)
            if replaced is not None:
                played.state = replaced
        state = played.state
        seats = state.to_act()
        steps += 1
        if len(seats) == 1 and not everyone_random:  # one decider: no round to organise
            seat = seats[0]
            bot = made[seat]
            if bot is None:
                action = random_action(seat)
            elif clock is None:
                action = bot.choose(state.view(seat))
            else:
                view = state.view(seat)
                before = clock()
                action = bot.choose(view)
                think[seat].append(clock() - before)
            if action is None:
                raise GameError(f"nobody acts: seat {seat} alone may act, and it waits")
            events.extend(state.apply(action, seat))
            moves.append((seat, action))
            if check is not None:
                played.problems.extend(check(state))
            continue
        if not seats:
            played.finished = state.is_terminal()
            if check is not None and state.replay().to_json() != state.to_json():
                played.problems.append("replay: the game's actions played again from its "
                                       "start lead to another state")
            break
        if everyone_random:
            seat = chooser.choice(seats)
            act(seat, random_action(seat))
            continue
        waited: set[int] = set()
        acted = False
        now = seats
        for seat in seats:
            if seat == TABLE or seat not in now:
                continue
            action = decide(seat)
            if action is None:
                waited.add(seat)
                continue
            act(seat, action)
            acted = True
            now = state.to_act()
        if TABLE in now and all(seat in waited for seat in now if seat != TABLE):
            act(TABLE, random_action(TABLE))
        elif not acted and now:
            raise GameError(f"nobody acts: seats {list(now)} may act but every one waits")
    return played


def protocol_problems(state: GameState, players: int) -> list[str]:
    """What is wrong with ``state`` as the protocol sees it, described; ``[]`` when nothing.

    Who may act is a set of seats of the table (or the table itself), empty exactly when the
    game is over; every seat that may act has something to do; there is one return per seat.
    """
    problems: list[str] = []
    seats = state.to_act()
    over = state.is_terminal()
    if over != (not seats):
        problems.append(f"to_act: {list(seats)} while the game is {'over' if over else 'on'}")
    stray = [s for s in seats if s != TABLE and not 0 <= s < players]
    if stray or len(set(seats)) != len(seats):
        problems.append(f"to_act: {list(seats)} is not a set of seats 0–{players - 1} or TABLE")
    for seat in seats:
        if not state.legal_actions(seat):
            problems.append(f"legal_actions: seat {seat} may act but has nothing to do")
    if len(state.returns()) != players:
        problems.append(f"returns: {len(state.returns())} numbers for {players} seats")
    return problems


# -- many games -------------------------------------------------------------------------------


def wilson_interval(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95 % with the default ``z``).

    >>> low, high = wilson_interval(80, 100)
    >>> round(low, 3), round(high, 3)
    (0.711, 0.867)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0–1) of ``values``; 0 for none.

    >>> percentile([5, 1, 4, 2, 3], 0.99), percentile([], 0.5)
    (5, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def _times(seconds: Sequence[float]) -> dict[str, float]:
    ms = [s * 1000.0 for s in seconds]
    median = statistics.median(ms) if ms else 0.0
    return {"median": round(median, 4), "p99": round(percentile(ms, 0.99), 4)}


@dataclass
class Report:
    """What :func:`play_games` measured, player by player (``a``, ``b``, … in the order named).

    ``wins`` counts a shared win as a share (two winners: half a win each); ``score`` sums
    each player's returns; ``events`` counts each kind of event per game (mean and most).
    """

    game: str
    players: tuple[str, ...]
    games: int = 0
    seconds: float = 0.0
    wins: list[float] = field(default_factory=list)
    score: list[float] = field(default_factory=list)
    think_s: list[list[float]] = field(default_factory=list)
    event_totals: Counter[str] = field(default_factory=Counter)
    event_most: Counter[str] = field(default_factory=Counter)
    problems: int = 0
    first_problems: list[str] = field(default_factory=list)
    unfinished: int = 0

    def __post_init__(self) -> None:
        count = len(self.players)
        self.wins = self.wins or [0.0] * count
        self.score = self.score or [0.0] * count
        self.think_s = self.think_s or [[] for _ in range(count)]

    def add(self, number: int, played: PlayedGame, player_at: Sequence[int]) -> None:
        """Count game ``number``, in which seat ``s`` was played by player ``player_at[s]``."""
        self.games += 1
        winners = played.winners
        for seat, value in enumerate(played.returns):
            player = player_at[seat]
            self.score[player] += value
            self.think_s[player].extend(played.think_s.get(seat, ()))
            if seat in winners:
                self.wins[player] += 1.0 / len(winners)
        for kind, count in played.event_counts().items():
            self.event_totals[kind] += count
            self.event_most[kind] = max(self.event_most[kind], count)
        if not played.finished:
            self.unfinished += 1
            played.problems.append("the game did not end")
        if played.problems:
            self.problems += len(played.problems)
            room = 5 - len(self.first_problems)
            self.first_problems.extend(f"game {number}: {p}" for p in played.problems[:room])

    @property
    def games_per_s(self) -> float:
        """Games played per second of wall-clock time (0 when not timed)."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def wins_by_bot(self) -> dict[str, float]:
        """Each level's share of the games won, players of one level together."""
        shares: dict[str, float] = {}
        for name, wins in zip(self.players, self.wins, strict=True):
            shares[name] = shares.get(name, 0.0) + wins / max(1, self.games)
        return shares

    def to_dict(self) -> dict[str, Any]:
        """Every figure, as the ``--json`` option prints it."""
        games = max(1, self.games)
        low, high = wilson_interval(self.wins[0], self.games)
        data: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "players": dict(zip(LETTERS, self.players, strict=False)),
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games_per_s, 2),
        }
        for letter, wins in zip(LETTERS, self.wins, strict=False):
            data[f"wins_{letter}"] = round(wins, 4)
        data["win_rate_a"] = round(self.wins[0] / games, 4)
        data["ci95"] = [round(low, 4), round(high, 4)]
        for letter, score in zip(LETTERS, self.score, strict=False):
            data[f"mean_score_{letter}"] = round(score / games, 2)
        data["wins_by_bot"] = {k: round(v, 4) for k, v in self.wins_by_bot().items()}
        data["think_ms"] = {letter: _times(times)
                            for letter, times in zip(LETTERS, self.think_s, strict=False)}
        data["events"] = {kind: {"mean": round(total / games, 2),
                                 "most": self.event_most[kind]}
                          for kind, total in sorted(self.event_totals.items())}
        data["unfinished"] = self.unfinished
        data["invariant_violations"] = self.problems
        return data

    def text(self) -> str:
        """The figures as lines of text."""
        data = self.to_dict()
        low, high = data["ci95"]
        lines = [
            f"{self.game}: {self.games} games, "
            + ", ".join(f"{letter} {name}" for letter, name in data["players"].items()),
            f"{'games per second':<28}{data['games_per_s']:.1f}   ({data['seconds']:.3f} s)",
            f"{'player':<10}{'level':<16}{'wins':>9}{'mean score':>12}"
            f"{'think median':>14}{'p99 (ms)':>10}",
        ]
        for letter, name in data["players"].items():
            think = data["think_ms"][letter]
            lines.append(f"{letter:<10}{name:<16}{data[f'wins_{letter}']:>9.1f}"
                         f"{data[f'mean_score_{letter}']:>12.2f}"
                         f"{think['median']:>14.3f}{think['p99']:>10.3f}")
        lines.append(f"{'win rate of a':<28}{100 * data['win_rate_a']:.1f} %   "
                     f"(95 % interval {100 * low:.1f}–{100 * high:.1f} %, Wilson)")
        shares = ", ".join(f"{name} {share:.1%}" for name, share in data["wins_by_bot"].items())
        lines.append(f"{'share of wins by level':<28}{shares}")
        lines.append(f"{'events per game':<28}{'mean':>8}{'most':>8}")
        for kind, counts in data["events"].items():
            lines.append(f"  {kind:<26}{counts['mean']:>8.1f}{counts['most']:>8d}")
        lines.append(f"{'unfinished games':<28}{self.unfinished}")
        lines.append(f"{'invariant violations':<28}{self.problems}")
        lines.extend(f"  {problem}" for problem in self.first_problems)
        return "\n".join(lines)


def play_games(
    game: Game,
    bots: Sequence[str | None],
    games: int,
    seed: int = 0,
    *,
    rotate: bool = False,
    check: Checker | None = None,
    clock: Callable[[], float] | None = None,
) -> Report:
    """Play ``games`` games of ``game`` between the players ``bots`` (a level name each,
    ``None`` for one that plays at random) and sum them up.

    Player ``a`` sits at seat 0, ``b`` at seat 1, …; with ``rotate`` (a tournament) the
    players move one seat on every game, so in a two-player game they swap colours. Each
    game's seed comes from ``seed`` and the game's number: a run replays exactly, only its
    times change. ``clock`` (``time.perf_counter`` from the command line) times it all.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise GameError(f"games={games!r} must be a whole number of games, 1 or more")
    players = game.players
    if len(bots) != players:
        raise GameError(f"{len(bots)} players named for a {players}-player game")
    report = Report(game.name, tuple("random" if name is None else name for name in bots))
    master = random.Random(seed)
    start = clock() if clock is not None else 0.0
    for number in range(games):
        shift = number % players if rotate else 0
        player_at = [(seat - shift) % players for seat in range(players)]
        seated = [bots[player] for player in player_at]
        played = play_game(game, master.getrandbits(64), bots=seated, check=check, clock=clock)
        report.add(number, played, player_at)
        del played  # the next game is played without this one in memory
    report.seconds = (clock() - start) if clock is not None else 0.0
    return report
