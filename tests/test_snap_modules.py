"""The Note Snap engine's modules each do one job: none over 800 lines, no import circle
among them (imports inside functions count; only ``if TYPE_CHECKING:`` ones may point
back), and nothing of a widget, a display or a clock."""

from __future__ import annotations

import ast
from pathlib import Path

import musicgames.snap

SNAP = Path(musicgames.snap.__file__).parent
MOST_LINES = 800


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports, at run time (``TYPE_CHECKING`` blocks left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _module(path: Path) -> str:
    name = "musicgames.snap" if path.name == "__init__.py" else f"musicgames.snap.{path.stem}"
    return name


def test_no_module_of_the_engine_is_over_800_lines() -> None:
    long = {p.name: n for p in SNAP.glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, long


def test_no_import_circle_inside_the_engine() -> None:
    modules = {_module(p): p for p in SNAP.glob("*.py") if p.name != "__main__.py"}
    graph = {
        name: {m for m in _imports(path) if m in modules and m != "musicgames.snap"}
        for name, path in modules.items() if name != "musicgames.snap"
    }
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for nxt in graph[name]:
            visit(nxt, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
    # the modules import the package's parts, never the package itself (its __init__)
    for name, path in modules.items():
        if name != "musicgames.snap":
            assert "musicgames.snap" not in _imports(path), name


def test_the_engine_imports_no_widget_display_clock_or_games_registry() -> None:
    for path in SNAP.glob("*.py"):
        if path.name == "__main__.py":  # the command line times its run
            continue
        imported = _imports(path)
        for banned in ("time", "asyncio", "ipywidgets", "anywidget", "IPython",
                       "musicgames.widgets", "musicgames.games", "datetime"):
            assert not any(m == banned or m.startswith(f"{banned}.") for m in imported), (
                path.name, banned)
