"""Fetching what the site is made of into a build cache, from the package registries only.

Pyodide's core comes from npm (``npm pack``), every wheel from PyPI (``pip download``); what
the cache already holds is not fetched again, so a second build asks the network nothing.

>>> wheel_key("prompt_toolkit-3.0.52-py3-none-any.whl")
('prompt-toolkit', '3.0.52')
>>> wheel_key("notes.txt") is None
True
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from musicgames.lite.packages import PYODIDE_NPM, PYODIDE_VERSION, normalize, pip_requirements

__all__ = ["DownloadError", "pyodide_core", "wheel_key", "wheels"]


class DownloadError(RuntimeError):
    """A registry could not give what the site needs (no network, or no such version)."""


def wheel_key(file_name: str) -> tuple[str, str] | None:
    """A wheel file's project (normalized) and version, read from its name; ``None`` for
    a file that is not a wheel."""
    if not file_name.endswith(".whl"):
        return None
    name, version = file_name.split("-")[:2]
    return normalize(name), version


def _run(command: list[str], cwd: Path, what: str) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise DownloadError(f"{what} failed ({' '.join(command[:3])} …):\n{done.stderr[-2000:]}")


def pyodide_core(cache: Path) -> Path:
    """The folder of Pyodide's core (``pyodide.mjs``, ``pyodide.asm.wasm``,
    ``python_stdlib.zip``, ``pyodide-lock.json``), packed by npm into ``cache`` once."""
    cache = cache.resolve()
    folder = cache / f"pyodide-{PYODIDE_VERSION}"
    if (folder / "pyodide-lock.json").is_file():
        return folder
    packs = cache / "npm"
    packs.mkdir(parents=True, exist_ok=True)
    archive = packs / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not archive.is_file():
        if shutil.which("npm") is None:
            raise DownloadError("npm is needed to fetch Pyodide's core (npm's pyodide package)")
        _run(["npm", "pack", PYODIDE_NPM, "--pack-destination", str(packs)],
             cwd=packs, what=f"npm pack {PYODIDE_NPM}")
    unpacked = cache / f"pyodide-{PYODIDE_VERSION}.part"
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    shutil.rmtree(folder, ignore_errors=True)
    (unpacked / "package").rename(folder)
    shutil.rmtree(unpacked, ignore_errors=True)
    return folder


def wheels(cache: Path) -> Path:
    """The folder of every wheel :func:`~musicgames.lite.packages.pip_requirements` names,
    fetched from PyPI into ``cache`` (only those not there yet)."""
    folder = cache.resolve() / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    have = {key for f in folder.iterdir() if (key := wheel_key(f.name))}
    missing = [r for r in pip_requirements()
               if (normalize(r.split("==")[0]), r.split("==")[1]) not in have]
    if missing:
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
              "--no-deps", "--only-binary=:all:", "--implementation", "py", "--abi", "none",
              "--platform", "any", "--python-version", "3.14", "--dest", str(folder),
              *missing], cwd=folder, what="pip download")
    return folder
