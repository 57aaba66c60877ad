"""Opening a table (``/spades new``) in the lobby, against a real SQLite database: where one
may be opened, the member and the channel free, the preset, and the server's defaults filled
in — all refused before anything is made — then the table opened where it was asked for."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import Seat
from bot.errors import Refusal
from bot.league.scope import GROUP
from bot.league.settings import GuildSettings
from bot.tables.new_table import NewTable
from bot.tables.service import TableService
from bot.tables.state import Place
from tests.tables import test_service as shared
from tests.tables.test_service import CHANNEL, GUILD, USERS

service = shared.service  # the fixture: a table service on a real SQLite database
ASK = NewTable(guild_id=GUILD, channel_id=CHANNEL, host_id=USERS[0], host_name="alice")
DM = Place("interaction", GROUP)  # a group DM: the table is the command's answer


async def test_a_table_takes_the_servers_defaults_then_opens_where_asked(
    service: TableService,
) -> None:
    server = GuildSettings(guild_id=GUILD, preset="new-york", target=300, turn_timer=45)
    ask = service.lobby.check_new(ASK, server)
    assert (ask.preset, ask.target, ask.turn_timer) == ("new-york", 300, 45)
    own = service.lobby.check_new(dataclasses.replace(ASK, target=200, turn_timer=0), server)
    assert (own.preset, own.target, own.turn_timer) == ("new-york", 200, 0)
    # The server's target goes with its preset's game: a Spades 300 is no Euchre target.
    euchre = service.lobby.check_new(dataclasses.replace(ASK, preset="euchre"), server)
    assert (euchre.preset, euchre.target) == ("euchre", None)
    table = await service.lobby.open_new(ask, CHANNEL + 1)  # a thread made for it
    assert table.channel_id == CHANNEL + 1
    assert table.rules.preset == "new-york"
    assert table.rules.target == 300
    assert table.turn_timer == 45
    assert table.seats[Seat.N].user_id == USERS[0]  # its host sits North


async def test_outside_a_server_the_standard_table_without_a_timer(
    service: TableService,
) -> None:
    ask = service.lobby.check_new(dataclasses.replace(ASK, place=DM), None)
    assert (ask.preset, ask.target, ask.turn_timer) == ("standard", None, 0)
    with pytest.raises(Refusal, match="Threads need the bot in a server"):
        service.lobby.check_new(dataclasses.replace(ASK, place=DM, thread=True), None)


async def test_where_a_table_may_not_be_opened_nothing_is_made(
    service: TableService,
) -> None:
    listed = GuildSettings(guild_id=GUILD, allowed_channels=frozenset({CHANNEL + 5}))
    with pytest.raises(Refusal, match=f"only be opened in <#{CHANNEL + 5}>"):
        service.lobby.check_new(ASK, listed)
    in_thread = dataclasses.replace(ASK, in_thread=True, parent_id=CHANNEL + 5)
    assert service.lobby.check_new(in_thread, listed).channel_id == CHANNEL
    with pytest.raises(Refusal, match="already a thread"):
        service.lobby.check_new(dataclasses.replace(in_thread, thread=True), listed)
    with pytest.raises(Refusal, match="There is no preset `blitz`"):
        service.lobby.check_new(dataclasses.replace(ASK, preset="blitz"), None)
    await service.lobby.open_new(service.lobby.check_new(ASK, None), CHANNEL)
    with pytest.raises(Refusal, match="already seated at a table"):
        service.lobby.check_new(ASK, None)
    bob = dataclasses.replace(ASK, host_id=USERS[1], host_name="bob")
    with pytest.raises(Refusal, match="This channel already has a table"):
        service.lobby.check_new(bob, None)
    assert service.lobby.check_new(dataclasses.replace(bob, thread=True), None).thread
    assert service.registry.find_in_channel(CHANNEL + 1) is None
