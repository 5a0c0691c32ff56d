"""How fast the Keyboard Duel engine is: whole random games, and its building blocks.

Run ``python benchmarks/bench_duel_engine.py``. Prints figures; asserts nothing.

* random games per second, choosing uniformly from ``legal_actions()`` of the state, and
  from the acting seat's ``view()`` (what a computer player sees);
* microseconds per ``clone()``, ``apply()`` + ``undo()``, ``legal_actions()``, ``view()``,
  ``to_json()`` and ``from_json()`` on mid-game positions;
* the exact duel odds, uncached and cached.
"""

from __future__ import annotations

import random
import statistics
import time

from musicgames.duel import DuelState
from musicgames.duel.odds import (
    _best,
    attacker_win_chance,
    attacker_win_probability,
    best_run_chance,
)

GAMES = 400


def random_games(n: int, via_view: bool) -> tuple[float, float]:
    """Games per second and actions per game, random legal play."""
    actions = 0
    start = time.perf_counter()
    for seed in range(n):
        state = DuelState.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if via_view:
                choices = state.view(state.to_act).legal_actions()  # type: ignore[arg-type]
            else:
                choices = state.legal_actions()
            state.apply(choices[int(rng.random() * len(choices))])
            actions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / n


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


def per_call_us(label: str, func, items: list, repeat: int = 5) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            func(item)
        times.append((time.perf_counter() - start) / len(items) * 1e6)
    print(f"  {label:<34} {statistics.median(times):8.1f} µs")


def apply_undo(state: DuelState) -> None:
    state.apply(state.legal_actions()[0])
    state.undo()


def fresh_legal(state: DuelState) -> None:
    state.clone().legal_actions()


def main() -> None:
    print(f"Keyboard Duel engine — {GAMES} random games each")
    for via_view in (False, True):
        rate, length = random_games(GAMES, via_view)
        source = "seat views" if via_view else "the state"
        print(f"  random play from {source:<12} {rate:8.0f} games/s ({length:.0f} actions/game)")
    states = mid_game_states(300)
    print(f"Building blocks, median of 5 passes over {len(states)} mid-game positions")
    per_call_us("clone()", DuelState.clone, states)
    per_call_us("apply() + undo()", apply_undo, states)
    per_call_us("clone() + legal_actions()", fresh_legal, states)
    per_call_us("view(to_act)", lambda s: s.view(s.to_act), states)
    per_call_us("view(to_act).legal_actions()", lambda s: s.view(s.to_act).legal_actions(),
                states)
    per_call_us("to_json()", DuelState.to_json, states)
    texts = [s.to_json() for s in states[:60]]
    per_call_us("from_json() (replays the game)", DuelState.from_json, texts, repeat=3)
    print("Exact duel odds")
    pairs = [(a, d, x, y) for a in range(1, 7) for d in range(1, 7) for x in range(3)
             for y in range(3)]
    start = time.perf_counter()
    attacker_win_probability.cache_clear()
    for pair in pairs:
        attacker_win_probability(*pair)
    each = (time.perf_counter() - start) / len(pairs) * 1e6
    print(f"  {'attacker_win_probability, uncached':<34} {each:8.1f} µs")
    per_call_us("attacker_win_chance, cached", lambda p: attacker_win_chance(*p), pairs)
    rng = random.Random(1)
    runs = [((rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6), rng.randint(1, 6)),
             rng.randint(0, 2), rng.randint(0, 2)) for _ in range(200)]
    _best.cache_clear()
    start = time.perf_counter()
    for own, opp, ups, downs in runs:
        best_run_chance(own, opp, ups=ups, downs=downs, attacker=False)
    each = (time.perf_counter() - start) / len(runs) * 1e6
    print(f"  {'best_run_chance, cold cache':<34} {each:8.1f} µs")


if __name__ == "__main__":
    main()
