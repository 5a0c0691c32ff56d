"""The Keyboard Duel widget, driven headless with the messages its page would send.

Every test talks to the widget only through ``receive`` (the page's messages) and reads
what the page would be sent (``table``, ``cards_svg``, ``strings``), checking it against the
engine's state. The computer's turns are asyncio tasks: tests that need them run inside
``asyncio.run`` and wait with ``settle()``.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from musicgames.duel import (
    BLACK,
    WHITE,
    Action,
    DuelCard,
    DuelState,
    EndTurn,
    LockIn,
    Move,
    Place,
    SeatView,
    Shift,
    attacker_win_chance,
    card_ids,
    key_name,
)
from musicgames.duel.bots import make_bot
from musicgames.duel.odds import duel_odds
from musicgames.lessons import Lesson
from musicgames.progress import (
    ProgressStore,
    demo_class,
    plot_items,
    plot_notes,
    read_answers,
    read_class,
)
from musicgames.theory import ALL_TRIADS, Naming
from musicgames.widgets.keyboard_duel import (
    ActMessage,
    KeyboardDuelWidget,
    MessageError,
    NewGameMessage,
    SettingsMessage,
    parse_message,
    play_keyboard_duel,
    progress_item,
)
from tests.keyboard_duel_page import Pager

TRAY = {"on_board": "board", "merged": "merged", "beaten": "beaten", "unplaced": "unplaced"}


# -- helpers ---------------------------------------------------------------------------------


class ScriptedComputer:
    """A computer player that plays the given actions in order (when legal), otherwise
    locks in or ends its turn. Like every player it sees only its seat's view."""

    name = "Scripted"

    def __init__(self, actions: Sequence[Action], think_s: float = 0.0) -> None:
        self.queue = list(actions)
        self.think_s = think_s
        self.calls = 0

    def choose(self, view: SeatView, rng: random.Random | None = None) -> Action:
        self.calls += 1
        if self.think_s:
            time.sleep(self.think_s)  # runs in the widget's worker thread
        legal = view.legal_actions()
        if self.queue and self.queue[0] in legal:
            return self.queue.pop(0)
        for fallback in (LockIn(), EndTurn()):
            if fallback in legal:
                return fallback
        return legal[0]


def legal_from_table(legal: dict[str, Any]) -> set[Action]:
    """The actions the page offers, read back from the table it is sent."""
    out: set[Action] = set()
    for combo, keys in legal["place"].items():
        cards = tuple(int(c) for c in combo.split(","))
        out.update(Place(cards, key) for key in keys)
    out.update(Move(m["card"], m["key"], m["steps"]) for m in legal["move"])
    out.update(Shift(s["card"], s["piano"]) for s in legal["shift"])
    out.update(DuelCard(c) for c in legal["duel_cards"])
    if legal["lock_in"]:
        out.add(LockIn())
    if legal["end_turn"]:
        out.add(EndTurn())
    return out


def assert_table_matches_state(widget: KeyboardDuelWidget) -> None:
    """What the page is sent agrees with the engine: tokens, gold numbers, trays, totals,
    running figures, the person's hand, and exactly the legal actions."""
    state = widget.state
    table = widget.table
    assert state is not None
    running = state.running_scores()
    for seat, name in ((WHITE, "white"), (BLACK, "black")):
        player = table["players"][name]
        assert player["tray"] == [TRAY[t.state.value] for t in state.tokens(seat)]
        assert player["total"] == state.totals[seat]
        assert player["running"] == running[seat]
        on_page = sorted((t["key"], t["power"], t["dice"], t["score"])
                         for t in table["tokens"] if t["seat"] == name and not t["arriving"])
        held = sorted((t.key, t.power, t.dice, t.score) for t in state.tokens(seat)
                      if t.key is not None and state.board_token(t.key) == t)
        assert on_page == held
    assert [c["id"] for c in table["hand"]] == list(state.hand(WHITE))
    if table["your_turn"]:
        assert legal_from_table(table["legal"]) == set(state.legal_actions())
    else:
        assert legal_from_table(table["legal"]) == set()


def table_position(state: DuelState) -> tuple[Any, ...]:
    """Where the game stands — everything but the chance source, which a fair take-back does
    not rewind — and the actions played."""
    saved = json.loads(state.to_json())
    position = {k: v for k, v in saved["position"].items() if k != "rng"}
    return position, [a.to_json() for a in state.actions()]


def person_options(table: dict[str, Any]) -> list[Action]:
    return sorted(legal_from_table(table["legal"]), key=repr)


def started(opponent: str = "casual", **kwargs: Any) -> KeyboardDuelWidget:
    kwargs.setdefault("pause", 0.0)
    return play_keyboard_duel(opponent, **kwargs)


D_MAJOR, G_MAJOR = 2, 7  # piano cards: D major (D fff, F♯ ff, A f), G major


# -- opening, messages, errors ----------------------------------------------------------------


def test_opens_on_the_opponent_choice_then_new_game_starts_it() -> None:
    widget = play_keyboard_duel(seed=3, pause=0)
    assert widget.table["screen"] == "setup" and widget.state is None
    assert widget.table["legal"]["place"] == {}
    Pager(widget).send({"type": "new_game", "opponent": "sharp"})
    assert widget.opponent == "sharp" and widget.state is not None
    assert widget.table["screen"] == "play"
    assert widget.table["to_act"] == "white" and widget.table["your_turn"]  # D1
    assert widget.table["players"]["black"]["name"] == "Sharp · Black"
    assert len(widget.cards_svg) == 2 and all('data-key="11"' in s for s in widget.cards_svg)
    assert_table_matches_state(widget)
    widget.close()


def test_place_message_places_a_token_and_the_table_shows_it() -> None:
    position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR),
                                       hands=("D1 D2 Wild A3 C↑", "E3 E1"))
    widget = started()
    widget.new_game(position=position)
    page = Pager(widget)
    page.act(Place(card_ids("D1 D2 Wild"), key=2))
    state = widget.state
    assert state is not None
    assert state.tokens(WHITE)[0].key == 2 and state.tokens(WHITE)[0].power == 3
    (token,) = widget.table["tokens"]
    assert (token["key"], token["power"], token["dice"], token["score"]) == (2, 3, 2, 9)
    assert widget.table["players"]["white"]["tray"][0] == "board"
    assert widget.table["players"]["white"]["running"] == 9
    assert widget.log_lines()[-1] == (
        "White places a power-3 token on Re (fff) of Re major with Re1 + Re2 + Wild.")
    assert widget.table["error"] is None
    assert_table_matches_state(widget)
    widget.close()


def test_page_is_offered_exactly_the_engines_legal_actions() -> None:
    widget = started(seed=11)
    state = widget.state
    assert state is not None
    offered = legal_from_table(widget.table["legal"])
    assert offered == set(state.legal_actions())
    # a selection of cards maps to the keys they may go to, and nothing else
    for combo, keys in widget.table["legal"]["place"].items():
        cards = tuple(int(c) for c in combo.split(","))
        assert keys == [a.key for a in state.legal_actions()
                        if isinstance(a, Place) and a.cards == cards]
    widget.close()


@pytest.mark.parametrize(
    "language, shown",
    [
        ("en", "A token goes on the white key of its cards' letter. (D8)"),
        ("es", "La ficha va en la tecla blanca de la nota de sus cartas. (D8)"),
    ],
)
def test_refused_action_says_why_in_the_pages_language_and_changes_nothing(
    language: str, shown: str
) -> None:
    position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR),
                                       hands=("D1 D2 Wild A3 C↑", "E3 E1"))
    widget = started(language=language)
    widget.new_game(position=position)
    state = widget.state
    assert state is not None
    before = state.to_json()
    wrong = Place(card_ids("D1"), key=3)
    with pytest.raises(ValueError) as refused:
        state.clone().apply(wrong)
    Pager(widget).act(wrong)
    assert widget.table["error"] == shown  # the page's words, with the rule the engine cites
    assert state.to_json() == before
    assert widget.refused[-1] == ("act", str(refused.value))  # the engine's own, for developers
    widget.close()


@pytest.mark.parametrize(
    "message, why",
    [
        ("not a dict", "not an object"),
        ({"type": "fly"}, "not a Keyboard Duel message type"),
        ({"type": "act", "action": {"type": "place", "cards": "D1", "key": 2}}, "'cards'"),
        ({"type": "act", "action": {"type": "move", "card": 5}}, "has the fields"),
        ({"type": "new_game", "opponent": "grandmaster"}, "not one of casual, sharp"),
        ({"type": "settings", "naming": "greek"}, "naming 'greek'"),
        ({"type": "settings", "language": "de"}, "language 'de'"),
        ({"type": "settings"}, "changes 'naming' or 'language'"),
        ({"type": "undo", "seq": -1}, "'seq' must be a whole number"),
    ],
)
def test_malformed_messages_are_refused_with_the_reason(message: object, why: str) -> None:
    widget = started(seed=2)
    state = widget.state
    assert state is not None
    before = state.to_json()
    widget.receive(message)
    assert widget.refused and why in widget.refused[-1][1]
    assert why in widget.table["error"]
    assert state.to_json() == before
    widget.close()


def test_parse_message_types_each_payload() -> None:
    assert parse_message({"type": "act", "action": {"type": "end_turn"}}) == (
        None, ActMessage(EndTurn()))
    assert parse_message({"type": "settings", "seq": 4, "language": "es"}) == (
        4, SettingsMessage(naming=None, language="es"))
    assert parse_message({"type": "new_game", "opponent": "casual"})[1] == NewGameMessage("casual")
    with pytest.raises(MessageError):
        parse_message({"type": "act", "action": None})


def test_settings_change_language_and_naming_of_everything_shown() -> None:
    widget = started(seed=5)
    page = Pager(widget)
    page.send({"type": "settings", "language": "es", "naming": "letters"})
    assert widget.strings["duel.button.end_turn"] == "Terminar turno"
    assert widget.table["language"] == "es" and widget.table["naming"] == "letters"
    assert widget.log_lines()[0].startswith("Ronda 1: ")
    assert " mayor" in widget.log_lines()[0] or " menor" in widget.log_lines()[0]
    assert all(c["letter"] in "CDEFGAB" or c["wild"] for c in widget.table["hand"])
    assert ">C<" in widget.cards_svg[0] and ">Do<" not in widget.cards_svg[0]
    page.send({"type": "settings", "naming": "solfege"})
    assert ">Do<" in widget.cards_svg[0]
    widget.close()


# -- moves, duels, the computer's turn ---------------------------------------------------------


def test_move_message_moves_the_token_with_wraparound() -> None:
    position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR), hands=("D2 E3 A1", "C1"),
                                       tokens=([(1, 2)], []))
    widget = started()
    widget.new_game(position=position)
    page = Pager(widget)
    move = Move(card_ids("E3")[0], key=1, steps=-3)  # D2: key 1 − 3 wraps to key 22
    assert any(m["to"] == 22 and m["steps"] == -3 for m in widget.table["legal"]["move"])
    page.act(move)
    state = widget.state
    assert state is not None and state.tokens(WHITE)[0].key == 22
    assert [t["key"] for t in widget.table["tokens"]] == [22]
    assert widget.log_lines()[-1] == (
        "White plays Mi3: the token on Do♯ of Re major moves 3 to the left, "
        "to Si♭ of Sol major.")  # spelled in G major (Triad.spell)
    assert_table_matches_state(widget)
    widget.close()


def test_duel_answered_by_the_person_in_the_same_panel() -> None:
    async def scenario() -> None:
        # Black attacks White's power-1 token on D (left card, fff) with a D3, then locks in.
        position = DuelState.from_position(
            piano=(D_MAJOR, G_MAJOR), hands=("D1 D2 Wild A3 C↑", "D3 E1 F1"),
            tokens=([(2, 1)], []), turn=BLACK, seed=9)
        computer = ScriptedComputer([Place(card_ids("D3"), key=2)])
        widget = started()
        widget.new_game(position=position, computer=computer)
        await widget.settle()
        state = widget.state
        assert state is not None and state.duel is not None
        duel = widget.table["duel"]
        assert widget.table["your_turn"] and duel["you_decide"]
        assert duel["attacker"] == "black" and duel["defender"] == "white"
        assert duel["sides"]["black"]["locked"] and not duel["sides"]["white"]["locked"]
        assert duel["help"] == "duel.help.defend"
        # the chance before the roll is the exact odds, from the defender's side
        assert duel["chance_before"] == pytest.approx(1 - attacker_win_chance(1, 1))
        info = state.duel
        own, opp = info.defender_dice, info.attacker_dice
        # the engine's honest odds: the best run from the person's hand, each card's chance
        odds = duel_odds(state.view(WHITE))
        assert f"{round(float(odds.now) * 100)}%" in duel["odds_lines"][1]  # as English writes it
        assert f"{round(float(odds.best) * 100)}%" in duel["odds_lines"][2]
        d2 = card_ids("D2")[0]
        assert duel["card_chance"][str(d2)] == float(odds.after_card[d2])
        assert DuelCard(d2) in set(state.legal_actions())
        assert_table_matches_state(widget)
        # the person plays D2 into the run (its effect shows at once), then locks in
        page = Pager(widget)
        page.act(DuelCard(d2))
        run = widget.table["duel"]["sides"]["white"]["run"]
        assert [step["card"]["id"] for step in run] == [d2]
        assert run[0]["effect"] == f"+2 → {sum(own) + 2}"
        assert widget.table["duel"]["sides"]["white"]["total"] == sum(own) + 2
        # only cards that fit the run are offered now: the D run excludes A3 and C↑
        assert set(widget.table["legal"]["duel_cards"]) == set(card_ids("D1 Wild"))
        page.act(LockIn())
        await widget.settle()
        white_total = sum(own) + 2
        black_total = sum(opp) + info.attacker_add
        panel = widget.table["duel"]
        assert panel["stage"] == "done" and panel["result"]
        if white_total > black_total:
            assert panel["result"].startswith("You win the duel")
            assert state.tokens(BLACK)[0].state.value == "beaten"
        else:
            assert panel["result"].startswith("Black wins the duel")
            assert state.tokens(WHITE)[0].state.value == "beaten"
        assert any(line.startswith("White locks in with") for line in widget.log_lines())
        # the computer then finished its turn, and it is the person's turn again
        assert state.seat_to_act == WHITE and state.turn == WHITE and state.duel is None
        assert_table_matches_state(widget)
        # the finished duel stays in its panel until the person's next action
        assert widget.table["duel"] is not None
        page.act([a for a in person_options(widget.table) if isinstance(a, Move | Place)][0])
        assert widget.table["duel"] is None or widget.table["duel"]["result"] is None
        widget.close()

    asyncio.run(scenario())


def test_computer_turn_is_shown_step_by_step_with_pauses() -> None:
    async def scenario() -> None:
        widget = started(seed=8, pause=0.02)
        seen: list[tuple[int, bool]] = []

        def note(_change: object) -> None:
            assert widget.state is not None
            seen.append((len(widget.state.actions()), widget.table["thinking"]))

        widget.observe(note, names="table")
        page = Pager(widget)
        options = [a for a in person_options(widget.table) if isinstance(a, Place)]
        page.act(options[0])
        loop = asyncio.get_running_loop()
        begun = loop.time()
        page.act(EndTurn())
        assert widget.thinking and widget.table["thinking"]  # the computer starts at once
        await widget.settle()
        took = loop.time() - begun
        state = widget.state
        assert state is not None and state.seat_to_act == WHITE
        computer_steps = len(state.actions()) - 2
        assert computer_steps >= 2  # at least one action and its end of turn
        # every step was published on its own, and each took at least the pause
        counts = [n for n, _ in seen]
        assert set(range(2, len(state.actions()) + 1)) <= set(counts)
        assert took >= 0.02 * computer_steps
        assert not widget.table["thinking"]
        black_lines = [line for line in widget.log_lines() if line.startswith("Black ")]
        assert black_lines, "the computer's steps are written in the log in words"
        widget.close()

    asyncio.run(scenario())


def test_new_game_during_the_computers_pause_cancels_its_moves() -> None:
    async def scenario() -> None:
        widget = started(seed=21, pause=0.3)
        page = Pager(widget)
        page.act([a for a in person_options(widget.table) if isinstance(a, Place)][0])
        page.act(EndTurn())
        old = widget.state
        assert old is not None and widget.pending_tasks == 1
        await asyncio.sleep(0.05)  # the computer has chosen and is pausing before showing it
        frozen = old.to_json()
        page.send({"type": "new_game", "opponent": "sharp"})
        assert widget.pending_tasks == 0
        await asyncio.sleep(0.6)  # long after the cancelled step would have arrived
        assert old.to_json() == frozen
        new = widget.state
        assert new is not old and new is not None
        assert new.actions() == () and new.seat_to_act == WHITE
        assert widget.opponent == "sharp" and widget.game_number == 2
        assert not widget.table["thinking"]
        assert not any(line.startswith("Black") for line in widget.log_lines())
        widget.close()

    asyncio.run(scenario())


def test_new_game_while_the_computer_thinks_in_its_thread_drops_the_answer() -> None:
    async def scenario() -> None:
        position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR),
                                           hands=("D1 E1", "C1 C2 C3"), turn=BLACK)
        slow = ScriptedComputer([Place(card_ids("C1"), key=0)], think_s=0.3)
        widget = started()
        widget.new_game(position=position, computer=slow)
        await asyncio.sleep(0.05)
        assert widget.thinking and slow.calls == 1  # inside choose(), in the worker thread
        old = widget.state
        assert old is not None
        widget.receive({"type": "new_game", "opponent": "casual", "seq": 1})
        await asyncio.sleep(0.5)  # the thread has answered by now
        assert old.actions() == ()  # its answer was never played, nor even tried
        assert widget.state is not old and widget.state is not None
        assert widget.state.actions() == ()
        assert widget.table["error"] is None and widget.refused == []
        widget.close()

    asyncio.run(scenario())


def test_close_cancels_pending_computer_steps() -> None:
    async def scenario() -> None:
        widget = started(seed=4, pause=0.3)
        page = Pager(widget)
        page.act([a for a in person_options(widget.table) if isinstance(a, Place)][0])
        page.act(EndTurn())
        state = widget.state
        assert state is not None
        done = len(state.actions())
        widget.close()
        assert widget.pending_tasks == 0
        await asyncio.sleep(0.5)
        assert len(state.actions()) == done

    asyncio.run(scenario())


def test_without_an_event_loop_the_computer_replies_at_once() -> None:
    widget = started(seed=7)  # a game where the computer's reply starts no duel
    page = Pager(widget)
    page.act([a for a in person_options(widget.table) if isinstance(a, Place)][0])
    page.act(EndTurn())
    state = widget.state
    assert state is not None and state.seat_to_act == WHITE and state.turn == WHITE
    assert widget.pending_tasks == 0 and not widget.thinking
    assert_table_matches_state(widget)
    widget.close()


# -- take back and hint ------------------------------------------------------------------------


def test_take_back_undoes_the_persons_action_and_stops_at_the_card_draw() -> None:
    async def scenario() -> None:
        widget = started(seed=13)
        page = Pager(widget)
        page.send({"type": "undo"})
        assert widget.table["error"] == "There is nothing to take back yet."
        state = widget.state
        assert state is not None
        start = table_position(state)
        hand = widget.table["hand"]
        place = [a for a in person_options(widget.table) if isinstance(a, Place)][-1]
        page.act(place)  # nothing rolled or drawn: it can be taken back
        assert widget.table["can_undo"]
        assert widget.table["undo_label"] == "duel.button.take_back"
        page.send({"type": "undo"})
        assert table_position(state) == start
        assert widget.table["hand"] == hand and widget.table["error"] is None
        assert len(widget.log_lines()) == 1  # back to "Round 1: …"
        assert_table_matches_state(widget)
        page.act(place)
        page.act(EndTurn())  # the person draws; the computer plays its turn and draws
        await widget.settle()
        assert state.turn == WHITE and len(state.actions()) > 2
        # the button says why it cannot go further, and a take-back changes nothing
        assert not widget.table["can_undo"]
        assert widget.table["undo_label"] == "duel.button.take_back_stops.draw"
        assert widget.strings[widget.table["undo_label"]] == "Take back: stops at the card draw"
        before = table_position(state)
        page.send({"type": "undo"})
        assert table_position(state) == before
        assert widget.table["error"] == "Take back: stops at the card draw"
        widget.close()

    asyncio.run(scenario())


def test_hint_shows_what_sharp_would_do_on_the_board() -> None:
    async def scenario() -> None:
        widget = started(seed=4)
        state = widget.state
        assert state is not None
        expected = make_bot("sharp", 4 + 7919).choose(state.view(WHITE))
        Pager(widget).send({"type": "hint"})
        await widget.settle()
        hint = widget.table["hint"]
        assert hint is not None and hint["action"] == expected.to_json()
        assert expected in state.legal_actions()
        assert hint["text"].startswith("Hint (what Sharp would do):")
        if isinstance(expected, Place):
            assert hint["keys"] == [expected.key] and hint["cards"] == list(expected.cards)
        # a hint is about the position it was asked in: any action clears it
        Pager(widget).send({"type": "settings", "naming": "letters"})
        assert widget.table["hint"] is not None
        widget.receive({"type": "act", "seq": 99, "action": expected.to_json()})
        assert widget.table["hint"] is None
        widget.close()

    asyncio.run(scenario())


def test_a_hint_is_cleared_whenever_its_position_changes() -> None:
    """A hint belongs to the position it was worked out for: the table the page is sent
    drops it as soon as the game moves on — the person's action (a duel's decisions
    included), a take-back, the computer's turn, the end of a round and the next one, a new
    game, and a position changed on the engine itself (a lesson's script driving
    ``game.state``) — and a hint worked out meanwhile is never shown for the new position."""
    async def scenario() -> None:
        widget = started(seed=21)
        page = Pager(widget)
        rng = random.Random(21)

        def ask() -> dict[str, Any]:
            page.send({"type": "hint"})
            return widget.table

        seen = {"act": 0, "undo": 0, "continue": 0}
        for _ in range(300):
            await widget.settle()
            table = widget.table
            assert table["hint"] is None, table["hint"]  # nothing carried over
            if table["screen"] == "game_over":
                break
            if table["screen"] == "round_end":
                page.send({"type": "continue"})
                seen["continue"] += 1
                continue
            assert table["your_turn"]
            ask()
            await widget.settle()
            assert widget.table["hint"] is not None
            if widget.table["can_undo"] and rng.random() < 0.3:
                page.send({"type": "undo"})
                seen["undo"] += 1
            else:
                page.act(rng.choice(person_options(widget.table)))
                seen["act"] += 1
            assert widget.table["hint"] is None
        assert all(seen.values()), seen
        # a new game
        widget.new_game()
        await widget.settle()
        ask()
        await widget.settle()
        assert widget.table["hint"] is not None
        widget.new_game()
        assert widget.table["hint"] is None
        # the engine moved on under the widget: the next table sent drops the hint
        ask()
        await widget.settle()
        state = widget.state
        assert state is not None and widget.table["hint"] is not None
        state.apply(person_options(widget.table)[0], WHITE)
        page.send({"type": "settings", "naming": "letters"})
        assert widget.table["hint"] is None
        # a hint asked, then the position moves on before it is ready: never shown
        widget.new_game()
        await widget.settle()
        page.send({"type": "hint"})
        page.act(person_options(widget.table)[0])
        await widget.settle()
        assert widget.table["hint"] is None
        widget.close()

    asyncio.run(scenario())


def test_hint_is_refused_when_it_is_not_the_persons_decision() -> None:
    async def scenario() -> None:
        position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR),
                                           hands=("D1 E1", "C1 C2 C3"), turn=BLACK)
        widget = started(pause=0.2)
        widget.new_game(position=position)
        widget.receive({"type": "hint", "seq": 1})
        assert widget.refused[-1][0] == "hint"
        widget.close()

    asyncio.run(scenario())


# -- round and game end --------------------------------------------------------------------------


def _final_turn_position(round_number: int = 1, totals: Sequence[int] = (0, 0)) -> DuelState:
    """White's final turn (D12): Black has placed all five; White holds an A3."""
    return DuelState.from_position(
        piano=(D_MAJOR, G_MAJOR), hands=("A3", "C1 C2"),
        tokens=([(2, 3), (6, 2), (9, 1), "merged", "beaten"],
                [(14, 2), (19, 1), "beaten", "beaten", "merged"]),
        final_turn=True, round=round_number, totals=totals, seed=3)


def test_round_end_screen_shows_the_breakdown_and_waits_for_the_person() -> None:
    async def scenario() -> None:
        widget = started()
        widget.new_game(position=_final_turn_position())
        page = Pager(widget)
        page.act(Move(card_ids("A3")[0], key=9, steps=3))  # A (f) → C of the right card
        page.act(EndTurn())
        await widget.settle()
        state = widget.state
        assert state is not None
        assert widget.table["screen"] == "round_end"
        result = widget.table["result"]
        white, black = state.round_scores[-1]
        # D major: D fff ×3, F♯ ff ×2; G major: G fff, B ff, D f
        assert result["white"]["lines"] == [
            "Re (fff) of Re major: 3 × 3 = 9",
            "Fa♯ (ff) of Re major: 2 × 2 = 4",
            "Do of Sol major: 1 × 1 = 1",
        ]
        assert result["black"]["lines"] == ["Re (f) of Sol major: 2 × 1 = 2",
                                             "Sol (fff) of Sol major: 1 × 3 = 3"]
        assert (result["white"]["score"], result["black"]["score"]) == (white, black) == (14, 5)
        assert result["white"]["summary"] == "Round: 14 · Total: 14"
        assert widget.table["players"]["white"]["total"] == 14
        # Black scored less, so Black starts round 2 — but only once the person goes on
        done = len(state.actions())
        await asyncio.sleep(0.05)
        assert len(state.actions()) == done and state.seat_to_act == BLACK
        assert widget.table["legal"]["end_turn"] is False
        page.send({"type": "act", "action": {"type": "end_turn"}})
        assert "round screen" in widget.table["error"]
        page.send({"type": "continue"})
        await widget.settle()
        assert widget.table["screen"] == "play" and state.round == 2
        assert state.seat_to_act == WHITE and len(state.actions()) > done
        widget.close()

    asyncio.run(scenario())


def test_round_bonus_is_in_the_breakdown() -> None:
    position = DuelState.from_position(
        piano=(D_MAJOR, G_MAJOR), hands=("A3", "C1"),
        tokens=([(2, 1), (6, 1), (12, 1), (20, 1), "beaten"],
                [(14, 1), "beaten", "beaten", "beaten", "merged"]),
        final_turn=True, seed=1)
    widget = started()
    widget.new_game(position=position)
    page = Pager(widget)
    page.act(Move(card_ids("A3")[0], key=12, steps=-3))  # onto A: D, F♯ and A all White's
    page.act(EndTurn())
    result = widget.table["result"]
    assert result["white"]["lines"][-1] == "Every chord tone of Re major: +1"
    assert result["white"]["score"] == 3 + 2 + 1 + 1 + 1
    points = sum(int(m) for line in result["white"]["lines"]
                 for m in re.findall(r"= (\d+)$|\+(\d)$", line)[0] if m)
    assert points == result["white"]["score"]
    widget.close()


def test_game_over_screen_after_the_third_round() -> None:
    widget = started()
    widget.new_game(position=_final_turn_position(round_number=3, totals=(20, 30)))
    page = Pager(widget)
    page.act(Move(card_ids("A3")[0], key=9, steps=3))
    page.act(EndTurn())
    state = widget.state
    assert state is not None and state.is_terminal()
    assert widget.table["screen"] == "game_over"
    assert widget.table["result"]["line"] == "You lose the game, 34–35."
    assert widget.log_lines()[-1] == "Game over: Black wins, 35–34."
    assert widget.table["legal"]["end_turn"] is False
    widget.close()


# -- whole games through the page's messages -------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed, opponent", [(1, "casual"), (2, "sharp"), (3, "casual")])
def test_whole_games_through_messages_keep_the_page_and_engine_agreeing(
    seed: int, opponent: str
) -> None:
    async def scenario() -> None:
        rng = random.Random(seed)
        widget = started(opponent, seed=seed, language=rng.choice(["en", "es"]))
        page = Pager(widget)
        rounds_seen = 0
        for _ in range(2000):
            await widget.settle()
            table = widget.table
            if table["screen"] == "game_over":
                break
            if table["screen"] == "round_end":
                rounds_seen += 1
                assert widget.state is not None
                assert table["result"]["white"]["score"] == widget.state.round_scores[-1][0]
                page.send({"type": "continue"})
                continue
            assert table["your_turn"], table["status"]
            assert_table_matches_state(widget)
            page.act(rng.choice(person_options(table)))
            assert table is not widget.table and widget.table["error"] is None
            roll = rng.random()
            if roll < 0.04:
                page.send({"type": "undo"})
            elif roll < 0.08 and widget.table["your_turn"]:
                page.send({"type": "hint"})
        state = widget.state
        assert state is not None and state.is_terminal() and rounds_seen >= 2
        assert widget.table["result"]["line"]
        json.dumps(widget.table)  # everything sent to the page is plain JSON
        widget.close()

    asyncio.run(scenario())


# -- progress ------------------------------------------------------------------------------------
# The rows the widget writes to a real progress file (see "Progress" in the widget's module).


def _store(tmp_path: Path) -> ProgressStore:
    return ProgressStore(tmp_path / "ana.sqlite3", student="Ana")


def _rows(store: ProgressStore) -> list[tuple[str, str, bool | None]]:
    return [(a.item, a.answer, a.correct) for a in store.answers()]


def _duel_winner(state: DuelState) -> int:
    (result,) = [e for e in state.log if e["type"] == "duel_result"]
    return int(result["winner"])


def test_progress_places_and_duels_are_written_when_the_persons_turn_ends(
    tmp_path: Path,
) -> None:
    # White attacks Black's token on A (the fifth, f, of D major) by placing an A3 there
    position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR), hands=("A3 E1 D2", "C1 C2"),
                                       tokens=([], [(9, 1)]), seed=5)
    black = ScriptedComputer([Place(card_ids("C1"), key=0)])  # Black's own placement
    with _store(tmp_path) as store:
        widget = started(progress=store)
        widget.new_game(position=position, computer=black)
        page = Pager(widget)
        page.act(Place(card_ids("A3"), key=9))
        page.act(LockIn())  # the computer (defending) locks in at once: no event loop here
        state = widget.state
        assert state is not None and state.duel is None and state.seat_to_act == WHITE
        assert store.answers() == []  # nothing yet: the turn has not ended
        page.act(EndTurn())  # the computer replies at once and ends its turn too
        assert state.seat_to_act == WHITE and state.turn_number == 3
        won = "won" if _duel_winner(state) == WHITE else "lost"
        assert _rows(store) == [("La of D major", "f", True), ("duel on La of D major", won, None)]
        # Black's placement on Do (left card) is not the person's: no row for it.
        # The next turn: E on the right card (G major: G B D) is no chord tone
        page.act(Place(card_ids("E1"), key=16))
        page.act(EndTurn())
        rows = store.answers()
        assert [(a.item, a.answer, a.correct) for a in rows[2:]] == [
            ("Mi of G major", "none", False)]
        for row in rows:
            assert (row.student, row.activity, row.response_ms) == ("Ana", "keyboard_duel", None)
        assert widget.refused == []
        widget.close()


def test_progress_item_is_the_same_in_every_naming_and_language(tmp_path: Path) -> None:
    position = DuelState.from_position(piano=(D_MAJOR, G_MAJOR), hands=("Wild", "C1"))
    with _store(tmp_path) as store:
        widget = started(naming="letters", language="es", progress=store)
        widget.new_game(position=position, computer=ScriptedComputer([]))
        page = Pager(widget)
        page.act(Place(card_ids("Wild"), key=18))  # a Wild alone names any key: F♯ (right)
        page.act(EndTurn())
        assert _rows(store)[0] == ("Fa♯ of G major", "none", False)
        assert "F♯ of Sol" not in _rows(store)[0][0]
        widget.close()


def test_progress_round_and_game_rows_when_the_game_ends(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        widget = started(progress=store)
        widget.new_game(position=_final_turn_position(round_number=3, totals=(20, 30)))
        page = Pager(widget)
        page.act(Move(card_ids("A3")[0], key=9, steps=3))  # a Move: no row of its own
        assert store.answers() == []
        page.act(EndTurn())
        assert _rows(store) == [("round 3", "14–5", None), ("game", "lost", None)]
        widget.close()


def test_progress_a_round_ended_by_the_computers_final_turn(tmp_path: Path) -> None:
    async def scenario() -> None:
        # White places its fifth token, so Black takes one final turn (D12), then the round
        # is scored: its row is written when Black's turn ends, not before.
        position = DuelState.from_position(
            piano=(D_MAJOR, G_MAJOR), hands=("D1 E1", "C1 C2"),
            tokens=([(6, 2), (9, 1), "merged", "beaten"], [(14, 2)]), seed=2)
        with _store(tmp_path) as store:
            widget = started(pause=0.2, progress=store)
            widget.new_game(position=position, computer=ScriptedComputer([]))
            page = Pager(widget)
            page.act(Place(card_ids("D1"), key=2))
            page.act(EndTurn())
            await asyncio.sleep(0.05)
            state = widget.state
            assert state is not None and state.final_turn and state.seat_to_act == BLACK
            assert _rows(store) == [("Re of D major", "fff", True)]
            await widget.settle()
            assert widget.table["screen"] == "round_end" and state.round_scores
            white, black = state.round_scores[0]
            assert _rows(store)[1:] == [("round 1", f"{white}–{black}", None)]
            widget.close()

    asyncio.run(scenario())


def test_progress_take_back_before_the_turn_ends_writes_nothing(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        widget = started(seed=13, progress=store)
        page = Pager(widget)
        place = [a for a in person_options(widget.table) if isinstance(a, Place)][0]
        page.act(place)
        page.send({"type": "undo"})
        assert store.answers() == []
        # a turn left unfinished by New game writes nothing either
        page.act(place)
        page.send({"type": "new_game", "opponent": "casual"})
        assert store.answers() == []
        widget.close()


def test_progress_take_back_after_the_turn_ended_keeps_its_rows(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        widget = started(seed=13, progress=store)
        page = Pager(widget)
        state = widget.state
        assert state is not None
        piano = (state.piano_cards[0].index, state.piano_cards[1].index)
        place = [a for a in person_options(widget.table) if isinstance(a, Place)][-1]
        assert isinstance(place, Place)
        item = progress_item(place.key, piano)
        page.act(place)
        page.act(EndTurn())  # the computer replies at once
        written = store.answers()
        assert [a.item for a in written].count(item) == 1
        page.send({"type": "undo"})  # refused: cards were drawn since
        assert store.answers() == written  # what was played stays recorded
        again = [a for a in person_options(widget.table) if isinstance(a, Place)][0]
        page.act(again)
        page.send({"type": "undo"})  # taken back before the turn ended: no new row
        assert store.answers() == written
        page.act(again)
        page.act(EndTurn())  # played again: its own rows are added
        now = store.answers()
        assert now[: len(written)] == written and len(now) > len(written)
        widget.close()


def test_progress_without_a_store_records_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    widget = started(progress=None)
    widget.new_game(position=_final_turn_position(round_number=3, totals=(20, 30)))
    page = Pager(widget)
    page.act(Move(card_ids("A3")[0], key=9, steps=3))
    page.act(EndTurn())
    assert widget.table["screen"] == "game_over"
    assert widget.refused == [] and widget.table["error"] is None
    assert list(tmp_path.iterdir()) == []  # no progress file was made
    # a lesson without a student's name has no store, so its game records nothing either
    lesson_game = Lesson().keyboard_duel("casual", seed=3, pause=0)
    lesson_game.receive({"type": "act", "seq": 1, "action": {"type": "end_turn"}})
    assert list(tmp_path.iterdir()) == []
    lesson_game.close()
    widget.close()


def test_progress_a_lesson_passes_the_students_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    lesson = Lesson(student="Ana")
    game = lesson.keyboard_duel("casual", seed=3, pause=0)
    game.new_game(position=_final_turn_position(round_number=3, totals=(20, 30)))
    page = Pager(game)
    page.act(Move(card_ids("A3")[0], key=9, steps=3))
    page.act(EndTurn())
    game.close()
    lesson.progress.close()
    rows = read_answers(tmp_path / "progress.sqlite3")
    assert [(a.student, a.activity, a.item, a.answer) for a in rows] == [
        ("Ana", "keyboard_duel", "round 3", "14–5"), ("Ana", "keyboard_duel", "game", "lost")]


def test_progress_a_store_that_refuses_rows_does_not_stop_the_game() -> None:
    class Refusing:
        def record(self, activity: str, item: str, answer: str, correct: bool | None,
                   response_ms: float | None = None) -> None:
            raise ValueError("no student name yet")

    widget = started(progress=Refusing())
    widget.new_game(position=_final_turn_position())
    page = Pager(widget)
    page.act(Move(card_ids("A3")[0], key=9, steps=3))
    page.act(EndTurn())
    assert widget.table["screen"] == "round_end"
    assert widget.refused == [("progress", "no student name yet")]
    assert widget.table["error"] == "no student name yet"
    widget.close()


@pytest.mark.slow
def test_progress_of_a_whole_game_and_the_teachers_figures(tmp_path: Path) -> None:
    rng = random.Random(5)
    with _store(tmp_path) as store:
        widget = started("casual", seed=5, progress=store)  # no event loop: replies at once
        assert widget.state is not None
        start_piano = [card.index for card in widget.state.piano_cards]
        page = Pager(widget)
        for _ in range(2000):
            table = widget.table
            if table["screen"] == "game_over":
                break
            if table["screen"] == "round_end":
                page.send({"type": "continue"})
                continue
            page.act(rng.choice(person_options(table)))
        state = widget.state
        assert state is not None and state.is_terminal()
        rows = store.answers()
        widget.close()
    # one row per placement of the person, per duel, per round, and one for the game
    places = [a for a in rows if a.answer in ("fff", "ff", "f", "none")]
    person_places = [e for e in state.log if e["type"] == "place" and e["seat"] == WHITE]
    assert len(places) == len(person_places) > 0
    chords, piano = [], start_piano
    for event in state.log:  # the chord of the card each placement was on, that round
        if event["type"] == "round_start":
            piano = event["piano"]
        elif event["type"] == "place" and event["seat"] == WHITE:
            chords.append(ALL_TRIADS[piano[event["key"] // 12]])
    for row, event, chord in zip(places, person_places, chords, strict=True):
        assert re.fullmatch(r"(Do|Re|Mi|Fa|Sol|La|Si)♯? of [A-G][♭♯]? (major|minor)", row.item)
        note = key_name(event["key"], "solfege").split(" (")[0]
        assert row.item == f"{note} of {chord.name()}"
        assert row.correct is (event["key"] % 12 in chord.pitch_classes)
        assert row.answer == {chord.pitch_classes[0]: "fff", chord.pitch_classes[1]: "ff",
                              chord.pitch_classes[2]: "f"}.get(event["key"] % 12, "none")
    duels = [a for a in rows if a.item.startswith("duel on ")]
    assert len(duels) == sum(1 for e in state.log if e["type"] == "duel_result")
    assert all(a.answer in ("won", "lost") and a.correct is None for a in duels)
    assert [(a.item, a.answer) for a in rows if a.item.startswith("round ")] == [
        (f"round {n}", f"{w}–{b}") for n, (w, b) in enumerate(state.round_scores, start=1)]
    assert (rows[-1].item, rows[-1].answer) == (
        "game", "won" if state.winner == WHITE else "lost")
    assert len(rows) == len(places) + len(duels) + len(state.round_scores) + 1
    # the teacher's notebook reads a class folder holding this file, next to a demo class
    demo_class(tmp_path, students=2)
    klass = read_class(tmp_path)
    assert klass.skipped == () and "Ana" in klass.students
    table = klass.table()
    weakest = {row[0]: row[-1] for row in table.rows}
    assert not re.match(r"(round|game|duel)", weakest["Ana"])  # outcomes are not answers
    assert "Ana" in klass.report("Ana")._repr_html_()
    assert klass.items_table("Ana", activity="keyboard_duel").rows
    plot_notes(klass.answers, activity=None)  # Keyboard Duel items are not notes: left out
    plot_items(klass.of("Ana"), activity="keyboard_duel")


# -- v2: a fair take-back, the finished round, robust messages, no rule in the widget ----------

ATTACK_POSITION = dict(piano=(0, 7), hands=("C1 D3 E1 G2 A1", "E2 F1"),
                       tokens=([(9, 1)], [(0, 3)]), seed=0)


def _duel_dice(widget: KeyboardDuelWidget) -> tuple[list[int], list[int]]:
    sides = widget.table["duel"]["sides"]
    return sides["white"]["dice"], sides["black"]["dice"]


def test_take_back_stops_at_the_dice_of_the_persons_attack() -> None:
    """Take-back is no reroll: after an attack's dice the button says it stops there, and an
    undo changes nothing; a duel card that rolled nothing can still be taken back."""
    attack = Place(card_ids("C1"), key=0)
    widget = started()
    widget.new_game(position=DuelState.from_position(**ATTACK_POSITION))  # type: ignore[arg-type]
    page = Pager(widget)
    page.act(attack)
    first = _duel_dice(widget)
    assert not widget.table["can_undo"]
    assert widget.table["undo_label"] == "duel.button.take_back_stops.dice"
    assert widget.strings[widget.table["undo_label"]] == "Take back: stops at the dice roll"
    page.send({"type": "undo"})
    assert widget.table["duel"] is not None and _duel_dice(widget) == first
    assert widget.table["error"] == "Take back: stops at the dice roll"
    hand = widget.table["hand"]
    page.act(DuelCard(card_ids("D3")[0]))  # +3 (nothing rolled): it can be taken back
    assert widget.table["can_undo"]
    page.send({"type": "undo"})
    assert widget.table["hand"] == hand and _duel_dice(widget) == first
    assert widget.table["undo_label"] == "duel.button.take_back_stops.dice"
    widget.new_game(position=DuelState.from_position(**ATTACK_POSITION))  # type: ignore[arg-type]
    page.send({"type": "settings", "language": "es"})
    page.act(attack)
    assert widget.strings[widget.table["undo_label"]] == (
        "Deshacer: se detiene en la tirada de dados")
    widget.close()


FINAL_TURN_POSITION = dict(
    piano=(0, 7), hands=("A1 D2 C1 E3 G1", "E1 F2 B1"), final_turn=True,
    tokens=([(0, 2), (4, 1)], [(7, 3), (2, 1), (19, 2), (23, 1), (14, 1)]))


def test_round_end_keeps_the_finished_board_and_take_back_stops_at_the_rounds_start() -> None:
    widget = started()
    widget.new_game(position=DuelState.from_position(**FINAL_TURN_POSITION))  # type: ignore[arg-type]
    page = Pager(widget)
    page.act(Place(card_ids("A1"), key=9))
    page.act(EndTurn())
    table = widget.table
    assert table["screen"] == "round_end" and table["board_finished"]
    assert not table["can_undo"]
    # the finished board, each token with what the engine scored for it
    assert sorted((t["key"], t["seat"], t["score"]) for t in table["tokens"]) == [
        (0, "white", 6), (2, "black", 1), (4, "white", 2), (7, "black", 3), (9, "white", 1),
        (14, "black", 1), (19, "black", 6), (23, "black", 2)]
    assert [p["index"] for p in table["pianos"]] == [0, 7]
    assert (table["result"]["white"]["score"], table["result"]["black"]["score"]) == (9, 14)
    # the trays and the figures under the totals are the finished round's too
    assert table["players"]["white"]["tray"] == ["board"] * 3 + ["unplaced"] * 2
    assert table["players"]["black"]["tray"] == ["board"] * 5
    assert (table["players"]["white"]["running"], table["players"]["black"]["running"]) == (9, 14)
    assert any("Sol major" in line for line in table["result"]["black"]["lines"])  # the bonus
    page.send({"type": "undo"})
    assert widget.table["error"] == "There is nothing to take back yet."
    page.send({"type": "continue"})
    assert widget.table["screen"] == "play" and not widget.table["board_finished"]
    assert widget.state is not None and widget.state.round == 2
    assert_table_matches_state(widget)
    # the round that was scored stays scored, whatever is taken back later
    page.send({"type": "undo"})
    assert widget.state.round_scores == ((9, 14),)
    widget.close()


def test_the_last_token_warns_that_the_opponent_gets_the_final_turn() -> None:
    widget = started()
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), hands=("A1 D2 C1 E3 G1", "E1 F2 B1"),
        tokens=([(0, 2), (4, 1), (16, 1), (21, 1)], [(7, 3)])))
    assert "final turn" in widget.table["warning"]
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), hands=("A1 D2 C1 E3 G1", "E1 F2 B1"), tokens=([(0, 2)], [(7, 3)])))
    assert widget.table["warning"] is None
    widget.close()


def test_move_choices_say_where_they_land_and_when_they_start_a_duel() -> None:
    widget = started()
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), hands=("D2 E1", "E3"), tokens=([(0, 1)], [(2, 1)])))
    moves = {(m["card"], m["steps"]): m for m in widget.table["legal"]["move"]}
    d2 = card_ids("D2")[0]
    assert moves[(d2, 2)]["to"] == 2 and moves[(d2, 2)]["duel"]
    assert "starts a duel" in moves[(d2, 2)]["label"]
    assert moves[(d2, -2)]["to"] == 22 and not moves[(d2, -2)]["duel"]  # wraps (D2)
    widget.close()


def test_hint_names_the_power_a_merge_reaches() -> None:
    """A Hint that amplifies a token says the power it will have, not the cards' count."""
    widget = started()
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), hands=("C1 C2 Wild", "E3"), tokens=([(0, 4)], [])))
    widget._give_hint(Place(card_ids("C1 C2"), key=0))
    assert "(power 6)" in widget.table["hint"]["text"]
    widget.close()


def test_a_hint_to_attack_says_it_starts_a_duel_with_the_right_powers() -> None:
    """Placing two cards on Black's power-3 token attacks it with power 2 (D8, D11): the hint
    says so, not "(power 3)" (the defender's power) as if it were a plain placement; a move
    onto Black's token says the same."""
    widget = started()
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), hands=("D1 D2 E2", "E3"), tokens=([(4, 1)], [(2, 3)])))
    widget._give_hint(Place(card_ids("D1 D2"), key=2))
    text = widget.table["hint"]["text"]
    assert text.endswith("your power-2 token attacks Black's power-3 token there and starts "
                         "a duel."), text
    assert "(power 3)" not in text
    widget._give_hint(Move(card_ids("E2")[0], key=4, steps=-2))
    text = widget.table["hint"]["text"]
    assert text.endswith("your power-1 token attacks Black's power-3 token there and starts "
                         "a duel."), text
    widget.close()


@pytest.mark.parametrize("message", [
    None, 7, "act", [], {"type": None}, {"type": 5}, {"type": ["act"]},
    {"type": "act", "action": {"type": ["place"]}},
    {"type": "act", "action": {"type": "place", "cards": [[1]], "key": {}}},
    {"type": "act", "action": {"type": "place", "cards": "C1", "key": 0}},
    {"type": "act", "action": {"type": "move", "card": 1e9, "key": -1, "steps": 0}},
    {"type": "act", "action": [[[[[[[[[[[]]]]]]]]]]]},
    {"type": "new_game", "opponent": ["casual"]}, {"type": "new_game", "opponent": {}},
    {"type": "settings", "naming": 3}, {"type": "settings", "language": ["es"]},
    {"type": "undo", "seq": True}, {"type": "hint", "seq": "1"}, {"type": "continue", "seq": 2.5},
])
def test_any_malformed_message_is_refused_never_raised(message: object) -> None:
    widget = started(seed=2)
    state = widget.state
    assert state is not None
    before = state.to_json()
    widget.receive(message)  # must not raise
    assert widget.refused and widget.table["error"]
    assert state.to_json() == before
    widget.close()


def test_a_refusal_shows_the_rules_the_error_carries() -> None:
    """The page cites the rules the engine's error carries (``rules``), never words read out
    of its English message."""
    from musicgames.duel.errors import SecondPlaceError
    from musicgames.widgets.keyboard_duel.widget import refusal_text

    said = refusal_text(SecondPlaceError("refused (one Place per turn, D9)", rule="D7"), "en")
    assert said == "You have already placed a token this turn. (D7)"
    both = refusal_text(SecondPlaceError("refused", rule="D7", rules=("D6", "D7")), "es")
    assert both.endswith("(D6, D7)")
    assert refusal_text(SecondPlaceError("refused (D7)"), "en") == (
        "You have already placed a token this turn.")


def test_the_widget_holds_no_rule() -> None:
    """The board's wrap-around, scores and the final turn come from the engine's events."""
    package = Path(__file__).resolve().parents[1] / "musicgames" / "widgets"
    page = sorted(package.glob("keyboard_duel*.js"))  # the view and its drawing
    sources = [*sorted((package / "keyboard_duel").glob("*.py")), *page]
    for source in sources:
        text = source.read_text(encoding="utf-8")
        assert "% 24" not in text and "%24" not in text, source
        assert ".multiplier(" not in text and "round_score" not in text, source
    js = "\n".join(source.read_text(encoding="utf-8") for source in page)
    assert '["casual", "sharp"]' not in js  # the opponents come from Python


def test_after_a_duel_one_line_says_what_decided_it_and_a_sound_is_sent() -> None:
    """Seeded attack: White's 1 die against Black's 2; nobody plays a card, so the roll
    decided it. The person's win sends the key's chord, rising; a loss a low falling fifth."""
    widget = started()
    widget.new_game(position=DuelState.from_position(**ATTACK_POSITION))  # type: ignore[arg-type]
    page = Pager(widget)
    page.act(Place(card_ids("C1"), key=0))
    page.act(LockIn())
    state = widget.state
    assert state is not None and state.duel is None  # no event loop: Black answered at once
    duel = widget.table["duel"]
    assert duel["result"] and duel["decided"].startswith("What decided it: the roll")
    assert duel["sound"]["broken"] is True
    won = "You win" in duel["result"]
    c_major = [261.63, 329.63, 392.0]
    assert (duel["sound"]["hz"] == c_major) is won
    sound = widget.table["sound"]
    assert sound["chords"][0]["hz"] == c_major and sound["id"].endswith("-1")
    widget.close()


# -- colours under deuteranopia ---------------------------------------------------------------

# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
_DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                 (-0.011820, 0.042940, 0.968881))


def _seen_with_deuteranopia(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of a #rrggbb colour as a person with deuteranopia sees it (simulated)."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5)]
    r, g, b = (max(0.0, min(1.0, sum(m * v for m, v in zip(row, rgb, strict=True))))
               for row in _DEUTERANOPIA)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _difference(a: str, b: str) -> float:
    """CIE76 ΔE between two colours, both seen with deuteranopia."""
    return float(sum((p - q) ** 2 for p, q in zip(
        _seen_with_deuteranopia(a), _seen_with_deuteranopia(b), strict=True)) ** 0.5)


def test_targets_and_hints_stand_out_on_every_key_colour_with_deuteranopia() -> None:
    """Checked with a simulator of deuteranopia (Machado et al. 2009): the target ring and the
    hint frame differ from every key colour of the piano cards by ΔE ≥ 20. The old green
    target on the red fff key (the brown the issue saw) differs by only about 13."""
    from musicgames.widgets.keyboard_duel.table import piano_svg

    css = (Path(__file__).resolve().parents[1] / "musicgames" / "widgets"
           / "keyboard_duel.css").read_text(encoding="utf-8")
    marks = {name: re.search(rf"--mg-{name}:\s*(#[0-9a-fA-F]{{6}})", css)
             for name in ("target", "hint")}
    keys = set()
    for card in range(24):
        keys.update(re.findall(r'class="mg-key[^"]*"[^>]*fill="(#[0-9a-fA-F]{6})"',
                               piano_svg(card, Naming.SOLFEGE)))
    assert len(keys) >= 4  # white, black and the marked chord tones
    for name, found in marks.items():
        assert found, name
        for key in keys:
            assert _difference(found.group(1), key) >= 20, (name, found.group(1), key)
    assert _difference("#3fbf6f", "#d1495b") < 20  # the old green on red: the test can fail


def test_key_labels_are_the_names_cards_land_by() -> None:
    """A white key is named by its plain letter, the letter a card places on (D8): never Mi♯
    on the F key or Do♭ on the B key. A black key is spelled in its card's chord (C♯ in
    A major, D♭ in B♭ minor), on the board and in the names read out."""
    from musicgames.duel import PIANO_CARDS
    from musicgames.widgets.keyboard_duel.narration import Words
    from musicgames.widgets.keyboard_duel.table import piano_svg

    white_pcs, black_pcs = (0, 2, 4, 5, 7, 9, 11), (1, 3, 6, 8, 10)
    for naming, letters in ((Naming.SOLFEGE, "Do Re Mi Fa Sol La Si"),
                            (Naming.LETTERS, "C D E F G A B")):
        words = Words("en", naming)
        for index, card in enumerate(PIANO_CARDS):
            svg = piano_svg(index, naming)
            whites = re.findall(r'<text x="[\d.]+" y="92.0"[^>]*>([^<]+)</text>', svg)
            blacks = re.findall(r'<text class="mg-black-label"[^>]*>([^<]+)</text>', svg)
            spelled = [card.triad.tone_name(pc, naming) for pc in black_pcs]
            assert whites == letters.split(), (card, whites)
            assert blacks == spelled, (card, blacks)
            piano = (index, index)
            assert [words.note(pc, piano) for pc in white_pcs] == letters.split()
            assert [words.note(pc, piano) for pc in black_pcs] == spelled
    sharp = [i for i, card in enumerate(PIANO_CARDS) if card.triad.tone_name(5) == "Mi♯"]
    assert sharp, "a chord spells the F key E♯ (C♯ major): the case this test is about"


class _ScriptedDefender:
    """A computer player that answers a duel with the given run, then locks in."""

    def __init__(self, run: str) -> None:
        self.cards = [DuelCard(card) for card in card_ids(run)] if run else []

    def choose(self, view: Any) -> Action:
        return self.cards.pop(0) if self.cards else LockIn()


def _decided_after(white_run: str, black_run: str) -> str:
    """Seeded: White attacks Black's power-1 token with C1 and both roll a 4; White plays
    its run and locks in, Black answers with its run. Returns the panel's "What decided it"."""
    widget = started()
    widget.new_game(position=DuelState.from_position(
        hands=("C1 C3 C2", "E2 D1"), tokens=([], [(0, 1)]), seed=0),
        computer=_ScriptedDefender(black_run))  # type: ignore[arg-type]
    page = Pager(widget)
    page.act(Place(card_ids("C1"), key=0))
    assert _duel_dice(widget) == ([4], [4])
    for code in white_run.split():
        page.act(DuelCard(card_ids(code)[0]))
    page.act(LockIn())  # Black answers at once (no event loop here)
    decided = widget.table["duel"]["decided"]
    widget.close()
    return str(decided)


def test_what_decided_it_when_the_dice_were_tied() -> None:
    """The dice tied 4–4 (a tie goes to the attacker, D11d). If the cards never changed the
    lead, the roll decided it — not "White was ahead 4–4"; if Black's card took the lead,
    Black's run decided it."""
    roll = _decided_after("C3", "E2")  # 7–4, then 7–6: White led throughout
    assert roll == ("What decided it: the roll — the dice were tied at 4, a tie goes to the "
                    "attacker (White), and the runs did not change that."), roll
    run = _decided_after("", "E2")  # 4–6: Black's card took the lead
    assert run == ("What decided it: Black's run — the dice were tied at 4, which goes to the "
                   "attacker (White), and Black finished 6–4."), run
    clear = _decided_after("C3", "")
    assert "ahead 4–4" not in clear and "tied at 4" in clear


class _ScriptedComputer:
    """A computer player that plays the given actions in order, then as Casual does."""

    def __init__(self, *actions: Action) -> None:
        self.actions = list(actions)
        self.casual = make_bot("casual", 0)

    def choose(self, view: Any) -> Action:
        return self.actions.pop(0) if self.actions else self.casual.choose(view)


def test_the_duel_that_ends_a_round_is_shown_at_round_end_and_never_comes_back() -> None:
    """Black's final turn attacks White's token; White locks in, Black ends the turn and the
    round is scored: the round-end screen shows that duel's result beside the breakdown.
    After Next round, neither a placement taken back nor anything else brings it back."""
    widget = started()
    widget.new_game(position=DuelState.from_position(
        piano=(0, 7), turn=BLACK, final_turn=True, hands=("D1 E1 F1", "C1 G1"),
        tokens=([(0, 1), (4, 1), (7, 1), (9, 1), (11, 1)], [(14, 1)])),
        computer=_ScriptedComputer(Place(card_ids("C1"), key=0), LockIn(), EndTurn()))
    page = Pager(widget)
    assert widget.table["duel"] is not None and widget.table["duel"]["you_decide"]
    page.act(LockIn())
    table = widget.table
    assert table["screen"] == "round_end"
    assert table["duel"] is not None and table["duel"]["result"], table["duel"]
    assert table["duel"]["decided"].startswith("What decided it")
    page.send({"type": "continue"})
    assert widget.table["screen"] == "play" and widget.table["duel"] is None
    state = widget.state
    assert state is not None and state.round == 2 and state.seat_to_act == WHITE
    page.act([a for a in person_options(widget.table) if isinstance(a, Place)][0])
    assert widget.table["can_undo"]
    page.send({"type": "undo"})
    assert widget.table["duel"] is None
    widget.close()


def test_shortcut_letters_match_the_words_of_the_page_in_spanish() -> None:
    """In Spanish the shortcuts are the first letters of the buttons' words (P Pista,
    D Deshacer, T Terminar turno, C Confirmar jugada, S Siguiente ronda, R Reglas); the
    Rules panel lists them; in English they stay H U E L N R."""
    buttons = {"hint": "duel.button.hint", "undo": "duel.button.take_back",
               "end": "duel.button.end_turn", "lock": "duel.button.lock_in",
               "next": "duel.button.next_round", "rules": "duel.button.rules"}
    english = started(language="en")
    assert english.table["shortcut_keys"] == {"hint": "H", "undo": "U", "end": "E", "lock": "L",
                                              "next": "N", "rules": "R"}
    english.close()
    widget = started(language="es")
    keys = widget.table["shortcut_keys"]
    assert len(set(keys.values())) == len(keys) == 6
    for name, word in buttons.items():
        assert keys[name] == widget.strings[word][0].upper(), (name, widget.strings[word])
    listed = [key for key, _ in widget.table["shortcuts"]]
    assert listed == [keys[name] for name in ("hint", "undo", "end", "lock", "next", "rules")]
    widget.close()


def test_the_page_takes_its_shortcut_letters_from_the_table_alone() -> None:
    """The page has no letters of its own (no English H U E L N R to fall back on): every
    shortcut it names or answers to is one the table sends, in the page's language."""
    from musicgames.i18n import LANGUAGES

    page = sorted((Path(__file__).parent.parent / "musicgames" / "widgets")
                  .glob("keyboard_duel*.js"))  # the view and its drawing
    js = "\n".join(source.read_text(encoding="utf-8") for source in page)
    start = js.index("function shortcut(name)")
    body = js[start:js.index("\n  function ", start)]  # what each shortcut does
    asked = set(re.findall(r'keyOf\("(\w+)"\)', js)) | set(re.findall(r'name === "(\w+)"', body))
    assert asked == {"hint", "undo", "end", "lock", "next", "rules"}, asked
    assert not re.search(r'\bhint:\s*"H"', js), "the page keeps a copy of the letters"
    for language in LANGUAGES:
        widget = started(language=language)
        assert set(widget.table["shortcut_keys"]) == asked
        assert all(len(k) == 1 for k in widget.table["shortcut_keys"].values())
        widget.close()



@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "draws 1 card.", "draws 2 cards."),
    ("es", "roba 1 carta.", "roba 2 cartas."),
    ("fr", "pioche 1 carte.", "pioche 2 cartes."),
])
def test_d7_the_log_says_how_many_cards_were_drawn_in_the_languages_plural(
    language: str, one: str, two: str
) -> None:
    from musicgames.widgets.keyboard_duel.narration import Words, say

    words = Words(language, Naming.SOLFEGE)
    assert say(words, "duel.log.end_turn", {"seat": 0, "drawn": 1}).endswith(one)
    assert say(words, "duel.log.end_turn", {"seat": 0, "drawn": 2}).endswith(two)


@pytest.mark.parametrize(("language", "one", "three"), [
    ("en", "1 die", "3 dice"), ("es", "1 dado", "3 dados"), ("fr", "1 dé", "3 dés"),
])
def test_d11a_dice_are_counted_in_the_languages_plural(
    language: str, one: str, three: str
) -> None:
    from musicgames.widgets.keyboard_duel.narration import Words

    words = Words(language, Naming.SOLFEGE)
    assert (words.dice_count(1), words.dice_count(3)) == (one, three)
