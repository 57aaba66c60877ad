"""A throw-away PostgreSQL server for the tests, started from the machine's binaries.

``initdb`` + ``pg_ctl`` on a temporary folder and a free loopback port, password
authentication (so a wrong password can be tested), stopped and deleted at the end.  PostgreSQL
refuses to run as root; when the tests run as root (CI does) the server runs as the
unprivileged user the distribution's package creates (``postgres``), through ``runuser``.

``SPADES_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) turns "no PostgreSQL here" from a skip into
a failure.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "spades"
PASSWORD = "spades-test-password"
RUN_AS = "postgres"
REQUIRE_ENV = "SPADES_REQUIRE_POSTGRES"


class Unavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") == "1"


def find_bindir() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    candidates = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True
            ).stdout.strip()
            candidates.append(Path(out))
    candidates += sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    if shutil.which("pg_ctl"):
        candidates.append(Path(os.path.realpath(shutil.which("pg_ctl") or "")).parent)
    for d in candidates:
        if all((d / exe).is_file() for exe in ("initdb", "pg_ctl", "postgres")):
            return d
    raise Unavailable(
        "no PostgreSQL server binaries (initdb, pg_ctl, postgres) found: install PostgreSQL "
        "(e.g. apt-get install postgresql) to run the PostgreSQL tests"
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running server.  ``url(db)`` is a ``postgresql://`` URL for database ``db``."""

    _names = itertools.count(1)

    def __init__(self, *, durable: bool = False) -> None:
        self.bindir = find_bindir()
        self.durable = durable  # fsync and synchronous commit on, as in production
        self.prefix: list[str] = []
        self.owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self.owner = pwd.getpwnam(RUN_AS)
            except KeyError:
                raise Unavailable(
                    f"the tests run as root and PostgreSQL refuses root; no {RUN_AS!r} user "
                    "to run it as (install the postgresql package, which creates it)"
                ) from None
            self.prefix = ["runuser", "-u", RUN_AS, "--"]
        self.dir = Path(tempfile.mkdtemp(prefix="spades-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.running = False

    def _run(self, *args: str) -> None:
        proc = subprocess.run(
            [*self.prefix, *args], capture_output=True, text=True, cwd=self.dir, check=False
        )
        if proc.returncode != 0:
            raise Unavailable(
                f"{Path(args[0]).name} failed: {(proc.stderr or proc.stdout).strip()}"
            )

    def start(self) -> PostgresServer:
        pwfile = self.dir / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.owner is not None:
            os.chown(self.dir, self.owner.pw_uid, self.owner.pw_gid)
            os.chown(pwfile, self.owner.pw_uid, self.owner.pw_gid)
        os.chmod(self.dir, 0o700)
        self._run(
            str(self.bindir / "initdb"),
            "-D", str(self.data),
            "-U", USER,
            "--pwfile", str(pwfile),
            "--auth", "scram-sha-256",
            "-E", "UTF8",
            "--locale", "C",
            "--no-sync",
        )  # fmt: skip
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-p {self.port}",
            f"-c unix_socket_directories={self.dir}",
            "-c max_connections=200",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            # Each CREATE DATABASE logs the whole template (~7.5 MB) to the WAL, which would
            # grow to the default 1 GB before a checkpoint recycles it: keep it small.
            options += ["-c max_wal_size=32MB", "-c min_wal_size=32MB"]
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D", str(self.data),
            "-l", str(self.dir / "log"),
            "-o", " ".join(options),
            "-w", "-t", "60",
            "start",
        )  # fmt: skip
        self.running = True
        atexit.register(self.stop)
        self._watch()
        return self

    def _watch(self) -> None:
        """Stop the server if this process dies without running ``atexit`` (SIGTERM from a
        ``timeout``, SIGKILL): a small shell checks once a second that we are still alive."""
        stop = " ".join(
            shlex.quote(a)
            for a in [*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data)]
        )
        script = (
            f"while kill -0 {os.getpid()} 2>/dev/null && [ -d {shlex.quote(str(self.data))} ]; "
            f"do sleep 1; done; {stop} -m immediate stop >/dev/null 2>&1; "
            f"rm -rf {shlex.quote(str(self.dir))}"
        )
        self._watchdog = subprocess.Popen(
            ["/bin/sh", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        watchdog = getattr(self, "_watchdog", None)
        if watchdog is not None and watchdog.poll() is None:
            watchdog.terminate()
            watchdog.wait()
        if self.running:
            self.running = False
            with contextlib.suppress(Unavailable):
                self._run(
                    str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
                )
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    async def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its URL."""
        import asyncpg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a database :meth:`create_database` made (its connections are closed first).

        Every test database is a copy of the template (~7.5 MB); dropped as each test ends,
        they do not pile up (a whole suite made over 1 GB, whose removal at the end took
        25-50 s of a busy machine's disk)."""
        import asyncpg

        name = url.rsplit("/", 1)[-1]
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
