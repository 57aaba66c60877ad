"""``DATABASE_URL``: which backend, and where — checked before use, and never shown with its
password.

A PostgreSQL URL is read the way asyncpg reads it (``user:password@`` up to the *first* ``@``,
the host up to the first ``/``, ``?`` or ``#``), so a password holding one of ``# / ? @``
unencoded would be cut in two and partly taken for a host, a port, a path or a query — and
then quoted back in an error.  Such a URL is refused here with one line that quotes none of
it.  :func:`redact` hides the password in every form (``user:password@``, ``?password=``,
even in a malformed URL) for logs and messages.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

from bot.store.errors import SetupError

DEFAULT_URL = "sqlite:///data/spades.db"
HIDDEN = "***"
# How to write a password that holds a character with a meaning in URLs.
ENCODE = (
    "percent-encode # / ? @ in the user name and password (%23 %2F %3F %40), "
    "e.g. postgresql://spades:p%23ss@localhost:5432/spades"
)
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]{0,19}")
_PORT = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    backend: str  # "sqlite" or "postgresql"
    path: str = ""  # SQLite: the file (":memory:" for a throw-away database)
    dsn: str = ""  # PostgreSQL: the URL as asyncpg takes it

    def redacted(self) -> str:
        """For logs: the URL without its password."""
        if self.backend == "sqlite":
            return f"sqlite:///{self.path}"
        return redact(self.dsn)


def redact(url: str) -> str:
    """``url`` with every password hidden: the userinfo's (everything between ``://`` and the
    *last* ``@``, so that a password holding an unencoded ``@ # / ?`` is hidden whole), and
    every query value whose name holds ``password`` (``password``, ``sslpassword``), as well as
    any query part that is not ``name=value`` (the tail of a password holding ``&``)."""
    scheme, sep, rest = url.partition("://")
    if not sep or not _SCHEME.fullmatch(scheme.lower()):
        # Not a URL: a file path, shown unless it might hold a password.
        return HIDDEN if "@" in url or "password" in url.lower() else url
    if "@" in rest:
        creds, rest = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        rest = f"{user}:{HIDDEN}@{rest}" if ":" in creds else f"{user}@{rest}"
    base, mark, query = rest.partition("?")
    if mark:
        query, hash_, _ = query.partition("#")
        parts = []
        for part in query.split("&"):
            name, eq, _value = part.partition("=")
            secret = "password" in urllib.parse.unquote_plus(name).lower()
            parts.append(f"{name}={HIDDEN}" if eq and secret else part if eq else HIDDEN)
        rest = f"{base}?{'&'.join(parts)}" + (f"#{HIDDEN}" if hash_ else "")
    elif "#" in base:
        rest = base.partition("#")[0] + f"#{HIDDEN}"
    return f"{scheme}{sep}{rest}"


def parse_database_url(target: str) -> DatabaseUrl:
    """``sqlite:///relative/file.db``, ``sqlite:////absolute/file.db``, ``postgresql://…``
    (or ``postgres://…``), or a bare file path (SQLite).  A malformed URL is refused with one
    line (:class:`SetupError`) that never quotes its password."""
    text = target.strip()
    if not text:
        raise SetupError("DATABASE_URL is empty")
    scheme, sep, rest = text.partition("://")
    if not sep:
        creds, at, _ = text.partition("@")
        if "password" in text.lower() or (at and ":" in creds):
            raise SetupError(
                "DATABASE_URL looks like a PostgreSQL connection without postgresql:// in "
                "front: write postgresql://user:password@host:5432/db"
            )
        return DatabaseUrl("sqlite", path=text)
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise SetupError(
                "DATABASE_URL for SQLite is sqlite:///relative/path.db or sqlite:////absolute/path.db"
            )
        return DatabaseUrl("sqlite", path=urllib.parse.unquote(rest[1:]))
    if scheme in ("postgresql", "postgres"):
        _check_postgresql(rest)
        return DatabaseUrl("postgresql", dsn=text)
    shown = f"{scheme}://" if _SCHEME.fullmatch(scheme) else "anything else"
    raise SetupError(f"DATABASE_URL must start with sqlite:/// or postgresql://, not {shown}")


def _check_postgresql(rest: str) -> None:
    """What follows ``postgresql://``: one ``user:password@`` at most, wholly before the
    host; ports that are numbers; a query of ``name=value`` pairs; a host somewhere."""
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, after = rest[:end], rest[end:]
    if "@" in after or "#" in after or authority.count("@") > 1:
        raise SetupError(f"DATABASE_URL is not a valid URL: {ENCODE}")
    named = False
    for host in authority.rpartition("@")[2].split(","):
        if host.startswith("["):  # [IPv6]:port
            name, bracket, port = host[1:].partition("]")
            if not bracket or (port and not port.startswith(":")):
                raise SetupError("DATABASE_URL: an IPv6 host is written [::1]:5432")
            port = port[1:]
        else:
            name, _, port = host.partition(":")
        named = named or bool(name)
        if port and not (_PORT.fullmatch(port) and 0 < int(port) < 65536):
            raise SetupError(
                f"DATABASE_URL: a port is a number from 1 to 65535 (after the host); {ENCODE}"
            )
    query = after.partition("?")[2]
    if query:
        try:
            urllib.parse.parse_qs(query, strict_parsing=True)
        except ValueError:
            raise SetupError(
                "DATABASE_URL: the part after ? must be name=value pairs joined by &, "
                "each percent-encoded (& as %26, = as %3D)"
            ) from None
    if not named and "host=" not in query:
        raise SetupError(
            "DATABASE_URL for PostgreSQL needs a host: postgresql://user:password@host:5432/db"
        )
