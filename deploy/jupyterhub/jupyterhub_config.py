# JupyterHub for a school on one server: musicgames for several classes.
#
#     jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# What it sets up (README.md in this folder explains each choice):
#
# * the proxy is configurable-http-proxy, from npm (`npm install -g configurable-http-proxy`);
# * who may log in: local system users (PAM), or first-use passwords (a student picks their
#   password the first time they log in), or, for tests only, anyone with a shared password;
# * each user gets a JupyterLab of their own, opening on the course folder;
# * the course folder (lessons and notebooks) is shared and read-only: every user's home has
#   a `course` link to it;
# * each class has a hand-in folder: a student's progress file *is* their file in their
#   class's hand-in folder (`<hand-in>/<class>/<name>.sqlite3`), so what they do is there as
#   they do it and the teacher's notebook reads the whole class from that folder.
#
# Everything a school changes is read from the environment (or edit the defaults below):
#
#   MUSICGAMES_HUB_CLASSES   a JSON file: {"3b": {"students": ["ana"], "teachers": ["lee"]}}
#   MUSICGAMES_HUB_COURSE    the course folder (default /srv/musicgames/course)
#   MUSICGAMES_HUB_HAND_IN   the classes' hand-in folders (default /srv/musicgames/hand-in)
#   MUSICGAMES_HUB_HOMES     users' folders, "simple" spawner (default /srv/musicgames/users)
#   MUSICGAMES_HUB_STATE     the hub's database and cookie secret (default /srv/musicgames/hub)
#   MUSICGAMES_HUB_AUTH      pam (default) | firstuse | dummy (tests: MUSICGAMES_HUB_PASSWORD)
#   MUSICGAMES_HUB_SPAWNER   local (default: system users) | systemd | simple (one system user)
#   MUSICGAMES_HUB_URL       where the hub listens (default http://:8000; put TLS in front)
# (`get_config` comes from JupyterHub when it loads this file)

import grp
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821

COURSE = Path(os.environ.get("MUSICGAMES_HUB_COURSE", "/srv/musicgames/course"))
HAND_IN = Path(os.environ.get("MUSICGAMES_HUB_HAND_IN", "/srv/musicgames/hand-in"))
HOMES = Path(os.environ.get("MUSICGAMES_HUB_HOMES", "/srv/musicgames/users"))
STATE = Path(os.environ.get("MUSICGAMES_HUB_STATE", "/srv/musicgames/hub"))
AUTH = os.environ.get("MUSICGAMES_HUB_AUTH", "pam")
SPAWNER = os.environ.get("MUSICGAMES_HUB_SPAWNER", "local")
CLASSES_FILE = os.environ.get("MUSICGAMES_HUB_CLASSES", "/srv/musicgames/classes.json")
TEACHERS_GROUP = os.environ.get("MUSICGAMES_HUB_TEACHERS_GROUP", "teachers")  # a system group

# -- classes: who is in which, who teaches it ---------------------------------------------------
CLASSES = json.loads(Path(CLASSES_FILE).read_text(encoding="utf-8"))
STUDENTS = {s: name for name, k in CLASSES.items() for s in k.get("students", [])}
TEACHERS = {t for k in CLASSES.values() for t in k.get("teachers", [])}
c.JupyterHub.load_groups = {
    f"class-{name}": {"users": sorted(k.get("students", []))} for name, k in CLASSES.items()
}
c.JupyterHub.load_groups["teachers"] = {"users": sorted(TEACHERS)}
c.Authenticator.allowed_users = set(STUDENTS) | TEACHERS
c.Authenticator.admin_users = set()  # teachers need no admin rights to read hand-in folders

# -- the hub, the proxy, the state ------------------------------------------------------------
c.JupyterHub.bind_url = os.environ.get("MUSICGAMES_HUB_URL", "http://:8000")
STATE.mkdir(parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
c.ConfigurableHTTPProxy.command = ["configurable-http-proxy"]  # from npm
c.JupyterHub.shutdown_on_logout = True
# Stop servers nobody used for an hour (a class is over): memory back for the next class.
# (pip install jupyterhub-idle-culler)
if importlib.util.find_spec("jupyterhub_idle_culler") is not None:
    c.JupyterHub.services = [{
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout=3600"],
    }]
    c.JupyterHub.load_roles = [{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }]

# -- who may log in ---------------------------------------------------------------------------
if AUTH == "firstuse":
    # pip install jupyterhub-firstuseauthenticator: the first password a user gives is theirs.
    c.JupyterHub.authenticator_class = "firstuseauthenticator.FirstUseAuthenticator"
    c.FirstUseAuthenticator.dbm_path = str(STATE / "passwords.dbm")
    c.FirstUseAuthenticator.create_users = False  # only the names listed in the classes
    c.FirstUseAuthenticator.min_password_length = 8
elif AUTH == "dummy":
    # Tests only: every listed user logs in with one shared password.
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = os.environ["MUSICGAMES_HUB_PASSWORD"]
else:
    c.JupyterHub.authenticator_class = "pam"  # the server's own accounts

# -- each user's server -----------------------------------------------------------------------
c.Spawner.args = []
if SPAWNER == "simple":
    # All users run as the hub's own system user, each in a folder of their own. No isolation:
    # for trying things out and for tests, not for a school.
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
    if os.getuid() == 0:
        c.Spawner.args = ["--allow-root"]  # the hub runs as root: so do the users' servers
elif SPAWNER == "systemd":
    # pip install jupyterhub-systemdspawner: each server a systemd unit with limits.
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.mem_limit = "1G"
    c.SystemdSpawner.cpu_limit = 1.0
    c.SystemdSpawner.readonly_paths = [str(COURSE)]
else:
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"  # system users

c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab/tree/course"
c.Spawner.notebook_dir = "~"
c.Spawner.mem_limit = "1G"  # honoured by systemd/Kubernetes spawners; a guide elsewhere
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 120


def class_of(username: str) -> str | None:
    """The class a student is in (None for a teacher)."""
    return STUDENTS.get(username)


def progress_file(spawner) -> str:  # noqa: ANN001
    """A student's progress file: theirs, in their class's hand-in folder."""
    klass = class_of(spawner.user.name)
    if klass is None:  # a teacher keeps their own file at home
        return ""
    from musicgames.progress import hand_in_name

    return str(HAND_IN / klass / hand_in_name(spawner.user.name))


def hand_in_folder(spawner) -> str:  # noqa: ANN001
    """A student's class hand-in folder (where their progress file already is, so a lesson's
    Hand in box says there is nothing to hand in, rather than offering the course folder)."""
    klass = class_of(spawner.user.name)
    return str(HAND_IN / klass) if klass is not None else ""


def user_home(spawner) -> Path:  # noqa: ANN001
    if SPAWNER == "simple":
        return Path(spawner.home_dir)
    import pwd

    return Path(pwd.getpwnam(spawner.user.name).pw_dir)


def prepare(spawner) -> None:  # noqa: ANN001
    """Before a server starts: the user's `course` link, their class's hand-in folder."""
    home = user_home(spawner)
    home.mkdir(parents=True, exist_ok=True)
    link = home / "course"
    if not link.exists() and not link.is_symlink():
        link.symlink_to(COURSE, target_is_directory=True)
    klass = class_of(spawner.user.name)
    if klass is not None:
        folder = HAND_IN / klass
        folder.mkdir(parents=True, exist_ok=True)
        if SPAWNER != "simple":
            # Students add their own file but cannot list, read or remove the others'
            # (others: -wx, sticky); the teachers' group reads them all (group rwx, setgid).
            try:
                shutil.chown(folder, group=grp.getgrnam(TEACHERS_GROUP).gr_name)
            except KeyError:
                spawner.log.warning("no system group %r: teachers cannot read %s",
                                    TEACHERS_GROUP, folder)
            os.chmod(folder, 0o3773)


c.Spawner.pre_spawn_hook = prepare
c.Spawner.environment = {
    # lessons, drills and games write here (see musicgames.progress.default_path)
    "MUSICGAMES_PROGRESS_FILE": progress_file,
    # the Hand in box of a lesson starts there
    "MUSICGAMES_HAND_IN_FOLDER": hand_in_folder,
    # the teacher's notebook: open_class(os.environ["MUSICGAMES_HAND_IN"] + "/3b")
    "MUSICGAMES_HAND_IN": str(HAND_IN),
}
