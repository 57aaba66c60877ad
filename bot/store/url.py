"""``DATABASE_URL``: which backend, and where."""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

from bot.store.errors import SetupError

DEFAULT_URL = "sqlite:///data/spades.db"


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    backend: str  # "sqlite" or "postgresql"
    path: str = ""  # SQLite: the file (":memory:" for a throw-away database)
    dsn: str = ""  # PostgreSQL: the URL as asyncpg takes it

    def redacted(self) -> str:
        """For logs: the URL without its password."""
        if self.backend == "sqlite":
            return f"sqlite:///{self.path}"
        parts = urllib.parse.urlsplit(self.dsn)
        netloc = parts.netloc
        if "@" in netloc:
            creds, host = netloc.rsplit("@", 1)
            user = creds.split(":", 1)[0]
            netloc = f"{user}:***@{host}" if ":" in creds else f"{user}@{host}"
        return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def parse_database_url(target: str) -> DatabaseUrl:
    """``sqlite:///relative/file.db``, ``sqlite:////absolute/file.db``, ``postgresql://…``
    (or ``postgres://…``), or a bare file path (SQLite)."""
    text = target.strip()
    if not text:
        raise SetupError("DATABASE_URL is empty")
    scheme, sep, rest = text.partition("://")
    if not sep:
        return DatabaseUrl("sqlite", path=text)
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise SetupError(
                "DATABASE_URL for SQLite is sqlite:///relative/path.db or sqlite:////absolute/path.db"
            )
        return DatabaseUrl("sqlite", path=urllib.parse.unquote(rest[1:]))
    if scheme in ("postgresql", "postgres"):
        parts = urllib.parse.urlsplit(text)
        if not parts.hostname and "host=" not in parts.query:
            raise SetupError(
                "DATABASE_URL for PostgreSQL needs a host: postgresql://user:password@host:5432/db"
            )
        return DatabaseUrl("postgresql", dsn=text)
    raise SetupError(f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme}://")
