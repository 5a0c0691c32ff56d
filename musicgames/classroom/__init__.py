"""The games, practice and lessons as web apps for a class, served from one computer.

``python -m musicgames.classroom`` (or ``make classroom``) starts a small web server (Voila)
with a start page: each student types their name once and opens Note Snap, Keyboard Duel,
the note drill, the chord quiz or a lesson. Every page is an app of its own with its own
kernel, so each student plays their own game; their answers go to their own progress file in
the class folder (``--class-folder``), one file per student.

By default the server listens on this computer only (``127.0.0.1``). To let a class in, bind
it to the local network (``--ip 0.0.0.0``); a token (made up for you, or ``--token``) or a
password (``--password``) is then required, and students open the address printed at start.

>>> options = parse_args(["--ip", "0.0.0.0", "--class-folder", "class"])
>>> options.ip, options.port, options.class_folder.name, options.warm
('0.0.0.0', 8866, 'class', 0)
"""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from musicgames import appmode
from musicgames.classroom.access import is_loopback
from musicgames.classroom.apps import APPS, build_app_folder, find_lessons
from musicgames.progress.files import data_dir

__all__ = [
    "default_lessons",
    "kernel_profile",
    "main",
    "parse_args",
    "voila_config",
]

_PASSWORD_ENV = "MUSICGAMES_CLASS_PASSWORD"

#: The settings of every student's kernel (an IPython profile of the server's own): no
#: command history. A student runs no code; the teacher's own IPython history is left alone,
#: and a class's kernels starting at once do not queue to write to one history file.
KERNEL_SETTINGS = "c.HistoryManager.enabled = False\n"


def kernel_profile(folder: Path) -> Path:
    """Make ``folder`` an IPython folder whose default profile has :data:`KERNEL_SETTINGS`
    (the server's kernels are pointed at it with ``IPYTHONDIR``); returns ``folder``."""
    profile = folder / "profile_default"
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "ipython_kernel_config.py").write_text(KERNEL_SETTINGS, encoding="utf-8")
    return folder


def default_lessons() -> Path | None:
    """Where the lessons are: ``./lessons``, else the ``lessons`` folder of the project."""
    for candidate in (Path.cwd() / "lessons", Path(__file__).resolve().parents[2] / "lessons"):
        if candidate.is_dir():
            return candidate
    return None


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line's options (see ``python -m musicgames.classroom --help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m musicgames.classroom",
        description="Serve the games, practice and lessons as web apps to a class.",
    )
    parser.add_argument("--ip", default="127.0.0.1",
                        help="address to listen on: 127.0.0.1 (this computer only, the "
                             "default) or 0.0.0.0 (the local network; needs a token or "
                             "password)")
    parser.add_argument("--port", type=int, default=8866, help="port (default 8866)")
    parser.add_argument("--class-folder", type=Path, default=data_dir() / "class",
                        help="folder for the students' progress files, one per student "
                             "(default: 'class' in the musicgames data folder)")
    parser.add_argument("--lessons", type=Path, default=None,
                        help="folder of lesson notebooks (default: ./lessons or the "
                             "project's lessons)")
    parser.add_argument("--token", default=None,
                        help="the code students need to get in (made up for you when "
                             "listening beyond this computer)")
    parser.add_argument("--password", action="store_true",
                        help=f"ask for a class password instead of a token (or take it "
                             f"from ${_PASSWORD_ENV})")
    parser.add_argument("--warm", type=int, default=0, metavar="N",
                        help="keep N kernels started ahead for each game and practice app, "
                             "so a student's app opens at once (default 0: none)")
    parser.add_argument("--connect-timeout", type=float, default=60.0, metavar="SECONDS",
                        help="stop an app's kernel when its page has not connected to it "
                             "within SECONDS of being served (default 60)")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="the server sits behind a reverse proxy on this computer (one "
                             "that serves https, say): trust the X-Forwarded-Proto and "
                             "X-Forwarded-For headers it sends. Only behind a proxy: "
                             "anyone reaching the server directly could send them too")
    parser.add_argument("--open", action="store_true", help="open the start page in a browser")
    return parser.parse_args(argv)


def voila_config(options: argparse.Namespace, root: Path) -> dict[str, dict[str, object]]:
    """Voila's settings for these options, serving the app folder ``root``.

    Refuses (``SystemExit``) to serve beyond this computer without a token or password. A
    server behind a reverse proxy serves whoever reaches the proxy, so it is never taken
    for one that serves this computer only, whatever address it listens on.
    """
    loopback = is_loopback(options.ip) and not options.behind_proxy
    config: dict[str, dict[str, object]] = {
        "Voila": {
            "ip": options.ip,
            "port": options.port,
            "port_retries": 0,
            "root_dir": str(root),
            "open_browser": bool(options.open),
        },
        "VoilaConfiguration": {
            "template": "musicgames",
            "show_tracebacks": False,
            "strip_sources": True,
        },
        # A page closed without a goodbye (a laptop shut, the network gone) leaves its kernel
        # behind: stop kernels no page has been connected to for half an hour.
        "MappingKernelManager": {"cull_idle_timeout": 1800, "cull_interval": 300},
        # A page served but never shown (its browser never connected) frees its kernel soon.
        "ClassroomVoila": {"connect_timeout": max(1.0, float(options.connect_timeout)),
                           "trust_xheaders": bool(options.behind_proxy)},
    }
    if os.name == "posix":
        # Kernels talk to the server over Unix sockets, not TCP ports. A kernel told to listen
        # on a free port can find it taken by the time it starts (the ephemeral port of one of
        # the class's many connections) when a whole class opens the apps at once: it dies,
        # and Voila keeps that student's page waiting for ever (seen at 40 students).
        config["KernelManager"] = {"transport": "ipc"}
    if options.warm > 0:
        # Voila starts these kernels ahead and runs each app's notebook until it waits for
        # its student (see musicgames.classroom.kernel.open_app); lessons start as asked.
        pools: dict[str, object] = {"default": {"pool_size": 0}}
        pools.update({app.notebook: {"pool_size": options.warm} for app in APPS})
        config["VoilaConfiguration"]["preheat_kernel"] = True
        config["VoilaKernelManager"] = {"kernel_pools_config": pools}
    if options.password:
        password = os.environ.get(_PASSWORD_ENV) or getpass.getpass("Class password: ")
        if not password:
            raise SystemExit("an empty password lets anyone in: give one, or use a token")
        from jupyter_server.auth import passwd

        config["PasswordIdentityProvider"] = {"hashed_password": passwd(password)}
        config["Voila"]["token"] = ""
    elif options.token is not None and options.token != "":
        config["Voila"]["token"] = options.token
    elif options.token == "" and not loopback:
        reach = "--behind-proxy" if options.behind_proxy else f"--ip {options.ip}"
        raise SystemExit(f"{reach} lets the network in: a token or a password is required")
    elif not loopback:
        config["Voila"]["token"] = secrets.token_urlsafe(8)
    return config


def main(argv: Sequence[str] | None = None) -> int:
    """Run the classroom server until stopped (Ctrl+C)."""
    from traitlets.config import Config

    from musicgames.classroom.server import ClassroomVoila, share_on_jupyter_path
    from musicgames.kept import DRAWINGS_ENV

    options = parse_args(argv)
    class_folder = options.class_folder.expanduser().resolve()
    class_folder.mkdir(parents=True, exist_ok=True)
    lessons_dir = options.lessons if options.lessons is not None else default_lessons()
    with tempfile.TemporaryDirectory(prefix="musicgames-classroom-") as tmp, \
            tempfile.TemporaryDirectory(prefix="musicgames-kernels-") as kernels:
        root = Path(tmp)
        served = build_app_folder(root, find_lessons(lessons_dir))
        config = voila_config(options, root)
        os.environ["IPYTHONDIR"] = str(kernel_profile(Path(kernels)))
        # the cards are engraved once for the class, not once per student
        os.environ[DRAWINGS_ENV] = str(Path(kernels) / "drawings")
        (Path(kernels) / "drawings").mkdir()
        os.environ[appmode.APP_ENV] = "1"
        os.environ[appmode.CLASS_FOLDER_ENV] = str(class_folder)
        os.environ.pop("MUSICGAMES_PROGRESS_FILE", None)
        share_on_jupyter_path()
        app = ClassroomVoila(config=Config(config))
        app.lessons = served
        app.initialize([])
        token = config["Voila"].get("token") or ""
        host = options.ip if options.ip not in ("0.0.0.0", "::", "") else _lan_address()
        where = f"http://{host}:{options.port}/" + (f"?token={token}" if token else "")
        print(f"musicgames classroom: students open {where}", file=sys.stderr)
        print(f"progress files go to {class_folder}", file=sys.stderr)
        print(f"lessons: {len(served)} from {lessons_dir}", file=sys.stderr)
        playing = playing_note(options)
        if playing:
            print(playing, file=sys.stderr)
        app.start()
    return 0


def playing_note(options: argparse.Namespace) -> str | None:
    """What to tell the teacher at start about answering by playing: browsers give a MIDI
    keyboard and the microphone only to a secure page (https, or this computer), so on the
    network over plain http the students' apps cannot use them.

    >>> playing_note(parse_args([])) is None  # this computer only
    True
    >>> playing_note(parse_args(["--ip", "0.0.0.0", "--behind-proxy"])) is None  # https
    True
    >>> print(playing_note(parse_args(["--ip", "0.0.0.0"])))
    note: over plain http, students on other computers cannot answer on a MIDI keyboard or
    through the microphone (browsers give them to https pages only): put the server behind
    an https proxy and start it with --behind-proxy (see the README, "In the classroom").
    """
    if is_loopback(options.ip) or options.behind_proxy:
        return None
    return ("note: over plain http, students on other computers cannot answer on a MIDI "
            "keyboard or\nthrough the microphone (browsers give them to https pages only): "
            "put the server behind\nan https proxy and start it with --behind-proxy (see the "
            'README, "In the classroom").')


def _lan_address() -> str:
    """This computer's address on the local network, as well as can be told offline."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: this picks a route
            return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
