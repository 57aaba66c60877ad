"""What the table commands (``/spades``, ``/tournament``) offer and read back: the presets with
their descriptions, the seats of a channel's table, in the user's words."""

from __future__ import annotations

from discord import app_commands

from bot.command_input import excerpt
from bot.engine import Seat, games
from bot.errors import Refusal
from bot.i18n import _
from bot.i18n.cards import seat_of_word, seat_word
from cogs.common import Interaction, channel_id, client

TABLE_PRESETS = games.preset_names()  # every game's presets: Spades and its variants, Whist, Euchre


def preset_choices(current: str) -> list[app_commands.Choice[str]]:
    """games.md G6: the presets matching what was typed, each with its one-line description
    (``solo — Solo (cutthroat): four players, everyone scores alone``)."""
    cur = current.lower().strip()
    described = {p: _(games.preset(p).description) for p in TABLE_PRESETS}  # the user's words
    return [
        app_commands.Choice(name=f"{p} — {described[p]}"[:100], value=p)
        for p in TABLE_PRESETS
        if cur in p or cur in described[p].lower() or cur in games.preset(p).description.lower()
    ][:25]


def parse_seat(text: str | None) -> Seat | None:
    if text is None:
        return None
    said = seat_of_word(text)  # the seat in the player's words
    if said is not None:
        return said
    try:
        return Seat.parse(text)
    except ValueError:
        raise Refusal(
            _("{text} is not a seat: choose North, East, South or West.", text=excerpt(text))
        ) from None


def seat_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The seats of this channel's table (N, E, S at a three-player table), free ones first."""
    table = client(interaction).tables.registry.find_in_channel(channel_id(interaction))
    seats = table.seat_order if table is not None else tuple(Seat)
    free = table.free_seats() if table is not None else list(seats)
    ordered = [*free, *(s for s in seats if s not in free)]
    cur = current.lower().strip()
    return [
        app_commands.Choice(
            name=seat_word(s) if s in free else _("{seat} (taken)", seat=seat_word(s)),
            value=s.name,
        )
        for s in ordered
        if seat_word(s).lower().startswith(cur)
        or s.word.lower().startswith(cur)
        or s.name.lower() == cur
    ]


async def preset_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The autocomplete of every command's ``preset`` (``/spades new``, ``/tournament new``)."""
    return preset_choices(current)


async def seat_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The autocomplete of every command's ``seat`` at this channel's table (``/spades join``,
    ``/spades bot``)."""
    return seat_choices(interaction, current)
