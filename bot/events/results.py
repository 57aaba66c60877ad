"""A tournament table's result, recorded in the transaction that ends the table.

Registered as the table service's ``on_table_ended`` hook: it needs no tournament in memory
(it reads the game's row by table id), so a table that ends while its tournament is still
being resumed after a restart is recorded all the same."""

from __future__ import annotations

import json

from bot.engine import Game
from bot.events.pairing.model import winner_by_score
from bot.store.db import Tx
from bot.tables.state import Table, TableStatus


async def record_table_end(tx: Tx, table: Table, game: Game | None) -> None:
    if not table.arranged:
        return
    row = await tx.fetchrow(
        "SELECT tournament_id, round, slot, game_no, entries FROM tournament_games "
        "WHERE table_id = ? AND status = 'playing' FOR UPDATE",
        (table.id,),
    )
    if row is None:
        return
    entries = tuple(int(e) for e in json.loads(row["entries"]))
    scores = tuple(game.scores) if game is not None else (0,) * len(entries)
    if len(scores) != len(entries):
        scores = (0,) * len(entries)
    winner: int | None
    if table.status == TableStatus.FINISHED and game is not None and game.winner is not None:
        winner = entries[game.seating.side_names.index(game.winner.name)]
    else:
        winner = winner_by_score(entries, scores)
    boards = [[t.points for t in r.teams] for r in game.results] if game is not None else []
    await tx.execute(
        "UPDATE tournament_games SET status = 'done', scores = ?, winner = ?, decided = ?, "
        "boards = ? WHERE tournament_id = ? AND round = ? AND slot = ? AND game_no = ?",
        (
            json.dumps(list(scores)),
            winner,
            int(table.status != TableStatus.FINISHED),
            json.dumps(boards),
            row["tournament_id"],
            row["round"],
            row["slot"],
            row["game_no"],
        ),
    )
