"""What can go wrong in the store, independent of the backend.

The backends translate their drivers' exceptions into these, so the table service and the
league never import ``sqlite3`` or ``asyncpg``.
"""

from __future__ import annotations


class StoreError(Exception):
    """A read or write failed; nothing of the failed transaction was committed."""


class IntegrityError(StoreError):
    """A constraint refused the write (unique key, check, foreign key).

    ``constraint`` is the backend's own name for it (SQLite: ``actions.interaction_id``;
    PostgreSQL: ``actions_interaction``); ``table`` and ``columns`` name it the same way on
    both backends where the driver tells (unique keys: ``"actions"``, ``("interaction_id",)``).
    """

    def __init__(
        self,
        message: str,
        constraint: str | None = None,
        *,
        table: str | None = None,
        columns: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.constraint = constraint
        self.table = table
        self.columns = columns


class UniqueViolation(IntegrityError):
    """A unique key or primary key already holds that value."""


class StoreUnavailable(StoreError):
    """The database could not be reached or written (disk, permissions, server gone)."""


class SetupError(StoreError):
    """The database cannot be opened as configured; the message is one line for the operator
    (a folder that cannot be created, a file that is not a database, a schema from a newer
    version, a server that is unreachable or refuses the credentials)."""
