"""French: the course in ``lessons/fr/``, every widget, the classroom's start page and the
catalogue in French, with no English or Spanish word left; and the language data itself
(one list of languages, course text keyed by language, the CLDR's numbers and plurals)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import nbformat
import pytest

from musicgames.cards import pages
from musicgames.i18n import (
    LANGUAGES,
    LanguageError,
    catalogue,
    counted,
    day_said,
    month_name,
    number,
    percent,
    plural_form,
)
from musicgames.lessons import lesson_title, open_lesson
from musicgames.lessons.build import language_links, notebook, notebook_path
from musicgames.lessons.course import COURSE
from musicgames.lessons.plan import Md, Plan, Step, T, texts_of, untranslated
from musicgames.theory import Naming, Note, triad
from tests.lesson_text import _plain, run_cells, widget_texts

ROOT = Path(__file__).parents[1]

#: Common English words that are not French words (so "note", "octave", "question", "six",
#: "points", "bonus", "quiz" and "score", French too, are not among them).
_ENGLISH = """
    the and you your yours with without which what who this that these those is are was
    were be been being have has had will would can could should here there when where why
    how yes not it its they their them we our us from into onto click clicked press
    pressed key keys staff line lines space spaces ledger clef treble sharp sharps flat
    flats chord chords root third fifth play played playing game games card cards lesson
    lessons exercise exercises answer answers right wrong name names naming settings
    sound start next drill hint turn turns board white black player players computer
    wins win won round rounds token tokens slap match matches pile half step steps
    whole major minor learned practise practice review seconds keyboard each every
    again done well good great
"""
#: Common Spanish words that are not French words ("de", "la", "en", "es", "que", "tu",
#: "y" and "clic", French too, are not among them), and the unaccented solfège "Re".
_SPANISH = """
    el los las del una unos unas al pentagrama nota notas tecla teclas clave línea líneas
    espacio espacios sostenido sostenidos bemol bemoles acorde acordes tercera quinta
    fundamental mayor menor carta cartas mano manos jugar juego juegas juegos haz
    presiona ejercicio ejercicios lección respuesta respuestas correcta ficha fichas
    ronda rondas dados computadora teclado ajustes sonido empezar siguiente para por con
    sin pero muy más también cuando donde cada esta este estas estos hay tus sus re
    partida práctica cuestionario jugador jugadores gana ganas
"""
TELL_TALES = {"English": frozenset(_ENGLISH.split()), "Spanish": frozenset(_SPANISH.split())}
#: Names a French page may show although they are not French: the links to the lessons in
#: the other languages, named in their own language.
ALLOWED = ("English", "Español")


def foreign_words(text: str) -> dict[str, set[str]]:
    """The English and the Spanish words in ``text`` (on word boundaries, any case), after
    ``{placeholders}``, catalogue keys (``duel.rules.turn``) and the allowed names."""
    text = re.sub(r"\{\w+\}", " ", text)
    text = re.sub(r"\b\w+(?:\.\w+)+\b", " ", text)
    for allowed in ALLOWED:
        text = text.replace(allowed, " ")
    # a word not glued to a number's end ("1re", "2e" are French ordinals; "Re4" is a word)
    words = {w.lower() for w in re.findall(r"(?<![0-9])[A-Za-zÀ-ÿ]+", text)}
    found = {language: words & tells for language, tells in TELL_TALES.items()}
    return {language: found_here for language, found_here in found.items() if found_here}


def test_the_foreign_words_check_can_fail() -> None:
    said = foreign_words("Press the key: el pentagrama tiene 5 líneas; Re4 est sur la portée")
    assert said == {"English": {"press", "the", "key"},
                    "Spanish": {"el", "pentagrama", "líneas", "re"}}
    assert foreign_words("Appuie sur la touche : ré4 est sur la portée, une note, do3.") == {}
    lesson = open_lesson("04-sharps-and-flats", "es", remember=False, record=False)
    texts = list(widget_texts(lesson.show("spell")))
    assert "Spanish" in foreign_words(" ".join(texts))


# -- one list of languages; course text keyed by language ---------------------------------------


def test_the_pages_speak_english_spanish_and_french() -> None:
    assert LANGUAGES == ("en", "es", "fr")


@pytest.mark.parametrize("plan", COURSE, ids=lambda p: p.id)
def test_every_course_text_has_every_language(plan: Plan) -> None:
    assert untranslated(plan) == []


def test_a_text_without_a_language_is_found_and_never_shown_in_another() -> None:
    lame = Plan(id="99-test", files=T(en="99.ipynb", es="99.ipynb", fr="99.ipynb"),
                cells=(Md(T(en="# Title", es="# Título", fr="# Titre")),
                       Step("q", "choice", T(en="Which?", es="¿Cuál?"), ["a", "b"], answer=0)),
                learned=(), next=T(en="Next", es="Después", fr="Ensuite"))
    assert untranslated(lame) == ["99-test: T(en='Which?', …) has no fr"]
    with pytest.raises(LanguageError, match="no 'fr' text for T"):
        T(en="Which?", es="¿Cuál?")["fr"]
    with pytest.raises(LanguageError, match="'de'"):
        T(en="Which?", de="Welche?")
    with pytest.raises(LanguageError, match="no 'fr' text"):
        notebook(lame, "fr")


def test_the_catalogue_refuses_a_language_it_has_no_text_in() -> None:
    with pytest.raises(LanguageError, match="'de' is not a language"):
        catalogue("de")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lesson_links_to_itself_in_every_other_language(language: str) -> None:
    for plan in COURSE:
        source = notebook(plan, language).cells[0].source
        others = [code for code in LANGUAGES if code != language]
        assert language_links(plan, language) in source
        for code in others:
            target = notebook_path(ROOT, plan, code)
            link = plan.href(language, code)
            assert (notebook_path(ROOT, plan, language).parent / link).resolve() == (
                target.resolve())
            assert f"]({link})" in source


def test_the_french_lessons_are_in_lessons_fr_with_french_file_names() -> None:
    names = sorted(p.name for p in (ROOT / "lessons" / "fr").glob("*.ipynb"))
    assert names == sorted(plan.files["fr"] for plan in COURSE)
    assert "01-la-portee.ipynb" in names and "04-dieses-et-bemols.ipynb" in names


# -- numbers, dates and plurals: the CLDR's, through Babel ---------------------------------------


def test_numbers_percentages_dates_and_plurals_are_each_languages_own() -> None:
    assert [number(0.7, code, 1) for code in LANGUAGES] == ["0.7", "0,7", "0,7"]
    assert [percent(0.25, code).replace("\u202f", " ").replace("\xa0", " ")
            for code in LANGUAGES] == ["25%", "25 %", "25 %"]
    assert day_said(date(2026, 3, 7), "fr") == "7 mars 2026"
    assert [month_name(8, code) for code in LANGUAGES] == ["August", "agosto", "août"]
    # French says the singular for 0 and 1; English and Spanish for 1 only
    assert [plural_form(0, code) for code in LANGUAGES] == ["other", "other", "one"]
    assert [plural_form(1, code) for code in LANGUAGES] == ["one"] * 3
    assert plural_form(2, "fr") == "other" and plural_form(1_000_000, "fr") == "many"
    said = [counted("snap.summary.cards", n, code) for code in LANGUAGES for n in (0, 1, 2)]
    assert said == ["0 cards", "1 card", "2 cards", "0 cartas", "1 carta", "2 cartas",
                    "0 carte", "1 carte", "2 cartes"]


def test_no_number_or_plural_is_formatted_by_hand_per_language() -> None:
    """The views ask Intl, the Python asks Babel: no `n === 1`, no `language == "es"`."""
    widgets = ROOT / "musicgames" / "widgets"
    for path in widgets.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\bn === 1 \?", source), path.name
        assert 'replace(".", ' not in source and ".toFixed(1)" not in source.replace(
            "x.toFixed(1)", "").replace("y.toFixed(1)", ""), path.name
    for path in (ROOT / "musicgames").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"language\s*==\s*['\"]es['\"]", source), path


# -- French as French writes it ------------------------------------------------------------------


def test_french_writes_note_names_in_lower_case_and_re_with_its_accent() -> None:
    """French writes solfège names as common nouns, "do3", "ré♭4", "un accord de ré
    majeur", on labels as in running text; a sentence still starts with a capital."""
    assert Note.parse("Reb4").label(language="fr") == "ré♭4"
    assert Note.parse("Re4").label(Naming.LETTERS, language="fr") == "D5"
    assert triad("D", "minor").name(Naming.SOLFEGE, "fr") == "ré mineur"
    lesson = open_lesson("01-the-staff", "fr", remember=False, record=False)
    drawn = lesson.show("lines").children[0].value
    assert ">ré4<" in drawn and ">Re4<" not in drawn and ">Ré4<" not in drawn
    keys = open_lesson("02-octaves-do3-to-do5", "fr", remember=False,
                       record=False).show("all-keys").children[0].value
    assert ">ré3<" in keys and ">Re3<" not in keys
    from musicgames.lessons.facts import named_why

    assert named_why("Mi3", "fr").startswith("Mi3 ")  # the sentence's capital
    capitalised = re.compile(r"(?<![.!?:]\s)(?<!^)\b(Do|Ré|Re|Mi|Fa|Sol|La|Si)(\d|♯|♭)", re.M)
    for plan in COURSE:
        for cell in plan.cells:
            if isinstance(cell, Md):
                body = "\n".join(line for line in cell.text["fr"].splitlines()
                                 if not line.startswith("#"))
                assert not capitalised.findall(body), (plan.id, capitalised.findall(body))
                assert not re.search(r"\b[Rr]e\d", body), plan.id  # never "re4" for "ré4"


# -- the French pages hold no English or Spanish word --------------------------------------------


@pytest.mark.parametrize("plan", COURSE, ids=lambda p: p.id)
def test_no_english_or_spanish_words_in_the_french_lessons(
    plan: Plan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The French notebook's markdown and the first line of each hidden cell, then its cells
    run headless: settings, drawings, tables, every exercise's prompts, options and the
    feedback for every option, the drills and games it ends in (their strings), the
    summary."""
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    path = notebook_path(ROOT, plan, "fr")
    nb = nbformat.read(path, as_version=4)
    texts = [_plain(c.source) for c in nb.cells if c.cell_type == "markdown"]
    texts += [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "code"]
    outputs = run_cells(path)
    assert len(outputs) == len(plan.steps) + 2  # the settings, every step, the summary
    for widget in outputs:
        texts.extend(widget_texts(widget))
    found = {text_: said for text_ in texts if (said := foreign_words(text_))}
    assert found == {}


def test_the_french_catalogue_has_no_english_or_spanish_word() -> None:
    """Every string of every widget, page, message, report and printed card, in French."""
    strings = catalogue("fr")
    found = {key: said for key, value in strings.items()
             if key not in {"language.code"} and (said := foreign_words(value))}
    assert found == {}


#: Note Snap's centre pile has one name in French, the one its rules page uses; never the other.
CENTRE_PILE, OTHER_NAME = "tas du centre", "tas du milieu"


def _french_texts() -> dict[str, str]:
    """Every French text a player or a teacher reads, by where it is: the catalogue, the
    rules pages, the course's French texts and its built notebooks, the printed cards."""
    texts = {f"catalogue {key}": value for key, value in catalogue("fr").items()}
    for path in sorted((ROOT / "docs" / "rules" / "fr").glob("*.md")):
        texts[f"rules {path.name}"] = path.read_text(encoding="utf-8")
    for plan in COURSE:
        texts[f"course {plan.id}"] = "\n".join(t["fr"] for t in texts_of(plan))
        texts[f"notebook {plan.id}"] = notebook_path(ROOT, plan, "fr").read_text(encoding="utf-8")
    texts["printed snap"] = "\n".join(pages("snap", language="fr"))
    return texts


def test_the_centre_pile_has_one_french_name_everywhere() -> None:
    texts = {where: text_.lower() for where, text_ in _french_texts().items()}
    assert [where for where, text_ in texts.items() if OTHER_NAME in text_] == []
    using = {where.split()[0] for where, text_ in texts.items() if CENTRE_PILE in text_}
    assert {"catalogue", "rules", "course", "notebook"} <= using, using


def test_the_classroom_start_page_in_french() -> None:
    from musicgames.classroom.apps import Lesson as ServedLesson
    from musicgames.classroom.server import start_page

    lessons = [ServedLesson(f"lessons/{'' if code == 'en' else code + '/'}{plan.files[code]}",
                            lesson_title(plan.id, code), code)
               for plan in COURSE for code in LANGUAGES]
    page = start_page("fr", lessons)
    assert '<html lang="fr">' in page and "lessons/fr/01-la-portee.ipynb" in page
    assert "lessons/01-the-staff.ipynb" not in page
    body = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    assert foreign_words(_plain(body)) == {}
    assert '?language=en">English<' in page and '?language=es">Español<' in page


def _widgets_in(language: str) -> dict[str, Any]:
    from musicgames.widgets.chord_quiz import ChordTonesQuiz
    from musicgames.widgets.keyboard_duel import play_keyboard_duel
    from musicgames.widgets.note_drill import NoteDrill
    from musicgames.widgets.note_snap import play_note_snap

    return {
        "note drill": NoteDrill(language=language, progress=None),
        "chord quiz": ChordTonesQuiz(language=language, progress=None),
        "note snap": play_note_snap(language=language, progress=None),
        "keyboard duel": play_keyboard_duel("casual", language=language, pause=0.0,
                                            progress=None),
    }


def test_every_widget_can_be_switched_to_french() -> None:
    """Each widget opened in French speaks French (its page gets the French catalogue and the
    code its view formats numbers and plurals with); a Keyboard Duel switched to French from
    its language menu does too."""
    for name, widget in _widgets_in("fr").items():
        assert widget.strings["language.code"] == "fr", name
        found = {t: said for t in widget_texts(widget) if (said := foreign_words(t))}
        assert found == {}, name
    from musicgames.widgets.keyboard_duel import play_keyboard_duel
    from tests.keyboard_duel_page import Pager

    duel = play_keyboard_duel("casual", seed=5, pause=0.0, progress=None)
    page = Pager(duel)
    page.send({"type": "new_game", "opponent": "casual"})
    page.send({"type": "settings", "language": "fr"})
    assert duel.table["language"] == "fr" and duel.strings["language.code"] == "fr"
    assert ["fr", "Français"] in duel.table["languages"]
    assert foreign_words(" ".join(duel.log_lines())) == {}


def test_the_views_write_numbers_percentages_and_plurals_with_intl() -> None:
    """The widgets' shared page helpers (``_dom.js``) ask the browser's Intl, in the page's
    language: run here by Node, the same engine's Intl as Chrome's."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    helpers = (ROOT / "musicgames" / "widgets" / "_dom.js").read_text(encoding="utf-8")
    probe = helpers + """
const said = {};
for (const code of ["en", "es", "fr"]) {
  const strings = {"language.code": code, "k.one": "one", "k.other": "other"};
  said[code] = [numberText(strings, 0.7, 1), percentText(strings, 0.25),
                pluralKey(strings, "k", 0), pluralKey(strings, "k", 1), pluralKey(strings, "k", 2),
                pluralKey({...strings, "k.many": "many"}, "k", 1000000)];
}
console.log(JSON.stringify(said));
"""
    out = subprocess.run([node, "-e", probe], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    said = json.loads(out)
    spaced = {code: [s.replace("\u202f", " ").replace("\xa0", " ") for s in values]
              for code, values in said.items()}
    assert spaced["en"] == ["0.7", "25%", "k.other", "k.one", "k.other", "k.other"]
    assert spaced["es"] == ["0,7", "25 %", "k.other", "k.one", "k.other", "k.many"]
    assert spaced["fr"] == ["0,7", "25 %", "k.one", "k.one", "k.other", "k.many"]


def test_the_classroom_serves_the_french_lessons_in_french(tmp_path: Path) -> None:
    """The classroom's app folder holds the lessons of every language, each speaking its own
    (a lesson under ``fr/`` begins in French), and the start page in French lists the French
    ones by their French titles."""
    from musicgames.classroom import default_lessons
    from musicgames.classroom.apps import build_app_folder, find_lessons
    from musicgames.classroom.server import start_page

    served = build_app_folder(tmp_path, find_lessons(default_lessons()))
    french = [s for s in served if s.language == "fr"]
    assert [s.notebook for s in french] == [f"lessons/fr/{plan.files['fr']}" for plan in COURSE]
    assert french[0].title == "Leçon 1 · La portée"
    for lesson in french:
        notebook = (tmp_path / lesson.notebook).read_text(encoding="utf-8")
        assert "begin_lesson('fr')" in notebook
    import html

    page = html.unescape(start_page("fr", served))
    assert "Leçon 6 · Les notes de l'accord en jeu" in page and "Lesson 1" not in page
