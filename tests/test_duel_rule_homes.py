"""One home per Keyboard Duel rule: each rule is worked out in one function that the engine,
the computer players, the odds, the widget, the lessons and the printed cards all call; a
second copy reappearing makes one of these tests fail. Also: the duel modules form no import
circle, and no file of the duel's engine or page is over 800 lines."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from musicgames.cards.faces import piano_card
from musicgames.cards.layout import POKER
from musicgames.duel import (
    COMPOSE_DECK,
    PIANO_CARDS,
    WHITE,
    DuelCard,
    DuelState,
    LockIn,
    Place,
    card_ids,
    kernel,
)
from musicgames.duel.events import CardPlayed, DieRerolled
from musicgames.duel.judgement import Context, Weights
from musicgames.duel.odds import Effect, effect_of_card, run_profile
from musicgames.lessons import Lesson
from musicgames.theory import Naming

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "musicgames"
DUEL = PACKAGE / "duel"
WIDGET = PACKAGE / "widgets" / "keyboard_duel"


def python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def assigned_names(path: Path) -> dict[str, ast.expr]:
    """The names a module assigns at its top level, with the value assigned."""
    out: dict[str, ast.expr] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                values = (node.value.elts if isinstance(node.value, ast.Tuple)
                          and len(node.value.elts) == len(elements) else [node.value] * len(
                              elements))
                for element, value in zip(elements, values, strict=True):
                    if isinstance(element, ast.Name):
                        out[element.id] = value
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
              and node.value is not None):
            out[node.target.id] = node.value
    return out


# -- D13: what a token scores -------------------------------------------------------------


def test_d13_every_score_asks_token_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the rule in its home and every figure follows: the engine's tokens and round
    score, a seat's view, the computer players' judgement, the round's breakdown and the
    lessons' exercise. A copy of ``power × multiplier`` anywhere would not follow."""
    game = DuelState.from_position(piano=(2, 7), hands=("D1 D2 Wild", "E3"),
                                   tokens=([(2, 2)], [(14, 1)]))
    before = (game.tokens(WHITE)[0].score, game.running_scores())
    assert before == (6, (6, 1))  # power 2 on D (fff) of D major; Black's 1 on D (f) of G major

    monkeypatch.setattr(kernel, "token_points", lambda power, multiplier: 100 * power + multiplier)
    assert game.tokens(WHITE)[0].score == 203
    assert game.board_token(14) is not None and game.board_token(14).score == 101  # type: ignore[union-attr]
    assert game.view(WHITE).tokens(WHITE)[0].score == 203
    assert game.running_scores() == (203, 101)
    context = Context(game.view(WHITE), random.Random(1), Weights())
    table = kernel.Table(list(game.view(WHITE).board), list(game.view(WHITE).token_keys),
                         list(game.view(WHITE).token_powers),
                         list(game.view(WHITE).token_states), [], False, False)
    assert context.score_diff(table) == 203 - 101
    rows = kernel.round_breakdown(game.view(WHITE).board, game.view(WHITE).token_powers,
                                  game.view(WHITE).piano)
    assert [row[-1] for row in rows] == [203, 101]
    exercise = Lesson(record=False).token_score([("Re major", "Re3", 2)])
    question = exercise.questions[0]
    assert question.options[question.answer] == "203"


def test_d13_no_module_multiplies_power_by_multiplier_itself() -> None:
    """Outside the kernel no module multiplies a power by a key's multiplier."""
    pattern = re.compile(r"power\w*\s*\*\s*[\w.]*mult|mult\w*\s*\*\s*[\w.]*power")
    found = [str(path.relative_to(ROOT)) for path in python_files()
             if path != DUEL / "kernel.py"
             and pattern.search(path.read_text(encoding="utf-8"))]
    assert found == []


# -- D4: which chord tone gets which mark ----------------------------------------------------


def test_d4_the_mark_order_lives_on_the_piano_card() -> None:
    """Root fff, third ff, fifth f is written once (``CHORD_TONE_MULTIPLIERS`` in the duel's
    cards); the printed card's legend reads it from the piano card."""
    card = PIANO_CARDS[2]  # D major
    face = piano_card(card, Naming.LETTERS, "en")(POKER)
    assert "D fff  F♯ ff  A f" in face
    assert [m for _, m in card.tone_marks] == ["fff", "ff", "f"]
    literal = re.compile(r'"fff",\s*"ff",\s*"f"|3:\s*"fff"')
    found = [str(path.relative_to(ROOT)) for path in python_files()
             if literal.search(path.read_text(encoding="utf-8"))]
    assert found == []


# -- D9, D11b: what a card's corner does -----------------------------------------------------


def test_d9_d11b_no_module_but_the_cards_reads_a_corners_value() -> None:
    """The corners' meaning (D9 steps and shifts, D11b additions and rerolls) is written once,
    in ``musicgames.duel.cards``; nobody else declares ``_UP, _DOWN, _WILD = 4, 5, 6`` or
    reads the raw corner value."""
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        names = assigned_names(path)
        where = str(path.relative_to(ROOT))
        assert not {"_UP", "_DOWN", "_WILD"} & set(names), where
        assert "CARD_CORNER" not in text, where
        if path not in (DUEL / "cards.py", PACKAGE / "cards" / "faces.py"):
            assert not re.search(r"Corner\.(UP|DOWN|WILD|ONE|TWO|THREE)\b", text), where


def test_d11b_engine_odds_and_players_agree_on_every_card() -> None:
    """Each of the 42 cards does in the engine's duel what the odds and the computer players
    count on it doing (they all read the card's corner from its one home)."""
    for card in range(len(COMPOSE_DECK)):
        game = _duel_with_card(card)
        played, *rerolled = game.apply(DuelCard(card))
        assert isinstance(played, CardPlayed)
        effect = effect_of_card(card)
        adds, ups, downs = run_profile([card])
        if effect is Effect.REROLL_OWN_LOWEST:
            assert played.effect == "reroll_own_lowest" and (adds, ups, downs) == ((), 1, 0)
            assert isinstance(rerolled[0], DieRerolled) and rerolled[0].owner == WHITE
        elif effect is Effect.REROLL_THEIR_HIGHEST:
            assert played.effect == "reroll_their_highest" and (adds, ups, downs) == ((), 0, 1)
            assert isinstance(rerolled[0], DieRerolled) and rerolled[0].owner != WHITE
        else:
            assert played.effect == "add" and (played.amount,) == adds == (effect.addition,)
            assert (ups, downs) == (0, 0) and not rerolled
        game.apply(LockIn())


def test_d11b_which_die_a_reroll_replaces_is_the_kernels() -> None:
    """The engine, the odds and the computer players reroll through ``kernel.reroll_target``,
    ``reroll_index`` and ``after_reroll``: nobody else picks a die by its place."""
    by_place = re.compile(r"\b(own|opp|dice)\[(0|-1)\]|len\(opp\) - 1|sorted_with"
                          r"|(?<!\.)_replace\(")
    for path in [*DUEL.glob("*.py"), *WIDGET.glob("*.py")]:
        if path.name != "kernel.py":
            assert not by_place.search(path.read_text(encoding="utf-8")), path.name
    assert kernel.after_reroll((1, 6), (2, 5), 1, 3) == ((3, 6), (2, 5))  # ↑: own lowest
    assert kernel.after_reroll((1, 6), (2, 5), -1, 3) == ((1, 6), (2, 3))  # ↓: their highest


def _duel_with_card(card: int) -> DuelState:
    """White attacks Black's C with a C1 (a C2 if the card is the C1), holding ``card``."""
    attack = card_ids("C1" if str(COMPOSE_DECK[card]) != "C1" else "C2")[0]
    game = DuelState.from_position(hands=([attack, card], []), tokens=([], [(0, 1)]))
    game.apply(Place((attack,), key=0))
    assert game.duel is not None
    return game


# -- D8, D10, D11a: powers and dice ------------------------------------------------------------


def test_d8_d10_d11a_powers_and_dice_have_one_home() -> None:
    """``MAX_POWER`` is a number only in the kernel; half the power rounded up (D11a) is
    worked out only by ``kernel.dice_for_power``."""
    for path in python_files():
        where = str(path.relative_to(ROOT))
        value = assigned_names(path).get("MAX_POWER") or assigned_names(path).get("_MAX_POWER")
        if value is not None and path != DUEL / "kernel.py":
            assert not isinstance(value, ast.Constant), where
        if path != DUEL / "kernel.py" and path.parent in (DUEL, WIDGET, PACKAGE / "cards"):
            assert not re.search(r"\+ 1\) // 2", path.read_text(encoding="utf-8")), where


# -- the widget holds no rule ----------------------------------------------------------------

#: Numbers and tables of the rules: a widget that imported one would be working a rule out.
RULE_CONSTANTS = {
    "BOARD_KEYS", "CARD_ADD", "CARD_LETTER", "CARD_REROLL", "CARD_SHIFT", "CARD_STEPS",
    "CHORD_TONE_MULTIPLIERS", "DECK_SIZE", "HAND_SIZE", "KEYS_PER_CARD", "LETTER_PITCH_CLASSES",
    "MARKS", "MAX_PLACE_CARDS", "MAX_POWER", "MAX_TURNS_PER_ROUND", "MOST_DICE",
    "PIANO_CHORD_PITCH_CLASSES", "ROUNDS", "TOKENS_PER_SEAT", "WILD_IDS",
}


def test_the_widget_imports_no_rule_constant() -> None:
    for path in sorted(WIDGET.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "musicgames.duel"):
                names = {alias.name for alias in node.names}
                assert not names & RULE_CONSTANTS, (path.name, names & RULE_CONSTANTS)
            if isinstance(node, ast.Attribute) and node.attr in RULE_CONSTANTS:
                raise AssertionError(f"{path.name} reads {node.attr}")


def test_the_widget_reads_a_refusals_rule_not_its_words() -> None:
    """The widget shows the rules an error carries; it parses no English message."""
    text = (WIDGET / "widget.py").read_text(encoding="utf-8")
    assert "import re\n" not in text and "re.compile" not in text


# -- modules: no circle, none too long --------------------------------------------------------


def _imports(path: Path, module: str, modules: set[str]) -> set[str]:
    """Which of ``modules`` the module ``module`` (at ``path``) imports, at any depth of its
    code (imports under ``if TYPE_CHECKING:`` left out). ``from a.b import c`` imports the
    module ``a.b.c`` if there is one, else the module ``a.b``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for child in ast.walk(node))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in modules else base)
    return (out & modules) - {module}


def test_no_import_circle_in_the_duel_and_its_widget() -> None:
    """Counting imports inside functions (only ``if TYPE_CHECKING:`` imports may point back);
    a package counts as its ``__init__``."""
    paths: dict[str, Path] = {}
    for path in [*DUEL.glob("*.py"), *WIDGET.glob("*.py")]:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        paths[name.removesuffix(".__init__")] = path
    graph = {name: _imports(path, name, set(paths)) for name, path in paths.items()}
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in trail:
                raise AssertionError(" → ".join(trail[trail.index(nxt):] + [nxt]))
            if nxt not in done:
                visit(nxt, trail + [nxt])
        done.add(node)

    for name in sorted(graph):
        visit(name, [name])
    assert "musicgames.duel.state" not in graph["musicgames.duel.view"]


def test_no_file_of_the_duel_or_its_page_is_over_800_lines() -> None:
    files = [*DUEL.glob("*.py"), *WIDGET.glob("*.py"),
             *(PACKAGE / "widgets").glob("keyboard_duel*.js")]
    long = {f.name: n for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}
