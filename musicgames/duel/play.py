"""How a Keyboard Duel game plays a checked action: the rules that change the table (D7–D15).

The primitives take plain numbers, so that :meth:`DuelState.apply` and :meth:`DuelState.
rollout` (which makes no action objects) play through the very same code; the board's own
steps (arrive, merge, shift, duel, score) are :mod:`musicgames.duel.kernel`'s.
"""

from __future__ import annotations

from musicgames.duel import kernel
from musicgames.duel.actions import Action, DuelCard, EndTurn, LockIn, Move, Place
from musicgames.duel.cards import (
    CARD_ADD,
    CARD_REROLL,
    CARD_SHIFT,
    DECK_SIZE,
    HAND_SIZE,
    PIANO_CARDS,
)
from musicgames.duel.events import (
    CardPlayed,
    Dealt,
    DiceRolled,
    DieRerolled,
    Drew,
    DuelStarted,
    DuelWon,
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
    TokenScore,
    TurnEnded,
)
from musicgames.duel.position import (
    _ATTACK,
    _DEFEND,
    _OVER,
    _TURN,
    BLACK,
    MAX_TURNS_PER_ROUND,
    ROUNDS,
    TOKENS_PER_SEAT,
    Position,
    _record,
    _shuffle,
)

__all__ = ["Playing"]


class Playing(Position):
    """A position that plays checked actions for the seat to act, telling what happened
    (events, :mod:`musicgames.duel.events`) to whoever listens (``_emit``)."""

    __slots__ = ()

    def _play(self, action: Action) -> None:
        """Play a checked action for :attr:`seat_to_act` (the rules are the primitives below)."""
        kind = type(action)
        if kind is Place:
            self._place_cards(action.cards, action.key)  # type: ignore[union-attr]
        elif kind is Move:
            self._move_token(action.card, action.key, action.steps)  # type: ignore[union-attr]
        elif kind is EndTurn:
            self._do_end_turn()
        elif kind is DuelCard:
            self._play_duel_card(action.card)  # type: ignore[union-attr]
        elif kind is LockIn:
            self._do_lock_in()
        else:
            self._shift_tokens(action.card, action.piano)  # type: ignore[union-attr]

    def _place_cards(self, cards: tuple[int, ...], key: int) -> None:
        """D8: the turn player places a token of power ``len(cards)`` on ``key``."""
        seat = self._turn
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._discard.extend(cards)
        power = len(cards)
        token = kernel.place_token(self._status, self._key, self._power, seat, key, power)
        self._placed = True
        if self._emit is not None:
            self._emit(_record(Placed, (seat, token % TOKENS_PER_SEAT, key, power, cards)))
        self._arrive(token)

    def _move_token(self, card: int, key: int, steps: int) -> None:
        """D9: the turn player plays ``card`` to move its token on ``key`` by ``steps``."""
        seat = self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        token = kernel.lift(self._board, self._key, key, steps)
        self._moved = True
        if self._emit is not None:
            self._emit(_record(Moved, (seat, token % TOKENS_PER_SEAT, key, self._key[token],
                                       steps, card)))
        self._arrive(token)

    def _shift_tokens(self, card: int, piano: int) -> None:
        """D9: the turn player plays an arrow ``card`` to shift its tokens on ``piano``."""
        seat = self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        step = CARD_SHIFT[card]
        moves, arriving = kernel.shift(self._board, self._key, seat, piano, step)
        self._pending = arriving
        self._moved = True
        if self._emit is not None:
            self._emit(_record(Shifted, (seat, piano, step, card,
                                         tuple((t % TOKENS_PER_SEAT, a, b) for t, a, b in moves))))
        self._resolve_pending()

    def _arrive(self, token: int) -> bool:
        """Settle a token at its key: free key, merge (D10) or duel (D11). True if a duel."""
        holder = kernel.arrive(self._board, self._key, token)
        if holder < 0:
            return False
        seat = token // TOKENS_PER_SEAT
        if holder // TOKENS_PER_SEAT == seat:
            key = self._key[token]
            lost = kernel.merge(self._key, self._power, self._status, holder, token)
            if self._emit is not None:
                self._emit(_record(Merged, (seat, token % TOKENS_PER_SEAT,
                                            holder % TOKENS_PER_SEAT, key, self._power[holder],
                                            lost)))
            return False
        # D11: a duel; its start is a chance outcome — both sides roll (D11a).
        key = self._key[token]
        self._dkey = key
        self._datt = token
        self._ddef = holder
        self._dadd = [0, 0]
        self._druns = [[], []]
        self._phase = _ATTACK
        if self._emit is not None:
            self._emit(_record(DuelStarted, (key, seat, token % TOKENS_PER_SEAT,
                                             holder % TOKENS_PER_SEAT, self._power[token],
                                             self._power[holder])))
        attack = self._roll(kernel.dice_for_power(self._power[token]))
        defence = self._roll(kernel.dice_for_power(self._power[holder]))
        self._ddice = [attack, defence]
        if self._emit is not None:
            self._emit(_record(DiceRolled, (seat, tuple(attack))))
        if self._emit is not None:
            self._emit(_record(DiceRolled, (1 - seat, tuple(defence))))
        return True

    def _resolve_pending(self) -> None:
        pending = self._pending
        while pending:
            if self._arrive(pending.pop(0)):
                return
        self._phase = _TURN

    def _play_duel_card(self, card: int) -> None:
        """D11b, c: the side to act adds ``card`` to its run."""
        role = self._phase - _ATTACK
        seat = self._turn if role == 0 else 1 - self._turn
        self._hands[seat].remove(card)
        self._discard.append(card)
        self._druns[role].append(card)
        direction = CARD_REROLL[card]
        reroll = None
        if direction:  # D11b: ↑ rerolls one's own lowest die, ↓ the opponent's highest
            own, lowest = kernel.reroll_target(direction)
            side = role if own else 1 - role
            dice = self._ddice[side]
            index = kernel.reroll_index(dice, lowest)
            old = dice[index]
            dice[index] = self._roll(1)[0]
            owner = seat if own else 1 - seat
            reroll = _record(DieRerolled, (seat, owner, index, old, dice[index]))
            effect, amount = ("reroll_own_lowest" if own else "reroll_their_highest"), 0
        else:  # D11b: a number adds its value, a Wild 1
            amount = CARD_ADD[card]
            self._dadd[role] += amount
            effect = "add"
        if self._emit is not None:
            self._emit(_record(CardPlayed, (seat, card, effect, amount,
                                            sum(self._ddice[0]) + self._dadd[0],
                                            sum(self._ddice[1]) + self._dadd[1])))
        if reroll is not None and self._emit is not None:
            self._emit(reroll)

    def _do_lock_in(self) -> None:
        if self._phase == _ATTACK:
            self._phase = _DEFEND
            if self._emit is not None:
                self._emit(_record(LockedIn, (self._turn, sum(self._ddice[0]) + self._dadd[0])))
            return
        attack = sum(self._ddice[0]) + self._dadd[0]
        defence = sum(self._ddice[1]) + self._dadd[1]
        if self._emit is not None:
            self._emit(_record(LockedIn, (1 - self._turn, defence)))
        key = self._dkey
        won = kernel.attacker_wins(attack, defence)
        loser = kernel.settle_duel(self._board, self._key, self._status, self._datt,
                                   self._ddef, won)
        winner = self._datt if won else self._ddef
        if self._emit is not None:
            self._emit(_record(DuelWon, (key, winner // TOKENS_PER_SEAT, self._turn, attack,
                                         defence, winner % TOKENS_PER_SEAT,
                                         loser % TOKENS_PER_SEAT)))
        self._clear_duel()
        self._resolve_pending()

    def _do_end_turn(self) -> None:
        seat = self._turn
        if self._emit is not None:
            self._emit(_record(TurnEnded, (seat, not (self._placed or self._moved))))
        self._turns += 1
        if self._final or self._turns >= MAX_TURNS_PER_ROUND:
            self._end_round()
            return
        self._refill(seat)
        if kernel.final_turn_due(self._status, seat):
            self._final = True  # D12: the opponent takes one final turn
            if self._emit is not None:
                self._emit(_record(FinalTurnBegins, (1 - seat, seat)))
        self._turn = 1 - seat
        self._placed = False
        self._moved = False

    def _refill(self, seat: int) -> None:
        hand, draw = self._hands[seat], self._draw
        need = HAND_SIZE - len(hand)
        if need <= 0:
            return
        if len(draw) >= need:  # the usual case: cards are drawn from the end, last first
            drawn = draw[: -need - 1 : -1]
            del draw[-need:]
            hand.extend(drawn)
            if self._emit is not None:
                self._emit(_record(Drew, (seat, tuple(drawn), need)))
            return
        drawn = []
        while len(hand) < HAND_SIZE:
            if not draw:
                if not self._discard:
                    break
                draw.extend(self._discard)
                self._discard.clear()
                _shuffle(self._touch_rng(), draw)
                if self._emit is not None:
                    self._emit(_record(Reshuffled, (len(draw),)))
            card = draw.pop()
            hand.append(card)
            drawn.append(card)
        if drawn and self._emit is not None:
            self._emit(_record(Drew, (seat, tuple(drawn), len(drawn))))

    def _end_round(self) -> None:
        scores = kernel.round_score(self._board, self._power, self._piano)  # D13
        self._totals[0] += scores[0]
        self._totals[1] += scores[1]
        self._round_scores.append(scores)
        if self._emit is not None:  # the breakdown is made only for someone to hear
            rows = kernel.round_breakdown(self._board, self._power, self._piano)
            self._emit(_record(RoundScored, (self._round,
                                             tuple([_record(TokenScore, row) for row in rows]),
                                             tuple(kernel.chord_bonuses(self._board, self._piano)),
                                             scores, (self._totals[0], self._totals[1]),
                                             not self._final)))
        if self._round >= ROUNDS and self._totals[0] != self._totals[1]:
            self._phase = _OVER
            if self._emit is not None:
                self._emit(_record(GameOver, (self.winner, (self._totals[0], self._totals[1]))))
            return
        # D14: the lower scorer starts; after a tied round, whoever moved second.
        self._start_round(self._round + 1, kernel.next_starter(scores, self._starter))

    def _start_round(self, number: int, starter: int) -> None:
        """D6, D14: fresh piano cards, all tokens back, a fresh shuffle and deal."""
        rng = self._touch_rng()
        if len(self._piano_deck) < 2:  # D3: the piano deck is spent; shuffle all 24 again
            self._piano_deck = list(range(len(PIANO_CARDS)))
            _shuffle(rng, self._piano_deck)
        self._piano = [self._piano_deck.pop(), self._piano_deck.pop()]
        self._clear_round(number, starter)
        deck = list(range(DECK_SIZE))
        _shuffle(rng, deck)
        self._hands = [deck[-1:-2 * HAND_SIZE - 1:-2], deck[-2:-2 * HAND_SIZE - 2:-2]]
        if starter == BLACK:
            self._hands.reverse()
        del deck[-2 * HAND_SIZE:]
        self._draw = deck
        self._discard = []
        if self._emit is not None:
            self._emit(_record(RoundStarted, (number, starter, (self._piano[0], self._piano[1]))))
        for seat in (starter, 1 - starter):
            if self._emit is not None:
                self._emit(_record(Dealt, (seat, tuple(self._hands[seat]), HAND_SIZE)))
