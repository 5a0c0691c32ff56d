"""Pyodide's lock file, written for the site's own copies of every wheel.

Pyodide loads a package by looking it up in ``pyodide-lock.json``: the file to fetch (next
to the lock file), its SHA-256 (checked before it is installed), the names it is imported
by and the packages it needs first. npm's ``pyodide`` package holds the lock file of
Pyodide's own build, whose wheels it does not hold; the site's lock file keeps that file's
``info`` (the Python and ABI the core was built for) and lists only the wheels the site
ships, each with its own file name and hash.

A package's needs are read from its wheel's ``Requires-Dist``, as they apply in the
browser (``sys_platform == "emscripten"``); a need the site does not ship is an error,
unless it is one of :data:`~musicgames.lite.packages.LEFT_OUT`.

>>> from pathlib import Path
>>> from musicgames.lite.wheels import WheelInfo
>>> tiny = WheelInfo(Path("tiny-1.0-py3-none-any.whl"), "Tiny", "1.0",
...                  ("numpy>=1", "fsrs", "pexpect; sys_platform != 'emscripten'",
...                   "pytest; extra == 'test'"), ("tiny",))
>>> depends(tiny, {"fsrs", "tiny"})
['fsrs']
>>> depends(tiny, {"tiny"})
Traceback (most recent call last):
...
musicgames.lite.lock.MissingWheelError: Tiny needs fsrs, which the site does not ship
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

from musicgames.lite.packages import LEFT_OUT, normalize
from musicgames.lite.wheels import WheelInfo, sha256

__all__ = ["BROWSER", "MissingWheelError", "depends", "lock_entry", "write_lock"]

#: The browser's Python as environment markers see it (Pyodide 314: CPython 3.14, wasm32).
BROWSER = {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "platform_release": "",
    "platform_version": "",
    "implementation_version": "3.14.2",
    "extra": "",
}


class MissingWheelError(LookupError):
    """A shipped wheel needs a package the site does not ship (and does not leave out)."""


def depends(wheel: WheelInfo, shipped: set[str]) -> list[str]:
    """The packages ``wheel`` needs in the browser, by normalized name; those left out on
    purpose are skipped, any other not in ``shipped`` is a :class:`MissingWheelError`."""
    needs: list[str] = []
    for line in wheel.requires:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate(BROWSER):
            continue
        name = normalize(requirement.name)
        if name in LEFT_OUT or name in needs:
            continue
        if name not in shipped:
            raise MissingWheelError(f"{wheel.name} needs {name}, which the site does not ship")
        needs.append(name)
    return sorted(needs)


def lock_entry(wheel: WheelInfo, shipped: set[str]) -> dict[str, Any]:
    """One package of the lock file: ``wheel`` as the site ships it, next to the lock."""
    return {
        "name": wheel.name,
        "version": wheel.version,
        "file_name": wheel.path.name,
        "install_dir": "site",
        "sha256": sha256(wheel.path),
        "package_type": "package",
        "imports": list(wheel.imports),
        "depends": depends(wheel, shipped),
        "unvendored_tests": False,
    }


def write_lock(pyodide_lock: Path, wheels: Iterable[WheelInfo], target: Path) -> dict[str, Any]:
    """Write ``target``: Pyodide's lock file ``pyodide_lock`` with its packages replaced by
    ``wheels`` (each file next to ``target``). Returns what was written."""
    wheels = list(wheels)
    shipped = {normalize(w.name) for w in wheels}
    stock = json.loads(pyodide_lock.read_text(encoding="utf-8"))
    lock = {
        "info": stock["info"],
        "packages": {normalize(w.name): lock_entry(w, shipped)
                     for w in sorted(wheels, key=lambda w: normalize(w.name))},
    }
    target.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return lock
