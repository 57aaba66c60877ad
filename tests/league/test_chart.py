"""The rating chart is a PNG drawn off the event loop."""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from bot.league import chart
from bot.league.chart import (
    ChartCache,
    chart_points,
    render_rating_chart,
    render_rating_chart_async,
)
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


@pytest.mark.parametrize(
    "name", ["$\\foo$", "$x^$", "a $ b", "\\alpha_", "$$", "[x](https://evil)"]
)
def test_any_name_renders_as_plain_text_in_the_title(name: str) -> None:
    """matplotlib reads ``$…$`` as maths (``\\foo`` is no symbol it knows): the title must
    not."""
    png = render_rating_chart([(0, 1000.0), (1, 1040.0)], f"{name} — Spades rating")
    assert png.startswith(PNG_SIGNATURE)


def test_a_kept_chart_is_reused_while_its_points_and_title_are_the_same() -> None:
    charts = ChartCache(size=2)
    points = [(0, 1000.0), (1, 1040.0)]
    assert charts.get("alice", points, "alice") is None
    charts.put("alice", points, "alice", b"png-1")
    assert charts.get("alice", list(points), "alice") == b"png-1"
    assert charts.get("alice", [*points, (2, 990.0)], "alice") is None, "a new rated game"
    assert charts.get("alice", points, "Alice") is None, "a new name"
    assert charts.get("bob", points, "alice") is None, "another member, season or game"


def test_the_chart_cache_keeps_the_most_recently_used() -> None:
    charts = ChartCache(size=2)
    points = [(0, 1000.0)]
    charts.put("a", points, "t", b"a")
    charts.put("b", points, "t", b"b")
    assert charts.get("a", points, "t") == b"a"  # a is now the most recent
    charts.put("c", points, "t", b"c")
    assert len(charts) == 2
    assert charts.get("b", points, "t") is None
    assert charts.get("a", points, "t") == b"a"
    assert charts.get("c", points, "t") == b"c"
