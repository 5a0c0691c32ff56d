"""Keyboard Duel: the rule engine (rules D1–D16) and exact duel odds.

>>> from musicgames.duel import DuelState, Place, EndTurn, WHITE
>>> game = DuelState.new_game(seed=1)
>>> game.seat_to_act == WHITE and len(game.legal_actions()) > 0
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
    BadSavedGameError,
    BadSeedError,
    CardNotInHandError,
    DuelError,
    DuplicateCardError,
    GameIsOverError,
    KeyOffBoardError,
    MixedLettersError,
    MustActFirstError,
    NoCardsError,
    NoSuchPianoCardError,
    NotAGameSettingError,
    NotAnActionError,
    NotAnOddsQuestionError,
    NothingToUndoError,
    NotNowError,
    NoTokenLeftError,
    NoTokenThereError,
    NotYourTokenError,
    NotYourTurnError,
    SecondMoveError,
    SecondPlaceError,
    TakeBackStoppedError,
    TooManyCardsError,
    UnknownBotError,
    WrongCardError,
    WrongKeyError,
    WrongStepsError,
)
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
    TokenScore,
    TurnEnded,
    seen_by,
)
from musicgames.duel.game import KeyboardDuel
from musicgames.duel.history import TakeBackReach
from musicgames.duel.kernel import dice_for_power
from musicgames.duel.odds import (
    DuelOdds,
    Effect,
    attacker_win_chance,
    attacker_win_probability,
    best_run_chance,
    chance_after_card,
    chance_after_each_card,
    duel_odds,
    effect_of_card,
    run_options,
    win_chance_now,
)
from musicgames.duel.position import (
    BLACK,
    MAX_POWER,
    MAX_TURNS_PER_ROUND,
    ROUNDS,
    SEAT_NAMES,
    TOKENS_PER_SEAT,
    WHITE,
)
from musicgames.duel.state import DuelState
from musicgames.duel.table import DuelInfo, Phase, Token, TokenState
from musicgames.duel.view import SeatView

__all__ = [
    "Action", "ActionTaken", "BLACK", "BOARD_KEYS", "BadSavedGameError", "BadSeedError",
    "COMPOSE_DECK", "CardCodeError", "CardNotInHandError", "CardPlayed", "ComposeCard",
    "Corner", "DECK_SIZE", "Dealt", "DiceRolled", "DieRerolled", "Drew", "DuelCard",
    "DuelError", "DuelInfo", "DuelOdds", "DuelStarted", "DuelState", "DuelWon",
    "DuplicateCardError", "Effect", "EndTurn", "Event", "FinalTurnBegins", "GameIsOverError",
    "GameOver", "HAND_SIZE", "KEYS_PER_CARD", "KeyOffBoardError", "KeyboardDuel", "LockIn",
    "LockedIn", "MAX_POWER", "MAX_TURNS_PER_ROUND", "Merged", "MixedLettersError", "Move",
    "Moved", "MustActFirstError", "NoCardsError", "NoSuchPianoCardError", "NoTokenLeftError",
    "NoTokenThereError", "NotAGameSettingError", "NotAnActionError", "NotAnOddsQuestionError",
    "NotNowError", "NotYourTokenError", "NotYourTurnError", "NothingToUndoError", "PIANO_CARDS",
    "Phase", "PianoCard", "Place", "Placed", "ROUNDS", "Reshuffled", "RoundScored",
    "RoundStarted", "SEAT_NAMES", "SeatView", "SecondMoveError", "SecondPlaceError", "Shift",
    "Shifted", "TOKENS_PER_SEAT", "TakeBackReach", "TakeBackStoppedError", "Token",
    "TokenScore", "TokenState", "TooManyCardsError", "TurnEnded", "UnknownBotError", "WHITE",
    "WILD_IDS", "WrongCardError", "WrongKeyError", "WrongStepsError", "action_from_json",
    "attacker_win_chance", "attacker_win_probability", "best_run_chance", "card_ids",
    "chance_after_card", "chance_after_each_card", "dice_for_power", "duel_odds",
    "effect_of_card", "key_for_letter", "key_name", "key_piano", "key_pitch_class",
    "run_options", "seen_by", "win_chance_now",
]
