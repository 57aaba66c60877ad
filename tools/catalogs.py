"""Keep the catalogs current: ``python -m tools.catalogs`` collects every message of the
code (``_``, ``_n``, ``_p``, ``N_``, ``later``, the engine's ``Line`` in ``bot/`` and ``cogs/``)
and every command, option and choice name and description, writes them to
``bot/i18n/locales/messages.pot`` and merges them into each language's ``messages.po`` (new
messages empty, gone ones dropped).  ``--check`` changes nothing and exits 1 when the template
is not current.

Adding a language: ``python -m tools.catalogs --add it`` writes an empty catalog; translate
it, then add the code to :data:`bot.i18n.core.LANGUAGES` (and its Discord locales)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands

from bot.app import EXTENSIONS
from bot.engine import games
from bot.i18n.core import DOMAIN, LANGUAGES, LOCALES_DIR, SOURCE

ROOT = Path(__file__).resolve().parents[1]
# The engine's sentences are Lines (bot.engine.lines), their templates message ids like the rest.
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "later": None,
    "Line": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
}
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
NO_DESCRIPTION = "…"  # discord.py's description of a command without a docstring


def code_messages() -> Iterator[tuple[str, str | tuple[str, ...], str | None]]:
    """(where, message, context) of every marked message in ``bot/`` and ``cogs/``."""
    for package in ("bot", "cogs"):
        found = extract_from_dir(
            ROOT / package, [("**.py", "python")], keywords=KEYWORDS, comment_tags=()
        )
        for filename, lineno, message, _comments, context in found:
            yield f"{package}/{filename}:{lineno}", message, context


def _walk(item: Any) -> Iterator[tuple[str | None, str]]:
    yield "command", item.name
    if item.description and item.description != NO_DESCRIPTION:
        yield None, item.description
    if isinstance(item, app_commands.Group):
        for child in item.commands:
            yield from _walk(child)
        return
    for param in item.parameters:
        yield "command", param.display_name
        if param.description and param.description != NO_DESCRIPTION:
            yield None, param.description
        for choice in param.choices:
            yield None, choice.name


def command_messages() -> Iterator[tuple[str | None, str]]:
    """(context, message) of every command's names, descriptions and choices: the cogs are
    loaded by name, as the bot loads its extensions."""

    for name in EXTENSIONS:
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, commands.Cog):
                for item in getattr(obj, "__cog_app_commands__", []):
                    yield from _walk(item)
            elif isinstance(obj, app_commands.Command | app_commands.Group):
                yield from _walk(obj)


def template() -> Catalog:
    catalog = Catalog(project="spades-bot", locale=SOURCE, charset="utf-8")
    for where, message, context in code_messages():
        path, line = where.rsplit(":", 1)
        catalog.add(message, locations=[(path, int(line))], context=context)
    for name in games.preset_names():  # the engine's words for its presets, shown by bot/ui
        found = games.preset(name)
        for message in (found.title, found.description):
            if message not in catalog:
                catalog.add(message, locations=[("bot/engine/games.py", 0)])
    for entry in games.entries():  # and each game's title
        if entry.title not in catalog:
            catalog.add(entry.title, locations=[("bot/engine/games.py", 0)])
    for context, message in command_messages():
        if message not in catalog or catalog.get(message, context) is None:
            catalog.add(message, context=context)
    return catalog


def _ids(catalog: Catalog) -> set[tuple[Any, Any]]:
    return {(m.id, m.context) for m in catalog if m.id}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.catalogs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if not current")
    parser.add_argument("--add", metavar="LANG", help="start a catalog for a new language")
    args = parser.parse_args(argv)
    fresh = template()
    if args.check:
        with TEMPLATE.open("rb") as f:
            kept = read_po(f)
        if _ids(kept) != _ids(fresh):
            print("the catalog template is not current: run python -m tools.catalogs")
            return 1
        return 0
    with TEMPLATE.open("wb") as f:
        write_po(f, fresh, omit_header=False, sort_output=False, width=100, no_location=True)
    languages = [x for x in LANGUAGES if x != SOURCE]
    if args.add:
        languages.append(args.add)
    for language in languages:
        path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="spades-bot")
        catalog.update(fresh, no_fuzzy_matching=True)
        with path.open("wb") as f:
            write_po(
                f,
                catalog,
                width=100,
                ignore_obsolete=True,
                include_previous=False,
                no_location=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
