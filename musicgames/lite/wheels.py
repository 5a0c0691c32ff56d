"""Wheels: what one says about itself, musicgames' own made from the source tree, and
slimmer copies of big ones.

A wheel is a zip file of a package's files and a ``*.dist-info`` folder (``METADATA``,
``WHEEL``, ``RECORD``). The site's wheels are pure Python (``py3-none-any``), so Pyodide
installs them by unzipping.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> made = write_wheel(folder, "tiny", "1.0", {"tiny/__init__.py": b"X = 1\\n"},
...                    requires=["fsrs>=6"])
>>> made.name
'tiny-1.0-py3-none-any.whl'
>>> info = read_wheel(made)
>>> info.name, info.version, info.requires, info.imports
('tiny', '1.0', ('fsrs>=6',), ('tiny',))
"""

from __future__ import annotations

import base64
import hashlib
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

__all__ = [
    "WheelInfo",
    "musicgames_wheel",
    "read_wheel",
    "sha256",
    "slimmed",
    "write_archive",
    "write_wheel",
]

_ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # every file the same date: the same input, the same wheel


@dataclass(frozen=True)
class WheelInfo:
    """What a wheel says about itself: its project's name and version, its requirements
    (``Requires-Dist``, markers and all) and the names it can be imported by."""

    path: Path
    name: str
    version: str
    requires: tuple[str, ...]
    imports: tuple[str, ...]


def sha256(path: Path) -> str:
    """The SHA-256 of a file, in hex (Pyodide checks every wheel it loads against it)."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _dist_info(names: Sequence[str]) -> str:
    found = [n.split("/")[0] for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    if len(found) != 1:
        raise ValueError(f"not a wheel: {len(found)} dist-info folders")
    return found[0]


def _top_level(names: Sequence[str], dist_info: str) -> tuple[str, ...]:
    """The importable top-level names: packages (a folder with ``__init__.py``, or a
    namespace folder of modules) and single modules, as ``top_level.txt`` would list them."""
    tops: set[str] = set()
    for name in names:
        first, _, rest = name.partition("/")
        if first == dist_info or first.endswith(".data"):
            continue
        if not rest and first.endswith((".py", ".pyc")):
            tops.add(first.rsplit(".", 1)[0])
        elif rest and (rest.endswith((".py", ".pyc")) or "/" in rest) and first.isidentifier():
            tops.add(first)
    return tuple(sorted(tops))


def read_wheel(path: Path) -> WheelInfo:
    """Read a wheel's name, version, requirements and top-level import names."""
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        dist_info = _dist_info(names)
        metadata = HeaderParser().parsestr(
            wheel.read(f"{dist_info}/METADATA").decode("utf-8"))
        top_level = f"{dist_info}/top_level.txt"
        if top_level in names:
            imports = tuple(sorted(
                line.strip() for line in wheel.read(top_level).decode().splitlines()
                if line.strip() and "/" not in line))
        else:
            imports = _top_level(names, dist_info)
    return WheelInfo(path, str(metadata["Name"]), str(metadata["Version"]),
                     tuple(str(r) for r in metadata.get_all("Requires-Dist") or ()), imports)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(folder: Path, name: str, version: str, files: Mapping[str, bytes], *,
                requires: Sequence[str] = (), summary: str = "") -> Path:
    """Write a pure-Python wheel of ``files`` (path in the wheel: content) into ``folder``,
    with its ``METADATA``, ``WHEEL`` and ``RECORD``; the same input gives the same bytes."""
    stem = f"{re.sub(r'[-_.]+', '_', name)}-{version}"
    dist_info = f"{stem}.dist-info"
    metadata = "".join([
        "Metadata-Version: 2.1\n", f"Name: {name}\n", f"Version: {version}\n",
        f"Summary: {summary}\n" if summary else "",
        *(f"Requires-Dist: {r}\n" for r in requires),
    ])
    everything = {
        **files,
        f"{dist_info}/METADATA": metadata.encode(),
        f"{dist_info}/WHEEL": (b"Wheel-Version: 1.0\nGenerator: musicgames.lite\n"
                               b"Root-Is-Purelib: true\nTag: py3-none-any\n"),
    }
    return write_archive(folder / f"{stem}-py3-none-any.whl", everything,
                         f"{dist_info}/RECORD")


def write_archive(target: Path, files: Mapping[str, bytes], record: str | None) -> Path:
    """Write the zip file ``target`` of ``files`` (name: content), each with the same date;
    with a wheel's ``record`` (its ``RECORD``'s name) listing them all, unless ``None``."""
    everything = dict(files)
    if record is not None:
        lines = [_record_line(n, data) for n, data in sorted(files.items())] + [f"{record},,"]
        everything[record] = ("\n".join(lines) + "\n").encode()
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name in sorted(everything):
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, everything[name])
    part.replace(target)
    return target


#: The files of the musicgames package a wheel carries (as pyproject.toml's package data).
_PACKAGE_FILES = (".py", ".js", ".css", ".json", ".j2", ".typed")


def musicgames_wheel(source: Path, folder: Path, version: str,
                     requires: Sequence[str]) -> Path:
    """musicgames' own wheel, made from the package folder ``source`` as it is now (the
    working tree, not an installed copy)."""
    files = {
        f"musicgames/{path.relative_to(source).as_posix()}": path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file() and path.suffix in _PACKAGE_FILES and "__pycache__" not in path.parts
    }
    return write_wheel(folder, "musicgames", version, files, requires=requires,
                       summary="Note reading and chord tones through play")


def slimmed(wheel: Path, folder: Path, keep: Callable[[str], bool]) -> Path:
    """A copy of ``wheel`` in ``folder`` holding only the files ``keep`` says yes to (the
    dist-info is always kept, its ``RECORD`` written anew), under the same file name."""
    with zipfile.ZipFile(wheel) as source:
        names = source.namelist()
        dist_info = _dist_info(names)
        record = f"{dist_info}/RECORD"
        files = {n: source.read(n) for n in names
                 if not n.endswith("/") and n != record
                 and (n.startswith(f"{dist_info}/") or keep(n))}
    return write_archive(folder / wheel.name, files, record)
