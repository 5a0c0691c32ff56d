"""The Spanish text, read as a Latin-American music teacher reads it: one variety
("computadora", "mouse", "presiona"), the games' Spanish names, the teacher's tables in
Spanish, and none of the wordings users found wrong in v2.

The catalogue (``musicgames/strings/*.json``), every lesson's Spanish text (``T(es=…)`` in
``musicgames/lessons/course``) and the built Spanish notebooks are all checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from musicgames.i18n import _all_strings, catalogue, text
from musicgames.lessons import lesson_title
from musicgames.lessons.course import COURSE
from musicgames.lessons.plan import Md, Step, T
from musicgames.progress import ProgressStore, open_class
from musicgames.widgets.keyboard_duel import play_keyboard_duel
from tests.keyboard_duel_page import Pager

ROOT = Path(__file__).resolve().parent.parent

#: Wordings users found wrong (or of another variety, or left in English), and why.
FORBIDDEN: dict[str, str] = {
    r"\bordenador": "Spain's word: Latin America says 'computadora'",
    r"\brat[óo]n\b": "Spain's word: Latin America says 'mouse'",
    r"\bIntro\b": "the key is 'Enter' on Latin-American keyboards",
    r"\bpuls(a|as|e|ando)\b": "'presiona' (Latin America) for a key or a button",
    r"\bChico\b": "a size is 'Pequeño' (\"chico\" reads as a boy)",
    r"No del todo": "'No, no es esa': the answer is wrong, not almost right",
    r"\bbien de\b|\bde \{?\w+\}? bien\b": "'Aciertos: 3 de 6', not '3 bien de 6'",
    r"Intentar otra vez": "'Volver a intentarlo'",
    r"ninguna línea adicional": "'no necesita líneas adicionales'",
    r"\bnombre (subido|bajado)\b": "the names table's header: 'con sostenido' / 'con bemol'",
    r"Note Snap": "the game's Spanish name is 'Mano a la nota'",
    r"\bCasual\b": "'casual' means 'by chance' in Spanish: the easy-going player is 'Tranquilo'",
    r"Elige con soltura": "reads 'fluently': the easy-going player 'elige sin pensarlo mucho'",
    r"con Blanco\b": "'Juegas con las blancas'",
    r"[Tt]ecla Tab de la computadora": "'Con la tecla Tab pasas…': say what the player does",
    r"teclas de la computadora van al juego": "'(lo que teclees va al juego)'",
    r"\(las teclas amarillas de abajo\)": "the yellow keys are white: name the gaps, then "
        "'(en amarillo, abajo)'",
    r"un número de cartas de 1 a": "'el límite de cartas va de 1 a {most}, o puede no haber "
        "límite'",
    r"mueve una o las dos cosas": "'coloca una ficha, mueve una, o haz las dos cosas'",
    r"\bde Tú\b": "'Tus fichas', not 'Fichas de Tú'",
    r"\bMute\b": "'Silenciar'",
    r"nombre dicho": "'Se dijo: Re' / 'el nombre que se dijo'",
    r"al empezar": "a setting's default is 'por defecto'",
    r"[Jj]uego nuevo": "a new game is 'Nueva partida'",
    r"se dicen por ti": "'La computadora dice los nombres por ti', as lesson 3 says it first",
}


#: Wordings wrong in Keyboard Duel's texts (``duel.*`` keys) alone: there "teclado" and
#: "teclas" are the piano's, while elsewhere "el teclado" rightly means the computer's.
FORBIDDEN_IN_DUEL: dict[str, str] = {
    r"[Jj]ugar con el teclado(?! de la computadora)|las teclas van al juego":
        "in Keyboard Duel 'teclado' and 'teclas' are the piano's: the computer's are "
        "'el teclado de la computadora', 'las teclas de la computadora'",
}


def _lesson_texts(value: Any) -> Iterator[str]:
    """The Spanish side of every ``T`` in a lesson's plan."""
    if isinstance(value, T):
        yield value["es"]
    elif isinstance(value, Md):
        yield from _lesson_texts(value.text)
    elif isinstance(value, Step):
        yield from _lesson_texts(value.args)
        yield from _lesson_texts(value.kwargs)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _lesson_texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lesson_texts(item)


def spanish_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every Spanish string a user may read."""
    for key, by_language in _all_strings().items():
        yield f"catalogue {key}", by_language["es"]
    for plan in COURSE:
        for n, text_es in enumerate(_lesson_texts((plan.cells, plan.learned, plan.next))):
            yield f"lesson {plan.id} text {n}", text_es
    for path in sorted((ROOT / "lessons" / "es").glob("*.ipynb")):
        for n, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "markdown":
                yield f"{path.name} cell {n}", cell.source


@pytest.mark.parametrize("pattern", list(FORBIDDEN), ids=list(FORBIDDEN.values()))
def test_no_spanish_text_holds_a_wording_users_found_wrong(pattern: str) -> None:
    found = [(where, s) for where, s in spanish_texts() if re.search(pattern, s)]
    assert found == [], f"{FORBIDDEN[pattern]}: {found}"


@pytest.mark.parametrize("pattern", list(FORBIDDEN_IN_DUEL), ids=list(FORBIDDEN_IN_DUEL.values()))
def test_no_keyboard_duel_text_holds_a_wording_users_found_wrong(pattern: str) -> None:
    found = [(where, s) for where, s in spanish_texts()
             if where.startswith("catalogue duel.") and re.search(pattern, s)]
    assert found == [], f"{FORBIDDEN_IN_DUEL[pattern]}: {found}"


def test_the_wrong_wordings_check_can_fail() -> None:
    olds = ["Espera al ordenador.", "No del todo.", "Terminado: 3 de 6 bien.", "Chico",
            "{right} bien de {asked}", "Juego nuevo", "nombre dicho", "Fichas de Tú · Blanco",
            "| nombre subido |", "una partida de Note Snap", "Casual", "Mute",
            "A, L, Z, M al empezar", "Los nombres se dicen por ti."]
    caught = {p for p in FORBIDDEN for old in olds if re.search(p, old)}
    assert len(caught) >= len(olds) - 1  # "Fichas de Tú · Blanco" is caught by "de Tú" alone


def test_the_keyboard_duel_wordings_check_can_fail() -> None:
    """In the Duel's rules "teclado" is a piano card: the computer's keyboard is named so."""
    olds = ["Jugar con el teclado", "Haz clic aquí para jugar (las teclas van al juego)",
            "coloca una ficha, mueve una o las dos cosas, y luego",
            "Haz clic aquí para jugar (las teclas de la computadora van al juego)",
            "La tecla Tab de la computadora pasa de una parte de la mesa a otra"]
    rules = FORBIDDEN | FORBIDDEN_IN_DUEL
    assert all(any(re.search(p, old) for p in rules) for old in olds)
    news = ["Jugar con el teclado de la computadora",
            "Haz clic aquí para jugar (lo que teclees va al juego)",
            "Con la tecla Tab pasas de una parte de la mesa a otra"]
    assert not any(re.search(p, new) for p in rules for new in news)


def test_other_spanish_wordings_check_can_fail() -> None:
    """Lesson 4's yellow keys are white keys, and a card limit is said as a limit."""
    olds = ["Mira dónde faltan teclas negras (las teclas amarillas de abajo): entre **Mi y Fa**",
            "una partida puede terminar después de un número de cartas de 1 a {most}, o no "
            "tener ese límite."]
    assert all(any(re.search(p, old) for p in FORBIDDEN) for old in olds)
    news = ["Mira dónde faltan teclas negras: entre **Mi y Fa** y entre **Si y Do** (en "
            "amarillo, abajo).", "el límite de cartas va de 1 a {most}, o puede no haber límite.",
            "Jugar con el teclado"]  # outside Keyboard Duel, the computer's keyboard
    assert not any(re.search(p, new) for p in FORBIDDEN for new in news)


def _unpaired_marks(s: str) -> bool:
    """A question or exclamation without its opening ¿ or ¡ (markup, code and quoted English
    interface labels such as “Restart Kernel?” aside: the Spanish text quotes with « »)."""
    shown = re.sub(r"<[^>]+>|`[^`]*`|“[^”]*”", "", s)
    return shown.count("¿") != shown.count("?") or shown.count("¡") != shown.count("!")


def test_every_spanish_question_and_exclamation_opens_with_its_mark() -> None:
    """"¿Coincide?", "¡Ganaste!": as many ¿ as ? and ¡ as ! in every text."""
    assert [where for where, s in spanish_texts() if _unpaired_marks(s)] == []
    assert _unpaired_marks("Coincide?") and _unpaired_marks("Ganaste!")
    assert not _unpaired_marks("¿Coincide? ¡Pongan la mano! `x?`")
    assert not _unpaired_marks("cuando JupyterLab pregunte “Restart Kernel?”, presiona Restart")
    assert _unpaired_marks("cuando JupyterLab pregunte «Restart Kernel?», presiona Restart")


#: Spanish values that may equal the English: names of notes and keys, numbers, units.
_SAME_WORDS = {"Do", "Re", "Mi", "C", "D", "E", "Total", "Enter", "N", "s", "ms"}


def test_every_catalogue_string_is_translated() -> None:
    """A Spanish value equal to the English one is left untranslated ("Mute", "Casual",
    "Note Snap"), unless it holds only names, numbers and placeholders. A shortcut key is
    a letter, not a word: "R" is the first letter of both "Rules" and "Reglas"."""
    untranslated = {}
    for key, by_language in _all_strings().items():
        if by_language["es"] != by_language["en"] or key.startswith("duel.shortcut."):
            continue
        words = re.findall(r"[^\W\d_]+", re.sub(r"\{\w+\}", " ", by_language["es"]))
        if set(words) - _SAME_WORDS:
            untranslated[key] = by_language["es"]
    assert untranslated == {}


def test_the_games_have_one_spanish_name_everywhere() -> None:
    snap, duel = text("snap.title", "es"), text("duel.title", "es")
    assert (snap, duel) == ("Mano a la nota", "Duelo de teclados")
    assert text("classroom.note_snap", "es") == snap
    assert text("cards.footer.snap", "es", count=56).startswith(snap + " · ")
    assert snap in text("cards.maker.title", "es") and duel in text("cards.maker.title", "es")
    assert "Mano a la nota" in next(t["es"] for t in [COURSE[1].next])


def test_the_keyboard_duel_opponents_and_trays_read_as_spanish() -> None:
    widget = play_keyboard_duel(seed=3, pause=0, language="es")
    assert widget.strings["duel.opponent.casual"] == "Tranquilo"
    assert widget.strings["duel.opponent.you_white"] == "Juegas con las blancas y empiezas tú."
    Pager(widget).send({"type": "new_game", "opponent": "casual"})
    players = widget.table["players"]
    assert players["white"]["tray_label"] == "Tus fichas (Blanco)"
    assert players["black"]["tray_label"] == "Fichas de Tranquilo (Negro)"
    widget.close()
    english = play_keyboard_duel(seed=3, pause=0)
    Pager(english).send({"type": "new_game", "opponent": "sharp"})
    assert english.table["players"]["white"]["tray_label"] == "Your tokens (White)"
    assert english.table["players"]["black"]["tray_label"] == "Sharp's tokens (Black)"
    english.close()


def test_the_teachers_spanish_view_names_lessons_by_their_spanish_titles(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    with ProgressStore(folder / "ana.sqlite3", student="Ana") as store:
        store.record("lesson", "04-sharps-and-flats/enharmonic", "Sol♭", True, 900.0)
    klass = open_class(folder)
    spanish = klass.lessons_table(language="es")
    lessons = {row[1] for row in spanish.rows}
    assert "Lección 4 · Sostenidos, bemoles y teclas negras" in lessons
    assert "Lección 1 · El pentagrama" in lessons  # not begun: still listed, by its title
    assert not any(re.match(r"\d\d-", lesson) for lesson in lessons), lessons
    assert "Lesson 4 · Sharps, flats and the black keys" in {
        row[1] for row in klass.lessons_table(language="en").rows}
    report = (klass.export_html(tmp_path / "informe.html", language="es")).read_text("utf-8")
    assert "Lección 6 · Las notas del acorde en juego" in report
    assert "06-chord-tones-in-play" not in report


def test_a_lesson_title_is_its_notebooks_heading() -> None:
    assert lesson_title("01-the-staff") == "Lesson 1 · The staff"
    assert lesson_title("03-reading-fast", "es") == "Lección 3 · Leer rápido"
    assert [lesson_title(p.id, "es").split(" · ")[0] for p in COURSE] == [
        f"Lección {n}" for n in range(1, 7)]


def test_spanish_scores_count_aciertos_and_numbers_use_a_decimal_comma() -> None:
    assert text("lesson.done", "es", right=3, total=6) == "Terminado. Aciertos: 3 de 6."
    assert text("drill.score", "es", right=1, asked=6) == "Aciertos: 1 de 6"
    assert catalogue("es", "drill.decimal") == {"drill.decimal": ","}


def test_a_half_step_is_a_move_not_a_paso() -> None:
    """Lessons 1 and 5 call the step from one note name to the next a "paso"; lesson 4 counts
    half steps as moves from key to key ("te mueves", "movimientos"), never "pasos"."""
    plan = next(p for p in COURSE if p.id == "04-sharps-and-flats")
    index = next(i for i, c in enumerate(plan.cells) if getattr(c, "id", "") == "half-steps")
    said = [plan.cells[index - 1].text["es"]] + [
        by_language["es"] for key, by_language in _all_strings().items()
        if key.startswith("lesson.half.")
    ]
    assert [s for s in said if re.search(r"\bpasos?\b", s)] == []
    assert "cuenta cuántas veces te mueves a la tecla de al lado" in said[0]
    assert "de Do a Re tocas 3 teclas (Do, la negra y Re), pero te mueves 2 veces" in said[0]
