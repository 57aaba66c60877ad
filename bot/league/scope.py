"""Whose league a game counts in: a server's, or a group DM's (issue 27).

A server that added the bot has its league, keyed by the server.  Friends who play in a group
DM (the app installed to their accounts, the bot no member of the channel) have a league of
that group, keyed by the group DM's channel.  The league's tables keep their key in the column
named ``guild_id`` since migration 002: it holds :attr:`LeagueScope.key`, the server's id or the
group's channel id.  Both are Discord snowflakes, drawn from one sequence, so a group's key is
never a server's.  A DM with the bot and a server that has not added the bot count in no
league (``None``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.i18n import N_

SERVER: Final = "server"
GROUP: Final = "group"
NONE: Final = "none"
KINDS: Final = (SERVER, GROUP, NONE)


@dataclass(frozen=True, slots=True)
class LeagueScope:
    kind: str  # SERVER or GROUP
    id: int  # the server's id, or the group DM channel's id

    def __post_init__(self) -> None:
        if self.kind not in (SERVER, GROUP):
            raise ValueError(f"a league is a server's or a group's, not {self.kind!r}")

    @property
    def key(self) -> int:
        """The league's key in the database (the ``guild_id`` column of its tables)."""
        return self.id

    @property
    def here(self) -> str:
        """Where, for a sentence: "on this server" or "in this group"."""
        return N_("on this server") if self.kind == SERVER else N_("in this group")


def scope_of(kind: str, guild_id: int, channel_id: int) -> LeagueScope | None:
    """The league of a table of league ``kind`` (``server``/``group``/``none``) in
    ``guild_id``/``channel_id``."""
    if kind == SERVER:
        return LeagueScope(SERVER, guild_id)
    if kind == GROUP:
        return LeagueScope(GROUP, channel_id)
    return None
