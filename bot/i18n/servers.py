"""The language of a server's public messages: the one chosen with ``/spades-admin language``,
else the server's preferred locale in Discord (English for one the bot does not ship)."""

from __future__ import annotations

from typing import Any, Final

from bot.bounded import Recent
from bot.i18n.core import language_of, set_language, use

# What interactions taught about servers and chats, kept for the most recently active ones:
# every server a member uses the app in (added or not) and every DM and group DM would
# otherwise stay in memory for good.  A server or chat forgotten is learnt again from its
# next interaction (a server that added the bot is also in the guild cache).
SEEN_KEPT: Final = 20_000


class ServerLanguages:
    """The servers' chosen languages, loaded at start-up and kept current by the command."""

    def __init__(self, kept: int = SEEN_KEPT) -> None:
        self._chosen: dict[int, str] = {}
        # the preferred locale the last interaction from each server carried
        self._seen: Recent[int, str] = Recent(kept)
        # Outside servers (a DM or group DM: docs/user-installs.md) a chat has no preferred
        # locale: its public messages follow the last member who acted there.
        self._chats: Recent[int, str] = Recent(kept)
        self.client: Any = None  # the discord.Client whose guild cache gives preferred locales

    def load(self, chosen: dict[int, str]) -> None:
        self._chosen = dict(chosen)

    def choose(self, guild_id: int, language: str | None) -> None:
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language

    def seen(self, guild_id: int | None, guild_locale: object) -> None:
        """An interaction from ``guild_id`` carried its preferred locale (``guild_locale``):
        Discord sends it with every interaction, so it is current even when the guild cache
        is not."""
        if guild_id is not None and guild_locale is not None:
            self._seen[guild_id] = language_of(guild_locale)

    def seen_in_chat(self, channel_id: int | None, locale: object) -> None:
        if channel_id is not None and locale is not None:
            self._chats[channel_id] = language_of(locale)

    def of_chat(self, guild_id: int | None, channel_id: int) -> str:
        """The language of a table's public messages: its server's, or outside servers the
        chat's (its last member's)."""
        chat = None if guild_id else self._chats.get(channel_id)
        return chat if chat is not None else self.of(guild_id)

    def chosen(self, guild_id: int) -> str | None:
        return self._chosen.get(guild_id)

    def of(self, guild_id: int | None, preferred: object = None) -> str:
        """The language of ``guild_id``'s public messages; ``preferred`` is the server's
        preferred locale when the caller knows it (an interaction's ``guild_locale``)."""
        if guild_id is None:
            return language_of(preferred)
        if guild_id in self._chosen:
            return self._chosen[guild_id]
        seen = self._seen.get(guild_id) if preferred is None else None
        if seen is not None:
            return seen
        if preferred is None and self.client is not None:
            guild = self.client.get_guild(guild_id)
            preferred = getattr(guild, "preferred_locale", None)
        chat = self._chats.get(guild_id) if preferred is None else None
        return chat if chat is not None else language_of(preferred)  # a group's league: its chat


SERVER_LANGUAGES = ServerLanguages()


def answering(interaction: Any) -> None:
    """At the edge of an interaction: write every answer in its user's language, and note the
    server's preferred locale it carries."""
    set_language(getattr(interaction, "locale", None))
    guild_id = getattr(interaction, "guild_id", None)
    SERVER_LANGUAGES.seen(guild_id, getattr(interaction, "guild_locale", None))
    if guild_id is None:  # a DM or group DM: the chat speaks its members' language
        SERVER_LANGUAGES.seen_in_chat(interaction.channel_id, interaction.locale)


def for_server(guild_id: int, text: Any) -> str:
    """``text`` (a :class:`~bot.i18n.core.Text`) written now in the server's language: what
    a table keeps to show in its channel later (why it ended)."""
    with use(SERVER_LANGUAGES.of(guild_id)):
        return str(text)
