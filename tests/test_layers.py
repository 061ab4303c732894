"""The import graph of moji's own modules: no cycles, and every import along the layering.

Every module of ``games/``, ``storage/``, ``bot/`` and ``adapters/`` is parsed with :mod:`ast`
(nothing is imported): every ``import`` counts, wherever it stands — at the top, inside a
function, or under ``if TYPE_CHECKING:`` (a type-only import still ties the two modules
together: neither can be read, checked or moved without the other). Relative imports are
resolved against the importing module's package.

The rooms and what each may import (docs/ARCHITECTURE.md):

- ``games/`` imports nothing of moji's above it (the standard library and its own modules).
- ``storage/`` imports nothing above it either. It stores options, actions and results as
  plain data and never needs a game's types (today it imports nothing of games/; if a record
  ever needs one, the type belongs in storage/ or is plain data).
- ``bot/`` imports games/ and storage/.
- ``adapters/`` import bot/, the shared vocabulary of games/ (``games.common``: text spans,
  card faces, option specs, languages — the neutral types a view is made of, which an adapter
  must render), and storage/ (the Slack adapter owns its installation store; a schedule row
  is rendered in Slack's home tab). Never a game's own package (``games.race`` …): that would
  let a front door decide a rule.

Two exceptions, named in :data:`COMPOSITION_ROOT`: the local games (``bot.process.local``) start the
terminal front door and the local web pages when moji runs locally, and the process's wiring
(``bot.process.app``) mounts the web companion (the pages of every platform's games). The other front
doors it loads by name (``PLATFORMS``); nothing below either imports them back.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "storage", "bot", "adapters")

#: room → the rooms (or exact module prefixes) its modules may import, besides their own room.
ALLOWED: dict[str, tuple[str, ...]] = {
    "games": (),
    "storage": (),
    "bot": ("games", "storage"),
    "adapters": ("bot", "storage", "games.common"),
}

#: The rooms of bot/, lowest first: a module of a room imports bot/ modules of its own room or of
#: rooms below it, never above (docs/ARCHITECTURE.md, "The rooms of bot/"). ``bot/__main__.py``
#: (``python -m bot``) stands above them all.
BOT_ROOMS = ("core", "delivery", "sessions", "features", "hosting", "inbound", "process")

#: (importing module, imported module prefix): the composition root's imports of a front door.
COMPOSITION_ROOT = {
    ("bot.process.local", "adapters.terminal"),
    ("bot.process.local", "adapters.web"),
    ("bot.process.app", "adapters.web"),
}


def module_name(path: Path) -> str:
    """``bot/hosting/manager.py`` → ``bot.hosting.manager``; ``bot/__init__.py`` → ``bot``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the four rooms, by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def _imported(tree: ast.Module, name: str, is_package: bool) -> Iterator[tuple[str, int]]:
    """Every dotted name ``tree`` imports (with its line), relative imports resolved."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                # `from bot.core import views` imports the module bot.core.views;
                # `from bot.core.views import View`, bot.core.views
                yield f"{prefix}.{alias.name}", node.lineno
            yield prefix, node.lineno


def _resolve(dotted: str, modules: dict[str, Path]) -> str | None:
    """The longest project module ``dotted`` names (None: not one of moji's modules)."""
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def import_graph() -> dict[str, dict[str, int]]:
    """module → {imported project module: first line importing it}."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: dict[str, int] = {}
        for dotted, line in _imported(tree, name, path.name == "__init__.py"):
            target = _resolve(dotted, modules)
            if target is None or target == name:
                continue
            if name.startswith(target + "."):
                continue  # a module's own package runs first anyway: not an edge of its own
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, {}):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _room(module: str) -> str:
    return module.split(".")[0]


def bot_room(module: str) -> str | None:
    """``bot.hosting.manager`` → ``hosting``; None for ``bot`` and ``bot.__main__``."""
    parts = module.split(".")
    return parts[1] if parts[0] == "bot" and len(parts) > 1 and parts[1] != "__main__" else None


def _allowed(importer: str, imported: str) -> bool:
    room = _room(importer)
    if room == "bot" and _room(imported) == "bot":
        inner, target = bot_room(importer), bot_room(imported)
        if inner is None or target is None:
            return inner is None or imported == "bot"
        return BOT_ROOMS.index(target) <= BOT_ROOMS.index(inner)
    if _room(imported) == room:
        return True
    if any(importer == root and imported.startswith(prefix) for root, prefix in COMPOSITION_ROOT):
        return True
    return any(imported == rule or imported.startswith(rule + ".") for rule in ALLOWED[room])


def violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import against the layering, as ``file:line importer -> imported``."""
    return [
        f"{importer.replace('.', '/')}.py:{line} {importer} -> {imported}"
        for importer, edges in sorted(graph.items())
        for imported, line in sorted(edges.items())
        if not _allowed(importer, imported)
    ]


def _cycle_path(graph: dict[str, dict[str, int]], component: list[str]) -> str:
    """One concrete loop through a component, to say where to cut."""
    members = set(component)
    start = component[0]
    path = [start]
    seen = {start}
    node = start
    while True:
        succ = sorted(s for s in graph[node] if s in members)
        back = [s for s in succ if s == start]
        nxt = back[0] if back and len(path) > 1 else next((s for s in succ if s not in seen), succ[0])
        path.append(nxt)
        if nxt in seen:
            return " -> ".join(f"{p}" for p in path)
        seen.add(nxt)
        node = nxt


def test_the_graph_sees_every_kind_of_import() -> None:
    graph = import_graph()
    assert "bot.hosting.manager" in graph and "games.race.engine" in graph
    assert "bot.core.events" in graph["bot.hosting.manager"]  # `from bot.core.events import …`
    assert "bot.core.views" in graph["bot.hosting.manager"]  # `from bot import views`
    assert "adapters.terminal.app" in graph["bot.process.local"]  # an import inside a function


def test_a_type_checking_import_and_a_relative_import_count(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from .. import uncle\n"
        "if TYPE_CHECKING:\n"
        "    from bot.hosting.manager import GameManager\n"
    )
    names = {dotted for dotted, _ in _imported(ast.parse(source), "bot.hosting.handlers.start", False)}
    assert {"bot.hosting.handlers.sibling", "bot.hosting.uncle", "bot.hosting.manager.GameManager"} <= names


def test_cycles_are_found() -> None:
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_cycles() -> None:
    graph = import_graph()
    loops = [_cycle_path(graph, component) for component in cycles(graph)]
    assert not loops, "import cycles among moji's modules:\n" + "\n".join(loops)


def test_every_import_follows_the_layering() -> None:
    bad = violations(import_graph())
    assert not bad, "imports against the layering:\n" + "\n".join(bad)


def test_the_layering_rule_refuses_what_it_should() -> None:
    assert not _allowed("games.race.engine", "bot.core.views")
    assert not _allowed("storage.sqlstore", "games.common.options")
    assert not _allowed("bot.hosting.manager", "adapters.discord.client")
    assert not _allowed("bot.process.app", "adapters.terminal.app")  # only the local game starts the terminal
    assert not _allowed("adapters.slack.app", "games.race.engine")
    assert _allowed("adapters.slack.blocks", "games.common.protocol")
    assert _allowed("bot.sessions.session", "storage.errors")


def test_the_rooms_of_bot_refuse_an_import_from_above() -> None:
    assert _allowed("bot.hosting.manager", "bot.sessions.session")
    assert _allowed("bot.sessions.lobby", "bot.sessions.moves")
    assert not _allowed("bot.sessions.session", "bot.hosting.host")
    assert not _allowed("bot.core.events", "bot.delivery.delivery")
    assert not _allowed("bot.hosting.manager", "bot.inbound.runtime")
    assert _allowed("bot.__main__", "bot.process.app")
    assert not _allowed("bot.core.views", "bot.__main__")


def test_every_module_of_bot_is_in_a_room_that_says_what_it_holds() -> None:
    modules = project_modules()
    loose = [m for m in modules if bot_room(m) not in (None, *BOT_ROOMS)]
    rooms = {bot_room(m) for m in modules} - {None}
    assert not loose, f"modules of bot/ outside its rooms: {loose}"
    assert rooms == set(BOT_ROOMS), rooms
    for index, room in enumerate(BOT_ROOMS):
        doc = ast.get_docstring(ast.parse(modules[f"bot.{room}"].read_text(encoding="utf-8"))) or ""
        below = list(BOT_ROOMS[:index])
        said = doc.rpartition("May import:")[2]
        assert "May import:" in doc, f"bot/{room}/__init__.py does not say what it may import"
        assert [r for r in BOT_ROOMS if f"``{r}``" in said] == below, (room, said)


def test_no_file_of_bot_imports_the_manager() -> None:
    graph = import_graph()
    importers = sorted(
        m for m, edges in graph.items() if "bot.hosting.manager" in edges and m.startswith("bot.")
    )
    # the wiring builds it: the runtime (every platform; with what it is built from) and the
    # app (the terminal, tools)
    assert set(importers) <= {
        "bot.process.app",
        "bot.inbound.builder",
        "bot.inbound.runtime",
        "bot.inbound.wiring",
    }, importers


#: "About 400 lines": a module of bot/ longer than this has grown two jobs; split it
#: along what it names, or say in its docstring and here why it is better whole.
BOT_MODULE_LINES = 420
#: Modules of bot/ allowed to be longer, with why (none today).
LONG_AND_WHOLE: dict[str, str] = {
    "bot.process.config": "every setting moji reads, in one table (README and .env.example follow it)",
}


def test_no_module_of_bot_has_grown_two_jobs() -> None:
    long = {
        name: lines
        for name, path in project_modules().items()
        if name.startswith("bot.") and name not in LONG_AND_WHOLE
        for lines in [len(path.read_text(encoding="utf-8").splitlines())]
        if lines > BOT_MODULE_LINES
    }
    assert not long, f"bot/ modules over {BOT_MODULE_LINES} lines (split them along a seam): {long}"


def test_no_adapter_reaches_past_its_runtime_to_the_manager() -> None:
    """Adapters talk to their :class:`~bot.inbound.runtime.Runtime` only: no ``.manager`` read
    anywhere in adapters/ (the terminal hands the manager it is given to its runtime, unread)."""
    reads = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for name, path in project_modules().items()
        if name.startswith("adapters.")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "manager"
    ]
    assert not reads, f"adapters reading a .manager: {reads}"
