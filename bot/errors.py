"""Refusals of the service layer: each carries a reason the user reads (ephemerally)."""

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
