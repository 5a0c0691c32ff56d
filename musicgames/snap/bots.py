"""Computer players for Note Snap (S17): a reaction-time model and three kinds of mistake.

A :class:`BotLevel` describes a kind of player:

* its **reaction time** to a card, drawn from an *ex-Gaussian* distribution — a Gaussian
  body (``mu_ms``, ``sigma_ms``) plus an exponential tail (``tau_ms``) — the shape that
  describes human response-time distributions well (Luce, *Response Times*, 1986;
  Heathcote, Popiel & Mewhort, *Psychological Bulletin* 109, 1991). Draws below
  ``floor_ms`` are raised to it: nobody truly reacts in under about 150 ms;
* a **false-slap rate**: the chance of slapping a card that does not match (S8);
* a **miss rate**: the chance of not noticing a match at all (S9, S14);
* a **wrong-call rate**: the chance of calling a name out of order when the seat calls
  for itself (S10). In auto-call mode the engine calls, so this never applies;
* a **personal speed** spread: each :class:`Bot` draws, once, its own speed factor, so two
  computer players of one level are two different people, one a little quicker than the
  other, and each card's times are drawn independently per seat.

Why these times. By the Hick–Hyman law (Hick 1952, *Q. J. Exp. Psychol.* 4:11–26;
Hyman 1953, *J. Exp. Psychol.* 45:188–196) a choice reaction time grows with the
information in the choice, RT ≈ a + b·log₂(n), with b about 150 ms per bit and a near a
simple visual reaction time of about 200 ms. Telling which of the seven note names a card
shows is log₂ 7 ≈ 2.8 bits, so a player who knows the names but still works them out needs
about 200 + 150 × 2.8 ≈ 620 ms: the *intermediate* level (mean ``mu + tau`` ≈ 720 ms with
its slow tail). An *expert* reads notes as shapes, nearly a two-choice decision (slap or
not, ≈ 350–450 ms): mean ≈ 480 ms. A *beginner* still counts lines and spaces: mean over a
second, with a long tail.

Why the personal speed. People differ steadily in speed: in a population sample of adults
the between-person standard deviation of choice reaction time is about 10–15 % of its mean
(Deary, Der & Ford 2001, *Intelligence* 29:389–399). Each bot multiplies its level's times
by a factor drawn once from a log-normal distribution with a spread of ``speed_spread``
(12 %), so at one table of experts one is steadily the quicker, as among people; and each
card's time is then drawn on its own for each seat, never shared.

Why these mistakes. Slapping is a go/no-go decision with a rare "go": a match comes about
once in seven cards. Commission errors (a "go" on a "no-go") are rare when "go" is rare and
grow as it becomes frequent (Wessel 2018, *Psychophysiology* 55:e12871, comparing go/no-go
variants; the SART, with frequent "go", shows many more: Robertson et al. 1997,
*Neuropsychologia* 35:747–758): a few per cent of non-matches for a beginner, less with
practice. Misses of a rare target in a long watch run at some 5–15 % in the vigilance
literature from Mackworth (1948, *Q. J. Exp. Psychol.* 1:6–21) on, more for a reader who
must still work each note out: 10 % for a beginner. A wrong call (S10) is a slip in
reciting a well-known sequence while reading: rare; we know of no measurement of this very
task, so its rate is chosen to make the total fit a class's experience of beginners — about
one mistake of any kind every 15–20 cards. At a table of three, with a match one card in
seven and a seat calling one card in three, a beginner errs on
0.03 × 6/7 + 0.10 × 1/7 + 0.04 × 1/3 ≈ 0.053 of the cards: once every 19 cards
(:meth:`BotLevel.errors_per_card`); an intermediate player once every ~38, an expert about
once every 100.

>>> import random
>>> level = LEVELS["intermediate"]
>>> level.mean_ms
720.0
>>> rng = random.Random(5)
>>> times = [level.draw_ms(rng) for _ in range(2000)]
>>> 650 < sum(times) / len(times) < 790 and min(times) >= level.floor_ms
True

A :class:`Bot` sits at one seat and decides only from that seat's :class:`SeatView`:

>>> from musicgames.snap import Flip, SnapConfig, new_game
>>> game = new_game(random.Random(3), SnapConfig(players=2))
>>> bot = Bot(0, "expert", random.Random(9))
>>> bot.choose(game.view(0))
Flip(seat=0, call=None)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

from musicgames.shown import short_repr
from musicgames.snap.actions import Action, CallMode, Flip, Pass, Phase, Slap
from musicgames.snap.cards import CALL_CYCLE, is_match
from musicgames.snap.deal import seeded
from musicgames.snap.errors import ConfigError
from musicgames.snap.views import SeatView

__all__ = ["LEVELS", "Bot", "BotLevel", "level_named"]

_CYCLE_LENGTH = len(CALL_CYCLE)
_CALL_INDEX = {name: i for i, name in enumerate(CALL_CYCLE)}
_SLAPS = Phase.SLAPS
_AUTO = CallMode.AUTO


def _rate(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(f"{name}={short_repr(value)} is not a rate between 0 and 1",
                          rule="S17")


@dataclass(frozen=True)
class BotLevel:
    """How well a computer player plays: an ex-Gaussian reaction time and mistake rates."""

    name: str
    mu_ms: float
    sigma_ms: float
    tau_ms: float
    false_slap_rate: float
    miss_rate: float
    wrong_call_rate: float
    floor_ms: float = 150.0
    speed_spread: float = 0.12

    def __post_init__(self) -> None:
        for field_name in ("mu_ms", "sigma_ms", "tau_ms", "floor_ms"):
            value = getattr(self, field_name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ConfigError(f"{field_name}={short_repr(value)} must be a positive "
                                  "number of ms", rule="S17")
        _rate("false_slap_rate", self.false_slap_rate)
        _rate("miss_rate", self.miss_rate)
        _rate("wrong_call_rate", self.wrong_call_rate)
        _rate("speed_spread", self.speed_spread)

    def errors_per_card(self, players: int = 3) -> float:
        """The share of cards this level errs on at a table of ``players`` (every seat
        calling for itself): a false slap on a non-match (6 cards in 7), a miss of a match
        (1 in 7), a wrong call on its own flips (1 in ``players``).

        >>> round(1 / LEVELS["beginner"].errors_per_card(3))
        19
        """
        return (self.false_slap_rate * 6 / 7 + self.miss_rate / 7
                + self.wrong_call_rate / players)

    @property
    def mean_ms(self) -> float:
        """The mean reaction time, ``mu + tau`` (before the floor)."""
        return float(self.mu_ms + self.tau_ms)

    def draw_ms(self, rng: random.Random) -> float:
        """One reaction time in ms: Gaussian plus exponential, at least ``floor_ms``."""
        ms = rng.gauss(self.mu_ms, self.sigma_ms) + rng.expovariate(1.0 / self.tau_ms)
        return ms if ms > self.floor_ms else float(self.floor_ms)


#: The built-in levels, slowest and most error-prone first.
LEVELS: dict[str, BotLevel] = {
    level.name: level
    for level in (
        BotLevel("beginner", mu_ms=820.0, sigma_ms=130.0, tau_ms=300.0,
                 false_slap_rate=0.03, miss_rate=0.10, wrong_call_rate=0.04),
        BotLevel("intermediate", mu_ms=560.0, sigma_ms=80.0, tau_ms=160.0,
                 false_slap_rate=0.015, miss_rate=0.05, wrong_call_rate=0.02),
        BotLevel("expert", mu_ms=400.0, sigma_ms=45.0, tau_ms=80.0,
                 false_slap_rate=0.005, miss_rate=0.02, wrong_call_rate=0.008),
    )
}


@cache
def _flips_for(seat: int) -> tuple[Flip, ...]:
    """The flips a seat can make: ``(auto, Do, Re, … Si)``. Actions are immutable, so they are
    made once per seat and shared (a simulation makes new bots for every game)."""
    return (Flip(seat), *(Flip(seat, name) for name in CALL_CYCLE))


def level_named(level: BotLevel | str) -> BotLevel:
    """A level by name (``'beginner'``, ``'intermediate'``, ``'expert'``) or itself.

    >>> level_named("expert").mu_ms
    400.0
    >>> level_named("grandmaster")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    musicgames.snap.errors.ConfigError: level 'grandmaster' does not exist: use beginner, ...
    """
    if isinstance(level, BotLevel):
        return level
    found = LEVELS.get(level) if isinstance(level, str) else None
    if found is None:
        names = list(LEVELS)
        raise ConfigError(
            f"level {short_repr(level)} does not exist: use {', '.join(names[:-1])} or {names[-1]}",
            rule="S17",
        )
    return found


class Bot:
    """A computer player at ``seat``, playing at ``level``, with its own seeded ``rng`` (a
    ``random.Random``, or a whole number to seed one).

    It sees only a :class:`SeatView` — the card shown, the name called, the counts — and
    never the order of a face-down pile. For each card shown it makes one decision at a
    drawn time: slap, or pass (S14 v2). A drawn time after the slap window means it never
    decided: no slap. ``speed`` is its personal speed factor, drawn once from ``rng``.
    """

    __slots__ = ("_flips", "level", "rng", "seat", "speed")

    def __init__(self, seat: int, level: BotLevel | str, rng: random.Random | int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ConfigError(f"seat={short_repr(seat)} is not a seat number", rule="S3")
        rng = seeded(rng)
        self.seat = seat
        self.level = level_named(level)
        self.rng = rng
        self._flips = _flips_for(seat)
        spread = self.level.speed_spread
        self.speed = math.exp(rng.gauss(0.0, spread)) if spread else 1.0

    def choose(self, view: SeatView) -> Action | None:
        """The bot's action in this view: a flip on its turn, a slap or nothing."""
        if view.phase is Phase.FLIP and view.to_flip == self.seat:
            return self.flip(view)
        if view.phase is Phase.SLAPS and self.seat not in view.passed:
            return self.decide(view)
        return None

    def flip(self, view: SeatView) -> Flip:
        """Flip, calling the next name — or, now and then, a wrong one (S10)."""
        if view.call_mode is _AUTO:
            return self._flips[0]
        index = _CALL_INDEX[view.next_call]
        if self.rng.random() < self.level.wrong_call_rate:  # skip a name or repeat one
            index = (index + self.rng.choice((-1, 1))) % _CYCLE_LENGTH
        return self._flips[index + 1]

    def decide(self, view: SeatView) -> Slap | Pass | None:
        """Decide once about the card shown: a :class:`Slap` or a :class:`Pass`, each at a
        drawn time from the card's appearance; ``None`` when that time is after the window
        (or there is nothing to decide)."""
        card = view.top_card
        if view.phase is not _SLAPS or card is None or self.seat in view.slapped:
            return None
        level = self.level
        rng = self.rng
        chance = rng.random()
        if view.shown_call is not None and is_match(card, view.shown_call):  # S6
            slap = chance >= level.miss_rate
        else:
            slap = chance < level.false_slap_rate
        ms = level.draw_ms(rng) * self.speed
        if ms < level.floor_ms:
            ms = float(level.floor_ms)
        if ms > view.slap_window_ms:
            return None
        return Slap(self.seat, ms) if slap else Pass(self.seat, ms)

    def react(self, view: SeatView) -> Slap | None:
        """Decide once about the card shown: a :class:`Slap` with its time, or ``None``."""
        decision = self.decide(view)
        return decision if type(decision) is Slap else None

    def __repr__(self) -> str:
        return f"Bot({self.seat}, {self.level.name!r}, rng)"
