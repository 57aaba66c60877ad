"""The distribution's Prometheus server and ``promtool``, for the tests of the shipped
``deploy/prometheus/`` files against a real bot.

:func:`binary` finds them on ``PATH`` (Debian's ``prometheus`` package installs both); where
they are missing the tests are skipped with one reason, unless ``SPADES_REQUIRE_PROMETHEUS=1``
(set by ``.ci/run``, which installs the package) makes that a failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest
import yaml

from tests.pgserver import free_port

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "prometheus"
REQUIRE_ENV = "SPADES_REQUIRE_PROMETHEUS"


def binary(name: str) -> str:
    """The path of ``prometheus`` or ``promtool``, or the test is skipped (failed in CI)."""
    found = shutil.which(name)
    if found is None:
        why = f"no {name} binary: install Prometheus (apt-get install prometheus) to run this"
        if os.environ.get(REQUIRE_ENV, "") == "1":
            pytest.fail(f"{why} ({REQUIRE_ENV}=1)")
        pytest.skip(why)
    return found


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary("promtool"), *args], capture_output=True, text=True, check=False, timeout=60
    )


def scraping(targets: list[str], interval: str = "1s") -> dict[str, Any]:
    """The shipped ``prometheus.yml`` with ``targets`` instead of compose's bot services, its
    rule file by absolute path, and every interval ``interval``."""
    config: dict[str, Any] = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    config["global"].update(
        scrape_interval=interval, evaluation_interval=interval, scrape_timeout=interval
    )
    config["rule_files"] = [str(DEPLOY / name) for name in config["rule_files"]]
    (job,) = config["scrape_configs"]
    job["static_configs"] = [{"targets": targets}]
    return config


class Prometheus:
    """A running server's HTTP API."""

    def __init__(self, url: str, session: aiohttp.ClientSession) -> None:
        self.url = url
        self.session = session

    async def api(self, path: str, **params: str) -> Any:
        async with self.session.get(f"{self.url}/api/v1/{path}", params=params) as r:
            body = await r.json()
        assert body["status"] == "success", body
        return body["data"]

    async def until(self, path: str, ready: Any, timeout: float = 60.0, **params: str) -> Any:  # noqa: ASYNC109
        """Ask ``path`` again until ``ready(data)`` holds; returns that data."""
        async with asyncio.timeout(timeout):
            while True:
                data = await self.api(path, **params)
                if ready(data):
                    return data
                await asyncio.sleep(0.25)


def _prepare(folder: Path, config: dict[str, Any]) -> IO[str]:
    """Write the configuration into ``folder``; the server's log file, open."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "prometheus.yml").write_text(yaml.safe_dump(config))
    return (folder / "prometheus.log").open("w")


@asynccontextmanager
async def prometheus(config: dict[str, Any], folder: Path) -> AsyncIterator[Prometheus]:
    """Run ``prometheus`` with ``config`` (data in ``folder``) until the block ends."""
    exe = binary("prometheus")
    log = _prepare(folder, config)
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        exe,
        f"--config.file={folder / 'prometheus.yml'}",
        f"--storage.tsdb.path={folder / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            async with asyncio.timeout(60):
                while True:
                    if proc.returncode is not None:
                        raise AssertionError((folder / "prometheus.log").read_text()[-3000:])
                    try:
                        async with session.get(f"{url}/-/ready") as r:
                            if r.status == 200:
                                break
                    except aiohttp.ClientConnectionError:
                        pass
                    await asyncio.sleep(0.2)
            yield Prometheus(url, session)
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        log.close()
