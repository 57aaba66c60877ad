"""Reading recorded games back: a member's games on a server, and a game's stored record.

Every method is scoped by server (``guild_id``): another server's game cannot be read from
here.  The games are those :mod:`bot.store.league_recorder` stored.
"""

from __future__ import annotations

from typing import Any

from bot.engine.record_fields import with_stated_fields
from bot.league.models import (
    PAGE_SIZE,
    SEAT_NAMES,
    TEAM_NAMES,
    HistoryEntry,
    HistoryPage,
    SeatPlayer,
    page_count,
)
from bot.league.ratings import display_rating
from bot.league.recording import decode_record
from bot.store.db import Database, Row
from bot.store.sql import in_marks, utc
from bot.store.tables import seed_in_play


class HistoryStore:
    """Recorded games over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def games(self, guild_id: int, user_id: int, page: int = 0) -> HistoryPage:
        """The member's games on this server (every season), newest first, 10 per page."""
        conn = self.db
        page = max(page, 0)
        mine = await self._my_games(guild_id, user_id, page)
        if not mine:
            count = await conn.fetchrow(
                "SELECT COUNT(*) FROM league_seats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            total = int(count[0]) if count else 0
            page = min(page, page_count(total) - 1)
            mine = await self._my_games(guild_id, user_id, page) if total else []
            if not mine:
                return HistoryPage(guild_id, user_id, page, page_count(total), total, ())
        total = mine[0]["total"]
        ids = [r[0] for r in mine]
        games: dict[int, Row] = {}
        seats: dict[int, list[SeatPlayer]] = {i: [] for i in ids}
        scores: dict[int, list[int | None]] = {i: [] for i in ids}
        for r in await conn.fetch(
            "SELECT g.game_id, g.season, g.ended_at, g.preset, g.abandoned, g.rated, "  # noqa: S608
            "g.score_ns, g.score_ew, g.winner, g.solo, g.winner_seat, s.user_id, s.display_name, "
            "s.bot_level, s.score, g.game "
            "FROM league_games g JOIN league_seats s ON s.game_id = g.game_id "
            f"WHERE g.game_id IN ({in_marks(len(ids))}) ORDER BY g.game_id, s.seat",
            ids,
        ):
            games[r[0]] = r
            seats[r[0]].append(SeatPlayer(r["user_id"], r["display_name"], r["bot_level"]))
            scores[r[0]].append(r["score"])
        withheld = await self._withheld(ids)
        entries = tuple(
            _history_entry(m, games[m[0]], seats[m[0]], scores[m[0]], m[0] in withheld)
            for m in mine
        )
        return HistoryPage(guild_id, user_id, page, page_count(total), total, entries)

    async def _withheld(self, ids: list[int]) -> set[int]:
        """Those of these games whose seed is still in play (:func:`seed_in_play`): a
        duplicate round's games while the round is on."""
        rows = await self.db.fetch(
            "SELECT g.game_id FROM league_games g JOIN tables t ON t.id = g.table_id "  # noqa: S608
            f"WHERE g.game_id IN ({in_marks(len(ids))}) AND t.seed IS NOT NULL AND ("
            "EXISTS (SELECT 1 FROM seed_holds h WHERE h.seed = t.seed) OR EXISTS (SELECT 1 "
            "FROM tables o WHERE o.seed = t.seed AND o.status IN ('lobby', 'playing')))",
            tuple(ids),
        )
        return {int(r[0]) for r in rows}

    async def _my_games(self, guild_id: int, user_id: int, page: int) -> list[Row]:
        return await self.db.fetch(
            "SELECT game_id, seat, mu_before, sigma_before, mu_after, sigma_after, forfeit, "
            "(SELECT COUNT(*) FROM league_seats WHERE guild_id = ?1 AND user_id = ?2) AS total "
            "FROM league_seats WHERE guild_id = ?1 AND user_id = ?2 "
            "ORDER BY game_id DESC LIMIT ?3 OFFSET ?4",
            (guild_id, user_id, PAGE_SIZE, page * PAGE_SIZE),
        )

    async def game_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        """The stored ``spades-record/1`` document of a game of this server, else ``None``.

        Every reader of a record (``/history``, ``/spades verify``, replays, reviews) comes
        here: a game whose seed a table still open deals from (a duplicate round still on)
        comes without its ``seed``, its ``commitment`` kept, until that round is over."""
        row = await self.db.fetchrow(
            "SELECT r.data, r.encoding FROM league_records r "
            "JOIN league_games g ON g.game_id = r.game_id "
            "WHERE r.game_id = ? AND g.guild_id = ?",
            (game_id, guild_id),
        )
        if row is None:
            return None
        doc = with_stated_fields(decode_record(row[0], row[1]))  # an older record's too
        seed = doc.get("seed")
        if isinstance(seed, str) and await seed_in_play(self.db, seed):
            doc = {k: v for k, v in doc.items() if k != "seed"}
        return doc


def boards_withheld(doc: dict[str, Any]) -> bool:
    """Is ``doc`` (from :meth:`HistoryStore.game_record`) a game whose seed is still in play?
    Its hands are then boards other tables of its round still play: no review, replay or
    export shows them until the round is over.  A record has a seed and its commitment or
    neither, so only ``game_record`` makes one with the commitment alone."""
    return "commitment" in doc and "seed" not in doc


def _history_entry(
    mine: Row, game: Row, seats: list[SeatPlayer], seat_scores: list[int | None], withheld: bool
) -> HistoryEntry:
    seat = mine[1]
    solo = bool(game["solo"])
    if solo:  # games.md G2: every player alone; the best of the others' scores is "them"
        side, partner = SEAT_NAMES[seat], None
        others = [i for i in range(len(seats)) if i != seat]
        opponents = tuple(seats[i] for i in others)
        us = seat_scores[seat] or 0
        them = max((seat_scores[i] or 0) for i in others)
        won = game["winner_seat"] == seat
    else:
        side, partner = TEAM_NAMES[seat & 1], seats[seat ^ 2]
        opponents = (seats[(seat + 1) % 4], seats[(seat + 3) % 4])
        scores = (game["score_ns"], game["score_ew"])
        us, them = scores[seat & 1], scores[(seat & 1) ^ 1]
        won = game["winner"] == side
    if game["abandoned"]:
        result = "abandoned"
    elif mine["forfeit"]:
        result = "left (lost)"
    else:
        result = "won" if won else "lost"
    change = None
    if mine[4] is not None:
        change = display_rating(mine[4], mine[5]) - display_rating(mine[2], mine[3])
    return HistoryEntry(
        game_id=game["game_id"],
        season=game["season"],
        ended_at=utc(game["ended_at"]),
        preset=game["preset"],
        seat=SEAT_NAMES[seat],
        team=side,
        partner=partner,
        opponents=opponents,
        score_us=us,
        score_them=them,
        result=result,
        rated=bool(game["rated"]),
        rating_change=change,
        game=game["game"],
        withheld=withheld,
    )
