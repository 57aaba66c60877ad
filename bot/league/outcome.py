"""What a finished game changes in the league, decided before anything is written: whether it
is rated, each seat's skill after it and result, and the partnerships it counts for.

:class:`bot.store.league_recorder.GameRecorder` reads the skills the members had
(:func:`skills_before`), asks :func:`settle` and writes what it says, in one transaction.

* **Rated** when the table allowed it (:attr:`FinishedGame.rateable`), the game was finished,
  and — unless the server rates games with computer players — every seat was a member.
* **Skills**: a member unknown to this season and game starts at :data:`INITIAL`; a computer
  player has its level's fixed skill (:data:`BOT_SKILLS`); a rated game moves the members'
  (:func:`bot.league.results.rate_finished`).
* **Result** per member: a win when their side won and they did not leave; a loss otherwise,
  unless the game was abandoned (then neither).
* **Partnerships**: the two members of each team that finished together (neither left), in a
  finished partnership game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.league.models import SEAT_NAMES, TEAM_NAMES, FinishedGame, RatingChange, SeatPlayer
from bot.league.ratings import BOT_SKILLS, INITIAL, Skill
from bot.league.results import rate_finished


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of the game: its player, their skill before and after, and for a member
    their result."""

    seat: int
    player: SeatPlayer
    before: Skill
    after: Skill
    rated: bool  # a member whose rating this game moved
    won: bool
    lost: bool
    score: int  # their side's final score

    @property
    def change(self) -> RatingChange | None:
        """The member's rating change, for a rated seat."""
        if not self.rated or self.player.user_id is None:
            return None
        b, a = self.before, self.after
        return RatingChange(
            self.player.user_id, SEAT_NAMES[self.seat], b.mu, b.sigma, a.mu, a.sigma
        )


@dataclass(frozen=True, slots=True)
class Partnership:
    """Two members who finished a game as partners (``low`` < ``high``)."""

    low: int
    high: int
    won: bool


@dataclass(frozen=True, slots=True)
class GameOutcome:
    rated: bool
    seats: tuple[SeatOutcome, ...]
    partnerships: tuple[Partnership, ...]

    @property
    def changes(self) -> tuple[RatingChange, ...]:
        return tuple(c for s in self.seats if (c := s.change) is not None)


def skills_before(seats: tuple[SeatPlayer, ...], known: Mapping[int, Skill]) -> tuple[Skill, ...]:
    """Each seat's skill before the game: a member's ``known`` one (this season and game) or
    :data:`INITIAL`, a computer player's level's."""
    return tuple(
        known.get(s.user_id, INITIAL)
        if s.user_id is not None
        else BOT_SKILLS[s.bot_level or "normal"]
        for s in seats
    )


def settle(finished: FinishedGame, before: tuple[Skill, ...], rate_bot_games: bool) -> GameOutcome:
    """What ``finished`` changes, from the seats' skills ``before`` it (seat order) and the
    server's setting for games with computer players (see the module text)."""
    rated = (
        finished.rateable and not finished.abandoned and (rate_bot_games or not finished.has_bots)
    )
    after = rate_finished(finished, before) if rated else before
    seats = []
    for i, player in enumerate(finished.seats):
        side = finished.side_of(i)
        won = (
            not finished.abandoned
            and finished.winner == finished.side_names[side]
            and not player.forfeit
        )
        seats.append(
            SeatOutcome(
                seat=i,
                player=player,
                before=before[i],
                after=after[i],
                rated=rated and player.user_id is not None,
                won=won,
                lost=not finished.abandoned and not won,
                score=finished.scores[side],
            )
        )
    return GameOutcome(rated, tuple(seats), _partnerships(finished))


def _partnerships(finished: FinishedGame) -> tuple[Partnership, ...]:
    if finished.abandoned or finished.solo:
        return ()
    pairs = []
    for team in (0, 1):
        a, b = finished.seats[team], finished.seats[team + 2]
        if a.user_id is None or b.user_id is None:
            continue
        if a.forfeit or b.forfeit:
            continue  # a pair one of whom left did not finish together
        low, high = sorted((a.user_id, b.user_id))
        pairs.append(Partnership(low, high, finished.winner == TEAM_NAMES[team]))
    return tuple(pairs)
