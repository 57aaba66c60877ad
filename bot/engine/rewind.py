"""A game as it stood some tricks ago: what a delayed spectator is shown (a tournament's
organiser may hold its spectators' view a number of completed tricks behind the game).

The game is replayed from its own record (:func:`~bot.engine.record.export_record`, read back
by the engine's :class:`~bot.engine.record.Replayer`) and stopped just after the trick that
left it that many tricks behind; what a seat or a spectator may know of that state is
:func:`~bot.engine.views.seat_view`, as for the live game.  Replayed from the record, it
shows what the record keeps: in New York, each partnership's final bid, not the proposals
that led to it."""

from __future__ import annotations

from bot.engine.actions import Action, Deal
from bot.engine.errors import RecordError
from bot.engine.game import Game, Phase
from bot.engine.record import Replayer, export_record


def tricks_completed(game: Game) -> int:
    """The tricks the game has completed so far, every hand together (a hand cut short by a
    renege claim counts the tricks it scored)."""
    done = sum(sum(r.tricks) for r in game.results)
    if game.phase not in (Phase.DEAL, Phase.OVER):
        done += len(game.completed_tricks)
    return done


class _Reached(Exception):
    """The replay reached the state wanted."""


def rewound(game: Game, tricks: int) -> Game | None:
    """``game`` as it stood when it had completed ``tricks`` fewer tricks than now: just
    after the trick that brought it there (before the next deal, if that trick ended a
    hand).  ``None`` when it has not completed more than ``tricks`` tricks yet; the game
    itself when ``tricks`` is 0 or less."""
    if tricks <= 0:
        return game
    target = tricks_completed(game) - tricks
    if target <= 0:
        return None

    def before(state: Game, action: Action | Deal) -> None:
        if tricks_completed(state) >= target:
            raise _Reached

    replay = Replayer(export_record(game), before)
    try:
        for _line in replay.lines():
            pass
    except _Reached:
        return replay.game
    except RecordError:  # the game's own record always replays; nothing to show if not
        return None
    return replay.game
