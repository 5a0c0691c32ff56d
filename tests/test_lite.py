"""The static site's build (musicgames.lite), without a browser: the wheels, the lock file,
the drawings made ahead, the pages, and a student's path in a Python that has no numpy,
matplotlib, verovio or Pillow (as the browser's has none)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from musicgames.kept import DRAWINGS_ENV
from musicgames.lite import drawings, lock, packages, pages, site, wheels
from musicgames.lite.serve import make_server

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_the_pinned_pyodide_is_the_one_the_kernel_is_built_for() -> None:
    constants = pytest.importorskip("jupyterlite_pyodide_kernel.constants")
    assert constants.PYODIDE_VERSION == packages.PYODIDE_VERSION
    from importlib.metadata import version

    assert version("jupyterlite-pyodide-kernel") == packages.KERNEL_EXTENSION[1]


def test_a_wheel_made_here_has_a_record_of_every_file(tmp_path: Path) -> None:
    import base64
    import hashlib

    made = wheels.write_wheel(tmp_path, "tiny-thing", "2.0",
                              {"tiny_thing/__init__.py": b"A = 1\n", "tiny_thing/x.json": b"{}"})
    assert made.name == "tiny_thing-2.0-py3-none-any.whl"
    with zipfile.ZipFile(made) as wheel:
        record = wheel.read("tiny_thing-2.0.dist-info/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.split(",")
            if name.endswith("RECORD"):
                continue
            data = wheel.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == f"sha256={expected.decode()}" and int(size) == len(data)
    again = wheels.write_wheel(tmp_path / "again", "tiny-thing", "2.0",
                               {"tiny_thing/x.json": b"{}", "tiny_thing/__init__.py": b"A = 1\n"})
    assert again.read_bytes() == made.read_bytes()  # the same input, the same bytes


def test_a_slimmed_wheel_keeps_what_is_asked_and_its_record_says_so(tmp_path: Path) -> None:
    big = wheels.write_wheel(tmp_path, "big", "1.0", {
        "big/__init__.py": b"", "big/corpus/__init__.py": b"", "big/corpus/bach/a.mxl": b"x" * 99})
    slim = wheels.slimmed(big, tmp_path / "slim", lambda n: not n.startswith("big/corpus/bach"))
    assert slim.name == big.name and slim.stat().st_size < big.stat().st_size
    with zipfile.ZipFile(slim) as wheel:
        names = wheel.namelist()
        record = wheel.read("big-1.0.dist-info/RECORD").decode()
    assert "big/corpus/__init__.py" in names and "big/corpus/bach/a.mxl" not in names
    assert "bach" not in record and "big/corpus/__init__.py" in record
    assert wheels.read_wheel(slim).imports == ("big",)


@pytest.mark.parametrize(("name", "kept"), [
    ("music21/corpus/__init__.py", True),
    ("music21/corpus/corpora.py", True),
    ("music21/corpus/bach/bwv66.6.mxl", False),
    ("music21/pitch.py", True),
])
def test_music21_goes_without_its_corpus_of_scores(name: str, kept: bool) -> None:
    assert site.slimming()["music21"](name) is kept


@pytest.mark.parametrize(("name", "kept"), [
    ("babel/locale-data/es_419.dat", True),
    ("babel/locale-data/fr_BE.dat", True),
    ("babel/locale-data/root.dat", True),
    ("babel/locale-data/en.dat", True),
    ("babel/locale-data/de.dat", False),
    ("babel/locale-data/et.dat", False),
    ("babel/global.dat", True),
])
def test_babel_keeps_the_languages_of_the_pages(name: str, kept: bool) -> None:
    assert site.slimming()["babel"](name) is kept


def test_the_lock_file_names_the_sites_own_copies_and_what_each_needs(tmp_path: Path) -> None:
    stock = tmp_path / "stock.json"
    info = {"abi_version": "2026_0", "arch": "wasm32", "python": "3.14.2"}
    stock.write_text(json.dumps({"info": info, "packages": {"numpy": {"file_name": "x"}}}))
    made = [
        wheels.write_wheel(tmp_path, "Game_Thing", "1.0", {"game_thing/__init__.py": b""},
                           requires=["helper>=1", "numpy>=1",
                                     "pexpect; sys_platform != 'emscripten'"]),
        wheels.write_wheel(tmp_path, "helper", "2.5", {"helper.py": b""}),
    ]
    written = lock.write_lock(stock, [wheels.read_wheel(p) for p in made], tmp_path / "lock.json")
    assert written == json.loads((tmp_path / "lock.json").read_text())
    assert written["info"] == info and sorted(written["packages"]) == ["game-thing", "helper"]
    game = written["packages"]["game-thing"]
    assert game["file_name"] == made[0].name and game["sha256"] == wheels.sha256(made[0])
    assert game["depends"] == ["helper"] and game["imports"] == ["game_thing"]
    assert written["packages"]["helper"]["imports"] == ["helper"]
    with pytest.raises(lock.MissingWheelError, match="helper"):
        lock.write_lock(stock, [wheels.read_wheel(made[0])], tmp_path / "lock.json")


def test_the_musicgames_wheel_is_this_source_tree_with_the_browsers_requirements(
    tmp_path: Path,
) -> None:
    source = REPO_ROOT / "musicgames"
    version, requires = site._pyproject(source)
    made = wheels.read_wheel(wheels.musicgames_wheel(source, tmp_path, version, requires))
    assert made.imports == ("musicgames",)
    names = {packages.normalize(r.split(">")[0].split("<")[0].split("=")[0])
             for r in made.requires}
    assert {"music21", "fsrs", "anywidget", "ipywidgets", "platformdirs", "babel"} <= names
    assert not names & set(packages.LEFT_OUT)
    with zipfile.ZipFile(made.path) as wheel:
        inside = set(wheel.namelist())
    for path in ("musicgames/widgets/note_snap/view.js", "musicgames/strings/common.json",
                 "musicgames/classroom/start.html.j2", "musicgames/lite/launch.py"):
        assert path in inside, path
    assert not any("__pycache__" in n for n in inside)


@pytest.fixture(scope="module")
def site_lessons(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """The lessons made ready for the site (a folder, and the lessons with their titles)."""
    from musicgames.lite import course

    folder = tmp_path_factory.mktemp("lessons")
    return folder, course.make_lessons(folder)


def test_the_start_pages_open_each_app_each_lesson_and_each_other(
    tmp_path: Path, site_lessons: tuple[Path, list[Any]]
) -> None:
    from musicgames.classroom.apps import APPS

    lite_settings = '<script id="jupyter-config-data" type="application/json">{}</script>'
    (tmp_path / "index.html").write_text(f"<html><head>{lite_settings}</head></html>")
    pages.write_pages(tmp_path, site_lessons[1])
    english = (tmp_path / "index.html").read_text()
    spanish = (tmp_path / "es.html").read_text()
    french = (tmp_path / "fr.html").read_text()
    for app in ("note-snap", "keyboard-duel", "note-drill", "chord-quiz"):
        assert f'href="play/{app}.html"' in english and f'href="play/{app}.html"' in spanish
    assert 'href="es.html"' in english and 'href="fr.html"' in english
    assert 'href="index.html"' in spanish and "Juegos musicales" in spanish
    assert lite_settings in english and lite_settings in spanish  # JupyterLite reads it
    assert "voila/render" not in english and "?language=" not in english.split("<body>")[1]
    # each page lists the course in its own language, every lesson opening its own page
    assert 'href="play/lessons/01-the-staff.html">Lesson 1 · The staff</a>' in english
    assert 'href="play/lessons/es/01-el-pentagrama.html">Lección 1 · El pentagrama</a>' in spanish
    assert 'href="play/lessons/fr/01-la-portee.html">Leçon 1 · La portée</a>' in french
    assert "lessons/es/" not in english and "lessons/fr/" not in spanish
    from musicgames.lessons.course import COURSE

    for page in (english, spanish, french):
        assert page.count('data-app="lesson"') == len(COURSE)
    for app in APPS:
        play = (tmp_path / "play" / f"{app.name}.html").read_text()
        assert f'open_app(" + JSON.stringify("{app.name}")' in play
        assert '"../repl/index.html?' in play and '"student", "language", "naming"' in play
    lesson = (tmp_path / "play" / "lessons" / "es" / "01-el-pentagrama.html").read_text()
    assert 'open_lesson(" + JSON.stringify("lessons/es/01-el-pentagrama.ipynb")' in lesson
    assert '"../../../repl/index.html?' in lesson and "<title>Lección 1" in lesson
    assert "http" not in english + spanish + lesson  # nothing from another host


def test_the_sites_lessons_are_the_classrooms_every_one_in_every_language(
    site_lessons: tuple[Path, list[Any]],
) -> None:
    """Each lesson of the course in each language, made ready as the classroom makes its
    lesson apps: the student's file opened first in the lesson's language, the cells for
    JupyterLab only and the run instructions left out; the wheel of lessons holds them."""
    from musicgames.classroom.apps import lesson_for_app
    from musicgames.i18n import LANGUAGES
    from musicgames.lessons.build import notebook_text
    from musicgames.lessons.course import COURSE
    from musicgames.lite import course

    folder, lessons = site_lessons
    assert len(lessons) == len(COURSE) * len(LANGUAGES)
    files = course.lesson_files(folder)
    for plan in COURSE:
        for language in LANGUAGES:
            where = "lessons" if language == "en" else f"lessons/{language}"
            path = f"{where}/{plan.files[language]}"
            shipped = json.loads(files[f"{course.LESSONS_PACKAGE}/{path}"])
            built = json.loads(notebook_text(plan, language))  # as the course's build writes it
            assert shipped["cells"] == lesson_for_app(built, language)["cells"]
            assert "".join(shipped["cells"][0]["source"]).endswith(f"begin_lesson({language!r})")
            assert "mg-run-hint" not in json.dumps(shipped)
            assert any(lesson.notebook == path and lesson.language == language
                       for lesson in lessons)


def test_a_lessons_links_to_itself_in_other_languages_open_the_sites_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the site a lesson's links to the other languages (in its text and in its settings)
    open the site's pages for them, keeping the student's choices."""
    from musicgames.appmode import APP_ENV, LESSON_PAGES_ENV
    from musicgames.lessons import open_lesson
    from musicgames.lite import launch

    text = launch.site_links("[English](../01-the-staff.ipynb) · "
                             "[Français](../fr/01-la-portee.ipynb)",
                             "lessons/es/01-el-pentagrama.ipynb",
                             "student=Ana&language=es&naming=letters")
    # written as links that open in the same tab (Lab opens others in a new one)
    assert text == ('<a href="../play/lessons/01-the-staff.html?student=Ana&amp;language=en'
                    '&amp;naming=letters" target="_self">English</a> · <a href="../play/'
                    'lessons/fr/01-la-portee.html?student=Ana&amp;language=fr&amp;naming='
                    'letters" target="_self">Français</a>')
    monkeypatch.setenv(APP_ENV, "1")
    monkeypatch.setenv("QUERY_STRING", "student=Ana&language=en")
    monkeypatch.setenv(LESSON_PAGES_ENV, "../play/lessons/")
    lesson = open_lesson("01-the-staff", "en", remember=False, record=False)
    links = lesson._language_link()
    assert 'href="../play/lessons/es/01-el-pentagrama.html?student=Ana&amp;language=es' in links
    assert 'href="../play/lessons/fr/01-la-portee.html?student=Ana&amp;language=fr' in links


def test_the_classrooms_start_page_keeps_its_links() -> None:
    pytest.importorskip("voila")
    from musicgames.classroom.server import start_page

    page = start_page("es")
    assert 'href="voila/render/note-snap.ipynb"' in page
    assert 'href="voila/render/note-drill.ipynb"' in page
    assert 'href="?language=en"' in page and "location.replace" not in page


def test_the_server_says_what_modules_and_webassembly_are(tmp_path: Path) -> None:
    (tmp_path / "a.mjs").write_text("export {};")
    (tmp_path / "b.wasm").write_bytes(b"\0asm")
    server = make_server(tmp_path, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        for name, kind in (("a.mjs", "text/javascript"), ("b.wasm", "application/wasm")):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}") as answer:
                assert answer.headers["Content-Type"] == kind
    finally:
        server.shutdown()
        server.server_close()


def test_widths_are_read_where_no_font_can_be_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from musicgames import fonts
    from musicgames.kept import WIDTHS_FILE

    measured = fonts.text_width("Sol♯", size=9)
    (tmp_path / WIDTHS_FILE).write_text(json.dumps(
        {"regular": fonts.measured_widths(["Sol♯"])}))
    monkeypatch.setenv(DRAWINGS_ENV, str(tmp_path))

    def no_font(bold: bool) -> None:
        raise ImportError("no Pillow here")

    monkeypatch.setattr(fonts, "_font", no_font)
    fonts.text_width.cache_clear()
    fonts._kept_widths.cache_clear()
    try:
        assert fonts.text_width("Sol♯", size=9) == measured
        with pytest.raises(fonts.UnmeasuredTextError, match="'Mi♭'"):
            fonts.text_width("Mi♭", size=9)
    finally:
        fonts.text_width.cache_clear()
        fonts._kept_widths.cache_clear()


def test_staves_kept_ahead_name_their_engraver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where verovio is not installed, the drawings made ahead are found by the version
    that made them (written next to them), and nothing is engraved."""
    import importlib.metadata

    from musicgames import render
    from musicgames.kept import ENGRAVER_FILE

    monkeypatch.setenv(DRAWINGS_ENV, str(tmp_path))
    render._staff_svg_cached.cache_clear()
    render._engraver.cache_clear()
    engraved = str(render.staff_svg("Re4", size=77))
    (tmp_path / ENGRAVER_FILE).write_text(importlib.metadata.version("verovio") + "\n")
    real_version = importlib.metadata.version

    def no_verovio(name: str) -> str:
        if name == "verovio":
            raise importlib.metadata.PackageNotFoundError(name)
        return real_version(name)

    def no_engraver() -> None:
        raise AssertionError("engraved in a Python without verovio")

    monkeypatch.setattr(importlib.metadata, "version", no_verovio)
    monkeypatch.setattr(render, "_get_toolkit", no_engraver)
    render._staff_svg_cached.cache_clear()
    render._engraver.cache_clear()
    try:
        assert str(render.staff_svg("Re4", size=77)) == engraved
    finally:
        render._staff_svg_cached.cache_clear()
        render._engraver.cache_clear()


#: What the browser's Python has none of (compiled, or desktop-only).
_GONE = ("numpy", "matplotlib", "verovio", "PIL", "pillow", "svgpath2mpl")

_STUDENT = """
import asyncio, importlib.util, sys
from pathlib import Path
GONE = tuple(sys.argv[1:])
assert [name for name in GONE if importlib.util.find_spec(name)] == []
from musicgames.lite import launch
for name, address in (("Ana", "student=Ana&language=en"),
                      ("Bea", "student=Bea&language=es&naming=letters"),
                      ("Chloé", "student=Chlo%C3%A9&language=fr")):
    for app in ("note-snap", "keyboard-duel", "note-drill", "chord-quiz"):
        box = launch.open_app(app, address)
        game = box.children[-1]
        language = game.form["language"] if app == "note-snap" else game.language
        print("SAID", app, type(game).__name__, language, name in box.children[0].value)
        game.close()
folder = launch.lessons_folder()
for path in sorted(folder.rglob("*.ipynb")):
    lesson = path.relative_to(folder).as_posix()
    asyncio.run(launch.open_lesson(lesson, "student=Ana&naming=letters"))
    print("SAID", lesson)
print("SAID", sorted(m for m in sys.modules if m.split(".")[0] in GONE))
"""


@pytest.fixture(scope="module")
def kept_drawings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The drawings the site is built with, made once for the tests of this file."""
    folder = drawings.make_drawings(tmp_path_factory.mktemp("kept") / "drawings")
    assert list(folder.glob("staff-*.svg")) and (folder / "engraver.txt").is_file()
    return folder


def _site_packages_without(gone: tuple[str, ...], folder: Path) -> Path:
    """A folder standing for this Python's site-packages, without the packages ``gone``
    (neither their code nor their metadata: to Python they are not installed)."""
    import sysconfig

    folder.mkdir()
    lowered = {name.lower() for name in gone}
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        top = entry.name.split("-")[0].split(".")[0].lower()
        if top not in lowered and not entry.name.endswith(".pth"):
            (folder / entry.name).symlink_to(entry)
    return folder


@pytest.mark.slow  # draws every staff of the site first, as its build does
def test_a_student_opens_every_app_and_lesson_in_a_python_without_the_desktops_packages(
    tmp_path: Path, kept_drawings: Path, site_lessons: tuple[Path, list[Any]],
) -> None:
    """What the browser runs: the games, the drill and the quiz open (every language, both
    namings), and every lesson runs in every language, with the drawings and lessons made
    ahead, in a Python where numpy, matplotlib, verovio and Pillow are not installed, and
    nothing asks for them."""
    from musicgames.lite import course

    files = {**drawings.drawings_files(kept_drawings), **course.lesson_files(site_lessons[0])}
    for name, data in files.items():
        (tmp_path / "packages" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "packages" / name).write_bytes(data)
    site_packages = _site_packages_without(_GONE, tmp_path / "site-packages")
    env = {**os.environ, "TMPDIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "packages"), str(REPO_ROOT),
                                          str(site_packages)])}
    env.pop(DRAWINGS_ENV, None)
    done = subprocess.run([sys.executable, "-S", "-c", _STUDENT, *_GONE], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    said = [line[5:] for line in done.stdout.splitlines() if line.startswith("SAID ")]
    assert said[-1] == "[]"
    apps = (("note-snap", "NoteSnapWidget"), ("keyboard-duel", "KeyboardDuelWidget"),
            ("note-drill", "NoteDrill"), ("chord-quiz", "ChordTonesQuiz"))
    assert said[:12] == [f"{app} {kind} {language} True" for language in ("en", "es", "fr")
                         for app, kind in apps]
    assert sorted(said[12:-1]) == sorted(lesson.notebook for lesson in site_lessons[1])


def _play_through(practice: Any) -> None:
    """Answer every question of a drill or quiz, wrong as often as right, to its summary."""
    from musicgames.widgets.chord_quiz import QuizMode

    rng = random.Random(7)
    practice.receive({"type": "start"})
    for _ in range(200):
        if practice.phase == "over":
            return
        number = practice.question["number"]
        answer: dict[str, Any] = {"type": "answer", "number": number, "response_ms": 4000}
        if hasattr(practice, "answer_with"):  # the note drill
            if "names" in practice.answer_with:
                answer.update(via="name", value=rng.randrange(7))
            else:
                answer.update(via="keyboard", value=rng.randrange(12))
        elif practice.kind is QuizMode.FIND:
            answer.update(keys=rng.sample(range(24), 3))
        else:
            answer.update(choice=rng.randrange(len(practice.question["choices"])))
        practice.receive(answer)
        assert practice.feedback.get("number") == number, practice.feedback
        practice.receive({"type": "next", "number": number})
    raise AssertionError(f"{practice!r} did not end")


@pytest.mark.slow  # draws every staff of the site first, as its build does
def test_every_staff_the_site_can_show_was_drawn_when_it_was_built(
    kept_drawings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every staff the games, the note drill, the chord quiz and the course can show, in
    every language, naming and size, is in the drawings made for the site: every app and
    lesson is opened again as the build opens it, each drill and quiz in them draws every
    staff it can show and is then played through to its summary (missing often), and no
    drawing is asked for that was not made (the browser could not engrave it)."""
    from musicgames import render

    monkeypatch.setenv(DRAWINGS_ENV, str(kept_drawings))
    kept = render._kept_drawing
    missing: list[str] = []

    def only_kept(mei: str, size: int) -> Path | None:
        path = kept(mei, size)
        if path is None or not path.is_file():
            missing.append(f"size {size}: {mei[-300:]}")
            raise AssertionError(f"not drawn when the site was built: {missing[-1]}")
        return path

    def drawn_and_played(practice: Any) -> None:
        practice.staves()
        _play_through(practice)

    monkeypatch.setattr(render, "_kept_drawing", only_kept)
    render._staff_svg_cached.cache_clear()
    try:
        drawings.open_everything(drawn_and_played)
    finally:
        render._staff_svg_cached.cache_clear()
    assert missing == []


def test_every_key_name_is_measured_ahead() -> None:
    """The widths made ahead cover every name a key is given, in both namings and every
    language (the keyboard asks for them by the name alone)."""
    from musicgames.i18n import LANGUAGES
    from musicgames.theory import Naming, Note

    names = set(drawings.note_names())
    for naming in Naming:
        for language in LANGUAGES:
            for midi in range(60, 72):
                assert Note.parse(midi).label(naming, octave=False, language=language) in names


def test_a_progress_file_is_made_where_python_has_no_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's Python has no ``os.link``: a student's file is made all the same."""
    from musicgames.progress.store import ProgressStore

    monkeypatch.delattr(os, "link")
    store = ProgressStore(tmp_path / "ana.sqlite3", student="Ana")
    try:
        assert store.student == "Ana"
    finally:
        store.close()
    assert [p.name for p in tmp_path.iterdir()] == ["ana.sqlite3"]


def test_a_compiled_archive_holds_bytecode_in_place_of_each_module(tmp_path: Path) -> None:
    from musicgames.lite import bytecode

    made = wheels.write_wheel(tmp_path, "tiny", "1.0", {
        "tiny/__init__.py": b"A = 1\n", "tiny/notes.json": b"{}", "single.py": b"B = 2\n",
        "tiny-1.0.data/scripts/run.py": b"print(1)\n"})
    compiled = tmp_path / "compiled"
    for name in ("tiny/__init__.py", "single.py"):
        (compiled / name).parent.mkdir(parents=True, exist_ok=True)
        (compiled / (name + "c")).write_bytes(b"bytecode of " + name.encode())
    target = tmp_path / "out" / made.name
    bytecode._rewrite(made, compiled, target)
    with zipfile.ZipFile(target) as wheel:
        names = set(wheel.namelist())
        record = wheel.read("tiny-1.0.dist-info/RECORD").decode()
        assert wheel.read("tiny/__init__.pyc") == b"bytecode of tiny/__init__.py"
    assert {"tiny/__init__.pyc", "single.pyc", "tiny/notes.json",
            "tiny-1.0.data/scripts/run.py"} <= names
    assert "tiny/__init__.py" not in names and "single.py" not in names
    assert "tiny/__init__.pyc,sha256=" in record and "tiny/__init__.py," not in record
    assert wheels.read_wheel(target).imports == ("single", "tiny")


def test_the_standard_library_keeps_its_folders_when_compiled(tmp_path: Path) -> None:
    from musicgames.lite import bytecode

    stdlib = tmp_path / bytecode.STDLIB_FILE
    with zipfile.ZipFile(stdlib, "w") as archive:
        archive.writestr("json/", b"")
        archive.writestr("json/__init__.py", b"X = 1\n")
    (tmp_path / "compiled" / "json").mkdir(parents=True)
    (tmp_path / "compiled" / "json" / "__init__.pyc").write_bytes(b"code")
    bytecode._rewrite(stdlib, tmp_path / "compiled", tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as archive:
        assert sorted(archive.namelist()) == ["json/", "json/__init__.pyc"]


@pytest.mark.slow
def test_pyodide_compiles_the_sites_modules_once(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled by the browser's own Python (not this one), then taken from the cache."""
    import importlib.util
    import shutil

    from musicgames.lite import bytecode

    core = REPO_ROOT / "build" / "lite" / f"pyodide-{packages.PYODIDE_VERSION}"
    if shutil.which("node") is None or not (core / "pyodide.mjs").is_file():
        pytest.skip("needs node and Pyodide's core in build/lite (built by the site's build)")
    made = wheels.write_wheel(tmp_path, "tiny", "1.0", {"tiny/__init__.py": b"A = 1\n"})
    original = made.read_bytes()
    bytecode.compile_archives([made], core, tmp_path / "cache")
    with zipfile.ZipFile(made) as wheel:
        pyc = wheel.read("tiny/__init__.pyc")
    assert pyc[:4] != importlib.util.MAGIC_NUMBER  # Pyodide's Python, not this one
    assert pyc[2:4] == b"\r\n" and int.from_bytes(pyc[4:8], "little") == 0b01  # unchecked hash
    again = tmp_path / "again" / made.name
    again.parent.mkdir()
    again.write_bytes(original)
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no Node: only the cache can do
    bytecode.compile_archives([again], core, tmp_path / "cache")
    assert again.read_bytes() == made.read_bytes()
