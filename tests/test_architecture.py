"""The shape of the package: no import circle, no file too long to read, pure engines.

Read from the source with :mod:`ast` (nothing is imported), so a circle hidden inside a
function is found as surely as one at the top of a module. Only imports under
``if TYPE_CHECKING:`` (seen by the type checker, never run) may point back. See
ARCHITECTURE.md for the layers these tests keep apart.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "musicgames"
#: The longest a ``.py`` or ``.js`` file of the package may be.
MAX_LINES = 800
#: The game engines: pure rules, no screen, no clock.
ENGINES = ("musicgames.snap", "musicgames.duel")
#: What an engine may never import, even through another module of the package: widgets and
#: pages, drawing, the places answers are kept, and notebook or plotting libraries.
NOT_FOR_ENGINES = (
    "musicgames.widgets",
    "musicgames.lessons",
    "musicgames.progress",
    "musicgames.teacher",
    "musicgames.classroom",
    "musicgames.appmode",
    "musicgames.cards",
    "musicgames.render",
    "musicgames.games",
    "ipywidgets",
    "anywidget",
    "IPython",
    "matplotlib",
    "traitlets",
)
#: Clocks: an engine is told the time (or a clock is injected), it never reads one.
CLOCKS = ("time", "asyncio")
CLOCK_CALLS = {"now", "utcnow", "today"}

@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool

    @property
    def where(self) -> str:
        return self.path.relative_to(PACKAGE.parent).as_posix()


def _modules() -> dict[str, Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        found[name] = Module(name, path, is_package)
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes_run(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that can run, at any depth (inside functions too), leaving out the
    bodies of ``if TYPE_CHECKING:`` blocks (their ``else:`` runs, so it is kept)."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for node in child.orelse:
                yield node
                yield from _nodes_run(node)
            continue
        yield child
        yield from _nodes_run(child)


def _imported_names(module: Module) -> Iterator[tuple[str, int]]:
    """What each import of a module asks for, with its line: the module a name comes from,
    or the submodule itself (``from musicgames import theory`` → ``musicgames.theory``)."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    for node in _nodes_run(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.name if module.is_package else module.name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield (submodule if submodule in MODULES else base), node.lineno
    for node in tree.body:  # a map of names to the modules a `__getattr__` loads them from
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict) and value.values and all(
                isinstance(v, ast.Constant) and v.value in MODULES for v in value.values):
            for v in value.values:
                yield str(v.value), v.lineno


def _own_module(name: str) -> str | None:
    """The module of the package that importing ``name`` runs (``a.b.C`` → ``a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, dict[str, int]]:
    """Each module of the package → the modules of the package it imports (and the line of
    the first such import). Importing ``a.b`` also runs package ``a``: that is not counted
    as an import of ``a``, as every module of a package would otherwise import it."""
    graph: dict[str, dict[str, int]] = {}
    for module in MODULES.values():
        edges: dict[str, int] = {}
        for name, line in _imported_names(module):
            target = _own_module(name) if name.split(".")[0] == "musicgames" else None
            if target is not None and target != module.name:
                edges.setdefault(target, line)
        graph[module.name] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import circles: each strongly connected group of modules, as one circle through
    it (``a → b → … → a``)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return [_one_circle(group, graph) for group in sorted(groups)]


def _one_circle(group: list[str], graph: dict[str, dict[str, int]]) -> list[str]:
    """A shortest way from the group's first module back to itself, inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target == start:
                    return paths[node] + [start]
                if target in members and target not in paths:
                    paths[target] = paths[node] + [target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle through {group}")  # pragma: no cover - a group has one


def _said(circle: list[str], graph: dict[str, dict[str, int]]) -> str:
    steps = [f"{a} (line {graph[a][b]})" for a, b in zip(circle[:-1], circle[1:], strict=True)]
    return " → ".join(steps + [circle[-1]])


@functools.cache
def package_graph() -> dict[str, dict[str, int]]:
    """:func:`import_graph`, read once by the test process that runs a test needing it
    (not at collection, which every parallel worker does: it parses the whole package)."""
    return import_graph()


def _long_files() -> dict[str, int]:
    lengths = {}
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_LINES:
            lengths[path.relative_to(PACKAGE.parent).as_posix()] = count
    return lengths


# -- the graph itself ------------------------------------------------------------------------


def test_the_graph_sees_imports_inside_functions_lazy_maps_and_not_type_checking() -> None:
    # a lesson's drill is imported inside its method; the progress package loads each name
    # from its module on first use (its map counts), and names them for the type checker.
    graph = package_graph()
    assert "musicgames.widgets.note_drill" in graph["musicgames.lessons.lesson"]
    assert "musicgames.progress.report" in graph["musicgames.progress"]
    assert "musicgames.progress.store" in graph["musicgames.widgets.hand_in"]


def test_imports_for_the_type_checker_only_are_left_out(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from musicgames.lessons import Lesson\n"
        "else:\n"
        "    from musicgames.i18n import text\n"
        "def later():\n"
        "    from musicgames.render import staff_svg\n"
    )
    (tmp_path / "part.py").write_text(source)
    module = Module("musicgames.progress.part", tmp_path / "part.py", False)
    names = [name for name, _ in _imported_names(module)]
    assert names == ["typing", "musicgames.i18n", "musicgames.render"]


def test_a_circle_is_found_and_said_with_its_lines() -> None:
    graph = {"a": {"b": 3}, "b": {"c": 5}, "c": {"a": 9, "d": 1}, "d": {}}
    (circle,) = circles(graph)
    assert circle == ["a", "b", "c", "a"]
    assert _said(circle, graph) == "a (line 3) → b (line 5) → c (line 9) → a"
    assert circles({"a": {"b": 1}, "b": {}}) == []


# -- no import circle ------------------------------------------------------------------------


def test_no_import_circle_in_musicgames() -> None:
    graph = package_graph()
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(_said(c, graph) for c in found)


# -- files short enough to read --------------------------------------------------------------


def test_no_file_in_musicgames_is_over_800_lines() -> None:
    long_files = _long_files()
    assert not long_files, f"files over {MAX_LINES} lines: {long_files}"


# -- pure engines ----------------------------------------------------------------------------


def _reached(start: list[str]) -> list[str]:
    """These modules and every module of the package they import, at any depth."""
    graph = package_graph()
    todo = list(start)
    reached: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(graph[name])
    return sorted(reached)


def _engine_modules() -> list[str]:
    """The engines' modules and all they import. An engine's command line (``__main__``) is
    not the engine: it reads arguments, prints and times whole runs."""
    return _reached([m for m in MODULES if m.startswith(ENGINES) and not m.endswith(".__main__")])


def _clock_calls(module: Module) -> Iterator[int]:
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    for node in _nodes_run(tree):
        if isinstance(node, ast.Attribute) and node.attr in CLOCK_CALLS:
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if name in ("datetime", "date"):
                yield node.lineno


def test_the_engines_import_no_widget_display_clock_or_notebook_code() -> None:
    engine = _engine_modules()
    assert "musicgames.snap.state" in engine and "musicgames.duel.legal" in engine
    found = []
    for name in engine:
        module = MODULES[name]
        for imported, line in _imported_names(module):
            top = imported.split(".")[0]
            if imported.startswith(NOT_FOR_ENGINES) or top in CLOCKS:
                found.append(f"{module.where}:{line} imports {imported}")
        found += [f"{module.where}:{line} reads the clock" for line in _clock_calls(module)]
    assert not found, "\n".join(found)


def test_the_engine_check_would_see_a_clock_or_a_widget(tmp_path: Path) -> None:
    source = (
        "import time\n"
        "from datetime import datetime\n"
        "def later():\n"
        "    from musicgames.widgets.note_snap import NoteSnapWidget\n"
        "    return datetime.now(), NoteSnapWidget\n"
    )
    (tmp_path / "rules.py").write_text(source)
    module = Module("musicgames.snap.rules", tmp_path / "rules.py", False)
    names = [name for name, _ in _imported_names(module)]
    assert "time" in names and "musicgames.widgets.note_snap" in names
    assert list(_clock_calls(module)) == [5]


# -- widgets record answers, nothing more of the progress package -----------------------------

#: The teacher's part of the progress package: reading a class, numbers, tables, charts.
TEACHERS_PART = (
    "musicgames.progress.class_folder",
    "musicgames.progress.stats",
    "musicgames.progress.lesson_stats",
    "musicgames.progress.words",
    "musicgames.progress.tables",
    "musicgames.progress.charts",
    "musicgames.progress.report",
)
#: The lesson pages, which show widgets (a widget may use a lesson's words for a note).
LESSON_PAGES = ("musicgames.lessons.page", "musicgames.lessons.lesson")


def test_a_widget_imports_only_what_records_an_answer() -> None:
    widgets = [m for m in MODULES if m.startswith("musicgames.widgets.")]
    assert "musicgames.widgets.note_drill" in widgets
    found = {}
    for widget in widgets:
        wrong = [m for m in _reached([widget]) if m.startswith(TEACHERS_PART + LESSON_PAGES)]
        if wrong:
            found[widget] = wrong
    assert not found, found


# -- ARCHITECTURE.md's rule tables name what exists ------------------------------------------

ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"
#: A name cited in ARCHITECTURE.md: ``musicgames.`` + module + the name defined in it, and for
#: a class's member the member after the class (``musicgames.snap.state.SnapState._resolve``).
CITATION = re.compile(r"`(musicgames(?:\.\w+)+)`")


def _rules_section() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return text[text.index("## Where each rule lives"):]


def _defined(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a module or class body defines (functions, classes, assigned names and
    fields), each with its statement; imported names do not count."""
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        names[name.id] = node
    return names


def _missing(citation: str) -> str | None:
    """Why ``citation`` names nothing in the source (``None`` when it is there): its module
    is the longest dotted prefix that is a module of the package, the rest a name defined
    in it and, after a class, a member of that class."""
    parts = citation.split(".")
    cut = next((i for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in MODULES), 0)
    if not cut:
        return "no such module"
    body: list[ast.stmt] = ast.parse(MODULES[".".join(parts[:cut])].path.read_text(
        encoding="utf-8")).body
    for i, name in enumerate(parts[cut:]):
        node = _defined(body).get(name)
        if node is None:
            return f"{'.'.join(parts[:cut + i])} defines no {name}"
        if isinstance(node, ast.ClassDef):
            body = node.body
        elif cut + i + 1 < len(parts):
            return f"{'.'.join(parts[:cut + i + 1])} is not a class"
    return None


def test_every_name_the_rule_tables_cite_exists() -> None:
    """A rule's home that moved or was renamed fails here until ARCHITECTURE.md follows."""
    cited = sorted(set(CITATION.findall(_rules_section())))
    assert len(cited) > 50, "the rule tables cite their homes as `musicgames.module.name`"
    missing = {c: why for c in cited if (why := _missing(c)) is not None}
    assert not missing, missing


def test_the_citation_check_finds_a_misspelt_name() -> None:
    assert _missing("musicgames.snap.cards.is_match") is None
    assert _missing("musicgames.snap.state.SnapState._resolve") is None
    assert _missing("musicgames.snap.config.SnapConfig.tie_window_ms") is None
    assert _missing("musicgames.snap.cards.is_mach") is not None
    assert _missing("musicgames.snap.state.SnapState._resolv") is not None
    assert _missing("musicgames.snap.is_match") is not None  # a re-export is not the home
    assert _missing("musicgames.snap.cardz.is_match") is not None


def test_the_rule_tables_have_a_row_for_every_rule() -> None:
    rows = [line.split("|")[1] for line in _rules_section().splitlines()
            if line.startswith("| ") and not line.startswith("| Rule")]
    named = {n for row in rows for n in re.findall(r"\b([SD]\d+[a-f]?)\b", row)}
    expected = {f"S{n}" for n in range(1, 18)} | {f"D{n}" for n in range(1, 17) if n != 11}
    expected |= {f"D11{part}" for part in "abcdef"}
    assert named == expected, (sorted(expected - named), sorted(named - expected))


def test_architecture_links_every_rules_page() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    pages = sorted((PACKAGE.parent / "docs" / "rules").glob("*.md"))
    assert pages
    unlinked = [p.name for p in pages if f"](docs/rules/{p.name})" not in text]
    assert not unlinked, unlinked
