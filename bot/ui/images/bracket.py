"""The knock-out bracket as a picture: one column a round, each match a box with its two
entries (the winner bold, with the games won in a best-of), lines joining each pair of matches
to the match their winners meet in, and the champion at the right once there is one."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.events.pairing import elimination, rounds
from bot.events.pairing.model import SlotStatus, Tournament
from bot.i18n import _
from bot.ui.images.fonts import BOLD, REGULAR, font

BOX_W, BOX_H = 210, 44
GAP_X, GAP_Y = 40, 16
MARGIN = 20
BACKGROUND = (47, 49, 54)
BOX = (64, 68, 75)
LINE = (142, 146, 151)
TEXT = (220, 221, 222)
WIN = (255, 255, 255)
GOLD = (241, 196, 15)


def _name(t: Tournament, entry: int | None) -> str:
    if entry is None:
        return "—"
    e = t.entries.get(entry)
    name = e.name if e is not None else f"#{entry}"
    return name if len(name) <= 24 else name[:23] + "…"


def bracket_png(t: Tournament) -> bytes:
    """The bracket of an elimination tournament as PNG bytes."""
    first = rounds.matches(t, 1)
    size = max(len(first), 1) * 2
    total = elimination.rounds_needed(size)
    height = MARGIN * 2 + len(first) * (BOX_H + GAP_Y)
    width = MARGIN * 2 + (total + 1) * (BOX_W + GAP_X)
    img = Image.new("RGB", (width, max(height, 120)), BACKGROUND)
    draw = ImageDraw.Draw(img)
    regular, bold = font(REGULAR, 14), font(BOLD, 14)
    centres: list[float] = [MARGIN + i * (BOX_H + GAP_Y) + BOX_H / 2 for i in range(len(first))]
    champion: int | None = None
    for r in range(1, total + 1):
        x = MARGIN + (r - 1) * (BOX_W + GAP_X)
        games_by_slot = rounds.matches(t, r)
        winners = rounds.match_winners(t, r) if games_by_slot else {}
        count = max(len(centres), 1)
        for i in range(count):
            cy = centres[i]
            top = cy - BOX_H / 2
            draw.rectangle([x, top, x + BOX_W, top + BOX_H], fill=BOX)
            games = sorted(games_by_slot.get(i + 1, []), key=lambda g: g.game_no)
            entries: tuple[int, ...] = games[0].entries if games else ()
            winner = winners.get(i + 1)
            for row in range(2):
                entry = entries[row] if row < len(entries) else None
                label = _name(t, entry) if entries else ""
                if games and games[0].status == SlotStatus.BYE and row == 1:
                    label = _("bye")
                won = sum(g.winner == entry for g in games if g.status == SlotStatus.DONE)
                is_winner = entry is not None and entry == winner
                y = top + 4 + row * 20
                draw.text(
                    (x + 8, y),
                    label,
                    font=bold if is_winner else regular,
                    fill=WIN if is_winner else TEXT,
                )
                if games and games[0].status != SlotStatus.BYE and entry is not None:
                    draw.text((x + BOX_W - 22, y), str(won), font=regular, fill=TEXT)
            if r == total:
                champion = winner
        nxt = [(centres[i] + centres[i + 1]) / 2 for i in range(0, len(centres) - 1, 2)]
        for i, c in enumerate(nxt):
            for cy in (centres[2 * i], centres[2 * i + 1]):
                draw.line([x + BOX_W, cy, x + BOX_W + GAP_X / 2, cy], fill=LINE, width=2)
            draw.line(
                [x + BOX_W + GAP_X / 2, centres[2 * i], x + BOX_W + GAP_X / 2, centres[2 * i + 1]],
                fill=LINE,
                width=2,
            )
            draw.line([x + BOX_W + GAP_X / 2, c, x + BOX_W + GAP_X, c], fill=LINE, width=2)
        centres = nxt or centres
    x = MARGIN + total * (BOX_W + GAP_X)
    if champion is not None:
        champ = _("Champion: {name}", name=_name(t, champion))
        draw.text((x, centres[0] - 10), champ, font=bold, fill=GOLD)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
