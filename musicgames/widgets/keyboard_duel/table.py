"""The table the page is sent: everything the person's seat may see, in words and numbers,
with the legal choices already listed (so the page holds no rule).

:func:`build_table` takes a :class:`Scene` — what the widget knows at one moment — and
returns the JSON-ready dictionary the page draws. Pieces that need to know what an action
would do (where a move lands, whether it starts a duel, a token's power after a Hint's
placement, whether a placement hands the opponent the final turn) ask the engine, by
playing the action on a copy of the state, never by working the rule out here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from musicgames.duel import (
    BLACK,
    COMPOSE_DECK,
    PIANO_CARDS,
    WHITE,
    Action,
    DuelCard,
    DuelState,
    EndTurn,
    LockIn,
    Move,
    Place,
    Shift,
    TokenState,
    action_from_json,
    attacker_win_chance,
    dice_for_power,
)
from musicgames.duel.cards import key_piano, piano_keys
from musicgames.duel.events import DuelStarted, Event, FinalTurnBegins, Moved
from musicgames.duel.kernel import attacker_wins
from musicgames.duel.odds import DuelOdds
from musicgames.i18n import LANGUAGES, percent, text
from musicgames.render import keyboard_svg
from musicgames.sound import chord, notes
from musicgames.theory import Naming
from musicgames.widgets.keyboard_duel.messages import OPPONENTS
from musicgames.widgets.keyboard_duel.narration import SEAT_KEYS, DuelRecord, Story, Words, say

__all__ = ["LOG_LINES_SHOWN", "PERSON", "COMPUTER", "RULES_KEYS", "SHORTCUTS", "Scene",
           "build_table", "piano_svg"]

#: Lines of the log sent to the page (the newest).
LOG_LINES_SHOWN = 300
PERSON, COMPUTER = WHITE, BLACK

_TRAY_STATES = {
    TokenState.ON_BOARD: "board",
    TokenState.MERGED: "merged",
    TokenState.BEATEN: "beaten",
    TokenState.UNPLACED: "unplaced",
}
RULES_KEYS = (
    "duel.rules.goal.head", "duel.rules.goal",
    "duel.rules.table.head", "duel.rules.table",
    "duel.rules.turn.head", "duel.rules.turn", "duel.rules.place", "duel.rules.move",
    "duel.rules.amplify.head", "duel.rules.amplify",
    "duel.rules.duel.head", "duel.rules.duel.roll", "duel.rules.duel.run",
    "duel.rules.duel.result",
    "duel.rules.tray.head", "duel.rules.tray",
    "duel.rules.score.head", "duel.rules.score", "duel.rules.round",
    "duel.rules.computer.head", "duel.rules.computer",
    "duel.rules.keys.head", "duel.rules.keys",
)
#: The page's keyboard shortcuts: what each does on the page, and the catalogue's words for
#: it. The key is a letter of the word in the page's language (``duel.shortcut.*``: H for
#: Hint, P for Pista), listed in the Rules panel and shown on the buttons.
SHORTCUTS = (("hint", "duel.keys.hint"), ("undo", "duel.keys.take_back"),
             ("end", "duel.keys.end_turn"), ("lock", "duel.keys.lock_in"),
             ("next", "duel.keys.next"), ("rules", "duel.keys.rules"))


@dataclass(frozen=True)
class Scene:
    """What the widget knows at one moment, for :func:`build_table`."""

    state: DuelState | None
    story: Story
    screen: str
    opponent: str | None
    game: int
    seq: int
    error: str | None
    thinking: bool
    hint: Mapping[str, Any] | None
    duel_put_away: int
    can_undo: bool
    undo_label: str  # the Take back button's words (a string key): what stops it, if it cannot
    odds: DuelOdds | None  # the engine's honest odds when the person decides in a duel
    finished_trays: tuple[tuple[TokenState, ...], ...] | None  # the trays as the round ended
    naming: Naming
    language: str


def piano_svg(index: int, naming: Naming, language: str = "en") -> str:
    """A piano card drawn by :mod:`musicgames.render` (its keys carry ``data-key``)."""
    card = PIANO_CARDS[index]
    return str(keyboard_svg(1, chord=card.triad, marks=card.marks, labels=naming, width=420,
                            plain_white=True, language=language))


def build_table(scene: Scene) -> dict[str, Any]:
    """The page's table for ``scene``."""
    words = Words(scene.language, scene.naming)
    state = scene.state
    table: dict[str, Any] = {
        "seq": scene.seq,
        "game": scene.game,
        "screen": scene.screen,
        "opponent": scene.opponent,
        "opponents": [{"id": level, "name": words.t(f"duel.opponent.{level}"),
                       "about": words.t(f"duel.opponent.{level}.about")}
                      for level in OPPONENTS],
        "naming": scene.naming.value,
        "language": scene.language,
        "languages": [[code, text("language.name", code)] for code in LANGUAGES],
        "you": SEAT_KEYS[PERSON],
        "rules_keys": list(RULES_KEYS),
        "shortcuts": [[words.t(f"duel.shortcut.{name}"), words.t(entry)]
                      for name, entry in SHORTCUTS],
        "shortcut_keys": {name: words.t(f"duel.shortcut.{name}") for name, _ in SHORTCUTS},
        "error": scene.error,
        "thinking": scene.thinking,
        "board_finished": False,
    }
    if state is None:
        table.update(status=words.t("duel.status.choose"), tokens=[], hand=[], log=[],
                     players={}, pianos=[], legal=_no_choices(), duel=None, hint=None,
                     your_turn=False, duel_active=False, can_undo=False, to_act=None,
                     result=None, warning=None)
        return table
    to_act = state.seat_to_act
    your_turn = to_act == PERSON and scene.screen == "play"
    piano = _piano_pair(state)
    finished = scene.screen in ("round_end", "game_over") and bool(scene.story.rounds)
    if finished:
        last = scene.story.rounds[-1]
        tokens = _finished_tokens(last.board, last.piano, words)
        pianos = [_piano_info(side, last.piano, words) for side in (0, 1)]
    else:
        tokens = _tokens(state, words, piano)
        pianos = [_piano_info(side, piano, words) for side in (0, 1)]
    table.update(
        round=state.round,
        turn=state.turn_number,
        to_act=None if to_act is None else SEAT_KEYS[to_act],
        your_turn=your_turn,
        duel_active=state.duel is not None,
        duel_key=state.duel.key if state.duel is not None else None,
        can_undo=scene.can_undo and scene.screen == "play",
        undo_label=scene.undo_label,
        status=_status(scene, words),
        turn_help=_turn_help(state),
        pianos=pianos,
        board_finished=finished,
        tokens=tokens,
        players=_players(scene, state, words, finished),
        hand=[_card_info(c, words) for c in state.hand(PERSON)],
        legal=_choices(state, words) if your_turn else _no_choices(),
        warning=_warning(state, words) if your_turn else None,
        duel=_duel_panel(scene, state, words),
        hint=_hint_info(scene, state, words),
        log=_log(scene.story, words)[-LOG_LINES_SHOWN:],
        result=_result(scene, state, words),
        sound=_round_sound(scene, state, finished),
    )
    return table


def _round_sound(scene: Scene, state: DuelState, finished: bool) -> dict[str, Any]:
    """The two chords of the piano cards on the table, played softly as they appear; the
    ``id`` changes with each round's cards."""
    if finished:
        last = scene.story.rounds[-1]
        number, piano = last.number, last.piano
    else:
        number, piano = state.round, _piano_pair(state)
    return {"id": f"{scene.game}-{number}",
            "chords": [chord(PIANO_CARDS[p].triad) for p in piano]}


def _percent(p: float | Fraction, language: str) -> str:
    return percent(float(p), language)  # as the language writes it: "25%", "25 %"


def _decided(record: DuelRecord, words: Words) -> str:
    """One line after a duel: what decided it — the tie rule, the roll, or a run. The roll
    decided it only when the winner led on the dice (ties go to the attacker, D11d) and after
    every card; otherwise the cards did."""
    assert record.winner is not None and record.result_totals is not None
    win = record.role(record.winner)
    final = record.result_totals
    if final[0] == final[1]:
        return words.t("duel.decided.tie", total=final[0], seat=words.seat(record.attacker))
    rolled = (sum(record.first_dice[0]), sum(record.first_dice[1]))
    leads = [0 if attacker_wins(*rolled) else 1, *record.leads]
    seat = words.seat(record.winner)
    tied = rolled[0] == rolled[1]
    scores = dict(seat=seat, score=rolled[win], other_score=rolled[1 - win], final=final[win],
                  other_final=final[1 - win], attacker=words.seat(record.attacker))
    if all(lead == win for lead in leads):
        if tied:
            return words.t("duel.decided.roll_tie", **scores)
        key = "duel.decided.roll" if record.cards_played else "duel.decided.roll_only"
        return words.t(key, **scores)
    if leads[0] == win:  # ahead on the dice, behind after a card, ahead again at the end
        return words.t("duel.decided.comeback", **scores)
    return words.t("duel.decided.run_tie" if tied else "duel.decided.run", **scores)


def _duel_sound(record: DuelRecord) -> dict[str, Any] | None:
    """The sound of a duel's result, for the person: the key's chord rising when the person
    won, a falling fifth low down when the person lost."""
    if record.winner is None:
        return None
    triad = PIANO_CARDS[record.piano[key_piano(record.key)]].triad
    if record.winner == PERSON:
        return chord(triad, broken=True)
    root, _third, fifth = triad.tones
    return notes([fifth.midi - 12, root.midi - 12], broken=True)


def _piano_pair(state: DuelState) -> tuple[int, int]:
    return (state.piano_cards[0].index, state.piano_cards[1].index)


def _after(state: DuelState, action: Action) -> tuple[DuelState, tuple[Event, ...]]:
    """A copy of ``state`` with ``action`` played, and the events the engine says it caused."""
    copy = state.copy(history=False)
    events = copy.apply(action)
    return copy, events


def _attack(events: Sequence[Event], words: Words) -> dict[str, Any] | None:
    """The duel an action would start (D11), as the hint says it: the attacking token's
    power, the defender and its token's power; None when it starts none."""
    for event in events:
        if isinstance(event, DuelStarted):
            return {"power": event.attacker_power, "other": words.seat(1 - event.attacker),
                    "other_power": event.defender_power}
    return None


def _landing(events: Sequence[Event], action: Move) -> tuple[int, bool]:
    """Where a move lands, and whether it starts a duel: the engine's events say."""
    end, duel = action.key, False
    for event in events:
        if isinstance(event, Moved):
            end = event.end
        elif isinstance(event, DuelStarted):
            duel = True
    return end, duel


def _log(story: Story, words: Words) -> list[dict[str, Any]]:
    """The log as the page shows it: each entry's words and whether it heads a round."""
    return [{"text": say(words, key, values), "head": key == "duel.log.round_start"}
            for key, values in story.entries]


def _status(scene: Scene, words: Words) -> str:
    state = scene.state
    assert state is not None
    level = words.t(f"duel.opponent.{scene.opponent}")
    if scene.screen == "game_over":
        return words.t("duel.status.game_over")
    if scene.screen == "round_end":
        return words.t("duel.status.round_over", round=scene.story.rounds[-1].number
                       if scene.story.rounds else state.round)
    if state.seat_to_act == COMPUTER:
        return words.t("duel.status.computer", seat=words.seat(COMPUTER), level=level)
    duel = state.duel
    if duel is not None:
        key = words.key(duel.key, _piano_pair(state))
        if duel.attacker == PERSON:
            return words.t("duel.status.attack", key=key)
        return words.t("duel.status.defend", key=key, seat=words.seat(COMPUTER))
    return words.t("duel.status.final_turn" if state.final_turn else "duel.status.your_turn",
                   round=state.round, turn=state.turn_number)


def _turn_help(state: DuelState) -> str:
    if state.seat_to_act != PERSON or state.duel is not None:
        return "duel.help.wait"
    actions = state.legal_actions()
    if len(actions) == 1 and isinstance(actions[0], EndTurn):
        return "duel.help.pass" if not (state.placed_this_turn or state.moved_this_turn) \
            else "duel.help.done"
    if state.placed_this_turn:
        return "duel.help.after_place"
    if state.moved_this_turn:
        return "duel.help.after_move"
    return "duel.help.start"


def _warning(state: DuelState, words: Words) -> str | None:
    """Said before the person places: when this placement, once the turn ends, hands the
    opponent the final turn (D12) — as the engine plays it out on a copy."""
    if state.duel is not None or state.placed_this_turn:
        return None
    place = next((a for a in state.legal_actions() if isinstance(a, Place)), None)
    if place is None or state.final_turn:
        return None
    copy, _ = _after(state, place)
    while copy.duel is not None:  # a duel: both sides lock in to end it
        copy.apply(LockIn())
    if copy.seat_to_act != PERSON or EndTurn() not in copy.legal_actions():
        return None
    if any(isinstance(event, FinalTurnBegins) for event in copy.apply(EndTurn())):
        return words.t("duel.warning.last_token", seat=words.seat(COMPUTER))
    return None


def _players(scene: Scene, state: DuelState, words: Words, finished: bool) -> dict[str, Any]:
    """Names, trays, totals and running figures; at a round's end, the trays as the round
    finished and what each seat banked."""
    running = state.running_scores()
    trays = [[tok.state for tok in state.tokens(seat)] for seat in (WHITE, BLACK)]
    if finished and scene.finished_trays is not None:
        running = scene.story.rounds[-1].scores
        trays = [list(tray) for tray in scene.finished_trays]
    out: dict[str, Any] = {}
    for seat in (WHITE, BLACK):
        who = (words.t("duel.you") if seat == PERSON
               else words.t(f"duel.opponent.{scene.opponent}"))
        tray_label = (words.t("duel.aria.tray.you", seat=words.seat(seat)) if seat == PERSON
                      else words.t("duel.aria.tray", who=who, seat=words.seat(seat)))
        out[SEAT_KEYS[seat]] = {
            "name": words.t("duel.label.player", who=who, seat=words.seat(seat)),
            "tray_label": tray_label,
            "tray": [_TRAY_STATES[tray] for tray in trays[seat]],
            "tray_names": [words.t(f"duel.tray.{_TRAY_STATES[tray]}") for tray in trays[seat]],
            "total": state.totals[seat],
            "running": running[seat],
            "hand": state.hand_size(seat),
        }
    return out


def _piano_info(side: int, piano: Sequence[int], words: Words) -> dict[str, Any]:
    info = _piano_words(side, (piano[0], piano[1]), words.naming, words.language)
    return dict(info, keys=list(info["keys"]))


@lru_cache(maxsize=256)
def _piano_words(side: int, piano: tuple[int, int], naming: Naming, language: str
                 ) -> dict[str, Any]:
    """A piano card's name, chord tones and keys' names (kept: the pair of piano cards stays
    on the table for a whole round, and the table is built again at every click)."""
    words = Words(language, naming)
    card = PIANO_CARDS[piano[side]]
    keys = piano_keys(side)
    tones = ", ".join(f"{words.note(keys[pc], piano)} {card.marks[pc]}"
                      for pc in card.chord_pitch_classes)
    return {"index": card.index, "name": card.name(words.naming, words.language),
            "tones_text": tones,
            "keys": [words.key_label(key, piano) for key in keys]}


def _card_info(card: int, words: Words) -> dict[str, Any]:
    face = COMPOSE_DECK[card]
    label = words.card(card)
    letter = label if face.is_wild else label[: len(label) - len(face.corner.symbol)]
    does = words.t(f"duel.card.does.{face.corner.name.lower()}", card=label)
    return {
        "id": card,
        "code": str(face),
        "label": label,
        "letter": letter,
        "corner": face.corner.symbol,
        "wild": face.is_wild,
        "title": does,
    }


def _token_label(words: Words, seat: int, power: int, key: int, piano: Sequence[int],
                 score: int) -> str:
    """``'Re, left card, ff, your power-3 token, scores 6'``: the key, then the token."""
    where = words.key_label(key, piano)
    whose = "duel.token.yours" if seat == PERSON else "duel.token.theirs"
    return words.t(whose, key=where, power=power, score=score, seat=words.seat(seat))


def _tokens(state: DuelState, words: Words, piano: tuple[int, int]) -> list[dict[str, Any]]:
    out = []
    for seat in (WHITE, BLACK):
        for tok in state.tokens(seat):
            if tok.key is None:
                continue
            holder = state.board_token(tok.key)
            arriving = holder is None or (holder.seat, holder.index) != (tok.seat, tok.index)
            out.append({
                "key": tok.key,
                "seat": SEAT_KEYS[seat],
                "power": tok.power,
                "dice": tok.dice,
                "score": tok.score,
                "arriving": arriving,
                "label": _token_label(words, seat, tok.power, tok.key, piano, tok.score),
                "title": words.t("duel.token.title", seat=words.seat(seat), power=tok.power,
                                 dice=words.dice_count(tok.dice), score=tok.score,
                                 key=words.key(tok.key, piano)),
            })
    return out


def _finished_tokens(board: Sequence[tuple[int, int, int, int, int]], piano: Sequence[int],
                     words: Words) -> list[dict[str, Any]]:
    """The tokens of a scored round as they stood, each with what it scored."""
    out = []
    for seat, _index, key, power, score in board:
        dice = dice_for_power(power)
        out.append({
            "key": key, "seat": SEAT_KEYS[seat], "power": power, "dice": dice,
            "score": score, "arriving": False,
            "label": _token_label(words, seat, power, key, piano, score),
            "title": words.t("duel.token.title", seat=words.seat(seat), power=power,
                             dice=words.dice_count(dice), score=score, key=words.key(key, piano)),
        })
    return out


def _no_choices() -> dict[str, Any]:
    return {"place": {}, "move": [], "shift": [], "duel_cards": [], "lock_in": False,
            "end_turn": False}


def _choices(state: DuelState, words: Words) -> dict[str, Any]:
    """The person's legal actions, shaped for the page. Where a move lands and whether it
    starts a duel are what the engine does with it on a copy of the state."""
    piano = _piano_pair(state)
    place: dict[str, list[int]] = {}
    move: list[dict[str, Any]] = []
    shift: list[dict[str, Any]] = []
    duel_cards: list[int] = []
    lock_in = end_turn = False
    for action in state.legal_actions():
        if isinstance(action, Place):
            place.setdefault(",".join(str(c) for c in action.cards), []).append(action.key)
        elif isinstance(action, Move):
            end, duel = _landing(_after(state, action)[1], action)
            move.append({"card": action.card, "key": action.key, "steps": action.steps,
                         "to": end, "to_name": words.key(end, piano), "duel": duel,
                         "label": words.t("duel.move.duel" if duel else "duel.move.plain",
                                          card=words.card(action.card),
                                          steps=abs(action.steps),
                                          direction=words.direction(action.steps),
                                          key=words.key(end, piano))})
        elif isinstance(action, Shift):
            shift.append({"card": action.card, "piano": action.piano,
                          "up": COMPOSE_DECK[action.card].corner.symbol == "↑"})
        elif isinstance(action, DuelCard):
            duel_cards.append(action.card)
        elif isinstance(action, LockIn):
            lock_in = True
        elif isinstance(action, EndTurn):
            end_turn = True
    return {"place": place, "move": move, "shift": shift, "duel_cards": duel_cards,
            "lock_in": lock_in, "end_turn": end_turn}


def _effect_words(words: Words, event: Mapping[str, Any], total: int, role: int,
                  record: DuelRecord) -> str:
    effect = event["effect"]
    if effect == "add":
        return words.t("duel.effect.add", amount=event["amount"], total=total)
    if effect == "reroll_own_lowest":
        return words.t("duel.effect.reroll_own_lowest", old=event["old"], new=event["new"],
                       total=total)
    return words.t("duel.effect.reroll_their_highest", old=event["old"], new=event["new"],
                   total=total, seat=words.seat(record.seat(1 - role)))


def _duel_panel(scene: Scene, state: DuelState, words: Words) -> dict[str, Any] | None:
    story = scene.story
    if not story.duels:
        return None
    record = story.duels[-1]
    active = state.duel is not None
    if scene.screen == "play":
        if record.rounds_before != len(story.rounds):
            return None  # a duel of a round already scored never comes back
        if not active and (record.winner is None or record.number == scene.duel_put_away):
            return None
    elif scene.screen in ("round_end", "game_over"):
        # the duel that closed the round, if the person has not seen it through
        if (record.rounds_before != len(story.rounds) - 1 or record.winner is None
                or record.number == scene.duel_put_away):
            return None
        active = False
    else:
        return None
    you = record.role(PERSON)
    live = state.duel if active and record.winner is None else None
    if live is not None:  # the engine's duel, as it stands
        dice = [list(live.attacker_dice), list(live.defender_dice)]
        totals = [live.attacker_total, live.defender_total]
    else:
        dice = record.dice
        totals = list(record.result_totals or record.totals or (0, 0))
    sides: dict[str, Any] = {}
    for role in (0, 1):
        seat = record.seat(role)
        sides[SEAT_KEYS[seat]] = {
            "title": words.t("duel.label.side_attacker" if role == 0 else
                             "duel.label.side_defender", seat=words.seat(seat),
                             power=record.powers[role]),
            "dice": list(dice[role]),
            "first_dice": list(record.first_dice[role]),
            "dice_label": words.t("duel.label.dice", count=len(dice[role]),
                                  dice=words.dice(dice[role])),
            "added": record.adds[role],
            "total": totals[role],
            "locked": record.locked[role],
            "run": [
                {"card": _card_info(card, words),
                 "effect": _effect_words(words, event, total, role, record)}
                for card, event, total in record.runs[role]
            ],
        }
    before = attacker_win_chance(record.powers[0], record.powers[1])
    chance_before = before if you == 0 else 1.0 - before
    you_decide = active and state.seat_to_act == PERSON
    odds = scene.odds if you_decide else None
    odds_lines = [words.t("duel.odds.before", p=_percent(chance_before, words.language))]
    card_chance: dict[str, float] = {}
    if odds is not None:
        about = "" if odds.exact else "≈ "
        other = words.seat(record.seat(1 - you))
        odds_lines.append(words.t("duel.odds.now_attacker" if you == 0 else
                                  "duel.odds.now_defender",
                                  p=about + _percent(odds.now, words.language), seat=other))
        odds_lines.append(words.t("duel.odds.best", p=about + _percent(odds.best, words.language)))
        card_chance = {str(card): float(p) for card, p in odds.after_card.items()}
    if record.winner is not None and record.result_totals is not None:
        winner = record.winner
        result: str | None = words.t(
            "duel.result.won" if winner == PERSON else "duel.result.lost",
            seat=words.seat(winner), score=max(record.result_totals),
            other_score=min(record.result_totals),
        )
        stage = "done"
    else:
        result = None
        stage = "attacker" if not record.locked[0] else "defender"
    return {
        "id": f"{scene.game}-{record.number}",
        "title": words.t("duel.label.duel_title", key=words.key(record.key, record.piano),
                         seat=words.seat(record.attacker),
                         other=words.seat(1 - record.attacker)),
        "attacker": SEAT_KEYS[record.attacker],
        "defender": SEAT_KEYS[1 - record.attacker],
        "sides": sides,
        "stage": stage,
        "you_decide": you_decide,
        "help": "duel.help.attack" if you == 0 else "duel.help.defend",
        "chance_before": chance_before,
        "odds_lines": odds_lines,
        "card_chance": card_chance,
        "result": result,
        "decided": _decided(record, words) if record.winner is not None else None,
        "sound": _duel_sound(record),
    }


def _hint_info(scene: Scene, state: DuelState, words: Words) -> dict[str, Any] | None:
    if scene.hint is None or scene.screen != "play":
        return None
    action = action_from_json(scene.hint["action"])
    piano = _piano_pair(state)
    keys: list[int] = []
    cards: list[int] = []
    if isinstance(action, Place):
        keys, cards = [action.key], list(action.cards)
        after, events = _after(state, action)
        attack = _attack(events, words)
        held = after.board_token(action.key)
        power = held.power if held is not None else len(action.cards)
        line = words.t("duel.hint.place_duel" if attack else "duel.hint.place",
                       cards=words.cards(action.cards), key=words.key(action.key, piano),
                       **(attack or {"power": power}))
    elif isinstance(action, Move):
        events = _after(state, action)[1]
        end, _ = _landing(events, action)
        attack = _attack(events, words)
        keys, cards = [action.key, end], [action.card]
        line = words.t("duel.hint.move_duel" if attack else "duel.hint.move",
                       card=words.card(action.card), start=words.key(action.key, piano),
                       end=words.key(end, piano), **(attack or {}))
    elif isinstance(action, Shift):
        cards = [action.card]
        keys = [tok.key for tok in state.tokens(PERSON)
                if tok.key is not None and key_piano(tok.key) == action.piano]
        line = words.t("duel.hint.shift", card=words.card(action.card),
                       chord=words.chord(piano[action.piano]))
    elif isinstance(action, DuelCard):
        cards = [action.card]
        line = words.t("duel.hint.duel_card", card=words.card(action.card))
    elif isinstance(action, LockIn):
        line = words.t("duel.hint.lock_in")
    else:
        line = words.t("duel.hint.end_turn")
    return {"text": words.t("duel.hint.prefix") + " " + line, "keys": keys, "cards": cards,
            "action": dict(scene.hint["action"])}


def _result(scene: Scene, state: DuelState, words: Words) -> dict[str, Any] | None:
    if scene.screen not in ("round_end", "game_over") or not scene.story.rounds:
        return None
    last = scene.story.rounds[-1]
    out: dict[str, Any] = {"round": last.number}
    for seat in (WHITE, BLACK):
        lines = []
        for owner, _token, key, power, points in sorted(last.board, key=lambda b: b[2]):
            if owner != seat:
                continue
            lines.append(words.t("duel.result.token", key=words.key(key, last.piano),
                                 power=power, mult=last.multipliers[key], points=points))
        for side in last.bonuses[seat]:
            lines.append(words.t("duel.result.bonus", chord=words.chord(last.piano[side])))
        if not lines:
            lines.append(words.t("duel.result.nothing"))
        who = (words.t("duel.you") if seat == PERSON
               else words.t(f"duel.opponent.{scene.opponent}"))
        out[SEAT_KEYS[seat]] = {
            "name": words.t("duel.label.player", who=who, seat=words.seat(seat)),
            "lines": lines,
            "score": last.scores[seat],
            "summary": words.t("duel.result.summary", score=last.scores[seat],
                               total=last.totals[seat]),
        }
    if scene.screen == "game_over" and state.winner is not None:
        out["title"] = words.t("duel.result.game_title")
        won = state.winner == PERSON
        out["line"] = words.t("duel.result.you_win" if won else "duel.result.you_lose",
                              score=state.totals[PERSON], other_score=state.totals[COMPUTER])
    else:
        out["title"] = words.t("duel.result.round_title", round=last.number)
        out["line"] = words.t("duel.result.next", seat=words.seat(state.starter),
                              round=state.round)
    return out
