"""Why a Keyboard Duel action is refused: every check an action passes before it is played.

Every refusal raises the :class:`~musicgames.duel.errors.DuelError` of its cause, naming the
action (its keys spelled in their chord's key), the reason and the rule (D1–D16) that
refuses it; the error's ``rule`` holds that rule. Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Iterable

from musicgames.duel import legal
from musicgames.duel.actions import DuelCard, EndTurn, LockIn, Move, Place, Shift
from musicgames.duel.cards import (
    BOARD_KEYS,
    CARD_LETTER,
    CARD_SHIFT,
    CARD_STEPS,
    COMPOSE_DECK,
    DECK_SIZE,
    KEYS_PER_CARD,
    LETTER_PITCH_CLASSES,
    PIANO_CARDS,
    key_words,
)
from musicgames.duel.errors import (
    CardNotInHandError,
    DuelError,
    DuplicateCardError,
    GameIsOverError,
    KeyOffBoardError,
    MixedLettersError,
    MustActFirstError,
    NoCardsError,
    NoSuchPianoCardError,
    NotAnActionError,
    NotNowError,
    NoTokenLeftError,
    NoTokenThereError,
    NotYourTokenError,
    NotYourTurnError,
    SecondMoveError,
    SecondPlaceError,
    TooManyCardsError,
    WrongCardError,
    WrongKeyError,
    WrongStepsError,
)
from musicgames.duel.position import (
    _ATTACK,
    _DEFEND,
    _OVER,
    _TURN,
    _UNPLACED,
    BLACK,
    TOKENS_PER_SEAT,
    WHITE,
    Position,
    _is_int,
    _seat_name,
)
from musicgames.shown import short_repr
from musicgames.theory import LETTERS

__all__ = ["Checking"]

_ACTION_TYPES = frozenset({Place, Move, Shift, DuelCard, LockIn, EndTurn})


def _card_list(cards: Iterable[int]) -> str:
    names = [str(COMPOSE_DECK[c]) for c in cards]
    return ", ".join(names) if names else "no cards"


def _cards_said(cards: object) -> str:
    if isinstance(cards, tuple) and all(_is_int(c) and 0 <= c < DECK_SIZE for c in cards):
        return " + ".join(str(COMPOSE_DECK[c]) for c in cards) or "no cards"
    return f"cards {short_repr(cards)}"


class Checking(Position):
    """A position that checks an action against the rules before it is played."""

    __slots__ = ()

    def is_legal(self, action: object, seat: int | None = None) -> bool:
        """True if :meth:`apply` would accept the action (from ``seat``, if given)."""
        try:
            self._check(action, seat)
        except DuelError:
            return False
        return True

    def check(self, action: object, seat: int | None = None) -> None:
        """Raise the :class:`DuelError` that :meth:`apply` would raise, or return quietly."""
        self._check(action, seat)

    def _check(self, action: object, seat: int | None) -> None:
        phase = self._phase
        if phase == _OVER:
            raise GameIsOverError(f"{self._said(action)} refused: "
                                  f"the game is over ({self._totals[0]}–"
                                  f"{self._totals[1]}) after three rounds (D15); start a new "
                                  "game",
                                  rule="D15")
        kind = type(action)
        if kind not in _ACTION_TYPES:
            raise NotAnActionError(f"{short_repr(action)} is not a Keyboard Duel action: use "
                                   "Place, Move, Shift (D7–D9), DuelCard, LockIn (D11) or "
                                   "EndTurn (D7)",
                                   rule="D7")
        actor = self._turn if phase != _DEFEND else 1 - self._turn
        if seat is not None and seat != actor:
            if seat not in (WHITE, BLACK):
                raise NotYourTurnError(f"{self._said(action)} refused: "
                                       f"{short_repr(seat)} is not a seat: use "
                                       "0 (White) or 1 (Black) (D1)",
                                       rule="D1")
            rule = "D7" if phase == _TURN else ("D11b" if phase == _ATTACK else "D11c")
            raise NotYourTurnError(f"{self._said(action)} refused: "
                                   f"it is {_seat_name(actor)}'s decision "
                                   f"({self._waiting_for()}), not {_seat_name(seat)}'s "
                                   f"({rule})",
                                   rule=rule)
        if kind is DuelCard or kind is LockIn:
            if phase == _TURN:
                raise NotNowError(f"{self._said(action)} refused: there is no duel now; it is "
                                  f"{_seat_name(actor)}'s turn to place or move (D7, D11)",
                                  rule="D11", rules=("D7", "D11"))
            if kind is DuelCard:
                self._check_duel_card(action, actor)  # type: ignore[arg-type]
            return
        if phase != _TURN:
            rule = "D11b" if phase == _ATTACK else "D11c"
            raise NotNowError(f"{self._said(action)} refused: "
                              f"the duel on {self._key_words(self._dkey)} is "
                              f"waiting for {_seat_name(actor)}'s run: play a duel card or "
                              f"lock in ({rule})",
                              rule=rule)
        if kind is Place:
            self._check_place(action, actor)  # type: ignore[arg-type]
        elif kind is Move:
            self._check_move(action, actor)  # type: ignore[arg-type]
        elif kind is Shift:
            self._check_shift(action, actor)  # type: ignore[arg-type]
        else:
            self._check_end_turn(action, actor)

    def _key_words(self, key: int) -> str:
        """A key in words for messages, spelled in its chord's key: 'B♭ (fff) of B♭ major'."""
        return key_words(key, self._piano)

    def _said(self, action: object) -> str:
        """An action in words for messages, its keys spelled in their chord's key."""
        kind = type(action)
        if kind is Place:
            assert isinstance(action, Place)
            if _is_int(action.key) and 0 <= action.key < BOARD_KEYS:
                return f"Place {_cards_said(action.cards)} on {self._key_words(action.key)}"
        elif kind is Move:
            assert isinstance(action, Move)
            key, steps = action.key, action.steps
            if _is_int(key) and 0 <= key < BOARD_KEYS and _is_int(steps):
                size = abs(steps)
                return (f"Move {_cards_said((action.card,))}: the token on "
                        f"{self._key_words(key)} {short_repr(size)} "
                        f"key{'s' if size != 1 else ''} "
                        f"{'right' if steps > 0 else 'left'}")
        elif kind is Shift:
            assert isinstance(action, Shift)
            if _is_int(action.piano) and action.piano in (0, 1):
                card = PIANO_CARDS[self._piano[action.piano]]
                return (f"Shift {_cards_said((action.card,))}: the "
                        f"{('left', 'right')[action.piano]} card ({card.name()})")
        return str(action)

    def _waiting_for(self) -> str:
        if self._phase == _TURN:
            return "their turn"
        side = "attack" if self._phase == _ATTACK else "defence"
        return f"the {side} run of the duel on {self._key_words(self._dkey)}"

    def _check_card(self, action: object, card: object, seat: int, rule: str) -> int:
        if not _is_int(card):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"a card is a whole number 0–41, not "
                                   f"{short_repr(card)} ({rule})",
                                   rule=rule)
        assert isinstance(card, int)
        if card not in self._hands[seat]:
            what = str(COMPOSE_DECK[card]) if 0 <= card < DECK_SIZE else "no card"
            raise CardNotInHandError(
                f"{self._said(action)} refused: "
                f"card {short_repr(card)} ({what}) is not in {_seat_name(seat)}'s hand "
                f"({_card_list(self._hands[seat])}); a player plays cards from their own hand "
                f"({rule})",
            rule=rule
            )
        return card

    def _check_place(self, action: Place, seat: int) -> None:
        if self._placed:
            raise SecondPlaceError(f"{self._said(action)} refused: "
                                   f"{_seat_name(seat)} has already placed a "
                                   "token this turn (one Place per turn, D7)",
                                   rule="D7")
        first = seat * TOKENS_PER_SEAT
        if _UNPLACED not in self._status[first : first + TOKENS_PER_SEAT]:
            raise NoTokenLeftError(f"{self._said(action)} refused: "
                                   f"{_seat_name(seat)} has placed all five "
                                   "tokens this round (five Dice Tokens, D6, D8)",
                                   rule="D8", rules=("D6", "D8"))
        cards = action.cards
        if not isinstance(cards, tuple):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'cards' must be a tuple of card ids, not "
                                   f"{short_repr(cards)} (D8)",
                                   rule="D8")
        if not cards:
            raise NoCardsError(f"{self._said(action)} refused: "
                               f"a Place needs at least one card (D8)",
                               rule="D8")
        if len(cards) > legal.MAX_PLACE_CARDS:
            raise TooManyCardsError(f"{self._said(action)} refused: "
                                    f"{len(cards)} cards, but a Place may "
                                    f"use at most {legal.MAX_PLACE_CARDS} (D8)",
                                    rule="D8")
        for card in cards:
            self._check_card(action, card, seat, "D8")
        if len(set(cards)) != len(cards):
            raise DuplicateCardError(f"{self._said(action)} refused: "
                                     f"a card is listed twice; each card is "
                                     "played once (D5, D8)",
                                     rule="D8", rules=("D5", "D8"))
        letters = {CARD_LETTER[c] for c in cards} - {-1}
        if len(letters) > 1:
            names = "/".join(LETTERS[x] for x in sorted(letters))
            raise MixedLettersError(f"{self._said(action)} refused: "
                                    f"the cards show different letters "
                                    f"({names}); a Place uses one letter plus any Wilds (D8)",
                                    rule="D8")
        key = action.key
        if not _is_int(key):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'key' must be a whole number 0–23, not "
                                   f"{short_repr(key)} (D2)",
                                   rule="D2")
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoardError(f"{self._said(action)} refused: "
                                   f"key {short_repr(key)} is off the board (keys are "
                                   "0–23, D2)",
                                   rule="D2")
        if letters:
            letter = letters.pop()
            pitch_class = LETTER_PITCH_CLASSES[letter]
            if key % KEYS_PER_CARD != pitch_class:
                raise WrongKeyError(
                    f"{self._said(action)} refused: "
                    f"{LETTERS[letter]} cards place on the {LETTERS[letter]} "
                    f"key, key {pitch_class} or {pitch_class + KEYS_PER_CARD}; only Wilds alone "
                    "name any key (D8)",
                rule="D8"
                )

    def _check_move(self, action: Move, seat: int) -> None:
        if self._moved:
            raise SecondMoveError(f"{self._said(action)} refused: "
                                  f"{_seat_name(seat)} has already moved this "
                                  "turn (one Move per turn, D7)",
                                  rule="D7")
        card = self._check_card(action, action.card, seat, "D9")
        if CARD_SHIFT[card]:
            raise WrongCardError(f"{self._said(action)} refused: "
                                 f"{COMPOSE_DECK[card]} is an arrow card; "
                                 "arrows shift every token on a piano card: use Shift (D9)",
                                 rule="D9")
        key, steps = action.key, action.steps
        if not _is_int(key) or not _is_int(steps):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'key' and 'steps' must be whole numbers "
                                   "(D2, D9)",
                                   rule="D9", rules=("D2", "D9"))
        if not 0 <= key < BOARD_KEYS:
            raise KeyOffBoardError(f"{self._said(action)} refused: "
                                   f"key {short_repr(key)} is off the board (keys are "
                                   "0–23, D2)",
                                   rule="D2")
        token = self._board[key]
        if token < 0:
            raise NoTokenThereError(f"{self._said(action)} refused: no token stands on "
                                    f"{self._key_words(key)}; a Move moves one of your tokens "
                                    "on the board (D9)",
                                    rule="D9")
        if token // TOKENS_PER_SEAT != seat:
            raise NotYourTokenError(f"{self._said(action)} refused: "
                                    f"the token on {self._key_words(key)} is "
                                    f"{_seat_name(1 - seat)}'s; a Move moves one of your own "
                                    "tokens (D9)",
                                    rule="D9")
        size = CARD_STEPS[card]
        if steps not in (size, -size):
            raise WrongStepsError(f"{self._said(action)} refused: "
                                  f"{COMPOSE_DECK[card]} moves exactly "
                                  f"{size} key{'s' if size > 1 else ''} (steps {size} or "
                                  f"{-size}), not {short_repr(steps)} (D9)",
                                  rule="D9")

    def _check_shift(self, action: Shift, seat: int) -> None:
        if self._moved:
            raise SecondMoveError(f"{self._said(action)} refused: "
                                  f"{_seat_name(seat)} has already moved this "
                                  "turn (one Move per turn, D7)",
                                  rule="D7")
        card = self._check_card(action, action.card, seat, "D9")
        if not CARD_SHIFT[card]:
            raise WrongCardError(f"{self._said(action)} refused: "
                                 f"{COMPOSE_DECK[card]} is not an arrow "
                                 "card; use Move to move one token (D9)",
                                 rule="D9")
        piano = action.piano
        if not _is_int(piano):
            raise NotAnActionError(f"{self._said(action)} refused: "
                                   f"'piano' must be 0 (left) or 1 (right), "
                                   f"not {short_repr(piano)} (D2)",
                                   rule="D2")
        if piano not in (0, 1):
            raise NoSuchPianoCardError(f"{self._said(action)} refused: "
                                       f"piano card {short_repr(piano)} does not exist: "
                                       "the board has two, 0 (left) and 1 (right) (D2)",
                                       rule="D2")
        first = piano * KEYS_PER_CARD
        board = self._board
        for key in range(first, first + KEYS_PER_CARD):
            if board[key] >= 0 and board[key] // TOKENS_PER_SEAT == seat:
                return
        raise NoTokenThereError(f"{self._said(action)} refused: "
                                f"{_seat_name(seat)} has no token on the "
                                f"{('left', 'right')[piano]} piano card; an arrow shifts your "
                                "tokens on one piano card (D9)",
                                rule="D9")

    def _check_duel_card(self, action: DuelCard, seat: int) -> None:
        role = self._phase - _ATTACK
        card = self._check_card(action, action.card, seat, "D11b" if role == 0 else "D11c")
        letter = legal.run_letter(self._druns[role])
        card_letter = CARD_LETTER[card]
        if letter >= 0 and card_letter >= 0 and card_letter != letter:
            raise MixedLettersError(f"{self._said(action)} refused: "
                                    f"this run shows {LETTERS[letter]}; a "
                                    "run uses one letter plus any Wilds (D11b)",
                                    rule="D11b")

    def _check_end_turn(self, action: object, seat: int) -> None:
        if self._placed or self._moved:
            return
        possible = legal.turn_actions(seat, self._hands[seat], self._status, self._board,
                                      False, False, True)
        if type(possible[0]) is not EndTurn:  # EndTurn is listed only when nothing else is
            raise MustActFirstError(f"{self._said(action)} refused: "
                                    f"{_seat_name(seat)} must place or move "
                                    "before ending the turn; a player passes only when no "
                                    f"action is possible ({possible[0]} is) (D7)",
                                    rule="D7")
