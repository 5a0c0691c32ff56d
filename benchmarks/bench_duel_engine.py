"""How fast the Keyboard Duel engine is: whole random games, and its building blocks.

Run ``python benchmarks/bench_duel_engine.py [--games 300]``. Prints figures; asserts
nothing. Finishes in about a minute.

* random games per second, side by side in one run (games interleaved, the same seeds):
  a full state (``legal_actions()`` + ``apply()``: undo stack, log, story, checks), a
  history-free one (``DuelState.new_game(seed, history=False)``, the same as
  ``copy(history=False)``) through the same loop, and the history-free ``rollout()``,
  which plays the very same games without making action or event objects. The
  history-free tables of action layouts are filled first by as many other games (a search
  fills them in its first playouts), and the two history-free lines take turns going
  first on each seed;
* microseconds per ``copy()``, ``copy(history=False)``, ``DuelState.from_view(view(), rng)``,
  ``apply()`` + ``undo()``, ``legal_actions()``, ``view()``, ``to_json()`` and
  ``from_json()`` on mid-game positions;
* the computer players' think time per decision (median and p99), turn and duel decisions
  apart;
* the exact duel odds, uncached and cached, and the honest odds of ``duel_odds``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from musicgames.duel import DuelState, duel_odds
from musicgames.duel.bots import make_bot
from musicgames.duel.odds import (
    _best,
    attacker_win_chance,
    attacker_win_probability,
    best_run_chance,
)

clock = time.process_time  # CPU time of this process: fairer on a busy machine


def loop_game(state: DuelState, seed: int) -> int:
    """Random legal play to the end through ``legal_actions()`` and ``apply()``."""
    rng = random.Random(seed)
    actions = 0
    while not state.is_terminal():
        choices = state.legal_actions()
        state.apply(choices[int(rng.random() * len(choices))])
        actions += 1
    return actions


def random_games(games: int) -> None:
    # The history-free listing keeps tables of action layouts (by the letters and corners in
    # a hand), filled as games are played: a search fills them in its first playouts. So
    # that every line is timed in that steady state, other games fill them first.
    for seed in range(games, 2 * games):
        loop_game(DuelState.new_game(seed, history=False), seed)
    spent = {"full": 0.0, "history-free": 0.0, "rollout": 0.0}
    actions = 0
    for seed in range(games):
        start = clock()
        actions += loop_game(DuelState.new_game(seed), seed)
        spent["full"] += clock() - start
        # The two history-free lines take turns going first: whichever meets a new hand
        # first pays for its layout.
        order = ("history-free", "rollout") if seed % 2 else ("rollout", "history-free")
        for kind in order:
            start = clock()
            if kind == "rollout":
                DuelState.new_game(seed, history=False).rollout(random.Random(seed))
            else:
                loop_game(DuelState.new_game(seed, history=False), seed)
            spent[kind] += clock() - start
    print(f"Random games, {games} of each, interleaved, the same seeds "
          f"({actions / games:.0f} actions a game), CPU time, after {games} other games "
          "filled the layout tables")
    print("  (each ratio: the full state's CPU time over that line's, for the very same games)")
    full = spent["full"]
    labels = {
        "full": "full state: legal_actions + apply",
        "history-free": "history-free: legal_actions + apply",
        "rollout": "history-free: rollout()",
    }
    for kind, seconds in spent.items():
        ratio = "" if kind == "full" else f"   {full / seconds:5.1f}× the full state"
        print(f"  {labels[kind]:<38} {games / seconds:8.0f} games/s{ratio}")


def mid_game_states(n: int) -> list[DuelState]:
    states = []
    for seed in range(n):
        state = DuelState.new_game(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 80)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def per_call_us(label: str, func: Callable[[Any], object], items: Sequence[Any],
                repeat: int = 5) -> None:
    times = []
    for _ in range(repeat):
        start = clock()
        for item in items:
            func(item)
        times.append((clock() - start) / len(items) * 1e6)
    print(f"  {label:<38} {statistics.median(times):8.1f} µs")


def apply_undo(state: DuelState) -> None:
    state.apply(state.legal_actions()[0])
    state.undo()


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-99 * len(ordered) // 100) - 1)]


def think_times(games: int) -> None:
    """Each level's think time per decision with a choice, in games against Casual."""
    print(f"Computer players' think time, {games} games each against Casual (decisions "
          "with two or more legal actions), CPU ms")
    for level in ("casual", "sharp"):
        times: dict[str, list[float]] = {"turn": [], "duel": []}
        for number in range(games):
            game = DuelState.new_game(seed=number)
            seat_of = number % 2
            bots = {seat_of: make_bot(level, number), 1 - seat_of: make_bot("casual", 99)}
            while not game.is_terminal():
                seat = game.seat_to_act
                assert seat is not None
                view = game.view(seat)
                start = clock()
                action = bots[seat].choose(view)
                spent = (clock() - start) * 1000
                if seat == seat_of and len(view.legal_actions()) > 1:
                    times["turn" if game.duel is None else "duel"].append(spent)
                game.apply(action)
        for kind, values in times.items():
            print(f"  {level.capitalize():<7} {kind} decisions ({len(values):4d}): median "
                  f"{statistics.median(values):6.2f} ms, p99 {_p99(values):7.2f} ms")


def odds_figures() -> None:
    print("Exact duel odds")
    pairs = [(a, d, x, y) for a in range(1, 7) for d in range(1, 7) for x in range(3)
             for y in range(3)]
    start = clock()
    attacker_win_probability.cache_clear()
    for pair in pairs:
        attacker_win_probability(*pair)
    each = (clock() - start) / len(pairs) * 1e6
    print(f"  {'attacker_win_probability, uncached':<38} {each:8.1f} µs")
    per_call_us("attacker_win_chance, cached", lambda p: attacker_win_chance(*p), pairs)
    rng = random.Random(1)
    runs = [((rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6), rng.randint(1, 6)),
             rng.randint(0, 2), rng.randint(0, 2)) for _ in range(200)]
    _best.cache_clear()
    start = clock()
    for own, opp, ups, downs in runs:
        best_run_chance(own, opp, ups=ups, downs=downs, attacker=False)
    each = (clock() - start) / len(runs) * 1e6
    print(f"  {'best_run_chance, cold cache':<38} {each:8.1f} µs")
    duels = []
    for seed in range(400):
        state = DuelState.new_game(seed)
        play = random.Random(seed)
        while not state.is_terminal() and state.duel is None:
            state.apply(play.choice(state.legal_actions()))
        if state.duel is not None:
            duels.append(state.view(state.seat_to_act))  # type: ignore[arg-type]
        if len(duels) == 30:
            break
    per_call_us("duel_odds(view), attacker", duel_odds, duels, repeat=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    random_games(args.games)
    states = mid_game_states(300)
    print(f"Building blocks, median of 5 passes over {len(states)} mid-game positions")
    per_call_us("copy()", DuelState.copy, states)
    per_call_us("copy(history=False)", lambda s: s.copy(history=False), states)
    per_call_us("DuelState.from_view(view(to_act), rng)",
                lambda s: DuelState.from_view(s.view(s.seat_to_act), random.Random(1)), states)
    per_call_us("apply() + undo()", apply_undo, states)
    per_call_us("copy() + legal_actions()", lambda s: s.copy().legal_actions(), states)
    per_call_us("copy(history=False) + legal_actions()",
                lambda s: s.copy(history=False).legal_actions(), states)
    per_call_us("view(to_act)", lambda s: s.view(s.seat_to_act), states)
    per_call_us("view(to_act).legal_actions()", lambda s: s.view(s.seat_to_act).legal_actions(),
                states)
    per_call_us("to_json()", DuelState.to_json, states)
    texts = [s.to_json() for s in states[:60]]
    per_call_us("from_json() (replays the game)", DuelState.from_json, texts, repeat=3)
    think_times(max(2, args.games // 50))
    odds_figures()


if __name__ == "__main__":
    main()
