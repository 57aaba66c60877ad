"""A tournament table's result, recorded in the transaction that ends the table.

Registered as the table service's ``on_table_ended`` hook: it needs no tournament in memory
(it reads the game's row by table id), so a table that ends while its tournament is still
being resumed after a restart is recorded all the same."""

from __future__ import annotations

import dataclasses

from bot.engine import Game
from bot.events.pairing.model import SlotStatus, winner_by_score
from bot.store.db import Tx
from bot.store.tournaments import TournamentStore
from bot.tables.state import Table, TableStatus


async def record_table_end(store: TournamentStore, tx: Tx, table: Table, game: Game | None) -> None:
    if not table.arranged:
        return
    found = await store.game_at_table(tx, table.id)
    if found is None:
        return
    tournament_id, slot = found
    entries = slot.entries
    scores = tuple(game.scores) if game is not None else (0,) * len(entries)
    if len(scores) != len(entries):
        scores = (0,) * len(entries)
    winner: int | None
    if table.status == TableStatus.FINISHED and game is not None and game.winner is not None:
        winner = entries[game.seating.side_names.index(game.winner.name)]
    else:
        winner = winner_by_score(entries, scores)
    boards = (
        tuple(tuple(t.points for t in r.teams) for r in game.results) if game is not None else ()
    )
    done = dataclasses.replace(
        slot,
        status=SlotStatus.DONE,
        scores=scores,
        winner=winner,
        decided=table.status != TableStatus.FINISHED,
        boards=boards,
    )
    await store.put_game(tx, tournament_id, done)
