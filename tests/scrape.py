"""Reading a bot's ``/metrics`` the way Prometheus does: over HTTP, parsed by the client's own
parser (for the end-to-end tests and the load benchmark)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample


@dataclass(frozen=True)
class Exposition:
    """One scrape: every sample, by family."""

    text: str

    def samples(self) -> Iterator[tuple[str, str, Sample]]:
        """(family name, family type, sample) for every sample."""
        for family in text_string_to_metric_families(self.text):
            for sample in family.samples:
                yield family.name, family.type, sample

    def families(self) -> dict[str, str]:
        """Family name → type (every family, with samples or not)."""
        return {f.name: f.type for f in text_string_to_metric_families(self.text)}

    def value(self, name: str, **labels: str) -> float:
        """The sum of the samples named ``name`` whose labels include ``labels``."""
        return sum(
            s.value
            for _, _, s in self.samples()
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
        )

    def label_values(self, name: str, label: str) -> set[str]:
        return {s.labels[label] for _, _, s in self.samples() if s.name == name}


async def scrape(port: int, host: str = "127.0.0.1") -> Exposition:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://{host}:{port}/metrics", timeout=aiohttp.ClientTimeout(10)) as r,
    ):
        r.raise_for_status()
        return Exposition(await r.text())
