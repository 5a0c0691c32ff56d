"""Note Snap: flip note cards, call the names Do Re Mi…, slap the matches (rules S1–S17).

The engine is pure: no clock, no widget, no display. Time is data carried by each
:class:`Slap`; randomness comes only from a seeded ``random.Random`` that you pass in.

>>> from musicgames.snap import CloseSlaps, Flip, Slap, SnapConfig, card_note, new_game
>>> game = new_game(2024, SnapConfig(players=2))
>>> game.hand_sizes, game.to_flip, game.next_call
((28, 28), 0, 'Do')
>>> flipped = game.apply(Flip(0))[0]
>>> flipped.call, card_note(flipped.card).solfege
('Do', 'Re3')
>>> game.apply(Slap(1, 512.0))
(Slapped(seat=1, reaction_ms=512.0),)
>>> outcome = game.apply(CloseSlaps())[-1]     # the slap window is over (S14)
>>> outcome.match, outcome.reason, outcome.taker   # a false slap: seat 1 takes the pile (S8)
(False, <Reason.FALSE_SLAP: 'false_slap'>, 1)
>>> game.hand_sizes, game.to_flip, game.next_call
((27, 29), 1, 'Do')

Computer players (S17) are :class:`Bot` objects with a level from :data:`LEVELS`;
:func:`play_game` plays a game between them in table time, and
``python -m musicgames.games simulate note_snap`` plays many (:mod:`musicgames.play`).

The game speaks the protocol both games share (:mod:`musicgames.protocol`): a
:class:`NoteSnap` holds the settings, and its states say who may act (:data:`TABLE`, the
table itself, closes a slap window), list every legal action, and refuse with a
:class:`SnapError` (a :class:`~musicgames.protocol.GameError`) that names its rule:

>>> from musicgames.snap import NoteSnap
>>> state = NoteSnap(players=2).new_game(seed=2024)
>>> state.to_act(), state.legal_actions(0)[0]
((0,), Flip(seat=0, call=None))
>>> try:
...     state.apply(Flip(1), 1)
... except SnapError as err:
...     print(err.rule)
S5
"""

from musicgames.protocol import TABLE
from musicgames.snap.actions import (
    TAKEN_UNSLAPPED,
    Action,
    CallMode,
    CloseSlaps,
    Dealt,
    Ended,
    Event,
    Flip,
    Flipped,
    GameLength,
    Outcome,
    Pass,
    Passed,
    Phase,
    Reason,
    Slap,
    Slapped,
    TimeUp,
    action_from_json,
    action_to_json,
)
from musicgames.snap.bots import LEVELS, Bot, BotLevel, level_named
from musicgames.snap.cards import (
    CALL_CYCLE,
    CARD_NAMES,
    DECK,
    DECK_SIZE,
    GUIDE_CARD,
    call_index,
    card_name,
    card_note,
    cards_of,
    guide_card,
    is_match,
    next_call,
)
from musicgames.snap.config import SnapConfig
from musicgames.snap.deal import stacked_deal
from musicgames.snap.errors import (
    ActionError,
    CallError,
    CallModeError,
    ConfigError,
    DoubleSlapError,
    GameOverError,
    LateSlapError,
    NotYourTurnError,
    PhaseError,
    ReactionTimeError,
    SaveError,
    SeatError,
    SnapError,
)
from musicgames.snap.event_log import from_events
from musicgames.snap.game import NoteSnap, new_game
from musicgames.snap.invariants import check_invariants
from musicgames.snap.simulate import GameResult, play_game
from musicgames.snap.state import SnapState
from musicgames.snap.views import LegalActions, SeatView
from musicgames.snap.window import closes_early, early_close_ms

__all__ = [
    "CALL_CYCLE",
    "CARD_NAMES",
    "DECK",
    "DECK_SIZE",
    "GUIDE_CARD",
    "LEVELS",
    "TABLE",
    "Action",
    "ActionError",
    "Bot",
    "BotLevel",
    "CallError",
    "CallMode",
    "CallModeError",
    "CloseSlaps",
    "ConfigError",
    "Dealt",
    "DoubleSlapError",
    "Ended",
    "Event",
    "Flip",
    "Flipped",
    "GameLength",
    "GameOverError",
    "GameResult",
    "LateSlapError",
    "LegalActions",
    "NotYourTurnError",
    "NoteSnap",
    "Outcome",
    "Pass",
    "Passed",
    "Phase",
    "PhaseError",
    "ReactionTimeError",
    "Reason",
    "TAKEN_UNSLAPPED",
    "SaveError",
    "SeatError",
    "SeatView",
    "Slap",
    "Slapped",
    "SnapConfig",
    "SnapError",
    "SnapState",
    "TimeUp",
    "action_from_json",
    "action_to_json",
    "call_index",
    "check_invariants",
    "closes_early",
    "card_name",
    "card_note",
    "cards_of",
    "early_close_ms",
    "from_events",
    "guide_card",
    "is_match",
    "level_named",
    "next_call",
    "new_game",
    "play_game",
    "stacked_deal",
]
