"""A Keyboard Duel game's record: its actions, its story and log, undo and a player's fair
take-back.

:meth:`~History.undo` (for programs) rewinds anything; :meth:`~History.take_back` (for
players) only what showed no chance and no hidden card (D6, D7, D11a). The story is kept as
typed events (:mod:`musicgames.duel.events`); the plain-JSON log is written from it when read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from musicgames.duel.actions import Action
from musicgames.duel.errors import NotAnActionError, NothingToUndoError, TakeBackStoppedError
from musicgames.duel.events import (
    ActionTaken,
    CardPlayed,
    Dealt,
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
    seen_by,
)
from musicgames.duel.position import _OVER, BLACK, WHITE, Position, _is_int, _seat_name
from musicgames.shown import short_repr

__all__ = ["TakeBackReach", "History"]


class TakeBackReach(NamedTuple):
    """How far :meth:`DuelState.take_back` can go now: ``actions`` actions, and what stops
    it there: ``"dice"`` (the action before rolled dice), ``"draw"`` (it drew, dealt or
    shuffled cards), ``"other_player"`` (it was the other player's), ``"not_their_move"``
    (the seat asking is not the one to act), ``"round"`` (the round began there), ``"over"``
    (the game is over) or ``"start"`` (the game began there)."""

    actions: int
    stop: str


#: The rules a take-back's stop cites (see :meth:`DuelState._take_back_stop`).
_TAKE_BACK_RULES: dict[str, dict[str, Any]] = {
    "over": {"rule": "D15"}, "dice": {"rule": "D11a"}, "round": {"rule": "D12"},
    "draw": {"rule": "D7", "rules": ("D6", "D7")},
}
#: Events that show chance (dice) or hidden cards (a draw, a deal, a shuffle): a take-back
#: never undoes an action that caused one.
_DICE_EVENTS = (DiceRolled, DieRerolled)
_DRAW_EVENTS = (Drew, Dealt, Reshuffled, RoundStarted)


class History(Position):
    """A position that remembers how it got here."""

    __slots__ = ()

    def undo(self) -> Action:
        """Take back the last action (any number of times, back to the start); returns it.

        The game goes back exactly as it was, its random generator included, so the same
        action rolls the same dice again. For a player's take-back, use :meth:`take_back`.
        """
        if not self._undo:
            raise NothingToUndoError("undo() refused: there is no action to undo: "
                                + ("the game is at its start" if self._full else
                                   "a history-free copy keeps no undo stack"))
        snapshot, rng_state = self._undo.pop()
        action = self._history[-1]
        self._restore(snapshot)
        if rng_state is not None:
            self._rng.setstate(rng_state)
        self._legal = [None, None]
        self._legal_ids = None
        return action

    @property
    def actions_this_round(self) -> int:
        """How many actions :meth:`take_back` may take back now: those since the current
        round began (0 once the game is over: a scored round stays scored)."""
        if self._phase == _OVER:
            return 0
        count = 0
        for snapshot, _ in reversed(self._undo):
            if snapshot[0] != self._round:
                break
            count += 1
        return count

    def take_back_reach(self, seat: int | None = None) -> TakeBackReach:
        """How many actions :meth:`take_back` may undo now, and what stops it there.

        A take-back undoes only what showed no chance and no hidden card, as on online
        board-game sites: it stops at the last action that rolled dice (D11a, an arrow's
        reroll) or drew, dealt or shuffled cards (D6, D7), and at the other player's last
        action (it showed their cards). ``seat`` is who takes back (default: the seat whose
        move it is); a player takes back only while it is their move.

        >>> from musicgames.duel import DuelState, Move, Place, card_ids
        >>> game = DuelState.from_position(hands=("D1 E2", "F1"), tokens=([], [(0, 2)]))
        >>> game.take_back_reach()
        TakeBackReach(actions=0, stop='start')
        >>> _ = game.apply(Place(card_ids("D1"), key=2))
        >>> game.take_back_reach()
        TakeBackReach(actions=1, stop='start')
        >>> _ = game.apply(Move(card_ids("E2")[0], key=2, steps=-2))   # onto Black's C: dice
        >>> game.take_back_reach()
        TakeBackReach(actions=0, stop='dice')
        """
        self._check_take_back_seat(seat, f"take_back_reach({short_repr(seat)})")
        if self._phase == _OVER:
            return TakeBackReach(0, "over")
        to_act = self.seat_to_act
        if seat is None:
            seat = to_act
        if seat != to_act:
            return TakeBackReach(0, "not_their_move")
        events = self._events
        end = len(events)
        count = 0
        for snapshot, rng_state in reversed(self._undo):
            begin = snapshot[-2]  # the events before this action
            shown = events[begin + 1:end]
            if any(type(event) in _DICE_EVENTS for event in shown):
                return TakeBackReach(count, "dice")
            if rng_state is not None or any(type(event) in _DRAW_EVENTS for event in shown):
                return TakeBackReach(count, "draw")
            if snapshot[0] != self._round:
                return TakeBackReach(count, "round")
            if events[begin].seat != seat:
                return TakeBackReach(count, "other_player")
            count += 1
            end = begin
        return TakeBackReach(count, "start")

    def take_back(self, count: int = 1, seat: int | None = None) -> tuple[Action, ...]:
        """A player's fair take-back of the last ``count`` actions; returns them, last first.

        It undoes only what showed no chance and no hidden card (see :meth:`take_back_reach`):
        never an action that rolled dice or drew cards, never the other player's action (it
        showed their cards), never past the start of the round (a scored round stays
        scored). Asked to go further it raises :class:`TakeBackStoppedError`, saying what
        stops it, and changes nothing. ``seat`` is who takes back (default: the seat whose
        move it is); a player takes back only while it is their move.

        The take-back is part of the game's record: :meth:`to_json` saves it, and a loaded
        game replays it.

        >>> from musicgames.duel import DuelState, Place, card_ids
        >>> game = DuelState.from_position(hands=("C1 D3", "E1"), tokens=([], [(0, 2)]))
        >>> game.apply(Place(card_ids("D3"), key=2))
        (Placed(seat=0, token=0, key=2, power=1, cards=(7,)),)
        >>> game.take_back()
        (Place(cards=(7,), key=2),)
        >>> attack = Place(card_ids("C1"), key=0)   # onto Black's C: a duel, dice rolled
        >>> [event.dice for event in game.apply(attack)[2:]]
        [(4,), (4,)]
        >>> game.take_back()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        musicgames.duel.errors.TakeBackStoppedError: take_back(1) refused: ... rolled dice ...
        >>> game.undo()   # undo() (for programs) rewinds everything, the generator included
        Place(cards=(0,), key=0)
        >>> DuelState.from_json(game.to_json()).to_json() == game.to_json()
        True
        """
        if not _is_int(count):
            raise NotAnActionError(f"take_back({short_repr(count)}) refused: the count is a "
                                   "whole number of actions")
        if count < 1:
            raise NothingToUndoError(f"take_back({short_repr(count)}) refused: take back 1 "
                                     "action or more")
        self._check_take_back_seat(seat, f"take_back(seat={short_repr(seat)})")
        if seat is None:
            seat = self.seat_to_act
        reach = self.take_back_reach(seat)
        if count > reach.actions:
            raise TakeBackStoppedError(f"take_back({short_repr(count)}) refused: "
                                       f"{self._take_back_stop(reach, seat)}", reach.stop,
                                       **_TAKE_BACK_RULES.get(reach.stop, {}))
        rng_state = self._rng.getstate()
        saved = self._saved_actions[:]
        taken = []
        for _ in range(count):
            snapshot, _ = self._undo.pop()
            taken.append(self._history[-1])
            self._restore(snapshot)
        self._rng.setstate(rng_state)
        saved.append(count)  # a take-back of ``count`` actions
        self._saved_actions = saved
        self._legal = [None, None]
        self._legal_ids = None
        return tuple(taken)

    @staticmethod
    def _check_take_back_seat(seat: object, said: str) -> None:
        """Refuse a take-back's seat that is not None, 0 (White) or 1 (Black)."""
        if seat is not None and (not _is_int(seat) or seat not in (WHITE, BLACK)):
            raise NotAnActionError(f"{said} refused: a seat is 0 (White) or 1 (Black) (D1)",
                                   rule="D1")

    def _take_back_stop(self, reach: TakeBackReach, seat: int | None) -> str:
        """Why a take-back cannot go past ``reach``, in words, with the rule."""
        if reach.stop == "over":
            return "the game is over: a scored game stays scored (D15)"
        if reach.stop == "start":
            return "the game began there"
        if reach.stop == "not_their_move":
            return (f"it is {_seat_name(1 - seat) if seat is not None else 'nobody'}'s move: a "
                    "player takes back only while it is their move")
        can = (f"only {reach.actions} action{'s' if reach.actions != 1 else ''} can"
               if reach.actions else "no action can")
        before = "the action before them" if reach.actions else "the last action"
        if reach.stop == "dice":
            why = f"{before} rolled dice (D11a), and a roll seen cannot be unseen"
        elif reach.stop == "draw":
            why = (f"{before} drew or dealt cards (D6, D7), and cards seen cannot be "
                   "unseen")
        elif reach.stop == "other_player":
            who = _seat_name(1 - seat) if seat is not None else "the other player"
            why = (f"{before} was {who}'s, and a player takes back only their own "
                   "(it showed their cards)")
        else:
            why = "a round scored stays scored (D12)"
        return f"{can} be taken back: {why}"

    def actions(self) -> tuple[Action, ...]:
        """Every action applied since the start position, in order."""
        return tuple(self._history)

    @property
    def log(self) -> tuple[dict[str, Any], ...]:
        """Every event so far, oldest first (plain JSON objects; treat as read-only).

        Each action appears as ``{"type": "action", "seat": s, "action": {...}}``,
        followed by what it caused: ``place``, ``move``, ``shift``, ``merge``, ``duel``,
        ``duel_card``, ``lock_in``, ``duel_result``, ``end_turn``, ``draw``, ``reshuffle``,
        ``round_end``, ``round_start``, ``deal``, ``final_turn``, ``game_over``. The same
        story as typed values is :meth:`story`.
        """
        self._sync_log()
        return tuple(self._log)

    def _sync_log(self) -> None:
        """Write the events not yet in the plain-JSON log into it (the log is made when
        read: playing keeps only the typed events)."""
        events = self._events
        if self._log_seen < len(events):
            log = self._log
            for event in events[self._log_seen:]:
                _log_event(log, event)
            self._log_seen = len(events)

    def story(self, seat: int | None = None) -> tuple[Event, ...]:
        """Every event so far, oldest first, as typed values (:mod:`musicgames.duel.events`):
        each action (:class:`~musicgames.duel.events.ActionTaken`) followed by the events it
        caused. With ``seat``, as that seat may see it: the other seat's dealt and drawn cards
        hidden (D16). A history-free copy keeps no story.
        """
        if seat is None:
            return tuple(self._events)
        return tuple(seen_by(event, seat) for event in self._events)

    def events(self, seat: int) -> list[dict[str, Any]]:
        """The log as ``seat`` may see it: the other seat's dealt and drawn cards become
        counts (D16)."""
        out: list[dict[str, Any]] = []
        self._sync_log()
        for event in self._log:
            if event["type"] in ("deal", "draw") and event["seat"] != seat:
                event = {"type": event["type"], "seat": event["seat"],
                         "count": len(event["cards"])}
            out.append(event)
        return out


def _log_event(log: list[dict[str, Any]], event: Event) -> None:
    """Add an event to the plain-JSON log (:attr:`DuelState.log`): one entry per event, but
    a duel's dice join its ``duel`` entry and a reroll joins its ``duel_card`` entry."""
    kind = type(event)
    e: Any = event
    if kind is ActionTaken:
        log.append({"type": "action", "seat": e.seat, "action": e.action.to_json()})
        return
    if kind is DiceRolled:
        entry = log[-1] if log[-1]["type"] == "duel" else log[-2]
        side = "attacker_dice" if e.seat == entry["attacker"] else "defender_dice"
        entry[side] = list(e.dice)
        return
    if kind is DieRerolled:
        log[-1].update(die=e.die, old=e.old, new=e.new)
        return
    if kind is Placed:
        item = {"type": "place", "seat": e.seat, "token": e.token, "key": e.key,
                "power": e.power, "cards": list(e.cards)}
    elif kind is Moved:
        item = {"type": "move", "seat": e.seat, "token": e.token, "from": e.start,
                "to": e.end}
    elif kind is Shifted:
        item = {"type": "shift", "seat": e.seat, "piano": e.piano, "step": e.step,
                "moves": [list(m) for m in e.moves]}
    elif kind is Merged:
        item = {"type": "merge", "seat": e.seat, "token": e.token, "into": e.into,
                "key": e.key, "power": e.power, "lost": e.lost}
    elif kind is DuelStarted:
        item = {"type": "duel", "key": e.key, "attacker": e.attacker,
                "attacker_token": e.attacker_token, "defender_token": e.defender_token,
                "attacker_power": e.attacker_power, "defender_power": e.defender_power,
                "attacker_dice": [], "defender_dice": []}
    elif kind is CardPlayed:
        item = {"type": "duel_card", "seat": e.seat, "card": e.card}
        if e.effect == "add":
            item.update(effect="add", amount=e.amount)
        else:
            item["effect"] = e.effect
    elif kind is LockedIn:
        item = {"type": "lock_in", "seat": e.seat}
    elif kind is DuelWon:
        item = {"type": "duel_result", "key": e.key, "winner": e.winner,
                "attacker_total": e.attacker_total, "defender_total": e.defender_total,
                "beaten_token": e.beaten_token}
    elif kind is TurnEnded:
        item = {"type": "end_turn", "seat": e.seat, "passed": e.passed}
    elif kind is Drew:
        item = {"type": "draw", "seat": e.seat, "cards": list(e.cards)}
    elif kind is Reshuffled:
        item = {"type": "reshuffle", "cards": e.cards}
    elif kind is FinalTurnBegins:
        item = {"type": "final_turn", "seat": e.seat, "placed_all": e.placed_all}
    elif kind is RoundScored:
        item = {"type": "round_end", "round": e.round, "scores": list(e.scores),
                "totals": list(e.totals),
                "board": [[t.seat, t.token, t.key, t.power] for t in e.tokens]}
    elif kind is GameOver:
        item = {"type": "game_over", "winner": e.winner, "totals": list(e.totals)}
    elif kind is RoundStarted:
        item = {"type": "round_start", "round": e.round, "starter": e.starter,
                "piano": list(e.piano)}
    else:  # Dealt
        item = {"type": "deal", "seat": e.seat, "cards": list(e.cards)}
    log.append(item)
