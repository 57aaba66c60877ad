"""Hands a finished (or abandoned) table to the league, inside the final action's transaction."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from bot.engine import Game, Seat
from bot.engine.record import export_record
from bot.league.models import FinishedGame, SeatPlayer
from bot.league.recording import prepare_game
from bot.league.scope import scope_of
from bot.league.settings import rates_turn_timer
from bot.store.db import Tx
from bot.store.league import LeagueStore
from bot.tables.persistence import GameStoredHook
from bot.tables.state import SeatRating, Table, TableStatus

log = logging.getLogger(__name__)


def finished_game(table: Table, game: Game) -> FinishedGame | None:
    """The league's view of a table that ended; ``None`` when no member sat at it, or when
    it counts in no league (a DM, a server that has not added the bot)."""
    scope = scope_of(table.place.league, table.guild_id, table.channel_id)
    if scope is None:
        return None
    seats = []
    for s in game.seating.seats:
        occ = table.seats.get(s)
        if occ is None:
            return None
        level = occ.bot_level if occ.bot_level in ("easy", "normal", "hard") else None
        if occ.user_id is None and level is None:
            level = "normal"
        seats.append(SeatPlayer(occ.user_id, occ.name, level, forfeit=occ.left))
    if all(p.user_id is None for p in seats):
        return None
    abandoned = table.status == TableStatus.ABANDONED or game.winner is None
    players = {
        s.name: {"name": p.display_name, "bot": p.user_id is None}
        for s, p in zip(game.seating.seats, seats, strict=True)
    }
    started = table.started_at or table.created_at
    return FinishedGame(
        guild_id=scope.key,  # the league's key: a server's, or a group DM's (bot.league.scope)
        channel_id=table.channel_id,
        table_id=table.id,
        started_at=datetime.fromtimestamp(started, UTC),
        ended_at=datetime.fromtimestamp(table.ended_at or started, UTC),
        abandoned=abandoned,
        seats=tuple(seats),
        rules=game.rules,
        scores=tuple(game.scores),
        winner=None if abandoned or game.winner is None else game.winner.name,
        record=export_record(game, players, table.seed, table.hand_limit),  # the seed revealed
        results=tuple(game.results),
        # A table with hints is practice: the host chose hints over a rating.
        rateable=table.rated and rates_turn_timer(table.turn_timer) and not table.options.hints,
    )


def recorder(league: LeagueStore) -> GameStoredHook:
    """The table service's ``on_game_stored`` hook: record the game in the same transaction."""

    async def record(conn: Tx, table: Table, game: Game) -> tuple[SeatRating, ...] | None:
        finished = finished_game(table, game)
        if finished is None:
            return None
        recorded = await league.recorder.record_game(conn, prepare_game(finished))
        if not recorded.rated:
            return None
        return tuple(SeatRating(Seat[c.seat], c.before, c.after) for c in recorded.changes)

    return record
