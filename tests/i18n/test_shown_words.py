"""Words the bot stores in English and shows in the reader's: a season never named, a
computer's seat, the table options' values (read back from any language), lists."""

from __future__ import annotations

import pytest

from bot.errors import Refusal
from bot.i18n import LANGUAGES, listed, use
from bot.tables.options import TableOptions, suggested_values, value_label, value_word
from bot.tables.state import Occupant
from bot.ui.league.render import season_title


def test_a_season_never_named_is_shown_in_the_readers_language() -> None:
    with use("de"):
        assert season_title("Season 3", 3) == "Saison 3"
        assert season_title("Sommerliga", 3) == "Sommerliga"  # an admin's name stays
        assert season_title("Season 2", 3) == "Season 2"  # named so by an admin


def test_a_computer_seat_is_named_in_the_readers_language() -> None:
    computer = Occupant(None, "Computer (hard)", "hard")
    member = Occupant(7, "Computer (hard)")  # a member who chose that name keeps it
    with use("es"):
        assert computer.shown_name == "Ordenador (difícil)"
        assert member.shown_name == "Computer (hard)"
    assert computer.shown_name == "Computer (hard)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_value_reads_back_from_its_word_in_every_language(language: str) -> None:
    for name in ("spectators", "hints"):
        for value in suggested_values(name):
            with use(language):
                word = value_word(name, value)
                label = value_label(name, value)
            assert label.startswith(word)
            typed = TableOptions().with_option(name, word.upper())
            assert typed == TableOptions().with_option(name, value), (language, name, word)


def test_an_unknown_value_is_refused_with_the_words_of_the_reader() -> None:
    with use("pt_BR"), pytest.raises(Refusal) as e:
        TableOptions().with_option("spectators", "talvez")
    assert e.value.reason == "spectators deve ser público, mãos após cada mão ou ninguém."


def test_lists_in_each_language() -> None:
    with use("fr"):
        assert listed(["Pique", "Whist", "Euchre"], either=True) == "Pique, Whist ou Euchre"
    with use("de"):
        assert listed(["Whist", "Euchre"]) == "Whist und Euchre"


def test_an_option_the_bot_cannot_read_is_named_in_the_members_words() -> None:
    from types import SimpleNamespace

    from discord import AppCommandOptionType, app_commands
    from discord.app_commands.transformers import IdentityTransformer

    from bot.ui.discord.failures import error_text

    interaction = SimpleNamespace(command=SimpleNamespace(qualified_name="spades new"))
    integer = AppCommandOptionType.integer
    error = app_commands.TransformerError("abc", integer, IdentityTransformer(integer))
    with use("fr"):
        text = error_text(interaction, error, error)  # type: ignore[arg-type]
    assert text == "Je n'ai pas pu lire `abc` comme un nombre entier.", text


def test_discords_own_check_failures_are_answered_in_the_members_words() -> None:
    from types import SimpleNamespace

    from discord import app_commands

    from bot.ui.discord.failures import error_text

    interaction = SimpleNamespace(command=SimpleNamespace(qualified_name="spades-admin show"))
    for error, expected in (
        (app_commands.NoPrivateMessage(), "Dieser Befehl funktioniert nur auf einem Server."),
        (app_commands.MissingPermissions(["manage_guild"]), "Diesen Befehl kannst du hier nicht"),
    ):
        with use("de"):
            text = error_text(interaction, error, error)  # type: ignore[arg-type]
        assert text.startswith(expected), text
