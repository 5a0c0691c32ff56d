"""The game told in words: the log's entries, the duels and the rounds, from the engine's
events, in the page's language and naming.

:class:`Story` reads the events the person's seat may see and keeps them as catalogue
entries with their values (so the log can be said again in another language);
:class:`Words` says notes, keys, chords and cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from musicgames.duel import COMPOSE_DECK, PIANO_CARDS, key_name
from musicgames.duel.cards import key_piano, key_pitch_class
from musicgames.duel.events import (
    CardPlayed,
    DiceRolled,
    DieRerolled,
    Drew,
    DuelStarted,
    DuelWon,
    Event,
    FinalTurnBegins,
    GameOver,
    LockedIn,
    Merged,
    Moved,
    Placed,
    Reshuffled,
    RoundScored,
    RoundStarted,
    Shifted,
    TurnEnded,
)
from musicgames.duel.kernel import attacker_wins
from musicgames.i18n import counted, text
from musicgames.theory import Naming

__all__ = ["SEAT_KEYS", "DuelRecord", "RoundRecord", "Story", "Words", "say"]

#: How the page names the seats.
SEAT_KEYS = ("white", "black")



@dataclass
class Words:
    """Says things about the game in one language and naming."""

    language: str
    naming: Naming

    def t(self, entry: str, **values: object) -> str:
        # formatted here: i18n.text's own parameters are named key and language
        template = text(entry, self.language)
        return template.format(**values) if values else template

    def seat(self, seat: int) -> str:
        return self.t(f"duel.seat.{SEAT_KEYS[seat]}")

    def chord(self, piano_card: int) -> str:
        return PIANO_CARDS[piano_card].name(self.naming, self.language)

    def note(self, key: int, piano: Sequence[int] | None = None) -> str:
        """A key's note name without octave: a white key is its plain letter, the name a
        card lands there by (F, never E♯); a black key is spelled in the chord of its card
        when ``piano``, the pair of piano cards, is given (B♭ in F major, A♯ in B major)."""
        if piano is None:
            return key_name(key, self.naming, self.language).split(" (")[0]
        card = PIANO_CARDS[piano[key_piano(key)]]
        return card.key_note(key_pitch_class(key)).label(self.naming, octave=False,
                                                         language=self.language)

    def key_label(self, key: int, piano: Sequence[int]) -> str:
        """A key's accessible name: ``'Re, left card, ff'`` (no mark: no third part)."""
        card = PIANO_CARDS[piano[key_piano(key)]]
        mark = card.marks.get(key_pitch_class(key), "")
        side = self.t("duel.words.right_card" if key_piano(key) else "duel.words.left_card")
        parts = [self.note(key, piano), side] + ([mark] if mark else [])
        return ", ".join(parts)

    def key(self, key: int, piano: Sequence[int]) -> str:
        """``'Sol (fff) of C major'``: the key's note, its mark, the chord of its card."""
        card = PIANO_CARDS[piano[key_piano(key)]]
        mark = card.marks.get(key_pitch_class(key), "")
        return self.t(
            "duel.words.key",
            note=self.note(key, piano),
            mark=f" ({mark})" if mark else "",
            chord=card.name(self.naming, self.language),
        )

    def card(self, card: int) -> str:
        face = COMPOSE_DECK[card]
        return self.t("duel.card.wild") if face.is_wild else face.label(self.naming, self.language)

    def cards(self, cards: Sequence[int]) -> str:
        return " + ".join(self.card(c) for c in cards)

    def direction(self, steps: int) -> str:
        return self.t("duel.words.right" if steps > 0 else "duel.words.left")

    def dice_count(self, count: int) -> str:
        """``'1 die'``, ``'3 dice'``, in the form the language's plural rules choose."""
        return counted("duel.words.dice", count, self.language)

    def cards_count(self, count: int) -> str:
        """``'1 card'``, ``'3 cards'``, in the form the language's plural rules choose."""
        return counted("duel.words.cards", count, self.language)

    def dice(self, dice: Sequence[int]) -> str:
        return " ".join(str(d) for d in dice)


# -- what happened, from the engine's typed events -------------------------------------------


@dataclass
class DuelRecord:
    """A duel as the panel shows it, told by the engine's events (nothing worked out here:
    totals come with the events, or from the engine's duel while it goes on)."""

    number: int
    key: int
    piano: tuple[int, int]
    attacker: int
    powers: tuple[int, int]
    first_dice: list[tuple[int, ...]] = field(default_factory=lambda: [(), ()])
    dice: list[list[int]] = field(default_factory=lambda: [[], []])
    adds: list[int] = field(default_factory=lambda: [0, 0])
    #: each side's run: (card, effect, what it did, the total it changed after the card)
    runs: tuple[list[tuple[int, dict[str, Any], int]], list[tuple[int, dict[str, Any], int]]] = (
        field(default_factory=lambda: ([], [])))
    totals: list[int] | None = None  # after the last card played (None: no card yet)
    locked: list[bool] = field(default_factory=lambda: [False, False])
    winner: int | None = None
    result_totals: tuple[int, int] | None = None
    #: who led after each card played, as a role (0 the attacker, who wins ties)
    leads: list[int] = field(default_factory=list)
    #: how many rounds had been scored when the duel began (its round is the next one)
    rounds_before: int = 0

    def role(self, seat: int) -> int:
        return 0 if seat == self.attacker else 1

    def seat(self, role: int) -> int:
        return self.attacker if role == 0 else 1 - self.attacker

    @property
    def cards_played(self) -> int:
        return len(self.runs[0]) + len(self.runs[1])


@dataclass
class RoundRecord:
    """A scored round, for the round-end screen: the engine's breakdown."""

    number: int
    piano: tuple[int, int]
    board: list[tuple[int, int, int, int, int]]  # (seat, token, key, power, points)
    multipliers: dict[int, int]  # key -> its multiplier, for the breakdown's lines
    scores: tuple[int, int]
    totals: tuple[int, int]
    bonuses: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # piano cards held whole


@dataclass
class Story:
    """The engine's typed events told as entries (a key in the catalogue and its values),
    plus the duels and rounds they contain. Rebuilt from scratch after a take-back."""

    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    duels: list[DuelRecord] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    seen: int = 0
    piano: tuple[int, int] = (0, 1)
    pending: CardPlayed | None = None

    def read(self, events: Sequence[Event]) -> None:
        """Take in the events not seen yet."""
        for event in events[self.seen:]:
            self._event(event)
        self.seen = len(events)

    def _add(self, entry: str, **values: Any) -> None:
        self.entries.append((entry, values))

    def _event(self, event: Event) -> None:  # noqa: C901 - one branch per kind of event
        if isinstance(event, RoundStarted):
            self.piano = (event.piano[0], event.piano[1])
            self._add("duel.log.round_start", round=event.round, piano=self.piano,
                      seat=event.starter)
        elif isinstance(event, Placed):
            self._add("duel.log.place", seat=event.seat, power=event.power, key=event.key,
                      piano=self.piano, cards=list(event.cards))
        elif isinstance(event, Merged):
            self._add("duel.log.merge" if not event.lost else "duel.log.merge_lost",
                      seat=event.seat, power=event.power, lost=event.lost, key=event.key,
                      piano=self.piano)
        elif isinstance(event, Moved):
            self._add("duel.log.move", seat=event.seat, start=event.start, end=event.end,
                      steps=event.steps, card=event.card, piano=self.piano)
        elif isinstance(event, Shifted):
            self._add("duel.log.shift", seat=event.seat, card=event.card, side=event.piano,
                      step=event.step, piano=self.piano)
        elif isinstance(event, DuelStarted):
            self.duels.append(DuelRecord(
                number=len(self.duels) + 1, key=event.key, piano=self.piano,
                attacker=event.attacker,
                powers=(event.attacker_power, event.defender_power),
                rounds_before=len(self.rounds)))
        elif isinstance(event, DiceRolled):
            record = self.duels[-1]
            role = record.role(event.seat)
            record.first_dice[role] = tuple(event.dice)
            record.dice[role] = list(event.dice)
            if role == 1:  # both sides have rolled
                self._add("duel.log.duel", seat=record.attacker, other=1 - record.attacker,
                          key=record.key, piano=self.piano, power=record.powers[0],
                          other_power=record.powers[1], dice=record.first_dice[0],
                          other_dice=record.first_dice[1])
        elif isinstance(event, CardPlayed):
            record = self.duels[-1]
            record.totals = [event.attacker_total, event.defender_total]
            ahead = attacker_wins(event.attacker_total, event.defender_total)
            record.leads.append(0 if ahead else 1)
            if event.effect == "add":
                role = record.role(event.seat)
                record.adds[role] += event.amount
                total = record.totals[role]
                record.runs[role].append((event.card, {"effect": "add",
                                                       "amount": event.amount}, total))
                self._add("duel.log.card.add", seat=event.seat, other=1 - event.seat,
                          card=event.card, amount=event.amount, total=total)
            else:
                self.pending = event  # told with the reroll that follows
        elif isinstance(event, DieRerolled):
            record = self.duels[-1]
            played = self.pending
            self.pending = None
            owner = record.role(event.owner)
            record.dice[owner][event.die] = event.new
            if played is not None and record.totals is not None:
                total = record.totals[owner]
                effect = {"effect": played.effect, "old": event.old, "new": event.new}
                record.runs[record.role(event.seat)].append((played.card, effect, total))
                self._add(f"duel.log.card.{played.effect}", seat=event.seat,
                          other=1 - event.seat, card=played.card, old=event.old,
                          new=event.new, total=total)
        elif isinstance(event, LockedIn):
            record = self.duels[-1]
            record.locked[record.role(event.seat)] = True
            self._add("duel.log.lock_in", seat=event.seat, total=event.total)
        elif isinstance(event, DuelWon):
            record = self.duels[-1]
            record.winner = event.winner
            record.result_totals = (event.attacker_total, event.defender_total)
            record.totals = [event.attacker_total, event.defender_total]
            self._add("duel.log.duel_result", seat=event.winner, other=1 - event.winner,
                      key=event.key, piano=record.piano,
                      score=max(record.result_totals), other_score=min(record.result_totals))
        elif isinstance(event, TurnEnded):
            self._add("duel.log.pass" if event.passed else "duel.log.end_turn",
                      seat=event.seat, drawn=0)
        elif isinstance(event, Drew):
            key, values = self.entries[-1] if self.entries else ("", {})
            if key in ("duel.log.end_turn", "duel.log.pass") and values["seat"] == event.seat:
                values["drawn"] = event.size
        elif isinstance(event, Reshuffled):
            self._add("duel.log.reshuffle", count=event.cards)
        elif isinstance(event, FinalTurnBegins):
            self._add("duel.log.final_turn", seat=event.placed_all, other=event.seat)
        elif isinstance(event, RoundScored):
            self.rounds.append(_round_record(event, self.piano))
            self._add("duel.log.round_end", round=event.round, score=event.scores[0],
                      other_score=event.scores[1], total=event.totals[0],
                      other_total=event.totals[1])
        elif isinstance(event, GameOver):
            self._add("duel.log.game_over", seat=event.winner, score=max(event.totals),
                      other_score=min(event.totals))


def _round_record(event: RoundScored, piano: tuple[int, int]) -> RoundRecord:
    """A scored round as the engine scored it: each token's points, the bonuses."""
    board = [(t.seat, t.token, t.key, t.power, t.points) for t in event.tokens]
    bonuses: list[list[int]] = [[], []]
    for seat, side in event.bonuses:
        bonuses[seat].append(side)
    return RoundRecord(number=event.round, piano=piano, board=board,
                       multipliers={t.key: t.multiplier for t in event.tokens},
                       scores=(event.scores[0], event.scores[1]),
                       totals=(event.totals[0], event.totals[1]),
                       bonuses=(tuple(bonuses[0]), tuple(bonuses[1])))


def say(words: Words, entry: str, values: Mapping[str, Any]) -> str:
    """One log entry in words."""
    shown: dict[str, object] = {}
    piano = values.get("piano", (0, 1))
    for name, value in values.items():
        if name in ("seat", "other"):
            shown[name] = words.seat(value)
        elif name in ("key", "start", "end"):
            shown[name] = words.key(value, piano)
        elif name == "cards":
            shown[name] = words.cards(value)
        elif name == "card":
            shown[name] = words.card(value) if value is not None else "?"
        elif name == "side":
            shown[name] = words.chord(piano[value])
        elif name == "steps":
            shown[name] = abs(value)
            shown["direction"] = words.direction(value)
        elif name == "step":
            shown["direction"] = words.direction(value)
        elif name in ("dice", "other_dice"):
            shown[name] = words.dice(value)
        elif name == "piano":
            shown["left"] = words.chord(value[0])
            shown["right"] = words.chord(value[1])
        else:
            shown[name] = value
    if entry in ("duel.log.end_turn", "duel.log.pass") and values.get("drawn"):
        entry += "_drew"
        shown["drawn"] = words.cards_count(values["drawn"])
    return words.t(entry, **shown)

