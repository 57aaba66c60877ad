"""The engine's sentences that were still English: ``/spades verify``'s lines (structured
:class:`~bot.engine.errors.Line`, written by template), the rule refusals a host can meet, and
the league's settings checks — each in the reader's language, the engine staying English."""

from __future__ import annotations

import ast
import copy
import importlib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.engine import Rules, Seat, Team
from bot.engine.errors import Line, NotVerified, RulesError
from bot.engine.euchre import EuchreGame
from bot.engine.game import Game
from bot.engine.record import export_record
from bot.engine.verify import verify
from bot.engine.whist import WhistGame
from bot.i18n import LANGUAGES, _, use
from bot.i18n.lines import line_text
from bot.league.errors import SettingsError
from bot.league.settings import GuildSettings, validate_changes
from tests.engine.test_verifiable_deals import seed_of, seeded_game
from tools.catalogs import TEMPLATE

VERIFY = Path(__file__).resolve().parents[2] / "bot" / "engine" / "verify.py"


def engine_line_templates() -> set[str]:
    """The constant templates of every ``Line(...)`` in ``bot/engine/verify.py``."""
    tree = ast.parse(VERIFY.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Line":
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                out.add(first.value)
    return out


def catalog_ids() -> set[str]:
    with TEMPLATE.open("rb") as f:
        return {m.id for m in read_po(f) if isinstance(m.id, str)}


def test_every_verify_line_template_is_marked_for_the_catalogs() -> None:
    used = engine_line_templates()
    assert len(used) >= 15  # the scan found the engine's lines
    turned = {Game.turned_card_name, WhistGame.turned_card_name, EuchreGame.turned_card_name}
    templates = used | {t.template for t in turned}
    assert templates <= catalog_ids(), sorted(templates - catalog_ids())


def test_a_line_is_its_english_and_keeps_its_parts() -> None:
    line = Line("hand {n}: {seat} deals", n=3, seat=Seat.E)
    assert line == "hand 3: East deals"
    assert line.template == "hand {n}: {seat} deals"
    with use("de"):
        assert line_text(Line("to {seat}", seat=Seat.S)) == "an Süd"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    seed = seed_of("lines in languages")
    return export_record(seeded_game(Rules.from_preset("standard"), seed, hands=3), None, seed)


def not_verified(doc: dict[str, Any]) -> Line:
    with pytest.raises(NotVerified) as e:
        list(verify(doc))
    return e.value.line


def test_a_record_that_does_not_verify_is_refused_in_each_language(
    record: dict[str, Any],
) -> None:
    doc = copy.deepcopy(record)
    deal = doc["hands"][1]["deal"]
    deal["N"][0], deal["E"][0] = deal["E"][0], deal["N"][0]
    line = not_verified(doc)
    to_north, to_east = deal["N"][0], deal["E"][0]
    expected = {
        "en": f"hand 2, North: the record deals {to_north} to North, but the seed deals it "
        f"to East, and deals North {to_east} instead",
        "es": f"mano 2, Norte: el registro reparte {to_north} a Norte, pero la semilla lo "
        f"reparte a Este, y a Norte le reparte {to_east} en su lugar",
        "fr": f"donne 2, Nord : l'enregistrement donne {to_north} à Nord, mais la graine la "
        f"donne à Est, et donne {to_east} à Nord à la place",
    }
    for language, text in expected.items():
        with use(language):
            assert line_text(line) == text


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_line_of_a_verified_record_is_translated(
    record: dict[str, Any], language: str
) -> None:
    lines = list(verify(record))
    with use(language):
        for line in lines:
            assert line_text(line) != str(line), (language, line)


@pytest.mark.parametrize(
    ("options", "language", "expected"),
    [
        ({"bidding": "suicide", "nil": False}, "es", "las apuestas Suicide necesitan el nulo"),
        ({"bidding": "mirror", "nil": False}, "de", "Mirror-Ansagen brauchen Null an"),
        (
            {"stick_the_dealer": True},
            "fr",
            "stick_the_dealer est une option de Euchre, pas de Pique",
        ),
        ({"game": "whist"}, "pt_BR", "o jogo é definido pela modalidade: escolha a modalidade"),
    ],
)
def test_the_rule_refusals_a_host_meets_are_translated(
    options: dict[str, Any], language: str, expected: str
) -> None:
    with pytest.raises(RulesError) as e:
        Rules.from_preset("standard", **options)
    with use(language):
        assert expected in line_text(e.value.line), e.value.reason


@pytest.mark.parametrize(
    ("changes", "language", "expected"),
    [
        ({"turn_timer": 5}, "es", "turn_timer debe ser 0 (desactivado) o estar entre 10 y 3600"),
        ({"min_games": 5000}, "pt_BR", "min_games deve estar entre 0 e 1000, não 5000"),
        ({"colour": 2}, "fr", "Réglage inconnu 'colour' : choisissez parmi preset, target"),
        ({"preset": "whist", "target": 500}, "de", "target muss zwischen"),
        ({"allowed_channels": [-1]}, "de", "-1 ist keine Kanal-ID"),
        ({"turn_timer": 5}, "en", "turn_timer must be 0 (off) or between 10 and 3600 seconds"),
    ],
)
def test_the_settings_checks_answer_in_the_admins_language(
    changes: dict[str, Any], language: str, expected: str
) -> None:
    with use(language), pytest.raises(SettingsError) as e:
        validate_changes(GuildSettings(guild_id=1), changes)
    assert expected in e.value.reason, e.value.reason


ENGINE = VERIFY.parent
DECIDERS = {  # where the engine says why a game ended (Game.end_reason)
    "game.py": "_target_reached",
    "spades/solo.py": "_decide",
    "spades/scoring.py": "decide_partnerships",
}
SAME_WORD = {"Boston"}  # a name, written the same in every language


def end_reasons() -> set[str]:
    """The template of every Line the engine's deciders give as a reason: made there, or a
    constant of their module."""
    out = set()
    for file, name in DECIDERS.items():
        module = importlib.import_module("bot.engine." + file.removesuffix(".py").replace("/", "."))
        tree = ast.parse((ENGINE / file).read_text(encoding="utf-8"))
        fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Line":
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.add(first.value)
            elif isinstance(node, ast.Name) and isinstance(getattr(module, node.id, None), Line):
                out.add(getattr(module, node.id).template)
    return out


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_reason_a_game_ends_is_written_in_the_tables_language(language: str) -> None:
    reasons = end_reasons()
    assert {"reached the target", "{team} fell to {n} or below (mercy rule)"} <= reasons, reasons
    with use(language):
        english = [r for r in reasons if r not in SAME_WORD and _(r) == r]
    assert not english, (language, english)
    with use(language):  # and its parts: a team by its name, a score in the language's format
        fell = line_text(Line("{team} fell to {n} or below (mercy rule)", team=Team.NS, n=-1200))
    assert "North–South" not in fell, fell
    assert "-" not in fell, fell
