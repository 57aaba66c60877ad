"""The documents as a front door: the README names every game and every preset the engine's
registry has and links the pages an operator or a player needs, and every relative link in the
README and in ``docs/`` reaches a file (and, with ``#``, a heading of it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine.games import entries, preset_names

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = (README, *sorted((ROOT / "docs").glob("*.md")))

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


def prose(text: str) -> str:
    """``text`` without code: fenced blocks and inline code spans hold no links."""
    return _CODE.sub("", _FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text (inline code unwrapped, links' words kept) in
    lower case, punctuation dropped but ``-`` and ``_``, each space a ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in ``path`` (a repeated heading's later ones get ``-1``, ``-2``)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def relative_links(path: Path) -> list[str]:
    return [
        target
        for target in _LINK.findall(prose(path.read_text(encoding="utf-8")))
        if not re.match(r"[a-z]+:", target)  # https:, mailto:
    ]


def test_the_slugs_are_githubs() -> None:
    assert slug("Compose: PostgreSQL and two shard processes") == (
        "compose-postgresql-and-two-shard-processes"
    )
    assert slug("Metrics on and off (issue 35)") == "metrics-on-and-off-issue-35"
    assert slug("Quiet machine — holds") == "quiet-machine--holds"
    assert slug("Format `spades-record/1`") == "format-spades-record1"
    assert slug("SpadesAnswersSlow") == "spadesanswersslow"


def test_the_link_finder_skips_code_and_other_sites(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "[a](b.md) and [c](https://x.org) `[d](e.md)`\n```\n[f](g.md)\n```\n[h](#i)\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["b.md", "#i"]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    broken = []
    for target in relative_links(path):
        file, _, anchor = target.partition("#")
        goal = (path.parent / file).resolve() if file else path
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no such heading in {goal.name}")
    assert broken == [], f"{path.relative_to(ROOT)}: {broken}"


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    lines = text.splitlines()
    assert lines[2] == "```sh"
    assert "spades-bot" in lines[3]
    assert "run the bot" in lines[3]
    assert "pytest" in lines[4]
    assert "run the tests" in lines[4]
    opening = " ".join(lines[:20])
    for entry in entries():
        assert f"**{entry.title}**" in opening, f"{entry.title} is not named near the top"


def test_the_readme_names_every_preset_of_the_registry() -> None:
    names = set(re.findall(r"^\| `([a-z0-9-]+)` \|", README.read_text(encoding="utf-8"), re.M))
    assert len(preset_names()) >= 17
    assert set(preset_names()) <= names, set(preset_names()) - names


def test_the_readme_links_every_page_a_reader_needs() -> None:
    links = set(relative_links(README))
    for page in (
        "operations",
        "tournaments",
        "user-installs",
        "languages",
        "computer-players",
        "records",
        "verifiable-deals",
        "architecture",
        "adding-a-game",
        "benchmarks",
        "benchmarks-log",
    ):
        assert f"docs/{page}.md" in {link.partition("#")[0] for link in links}, page
    pages = {p.name for p in DOCUMENTS[1:]}
    linked = {link.partition("#")[0].removeprefix("docs/") for link in links}
    assert pages <= linked, f"pages the README does not link: {sorted(pages - linked)}"


# ---------------------------------------------------------------------- the house map
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def path_of(prefix: str) -> str:
    """How docs/architecture.md names a module prefix of ``LAYERS``: a package as its folder
    (``bot/ui/hand/``; the package ``bot`` itself as ``bot/__init__.py``), a module as its file."""
    if prefix == "bot":
        return "bot/__init__.py"
    folder = ROOT / prefix.replace(".", "/")
    return f"{prefix.replace('.', '/')}/" if folder.is_dir() else f"{prefix.replace('.', '/')}.py"


def layer_rows() -> list[set[str]]:
    """The paths named in the last column of each row of the layer table."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| *\d+ *\|", line)]
    return [set(re.findall(r"`([^`]+)`", row.rsplit("|", 2)[1])) for row in rows]


def test_the_layer_table_is_the_import_tests_layers() -> None:
    from tests.test_import_graph import LAYERS

    assert layer_rows() == [{path_of(prefix) for prefix in row} for row in LAYERS]


def test_the_house_map_names_every_package_and_top_level_module() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    bot = ROOT / "bot"
    packages = [p for p in [*bot.glob("*"), *bot.glob("*/*")] if (p / "__init__.py").exists()]
    named = [f"{p.relative_to(ROOT)}/" for p in packages]
    named += [f"bot/{p.name}" for p in bot.glob("*.py") if p.name != "__init__.py"]
    named += ["cogs/", "tools/", "benchmarks/", "deploy/", "tests/", "tests/e2e/"]
    named += ["tests/fakediscord/"]
    missing = sorted(name for name in named if f"`{name}`" not in text)
    assert missing == []
