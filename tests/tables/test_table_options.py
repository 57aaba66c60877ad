"""The table's own settings (spectators, hints) and the hints taken, against a real SQLite
database: set by the host in the lobby only, kept across a restart and Play again; a hint is
offered only at a table with hints, to the player on turn, and counted before the answer; a
table with hints is never rated."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Seat, seat_view
from bot.errors import NotHost, NotSeated, Refusal, StaleButton
from bot.league_link import finished_game
from bot.store.db import Database
from bot.tables.options import TableOptions, TableSettings, split_rules_doc
from bot.tables.service import TableService
from bot.tables.state import Table
from bot.ui.hand.hand import hand_controls
from bot.ui.table.scoresheet import game_over_embed, ratings_text
from tests.tables.test_service import CHANNEL, GUILD, USERS, act_once, decide

ALICE, BOB = USERS[0], USERS[1]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "t.db")) as database:
        yield database


async def lobby_table(svc: TableService) -> Table:
    table = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice", preset="standard"
    )
    for uid, name, seat in zip(
        USERS[1:], ("bob", "carol", "dave"), (Seat.E, Seat.S, Seat.W), strict=True
    ):
        await svc.lobby.join(table, uid, name, seat)
    return table


async def until_turn_of(svc: TableService, table: Table, seat: Seat, rng: random.Random) -> None:
    while table.to_act != seat or len(seat_view(table.game, seat).legal) < 2:  # type: ignore[arg-type]
        await act_once(svc, table, rng)


async def test_the_host_sets_the_table_settings_in_the_lobby_only(db: Database) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    with pytest.raises(NotHost):
        await svc.lobby.set_option(table, BOB, "hints", "on")
    with pytest.raises(Refusal, match="spectators must be public, hands after each hand, or off"):
        await svc.lobby.set_option(table, ALICE, "spectators", "friends")
    options = await svc.lobby.set_option(table, ALICE, "spectators", "hands after each hand")
    assert options == TableOptions("hands", False)
    assert (await svc.lobby.set_option(table, ALICE, "hints", "on")).hints
    # A rule changed afterwards keeps the settings (they share the stored rules object).
    await svc.lobby.set_rule(table, ALICE, "target", "300")
    await svc.lobby.start(table, ALICE)
    with pytest.raises(Refusal, match="fixed once the game has started"):
        await svc.lobby.set_option(table, ALICE, "spectators", "off")
    await svc.close()

    restarted = TableService(db, decide, test_seed=3, bot_delay=0)
    [again] = await restarted.restore()
    assert again.options == TableOptions("hands", True)
    assert again.rules.target == 300
    await restarted.close()


async def test_a_hint_is_offered_to_the_player_on_turn_at_a_table_with_hints(
    db: Database,
) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    await svc.lobby.set_option(table, ALICE, "hints", "on")
    await svc.lobby.start(table, ALICE)
    rng = random.Random(2)
    await until_turn_of(svc, table, Seat.N, rng)
    game = table.game
    assert game is not None

    # On turn: the Hint button, and a request gives North's own view.
    request = svc.hints.request(table, ALICE)
    assert request.seat is Seat.N
    assert request.view == seat_view(game, Seat.N)
    assert any(c.ref.verb == "hint" for c in hand_controls(table, seat_view(game, Seat.N)))
    # Not on turn: no button, and a request is refused with the reason.
    assert not any(c.ref.verb == "hint" for c in hand_controls(table, seat_view(game, Seat.E)))
    with pytest.raises(Refusal, match="A hint is for your turn"):
        svc.hints.request(table, BOB)
    with pytest.raises(NotSeated):
        svc.hints.request(table, 999)

    assert await svc.hints.taken(table, request) == 1
    again = svc.hints.request(table, ALICE)
    assert again.seed == request.seed, "the same position, the same hint"
    assert await svc.hints.taken(table, again) == 1, "asked twice in one position: one hint"
    await act_once(svc, table, rng)
    await until_turn_of(svc, table, Seat.N, rng)
    assert await svc.hints.taken(table, svc.hints.request(table, ALICE)) == 2
    # A hint worked out for a state that has moved on is not counted.
    stale = svc.hints.request(table, ALICE)
    await act_once(svc, table, rng)
    with pytest.raises(StaleButton, match="moved on"):
        await svc.hints.taken(table, stale)
    assert table.hints_taken == {Seat.N: 2}
    await svc.close()

    restarted = TableService(db, decide, test_seed=3, bot_delay=0)
    [again] = await restarted.restore()
    assert again.hints_taken == {Seat.N: 2}, "the count survives a restart"
    assert again.options.hints
    await restarted.close()


async def test_no_hint_in_a_tournament_game(db: Database) -> None:
    """A tournament's table (arranged by its director) never offers a hint, whatever its
    settings say."""
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    table.options = TableOptions(hints=True)
    await svc.lobby.start(table, ALICE)
    await until_turn_of(svc, table, Seat.N, random.Random(4))
    table.arranged = True
    with pytest.raises(Refusal, match="no hints in a tournament game"):
        svc.hints.request(table, ALICE)
    await svc.close()


async def test_no_hint_at_a_table_without_hints(db: Database) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    await svc.lobby.start(table, ALICE)
    await until_turn_of(svc, table, Seat.N, random.Random(4))
    assert table.game is not None
    view = seat_view(table.game, Seat.N)
    assert not any(c.ref.verb == "hint" for c in hand_controls(table, view))
    with pytest.raises(Refusal, match="plays without hints"):
        svc.hints.request(table, ALICE)
    await svc.close()


async def test_a_table_with_hints_is_never_rated_and_says_how_many_hints_each_took(
    db: Database,
) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    await svc.lobby.start(table, ALICE)
    game = table.game
    assert game is not None
    finished = finished_game(table, game)
    assert finished is not None
    assert finished.rateable, "four members, no timer, no hints: rated"

    table.options = TableOptions(hints=True)
    table.hints_taken = {Seat.N: 3, Seat.S: 1}
    finished = finished_game(table, game)
    assert finished is not None
    assert not finished.rateable, "hints: a practice game"
    assert ratings_text(table) == "Not rated: a practice game with hints."
    embed = game_over_embed(table, seat_view(game, None)).to_dict()
    field = next(f for f in embed.get("fields", []) if "Hints" in f["name"])
    assert field["value"] == (
        "alice (North) 3 hints · bob (East) 0 hints · carol (South) 1 hint · dave (West) 0 hints"
    )
    await svc.close()


async def test_play_again_keeps_the_settings(db: Database) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await lobby_table(svc)
    await svc.lobby.set_option(table, ALICE, "spectators", "off")
    await svc.lobby.set_option(table, ALICE, "hints", "on")
    assert table.rematch().options == TableOptions("off", True)
    await svc.close()


def test_the_settings_read_back_what_they_wrote_and_default_otherwise() -> None:
    settings = TableSettings(TableOptions("hands", True), {Seat.W: 4})
    rules, back = split_rules_doc({"preset": "short", "table": settings.to_doc()})
    assert rules == {"preset": "short"}
    assert back == settings
    assert split_rules_doc({"preset": "short"})[1] == TableSettings()
    odd = {"spectators": "everyone", "hints": "yes", "hints_taken": {"X": 2, "N": "3"}}
    assert TableSettings.from_doc(odd) == TableSettings()
