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
from musicgames.duel.cards import KEYS_PER_CARD
from musicgames.i18n import text
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
        """A key's note name without octave (spelled in the chord of its card when
        ``piano``, the pair of piano cards, is given: B♭ in F major, A♯ in B major)."""
        if piano is None:
            return key_name(key, self.naming).split(" (")[0]
        triad = PIANO_CARDS[piano[key // KEYS_PER_CARD]].triad
        return triad.tone_name(key % KEYS_PER_CARD, self.naming)

    def key_label(self, key: int, piano: Sequence[int]) -> str:
        """A key's accessible name: ``'Re, left card, ff'`` (no mark: no third part)."""
        card = PIANO_CARDS[piano[key // KEYS_PER_CARD]]
        mark = card.marks.get(key % KEYS_PER_CARD, "")
        side = self.t("duel.words.left_card" if key < KEYS_PER_CARD else "duel.words.right_card")
        parts = [self.note(key, piano), side] + ([mark] if mark else [])
        return ", ".join(parts)

    def key(self, key: int, piano: Sequence[int]) -> str:
        """``'Sol (fff) of C major'``: the key's note, its mark, the chord of its card."""
        card = PIANO_CARDS[piano[key // KEYS_PER_CARD]]
        mark = card.marks.get(key % KEYS_PER_CARD, "")
        return self.t(
            "duel.words.key",
            note=self.note(key, piano),
            mark=f" ({mark})" if mark else "",
            chord=card.name(self.naming, self.language),
        )

    def card(self, card: int) -> str:
        face = COMPOSE_DECK[card]
        return self.t("duel.card.wild") if face.is_wild else face.label(self.naming)

    def cards(self, cards: Sequence[int]) -> str:
        return " + ".join(self.card(c) for c in cards)

    def direction(self, steps: int) -> str:
        return self.t("duel.words.right" if steps > 0 else "duel.words.left")

    def dice_count(self, count: int) -> str:
        """``'1 die'``, ``'3 dice'``."""
        return self.t("duel.words.die_one") if count == 1 else self.t("duel.words.dice_many",
                                                                        count=count)

    def dice(self, dice: Sequence[int]) -> str:
        return " ".join(str(d) for d in dice)


# -- what happened, from the engine's event log ---------------------------------------------------


@dataclass
class DuelRecord:
    """A duel as the panel shows it, rebuilt from the engine's events."""

    number: int
    key: int
    piano: tuple[int, int]
    attacker: int
    powers: tuple[int, int]
    first_dice: tuple[tuple[int, ...], tuple[int, ...]]
    dice: list[list[int]]
    adds: list[int] = field(default_factory=lambda: [0, 0])
    runs: tuple[list[tuple[int, dict[str, Any], int]], list[tuple[int, dict[str, Any], int]]] = (
        field(default_factory=lambda: ([], [])))
    locked: list[bool] = field(default_factory=lambda: [False, False])
    winner: int | None = None
    result_totals: tuple[int, int] | None = None

    def role(self, seat: int) -> int:
        return 0 if seat == self.attacker else 1

    def seat(self, role: int) -> int:
        return self.attacker if role == 0 else 1 - self.attacker

    def total(self, role: int) -> int:
        return sum(self.dice[role]) + self.adds[role]


@dataclass
class RoundRecord:
    """A scored round, for the round-end screen."""

    number: int
    piano: tuple[int, int]
    board: list[tuple[int, int, int, int, int]]  # (seat, token, key, power, points)
    scores: tuple[int, int]
    totals: tuple[int, int]
    bonuses: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # piano cards held whole


@dataclass
class Story:
    """The engine's log told as entries (a key in the catalogue and its values), plus the
    duels and rounds it contains. Rebuilt from scratch after an undo."""

    entries: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    duels: list[DuelRecord] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    seen: int = 0
    piano: tuple[int, int] = (0, 1)
    placed: list[int] = field(default_factory=lambda: [0, 0])
    final_said: bool = False
    action: dict[str, Any] | None = None

    def read(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Take in the events not seen yet."""
        for event in events[self.seen:]:
            self._event(event)
        self.seen = len(events)

    def _add(self, entry: str, **values: Any) -> None:
        self.entries.append((entry, values))

    def _event(self, event: Mapping[str, Any]) -> None:
        kind = event["event"]
        if kind == "action":
            self.action = dict(event["action"])
        elif kind == "round_start":
            self.piano = (event["piano"][0], event["piano"][1])
            self.placed = [0, 0]
            self.final_said = False
            self._add("duel.log.round_start", round=event["round"], piano=self.piano,
                      seat=event["starter"])
        elif kind == "place":
            self.placed[event["seat"]] += 1
            self._add("duel.log.place", seat=event["seat"], power=event["power"],
                      key=event["key"], piano=self.piano, cards=list(event["cards"]))
        elif kind == "merge":
            self._add("duel.log.merge" if not event["lost"] else "duel.log.merge_lost",
                      seat=event["seat"], power=event["power"], lost=event["lost"],
                      key=event["key"], piano=self.piano)
        elif kind == "move":
            action = self.action or {}
            self._add("duel.log.move", seat=event["seat"], start=event["from"],
                      end=event["to"], steps=action.get("steps", 0), card=action.get("card"),
                      piano=self.piano)
        elif kind == "shift":
            action = self.action or {}
            self._add("duel.log.shift", seat=event["seat"], card=action.get("card"),
                      side=event["piano"], step=event["step"], piano=self.piano)
        elif kind == "duel":
            attacker = event["attacker"]
            record = DuelRecord(
                number=len(self.duels) + 1,
                key=event["key"],
                piano=self.piano,
                attacker=attacker,
                powers=(event["attacker_power"], event["defender_power"]),
                first_dice=(tuple(event["attacker_dice"]), tuple(event["defender_dice"])),
                dice=[list(event["attacker_dice"]), list(event["defender_dice"])],
            )
            self.duels.append(record)
            self._add("duel.log.duel", seat=attacker, other=1 - attacker, key=event["key"],
                      piano=self.piano, power=record.powers[0], other_power=record.powers[1],
                      dice=record.first_dice[0], other_dice=record.first_dice[1])
        elif kind == "duel_card":
            record = self.duels[-1]
            role = record.role(event["seat"])
            if event["effect"] == "add":
                record.adds[role] += event["amount"]
                side = role
            else:
                side = role if event["effect"] == "reroll_own_lowest" else 1 - role
                record.dice[side][event["die"]] = event["new"]
            record.runs[role].append((event["card"], dict(event), record.total(side)))
            self._add(f"duel.log.card.{event['effect']}", seat=event["seat"],
                      other=1 - event["seat"], card=event["card"], amount=event.get("amount"),
                      old=event.get("old"), new=event.get("new"), total=record.total(side))
        elif kind == "lock_in":
            record = self.duels[-1]
            role = record.role(event["seat"])
            record.locked[role] = True
            self._add("duel.log.lock_in", seat=event["seat"], total=record.total(role))
        elif kind == "duel_result":
            record = self.duels[-1]
            record.winner = event["winner"]
            record.result_totals = (event["attacker_total"], event["defender_total"])
            self._add("duel.log.duel_result", seat=event["winner"], other=1 - event["winner"],
                      key=event["key"], piano=record.piano,
                      score=max(record.result_totals), other_score=min(record.result_totals))
        elif kind == "end_turn":
            seat = event["seat"]
            self._add("duel.log.pass" if event["passed"] else "duel.log.end_turn", seat=seat,
                      drawn=0)
            if self.placed[seat] == 5 and not self.final_said:
                self.final_said = True  # D12: the opponent takes one final turn
                self._add("duel.log.final_turn", seat=seat, other=1 - seat)
        elif kind == "draw":
            key, values = self.entries[-1] if self.entries else ("", {})
            count = event.get("count", len(event.get("cards", ())))
            if key in ("duel.log.end_turn", "duel.log.pass") and values["seat"] == event["seat"]:
                values["drawn"] = count
        elif kind == "reshuffle":
            self._add("duel.log.reshuffle", count=event["cards"])
        elif kind == "round_end":
            self.rounds.append(_round_record(event, self.piano))
            self._add("duel.log.round_end", round=event["round"], score=event["scores"][0],
                      other_score=event["scores"][1], total=event["totals"][0],
                      other_total=event["totals"][1])
        elif kind == "game_over":
            totals = event["totals"]
            self._add("duel.log.game_over", seat=event["winner"],
                      score=max(totals), other_score=min(totals))


def _round_record(event: Mapping[str, Any], piano: tuple[int, int]) -> RoundRecord:
    """A scored round: the board as it stood, what each token scored, the bonuses."""
    board = []
    held: dict[int, int] = {}
    for seat, token, key, power in event["board"]:
        card = PIANO_CARDS[piano[key // KEYS_PER_CARD]]
        board.append((int(seat), int(token), int(key), int(power),
                      int(power) * card.multiplier(key % KEYS_PER_CARD)))
        held[int(key)] = int(seat)
    bonuses: list[list[int]] = [[], []]
    for side in (0, 1):
        tones = [side * KEYS_PER_CARD + pc for pc in PIANO_CARDS[piano[side]].chord_pitch_classes]
        owners = {held.get(k) for k in tones}
        if len(owners) == 1 and None not in owners:
            bonuses[owners.pop() or 0].append(side)
    return RoundRecord(number=event["round"], piano=piano, board=board,
                       scores=(event["scores"][0], event["scores"][1]),
                       totals=(event["totals"][0], event["totals"][1]),
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
    return words.t(entry, **shown)

