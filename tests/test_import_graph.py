"""The architecture, kept honest (one test for the whole tree; docs/architecture.md).

* no import cycle anywhere in ``bot`` and ``cogs`` (imports inside functions and under
  ``TYPE_CHECKING`` count: a cycle hidden from the interpreter is still a cycle in the design);
* no upward import: every module has its layer (:data:`LAYERS`, top to bottom), and imports
  only from its own layer and the layers below;
* folders too: every folder (``bot/ui/table/``, ``bot/events/`` …) has its layer, and a module
  imports nothing from a folder above its own folder's (:data:`FOLDER_LAYERS`);
* ``bot.engine`` imports nothing of ours outside itself, and of the rest only the standard
  library (no Discord, no database, no asyncio); its shared core imports no one game;
* nothing imports ``cogs`` from outside it (tests and benchmarks included), and ``bot`` never
  imports ``cogs`` (the bot loads its extensions by name);
* the product (``bot`` and ``cogs``) imports nothing from ``tools`` or ``benchmarks``, which
  measure it and are not shipped with it;
* the table service never imports the computer players;
* one place per game: outside ``bot.engine`` and the registries keyed by the game
  (``bot/ai/games.py``, ``bot/ui/text/games.py``) no code compares game names — it asks the
  game's registry entry, or its part of a seat view;
* statuses are enums: outside ``bot/store/`` (which maps them to and from their stored
  strings) no code compares a status with a string.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def our_modules(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    return {module_name(p): p for pkg in packages for p in sorted((ROOT / pkg).rglob("*.py"))}


def imported_names(path: Path, name: str) -> Iterator[str]:
    """Every module name ``path`` imports, relative imports resolved; for ``from X import Y``
    both ``X`` and ``X.Y`` (the caller keeps the ones that are modules)."""
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                drop = node.level - 1 if is_package else node.level
                base = base[: len(base) - drop]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                assert node.module is not None
                module = node.module
            yield module
            for alias in node.names:
                yield f"{module}.{alias.name}"


def import_graph(packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    modules = our_modules(packages)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {m for m in imported_names(path, name) if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


GRAPH = import_graph()


def test_the_graph_sees_the_modules_and_their_imports() -> None:
    assert {"bot.app", "bot.engine.game", "bot.tables.service", "cogs.play"} <= GRAPH.keys()
    assert "bot.tables.moves" in GRAPH["bot.tables.service"]
    assert "bot.engine" in GRAPH["bot.tables.moves"]
    assert "cogs.common" in GRAPH["cogs.play"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("bot.engine")))
def test_the_engine_imports_nothing_of_ours_outside_it(module: str) -> None:
    outside = {m for m in GRAPH[module] if m != "bot.engine" and not m.startswith("bot.engine.")}
    assert outside == set()


def test_nothing_outside_cogs_imports_cogs() -> None:
    everything = import_graph((*PACKAGES, "tests", "benchmarks"))
    importers = {
        (m, t)
        for m, targets in everything.items()
        for t in targets
        if t.split(".")[0] == "cogs" and m.split(".")[0] != "cogs"
    }
    assert importers == set()


def test_the_product_imports_nothing_from_tools_or_benchmarks() -> None:
    everything = import_graph((*PACKAGES, "tools", "benchmarks"))
    assert {"tools.arena", "tools.serve_player", "benchmarks.engine"} <= everything.keys()
    assert "tools.protocol" in everything["tools.arena_play"]  # the graph sees tools' imports
    outside = {
        (m, t)
        for m, targets in everything.items()
        if m.split(".")[0] in PACKAGES
        for t in targets
        if t.split(".")[0] in ("tools", "benchmarks")
    }
    assert outside == set()


def test_bot_never_imports_cogs() -> None:
    for module, targets in GRAPH.items():
        if module.split(".")[0] == "bot":
            assert not any(t.split(".")[0] == "cogs" for t in targets), module


def reachable(graph: dict[str, set[str]], package: str) -> set[str]:
    """Every module that ``package``'s modules import, directly or through others."""
    seen: set[str] = set()
    todo = [m for m in graph if m == package or m.startswith(package + ".")]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def test_reachable_follows_imports_through_other_modules() -> None:
    graph = {"p.a": {"q"}, "q": {"r"}, "r": set(), "s": set()}
    assert reachable(graph, "p") == {"p.a", "q", "r"}


def test_the_table_service_never_imports_the_computer_players() -> None:
    """Computer decisions (moves, renege claims of games.md G1) reach bot.tables as injected
    callables from bot.app; bot.tables decides nothing for a computer itself."""
    assert {"bot.tables.turns", "bot.tables.moves"} <= reachable(GRAPH, "bot.tables")
    assert not {m for m in reachable(GRAPH, "bot.tables") if m.split(".")[:2] == ["bot", "ai"]}


# ---------------------------------------------------------------------- the layers
# Top to bottom.  A module belongs to the layer of the longest prefix that names it, and may
# import modules of its own layer and of the layers below, never above (docs/architecture.md).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("cogs",),  # thin: parse, call, render
    # the program: settings, start-up, wiring (the league's hook, shards, health, the collector)
    ("bot.app", "bot.__main__", "bot.config", "bot.health", "bot.sharding", "bot.collector",
     "bot.league_link", "bot.monitor"),
    # Discord (bot/ui/, one layer per row): what it shows, by surface, top to bottom.
    # A spectator's view is edited live like a hand (bot.ui: a module put in bot/ui/ itself)
    ("bot.ui", "bot.ui.spectator"),
    ("bot.ui.hand",),  # a player's private hand: it shows the table's parts
    ("bot.ui.table", "bot.ui.league", "bot.ui.tournament"),  # the channel's messages
    ("bot.ui.review",),  # reviews and replays: their buttons sit on table and league messages
    ("bot.ui.text", "bot.ui.images"),  # the games' words and pictures (each uses the other)
    # the Discord side every surface shares (pace, budget, surfaces, clicks, the error
    # answer); the commands' localisations
    ("bot.ui.discord", "bot.i18n.commands"),
    # tournaments' running side: it seats and ends tables through the table service
    ("bot.events",),
    ("bot.tables",),  # the table service
    # reviews of games; the database (SQL only here) and its migrations
    ("bot.review", "bot.store", "bot.store.migrations"),
    # computer players; ratings; tournaments' values and pairings (pure); the card table's
    # words in each language
    ("bot.ai", "bot.ai.search", "bot.league", "bot.events.pairing", "bot.i18n.cards",
     "bot.i18n.lines"),
    ("bot.engine", "bot.engine.spades"),  # the rules
    # answering in time; members' cooldowns; the one rate limiter of the bot's own writes
    ("bot.timely", "bot.cooldowns", "bot.token_bucket"),
    # the foundations every layer may use
    ("bot.errors", "bot.logsafe", "bot.logcontext", "bot.metrics", "bot.disposal",
     "bot.command_input", "bot.names", "bot.i18n", "bot"),  # bot.i18n: the catalogs and the
    # language of an answer; bot.metrics: the counters every layer's hooks increment
)  # fmt: skip


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of ``module`` (the longest prefix that names it)."""
    named = [
        (len(prefix), i)
        for i, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(named)[1] if named else None


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) for every import of a module from a layer above the importer's."""
    found = []
    for module, targets in graph.items():
        mine = layer_of(module)
        assert mine is not None, f"{module} has no layer: add it to LAYERS"
        for target in sorted(targets):
            theirs = layer_of(target)
            assert theirs is not None, f"{target} has no layer: add it to LAYERS"
            if theirs < mine:
                found.append((module, target))
    return found


def test_the_layers_are_read_by_longest_prefix() -> None:
    assert layer_of("bot.events.service") == layer_of("bot.events.alarms") == 8
    assert layer_of("bot.events.pairing.model") == layer_of("bot.league.models") == 11
    assert layer_of("bot.ui.table.render") == layer_of("bot.ui.league.render") == 4
    assert layer_of("bot") == len(LAYERS) - 1
    assert layer_of("botany") is None
    assert upward_imports(
        {"bot.engine.cards": {"bot.ui.table.render"}, "bot.ui.table.render": set()}
    ) == [("bot.engine.cards", "bot.ui.table.render")]


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward_imports(GRAPH) == []


# ---------------------------------------------------------------------- the folders
# Every folder (package) of bot/ and cogs/ has a layer too, and a module imports nothing from a
# folder above its own folder's layer: a folder stands for one layer as a whole, so a module
# cannot reach up by being named a layer apart from its folder.  A folder's layer is the one
# LAYERS names it in, except for the folder that keeps parts below its own layer:
FOLDER_LAYERS = {
    "bot.i18n": "bot.i18n.cards",  # the card table's words; the catalogs' core below all
}  # a folder: the module whose layer it has
# The top-level modules of bot/ are no folder (the program and the foundations side by side):
# each is judged by its own layer, as an importer by the module rule above.
FOLDERS = frozenset(name for name, path in our_modules().items() if path.name == "__init__.py")


def folder_of(module: str, folders: frozenset[str] = FOLDERS) -> str:
    """The folder ``module`` is in (a package is its own folder); a top-level module of
    ``bot`` is its own unit, no folder."""
    if module in folders:
        return module
    parent = module.rpartition(".")[0]
    return module if parent == "bot" else parent


def folder_layer(folder: str) -> int | None:
    return layer_of(FOLDER_LAYERS.get(folder, folder))


def folder_upward_imports(
    graph: dict[str, set[str]], folders: frozenset[str] = FOLDERS
) -> list[tuple[str, str]]:
    """(importer, imported) for every import, by a module in a folder, of a module of another
    folder (or a top-level module) whose layer is above the importer's folder's."""
    found = []
    for module, targets in sorted(graph.items()):
        mine = folder_of(module, folders)
        if mine not in folders:
            continue  # a top-level module: the module rule judges it
        for target in sorted(targets):
            theirs = folder_of(target, folders)
            if theirs != mine and _above(folder_layer(theirs), folder_layer(mine)):
                found.append((module, target))
    return found


def _above(theirs: int | None, mine: int | None) -> bool:
    assert theirs is not None, "a folder has no layer: add it to LAYERS"
    assert mine is not None, "a folder has no layer: add it to LAYERS"
    return theirs < mine


def test_every_folder_is_given_its_layer() -> None:
    """A new folder (a sub-package of bot/ui/, say) is named in LAYERS itself: it does not
    take its parent's layer unnoticed."""
    assert {
        "bot.ui.table", "bot.ui.discord", "bot.ui.images", "bot.events", "bot.events.pairing",
        "cogs",
    } <= FOLDERS  # fmt: skip
    named = {prefix for prefixes in LAYERS for prefix in prefixes}
    assert sorted(FOLDERS - named - FOLDER_LAYERS.keys()) == []
    assert FOLDER_LAYERS.keys() <= FOLDERS
    assert all(layer_of(module) is not None for module in FOLDER_LAYERS.values())


def test_the_folder_rule_sees_an_upward_import_between_folders() -> None:
    folders = frozenset(
        {"bot", "bot.ui.table", "bot.ui.discord", "bot.engine", "bot.i18n", "bot.store",
         "bot.events.pairing"}
    )  # fmt: skip
    graph = {
        "bot.ui.discord.pace": {"bot.ui.table.render"},  # a folder above: upward
        "bot.ui.table.render": {"bot.ui.discord.pace", "bot.names"},  # below: fine
        "bot.engine.cards": {"bot.i18n.core"},  # bot/i18n/ is above the engine as a folder
        "bot.i18n.core": set(),  # below the engine as a module (the foundations)
        "bot.store.tournaments": {"bot.events.pairing.model"},  # the pure model: below
        "bot.events.pairing.model": set(),
        "bot.app": {"bot.ui.table.render"},  # a top-level module: no folder
        "bot.names": set(),
    }
    assert upward_imports(graph) == [("bot.ui.discord.pace", "bot.ui.table.render")]
    assert folder_upward_imports(graph, folders) == [
        ("bot.engine.cards", "bot.i18n.core"),
        ("bot.ui.discord.pace", "bot.ui.table.render"),
    ]
    assert folder_of("bot.app", folders) == "bot.app"
    assert folder_of("bot.ui.table", folders) == "bot.ui.table"
    assert folder_of("bot.ui.table.render", folders) == "bot.ui.table"


def test_no_module_imports_from_a_folder_above_its_own() -> None:
    assert folder_upward_imports(GRAPH) == []


# ---------------------------------------------------------------------- the pure engine
FORBIDDEN = {"discord", "aiosqlite", "asyncpg", "asyncio"}
ENGINE_MODULES = {n: p for n, p in our_modules().items() if n.split(".")[:2] == ["bot", "engine"]}


def test_the_engine_modules_are_found() -> None:
    assert {p.name for p in ENGINE_MODULES.values()} >= {
        "cards.py", "rules.py", "scoring.py", "actions.py", "game.py", "games.py", "views.py",
        "record.py", "__main__.py",
    }  # fmt: skip


@pytest.mark.parametrize("module", sorted(ENGINE_MODULES))
def test_the_engine_imports_only_the_standard_library_and_itself(module: str) -> None:
    path = ENGINE_MODULES[module]
    for name in imported_names(path, module):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{module} imports {name}"
        assert not name.startswith("bot.engine.__main__"), f"{module} imports the CLI"
        if top in ("bot", "cogs"):
            assert name == "bot.engine" or name.startswith("bot.engine."), name
        else:
            # bot.engine.build: mypyc's class options, imported for the type checker only
            compile_time = module == "bot.engine.build" and name.startswith("mypy_extensions")
            assert top in sys.stdlib_module_names or top == "__future__" or compile_time, name


GAME_PACKAGES = ("bot.engine.spades", "bot.engine.whist", "bot.engine.euchre")
CORE = ("cards", "decks", "seats", "actions", "errors", "games", "rules", "scoring", "tricks",
        "game", "dealer")  # fmt: skip


def test_the_core_modules_are_found() -> None:
    assert {f"bot.engine.{m}" for m in CORE} <= ENGINE_MODULES.keys()


@pytest.mark.parametrize("module", CORE)
def test_the_shared_core_imports_no_game(module: str) -> None:
    """What every game shares is written without any one game in mind."""
    name = f"bot.engine.{module}"
    for target in GRAPH[name]:
        assert not target.startswith(GAME_PACKAGES), f"{name} imports {target}"


# ---------------------------------------------------------------------- one place per game
GAME_NAMES = frozenset({"spades", "whist", "euchre"})
# Where a game may be named: the engine (the games themselves and their registry) and the
# registries of their words and computer players, keyed by the game.
GAME_REGISTRIES = ("bot.engine", "bot.ai.games", "bot.ui.text.games")


def _names_a_game(node: ast.expr, container: bool) -> bool:
    """A game name as a string, ``GameKind.X`` or ``DEFAULT_GAME``; or (``container``: the
    right of ``in``) a literal tuple, list or set holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.lower() in GAME_NAMES
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name) and node.value.id == "GameKind"
    if isinstance(node, ast.Name):
        return node.id == "DEFAULT_GAME"
    if container and isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(x, False) for x in node.elts)
    return False


def _is_game_attribute(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "game"


_EQUALITY = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def game_name_comparisons(source: str) -> list[int]:
    """The lines of ``source`` that compare game names (``rules.game == "spades"``,
    ``game in ("whist", "euchre")``, ``kind is GameKind.EUCHRE``, ``a.game != b.game``,
    ``case "whist":``); ``table.game is None`` (the game object) is no such comparison."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                container = isinstance(op, ast.In | ast.NotIn)
                named = _names_a_game(left, False) or _names_a_game(right, container)
                by_attribute = isinstance(op, _EQUALITY) and (
                    _is_game_attribute(left) or _is_game_attribute(right)
                )
                if named or by_attribute:
                    found.append(node.lineno)
                    break
                left = right
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value, False):
            found.append(node.lineno)
    return found


@pytest.mark.parametrize(
    ("source", "compares"),
    [
        ('if rules.game == "spades": pass', True),
        ('if view.rules.game != "whist": pass', True),
        ("if table.rules.game is GameKind.EUCHRE: pass", True),
        ("ok = rules.game in (GameKind.WHIST, GameKind.EUCHRE)", True),
        ('ok = game in ("whist", "euchre")', True),
        ('ok = "Euchre" == title', True),
        ("ok = kind == DEFAULT_GAME", True),
        ("ok = a.rules.game != b.rules.game", True),
        ("ok = table.game is None or table.game is not sim", False),  # the game object
        ('match name:\n    case "whist":\n        pass', True),
        ('ok = parts[:2] == ["spades", "t"]', False),  # a custom id's namespace, not a game
        ('log = getLogger("spades")', False),
        ("ok = entry_of(rules.game).takes(Bid)", False),
        ('ok = "lose_at" in entry_of(rules.game).options', False),
    ],
)
def test_the_scan_finds_game_name_comparisons(source: str, compares: bool) -> None:
    assert bool(game_name_comparisons(source)) is compares


@pytest.mark.parametrize(
    "module", sorted(m for m in our_modules() if not m.startswith(GAME_REGISTRIES))
)
def test_no_code_outside_the_engine_and_the_registries_compares_game_names(module: str) -> None:
    """Adding a game adds its package and its registry entries, and edits nothing else: the
    rest of the bot asks the entry (``entry_of(rules.game).takes(Call)``), the game's words
    (``text_of(rules.game)``) or its players (``ai_of(rules.game)``), or reads the game's part
    of a seat view (``view.bidding``, ``view.trumps``)."""
    path = our_modules()[module]
    lines = game_name_comparisons(path.read_text(encoding="utf-8"))
    assert lines == [], f"{path.relative_to(ROOT)} compares game names at lines {lines}"


# ---------------------------------------------------------------------- statuses are enums
# A table's, a tournament's, an entry's and a game's status are enums (TableStatus,
# TournamentStatus, EntryStatus, SlotStatus): their stored strings are read and written in
# bot/store/ alone, so a misspelt status is an AttributeError, not a comparison always false.
STATUS_MAPPING = ("bot.store",)


def _names_a_status(node: ast.expr) -> bool:
    """``x.status``, ``status``, ``x.table_status`` …: a name or attribute ending in status."""
    if isinstance(node, ast.Attribute):
        return node.attr.lower().endswith("status")
    if isinstance(node, ast.Name):
        return node.id.lower().endswith("status")
    return False


def _is_text(node: ast.expr) -> bool:
    """A string, or a literal tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_text(x) for x in node.elts)
    return False


def status_string_comparisons(source: str) -> list[int]:
    """The lines of ``source`` that compare a status with a string (``t.status == "running"``,
    ``"done" != g.status``, ``e.status in ("in", "computer")``, ``case "bye":`` under
    ``match g.status``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            left = node.left
            for right in node.comparators:
                if (_names_a_status(left) and _is_text(right)) or (
                    _is_text(left) and _names_a_status(right)
                ):
                    found.append(node.lineno)
                    break
                left = right
        elif isinstance(node, ast.Match) and _names_a_status(node.subject):
            cases = [c.pattern for c in node.cases]
            while cases:
                pattern = cases.pop()
                if isinstance(pattern, ast.MatchOr):
                    cases.extend(pattern.patterns)
                elif isinstance(pattern, ast.MatchValue) and _is_text(pattern.value):
                    found.append(pattern.value.lineno)
    return sorted(found)


@pytest.mark.parametrize(
    ("source", "compares"),
    [
        ('ok = t.status == "running"', True),
        ('ok = "done" != g.status', True),
        ('ok = e.status in ("in", "computer")', True),
        ('ok = e.status not in {"dropped"}', True),
        ('ok = status == "signup"', True),
        ('ok = self.table_status != "lobby"', True),
        ('match g.status:\n    case "bye" | "done":\n        pass', True),
        ("ok = t.status == TournamentStatus.RUNNING", False),
        ("ok = e.status in PLAYING_ENTRIES", False),
        ("ok = error.status == 404 or error.status in (401, 403)", False),  # HTTP statuses
        ('ok = t.name == "running"', False),
        ("match g.status:\n    case SlotStatus.BYE:\n        pass", False),
    ],
)
def test_the_scan_finds_status_string_comparisons(source: str, compares: bool) -> None:
    assert bool(status_string_comparisons(source)) is compares


@pytest.mark.parametrize(
    "module", sorted(m for m in our_modules() if not m.startswith(STATUS_MAPPING))
)
def test_no_status_string_is_compared_outside_the_stores_mapping(module: str) -> None:
    path = our_modules()[module]
    lines = status_string_comparisons(path.read_text(encoding="utf-8"))
    assert lines == [], f"{path.relative_to(ROOT)} compares a status with a string at {lines}"
