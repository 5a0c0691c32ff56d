"""Keyboard Duel computer players: strength and speed against the issue's targets.

Run: ``python benchmarks/bench_duel.py [--games 100] [--seed 1]`` (about two minutes).

Plays three tournaments (each colours alternating, same code as
``python -m musicgames.games tournament keyboard_duel``) and prints the figures with the targets:

* Sharp vs Casual: Sharp wins ≥ 80 %; Sharp thinks ≤ 30 ms (median), ≤ 200 ms (p99);
* Casual vs Random: Casual wins ≥ 70 %;
* Random vs Random: ≥ 300 whole games per second.

Then each level's blunder rate, in games against Sharp (colours alternating):

* give-aways: turn decisions that move a token for nothing (``gives_points_away``: to a
  key of lower value, no merge, duel or chord bonus gained), per 100 turn decisions that
  had another choice;
* unanswered attacks: defences of a token worth ≥ 6 points (``defended_worth``) where the
  hand held a run that raises the chance of keeping it (``answer_is_useful``, exact odds)
  and the player locked in without a card, as a share of such defences.

Speed is printed, never asserted: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from musicgames.duel import DuelState, LockIn, Move, Shift
from musicgames.duel.bots import (
    WORTH_ANSWERING,
    answer_is_useful,
    defended_worth,
    gives_points_away,
    make_bot,
)
from musicgames.games import load_game
from musicgames.play import Report, play_games


def _line(label: str, value: str, target: str, met: bool) -> str:
    return f"  {label:<34}{value:>16}   target {target:<10} {'met' if met else 'MISSED'}"


def play_tournament(name_a: str, name_b: str, games: int, seed: int) -> Report:
    """``games`` games of Keyboard Duel between two computer players, colours alternating."""
    return play_games(load_game("keyboard_duel"), [name_a, name_b], games, seed, rotate=True,
                      clock=time.perf_counter)


def _summary(result: Report) -> str:
    data = result.to_dict()
    low, high = data["ci95"]
    name_a, name_b = (name.capitalize() for name in result.players)
    return (f"{name_a} vs {name_b}: {data['wins_a']:.0f}–{data['wins_b']:.0f} over "
            f"{result.games} games, win rate {100 * data['win_rate_a']:.1f} % "
            f"(95 % CI {100 * low:.1f}–{100 * high:.1f} %), mean scores "
            f"{data['mean_score_a']:.1f}–{data['mean_score_b']:.1f}, "
            f"{data['games_per_s']:.1f} games/s")


def sharp_real_choices(games: int, seed: int) -> dict[str, list[float]]:
    """Sharp's think times (ms) against Casual, only where it had two or more legal
    actions, split into turn decisions and duel decisions."""
    times: dict[str, list[float]] = {"turn": [], "duel": []}
    master = random.Random(seed)
    for number in range(games):
        game = DuelState.new_game(seed=master.getrandbits(64))
        sharp_seat = number % 2
        bots = {sharp_seat: make_bot("sharp", master.getrandbits(64)),
                1 - sharp_seat: make_bot("casual", master.getrandbits(64))}
        while not game.is_terminal():
            seat = game.seat_to_act
            assert seat is not None
            view = game.view(seat)
            start = time.perf_counter()
            action = bots[seat].choose(view)
            spent = (time.perf_counter() - start) * 1000
            if seat == sharp_seat and len(game.legal_actions()) > 1:
                times["turn" if game.duel is None else "duel"].append(spent)
            game.apply(action)
    return times


def blunder_rates(level: str, games: int, seed: int) -> tuple[int, int, int, int]:
    """(give-aways, turn decisions with another choice, unanswered attacks, attacks worth
    answering) of ``level`` in games against Sharp."""
    master = random.Random(seed)
    give_aways = choices = unanswered = worth = 0
    for number in range(games):
        game = DuelState.new_game(seed=master.getrandbits(64))
        seat_of = number % 2
        bots = {seat_of: make_bot(level, master.getrandbits(64)),
                1 - seat_of: make_bot("sharp", master.getrandbits(64))}
        while not game.is_terminal():
            seat = game.seat_to_act
            assert seat is not None
            view = game.view(seat)
            action = bots[seat].choose(view)
            if seat == seat_of:
                duel = view.duel
                if duel is None:
                    moves = [a for a in view.legal_actions(distinct=True)
                             if type(a) in (Move, Shift)]
                    risky = [a for a in moves if gives_points_away(view, a)]
                    if risky and len(risky) < len(view.legal_actions(distinct=True)):
                        choices += 1
                        give_aways += gives_points_away(view, action)
                elif (seat == duel.defender and not duel.defender_run
                      and defended_worth(view) >= WORTH_ANSWERING and answer_is_useful(view)):
                    worth += 1
                    unanswered += isinstance(action, LockIn)
            game.apply(action)
    return give_aways, choices, unanswered, worth


def look_ahead_ms() -> tuple[int, dict[str, float]]:
    """Each thinking level's CPU time per turn decision (best of three passes) on a fixed
    set of mid-game positions: the cost of its look-ahead, comparable across versions."""
    views = []
    for seed in range(60):
        state = DuelState.new_game(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 70)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.duel is None and len(state.legal_actions()) > 1:
            views.append(state.view(state.seat_to_act))  # type: ignore[arg-type]
    out = {}
    for level in ("casual", "sharp"):
        passes = []
        for _ in range(3):
            start = time.process_time()
            for view in views:
                make_bot(level, 1).choose(view)
            passes.append((time.process_time() - start) / len(views) * 1000)
        out[level] = min(passes)
    return len(views), out


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-99 * len(ordered) // 100) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Keyboard Duel bots — {args.games} games per tournament, seed {args.seed}, "
          f"Python {platform.python_version()} on {platform.machine()}")

    sharp = play_tournament("sharp", "casual", args.games, args.seed)
    casual = play_tournament("casual", "random", args.games, args.seed)
    rand = play_tournament("random", "random", args.games, args.seed)
    for result in (sharp, casual, rand):
        print(_summary(result))

    s = sharp.to_dict()
    think = s["think_ms"]["a"]
    print("targets:")
    print(_line("Sharp beats Casual", f"{100 * s['win_rate_a']:.1f} %", "≥ 80 %",
                s["win_rate_a"] >= 0.80))
    c = casual.to_dict()
    print(_line("Casual beats Random", f"{100 * c['win_rate_a']:.1f} %", "≥ 70 %",
                c["win_rate_a"] >= 0.70))
    print(_line("Sharp think time, median", f"{think['median']:.2f} ms", "≤ 30 ms",
                think["median"] <= 30))
    print(_line("Sharp think time, p99", f"{think['p99']:.2f} ms", "≤ 200 ms",
                think["p99"] <= 200))
    r = rand.to_dict()
    print(_line("Random vs Random", f"{r['games_per_s']:.0f} games/s", "≥ 300/s",
                r["games_per_s"] >= 300))
    casual_think = s["think_ms"]["b"]
    print(f"  (Casual think time: median {casual_think['median']:.2f} ms, "
          f"p99 {casual_think['p99']:.2f} ms)")
    # The tournament's median counts every decision, forced ones (a single legal action)
    # included; here only Sharp's real choices count.
    real = sharp_real_choices(max(1, args.games // 4), args.seed)
    for kind, values in real.items():
        if values:
            print(f"  Sharp, {kind} decisions with a choice ({len(values)}): median "
                  f"{statistics.median(values):.2f} ms, p99 {_p99(values):.2f} ms, "
                  f"max {max(values):.1f} ms")
    count, looks = look_ahead_ms()
    print(f"Look-ahead, CPU per turn decision on {count} fixed mid-game positions (best of 3): "
          + ", ".join(f"{level.capitalize()} {ms:.2f} ms" for level, ms in looks.items()))
    games = max(2, args.games // 5)
    print(f"Blunder rates, {games} games of each level against Sharp:")
    for level in ("random", "casual", "sharp"):
        give, turns, unanswered, worth = blunder_rates(level, games, args.seed)
        print(f"  {level.capitalize():<7} gives points away in {give:3d} of {turns:4d} turn "
              f"decisions that could ({100 * give / max(1, turns):5.1f} per 100); leaves "
              f"{unanswered:3d} of {worth:3d} attacks on keys worth ≥ {WORTH_ANSWERING} "
              f"unanswered with a useful run ({100 * unanswered / max(1, worth):5.1f} %)")


if __name__ == "__main__":
    main()
