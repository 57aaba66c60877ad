"""A member's rating over their games as a PNG, drawn with matplotlib's Agg canvas.

Only :class:`matplotlib.figure.Figure` and ``FigureCanvasAgg`` are used — never ``pyplot``
and its global state — so charts can be drawn in worker threads, off the event loop
(:func:`render_rating_chart_async`).  matplotlib is imported on first use.

The title carries a member's display name, which may be anything: it is drawn as plain text
(matplotlib's ``$…$`` maths is off, so ``$\\foo$`` is a name, not a formula to fail on).
A drawn chart is kept per member, season and game (:class:`ChartCache`) and drawn again only
when a rated game (or the name) changed it.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from bot.i18n import _, current
from bot.league.models import RatingPoint
from bot.league.ratings import INITIAL

WIDTH_IN = 8.0
HEIGHT_IN = 3.6
DPI = 100
LINE = "#5865F2"  # Discord blurple
GRID = "#d0d3d9"


def chart_points(history: Sequence[RatingPoint]) -> list[tuple[int, float]]:
    """(game number, displayed rating): game 0 is the season's starting rating."""
    points: list[tuple[int, float]] = [(0, float(INITIAL.display))]
    points.extend((i, float(p.rating)) for i, p in enumerate(history, start=1))
    return points


def chart_labels() -> tuple[str, str, str]:
    """(no games yet, the x axis, the y axis) in the current language."""
    return _("No rated games yet"), _("rated games"), _("rating")


def render_rating_chart(points: Sequence[tuple[int, float]], title: str) -> bytes:
    """A line chart of ``points`` (x = rated game number, y = rating) as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    empty, x_label, y_label = chart_labels()
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    if points:
        ax.plot(xs, ys, color=LINE, linewidth=2, marker="o" if len(points) <= 30 else None)
        ax.fill_between(xs, ys, min(ys), color=LINE, alpha=0.08)
        ax.annotate(
            f"{ys[-1]:.0f}",
            (xs[-1], ys[-1]),
            textcoords="offset points",
            xytext=(6, 4),
            fontsize=10,
            fontweight="bold",
            color=LINE,
        )
    else:
        ax.text(0.5, 0.5, empty, ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_title(title, fontsize=12, loc="left", parse_math=False)
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, color=GRID, linewidth=0.6)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


async def render_rating_chart_async(points: Sequence[tuple[int, float]], title: str) -> bytes:
    """:func:`render_rating_chart` in a worker thread, so the event loop keeps running (the
    thread draws in the caller's language: ``to_thread`` carries the context)."""
    return await asyncio.to_thread(render_rating_chart, list(points), title)


class ChartCache:
    """The last chart drawn for each key (server, member, season, game), at most ``size`` of
    them (the least recently used go first).  A chart is reused while its points and title
    are the ones it was drawn from, so a new rated game or a new name draws it again."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._charts: OrderedDict[Hashable, tuple[bytes, bytes]] = OrderedDict()

    @staticmethod
    def _drawn_from(points: Sequence[tuple[int, float]], title: str) -> bytes:
        # the language too: the same chart in another language is another picture
        return hashlib.sha256(repr((list(points), title, current())).encode()).digest()

    def get(self, key: Hashable, points: Sequence[tuple[int, float]], title: str) -> bytes | None:
        """The PNG drawn for ``key`` from these points and title, if it is kept."""
        kept = self._charts.get(key)
        if kept is None or kept[0] != self._drawn_from(points, title):
            return None
        self._charts.move_to_end(key)
        return kept[1]

    def put(
        self, key: Hashable, points: Sequence[tuple[int, float]], title: str, png: bytes
    ) -> None:
        self._charts[key] = (self._drawn_from(points, title), png)
        self._charts.move_to_end(key)
        while len(self._charts) > self.size:
            self._charts.popitem(last=False)

    def __len__(self) -> int:
        return len(self._charts)
