"""Who may see a finished game of a league, and who may share its replay: one check for the
record file (``/history``), the review (**Review**) and the shared replay (**Share as
replay**, then its steps).

* The game is one of this league's (a server's, or a group DM's).
* Its hands are no boards still in play: while other tables of its duplicate round play them,
  neither its record, its review nor its replay shows them, until the round's last table ends.
* A review or a replay needs a record that replays.
* Only a player of the game shares its replay; only who posted a replay turns its steps.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass
from typing import Any, Final, Protocol

from bot.engine import Seat
from bot.errors import Refusal
from bot.i18n import N_, _
from bot.review.decisions import GameReplay
from bot.review.service import replay_or_none
from bot.store.league_history import boards_withheld


class Purpose(enum.Enum):
    """What a finished game is opened for."""

    RECORD = "record"  # its record file, from /history
    REVIEW = "review"  # its review (a player's seats see their cards)
    SHARE = "share"  # its replay, posted for everyone by one of its players
    STEP = "step"  # a step of a posted replay


# The refusals' words, as each surface has said them.
NOT_HERE: Final = {
    Purpose.RECORD: N_("That game is not in this league."),
    Purpose.REVIEW: N_("That game is not in this league."),
    Purpose.SHARE: N_("That game is not on this server."),
    Purpose.STEP: N_("That game is not on this server."),
}
NO_REPLAY: Final = {
    Purpose.REVIEW: N_("That game's record cannot be replayed, so it cannot be reviewed."),
    Purpose.SHARE: N_("That game's record cannot be replayed."),
    Purpose.STEP: N_("That game's record cannot be replayed."),
}


class GameRecords(Protocol):
    """The league's records (``bot.store.league_history.HistoryStore``)."""

    async def game_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None: ...


class GameSeats(Protocol):
    """Who played a recorded game (``bot.store.reviews.ReviewStore``)."""

    async def game_of_table(self, guild_id: int, table_id: str) -> int | None: ...

    async def seats_of_game(self, guild_id: int, game_id: int) -> dict[Seat, int | None]: ...


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as a member may see it: its record, its replay (``None`` for the
    record file alone) and the seats the member played in it (none for the record file)."""

    game_id: int
    doc: dict[str, Any]
    replay: GameReplay | None
    viewer: frozenset[Seat]


async def open_game(
    records: GameRecords,
    seats: GameSeats,
    league: int,
    game_id: int,
    user_id: int,
    purpose: Purpose,
) -> FinishedGame:
    """The finished game ``game_id`` of ``league`` for ``user_id`` to use for ``purpose``, or
    a refusal saying why not (in the order above)."""
    doc = await records.game_record(league, game_id)
    if doc is None:
        raise Refusal(_(NOT_HERE[purpose]))
    if boards_withheld(doc):  # other tables of its round still play its boards
        raise Refusal(boards_withheld_refusal(game_id))
    if purpose is Purpose.RECORD:
        return FinishedGame(game_id, doc, None, frozenset())
    replay = await asyncio.to_thread(replay_or_none, doc)  # a whole game: off the event loop
    if replay is None:
        raise Refusal(_(NO_REPLAY[purpose]))
    if purpose is Purpose.STEP:  # its poster turns its steps (check_poster), seats unread
        return FinishedGame(game_id, doc, replay, frozenset())
    played = await seats.seats_of_game(league, game_id)
    viewer = frozenset(s for s, uid in played.items() if uid == user_id)
    if purpose is Purpose.SHARE and not viewer:
        raise Refusal(_("Only the players of that game can post its replay."))
    return FinishedGame(game_id, doc, replay, viewer)


async def game_of_table(seats: GameSeats, league: int, table_id: str) -> int:
    """The recorded game a finished table became (a game-over message's **Review**)."""
    game_id = await seats.game_of_table(league, table_id)
    if game_id is None:
        raise Refusal(_("That game was not recorded (no member played in it)."))
    return game_id


def check_poster(poster: int, user_id: int) -> None:
    """Only the member who posted a shared replay turns its steps."""
    if user_id != poster:
        raise Refusal(
            _(
                "Only {poster}, who posted this replay, turns its steps: press "
                "**Review** on the game (or find it in `/history`) to step through it "
                "yourself.",
                poster=f"<@{poster}>",
            )
        )


def boards_withheld_refusal(game_id: int) -> str:
    """Why a review, a shared replay or the record of a game is refused while other tables
    of its duplicate round still play its boards (bot.store.league_history.boards_withheld)."""
    return _(
        "Game #{id}'s hands are the boards other tables of its round are still playing: its "
        "review, replay and record are available when the round's last table ends.",
        id=game_id,
    )
