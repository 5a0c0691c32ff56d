"""Whether a notebook runs as an app for a class, and for which student.

The classroom server (``python -m musicgames.classroom``) shows the games, drills, quizzes and
lessons as web apps (Voila): students see the outputs only, never code cells, and cannot run
anything. It tells its kernels so through environment variables, and widgets and notebooks ask
this module rather than reading them:

* :func:`in_app` — ``True`` under the classroom server. A widget or a notebook then says
  nothing about running cells, menus or keyboard shortcuts of JupyterLab;
* :func:`class_folder` — the folder the teacher chose for the class's progress files;
* :func:`hand_in_folder` — the folder students hand their progress in to, when one is set;
* :func:`student` — the student's name, which the start page asks once and passes to each app
  in its address (``?student=Ana``); under JupyterHub, the hub's user name;
* :func:`student_file` — that student's own progress file in the class folder;
* :func:`address_value` — another choice the start page passed in the address
  (``language``, ``naming``);
* :func:`lesson_link` — where a lesson's link to another lesson points (on the static site,
  the page that opens that lesson).

Outside the classroom server nothing is set:

>>> import os
>>> os.environ.pop(APP_ENV, None) and None
>>> os.environ.pop("JUPYTERHUB_USER", None) and None
>>> in_app(), student()
(False, None)

Names are tidied (spaces trimmed and collapsed); two spellings that differ only in case,
spaces or punctuation are the same student and share one file:

>>> student_file("  Ana  María ", "class").as_posix()
'class/ana-maría.sqlite3'
>>> student_file("ana maría!", "class") == student_file("Ana María", "class")
True
"""

from __future__ import annotations

import os
import posixpath
import re
import unicodedata
from pathlib import Path
from urllib.parse import parse_qs, urljoin

from musicgames.progress.hand_in import hand_in_name
from musicgames.progress.store import ProgressStore

__all__ = [
    "APP_ENV",
    "CLASS_FOLDER_ENV",
    "CLASS_SETTINGS_FOLDER",
    "HAND_IN_FOLDER_ENV",
    "NotANameError",
    "address_value",
    "class_folder",
    "clean_name",
    "hand_in_folder",
    "in_app",
    "lesson_link",
    "student",
    "student_file",
    "student_store",
]

#: Set to ``"1"`` by the classroom server for the kernels of its apps.
APP_ENV = "MUSICGAMES_APP"
#: The class folder (progress files, one per student), set by the classroom server.
CLASS_FOLDER_ENV = "MUSICGAMES_CLASS_FOLDER"
#: In a class folder: the hidden folder of the students' lesson settings, one file each
#: (:mod:`musicgames.lessons.settings`).
CLASS_SETTINGS_FOLDER = ".lesson-settings"
#: The class's hand-in folder, set by a school for its students (the JupyterHub configuration
#: sets each student's class folder), or by a teacher for a class on a shared drive.
HAND_IN_FOLDER_ENV = "MUSICGAMES_HAND_IN_FOLDER"
#: The query string of the app's address; Voila puts it in its kernels' environment.
_QUERY_ENV = "QUERY_STRING"
#: JupyterHub names the user of each single-user server in its environment.
_HUB_USER_ENV = "JUPYTERHUB_USER"
#: On the static site (:mod:`musicgames.lite`): the folder of the pages that open the
#: lessons, seen from the page a lesson is shown in, mirroring the lesson's own folder.
LESSON_PAGES_ENV = "MUSICGAMES_LESSON_PAGES"
_MAX_NAME = 60


class NotANameError(ValueError):
    """A student's name that cannot name a progress file: empty, or with no letter or digit."""


def in_app() -> bool:
    """``True`` when this kernel runs a notebook as an app of the classroom server."""
    return os.environ.get(APP_ENV, "") == "1"


def class_folder() -> Path | None:
    """The class folder the teacher chose, when running under the classroom server."""
    folder = os.environ.get(CLASS_FOLDER_ENV, "").strip()
    return Path(folder) if folder else None


def hand_in_folder() -> Path | None:
    """The folder the class hands its progress in to, when one is set:
    ``$MUSICGAMES_HAND_IN_FOLDER``, else the class folder of the classroom server; else
    ``None`` (then a student types the folder the teacher gives).

    >>> os.environ[HAND_IN_FOLDER_ENV] = "/shared/hand-in/3b"
    >>> hand_in_folder().as_posix()
    '/shared/hand-in/3b'
    >>> del os.environ[HAND_IN_FOLDER_ENV]
    """
    folder = os.environ.get(HAND_IN_FOLDER_ENV, "").strip()
    if folder:
        return Path(folder).expanduser()
    return class_folder() if in_app() else None


def clean_name(name: str) -> str:
    """A student's name as typed, trimmed, with inner spaces collapsed (at most 60 letters).

    >>> clean_name("  José   Luis ")
    'José Luis'
    >>> clean_name("   ")
    Traceback (most recent call last):
    ...
    musicgames.appmode.NotANameError: '   ' is not a name: type at least one letter or digit
    """
    cleaned = " ".join(unicodedata.normalize("NFC", str(name)).split())[:_MAX_NAME]
    if not _slug(cleaned):
        raise NotANameError(f"{name!r} is not a name: type at least one letter or digit")
    return cleaned


def student() -> str | None:
    """The student's name, when the server knows it: under the classroom server the name
    given to this app (``?student=`` in its address); under JupyterHub the user's name
    (``$JUPYTERHUB_USER``); else ``None``. A name that is not a name counts as none.
    """
    if not in_app():
        hub_user = os.environ.get(_HUB_USER_ENV, "")
        try:
            return clean_name(hub_user) if hub_user else None
        except NotANameError:
            return None
    value = address_value("student")
    if value is None:
        return None
    try:
        return clean_name(value)
    except NotANameError:
        return None


def address_value(key: str) -> str | None:
    """The value of ``key`` in this classroom app's address (``?naming=letters``), or
    ``None`` when the address has none (or this is not a classroom app).

    Only the address counts: it is this page's, so two students on one server never see
    each other's choices.
    """
    if not in_app():
        return None
    values = parse_qs(os.environ.get(_QUERY_ENV, "")).get(key)
    return values[0] if values else None


def lesson_link(href: str, pages: str | None = None) -> str:
    """The address of the lesson notebook ``href`` (written from a lesson's own folder, as
    the lessons link to each other) as a page must write it: the notebook itself in
    JupyterLab and the classroom; on the static site, the page that opens that lesson
    (``pages``: the folder of the pages of the lessons in the linking lesson's folder; by
    default, as the site said).

    >>> os.environ.pop(LESSON_PAGES_ENV, None) and None
    >>> lesson_link("../fr/01-la-portee.ipynb")
    '../fr/01-la-portee.ipynb'
    >>> os.environ[LESSON_PAGES_ENV] = "../play/lessons/es/"
    >>> lesson_link("../fr/01-la-portee.ipynb")
    '../play/lessons/fr/01-la-portee.html'
    >>> lesson_link("../01-the-staff.ipynb", "https://school.org/music/play/lessons/es/")
    'https://school.org/music/play/lessons/01-the-staff.html'
    >>> del os.environ[LESSON_PAGES_ENV]
    """
    pages = pages or os.environ.get(LESSON_PAGES_ENV)
    if not pages:
        return href
    if "://" in pages:  # a whole address
        page = urljoin(pages, href)
    else:
        page = posixpath.normpath(posixpath.join(pages, href))
    return page.removesuffix(".ipynb") + ".html"


def student_file(name: str, folder: str | os.PathLike[str] | None = None) -> Path:
    """The progress file of student ``name`` in ``folder`` (default: :func:`class_folder`).

    One file per student, named after the student as a hand-in copy is
    (:func:`musicgames.progress.hand_in.hand_in_name`): letters and digits kept (any
    alphabet), lower case, everything else turned into single hyphens.
    """
    root = Path(folder) if folder is not None else class_folder()
    if root is None:
        raise NotANameError("no class folder: give one, or run under the classroom server")
    return root / hand_in_name(_slug(clean_name(name)))


def student_store(name: str, folder: str | os.PathLike[str] | None = None) -> ProgressStore:
    """The progress file of student ``name`` in ``folder`` (default: :func:`class_folder`),
    open for writing.

    The file carries the student's name; a name spelt differently but naming the same file
    (``ana`` for ``Ana``) keeps the name the file was first given, so a game and a lesson
    both write to it, whichever spelling the student typed.
    """
    store = ProgressStore(student_file(name, folder))
    if store.student is None:
        store.set_student(clean_name(name))
    return store


def _slug(name: str) -> str:
    return re.sub(r"[\W_]+", "-", name.casefold()).strip("-")
