"""The whole build of the static site: ``python -m musicgames.lite build --out site/``.

1. Fetch Pyodide's core (npm) and every wheel (PyPI) into the build cache
   (:mod:`~musicgames.lite.download`); a second build fetches nothing.
2. Put the browser's Python together in ``static/pyodide/``: the core, the wheels (music21
   and Babel slimmed, see :data:`~musicgames.lite.packages.SLIMMED`), musicgames' own wheel
   made from this source tree, the drawings made now (:mod:`~musicgames.lite.drawings`),
   and a lock file for exactly these (:mod:`~musicgames.lite.lock`). Every package is
   loaded as the kernel starts. Every module, the standard library's too, is shipped
   compiled for Pyodide's Python (:mod:`~musicgames.lite.bytecode`).
3. Let JupyterLite build its console app around it, with the front-end extensions taken
   from the same wheels as the Python packages they talk to (the kernel, ipywidgets'
   widget manager, anywidget), and nothing from this machine's own Jupyter.
   The lessons, made ready at build time (:mod:`~musicgames.lite.course`), are a small
   wheel of their own too.
4. Write the start pages and the pages of the apps and lessons
   (:mod:`~musicgames.lite.pages`).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from musicgames.lite import bytecode, course, download, drawings, lock, pages, wheels
from musicgames.lite.packages import (
    BROWSER_WHEELS,
    FRONT_END_WHEELS,
    KERNEL_EXTENSION,
    LEFT_OUT,
    normalize,
)

__all__ = [
    "BuildError",
    "Built",
    "build",
    "build_if_changed",
    "folder_size",
    "slimming",
    "source_stamp",
]

#: The files of Pyodide's core the site serves (npm's package also holds a console page,
#: type declarations and source maps, which no student loads).
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: The kernel's own wheels inside its extension: those the kernel loads as it starts.
KERNEL_WHEELS = ("piplite", "pyodide-kernel", "ipykernel", "widgetsnbextension")
_KERNEL_PYPI = "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi/"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"


class BuildError(RuntimeError):
    """The site could not be built (what is missing is said)."""


@dataclass(frozen=True)
class Built:
    """A site just built: where, its size in bytes, the packages its Python loads."""

    site: Path
    size: int
    packages: tuple[str, ...]


def folder_size(folder: Path) -> int:
    """The bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _keep_music21(name: str) -> bool:
    """music21 without its corpus of scores (the corpus' code stays: music21 imports it)."""
    corpus = "music21/corpus/"
    return not (name.startswith(corpus) and "/" in name[len(corpus):])


def _keep_babel(name: str) -> bool:
    """Babel with the locale data of English, Spanish and French (and the root they
    inherit from) only."""
    match = re.fullmatch(r"babel/locale-data/([^/]+)\.dat", name)
    return match is None or re.match(r"(en|es|fr|root)(_|$)", match.group(1)) is not None


def slimming() -> dict[str, Callable[[str], bool]]:
    """For each slimmed wheel (normalized name), which of its files the site keeps."""
    return {"music21": _keep_music21, "babel": _keep_babel}


def _wheel_file(folder: Path, name: str, version: str) -> Path:
    for path in folder.glob("*.whl"):
        if download.wheel_key(path.name) == (name, version):
            return path
    raise BuildError(f"{name}=={version} is not in {folder}")


def _kernel_wheels(extension: Path, target: Path) -> list[Path]:
    """The kernel's own wheels, taken out of its extension's wheel into ``target``."""
    found = []
    with zipfile.ZipFile(extension) as outer:
        for member in outer.namelist():
            _, _, rest = member.partition(".data/data/")
            if not rest.startswith(_KERNEL_PYPI) or not member.endswith(".whl"):
                continue
            file_name = rest[len(_KERNEL_PYPI):]
            key = download.wheel_key(file_name)
            if key is None or key[0] not in KERNEL_WHEELS or key[1].startswith("3."):
                continue  # widgetsnbextension 3.6.999 is for ipywidgets 7
            (target / file_name).write_bytes(outer.read(member))
            found.append(target / file_name)
    if len(found) != len(KERNEL_WHEELS):
        raise BuildError(f"the kernel's wheels in {extension.name}: found {found}")
    return found


def _pyproject(source: Path) -> tuple[str, list[str]]:
    """musicgames' version and the requirements it has in the browser (pyproject.toml's,
    without those left out)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        raise BuildError("building the site needs Python 3.11 or newer (tomllib)") from None
    project = tomllib.loads((source.parent / "pyproject.toml").read_text("utf-8"))["project"]
    requires = [r for r in project["dependencies"]
                if normalize(re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0]) not in LEFT_OUT]
    return str(project["version"]), requires


def _python_files(cache: Path, source: Path, target: Path,
                  lessons: Path) -> list[wheels.WheelInfo]:
    """Every wheel of the browser's Python, put into ``target`` (the lessons from the
    folder ``lessons``, made ready)."""
    pypi = download.wheels(cache)
    slim = slimming()
    made: list[Path] = []
    for name, version in BROWSER_WHEELS.items():
        wheel = _wheel_file(pypi, name, version)
        if name in slim:
            made.append(wheels.slimmed(wheel, target, slim[name]))
        else:
            made.append(Path(shutil.copy2(wheel, target / wheel.name)))
    made += _kernel_wheels(_wheel_file(pypi, normalize(KERNEL_EXTENSION[0]),
                                       KERNEL_EXTENSION[1]), target)
    version, requires = _pyproject(source)
    made.append(wheels.musicgames_wheel(source, target, version, requires))
    kept = drawings.make_drawings(cache / "drawings")
    made.append(wheels.write_wheel(target, "musicgames-drawings", version,
                                   drawings.drawings_files(kept)))
    made.append(wheels.write_wheel(target, "musicgames-lessons", version,
                                   course.lesson_files(lessons)))
    return [wheels.read_wheel(path) for path in made]


def _lite_config(stage: Path, packages: list[str], extensions: list[Path], out: Path) -> None:
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Music games",
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": packages},
                }
            },
        },
    }
    (stage / "jupyter-lite.json").write_text(json.dumps(settings, indent=1), "utf-8")
    config = {
        "LiteBuildConfig": {
            "apps": ["repl"],
            "federated_extensions": [str(p) for p in extensions],
            "ignore_sys_prefix": True,
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            "contents": [],
            "output_dir": str(out),
        }
    }
    (stage / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1), "utf-8")


def build(out: Path, cache: Path, source: Path | None = None) -> Built:
    """Build the site into ``out`` (emptied first), fetching into and reading from
    ``cache``; musicgames' own code comes from the package folder ``source`` (this one)."""
    source = source or Path(__file__).resolve().parents[1]
    cache = cache.resolve()
    out = out.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    core = download.pyodide_core(cache)
    stage = cache / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    python = stage / "static" / "pyodide"
    python.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy2(core / name, python / name)
    lessons = course.make_lessons(cache / "lessons")
    shipped = _python_files(cache, source, python, cache / "lessons")
    bytecode.compile_archives([python / "python_stdlib.zip", *(w.path for w in shipped)],
                              core, cache / "bytecode")
    written = lock.write_lock(core / "pyodide-lock.json", shipped, python / "pyodide-lock.json")
    packages = sorted(written["packages"])
    pypi = cache / "wheels"
    extensions = [_wheel_file(pypi, normalize(KERNEL_EXTENSION[0]), KERNEL_EXTENSION[1]),
                  *(_wheel_file(pypi, n, v) for n, v in FRONT_END_WHEELS.items())]
    _lite_config(stage, packages, extensions, out)
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(stage),
         "--output-dir", str(out)],
        cwd=stage, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"jupyter lite build failed:\n{(done.stdout + done.stderr)[-4000:]}")
    pages.write_pages(out, lessons)
    return Built(out, folder_size(out), tuple(packages))


#: In a built site: the :func:`source_stamp` of what it was built from.
STAMP_FILE = ".musicgames-source"


def source_stamp(source: Path | None = None) -> str:
    """A fingerprint of what a site is made from: every file of the musicgames package
    ``source`` (this one), the pinned versions included."""
    source = source or Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(source).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build_if_changed(out: Path, cache: Path) -> Built:
    """The site in ``out``, built again only if musicgames changed since it was built."""
    stamp = source_stamp()
    kept = out / STAMP_FILE
    if kept.is_file() and kept.read_text(encoding="utf-8") == stamp:
        lock_file = json.loads((out / "static" / "pyodide" / "pyodide-lock.json").read_text(
            encoding="utf-8"))
        return Built(out.resolve(), folder_size(out), tuple(sorted(lock_file["packages"])))
    built = build(out, cache)
    kept.write_text(stamp, encoding="utf-8")
    return built
