"""The store's interface (:class:`Database`, :class:`Tx`, :class:`Row`), with every backend
loaded, so ``Database.open(url)`` finds the one the URL names.  See ``bot/store/base.py``."""

from __future__ import annotations

from bot.store import postgres as _postgres
from bot.store import sqlite as _sqlite
from bot.store.base import Database, Queries, Row, Synchronous, Tx

BACKENDS = {_sqlite.SQLiteDatabase.backend, _postgres.PostgresDatabase.backend}

__all__ = ["BACKENDS", "Database", "Queries", "Row", "Synchronous", "Tx"]
