"""Refusals: the one family of errors that mean "understood, and refused; nothing changed".

Every layer above the foundations raises them (the table service, tournaments, the league,
the option checks, cooldowns, reviews), each kind a subclass of :class:`Refusal` named for what
it refuses, and :func:`bot.ui.discord.failures.answer_error` answers every one of them the same way:
its ``reason``, to the member alone.  The reason is written where the refusal is raised, from
the catalogs (``_("…", **params)``), in the language of the interaction being answered (chosen
for its whole handling, :func:`bot.i18n.answering`).

The engine's own errors (:class:`bot.engine.GameError`: an illegal move, a rule value) stay in
the engine, which imports nothing of the bot; ``answer_error`` answers them too, translating
the engine's sentence.  Nothing converts one kind into another: a refusal travels unchanged
from where it is raised to the member.
"""

from __future__ import annotations


class Refusal(Exception):
    """The request was understood and refused; nothing changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NoTable(Refusal):
    pass


class NotSeated(Refusal):
    pass


class NotHost(Refusal):
    pass


class StaleButton(Refusal):
    """A button from an earlier hand, or from a finished table."""


class NotYourButtons(Refusal):
    pass


class Duplicate(Refusal):
    """The same interaction was delivered again; it has been applied already."""


class StoreFailed(Refusal):
    """The action could not be saved, so it was not applied."""


class TableMoved(Refusal):
    """Another process wrote the table first: the action was not applied, and the table was
    reloaded from the database."""
