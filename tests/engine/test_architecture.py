"""The engine is pure: no module in bot/engine imports Discord, the database, asyncio, or
anything but the standard library and bot.engine itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
FORBIDDEN = {"discord", "aiosqlite", "asyncio"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            assert node.module is not None
            names.add(node.module)
    return names


MODULES = sorted(ENGINE.rglob("*.py"))


def test_the_engine_modules_are_found() -> None:
    assert {p.name for p in MODULES} >= {
        "cards.py", "rules.py", "scoring.py", "actions.py", "game.py", "views.py", "record.py",
        "__main__.py",
    }  # fmt: skip


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_only_the_standard_library_and_the_engine(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"
        assert not name.startswith("bot.engine.__main__"), f"{path.name} imports the CLI"
        if top == "bot":
            assert name == "bot.engine" or name.startswith("bot.engine."), name
        else:
            assert top in sys.stdlib_module_names or top == "__future__", name


GAME_PACKAGES = ("bot.engine.spades", "bot.engine.whist", "bot.engine.euchre")
CORE = [
    p
    for p in MODULES
    if p.parent == ENGINE and p.stem in {"cards", "decks", "seats", "actions", "errors", "rules",
                                          "scoring", "tricks", "game", "dealer"}
]  # fmt: skip


def test_the_core_modules_are_found() -> None:
    assert len(CORE) == 10


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_shared_core_imports_no_game(path: Path) -> None:
    """What every game shares is written without any one game in mind."""
    for name in imported_modules(path):
        assert not name.startswith(GAME_PACKAGES), f"{path.name} imports {name}"


def test_engine_imports_have_no_cycles() -> None:
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
        mod = ".".join(rel.parts).removesuffix(".__init__")
        graph[mod] = {n for n in imported_modules(path) if n.startswith("bot.engine.")}
    state: dict[str, int] = {}

    def visit(mod: str, trail: list[str]) -> None:
        if state.get(mod) == 2:
            return
        assert state.get(mod) != 1, " -> ".join([*trail, mod])
        state[mod] = 1
        for dep in sorted(graph.get(mod, ())):
            visit(dep, [*trail, mod])
        state[mod] = 2

    for mod in sorted(graph):
        visit(mod, [])
