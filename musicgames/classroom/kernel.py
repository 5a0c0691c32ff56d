"""The kernel's side of a classroom app: the student's progress file and the app itself.

Each visitor of an app gets a kernel of their own (Voila starts one per page), so each student
plays their own game. The student's name comes from the app's address (``?student=Ana``, put
there by the start page, see :mod:`musicgames.appmode`); their answers go to their own file in
the class folder, named after them, and nowhere else. Opened without a name (someone typed an
app's address by hand), a game asks for the name first.

Headless, as the tests use it:

>>> import os, tempfile
>>> saved = dict(os.environ)
>>> os.environ.update({"MUSICGAMES_APP": "1", "MUSICGAMES_CLASS_FOLDER": tempfile.mkdtemp(),
...                    "QUERY_STRING": "student=Ana&language=es"})
>>> app = open_app("note-drill")
>>> type(app.children[-1]).__name__, app.children[-1].language
('NoteDrill', 'es')
>>> store = student_store("Ana"); store.path.name, store.student
('ana.sqlite3', 'Ana')
>>> store.close(); close_app(app)
>>> os.environ.clear(); os.environ.update(saved)
"""

from __future__ import annotations

import os
import tempfile
from html import escape
from typing import Any, cast

import ipywidgets as widgets

from musicgames import appmode
from musicgames.appmode import student_store
from musicgames.classroom.access import KERNEL_PROOF_HEADER, kernel_proof
from musicgames.classroom.apps import APPS
from musicgames.i18n import LANGUAGES, text
from musicgames.progress.store import ProgressStore

__all__ = [
    "UnknownAppError",
    "begin_lesson",
    "close_app",
    "make_app",
    "open_app",
    "page_settings",
    "student_store",
    "wait_for_request",
]

_APPS = tuple(app.name for app in APPS)


class UnknownAppError(ValueError):
    """An app name the classroom does not have."""


def page_settings() -> dict[str, str]:
    """The language and note naming the start page chose (``?language=es&naming=letters``)."""
    language = appmode.address_value("language") or "en"
    naming = appmode.address_value("naming") or "solfege"
    return {
        "language": language if language in LANGUAGES else "en",
        "naming": naming if naming in ("solfege", "letters") else "solfege",
    }


def _wait_for_the_student() -> None:
    """In a kernel Voila started ahead (``--warm``): wait until a student opens the app; then
    their request (``?student=…``) is in the environment. At once otherwise."""
    if os.environ.get("VOILA_PREHEAT", "False") != "True":
        return
    from ipykernel.connect import get_connection_info

    kernel_id = os.environ.get("VOILA_KERNEL_ID", "")
    key = cast(dict[str, Any], get_connection_info(unpack=True))["key"]
    os.environ.update(wait_for_request(_query_address(kernel_id), kernel_id, key))


def _query_address(kernel_id: str) -> str:
    """Where the server tells a kernel started ahead its page's request (as Voila's
    ``voila.utils.wait_for_request`` finds it)."""
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    ip = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{kernel_id}"


def wait_for_request(address: str, kernel_id: str, key: bytes | str) -> dict[str, str]:
    """The request of the page that was given kernel ``kernel_id`` (its address, as
    environment variables), asked for at ``address`` with the proof that this is that
    kernel (see :func:`musicgames.classroom.access.kernel_proof`); waits until a page is given it.

    Empty if the server cannot be reached (the app then asks for the student's name)."""
    import asyncio
    import json
    import threading
    import warnings

    from tornado import httpclient, websocket

    asked = httpclient.HTTPRequest(
        address, connect_timeout=5,
        headers={KERNEL_PROOF_HEADER: kernel_proof(key, kernel_id)})
    said: list[str] = []

    async def ask() -> None:
        connection = await websocket.websocket_connect(asked)
        try:
            message = await connection.read_message()
        finally:
            connection.close()
        if isinstance(message, str):
            said.append(message)

    def run() -> None:  # the kernel's own event loop is busy running this cell
        try:
            asyncio.run(ask())
        except (OSError, httpclient.HTTPClientError) as error:
            warnings.warn(f"the server did not say who opened this app: {error}",
                          stacklevel=1)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if not said:
        return {}
    return {str(k): str(v) for k, v in json.loads(said[0]).items()}


def _import(app: str) -> None:
    """Load the app's widget module (the costly part of starting, done before waiting)."""
    import importlib

    module = {"note-snap": "note_snap", "keyboard-duel": "keyboard_duel",
              "note-drill": "note_drill", "chord-quiz": "chord_quiz"}[app]
    importlib.import_module(f"musicgames.widgets.{module}")


def make_app(app: str, store: ProgressStore | None, settings: dict[str, str]) -> Any:
    """The widget of app ``app`` with the start page's ``settings`` (``language``,
    ``naming``), recording into ``store`` (nowhere without one)."""
    language, naming = settings["language"], settings["naming"]
    if app == "note-snap":
        from musicgames.widgets.note_snap import play_note_snap

        return play_note_snap(people=1, computers=2, level="beginner", progress=store,
                              language=language, naming=naming)
    if app == "keyboard-duel":
        from musicgames.widgets.keyboard_duel import play_keyboard_duel

        return play_keyboard_duel(progress=store, language=language, naming=naming)
    if app == "note-drill":
        from musicgames.widgets.note_drill import NoteDrill

        return NoteDrill(progress=store, language=language, naming=naming)
    if app == "chord-quiz":
        from musicgames.widgets.chord_quiz import ChordTonesQuiz

        return ChordTonesQuiz(progress=store, language=language, naming=naming)
    raise UnknownAppError(f"{app!r} is not a classroom app: use {', '.join(_APPS)}")


def _heading(app: str, language: str, name: str | None) -> widgets.HTML:
    title = text("classroom." + app.replace("-", "_"), language)
    return widgets.HTML(
        f'<h2 class="musicgames-app-title">{escape(title)}</h2>{_whose(language, name)}'
    )


def _whose(language: str, name: str | None) -> str:
    """The page's one line on whose answers are kept (or that none are), and the way back."""
    who = (
        text("classroom.kept_for", language, name=escape(name))
        if name
        else text("classroom.no_student", language)
    )
    return (
        f'<p class="musicgames-app-student">{who} '
        f'<a href="{escape(_start_page(language))}" target="_top">'
        f'{escape(text("classroom.back", language))}</a></p>'
    )


def _start_page(language: str) -> str:
    """The class's start page (Voila tells its kernels the server's base address)."""
    base = os.environ.get("VOILA_BASE_URL", "/") or "/"
    return f"{base if base.endswith('/') else base + '/'}?language={language}"


def open_app(app: str) -> widgets.VBox:
    """The app ``app`` (``"note-snap"``, ``"keyboard-duel"``, ``"note-drill"``,
    ``"chord-quiz"``) for the student named in the address, recording to their file.

    Without a name, a small form asks for it and the app opens once it is given.
    """
    if app not in _APPS:
        raise UnknownAppError(f"{app!r} is not a classroom app: use {', '.join(_APPS)}")
    _import(app)
    _wait_for_the_student()
    settings = page_settings()
    language = settings["language"]
    name = appmode.student()
    box = widgets.VBox(layout=widgets.Layout(width="100%"))
    box.add_class("musicgames-app")
    if name is not None:
        box.children = (_heading(app, language, name), make_app(app, student_store(name), settings))
        return box
    field = widgets.Text(placeholder=text("classroom.your_name", language))
    button = widgets.Button(description=text("classroom.start", language))
    note = widgets.HTML(text("classroom.ask_name", language))

    def start(_: object = None) -> None:
        try:
            chosen = appmode.clean_name(field.value)
        except appmode.NotANameError:
            note.value = text("classroom.bad_name", language)
            return
        box.children = (_heading(app, language, chosen),
                        make_app(app, student_store(chosen), settings))

    button.on_click(start)
    box.children = (note, widgets.HBox([field, button]))
    return box


def close_app(box: widgets.VBox) -> None:
    """Close an app and what it shows (its game's timers stop; its progress file closes)."""
    for child in box.children:
        progress = getattr(child, "_progress", None)
        child.close()
        if isinstance(progress, ProgressStore):
            progress.close()
    box.close()


def begin_lesson(language: str | None = None) -> None:
    """First cell of a lesson served as an app: the lesson records to the student's file.

    Sets ``MUSICGAMES_PROGRESS_FILE`` (see :func:`musicgames.progress.default_path`) for this
    kernel, so ``Lesson(...)`` opens the student's file in the class folder. Without a
    student, nothing is recorded (and never in anyone else's file); the page says so, here
    and only here (the lesson's settings panel then shows no name of its own), in the
    lesson's own ``language`` (the address's without one).
    """
    from IPython.display import HTML, display

    _wait_for_the_student()
    name = appmode.student()
    if language is None or language not in LANGUAGES:
        language = page_settings()["language"]
    if name is None:
        os.environ["MUSICGAMES_PROGRESS_FILE"] = os.path.join(
            tempfile.mkdtemp(prefix="musicgames-nobody-"), "none.sqlite3"
        )
        display(HTML(_whose(language, None)))
        return
    store = student_store(name)
    os.environ["MUSICGAMES_PROGRESS_FILE"] = str(store.path)
    store.close()
    display(HTML(_whose(language, name)))

