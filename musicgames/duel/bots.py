"""Computer players for Keyboard Duel: Random, Casual and Sharp (rules page, "Computer
opponents").

A computer player is a :class:`Bot`. It decides from one seat's :class:`~musicgames.duel.
view.SeatView` only — its own hand, the board, the discards and counts, never the other
hand or the draw order (D16) — and from a seeded ``random.Random``. Ask it for the action
of the seat whose decision it is, in a turn or in a duel (as attacker or defender):

>>> from musicgames.duel import DuelState
>>> game = DuelState.new_game(seed=3)
>>> bot = SharpBot(seed=1)
>>> action = bot.choose(game.view(game.seat_to_act))
>>> action in game.legal_actions()
True

The three levels:

* :class:`RandomBot` picks uniformly among the legal actions: a baseline.
* :class:`CasualBot` weighs every placement and movement it could make, one action at a
  time, and picks loosely among the good ones (a softmax over their values), never
  giving points away for nothing. In a duel it uses the exact odds, spends at most a
  budget of cards that grows with what the key is worth, and lets some duels go without
  spending anything — but not an attack on a key worth 6 or more that a run could answer.
* :class:`SharpBot` weighs every Place and Move and the best second action after each of
  its best first ones, values each resulting board by the score, the threats the opponent
  will have on its next turn and how many tokens each side can still place, and plays the
  best line. In a duel it works out, card by card and exactly, whether adding or
  rerolling raises its chance of winning more, and plays a card only while the gain in
  chance times what the key is worth pays for the card.

How a board and a duel are valued is :mod:`musicgames.duel.judgement`'s job.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from musicgames.duel import kernel, legal
from musicgames.duel.actions import Action, DuelCard, EndTurn, LockIn, Move, Place, Shift
from musicgames.duel.cards import CARD_ADD, CARD_LETTER, CARD_REROLL, DOWN_REROLL, UP_REROLL
from musicgames.duel.errors import BadSeedError, NotYourTurnError, UnknownBotError
from musicgames.duel.judgement import (
    REROLL_OWN,
    REROLL_THEIRS,
    Context,
    DuelPlan,
    Weights,
    defender_lock,
    duel_runs,
    rerolled,
    seat_table,
)
from musicgames.duel.kernel import Table, chord_bonuses, outcomes, round_score, settle_duel
from musicgames.duel.odds import Effect, duel_odds, run_profile
from musicgames.duel.view import SeatView
from musicgames.shown import short_repr

__all__ = [
    "BOT_NAMES",
    "OPPONENT_LEVELS",
    "WORTH_ANSWERING",
    "Bot",
    "CasualBot",
    "RandomBot",
    "SharpBot",
    "answer_is_useful",
    "defended_worth",
    "gives_points_away",
    "make_bot",
]

_TOKENS = kernel.TOKENS_PER_SEAT
_UNPLACED, _ON_BOARD, _MERGED, _BEATEN = (kernel.UNPLACED, kernel.ON_BOARD, kernel.MERGED,
                                         kernel.BEATEN)
_END_TURN = EndTurn()
_LOCK_IN = LockIn()



class Bot(Protocol):
    """A computer player: ``choose(view, rng)`` returns a legal action for the seat whose
    decision it is (``view.to_act == view.seat``)."""

    name: str

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """The action this player takes now, decided from ``view`` and ``rng`` alone."""
        ...


def _check_view(view: SeatView, seat: int | None = None) -> tuple[Action, ...]:
    if seat is not None and view.seat != seat:
        raise NotYourTurnError(f"the computer player of seat {seat} was given seat "
                               f"{view.seat}'s view: it plays from its own seat's view (D16)",
                               rule="D16")
    actions = view.legal_actions()
    if not actions:
        who = "nobody (the game is over)" if view.to_act is None else f"seat {view.to_act}"
        raise NotYourTurnError(
            f"seat {view.seat} has no decision to make now: it is {who}'s; ask the computer "
            "player with the view of the seat whose decision it is (D7, D11)",
            rule="D7", rules=("D7", "D11"),
        )
    return actions


class _SeededBot:
    """Shared by the three levels: a name, the seat it plays (``None``: whichever seat's
    view it is given) and the generator used when ``choose`` is given none (``seed`` is an
    int, or a ``random.Random`` to draw from)."""

    name = "bot"

    def __init__(self, seed: int | random.Random = 0, *, seat: int | None = None) -> None:
        if isinstance(seed, random.Random):
            self.rng = seed
        elif isinstance(seed, int) and not isinstance(seed, bool):
            self.rng = random.Random(seed)
        else:
            raise BadSeedError(f"seed must be an int or a random.Random, not {short_repr(seed)}")
        if seat is not None and (seat not in (0, 1) or isinstance(seat, bool)):
            raise NotYourTurnError(f"seat={short_repr(seat)} refused: a seat is 0 (White) or "
                                   "1 (Black) (D1)", rule="D1")
        self.seed = seed
        self.seat = seat

    def __repr__(self) -> str:
        if isinstance(self.seed, int):
            return f"{type(self).__name__}(seed={short_repr(self.seed)})"
        return f"{type(self).__name__}(seed=random.Random(...))"

    def _rng(self, rng: random.Random | None) -> random.Random:
        return self.rng if rng is None else rng


class RandomBot(_SeededBot):
    """Picks uniformly among the legal actions (a baseline to measure the others by).

    >>> from musicgames.duel import DuelState
    >>> game = DuelState.new_game(seed=2)
    >>> RandomBot(seed=5).choose(game.view(0)) in game.legal_actions()
    True
    """

    name = "Random"

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """A legal action chosen uniformly at random."""
        actions = _check_view(view, self.seat)
        return actions[self._rng(rng).randrange(len(actions))]


# -- loose, not careless: what a beginner would not do ------------------------------------


def gives_points_away(view: SeatView, action: Action) -> bool:
    """True if ``action`` moves this seat's tokens for nothing: a Move or Shift that starts
    no duel and makes no merge, gains no chord bonus (D13), and leaves the seat's running
    score lower — a token moved to a key of lower value (D4), "Do fff → Re".

    >>> from musicgames.duel import DuelState, Move, card_ids
    >>> game = DuelState.from_position(piano=(0, 1), hands=("D1 E2", "F1"),
    ...                                tokens=([(0, 2), (2, 1)], []))   # C major on the left
    >>> gives_points_away(game.view(0), Move(card_ids("D1")[0], 0, 1))   # C (fff) to D♭
    True
    >>> gives_points_away(game.view(0), Move(card_ids("E2")[0], 2, 2))   # D to E (ff)
    False
    """
    if type(action) not in (Move, Shift):
        return False
    return _gives_away(view, action, _standing(view))


#: A seat's board as it stands before its action: the table to try actions on, its merged
#: tokens, the chord bonuses it holds and its running score (D13).
_Standing = tuple[Table, int, int, int]


def _standing(view: SeatView) -> _Standing:
    """What :func:`gives_points_away` compares every Move and Shift of a view with (worked
    out once per view when several actions are weighed)."""
    seat, piano = view.seat, view.piano
    before = seat_table(view)
    held = sum(1 for s, _ in chord_bonuses(before.board, piano) if s == seat)
    return (before, before.status.count(_MERGED), held,
            round_score(before.board, before.power, piano)[seat])


def _gives_away(view: SeatView, action: Action, standing: _Standing) -> bool:
    """:func:`gives_points_away` for a Move or Shift, given the seat's :func:`_standing`."""
    before, merged, held, score = standing
    seat = view.seat
    duels: list[int] = []

    def duel(table: Table, attacker: int, defender: int) -> list[tuple[float, Table]]:
        duels.append(attacker)
        return [(1.0, table)]

    (_, after), *rest = outcomes(before, action, seat, duel)
    if duels or rest or after.status.count(_MERGED) > merged:
        return False
    piano = view.piano
    gained = sum(1 for s, _ in chord_bonuses(after.board, piano) if s == seat)
    if gained > held:
        return False
    return round_score(after.board, after.power, piano)[seat] < score


#: A defender answers an attack on a token that scores at least this much (D13) whenever
#: a run in its hand raises its chance of keeping the key.
WORTH_ANSWERING = 6


def defended_worth(view: SeatView) -> int:
    """What the defender's token in the duel being fought scores now: power × the key's
    multiplier (D4, D13); 0 outside a duel."""
    duel = view.duel
    if duel is None:
        return 0
    return kernel.token_points(duel.defender_power, view.key_multiplier(duel.key))


def answer_is_useful(view: SeatView) -> bool:
    """True for a defender to play (D11c) holding a run that raises its chance of winning
    the duel (exact odds: the attacker has locked in)."""
    duel = view.duel
    if duel is None or view.seat != duel.defender or view.to_act != view.seat:
        return False
    odds = duel_odds(view)
    return odds.best > odds.now


# -- the two thinking levels -----------------------------------------------------------------


class _Thinker(_SeededBot):
    """What Casual and Sharp share: valuing boards, and duels with the exact odds."""

    weights = Weights()

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        """The action this level takes now (a turn action, or a card or LockIn in a duel)."""
        actions = _check_view(view, self.seat)
        if len(actions) == 1:
            return actions[0]
        ctx = Context(view, self._rng(rng), self.weights)
        if view.duel is None:
            return self.turn_action(ctx, actions)
        return self.duel_action(ctx, actions)

    def turn_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError

    def duel_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError

    # -- the value of a single turn action --------------------------------------------------
    def outcomes(self, ctx: Context, b: Table, action: Action) -> list[tuple[float, Table]]:
        return outcomes(b, action, ctx.seat, ctx.planning_duel)

    def end_value(self, ctx: Context, b: Table, action: Action) -> float:
        """Expected value of playing ``action`` and then ending the turn."""
        if type(action) is EndTurn:
            return ctx.evaluate(b)
        return sum(p * ctx.evaluate(after) for p, after in self.outcomes(ctx, b, action))

    # -- duels -------------------------------------------------------------------------------
    def duel_stake(self, ctx: Context) -> float:
        """Points between this seat winning and losing the duel now being fought."""
        view = ctx.view
        duel = view.duel
        assert duel is not None
        b = seat_table(view)
        attacker = duel.attacker * _TOKENS + duel.attacker_token
        defender = duel.defender * _TOKENS + duel.defender_token
        win, lose = b.copy(), b.copy()
        settle_duel(win.board, win.keys, win.status, attacker, defender, True)
        settle_duel(lose.board, lose.keys, lose.status, attacker, defender, False)
        stake = float(abs(ctx.score_diff(win) - ctx.score_diff(lose)))
        if not ctx.last_turn:
            stake += abs(ctx.threat(win) - ctx.threat(lose)) * 0.5
        return stake + 1.0  # a beaten token is one fewer to fight with

    def card_cost(self, ctx: Context, attacking: bool) -> float:
        """What one card spent in this duel costs this seat (D11f)."""
        view = ctx.view
        w = self.weights
        if attacking:
            if ctx.last_turn:
                return 0.0
            if not (view.placed and view.moved):
                return w.attacker_card_cost_mid
            return w.attacker_card_cost
        # The defender's cards are missing from its next turn — unless the round ends first.
        if view.final_turn or view.turn_number >= 60:
            return 0.0
        return w.defender_card_cost

    def duel_plan(self, ctx: Context, stake: float, cost: float) -> tuple[
            DuelPlan, tuple[int, ...], tuple[int, ...], int, list[tuple[int, ...]]]:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        if attacking:
            own, opp = duel.attacker_dice, duel.defender_dice
            margin = duel.attacker_add - duel.defender_add
            run = duel.attacker_run
            lock: Callable[[tuple[int, ...], tuple[int, ...], int], float] = \
                ctx.attacker_lock_chance
        else:
            own, opp = duel.defender_dice, duel.attacker_dice
            margin = duel.defender_add - duel.attacker_add
            run = duel.defender_run
            lock = defender_lock
        plan = DuelPlan(stake, cost, attacking, lock)
        runs = duel_runs(view.hand, legal.run_letter(run))
        return plan, tuple(sorted(own)), tuple(sorted(opp)), margin, runs


def _card_for(choice: int | Effect, run: Sequence[int]) -> int:
    """A card of ``run`` doing ``choice`` (adding 1–3, or a reroll); lettered cards before
    Wilds."""
    if choice is REROLL_OWN or choice is REROLL_THEIRS:
        way = UP_REROLL if choice is REROLL_OWN else DOWN_REROLL
        return next(c for c in run if CARD_REROLL[c] == way)
    lettered = [c for c in run if CARD_LETTER[c] >= 0 and not CARD_REROLL[c]
                and CARD_ADD[c] == choice]
    if lettered:
        return lettered[0]
    return next(c for c in run if CARD_LETTER[c] < 0)


class SharpBot(_Thinker):
    """Plays the best line it sees: every Place and Move, the best second action after its
    best first ones, the opponent's answer next turn; in a duel, card by card, whichever of
    adding and rerolling raises its chance of winning more (exact odds), while it pays.

    >>> from musicgames.duel import DuelState, Place, card_ids
    >>> game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 D3 E1 F2", "C1"),
    ...                                tokens=([], [(14, 1)]))
    >>> str(SharpBot().choose(game.view(0)))
    'Place D1 + D2 + D3 on D (left)'
    """

    name = "Sharp"
    #: First actions of each kind whose best second action is searched.
    beam = 30

    def turn_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        b = seat_table(view)
        distinct = view.legal_actions(distinct=True)
        scored: list[tuple[float, int, Action, list[tuple[float, Table]]]] = []
        for i, action in enumerate(distinct):
            if type(action) is EndTurn:
                scored.append((ctx.evaluate(b), i, action, []))
                continue
            outs = self.outcomes(ctx, b, action)
            scored.append((sum(p * ctx.evaluate(a) for p, a in outs), i, action, outs))
        best_value, _, best, _ = max(scored, key=lambda s: (s[0], -s[1]))
        if not (view.placed or view.moved):
            # Search second actions after the best first actions of each kind.
            places = sorted((s for s in scored if type(s[2]) is Place),
                            key=lambda s: (-s[0], s[1]))[: self.beam]
            moves = sorted((s for s in scored if type(s[2]) in (Move, Shift)),
                           key=lambda s: (-s[0], s[1]))[: self.beam]
            for _, _, action, outs in places + moves:
                total = 0.0
                for p, after in outs:
                    total += p * self.best_second(ctx, after)
                if total > best_value + 1e-9:
                    best_value, best = total, action
        return best

    def best_second(self, ctx: Context, b: Table) -> float:
        """Value of the best way to finish the turn from ``b`` (a second action or none)."""
        best = ctx.evaluate(b)
        seat = ctx.seat
        for action in legal.turn_actions(seat, b.hand, b.status, b.board, b.placed, b.moved,
                                         True):
            if type(action) is EndTurn:
                continue
            v = sum(p * ctx.evaluate(a) for p, a in self.outcomes(ctx, b, action))
            if v > best:
                best = v
        return best

    def duel_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        stake = self.duel_stake(ctx)
        cost = self.card_cost(ctx, attacking)
        plan, own, opp, margin, runs = self.duel_plan(ctx, stake, cost)
        lock_value = stake * plan.lock_chance(own, opp, margin)
        best_value = lock_value
        best_action: Action = _LOCK_IN
        for run in runs:
            adds, ups, downs = run_profile(run)
            for choice in plan.choices(adds, ups, downs):
                v = plan.after(choice, own, opp, margin, adds, ups, downs) - cost
                if v > best_value + 1e-9:
                    best_value, best_action = v, DuelCard(_card_for(choice, run))
        return best_action


class CasualBot(_Thinker):
    """Makes loose choices, as a beginner does, but not careless ones: it weighs every Place
    and Move on its own (no second action, a lighter eye on threats) and picks among the
    few best at random, the better the likelier — never moving a token to a lower-value
    key for nothing (:func:`gives_points_away`). In a duel it uses the exact odds one card
    ahead, spends at most a budget of cards that grows with the key's worth, and lets some
    duels go; but an attack on a token worth 6 points or more it always answers when a
    run in its hand helps (:data:`WORTH_ANSWERING`, :func:`answer_is_useful`).

    >>> from musicgames.duel import DuelState
    >>> game = DuelState.new_game(seed=4)
    >>> CasualBot(seed=2).choose(game.view(0)) in game.legal_actions()
    True
    """

    name = "Casual"
    #: It picks among this many of the best-looking actions …
    top = 4
    #: … at random, the better the likelier: a softmax with this temperature, in points.
    temperature = 2.0
    #: Chance of letting a duel go: playing no card at all.
    let_go = 0.35
    #: Points of stake per duel card it is willing to spend.
    points_per_card = 5.0
    weights = Weights(threat=0.5, second_threat=0.0)

    def turn_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        b = seat_table(view)
        distinct = view.legal_actions(distinct=True)
        # Loose, not careless: it never moves a token to a lower-value key for nothing
        # (unless nothing else is allowed, D7).
        standing: _Standing | None = None  # the board before, worked out once for all moves
        kept = []
        for action in distinct:
            if type(action) in (Move, Shift):
                if standing is None:
                    standing = _standing(view)
                if _gives_away(view, action, standing):
                    continue
            kept.append(action)
        kept = kept or list(distinct)
        scored = sorted(((self.end_value(ctx, b, a), i, a) for i, a in enumerate(kept)),
                        key=lambda s: (-s[0], s[1]))[: self.top]
        best = scored[0][0]
        weights = [math.exp((value - best) / self.temperature) for value, _, _ in scored]
        return ctx.rng.choices([a for _, _, a in scored], weights=weights)[0]

    def duel_action(self, ctx: Context, actions: tuple[Action, ...]) -> Action:
        view = ctx.view
        duel = view.duel
        assert duel is not None
        attacking = view.seat == duel.attacker
        run = duel.attacker_run if attacking else duel.defender_run
        if not attacking and defended_worth(view) >= WORTH_ANSWERING:
            # An attack on a key worth 6 or more is answered whenever a run helps: the
            # card that leaves the best chance, until no card raises it (exact odds).
            odds = duel_odds(view)
            if odds.best > odds.now:
                return DuelCard(max(sorted(odds.after_card),
                                    key=lambda c: (odds.after_card[c], -c)))
            return _LOCK_IN
        # Decide once per duel whether to let it go: on the first card of this seat's run.
        if not run and ctx.rng.random() < self.let_go:
            return _LOCK_IN
        stake = self.duel_stake(ctx)
        budget = max(1, int(stake / self.points_per_card))
        if len(run) >= budget:
            return _LOCK_IN
        plan, own, opp, margin, runs = self.duel_plan(ctx, stake, 0.0)
        # Greedy, one card ahead: the card with the best exact chance if play stopped after it.
        now = plan.lock_chance(own, opp, margin)
        best_chance = now
        best_action: Action = _LOCK_IN
        for cards in runs:
            adds, ups, downs = run_profile(cards)
            for choice in plan.choices(adds, ups, downs):
                if choice is REROLL_OWN or choice is REROLL_THEIRS:
                    way = UP_REROLL if choice is REROLL_OWN else DOWN_REROLL
                    chance = sum(plan.lock_chance(o, p, margin)
                                 for o, p in rerolled(own, opp, way)) / 6
                else:
                    assert isinstance(choice, int)
                    chance = plan.lock_chance(own, opp, margin + choice)
                if chance > best_chance + 1e-9:
                    best_chance, best_action = chance, DuelCard(_card_for(choice, cards))
        return best_action


#: The computer players by name, weakest first.
BOT_NAMES: tuple[str, ...] = ("random", "casual", "sharp")
#: The levels a person can play against (the rules page, "Computer opponents"): all but the
#: random baseline.
OPPONENT_LEVELS: tuple[str, ...] = BOT_NAMES[1:]
_BOTS: dict[str, type[_SeededBot]] = {"random": RandomBot, "casual": CasualBot,
                                      "sharp": SharpBot}


def make_bot(name: str, seed: int | random.Random = 0, *, seat: int | None = None) -> Bot:
    """A computer player by name (``'random'``, ``'casual'`` or ``'sharp'``, any case), for
    ``seat`` (then it refuses any other seat's view) or for whichever seat asks.

    >>> make_bot("Sharp").name
    'Sharp'
    >>> make_bot("expert")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.duel.errors.UnknownBotError: 'expert' is not a computer player: use random, ...
    """
    try:
        cls = _BOTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownBotError(f"{short_repr(name)} is not a computer player: use "
                              f"{', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]}") from None
    bot: Bot = cls(seed, seat=seat)  # type: ignore[assignment]
    return bot

