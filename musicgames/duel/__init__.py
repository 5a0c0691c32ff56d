"""Keyboard Duel: the rule engine (rules D1–D16) and exact duel odds.

>>> from musicgames.duel import DuelState, Place, EndTurn, WHITE
>>> game = DuelState.new_game(seed=1)
>>> game.to_act == WHITE and len(game.legal_actions()) > 0
True
"""

from musicgames.duel.actions import (
    Action,
    DuelCard,
    EndTurn,
    LockIn,
    Move,
    Place,
    Shift,
    action_from_json,
)
from musicgames.duel.cards import (
    BOARD_KEYS,
    COMPOSE_DECK,
    DECK_SIZE,
    HAND_SIZE,
    KEYS_PER_CARD,
    PIANO_CARDS,
    WILD_IDS,
    CardCodeError,
    ComposeCard,
    Corner,
    PianoCard,
    card_ids,
    key_for_letter,
    key_name,
    key_piano,
    key_pitch_class,
)
from musicgames.duel.errors import (
    BadSavedGame,
    CardNotInHand,
    DuelError,
    DuplicateCard,
    GameIsOver,
    KeyOffBoard,
    MixedLetters,
    MustActFirst,
    NoCards,
    NoSuchPianoCard,
    NotAnAction,
    NothingToUndo,
    NotNow,
    NoTokenLeft,
    NoTokenThere,
    NotYourToken,
    NotYourTurn,
    SecondMove,
    SecondPlace,
    TooManyCards,
    WrongCard,
    WrongKey,
    WrongSteps,
)
from musicgames.duel.odds import (
    Effect,
    attacker_win_chance,
    attacker_win_probability,
    best_run_chance,
    chance_after_card,
    chance_after_each_card,
    effect_of_card,
    run_options,
    win_chance_now,
)
from musicgames.duel.state import (
    BLACK,
    MAX_POWER,
    MAX_TURNS_PER_ROUND,
    ROUNDS,
    SEAT_NAMES,
    TOKENS_PER_SEAT,
    WHITE,
    DuelInfo,
    DuelState,
    Phase,
    Token,
    TokenState,
    dice_for_power,
)
from musicgames.duel.view import SeatView

__all__ = [
    "BLACK", "BOARD_KEYS", "COMPOSE_DECK", "DECK_SIZE", "HAND_SIZE", "KEYS_PER_CARD",
    "MAX_POWER", "MAX_TURNS_PER_ROUND", "PIANO_CARDS", "ROUNDS", "SEAT_NAMES",
    "TOKENS_PER_SEAT", "WHITE", "WILD_IDS",
    "Action", "BadSavedGame", "CardCodeError", "CardNotInHand", "ComposeCard", "Corner",
    "DuelCard", "DuelError", "DuelInfo", "DuelState", "DuplicateCard", "Effect", "EndTurn",
    "GameIsOver", "KeyOffBoard", "LockIn", "MixedLetters", "Move", "MustActFirst", "NoCards",
    "NoSuchPianoCard", "NoTokenLeft", "NoTokenThere", "NotAnAction", "NotNow",
    "NotYourToken", "NotYourTurn", "NothingToUndo", "Phase", "PianoCard", "Place",
    "SeatView", "SecondMove", "SecondPlace", "Shift", "Token", "TokenState", "TooManyCards",
    "WrongCard", "WrongKey", "WrongSteps",
    "action_from_json", "attacker_win_chance", "attacker_win_probability", "best_run_chance",
    "card_ids", "chance_after_card", "chance_after_each_card", "effect_of_card", "run_options",
    "win_chance_now", "dice_for_power", "key_for_letter", "key_name",
    "key_piano", "key_pitch_class",
]
