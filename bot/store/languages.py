"""Repository for each server's language of public messages (``/spades-admin language``):
no row is the server's preferred locale in Discord."""

from __future__ import annotations

from bot.store.server_choices import ServerChoices


class LanguageStore(ServerChoices):
    """``set_language(guild_id, language)``: one of :data:`bot.i18n.LANGUAGES`, or ``None``:
    follow the server's preferred locale again."""

    table, column = "server_languages", "language"

    languages = ServerChoices.chosen  # every server that chose a language for its messages
    set_language = ServerChoices.choose
