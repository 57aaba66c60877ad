"""What ``/spades new`` asks for, checked before anything is made for it (a thread, a
message): where a table may be opened, its preset, and the server's defaults filled in.  The
lobby (:meth:`bot.tables.lobby.Lobby.check_new`) adds whether the member and the channel are
free, then opens the table (:meth:`~bot.tables.lobby.Lobby.open_new`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

from bot.command_input import excerpt
from bot.engine import games
from bot.errors import Refusal
from bot.i18n import N_, _
from bot.league.settings import GuildSettings
from bot.tables.state import SERVER, Place

DEFAULT_PRESET: Final = "standard"
NO_THREADS: Final = N_(
    "Threads need the bot in a server (it opens them); here the table is this chat's: "
    "open it without `thread`."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTable:
    """A table asked for: by whom, where, and its options (``None``: the server's default)."""

    guild_id: int
    channel_id: int  # where it was asked for (a thread opened for the table has its own id)
    host_id: int
    host_name: str
    place: Place = SERVER
    preset: str | None = None
    target: int | None = None
    turn_timer: int | None = None
    thread: bool = False  # open it in a new thread of ``channel_id``
    in_thread: bool = False  # ``channel_id`` is a thread ...
    parent_id: int | None = None  # ... of this channel


def check_preset(preset: str) -> str:
    """``preset`` when it names one, else refused with the list of presets."""
    if preset not in games.preset_names():
        raise Refusal(
            _(
                "There is no preset {preset}: pick one from the list ({presets}).",
                preset=excerpt(preset),
                presets=", ".join(games.preset_names()),
            )
        )
    return preset


def check_place(ask: NewTable, server: GuildSettings | None) -> None:
    """Refuse a table where none may be opened: a channel the server's admins did not list,
    a thread asked for outside a server (the bot opens none there) or inside a thread."""
    if ask.place.by_interaction:
        if ask.thread:
            raise Refusal(_(NO_THREADS))
        return
    if server is not None and not server.allows_channel(ask.channel_id, ask.parent_id):
        allowed = ", ".join(f"<#{c}>" for c in server.allowed_channels)
        raise Refusal(
            _("Tables can only be opened in {channels} on this server.", channels=allowed)
        )
    if ask.thread and ask.in_thread:
        raise Refusal(_("This is already a thread: open the table here without `thread`."))


def with_defaults(ask: NewTable, server: GuildSettings | None) -> NewTable:
    """``ask`` with its preset checked and what it leaves open taken from the server's
    defaults (elsewhere: the standard preset, its target, no turn timer).  The server's target
    goes with its preset's game (a Spades 300 is no Euchre target)."""
    if ask.preset is not None:
        check_preset(ask.preset)
    preset, target, timer = ask.preset, ask.target, ask.turn_timer
    if server is not None:
        preset = ask.preset or server.preset
        if target is None and games.same_game(preset, server.preset):
            target = server.target
        timer = server.turn_timer if timer is None else timer
    return dataclasses.replace(
        ask, preset=preset or DEFAULT_PRESET, target=target, turn_timer=timer or 0
    )
