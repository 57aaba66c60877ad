"""The deal diagram of a finished hand: the hands as dealt, bids, tricks and points.

The layout bridge and Spades players use to talk about a hand: North at the top, South at the
bottom, West and East at the sides, each hand on a white card panel with one line per suit
(trumps first, highest card first), and the table in the middle with each team's bid, tricks
and points.  All cards are public once a hand is over.  Whist and Euchre: the trump (Whist's
turned card, Euchre's up-card) under the hand's number, no bids; Euchre's maker (alone or
not), the partner who sat out and the dealer's discard on their panels; a hand thrown in
shows its deal and nothing taken.

:func:`diagram_of` turns the engine's :class:`~bot.engine.game.HandResult` into the plain data
the picture shows (:class:`DealDiagram`); :func:`render_deal` draws it and reports every card
it drew, so a test can check the picture against the deal.  Pure and thread-safe: the
publisher runs it in a worker thread.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from bot.engine import DECKS, SEATS, Card, HandResult, Rules, Seat, Team
from bot.engine.cards import SUITS
from bot.i18n import N_, _, _n, _p
from bot.i18n.cards import seat_word
from bot.ui.images.cards import BLUE, GREEN, INK, PIPS, RED, RGB, SUIT_COLOURS
from bot.ui.images.fonts import BOLD, REGULAR, font
from bot.ui.images.palette import fixed_palette
from bot.ui.text.games import text_of

WIDTH: Final = 1000
HEIGHT: Final = 720
FELT: Final[RGB] = (22, 94, 62)
FELT_DARK: Final[RGB] = (15, 70, 46)
PANEL: Final[RGB] = (255, 255, 255)
PANEL_EDGE: Final[RGB] = (60, 60, 60)
MUTED: Final[RGB] = (90, 90, 90)
WHITE: Final[RGB] = (255, 255, 255)
GOLD: Final[RGB] = (255, 214, 102)
PANEL_W: Final = 330
PANEL_H: Final = 232
_CARD_FONT: Final = 30
_HEAD_FONT: Final = 24
_SMALL_FONT: Final = 20
TEAM_NAMES: Final = (N_("North–South"), N_("East–West"))  # translated where drawn
# Panel top-left corners.
_PANEL_AT: Final = {
    Seat.N: ((WIDTH - PANEL_W) // 2, 14),
    Seat.S: ((WIDTH - PANEL_W) // 2, HEIGHT - PANEL_H - 14),
    Seat.W: (14, (HEIGHT - PANEL_H) // 2),
    Seat.E: (WIDTH - PANEL_W - 14, (HEIGHT - PANEL_H) // 2),
}


@dataclass(frozen=True, slots=True)
class SuitLine:
    """One line of a hand: the effective suit and its cards, highest first."""

    suit: str  # S H D C (effective: jokers are spades)
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class SeatHand:
    seat: Seat
    name: str
    lines: tuple[SuitLine, ...]
    bid: str
    tricks: int
    note: str = ""  # the line under the name: "bid 4 · took 5", "maker, alone · took 5"

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for line in self.lines for c in line.cards)


@dataclass(frozen=True, slots=True)
class TeamLine:
    name: str
    bid: str
    tricks: int
    points: int
    score: int
    bags: int | None  # the bag count after the hand (None: no bags in these rules)


@dataclass(frozen=True, slots=True)
class DealDiagram:
    number: int
    dealer: Seat
    hands: tuple[SeatHand, ...]  # N, E, S, W (N, E, S with three players)
    teams: tuple[TeamLine, ...]  # NS, EW; in solo games (games.md G2) one line per player
    scheme: str = "two"
    trump: str | None = None  # Whist/Euchre: "trump ♥ (turned 6♥)" under the hand's number


@dataclass(slots=True)
class RenderedDeal:
    png: bytes
    drawn: dict[Seat, list[str]] = field(default_factory=dict)  # card codes, as drawn
    texts: list[str] = field(default_factory=list)  # every piece of text drawn, in order


class _Draw(ImageDraw.ImageDraw):
    """Pillow's drawing, keeping every text it draws (what a test reads in the picture)."""

    def __init__(self, img: Image.Image, texts: list[str]) -> None:
        super().__init__(img)
        self.texts = texts

    def text(self, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        self.texts.append(str(text))
        super().text(xy, text, *args, **kwargs)


# Trumps first, then the other suits alternating colours.
SUIT_ORDER: Final = {"S": "SHCD", "H": "HSDC", "D": "DSHC", "C": "CHSD"}


def suit_lines(
    cards: tuple[Card, ...], rules: Rules, trump: str | None = "S"
) -> tuple[SuitLine, ...]:
    """The cards by effective suit under ``trump`` (Euchre's left bower among the trumps),
    trumps first then the others alternating colours (spades, hearts, clubs, diamonds in
    Spades), each highest first; a void suit is an empty line."""
    deck = DECKS[rules.deck]
    if trump is not None and trump != deck.trump:
        deck = deck.with_trump(trump)
    out = []
    for suit in SUIT_ORDER[trump or "S"]:
        mask = deck.suit_masks[SUITS.index(suit)]
        in_suit = sorted(
            (c for c in cards if mask >> c.index & 1), key=lambda c: -deck.power[c.index]
        )
        out.append(SuitLine(suit, tuple(in_suit)))
    return tuple(out)


def diagram_of(
    result: HandResult, rules: Rules, names: dict[Seat, str], scheme: str = "two"
) -> DealDiagram:
    """What the picture of ``result`` shows (the deal as dealt, before any pass)."""
    text = text_of(rules.game)
    hands = []
    for s in SEATS[: len(result.deal)]:
        bid, note = text.diagram_seat(result, rules, s)
        hands.append(
            SeatHand(
                s,
                names.get(s, seat_word(s)),
                suit_lines(result.deal[s], rules, result.trump),
                bid,
                result.tricks[s],
                note,
            )
        )
    if rules.solo:
        teams: tuple[TeamLine, ...] = tuple(_player_line(result, rules, h) for h in hands)
    else:
        teams = (_team_line(result, rules, Team.NS), _team_line(result, rules, Team.EW))
    trump = text.diagram_trump(result)
    return DealDiagram(result.number, result.dealer, tuple(hands), teams, scheme, trump)


def _player_line(result: HandResult, rules: Rules, hand: SeatHand) -> TeamLine:
    """A solo player's line in the middle: their own bid, tricks and points."""
    res = result.teams[hand.seat]
    return TeamLine(
        seat_word(hand.seat),
        hand.bid,
        result.tricks[hand.seat],
        res.points,
        res.score,
        res.bag_count if rules.has_bags else None,
    )


def _team_line(result: HandResult, rules: Rules, team: Team) -> TeamLine:
    a, b = team.seats
    text = text_of(rules.game)
    res = result.teams[team]
    return TeamLine(
        _(TEAM_NAMES[team]),
        text.diagram_team(result, rules, team),
        result.tricks[a] + result.tricks[b],
        res.points,
        res.score,
        res.bag_count if text.diagram_bags(rules) else None,
    )


# ---------------------------------------------------------------------- drawing
def _fit(text: str, name: str, size: int, width: int) -> tuple[str, int]:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels."""
    f = font(name, size)
    if f.getlength(text) <= width:
        return text, size
    while len(text) > 1 and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…", size


def _shrunk(text: str, name: str, size: int, width: int) -> tuple[str, int]:
    """``text`` in a smaller font (down to 15 px) until it fits, else shortened."""
    while size > 15 and font(name, size).getlength(text) > width:
        size -= 1
    return _fit(text, name, size, width)


def _rank(c: Card) -> str:
    if c.is_joker:
        return "BJ" if c.code == "BJ" else "LJ"
    return "10" if c.rank == 10 else c.code[0]


def _token(c: Card, line_suit: str, scheme: str) -> tuple[str, RGB]:
    """How a card reads in its suit's line: the rank, plus its own pip when it is not of the
    line's suit (jjdd's 2♦ among the trumps); jokers ``BJ`` (red) and ``LJ``."""
    colour = SUIT_COLOURS[scheme][line_suit]
    if c.is_joker:
        return _rank(c), SUIT_COLOURS[scheme]["H"] if c.code == "BJ" else INK
    if c.suit is not None and c.suit != line_suit:
        return _rank(c) + PIPS[c.suit], SUIT_COLOURS[scheme][c.suit]
    return _rank(c), colour


def _line_font(labels: list[str], width: int) -> tuple[ImageFont.FreeTypeFont, float]:
    """The card font and the gap between cards that fit ``labels`` in ``width`` pixels: the
    normal gap, else a narrower one, else a smaller font."""
    size = _CARD_FONT
    while True:
        f = font(BOLD, size)
        ink = sum(f.getlength(t) for t in labels)
        gaps = max(1, len(labels) - 1)
        gap = min(9.0, (width - ink) / gaps)
        if gap >= 6 or size <= 14:
            return f, max(gap, 1.0)
        size -= 1


def _draw_hand(
    d: ImageDraw.ImageDraw, hand: SeatHand, dealer: bool, scheme: str, drawn: list[str]
) -> None:
    x, y = _PANEL_AT[hand.seat]
    d.rounded_rectangle(
        (x, y, x + PANEL_W, y + PANEL_H), radius=14, fill=PANEL, outline=PANEL_EDGE, width=3
    )
    head = f"{seat_word(hand.seat)} · {hand.name}"
    text, size = _fit(head, BOLD, _HEAD_FONT, PANEL_W - 24 - (40 if dealer else 0))
    d.text((x + 12, y + 8), text, font=font(BOLD, size), fill=INK)
    if dealer:
        bx = x + PANEL_W - 44
        d.rounded_rectangle((bx, y + 8, bx + 32, y + 38), radius=8, fill=GOLD, outline=INK)
        badge = _p("dealer badge", "D")
        d.text((bx + 16, y + 23), badge, font=font(BOLD, 20), fill=INK, anchor="mm")
    note = hand.note or _("bid {bid} · took {n}", bid=hand.bid, n=hand.tricks)
    note, small = _shrunk(note, REGULAR, _SMALL_FONT, PANEL_W - 24)
    d.text(
        (x + 12, y + 40 + (_SMALL_FONT - small) // 2), note, font=font(REGULAR, small), fill=MUTED
    )
    cards_font = font(BOLD, _CARD_FONT)
    line_y = y + 72
    for line in hand.lines:
        colour = SUIT_COLOURS[scheme][line.suit]
        d.text((x + 14, line_y), PIPS[line.suit], font=cards_font, fill=colour)
        if not line.cards:
            d.text((x + 54, line_y), "—", font=cards_font, fill=MUTED)
        tokens = [_token(c, line.suit, scheme) for c in line.cards]
        f, gap = _line_font([t[0] for t in tokens], PANEL_W - 54 - 10)
        cx = float(x + 54)
        for c, (label, ink) in zip(line.cards, tokens, strict=True):
            d.text((cx, line_y + (_CARD_FONT - f.size) // 2), label, font=f, fill=ink)
            drawn.append(c.code)
            cx += f.getlength(label) + gap
        line_y += 39


def _draw_centre(d: ImageDraw.ImageDraw, diagram: DealDiagram) -> None:
    cx0, cy0 = _PANEL_AT[Seat.W][0] + PANEL_W + 14, _PANEL_AT[Seat.N][1] + PANEL_H + 14
    cx1, cy1 = _PANEL_AT[Seat.E][0] - 14, _PANEL_AT[Seat.S][1] - 14
    d.rounded_rectangle((cx0, cy0, cx1, cy1), radius=16, fill=FELT_DARK, outline=GOLD, width=2)
    mid = (cx0 + cx1) // 2
    d.text(
        (mid, cy0 + 22),
        _("Hand {number}", number=diagram.number),
        font=font(BOLD, 26),
        fill=WHITE,
        anchor="mm",
    )
    y, step, gap = cy0 + 50, 82, 24
    if diagram.trump is not None:  # Whist/Euchre: the trump line, the teams closer together
        trump, size = _shrunk(diagram.trump, BOLD, 18, cx1 - cx0 - 16)
        d.text((mid, cy0 + 40), trump, font=font(BOLD, size), fill=GOLD, anchor="mt")
        y, step, gap = cy0 + 66, 68, 22
    if len(diagram.teams) > 2:  # solo: one compact line per player
        for line in diagram.teams:
            points = f"{line.points:+d} → {line.score}".replace("-", "−")
            said = _("bid {bid} · took {n}", bid=line.bid, n=line.tricks)
            text = f"{line.name}: {said} · {points}"
            fitted, size = _fit(text, BOLD, 18, cx1 - cx0 - 16)
            d.text((mid, y), fitted, font=font(BOLD, size), fill=WHITE, anchor="mt")
            y += 34
        return
    for team in diagram.teams:
        d.text((mid, y), team.name, font=font(BOLD, 20), fill=GOLD, anchor="mt")
        took = _("took {n}", n=team.tricks)
        if diagram.trump is None:
            took = _("bid {bid}", bid=team.bid) + f" · {took}"
        elif team.bid:
            took = f"{team.bid} · {took}"
        d.text((mid, y + gap), took, font=font(REGULAR, 18), fill=WHITE, anchor="mt")
        points = f"{team.points:+d} → {team.score}".replace("-", "−")
        if team.bags is not None:
            points += " · " + _n("{n} bag", "{n} bags", team.bags)
        d.text((mid, y + gap + 22), points, font=font(BOLD, 22), fill=WHITE, anchor="mt")
        y += step


# Every colour drawn over another in the picture (under, over): the felt, the centre box and
# the hand panels, with what is drawn on each (bot/ui/images/palette.py).
_DRAWN: Final = (
    (FELT, FELT_DARK),
    (FELT, PANEL_EDGE),
    (FELT, GOLD),
    (FELT_DARK, GOLD),
    (FELT_DARK, WHITE),
    (PANEL, PANEL_EDGE),
    (PANEL, INK),
    (PANEL, MUTED),
    (PANEL, RED),
    (PANEL, BLUE),
    (PANEL, GREEN),
    (PANEL, GOLD),
    (GOLD, INK),
)


def render_deal(diagram: DealDiagram) -> RenderedDeal:
    """The picture of ``diagram`` as a PNG, with the card codes drawn for each seat."""
    img, out = draw_deal(diagram)
    buf = io.BytesIO()
    # A few flat colours and anti-aliased text: in a palette of them and their blends it looks
    # the same (tests/ui/test_deal_palette.py), and encodes faster and smaller than full colour.
    # Compression level 3: 1.9 ms of CPU instead of 6's 4.7 ms, for 26 KB instead of 22.
    paletted = img.quantize(palette=fixed_palette(_DRAWN), dither=Image.Dither.NONE)
    paletted.save(buf, format="PNG", compress_level=3)
    out.png = buf.getvalue()
    return out


def draw_deal(diagram: DealDiagram) -> tuple[Image.Image, RenderedDeal]:
    """The picture of ``diagram`` in full colour, and what it drew (no PNG yet)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    out = RenderedDeal(b"")
    d = _Draw(img, out.texts)
    for hand in diagram.hands:
        out.drawn[hand.seat] = []
        _draw_hand(d, hand, hand.seat == diagram.dealer, diagram.scheme, out.drawn[hand.seat])
    _draw_centre(d, diagram)
    return img, out
