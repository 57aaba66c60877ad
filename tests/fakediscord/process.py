"""Run a bot (``python -m <module>``) as a subprocess against a :class:`FakeDiscord`."""

# Waiting helpers take a `timeout` on purpose (tests read better than asyncio.timeout blocks).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .server import FakeDiscord

PROJECT_ROOT = Path(__file__).resolve().parents[2]
WaitFor = Literal["sync", "identify", "commands", "none"]


class BotExited(RuntimeError):
    """The bot process ended (or never became ready) while we were waiting for it."""


class BotProcess:
    """A running bot. ``stdout``/``stderr``/``output`` hold what it printed so far (bounded)."""

    def __init__(self, proc: asyncio.subprocess.Process, module: str, max_lines: int) -> None:
        self.proc = proc
        self.module = module
        self._lines: deque[tuple[str, str]] = deque(maxlen=max_lines)
        self._line_event = asyncio.Event()
        self._echo = os.environ.get("FAKEDISCORD_ECHO") == "1"
        self._readers = [
            asyncio.create_task(self._read(proc.stdout, "stdout")),
            asyncio.create_task(self._read(proc.stderr, "stderr")),
        ]

    async def _read(self, stream: asyncio.StreamReader | None, name: str) -> None:
        if stream is None:
            return
        while True:
            try:
                raw = await stream.readline()
            except ValueError:  # line longer than the limit
                continue
            if not raw:
                return
            line = raw.decode(errors="replace").rstrip("\n")
            self._lines.append((name, line))
            if self._echo:
                print(f"[{self.module} {name}] {line}", file=sys.stderr)
            self._line_event.set()

    # ----- output ------------------------------------------------------------------------
    @property
    def stdout(self) -> str:
        return "\n".join(line for src, line in self._lines if src == "stdout")

    @property
    def stderr(self) -> str:
        return "\n".join(line for src, line in self._lines if src == "stderr")

    @property
    def output(self) -> str:
        """stdout and stderr interleaved in arrival order."""
        return "\n".join(line for _, line in self._lines)

    def tail(self, n: int = 40) -> str:
        return "\n".join(line for _, line in list(self._lines)[-n:])

    async def wait_for_line(self, text: str, timeout: float = 10.0) -> str:
        """Wait until a stdout/stderr line contains ``text``; returns that line."""
        async with asyncio.timeout(timeout):
            while True:
                for _, line in self._lines:
                    if text in line:
                        return line
                if self.returncode is not None and all(r.done() for r in self._readers):
                    raise BotExited(f"{self.module} exited ({self.returncode}):\n{self.tail()}")
                self._line_event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._line_event.wait(), 0.2)

    # ----- process control ---------------------------------------------------------------
    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    @property
    def running(self) -> bool:
        return self.proc.returncode is None

    def kill9(self) -> None:
        """SIGKILL: no cleanup, the websocket just drops."""
        if self.running:
            self.proc.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        if self.running:
            self.proc.terminate()

    async def wait(self, timeout: float = 10.0) -> int:
        """Wait for the process to end; returns its exit code."""
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        await asyncio.gather(*self._readers, return_exceptions=True)
        return code

    async def stop(self, grace: float = 5.0) -> int:
        if self.running:
            self.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                self.kill9()
        code = await self.proc.wait()
        for reader in self._readers:
            if not reader.done():
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(reader, 2.0)
        return code

    def __repr__(self) -> str:
        return f"<BotProcess {self.module} pid={self.pid} returncode={self.returncode}>"


async def _started(fake: FakeDiscord, wait_for: WaitFor, gen0: int, sync0: int) -> None:
    def ok() -> bool:
        if not (fake.ready_generation > gen0 and fake.connected):
            return False
        if wait_for == "sync":
            return fake.sync_count > sync0
        if wait_for == "commands":
            return any(fake._commands.values())
        return True

    await fake.wait_until(ok, timeout=3600)


@asynccontextmanager
async def run_bot(
    fake: FakeDiscord,
    module: str = "bot",
    env: Mapping[str, str] | None = None,
    *,
    wait_for: WaitFor = "sync",
    ready_line: str | None = None,
    timeout: float = 30.0,
    cwd: str | os.PathLike[str] | None = None,
    args: Sequence[str] = (),
    max_lines: int = 20_000,
) -> AsyncIterator[BotProcess]:
    """Start ``python -m <module>`` with ``DISCORD_TOKEN``/``DISCORD_API_BASE`` for ``fake``.

    Waits (``wait_for``) until the bot identified *and* bulk-synced commands ("sync"), only
    identified ("identify"), identified with commands registered at some point ("commands",
    for restarts of bots that skip unchanged syncs) or not at all ("none"); plus, if given,
    until a line containing ``ready_line`` was printed. Raises :class:`BotExited` if the
    process dies or doesn't get there within ``timeout``. Always stops the process on exit.
    """
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    # SPADES_TEST_MODE: the bot refuses its test-only settings (DISCORD_API_BASE, ...) without it.
    full_env.update(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        SPADES_TEST_MODE="1",
        PYTHONUNBUFFERED="1",
    )
    full_env.update(env or {})
    gen0, sync0 = fake.ready_generation, fake.sync_count
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        cwd=str(cwd or PROJECT_ROOT),
        env=full_env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=1 << 20,
        start_new_session=True,
    )
    bot = BotProcess(proc, module, max_lines)
    try:
        waits: list[asyncio.Task[Any]] = []
        if wait_for != "none":
            waits.append(asyncio.create_task(_started(fake, wait_for, gen0, sync0)))
        if ready_line is not None:
            waits.append(asyncio.create_task(bot.wait_for_line(ready_line, timeout)))
        if waits:
            exited: asyncio.Future[Any] = asyncio.ensure_future(proc.wait())
            started: asyncio.Future[Any] = asyncio.gather(*waits)
            done, _ = await asyncio.wait(
                {started, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if started not in done:
                started.cancel()
                with contextlib.suppress(BaseException):
                    await started
                exited.cancel()
                why = (
                    f"exited with {proc.returncode}"
                    if exited in done
                    else f"not ready in {timeout}s"
                )
                await asyncio.sleep(0.05)  # let the readers catch the last lines
                raise BotExited(f"{module} {why}:\n{bot.tail()}")
            exited.cancel()
            started.result()
        yield bot
    finally:
        await bot.stop()
