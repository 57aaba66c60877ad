"""The rating chart is a PNG drawn off the event loop."""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from bot.league import chart
from bot.league.chart import chart_points, render_rating_chart, render_rating_chart_async
from bot.league.models import RatingPoint

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _size(png: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_chart_is_a_png_of_fixed_size() -> None:
    png = render_rating_chart([(0, 0.0), (1, 120.0), (2, 80.0), (3, 210.0)], "alice")
    assert png.startswith(PNG_SIGNATURE)
    assert _size(png) == (800, 360)


def test_chart_without_games_still_renders() -> None:
    assert render_rating_chart([], "nobody").startswith(PNG_SIGNATURE)


def test_chart_points_start_at_the_season_rating_and_count_rated_games() -> None:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    history = [RatingPoint(7, when, 27.0, 7.0), RatingPoint(9, when, 28.0, 6.0)]
    assert chart_points(history) == [(0, 1000.0), (1, 1240.0), (2, 1400.0)]


async def test_async_rendering_runs_in_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    main = threading.get_ident()
    seen: list[int] = []

    def spy(points: Sequence[tuple[int, float]], title: str) -> bytes:
        seen.append(threading.get_ident())
        return render_rating_chart(points, title)

    monkeypatch.setattr(chart, "render_rating_chart", spy)
    png = await render_rating_chart_async([(0, 0.0), (1, 40.0)], "bob")
    assert png.startswith(PNG_SIGNATURE)
    assert seen
    assert seen[0] != main


def test_rendering_from_several_threads_at_once() -> None:
    out: list[bytes] = []

    def draw(n: int) -> None:
        out.append(render_rating_chart([(i, float(i * n)) for i in range(20)], f"p{n}"))

    threads = [threading.Thread(target=draw, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 4
    assert all(png.startswith(PNG_SIGNATURE) for png in out)
