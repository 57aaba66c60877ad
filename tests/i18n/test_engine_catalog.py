"""Every sentence the engine can give a player has a catalog entry, translated in every language.

The engine says everything as a :class:`~bot.engine.lines.Line` whose template is a string
literal where it is made (bot/engine/lines.py).  So the engine's sentences are found in its
source: every ``Line("…")`` in ``bot/engine/`` — a refusal, a rule or record refused, a score
sheet's item, why a game ended, a claim's verdict, a line of ``/spades verify`` — and the
registry's words (games' titles, presets' titles and descriptions).  Each must be a message of
the catalog template and translated in each language's catalog; a ``Line`` whose template is
not a literal fails too (it could say anything).  Then games of every preset are played with
every kind of refused action tried along the way, and each sentence they produce is checked
to be one of those found: nothing the engine says escapes the scan.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.engine import (
    CARDS,
    Bid,
    Call,
    Deal,
    Discard,
    Game,
    GameError,
    Look,
    PassCards,
    Phase,
    Play,
    Rules,
    entries,
    preset,
    preset_names,
)
from bot.engine.actions import Claim
from bot.engine.cards import SUITS
from bot.engine.lines import Line
from bot.i18n import LANGUAGES, SOURCE
from bot.i18n.core import LOCALES_DIR
from tools.catalogs import TEMPLATE

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "bot" / "engine"


def lines_in(source: str, where: str) -> list[tuple[str, str | None]]:
    """(where, template) of every ``Line(...)`` call in ``source``, in order; the template is
    ``None`` when it is not a string literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Line":
            first = node.args[0] if node.args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            template = first.value if literal else None  # type: ignore[union-attr]
            found.append((node.lineno, node.col_offset, f"{where}:{node.lineno}", template))
    return [(w, t) for _, _, w, t in sorted(found, key=lambda x: x[:2])]


def engine_lines() -> list[tuple[str, str | None]]:
    """Every ``Line`` the engine makes (but in bot/engine/lines.py, where the class is: its
    ``plain`` words, of a game defined elsewhere, and unpickling make Lines of given text)."""
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where != "bot/engine/lines.py":
            out.extend(lines_in(path.read_text(encoding="utf-8"), where))
    return out


def engine_templates() -> set[str]:
    return {t for _, t in engine_lines() if t is not None}


def registry_words() -> set[str]:
    """The engine's words a player reads from its registry: titles and presets."""
    words = {e.title for e in entries()}
    for name in preset_names():
        words |= {preset(name).title, preset(name).description}
    return words


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def untranslated(templates: set[str], source: Catalog, catalogs: dict[str, Catalog]) -> list[str]:
    """What is missing: a template that is no message of ``source``, or that a language's
    catalog does not translate."""
    missing = [f"no msgid: {t}" for t in sorted(templates) if source.get(t) is None]
    for language, catalog in catalogs.items():
        for t in sorted(templates):
            found = catalog.get(t)
            if found is None or not found.string:
                missing.append(f"{language} lacks: {t}")
    return missing


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    return {
        language: load(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", language)
        for language in LANGUAGES
        if language != SOURCE
    }


def test_every_line_of_the_engine_has_a_literal_template() -> None:
    found = engine_lines()
    assert len(found) > 150, "the scan found the engine's sentences"
    assert [where for where, template in found if template is None] == []


def test_every_engine_sentence_is_in_the_catalogs_in_every_language(
    catalogs: dict[str, Catalog],
) -> None:
    templates = engine_templates() | registry_words()
    assert untranslated(templates, load(TEMPLATE), catalogs) == []


def test_a_sentence_without_an_entry_fails_the_check(catalogs: dict[str, Catalog]) -> None:
    source = 'raise IllegalBid(Line("Nobody translated this {n}", n=3))\nLine(words)\n'
    found = lines_in(source, "new_game.py")
    assert found == [("new_game.py:1", "Nobody translated this {n}"), ("new_game.py:2", None)]
    missing = untranslated({"Nobody translated this {n}"}, load(TEMPLATE), catalogs)
    assert missing[0] == "no msgid: Nobody translated this {n}"
    assert "de lacks: Nobody translated this {n}" in missing


# ---------------------------------------------------------------------- what games say
def templates_of(line: Line) -> Iterator[str]:
    """``line``'s template and those of the Lines among its parts."""
    yield line.template
    for _, value in line.params:
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if isinstance(v, Line):
                yield from templates_of(v)


def tries(game: Game) -> Iterator[object]:
    """Actions of every kind for every seat, most of them refused now."""
    for seat in game.seating.seats:
        for value in (-2, -1, 0, 1, 3, 11, 14):
            yield Bid(seat, value)
            yield Bid(seat, value, True)
        yield Look(seat)
        hand = game.hand(seat) if game.phase is not Phase.DEAL else ()
        yield PassCards(seat, hand[:1])
        yield PassCards(seat, hand[:2])
        yield PassCards(seat, (CARDS[0], CARDS[0]))
        for c in (*hand[:3], CARDS[0], CARDS[12], CARDS[25], CARDS[51]):
            yield Play(seat, c)
            yield Discard(seat, c)
        for call in (Call.PASS, Call.ORDER, "X", *SUITS):
            yield Call(seat, call)
            yield Call(seat, call, True)
        for against in game.seating.seats:
            yield Claim(seat, against)
    yield Deal(())


def refusal(game: Game, action: object) -> GameError | None:
    """The engine's refusal of ``action`` now, if it refuses it."""
    try:
        game.check(action)  # type: ignore[arg-type]
    except GameError as e:
        return e
    return None


def sentences_of(rules: Rules, seed: int, hands: int) -> Iterator[Line]:
    """Every sentence a game of ``rules`` gives along ``hands`` random hands: each refusal
    of :func:`tries` at every step, the score sheets, the claims' verdicts, the end."""
    rng = random.Random(seed)
    game = Game(rules)
    while not game.over and game.hand_number <= hands:
        if game.phase is Phase.DEAL:
            game.deal(rng)
        for action in tries(game):
            refused = refusal(game, action)
            if refused is not None:
                assert isinstance(refused.line, Line)
                assert str(refused) == refused.reason == refused.line, "the English, for logs"
                yield refused.line
        legal = game.legal_actions()
        if game.rules.claims and game.phase is Phase.PLAY and rng.random() < 0.2:
            seat, against = rng.sample(list(game.seating.seats), 2)
            if game.is_legal(Claim(seat, against)):
                game.apply(Claim(seat, against))
                continue
        if legal:
            game.apply(rng.choice(legal))
    for result in game.results:
        for team in result.teams:
            yield from (part.label for part in team.parts)
        yield from (claim.text for claim in result.claims)
    if game.end_reason is not None:
        yield game.end_reason


@pytest.mark.parametrize("name", preset_names())
def test_what_games_of_every_preset_say_is_found_by_the_scan(name: str) -> None:
    known = engine_templates()
    rules = Rules.from_preset(name)
    variants = [rules]
    if "renege" in rules.options() and not rules.new_york:
        variants.append(rules.with_option("renege", "claim"))
    said: set[str] = set()
    for r in variants:
        for seed in (1, 2):
            for line in sentences_of(r, seed, hands=4):
                said.update(templates_of(line))
    assert len(said) > 5, said
    assert said <= known, sorted(said - known)
