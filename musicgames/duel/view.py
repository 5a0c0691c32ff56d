"""What one seat may see of a Keyboard Duel game (rule D16).

A :class:`SeatView` holds the seat's own hand, the board, the piano cards, the discard pile,
any duel in progress, the scores, and counts of everything hidden (the other hand, the draw
pile). It never holds the other seat's cards or the draw order, so a computer player that
decides from a view cannot cheat. Two games that differ only in hidden cards give equal views.

Token tables are indexed by token number ``t`` = seat × 5 + index (White's 0–4, Black's
5–9); ``board[key]`` is the token holding a key, or −1.
"""

from __future__ import annotations

from dataclasses import dataclass

from musicgames.duel import kernel, legal
from musicgames.duel.actions import Action
from musicgames.duel.cards import DECK_SIZE, KEYS_PER_CARD, PIANO_CARDS
from musicgames.duel.table import DuelInfo, Phase, Token, TokenState, dice_for_power

__all__ = ["SeatView"]


@dataclass(frozen=True)
class SeatView:
    """One seat's view of the game: everything public plus its own hand."""

    seat: int
    to_act: int | None
    phase: Phase
    round: int
    starter: int
    turn: int
    turn_number: int
    final_turn: bool
    placed: bool
    moved: bool
    hand: tuple[int, ...]
    hand_sizes: tuple[int, int]
    draw_size: int
    discard: tuple[int, ...]
    piano: tuple[int, int]
    piano_deck_left: tuple[int, ...]
    token_states: tuple[int, ...]
    token_keys: tuple[int, ...]
    token_powers: tuple[int, ...]
    board: tuple[int, ...]
    duel: DuelInfo | None
    pending: tuple[int, ...]
    totals: tuple[int, int]
    round_scores: tuple[tuple[int, int], ...]

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def my_decision(self) -> bool:
        """True if this seat must act now."""
        return self.to_act == self.seat

    def running_scores(self) -> tuple[int, int]:
        """What each seat would bank if the round ended now, chord bonuses included (D13)."""
        if self.to_act is None:
            return (0, 0)
        return kernel.round_score(self.board, self.token_powers, self.piano)

    def key_multiplier(self, key: int) -> int:
        """The scoring multiplier of a key this round (D4)."""
        return PIANO_CARDS[self.piano[key // KEYS_PER_CARD]].multiplier(key % KEYS_PER_CARD)

    def tokens(self, seat: int) -> tuple[Token, ...]:
        """A seat's five tokens as the table shows them (states are public)."""
        states = tuple(TokenState)
        out = []
        for i in range(kernel.TOKENS_PER_SEAT):
            t = seat * kernel.TOKENS_PER_SEAT + i
            status, key, power = self.token_states[t], self.token_keys[t], self.token_powers[t]
            settled = status == kernel.ON_BOARD and self.board[key] == t
            out.append(Token(
                seat=seat, index=i, state=states[status],
                key=key if status == kernel.ON_BOARD else None, power=power,
                dice=dice_for_power(power) if power else 0,
                score=kernel.token_points(power, self.key_multiplier(key)) if settled else 0,
            ))
        return tuple(out)

    def legal_actions(self, distinct: bool = False) -> tuple[Action, ...]:
        """Every legal action of this seat now (empty when it is not this seat's decision).

        The same list :meth:`DuelState.legal_actions` gives: legality never depends on
        hidden cards.
        """
        if self.to_act != self.seat:
            return ()
        if self.duel is None:
            return legal.turn_actions(self.seat, self.hand, self.token_states, self.board,
                                      self.placed, self.moved, distinct)
        run = self.duel.attacker_run if self.seat == self.duel.attacker else self.duel.defender_run
        return legal.duel_actions(self.hand, run, distinct)

    def is_legal(self, action: object) -> bool:
        """True if ``action`` is one of :meth:`legal_actions`."""
        return action in self.legal_actions()

    def unseen_cards(self) -> tuple[int, ...]:
        """Cards this seat cannot see: the other hand and the draw pile together, sorted."""
        seen = set(self.hand) | set(self.discard)
        return tuple(c for c in range(DECK_SIZE) if c not in seen)
