"""Lessons: exercises that explain, the facts they teach, the course's one definition, and
the notebooks built from it (in English and Spanish)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from musicgames.i18n import LANGUAGES, catalogue
from musicgames.lessons import (
    Exercise,
    Lesson,
    LessonError,
    LessonSettings,
    Question,
    ledger_lines,
    lesson_exercises,
    on_a_line,
    open_lesson,
    staff_place,
    where,
)
from musicgames.lessons.build import build, notebook, notebook_path
from musicgames.lessons.course import COURSE
from musicgames.lessons.plan import EXERCISE_KINDS, PLAY_KINDS
from musicgames.progress import read_answers
from musicgames.render import CHORD_TONE_COLOURS
from musicgames.theory import CARD_NOTES, LETTERS, Note, Triad, triad
from musicgames.widgets.chord_quiz import DEFAULT_CHORDS, ChordTonesQuiz
from musicgames.widgets.note_drill import NoteDrill
from tests.lesson_text import _plain, english_words, run_cells, widget_texts

ROOT = Path(__file__).parents[1]
LESSONS = [notebook_path(ROOT, plan, lang) for plan in COURSE for lang in LANGUAGES]


@pytest.fixture
def lesson() -> Lesson:
    return Lesson(record=False)


def three_questions() -> list[Question]:
    return [
        Question("One?", ("a", "b"), 0, explain="Because."),
        Question("Two?", ("a", "b", "c"), 2),
        Question("Three?", ("x", "y"), 1),
    ]


def feedback(ex: Exercise, question: int, option: int) -> str:
    """What a student reads after choosing ``option`` in question ``question``."""
    return " ".join(_plain(ex.feedback_html(option, ex.questions[question])).split())


def wrong(q: Question) -> int:
    return next(i for i in range(len(q.options)) if i != q.answer)


# -- the exercise widget ---------------------------------------------------------------------


def test_a_right_click_is_told_at_once() -> None:
    ex = Exercise("Test", three_questions())
    ex.buttons[0].click()
    assert ex.correct is True and ex.right == 1
    assert "Right!" in ex.feedback.value and "Because." in ex.feedback.value
    assert "mg-right" in ex.feedback.value
    assert ex.buttons[0].button_style == "success"
    assert all(b.disabled for b in ex.buttons)
    assert ex.next_button.layout.display is None  # "Next question" appears


def test_a_wrong_click_says_why() -> None:
    answers: list[tuple[str, int, bool]] = []
    q = Question("How many lines?", ("4", "5"), 1, explain="Five lines, four spaces.",
                 why=("Four is the number of spaces.", ""))
    ex = Exercise("Test", [q], on_answer=lambda q, i, ok: answers.append((q.prompt, i, ok)))
    ex.buttons[0].click()
    assert ex.correct is False and ex.right == 0
    said = _plain(ex.feedback.value)
    assert "Not quite." in said and "Four is the number of spaces." in said
    assert "Five lines, four spaces." in said
    assert (ex.buttons[1].button_style, ex.buttons[0].button_style) == ("success", "danger")
    assert "mg-wrong" in ex.buttons[0]._dom_classes and "mg-right" in ex.buttons[1]._dom_classes
    ex.buttons[1].click()  # a second click on the same question changes nothing
    assert ex.right == 0 and answers == [("How many lines?", 0, False)]


def test_an_answer_is_handed_on_before_the_page_shows_right_or_wrong() -> None:
    # a stored answer must be on disk before the student sees the verdict (and may leave)
    seen: list[tuple[str, bool]] = []
    q = Question("How many lines?", ("4", "5"), 1)
    ex = Exercise("Test", [q])
    ex.on_answer = lambda q, i, ok: seen.append((ex.feedback.value, ex.buttons[i].disabled))
    ex.buttons[1].click()
    assert seen == [("", False)]
    assert ex.feedback.value != "" and ex.buttons[1].disabled


def test_without_an_explanation_a_wrong_answer_still_names_the_right_one() -> None:
    ex = Exercise("Test", three_questions())
    ex.next()  # not answered yet: stays
    assert ex.index == 0
    ex.buttons[0].click()
    ex.next_button.click()
    assert ex.index == 1 and "question 2 of 3" in ex.heading.value
    ex.buttons[0].click()
    assert "The answer is c." in _plain(ex.feedback.value)
    ex.next()
    ex.buttons[1].click()
    assert "Done: 2 of 3 right." in ex.feedback.value
    assert ex.next_button.description == "Try again"
    ex.next()
    assert (ex.index, ex.right) == (0, 0)


def test_hover_never_hides_right_and_wrong() -> None:
    css = Exercise("Test", three_questions()).heading.value
    for kind in ("mg-right", "mg-wrong"):
        assert f".mg-exercise .jupyter-button.{kind}:hover" in css
    assert "max-width:100%" in css  # drawings shrink to the column


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("Q", ("a",), 0), "at least two options"),
        (("Q", ("a", "a"), 0), "repeat"),
        (("Q", ("a", "b"), 2), "answer 2"),
        (("Q", ("a", "b"), 0, "", "", ("only one",)), "one 'why' per option"),
    ],
)
def test_bad_questions_raise(args: tuple, why: str) -> None:
    with pytest.raises(LessonError, match=why):
        Question(*args)


def test_an_exercise_needs_questions() -> None:
    with pytest.raises(LessonError, match="no questions"):
        Exercise("Empty", [])


# -- facts the exercises teach --------------------------------------------------------------


def test_lines_and_spaces_of_the_treble_staff() -> None:
    lines = [n.solfege for n in CARD_NOTES if on_a_line(n) and 0 <= staff_place(n) <= 4]
    spaces = [n.solfege for n in CARD_NOTES if not on_a_line(n) and 0 < staff_place(n) < 4]
    assert lines == ["Mi3", "Sol3", "Si3", "Re4", "Fa4"]
    assert spaces == ["Fa3", "La3", "Do4", "Mi4"]
    assert staff_place("Sol3") == 1  # the line the Sol clef curls around: the 2nd


def test_ledger_lines_of_the_card_notes() -> None:
    counts = {n.solfege: ledger_lines(n) for n in CARD_NOTES if ledger_lines(n)}
    assert counts == {"Do3": 1, "La4": 1, "Si4": 1, "Do5": 2}
    assert ledger_lines("La2") == 2 and ledger_lines("Si2") == 1


def test_where_every_card_note_sits_in_words() -> None:
    said = {n.solfege: where(n) for n in CARD_NOTES}
    assert said["Do3"] == "sits on the first ledger line below the staff"
    assert said["Re3"] == "hangs just below the bottom line"
    assert said["Si3"] == "sits on the 3rd line (the middle one)"
    assert said["Do4"] == "sits in the 3rd space"
    assert said["Sol4"] == "sits just above the top line"
    assert said["Si4"] == "sits just above the first ledger line above the staff"
    assert said["Do5"] == "sits on the second ledger line above the staff"
    assert len(set(said.values())) == 15
    assert len({where(n, "es") for n in CARD_NOTES}) == 15


# -- each kind of exercise: right answers, and wrong ones explained -------------------------


def test_line_or_space(lesson: Lesson) -> None:
    ex = lesson.line_or_space(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == ("on a line" if on_a_line(note) else "in a space")
        assert q.picture.startswith("<svg")
    assert "Mi3 sits on the 1st line (the bottom one): the line goes through" in feedback(ex, 2, 1)


def test_name_notes_in_either_naming() -> None:
    for naming, names in (("solfege", ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")),
                          ("letters", LETTERS)):
        lesson = Lesson(naming, record=False)
        ex = lesson.name_notes(CARD_NOTES, choices=4)
        for note, q in zip(CARD_NOTES, ex.questions, strict=True):
            assert q.options[q.answer] == names[LETTERS.index(note.step)]
            assert len(q.options) == 4 and set(q.options) <= set(names)
    assert len(Lesson(record=False).name_notes(CARD_NOTES, questions=6).questions) == 6


def test_a_wrong_name_is_explained_on_the_staff(lesson: Lesson) -> None:
    ex = lesson.name_notes(["Si3"], choices=7)  # every name among the options
    (q,) = ex.questions
    said = feedback(ex, 0, q.options.index("La"))
    assert said == ("Not quite. La3 sits in the 2nd space; this note sits on the 3rd line "
                    "(the middle one), one step higher: it is Si3.")
    assert feedback(ex, 0, q.answer) == "Right! Si3 sits on the 3rd line (the middle one)."


def test_octave_names(lesson: Lesson) -> None:
    ex = lesson.octave_names(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == note.label("letters")
        assert note.solfege in q.prompt.replace("♯", "#")
        assert "one octave" in feedback(ex, CARD_NOTES.index(note), wrong(q))
    letters = Lesson("letters", record=False).octave_names(["C4"])
    (q,) = letters.questions
    assert q.options[q.answer] == "Do3" and "C4" in q.prompt


def test_ledger_line_count_explains_with_the_neighbour(lesson: Lesson) -> None:
    ex = lesson.ledger_line_count(CARD_NOTES)
    assert [int(q.options[q.answer]) for q in ex.questions] == [ledger_lines(n) for n in CARD_NOTES]
    said = feedback(ex, 1, 1)  # Re3: 0 ledger lines, answered 1
    assert said.startswith("Not quite. Re3 hangs just below the bottom line. Mi3 sits on the "
                           "1st line (the bottom one)")
    assert ex.questions[1].wrong_picture.startswith("<svg")
    assert "MIDI" not in said and "rule" not in said


def test_marked_key(lesson: Lesson) -> None:
    ex = lesson.marked_key(CARD_NOTES)
    for note, q in zip(CARD_NOTES, ex.questions, strict=True):
        assert q.options[q.answer] == note.solfege
        key = note.midi - 60
        marked = re.search(rf'data-key="{key}"[^>]*fill="(#[0-9a-f]+)"', q.picture)
        assert marked and marked.group(1) not in ("#ffffff", "#222222")
    q = ex.questions[7]  # Do4
    said = feedback(ex, 7, wrong(q))
    assert "the one that starts on Do4" in said and "7 white keys" in said
    assert ">Do4<" in q.wrong_picture and ">Sol3<" in q.wrong_picture  # octave numbers shown


def test_chord_quality_counts_half_steps(lesson: Lesson) -> None:
    quality = lesson.chord_quality(DEFAULT_CHORDS)
    for chord, q in zip(DEFAULT_CHORDS, quality.questions, strict=True):
        assert q.options[q.answer] == chord.quality
    ex = lesson.chord_quality(["Re major"])
    said = feedback(ex, 0, 1)
    assert "from Re to Fa♯ is 4 half steps: a major third" in said
    assert "minor triad would have only 3 half steps" in said
    picture = ex.questions[0].picture  # root red, third yellow, fifth blue: those very keys
    for key, colour in ((2, "#d1495b"), (6, "#edae49"), (9, "#00798c")):
        assert re.search(rf'data-key="{key}"[^>]*fill="{colour}"', picture)
    assert not re.search(r'data-key="14"[^>]*fill="#d1495b"', picture)


def test_chord_tones(lesson: Lesson) -> None:
    for which in ("root", "third", "fifth"):
        tones = lesson.chord_tone(DEFAULT_CHORDS, which)
        for chord, q in zip(DEFAULT_CHORDS, tones.questions, strict=True):
            assert q.options[q.answer] == getattr(chord, which).label("solfege", octave=False)
            assert len(set(q.options)) == len(q.options) >= 3
            assert all(q.why[i] for i in range(len(q.options)) if i != q.answer)
    ex = lesson.chord_tone(["Sol major"], "third")
    q = ex.questions[0]
    assert "count three note names up from the root, Sol La Si" in q.explain
    root = lesson.chord_tone(["Re major"], "root").questions[0].explain
    assert root.startswith("Put them in order, skipping one note name each time: Re – Fa♯ – La.")
    with pytest.raises(LessonError, match="which='seventh'"):
        lesson.chord_tone(DEFAULT_CHORDS, "seventh")


def test_call_cycle_and_match() -> None:
    for naming, cycle in (("solfege", ["Do", "Re", "Mi", "Fa", "Sol", "La", "Si"]),
                          ("letters", list(LETTERS))):
        ex = Lesson(naming, record=False).call_cycle(["Do", "Sol", "Si", "G"])
        answers = [q.options[q.answer] for q in ex.questions]
        assert answers == [cycle[1], cycle[5], cycle[0], cycle[5]]  # Si wraps round to Do
    ex = Lesson(record=False).match_or_not(
        [("Do", "Do3"), ("Do", "Do5"), ("Re", "Mi3"), ("Sol", "Sol4")]
    )
    assert [q.answer for q in ex.questions] == [0, 0, 1, 0]  # 0 = slap, 1 = hands still
    said = feedback(ex, 2, 0)
    assert "it is Mi3, not Re" in said and "rule" not in said and "Match: slap!." not in said


def test_key_worth_and_token_score(lesson: Lesson) -> None:
    ex = lesson.key_worth("Re major", ["Re3", "Fa#3", "La3", "Mi3", "Sol3"])
    assert [q.options[q.answer] for q in ex.questions] == ["×3", "×2", "×1", "×1", "×1"]
    assert "Fa♯ is the third of Re major: it is marked ff" in ex.questions[1].explain
    scores = lesson.token_score(
        [("Re major", "Re3", 2), ("La minor", "Do3", 3), ("Sol major", "Re3", 4),
         ("Mi minor", "Mi3", 1), ("C# major", "Db3", 2)]
    )
    assert [q.options[q.answer] for q in scores.questions] == ["6", "6", "4", "3", "6"]
    for q in scores.questions:
        assert len(set(q.options)) == len(q.options)


def test_half_steps_name_every_key_on_the_way(lesson: Lesson) -> None:
    ex = lesson.half_steps([("Mi3", "Fa3"), ("Re3", "Fa3"), ("La3", "Do4")])
    assert [q.options[q.answer] for q in ex.questions] == ["1", "3", "3"]
    assert "There is no black key between them." in ex.questions[0].explain
    assert "Re → Re♯ → Mi → Fa. That is 3 moves from key to key, so 3 half steps" in (
        ex.questions[1].explain
    )


def _lesson_4() -> Any:
    return open_lesson("04-sharps-and-flats", remember=False, record=False)


def test_lesson_4_half_step_picture_marks_both_gaps_mi_fa_and_si_do_alike() -> None:
    """Section 1 says the black key is missing between Mi and Fa and between Si and Do: the
    picture shows both pairs (the Do above Si too), every key of them in one colour, not the
    red and blue that Exercise 1 counts from and to."""
    red, _, blue = CHORD_TONE_COLOURS
    for language in LANGUAGES:
        picture = open_lesson("04-sharps-and-flats", language, remember=False,
                              record=False).show("half-step-keys").children[0].value
        fills = dict(re.findall(r'class="mg-key mg-white" data-key="\d+" data-note="(\w+)"'
                                r'[^>]*fill="([^"]+)"', picture))
        marked = {Note.parse(note).solfege: fill for note, fill in fills.items()
                  if fill != "#ffffff"}
        assert {"Mi3", "Fa3", "Si3", "Do4"} <= set(marked), marked
        assert len(set(marked.values())) == 1, marked  # the pairs marked alike
        assert not set(marked.values()) & {red, blue}, marked
        for name in marked:  # each marked key is half of a gap without a black key
            note = Note.parse(name)
            assert {Note.parse(note.midi + 1).solfege, Note.parse(note.midi - 1).solfege} & (
                set(marked)), name


def test_lesson_4_counts_half_steps_as_moves_from_key_to_key() -> None:
    """Do to Re passes 3 keys but is 2 half steps: the instruction and every explanation
    count the moves, and the answer that counted the keys is told so. Sharps come after this
    exercise, so a black key on the way is called a black key, not Do♯."""
    plan = COURSE[3]
    index = next(i for i, c in enumerate(plan.cells) if getattr(c, "id", "") == "half-steps")
    for language in ("en", "es"):
        told = plan.cells[index - 1].text[language].lower()
        assert "count every key" not in told and "cuenta cada tecla" not in told, told
        assert ("moves" in told) if language == "en" else ("te mueves" in told), told
        assert ("from do to re you touch 3 keys (do, the black key, re) but make 2 moves"
                if language == "en" else
                "de do a re tocas 3 teclas (do, la negra y re), pero te mueves 2 veces") in told
        ex = open_lesson(plan.id, language, remember=False, record=False).show(
            "half-steps").children[0]
        for q in ex.questions:
            n = int(q.options[q.answer])
            path = q.explain.split(": ", 1)[1].split(".", 1)[0]
            assert path.count("→") == n, q.explain  # one move per half step
            assert f" {n} " in q.explain and "♯" not in q.explain and "♭" not in q.explain
            keys = q.options.index(str(n + 1))  # counted the keys, both ends included
            assert str(n + 1) in q.why[keys] and str(n) in q.why[keys], q.why
            assert q.why[keys].startswith(("You counted the keys", "Contaste las teclas"))
    do_re = _lesson_4().show("half-steps").children[0].questions[1]
    assert do_re.explain == (
        "From Do to Re: Do → black key → Re. That is 2 moves from key to key, so 2 half steps."
    )


_SPELLED = re.compile(r"(Sol|Do|Re|Mi|Fa|La|Si|(?<![A-Za-z])[A-G])([♯♭𝄪𝄫])")


def _spelled_in(text: str) -> set[tuple[str, int]]:
    """The note spellings with a sign written in a text ("Fa♯", "B♭")."""
    found = set()
    for name, sign in _SPELLED.findall(text):
        note = Note.parse(f"{name}{'#' if sign == '♯' else 'b' if sign == '♭' else sign}"
                          f"{'3' if name[0].islower() or len(name) > 1 else '4'}")
        found.add((note.step, note.alter))
    return found


def _question_texts(q: Question) -> str:
    labels = " ".join(re.findall(r"<text[^>]*>(.*?)</text>", q.picture + q.wrong_picture))
    return " ".join([q.prompt, *q.options, q.explain, *q.why, labels])


@pytest.mark.parametrize("naming", ["solfege", "letters"])
def test_no_exercise_uses_a_spelling_not_taught_yet(naming: str) -> None:
    """Each lesson lists the spellings its text teaches (lesson 1 the seven names, lesson 4
    the black keys' sharps and flats): no exercise offers another one before then — not as
    an answer, a wrong answer, an explanation or a key's name (no Fa♭, Mi♯, Si♯ or Do♭)."""
    taught: set[tuple[str, int]] = set()
    checked = 0
    for plan in COURSE:
        for language in LANGUAGES:
            lesson = open_lesson(plan.id, language, remember=False, record=False,
                                 settings=LessonSettings(naming=naming))
            known = set(taught)
            for cell in plan.cells:
                known |= {(n.step, n.alter) for n in
                          (Note.parse(f"{s}3") for s in getattr(cell, "teaches", ()))}
                if getattr(cell, "is_exercise", False):
                    for q in lesson.show(cell.id).children[0].questions:
                        untaught = _spelled_in(_question_texts(q)) - known
                        assert not untaught, (plan.id, cell.id, untaught, q.options)
                        checked += 1
        taught |= {(n.step, n.alter) for n in (Note.parse(f"{s}3") for s in plan.taught)}
    assert checked > 100
    assert _spelled_in("Fa♭ or E♯, not Sol") == {("F", -1), ("E", 1)}


def test_lesson_4_exercise_5_says_key_only_for_a_piano_key() -> None:
    """A chord's family of notes is its scale: "key" in lesson 4's section 4 and Exercise 5
    means a key of the keyboard, never a tonality ("Fa major's key")."""
    plan = COURSE[3]
    start = next(i for i, c in enumerate(plan.cells) if getattr(c, "id", "") == "chords-staff")
    texts = [c.text["en"] for c in plan.cells[start - 1:] if hasattr(c, "text")][:2]
    ex = _lesson_4().show("spell").children[0]
    texts += [t for q in ex.questions for t in (q.prompt, q.explain)]
    for said in texts:
        assert not re.search(r"'s key\b|\bkey of\b|\*key\*|\bits key\b", said), said
    assert any("The notes of the Fa major scale are Fa Sol La Si♭ Do Re Mi" in t for t in texts)


def _root_place(q: Question, chord: Triad) -> int:
    """Where a root question's keyboard has the root among its three coloured keys: 0 the
    lowest, 1 the middle, 2 the top key."""
    coloured = re.findall(r'data-note="([^"]+)"[^>]*fill="#(?!ffffff|222222)', q.picture)
    assert len(coloured) == 3, coloured
    keys = sorted(Note.parse(n).midi for n in coloured)
    assert {k % 12 for k in keys} == set(chord.pitch_classes), coloured
    return [k % 12 for k in keys].index(chord.root.pitch_class)


def test_the_root_question_does_not_give_the_root_away() -> None:
    """Lesson 6 asks for a card's root (its fff key) without naming the chord, with the
    three keys in one colour, the root not always in the same place (lowest, middle or top,
    picked by the lesson's seeded chance); the card shows after a miss."""
    for language in LANGUAGES:
        lesson = open_lesson("06-chord-tones-in-play", language, remember=False, record=False)
        ex = lesson.show("roots").children[0]
        chords = [triad("Re"), triad("La", "minor"), triad("Sol"), triad("Mi", "minor")]
        for q, chord in zip(ex.questions, chords, strict=True):
            root = q.options[q.answer]
            assert lesson.chord_name(chord) not in q.prompt
            if language != "fr":  # in French "la" is also the article ("la fondamentale")
                assert root not in q.prompt
            fills = set(re.findall(r'class="mg-key[^"]*"[^>]*fill="(#(?!ffffff|222222)\w+)"',
                                   q.picture))
            assert len(fills) == 1, fills  # the three keys alike
            assert "fff" in q.wrong_picture
            assert root in q.explain and "fff" in q.explain
        assert len({q.prompt for q in ex.questions}) == 1  # one prompt: it names no root
        places = [_root_place(q, c) for q, c in zip(ex.questions, chords, strict=True)]
        assert len(set(places)) >= 2, places  # the lesson's own questions vary
    many = [triad(root, quality) for root in ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")
            for quality in ("major", "minor")] * 3
    for seed in (1, 2, 3):
        ex = Lesson(record=False, seed=seed).chord_tone(many, "root")
        places = [_root_place(q, c) for q, c in zip(ex.questions, many, strict=True)]
        for place in (0, 1, 2):  # lowest, middle and top alike: none of them tells the root
            assert places.count(place) >= len(many) // 6, (seed, places)


def test_black_keys_sharps_flats_and_their_two_names(lesson: Lesson) -> None:
    black = lesson.black_key_names(["Fa#3", "Sib3"])
    assert [q.options[q.answer] for q in black.questions] == ["Fa♯ = Sol♭", "La♯ = Si♭"]
    read = lesson.read_accidentals(["Fa#3", "Sib3"])
    assert [q.options[q.answer] for q in read.questions] == ["Fa♯3", "Si♭3"]
    said = read.questions[0].explain
    assert "in the 1st space (the bottom one): that is Fa3. The sharp ♯" in said
    same = lesson.enharmonic(["Fa#3", "Sib3", "Do#3", "Mib3"])
    assert [q.options[q.answer] for q in same.questions] == ["Sol♭", "La♯", "Re♭", "Re♯"]
    for q in same.questions:
        assert {Note.parse(f"{o}3").pitch_class for o in (q.options[q.answer],)} == {
            Note.parse(q.prompt.split()[0].replace("♯", "#").replace("♭", "b") + "3").pitch_class
        }
    with pytest.raises(LessonError, match="not a black key"):
        lesson.black_key_names(["Fa3"])


def test_a_black_keys_two_names_are_explained_not_repeated() -> None:
    """The explanation raises Fa and lowers Sol to reach the key, then gives the names: it
    does not define Fa♯ as "Fa con sostenido"."""
    said = Lesson(language="es", record=False).black_key_names(["Fa#3"]).questions[0].explain
    assert ("Fa subido un semitono es Fa♯ (Fa sostenido); Sol bajado un semitono es Sol♭ "
            "(Sol bemol).") in said
    assert "con sostenido" not in said and "con bemol" not in said


def test_a_chord_names_its_black_keys_in_its_key(lesson: Lesson) -> None:
    ex = lesson.spell_in_chord([("Re major", 6), ("Mib major", 10), ("Fa major", 10),
                                ("Fa minor", 8), ("Sol major", 6)])
    answers = [q.options[q.answer] for q in ex.questions]
    assert answers == ["Fa♯", "Si♭", "Si♭", "La♭", "Fa♯"]
    assert ex.questions[0].explain == (
        "Re major is Re – Fa♯ – La: a triad takes every other letter, so its third is a Fa: Fa♯."
    )
    assert "Fa Sol La Si♭ Do Re Mi, each letter once" in ex.questions[2].explain
    from music21.key import Key

    for chord in (triad("Re", "major"), triad("Mib", "major"), triad("Fa", "minor")):
        tonic = chord.root.to_music21().name
        key = Key(tonic if chord.quality == "major" else tonic.lower())
        for pitch in key.pitches[:7]:
            spelled = chord.spell(pitch.pitchClass)
            assert (spelled.step, spelled.alter) == (pitch.step, int(pitch.alter))


def test_tables_speak_the_lessons_language() -> None:
    table = Lesson(record=False).triad_table(["Re major", "La minor"])
    assert table.rows[0][1:] == ("Re", "Fa♯", "La", "major third (4 half steps)",
                                 "perfect fifth (7 half steps)")
    es = Lesson(language="es", record=False).triad_table(["La minor"])
    assert es.rows[0][0] == "La menor" and es.rows[0][4] == "tercera menor (3 semitonos)"
    assert "MIDI" not in str(Lesson(record=False).octave_table())


def test_exercise_staves_are_twice_the_first_size() -> None:
    svg = Lesson(record=False).line_or_space(["Sol3"]).questions[0].picture
    width, height = (float(x) for x in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
    assert height >= 220 and width >= 240  # the first version: 110 high, ~120 wide
    large = Lesson(record=False, size="large").line_or_space(["Sol3"]).questions[0].picture
    assert re.search(r'height="(\d+)"', large).group(1) > re.search(r'height="(\d+)"', svg).group(1)
    with pytest.raises(LessonError, match="size='huge'"):
        Lesson(record=False, size="huge")


def test_the_naming_setting_reaches_drawings_drills_and_quizzes() -> None:
    lesson = Lesson("letters", record=False)
    assert ">G<" in lesson.keyboard(1)
    assert lesson.drill(questions=3).names == list(LETTERS)
    quiz = lesson.quiz(["D major"], mode="find", questions=1)
    quiz.start()
    assert quiz.question["prompt"].endswith("D major")
    assert lesson.chord_name(triad("Re")) == "D major"
    assert lesson.name(Note.parse("Do3")) == "C4"


def test_a_named_student_keeps_their_drill_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    assert Lesson().progress is None  # no name, no file: nothing recorded
    assert not (tmp_path / "progress.sqlite3").exists()
    lesson = Lesson(student="Ana")
    drill = lesson.drill(["Sol3"], questions=1, seed=1)
    drill.start()
    drill.receive({"type": "answer", "number": 1, "via": "name", "value": 4, "response_ms": 700})
    lesson.progress.close()
    (row,) = read_answers(tmp_path / "progress.sqlite3")
    assert (row.student, row.activity, row.item, row.correct) == ("Ana", "drill", "Sol3", True)


# -- the course: one definition, two languages ----------------------------------------------


class FakeStore:
    """A progress store that keeps what it is given (the ProgressSink contract)."""

    student = "Ana"

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def record(self, **row: Any) -> None:
        self.rows.append(row)

    def close(self) -> None:
        pass


def test_lesson_exercises_lists_every_lessons_exercises() -> None:
    exercises = lesson_exercises()
    assert list(exercises) == [plan.id for plan in COURSE]
    assert len(exercises) == 6 and "04-sharps-and-flats" in exercises
    assert exercises["04-sharps-and-flats"] == [
        "half-steps", "read-accidentals", "black-keys", "enharmonic", "spell"
    ]
    for ids in exercises.values():
        assert len(ids) >= 3 and len(set(ids)) == len(ids)


def test_every_exercise_answer_is_recorded_under_its_lesson() -> None:
    lesson = open_lesson("04-sharps-and-flats", remember=False, record=False)
    store = FakeStore()
    lesson.progress = store
    ex = lesson.show("enharmonic").children[0]
    ex.choose(wrong(ex.question))
    ex.next()
    ex.choose(ex.question.answer)
    assert [(r["activity"], r["item"], r["correct"]) for r in store.rows] == [
        ("lesson", "04-sharps-and-flats/enharmonic", False),
        ("lesson", "04-sharps-and-flats/enharmonic", True),
    ]
    assert store.rows[0]["answer"] in ex.questions[0].options
    assert lesson.results == {"enharmonic": [False, True]}


def test_a_refused_write_is_said_and_the_lesson_goes_on() -> None:
    from musicgames.progress import AnswerError

    class Refusing(FakeStore):
        def record(self, **row: Any) -> None:
            raise AnswerError("the disk is full")

    lesson = open_lesson("01-the-staff", remember=False, record=False)
    lesson.progress = Refusing()
    ex = lesson.show("clef").children[0]
    ex.choose(1)
    assert ex.correct and lesson.save_error.startswith("Your answer was not saved")


def test_the_summary_says_what_was_learned_and_what_to_practise() -> None:
    lesson = open_lesson("02-octaves-do3-to-do5", remember=False, record=False)
    summary = lesson.summary()
    assert "What you learned" in summary.children[0].children[0].value
    assert "lesson 3" in summary.children[0].children[0].value
    ex = lesson.show("ledger").children[0]
    ex.choose(wrong(ex.question))
    said = _plain(summary.children[0].children[0].value)
    assert "Go back to: Ledger lines" in said
    assert "Not done yet: Two ways to number octaves, Find it on the keyboard" in said

    class Due(FakeStore):
        def due(self, activity: str) -> list[str]:
            return ["Sol4", "La4"] if activity == "drill" else []

    lesson.progress = Due()
    lesson._summaries[0].refresh()
    assert "Notes due for review: Sol4, La4." in _plain(summary.children[0].children[0].value)


def test_settings_are_remembered_and_redraw_the_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    lesson = open_lesson("01-the-staff")
    panel = lesson.settings()
    figure = lesson.show("lines")
    assert ">Sol3<" in figure.children[0].value
    lesson.controls["naming"].value = "letters"
    assert ">G4<" in figure.children[0].value  # drawn again in the new naming
    lesson.controls["name"].value = "Ana"
    assert "Ana" in panel.children[2].children[1].value
    assert LessonSettings.load(tmp_path) == LessonSettings("Ana", "letters", True, "normal")
    again = open_lesson("03-reading-fast", "es")  # the next lesson opens the same way
    assert (again.naming.value, again.student) == ("letters", "Ana")
    assert again.progress is not None and again.progress.student == "Ana"
    link = again.settings().children[4].children[1].value
    assert 'href="../03-reading-fast.ipynb"' in link and ">English<" in link
    lesson.progress.close()
    again.progress.close()


def test_every_step_of_every_lesson_shows_in_every_language() -> None:
    kinds = set()
    for plan in COURSE:
        for language in LANGUAGES:
            lesson = open_lesson(plan.id, language, remember=False, record=False)
            for step_id, step in plan.steps.items():
                title = lesson.title(step_id) if step.is_exercise else ""
                shown = lesson.show(step_id).children[0]
                kinds.add(step.kind)
                if step.is_exercise:
                    assert isinstance(shown, Exercise) and shown.title == title
    assert {"half_steps", "black_key_names", "read_accidentals", "enharmonic",
            "spell_in_chord"} <= kinds
    with pytest.raises(LessonError, match="no step 'nope'"):
        open_lesson("01-the-staff", remember=False, record=False).show("nope")
    with pytest.raises(LessonError, match="no lesson"):
        open_lesson("07-counterpoint", remember=False, record=False)


@pytest.mark.parametrize("plan", COURSE, ids=lambda p: p.id)
def test_no_english_words_in_the_spanish_lessons_text_and_outputs(
    plan: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Spanish notebook's markdown and the first line of each cell (all a hidden cell
    shows), then its cells run headless: settings, drawings, tables, every exercise's
    prompts, options and the feedback for every option, the drills and games it ends in
    (their strings), and the summary."""
    monkeypatch.setenv("MUSICGAMES_DATA_DIR", str(tmp_path))
    path = notebook_path(ROOT, plan, "es")
    nb = nbformat.read(path, as_version=4)
    texts = [_plain(c.source) for c in nb.cells if c.cell_type == "markdown"]
    texts += [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "code"]
    outputs = run_cells(path)
    assert len(outputs) == len(plan.steps) + 2  # the settings, every step, the summary
    for widget in outputs:
        texts.extend(widget_texts(widget))
    assert {w for t in texts for w in english_words(t)} == set()


def test_the_english_words_check_can_fail() -> None:
    plan = COURSE[3]
    lesson = open_lesson(plan.id, "en", remember=False, record=False)
    texts = list(widget_texts(lesson.show("spell")))
    assert {"the", "black", "key"} <= {w.lower() for t in texts for w in english_words(t)}
    assert english_words("pulsa Enter, o ve a English") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_the_same_steps(language: str) -> None:
    for plan in COURSE:
        nb = notebook(plan, language)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        assert [c.splitlines()[-1] for c in code[1:-1]] == [
            f'lesson.show("{s}")' for s in plan.steps
        ]
        assert all(c.startswith("# ") for c in code)  # what a hidden cell shows: its title


def test_the_committed_notebooks_are_a_fresh_build() -> None:
    assert build(ROOT, check=True) == []
    assert sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb")) == sorted(
        notebook_path(ROOT, plan, "en").name for plan in COURSE
    )
    for language in LANGUAGES[1:]:
        assert len(list((ROOT / "lessons" / language).glob("*.ipynb"))) == 6


def test_every_lesson_string_has_every_language() -> None:
    import json

    strings = json.loads((ROOT / "musicgames" / "strings" / "lessons.json").read_text("utf-8"))
    for key, by_language in strings.items():
        assert set(by_language) == set(LANGUAGES), key
        fields = [set(re.findall(r"\{(\w+)\}", t)) for t in by_language.values()]
        assert all(f == fields[0] for f in fields), key


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_lesson_notebooks_hide_their_code_and_only_call_musicgames(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    assert ("By the end of this lesson" in first.source
            or "Al terminar esta lección" in first.source
            or "À la fin de cette leçon" in first.source)
    assert "open_lesson(" in nb.cells[1].source and "lesson.settings()" in nb.cells[1].source
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell in code:
        assert cell.metadata["jupyter"]["source_hidden"] is True
        assert cell.outputs == [] and cell.execution_count is None
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                assert module and module.split(".")[0] == "musicgames", (path.name, module)
            assert not isinstance(
                node,
                (ast.FunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While, ast.If),
            ), (path.name, cell.source)
    run_text = ("Run All", "Run ▸", "run the cell", "Ejecutar ▸", "Exécuter ▸")
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            visible = re.sub(r'<div class="mg-run-hint">.*?</div>', "", cell.source, flags=re.S)
            assert not any(t in visible for t in run_text)


@pytest.mark.parametrize("plan", COURSE, ids=lambda p: p.id)
def test_lessons_have_three_exercises_and_end_in_play(plan: Any) -> None:
    steps = list(plan.steps.values())
    assert sum(s.kind in EXERCISE_KINDS for s in steps) >= 3
    assert steps[-1].kind in PLAY_KINDS
    assert len(plan.learned) >= 3 and all(plan.next[code] for code in LANGUAGES)


def _practice_widget(shown: Any) -> Any:
    """The drill or the quiz in what a lesson step shows."""
    if isinstance(shown, (NoteDrill, ChordTonesQuiz)):
        return shown
    for child in getattr(shown, "children", ()):
        if (found := _practice_widget(child)) is not None:
            return found
    return None


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_drill_and_quiz_says_what_its_lessons_exercise_is_about(language: str) -> None:
    """Before Start, each lesson's drill or quiz says what this exercise practises (its notes,
    how to answer), in the lesson's language, as a teacher would: no two say the same, and
    none only the widget's words for every session."""
    said: dict[str, str] = {}
    for plan in COURSE:
        lesson = open_lesson(plan.id, language, remember=False, record=False)
        for step in plan.steps.values():
            if step.kind not in ("drill", "quiz"):
                continue
            widget = _practice_widget(lesson.show(step.id))
            assert widget is not None, (plan.id, step.id)
            intro = step.kwargs.get("intro")
            assert intro is not None, (plan.id, step.id)
            ready = widget.strings[f"{step.kind}.ready"]
            assert ready.startswith(intro[language]), (plan.id, step.id, ready)
            assert ready != catalogue(language, f"{step.kind}.")[f"{step.kind}.ready"]
            said[f"{plan.id}/{step.id}"] = ready
    assert len(said) == 8 and len(set(said.values())) == len(said), said


def test_a_drill_or_quiz_without_an_intro_says_its_own_words() -> None:
    drill, quiz = NoteDrill(), ChordTonesQuiz()
    assert drill.strings["drill.ready"] == catalogue("en", "drill.")["drill.ready"]
    assert quiz.strings["quiz.ready"] == catalogue("en", "quiz.")["quiz.ready"]
    told = NoteDrill(intro="Just Mi3.", language="fr")
    assert told.strings["drill.ready"] == ("Just Mi3. Le chrono démarre quand tu appuies sur "
                                           "Commencer.")
    with pytest.raises(ValueError, match="intro"):
        NoteDrill(intro="  ")


def test_lessons_ask_only_what_has_been_taught() -> None:
    """Sharps and flats come in lesson 4: nothing before it asks or draws one."""
    for plan in COURSE[:3]:
        for step in plan.steps.values():
            assert "#" not in repr((step.args, step.kwargs)), (plan.id, step.id)
            assert "b3" not in repr((step.args, step.kwargs)), (plan.id, step.id)
    ids = [p.id for p in COURSE]
    assert ids.index("04-sharps-and-flats") < ids.index("05-chord-tones")


def test_an_answer_is_heard_and_a_chord_can_be_heard_first() -> None:
    lesson = open_lesson("05-chord-tones", remember=False, record=False)
    lesson.settings()
    player = lesson.player
    ex = lesson.show("quality").children[0]
    ex.choose(ex.question.answer)  # Do major: its three tones are played
    assert player.count == 1 and player.sound == {"hz": [261.63, 329.63, 392.0],
                                                  "broken": False}
    ear = lesson.show("by-ear").children[0]
    assert ear.listen_button.layout.display is None and ear.question.picture == ""
    ear.listen_button.click()  # heard before answering: nothing shows the chord
    assert player.count == 2
    ear.choose(wrong(ear.question))
    assert "It was Do major: from Do to Mi is 4 half steps: a major third" in _plain(
        ear.feedback.value
    )
    assert player.count == 3
    lesson.controls["sound"].value = False  # the Sound setting off: nothing more is played
    ex.next()
    ex.choose(0)
    assert player.count == 3 and player.enabled is False
    assert lesson.show("thirds").children[0].listen_button.layout.display == "none"


def test_the_summary_offers_the_hand_in_in_the_lessons_language(tmp_path: Path) -> None:
    from musicgames.progress import ProgressStore

    lesson = open_lesson("01-the-staff", "es", remember=False, record=False)
    lesson.progress = ProgressStore(tmp_path / "ana.sqlite3", student="Ana")
    summary = lesson.summary()
    hand_in = summary.children[1].children[0]
    assert type(hand_in).__name__ == "HandInBox"
    assert english_words(" ".join(widget_texts(summary))) == []
    lesson.progress.close()


def test_the_note_snap_game_of_lesson_3_is_short() -> None:
    lesson = open_lesson("03-reading-fast", "es", remember=False, record=False)
    game = lesson.show("note-snap").children[0]
    settings = game.settings
    assert (settings.length, settings.config().hand_limit) == ("short", 40)
    assert settings.card_limit == 40  # the lesson says: "after 40 cards"
    assert [s.kind for s in settings.seats] == ["person", "computer"]
    assert settings.seats[1].level == "beginner" and settings.language == "es"


def test_in_a_classroom_app_the_name_comes_from_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSICGAMES_APP", "1")
    monkeypatch.setenv("MUSICGAMES_CLASS_FOLDER", str(tmp_path))
    monkeypatch.setenv("QUERY_STRING", "student=Ana%20Mar%C3%ADa")
    lesson = open_lesson("01-the-staff", "es", remember=False)
    lesson.settings()
    assert lesson.student == "Ana María" and lesson.controls["name"].disabled
    ex = lesson.show("clef").children[0]
    ex.choose(1)
    lesson.progress.close()
    (row,) = read_answers(next(tmp_path.glob("*.sqlite3")))
    assert (row.student, row.activity, row.item) == ("Ana María", "lesson", "01-the-staff/clef")
    summary = lesson.summary()
    assert summary.children[1].children[0].value == ""  # nothing to hand in: already there


def _keyboard_text_px(html: str) -> list[tuple[float, str]]:
    """Every name written on a keyboard drawing, with its height on the page in pixels (its
    font size times the drawing's scale)."""
    sizes = []
    for svg in re.findall(r'<svg[^>]*class="mg-keyboard".*?</svg>', html, flags=re.S):
        width = float(re.search(r'width="([\d.]+)"', svg).group(1))
        view = float(re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+)', svg).group(1))
        for size, said in re.findall(r'<text[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<', svg):
            sizes.append((float(size) * width / view, said))
    return sizes


@pytest.mark.parametrize("size", ["small", "normal", "large"])
def test_every_name_on_a_lesson_keyboard_is_at_least_11_px(size: str) -> None:
    """Black keys' names ("Sol♯" too) and octave names ("Do3") on every keyboard of every
    lesson, figures and exercises, at each size setting: at least 11 px on the page."""
    checked = 0
    for plan in COURSE:
        lesson = open_lesson(plan.id, remember=False, record=False,
                             settings=LessonSettings(size=size))
        for step_id, step in plan.steps.items():
            if step.is_play:
                continue
            shown = lesson.show(step_id).children[0]
            pictures = ([q.picture + q.wrong_picture for q in shown.questions]
                        if isinstance(shown, Exercise) else [shown.value])
            for picture in pictures:
                for px, said in _keyboard_text_px(picture):
                    assert px >= 11, (plan.id, step_id, said, round(px, 1))
                    checked += 1
    assert checked > 500


def test_fifteen_named_notes_go_on_two_staves() -> None:
    """Lesson 2's fifteen notes on one staff would shrink their names under 11 px in a
    narrow column: more than eight named notes go on staves one under the other."""
    lesson = open_lesson("02-octaves-do3-to-do5", remember=False, record=False)
    shown = lesson.show("all-notes").children[0].value
    rows = [m.start() for m in re.finditer(r'class="mg-staff-row"', shown)]
    assert len(rows) == 2 and shown.count("<svg width=") == 2
    assert rows[0] < shown.index(">Si3<") < rows[1] < shown.index(">Do5<")
    assert lesson.staff(["Do3", "Mi3"], labels=True).startswith("<svg")


def test_lesson_3_says_all_three_ways_its_short_game_ends() -> None:
    """Lesson 3's game (short, 40-card limit) also ends when someone holds 40 cards: the
    lesson's text says so next to the empty hand and the 40 cards flipped, in both languages."""
    [plan] = [plan for plan in COURSE if plan.files["en"].startswith("03")]
    said = {
        "en": ("has no cards left", "has 40 cards in their hand",
               "after 40 cards have been flipped"),
        "es": ("se queda sin cartas", "tiene 40 cartas en la mano",
               "después de voltear 40 cartas"),
    }
    for language, endings in said.items():
        nb = nbformat.read(notebook_path(ROOT, plan, language), as_version=4)
        text = " ".join(_plain(c.source) for c in nb.cells if c.cell_type == "markdown")
        for ending in endings:
            assert ending in text, (language, ending)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "one step higher", "2 steps lower"),
    ("es", "un paso más arriba", "2 pasos más abajo"),
])
def test_lesson_plurals_go_through_the_catalogues_one_and_other_forms(
        language: str, one: str, two: str) -> None:
    from musicgames.i18n import _all_strings
    from musicgames.lessons.facts import steps_words

    strings = _all_strings()
    for key in ("lesson.half.why", "lesson.steps.up", "lesson.steps.down"):
        assert f"{key}.one" in strings and f"{key}.other" in strings, key
        assert key not in strings and f"{key}.1" not in strings, key
    assert (steps_words(1, language), steps_words(-2, language)) == (one, two)
    ex = open_lesson("04-sharps-and-flats", language, remember=False, record=False).half_steps(
        [("Mi3", "Fa3"), ("Re3", "Fa3")])
    explained = [q.explain for q in ex.questions]
    assert ("1 half step." if language == "en" else "1 semitono.") in explained[0]
    assert ("3 half steps." if language == "en" else "3 semitonos.") in explained[1]
