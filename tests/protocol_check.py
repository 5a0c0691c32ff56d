"""One invariant check for both games, written against the game protocol.

:func:`check_state` checks one state of either game: the protocol's own promises (who may
act, that every listed action can be played, that a refused one raises
:class:`~musicgames.protocol.GameError` with its rule and changes nothing, that a copy and a
saved game are the same game, one return per seat) and each game's own invariants (its
cards, its tokens, its turn order: :data:`GAME_CHECKS`). :func:`play_checked` plays a whole
random game through :func:`musicgames.play.play_game` with every state checked, saving and
loading the game at random points and following it with a copy made along the way.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import musicgames.duel as duel
import musicgames.snap as snap
from musicgames.games import TABLE, GameError, load_game
from musicgames.play import PlayedGame, play_game, protocol_problems
from musicgames.protocol import Game, GameState

__all__ = ["GAME_CHECKS", "GameChecks", "Illegal", "check_state", "table_for", "play_checked"]

#: A rule as the rules pages number them: S1–S17, D1–D16, with a letter for a part (D11b).
RULE = re.compile(r"^[SD]\d{1,2}[a-z]?$")

#: What cannot be an action of either game.
NOT_ACTIONS: tuple[object, ...] = (None, "flip", 3, (1, 2), object())


@dataclass(frozen=True)
class Illegal:
    """An action that ``seat`` may not take now, and the error it must raise (``GameError``
    when any refusal will do); ``rule`` says whether the refusal must name a rule."""

    action: object
    seat: int
    error: type[GameError] = GameError
    rule: bool = True


def _nothing(*args: object) -> None:
    return None


@dataclass(frozen=True)
class GameChecks:
    """One game's own checks.

    * ``invariants(state, thorough)`` asserts its cards, tokens and turn order (the
      costlier checks only when ``thorough``);
    * ``illegal(state, rng)`` makes an action its rules refuse (or ``None``), mixed with the
      ones every game refuses;
    * ``more(state, rng)`` checks something else of the game in a thorough state;
    * ``finished(state, seed)`` checks a game that has ended;
    * ``table(rng)`` draws the settings of a game to play and who plays it: a computer
      player's level or ``None`` (random legal actions) per seat, or ``None`` for every
      seat at random (the default: ``({}, None)``).
    """

    invariants: Callable[[Any, bool], None]
    illegal: Callable[[Any, random.Random], Illegal | None] = _nothing
    more: Callable[[Any, random.Random], None] = _nothing
    finished: Callable[[Any, int], None] = _nothing
    table: Callable[[random.Random], tuple[dict[str, Any], list[str | None] | None]] = (
        lambda rng: ({}, None))


def _generic_illegal(game: Game, state: GameState, rng: random.Random) -> Illegal | None:
    """An action every game refuses: not an action, out of turn, off the table, too late."""
    seats = state.to_act()
    kind = rng.randrange(4)
    if kind == 0 or not seats:
        if seats and rng.random() < 0.5:
            return Illegal(rng.choice(NOT_ACTIONS), rng.choice(seats), rule=False)
        if not seats:
            return Illegal(rng.choice(NOT_ACTIONS), rng.randrange(game.players), rule=False)
    actor = rng.choice(seats)
    actions = state.legal_actions(actor)
    if not actions:
        return None
    action = rng.choice(list(actions))
    if kind == 1:  # a seat that may not act now plays another's action: refused, any rule
        others = [s for s in range(game.players) if s not in seats]
        if not others:
            return None
        return Illegal(action, rng.choice(others), rule=False)
    if kind == 2:
        return Illegal(action, rng.choice([game.players, game.players + 3, -2]), rule=False)
    return Illegal(rng.choice(NOT_ACTIONS), actor, rule=False)


def refuse(state: GameState, illegal: Illegal, before: str | None = None) -> None:
    """``illegal`` must raise its error with a rule and leave the state exactly as it was
    (``before``: its ``to_json()``, when known)."""
    before = state.to_json() if before is None else before
    try:
        state.apply(illegal.action, illegal.seat)
    except GameError as err:
        assert isinstance(err, illegal.error), f"{illegal}: {type(err).__name__} {err}"
        rule = err.rule
        assert rule is None or (isinstance(rule, str) and RULE.match(rule)), (illegal, rule)
        if illegal.rule:
            assert rule is not None, f"{illegal} was refused without a rule: {err}"
        assert str(err), illegal
    else:
        raise AssertionError(f"{illegal} was played")
    assert state.to_json() == before, f"{illegal} changed the game"


@dataclass
class Checked:
    """What a checked game came across, for the tests' guards."""

    states: int = 0
    legal_tried: int = 0
    refused: int = 0
    saves: int = 0
    rules: set[str] = field(default_factory=set)


def check_state(game: Game, state: GameState, rng: random.Random, *, thorough: bool,
                seen: Checked | None = None, refuse_rate: float = 0.25) -> None:
    """Check ``state`` of ``game`` in every way the protocol and the game promise.

    In every state: the protocol's invariants (:func:`~musicgames.play.protocol_problems`),
    the game's own, that only the seats that may act have actions, and one legal action
    played on a copy. With ``thorough``, also: every legal action of every seat that may act
    played on a copy, the copies and the saved game compared in full, and an illegal action
    of each kind refused; otherwise an illegal action is refused in a share ``refuse_rate``
    of the states (``to_json()`` grows with the game: its comparisons cost the most).
    """
    seen = seen if seen is not None else Checked()
    seen.states += 1
    problems = protocol_problems(state, game.players)
    assert not problems, problems
    own = GAME_CHECKS.get(game.name)
    if own is not None:
        own.invariants(state, thorough)
        if thorough:
            own.more(state, rng)
    seats = state.to_act()
    assert set(seats) <= {*range(game.players), TABLE}
    assert len(state.returns()) == game.players
    for seat in range(game.players):
        if seat not in seats:
            assert not state.legal_actions(seat), f"seat {seat} may not act but has actions"
    light = state.copy(history=False)
    assert light.to_act() == seats and light.is_terminal() == state.is_terminal()
    assert tuple(light.returns()) == tuple(state.returns())

    # every listed action can be played (on a copy), and the state stays as it was
    text = state.to_json() if thorough else ""
    for seat in seats if thorough else (rng.choice(seats),) if seats else ():
        actions = list(state.legal_actions(seat))
        for action in actions if thorough else [rng.choice(actions)]:
            trial = state.copy(history=False)
            events = trial.apply(action, seat)
            assert isinstance(events, tuple)
            assert all(isinstance(e.to_dict()["type"], str) for e in events)
            seen.legal_tried += 1
        if thorough:
            assert list(light.legal_actions(seat)) == actions

    makers: list[Callable[[], Illegal | None]] = [lambda: _generic_illegal(game, state, rng)]
    if own is not None:
        makers.append(lambda: own.illegal(state, rng))
    if thorough:
        # trying actions changed nothing; a copy is the same game (and a saved game: at the
        # random points where play_checked saves and loads it)
        assert state.to_json() == text, "trying the legal actions changed the game"
        copied = state.copy()
        assert copied is not state and copied.to_json() == text
    elif rng.random() < refuse_rate:
        text = state.to_json()
        makers = [rng.choice(makers)]
    else:
        return
    # a refused action raises a GameError with its rule and changes nothing
    for make in makers:
        illegal = make()
        if illegal is not None:
            refuse(state, illegal, text)
            seen.refused += 1


def table_for(name: str, seed: int) -> tuple[Game, list[str | None] | None]:
    """Game ``name`` with settings and players drawn from ``seed`` (each game's ``table``)."""
    own = GAME_CHECKS.get(name)
    settings, bots = own.table(random.Random(f"table {seed}")) if own else ({}, None)
    return load_game(name, **settings), bots


def play_checked(
    game: Game | str,
    seed: int,
    *,
    bots: Sequence[str | None] | None = None,
    thorough_every: int = 8,
    save_rate: float = 0.02,
    seen: Checked | None = None,
) -> PlayedGame:
    """Play one random game of ``game`` (a game, or a name: then with settings and players
    drawn from ``seed``, :func:`table_for`) from ``seed`` (random legal actions, or the ``bots``)
    with every state checked (:func:`check_state`, in full one state in ``thorough_every``),
    saving and loading it at random points (``save_rate`` per state) and following the game
    with a copy made at a random point: the copy, given the same actions, ends in the same
    state; and the finished game replays (:meth:`~musicgames.protocol.GameState.replay`).
    """
    if isinstance(game, str):
        game, bots = table_for(game, seed)
    rng = random.Random(f"check {seed}")
    seen = seen if seen is not None else Checked()
    count = moves = 0
    twin: list[Any] = []  # [copy, number of moves played when it was made]
    follow_at = rng.randrange(200)
    own = GAME_CHECKS.get(game.name)

    def after(state: GameState) -> list[str]:
        nonlocal moves
        moves += 1
        if own is not None and bots is not None:  # states the watch does not see
            own.invariants(state, False)
        return []

    def watch(state: GameState) -> GameState | None:
        nonlocal count
        check_state(game, state, rng, thorough=count % thorough_every == 0, seen=seen)
        count += 1
        if count == follow_at and not state.is_terminal():
            twin[:] = [state.copy(), moves]
        if rng.random() < save_rate and not state.is_terminal():
            seen.saves += 1
            loaded = game.from_json(state.to_json())
            assert loaded.to_json() == state.to_json()
            return loaded
        return None

    played = play_game(game, seed, bots=bots, watch=watch, check=after)
    assert not played.problems, played.problems[:5]
    assert played.finished, f"{game.name} game {seed} did not end"
    final = played.state
    assert final.is_terminal() and final.to_act() == ()
    if twin:
        copy, start = twin
        for seat, action in played.moves[start:]:
            copy.apply(action, seat)
        assert copy.to_json() == final.to_json(), f"game {seed}: the copy went another way"
    replayed = final.replay()  # its actions played again from the start: the same game
    assert replayed is not final and replayed.to_json() == final.to_json(), seed
    if own is not None:
        own.finished(final, seed)
    return played


# -- Keyboard Duel's own invariants ---------------------------------------------------------


@functools.cache
def _card_multiplier(piano_index: int, pitch_class: int) -> int:
    """Recounted from the triad itself: root ×3, third ×2, anything else ×1 (D4)."""
    triad = duel.PIANO_CARDS[piano_index].triad
    if pitch_class == triad.root.pitch_class:
        return 3
    if pitch_class == triad.third.pitch_class:
        return 2
    return 1


def _multiplier(state: duel.DuelState, key: int) -> int:
    return _card_multiplier(state.piano_cards[key // 12].index, key % 12)


def _recount(state: duel.DuelState, held: list[duel.Token | None]) -> tuple[int, int]:
    """What each seat would bank now, from the board alone (D13)."""
    scores = [0, 0]
    for key, token in enumerate(held):
        if token is not None:
            scores[token.seat] += token.power * _multiplier(state, key)
    for side, card in enumerate(state.piano_cards):
        holders = [held[side * 12 + t.pitch_class] for t in card.triad.tones]
        seats = {h.seat for h in holders if h is not None}
        if all(h is not None for h in holders) and len(seats) == 1:
            scores[seats.pop()] += 1
    return (scores[0], scores[1])


def duel_invariants(state: duel.DuelState, thorough: bool = True) -> None:
    """Keyboard Duel's cards, tokens, scores and turn order, recounted (D1–D16)."""
    # every card in exactly one place: a hand, the draw pile or the discard pile
    cards = [*state.hand(0), *state.hand(1), *state.draw_pile, *state.discard]
    assert sorted(cards) == list(range(duel.DECK_SIZE))
    assert state.hand_size(0) <= 5 and state.hand_size(1) <= 5
    # five tokens a player, whose states add up: unplaced + on the board + merged + beaten
    arriving = state.arriving
    arriving_ids = {(t.seat, t.index) for t in arriving}
    on_board: list[duel.Token] = []
    for seat in (0, 1):
        tokens = state.tokens(seat)
        assert [t.index for t in tokens] == [0, 1, 2, 3, 4]
        counts = Counter(t.state for t in tokens)
        assert sum(counts.values()) == 5 and set(counts) <= set(duel.TokenState)
        for t in tokens:
            if t.state is duel.TokenState.UNPLACED:
                assert t.power == 0 and t.key is None and t.score == 0
            elif t.state is duel.TokenState.ON_BOARD:
                assert t.key is not None
                assert 1 <= t.power <= 6 and 0 <= t.key < duel.BOARD_KEYS
                on_board.append(t)
            else:
                assert 1 <= t.power <= 6 and t.key is None and t.score == 0
    # at most one token per key, apart from tokens arriving at a held key (D9, D11)
    settled = [t for t in on_board if (t.seat, t.index) not in arriving_ids]
    held: list[duel.Token | None] = [None] * duel.BOARD_KEYS
    for t in settled:
        assert t.key is not None and held[t.key] is None, f"two tokens on key {t.key}"
        held[t.key] = t
        assert t.score == t.power * _multiplier(state, t.key)
    assert len(on_board) == len(settled) + len(arriving)
    for t in arriving:
        assert t.key is not None and held[t.key] is not None
        assert t.seat == state.turn and t.score == 0
    if thorough:
        assert [state.board_token(k) for k in range(duel.BOARD_KEYS)] == held
    # scores recounted from the board
    assert sum(r[0] for r in state.round_scores) == state.totals[0]
    assert sum(r[1] for r in state.round_scores) == state.totals[1]
    if state.is_terminal():
        assert state.seat_to_act is None and state.legal_actions() == ()
        assert state.round >= 3 and state.totals[0] != state.totals[1]
        assert state.winner == (0 if state.totals[0] > state.totals[1] else 1)
        return
    assert state.running_scores() == _recount(state, held)
    # whose decision it is
    info = state.duel
    if state.phase is duel.Phase.TURN:
        assert info is None and arriving == () and state.seat_to_act == state.turn
    else:
        assert info is not None and info.attacker == state.turn
        attacking = state.phase is duel.Phase.ATTACK
        assert state.seat_to_act == (info.attacker if attacking else info.defender)
        holder = held[info.key]
        assert holder is not None and holder.seat == info.defender
        assert len(info.attacker_dice) == (info.attacker_power + 1) // 2
        assert len(info.defender_dice) == (info.defender_power + 1) // 2
        assert [t.key for t in arriving][0] == info.key
    keys = [t.key for t in arriving]
    assert keys == sorted(keys)  # type: ignore[type-var]
    # the legal actions: distinct, non-empty, and (checked in some states, for time) the same
    # from the seat's view, with the Wilds-as-one list inside the full one
    actions = state.legal_actions()
    assert actions and len(set(actions)) == len(actions)
    if thorough:
        assert set(state.legal_actions(distinct=True)) <= set(actions)
        assert state.view(state.seat_to_act).legal_actions() == actions  # type: ignore[arg-type]
    assert 1 <= state.turn_number <= 60
    assert [c.index for c in state.piano_cards][0] != [c.index for c in state.piano_cards][1]
    assert all(0 <= c.index < len(duel.PIANO_CARDS) for c in state.piano_cards)


def duel_candidate(rng: random.Random, state: duel.DuelState) -> object:
    """A random action, built from the hand some of the time: mostly illegal, not always."""
    seat = state.seat_to_act
    hand = list(state.hand(seat)) if seat is not None else []

    def card() -> int:
        return rng.choice(hand) if hand and rng.random() < 0.7 else rng.randrange(-1, 43)

    kind = rng.randrange(7)
    if kind == 0:
        size = rng.randint(0, 7)
        pool = hand if hand and rng.random() < 0.6 else list(range(duel.DECK_SIZE))
        cards = tuple(rng.sample(pool, min(size, len(pool))))
        return duel.Place(cards, rng.randrange(-2, 26))
    if kind == 1:
        return duel.Move(card(), rng.randrange(-1, 25), rng.randint(-4, 4))
    if kind == 2:
        return duel.Shift(card(), rng.randint(-1, 2))
    if kind == 3:
        return duel.DuelCard(card())
    if kind == 4:
        return duel.LockIn()
    if kind == 5:
        return duel.EndTurn()
    return rng.choice([None, "Place", 3, (1, 2)])


def _duel_illegal(state: duel.DuelState, rng: random.Random) -> Illegal | None:
    """A random candidate the rules refuse (a legal one is checked as legal instead)."""
    seat = state.seat_to_act
    if seat is None:
        return None
    candidate = duel_candidate(rng, state)
    if candidate in state.legal_actions():
        assert state.is_legal(candidate)
        return None
    assert not state.is_legal(candidate)
    return Illegal(candidate, seat, duel.DuelError, rule=False)


def _duel_more(state: duel.DuelState, rng: random.Random) -> None:
    """An action is refused to the other seat; played and undone, it leaves the game as it
    was (a duel's dice included)."""
    seat = state.seat_to_act
    if seat is None:
        return
    trial = state.copy()
    before = trial.to_json()
    action = rng.choice(list(trial.legal_actions()))
    try:  # the other seat may not play it (D7)
        trial.apply(action, 1 - seat)
    except duel.NotYourTurnError:
        pass
    else:
        raise AssertionError(f"{action} played by the seat whose decision it is not")
    trial.apply(action, seat)
    assert trial.undo() == action
    assert trial.to_json() == before


def _duel_finished(state: duel.DuelState, seed: int) -> None:
    """Every 50th game is reloaded from its save (every game replays: :func:`play_checked`)."""
    if seed % 50 == 0:
        assert duel.DuelState.from_json(state.to_json()).to_json() == state.to_json()


# -- Note Snap's own invariants -------------------------------------------------------------


def snap_invariants(state: snap.SnapState, thorough: bool = True) -> None:
    """Note Snap's cards, turn order, call cycle, S9 flag and winners
    (:func:`musicgames.snap.check_invariants`, re-derived from the game's events)."""
    problems = snap.check_invariants(state)
    assert not problems, problems
    if state.is_terminal():
        assert state.winners, "the game ended without a winner"
        assert sum(state.hand_sizes) + len(state.centre) == snap.DECK_SIZE


def _snap_seat(action: object) -> int:
    seat = getattr(action, "seat", TABLE)
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else 0


def _snap_illegal(state: snap.SnapState, rng: random.Random) -> Illegal | None:
    """One of the ways to break Note Snap's rules, with the error it must raise."""
    phase = state.phase
    players = state.players
    kind = rng.randrange(7)
    if state.is_terminal():
        seat = rng.randrange(players)
        return Illegal(snap.Flip(seat), seat, snap.GameOverError, rule=False)
    if kind == 0 and phase is snap.Phase.FLIP:  # a flip out of turn (S5)
        seat = state.to_flip
        assert seat is not None
        other = rng.choice([s for s in range(players) if s != seat])
        return Illegal(snap.Flip(other), other, snap.NotYourTurnError)
    if kind == 1 and phase is snap.Phase.FLIP:  # a slap with no card waiting, a close
        action = rng.choice([snap.Slap(0, 200.0), snap.CloseSlaps()])
        return Illegal(action, _snap_seat(action), snap.PhaseError, rule=False)
    if kind == 1:  # a flip while a card waits for slaps
        seat = rng.randrange(players)
        return Illegal(snap.Flip(seat), seat, snap.PhaseError, rule=False)
    if kind == 2 and phase is snap.Phase.SLAPS:  # a slap at an impossible time (S14)
        slappers = [s for s in state.to_act() if s != TABLE]
        if not slappers:
            return None
        seat = rng.choice(slappers)
        window = state.config.slap_window_ms
        ms, error = rng.choice([(-0.5, snap.ReactionTimeError), (math.nan, snap.ReactionTimeError),
                                ("fast", snap.ReactionTimeError),
                                (window + 0.25, snap.LateSlapError)])
        return Illegal(snap.Slap(seat, ms), seat, error, rule=error is snap.LateSlapError)
    if kind == 3 and state.slaps:  # a second slap by the same seat
        seat = rng.choice(state.slaps).seat
        return Illegal(snap.Slap(seat, 100.0), seat, snap.DoubleSlapError, rule=False)
    if kind == 4 and phase is snap.Phase.FLIP:  # a wrong call, or a call out of place (S10, S15)
        seat = state.to_flip
        assert seat is not None
        if state.config.call_modes[seat] is snap.CallMode.AUTO:
            return Illegal(snap.Flip(seat, rng.choice(["Do", "Re"])), seat, snap.CallModeError)
        flip, error = rng.choice([(snap.Flip(seat, None), snap.CallModeError),
                                  (snap.Flip(seat, "Ut"), snap.CallError),
                                  (snap.Flip(seat, "Sol4"), snap.CallError)])
        return Illegal(flip, seat, error, rule=False)
    if kind == 5:  # a seat that does not exist, or is no seat number at all
        seat = rng.choice([players, players + 3, "1", 1.0, None])
        action = snap.Flip(seat) if phase is snap.Phase.FLIP else snap.Slap(seat, 300.0)
        return Illegal(action, seat, snap.SeatError, rule=False)  # type: ignore[arg-type]
    # something that is not a Note Snap action at all
    return Illegal(rng.choice(["flip", None, ("slap", 0, 300.0)]), rng.randrange(players),
                   snap.ActionError, rule=False)


def _snap_more(state: snap.SnapState, rng: random.Random) -> None:
    """A flip is made by the seat to flip, with the call due (turn order, S5; the cycle)."""
    if state.phase is not snap.Phase.FLIP:
        return
    seat, call = state.to_flip, state.next_call
    assert seat is not None
    trial = state.copy(history=False)
    flips = [a for a in trial.legal_actions(seat) if isinstance(a, snap.Flip)]
    assert flips, "the seat to flip cannot flip"
    flipped = trial.apply(rng.choice(flips), seat)[0]
    assert isinstance(flipped, snap.Flipped)
    assert flipped.seat == seat and flipped.expected == call


def _snap_finished(state: snap.SnapState, seed: int) -> None:
    """A game has winners, and nobody wins holding cards when the game ended as the classic
    game does (S11; a shorter game's winners hold the fewest cards, which
    :func:`snap_invariants` checks); every 7th game replays from its events alone."""
    assert state.winners, f"game {seed} ended without a winner"
    if state.ended_by == "empty_hand":
        assert all(state.hand_sizes[w] == 0 for w in state.winners)
    if seed % 7 == 0:
        replayed = snap.from_events(state.events, state.config)
        assert replayed.to_json() == state.to_json() and replayed.events == state.events


def snap_table(rng: random.Random) -> tuple[dict[str, Any], list[str | None] | None]:
    """A random Note Snap table: 2–4 seats, windows, who calls, how the game ends, and at
    each seat a computer player or (one seat in four) random legal actions. A timed game is
    played by random actions alone, the table's among them (it may say the time is up).
    Random actions slap half the cards, so a table of them alone plays thousands of cards:
    such a table stops after a card limit."""
    players = rng.choice((2, 3, 4))
    bots = [None if rng.random() < 0.25 else rng.choice(tuple(snap.LEVELS))
            for _ in range(players)]
    settings = {
        "players": players,
        "tie_window_ms": rng.choice((0.0, 10.0, 60.0)),
        "slap_window_ms": rng.choice((900.0, 2500.0)),
        "call_modes": tuple(rng.choice(("auto", "self")) for _ in range(players)),
        "length": rng.choice(("classic",) * 6 + ("short", "timed")),
        "card_limit": rng.choice((None,) * 8 + (40,)),
    }
    if settings["length"] == "timed" or all(bot is None for bot in bots):
        settings["card_limit"] = rng.choice((40, 100, 200))
        return settings, None  # every seat and the table at random, one action at a time
    return settings, bots


#: Each game's own checks, by the game's name.
GAME_CHECKS: dict[str, GameChecks] = {
    "note_snap": GameChecks(snap_invariants, _snap_illegal, _snap_more, _snap_finished,
                            snap_table),
    "keyboard_duel": GameChecks(duel_invariants, _duel_illegal, _duel_more, _duel_finished),
}
