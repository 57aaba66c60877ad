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


MODULES = sorted(ENGINE.glob("*.py"))


def test_the_engine_modules_are_found() -> None:
    assert {p.name for p in MODULES} >= {
        "cards.py", "rules.py", "scoring.py", "actions.py", "game.py", "views.py", "record.py",
        "__main__.py",
    }  # fmt: skip


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_engine_module_imports_only_the_standard_library_and_the_engine(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"
        if top == "bot":
            assert name == "bot.engine" or name.startswith("bot.engine."), name
        else:
            assert top in sys.stdlib_module_names or top == "__future__", name
