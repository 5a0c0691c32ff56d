"""Python compiled ahead for the browser: every module of the site as bytecode (``.pyc``).

Pyodide's standard library (``python_stdlib.zip``) and PyPI's wheels hold Python sources,
which the browser's Python would compile again on every visit, in WebAssembly: most of a
game's start went there. The build compiles them once with Pyodide's own Python (its
bytecode is tied to its exact Python version), run in Node from the same core the site
ships, and each archive keeps a ``.pyc`` in the place of each ``.py`` — as Pyodide's own
packages do (pyodide-build's ``py-compile``). What is compiled is kept in the build cache
under the archive's SHA-256, so a second build compiles only what changed (musicgames' own
wheel).

>>> compiled_name("music21/pitch.py"), compiled_name("music21/corpus/bach.mxl")
('music21/pitch.pyc', None)
>>> compiled_name("ipywidgets-8.1.9.data/scripts/x.py") is None
True
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from musicgames.lite import wheels

__all__ = ["BytecodeError", "compile_archives", "compiled_name"]

#: Pyodide's standard library, in its core.
STDLIB_FILE = "python_stdlib.zip"
#: Goes up when what is compiled changes, so that nothing compiled before is taken again.
_MADE_BY = "1"

_NODE_SCRIPT = r"""
// Compile every .py under the folders named in the plan with Pyodide's own Python.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [core, planFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(core + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: core + "/" });
const plan = JSON.parse(readFileSync(planFile, "utf-8"));
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: plan.root }, "/work");
py.globals.set("folders", py.toPy(plan.folders));
py.runPython(`
import os, py_compile, warnings
warnings.simplefilter("ignore")  # invalid escapes and such in the packages' own tests
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
for folder, shown_as in folders.items():
    top = "/work/" + folder
    for base, _, files in os.walk(top):
        for name in files:
            if name.endswith(".py"):
                source = os.path.join(base, name)
                py_compile.compile(source, cfile=source + "c",
                                   dfile=shown_as + source[len(top) + 1:],
                                   doraise=False, quiet=2, invalidation_mode=mode)
`);
"""


class BytecodeError(RuntimeError):
    """Pyodide's Python could not be run to compile the site's modules."""


def compiled_name(member: str) -> str | None:
    """The name of the ``.pyc`` that stands for the archive's ``member``, if it is a module
    the browser imports (not a wheel's scripts or data)."""
    if not member.endswith(".py") or ".data/" in member or ".dist-info/" in member:
        return None
    return member + "c"


def _shown_as(archive: Path, python: str) -> str:
    """The folder a module of ``archive`` is in, in the browser (as tracebacks name it)."""
    major, minor = python.split(".")[:2]
    if archive.name == STDLIB_FILE:
        return f"/lib/python{major}{minor}.zip/"
    return f"/lib/python{major}.{minor}/site-packages/"


def _rewrite(archive: Path, extracted: Path, target: Path) -> None:
    """``archive`` with each compiled module's ``.py`` replaced by its ``.pyc``."""
    wheel = archive.suffix == ".whl"
    with zipfile.ZipFile(archive) as source:
        files: dict[str, bytes] = {}
        for info in source.infolist():
            if info.is_dir():
                if not wheel:  # the standard library's folders stay listed, as they were
                    files[info.filename] = b""
                continue
            name = compiled_name(info.filename)
            made = extracted / name if name else None
            if made is not None and made.is_file():
                files[str(name)] = made.read_bytes()
            else:
                files[info.filename] = source.read(info)
    if wheel:
        record = next(n for n in files if n.endswith(".dist-info/RECORD"))
        del files[record]
        wheels.write_archive(target, files, record)
    else:
        wheels.write_archive(target, files, None)


def _run_pyodide(core: Path, root: Path, folders: dict[str, str]) -> None:
    node = shutil.which("node")
    if node is None:
        raise BytecodeError("Node (node) is needed to compile the site's Python with Pyodide")
    (root / "compile.mjs").write_text(_NODE_SCRIPT, encoding="utf-8")
    (root / "plan.json").write_text(json.dumps({"root": str(root), "folders": folders}),
                                    encoding="utf-8")
    done = subprocess.run([node, str(root / "compile.mjs"), str(core.resolve()),
                           str(root / "plan.json")],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BytecodeError(f"compiling with Pyodide in Node failed:\n{done.stderr[-2000:]}")


def compile_archives(archives: Sequence[Path], core: Path, cache: Path) -> None:
    """Replace each of ``archives`` (wheels, and Pyodide's ``python_stdlib.zip``) by its
    compiled copy, compiled by the Pyodide in ``core`` (whose lock file says its Python)
    and kept in ``cache``."""
    python = json.loads((core / "pyodide-lock.json").read_text("utf-8"))["info"]["python"]
    cache.mkdir(parents=True, exist_ok=True)
    to_do: dict[Path, Path] = {}
    for archive in archives:
        kept = cache / f"{_MADE_BY}-{wheels.sha256(archive)[:20]}-{archive.name}"
        if kept.is_file():
            shutil.copyfile(kept, archive)
        else:
            to_do[archive] = kept
    if not to_do:
        return
    with tempfile.TemporaryDirectory(prefix="bytecode-") as work:
        root = Path(work)
        folders: dict[str, str] = {}
        for number, archive in enumerate(to_do):
            with zipfile.ZipFile(archive) as source:
                for member in source.namelist():
                    if compiled_name(member):
                        source.extract(member, root / str(number))
            folders[str(number)] = _shown_as(archive, python)
        _run_pyodide(core, root, folders)
        for number, (archive, kept) in enumerate(to_do.items()):
            _rewrite(archive, root / str(number), kept)
            shutil.copyfile(kept, archive)
