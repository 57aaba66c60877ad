"""The pages of a post-game review: an overview with the biggest differences first, then the
game hand by hand and trick by trick — bids and cards with whose they were, and under each the
hard player's opinion where it differs.

Pages are plain data first (:func:`review_pages` → :class:`ReviewPage`), embeds second, so
tests read what a page says without Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import discord

from bot.ai.games import judges
from bot.engine import BLIND_NIL, NIL, Seat, card
from bot.i18n import _, _n
from bot.i18n.cards import bid_word, seat_word
from bot.names import md_name
from bot.review.analysis import Analysis, Opinion
from bot.review.decisions import GameReplay, HandPlayed, RecordedDecision, TrickPlayed
from bot.ui.review.replay_components import ReplayRef, replay_button
from bot.ui.review.review_components import ReviewRef, jump_select, review_button
from bot.ui.text.game_text import choice_text
from bot.ui.text.games import text_of

BLURPLE: Final = discord.Colour(0x5865F2)
PAGE_CHARS: Final = 3800  # an embed description holds 4,096
SHOWN_POINTS: Final = 2.0  # smaller differences are the search's noise, not worth a line
SHOWN_TRICKS: Final = 0.1
TOP: Final = 5
TEAM_KEYS: Final = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class ReviewPage:
    title: str
    lines: tuple[str, ...]
    label: str  # for the "Go to…" menu


def _who(replay: GameReplay, seat: Seat, viewer: frozenset[Seat]) -> str:
    return _("you") if seat in viewer else f"{md_name(replay.players[seat])} ({seat.name})"


def _names(replay: GameReplay) -> dict[Seat, str]:
    """The players' names for markdown (escaped: :func:`bot.names.md_name`)."""
    return {s: md_name(n) for s, n in replay.players.items()}


def _preferred(o: Opinion) -> str:
    text = o.preferred
    if text in ("nil", "blind_nil"):
        return bid_word(NIL if text == "nil" else BLIND_NIL)
    if text.isascii() and text.isdigit():
        return text
    return str(card(text))


def _matters(o: Opinion) -> bool:
    """Worth a line: the hard player expects its choice to gain at least a point a deal (its
    search's own measure; smaller differences are sampling noise)."""
    return o.points >= SHOWN_POINTS


def _how_much(o: Opinion) -> str:
    points = _n("{n} point", "{n} points", round(o.points))
    if o.tricks is not None and o.tricks >= SHOWN_TRICKS:
        return _("about {tricks} tricks ({points})", tricks=f"{o.tricks:.1f}", points=points)
    return _("about {points}", points=points)


def _where(d: RecordedDecision) -> str:
    if d.trick == 0:
        return _("Hand {hand}, bidding", hand=d.hand)
    return _("Hand {hand}, trick {trick}", hand=d.hand, trick=d.trick)


def opinion_line(
    replay: GameReplay, d: RecordedDecision, o: Opinion, viewer: frozenset[Seat]
) -> str:
    """``you played K♥; hard prefers 4♥ — about 0.6 tricks (9 points)``."""
    who, chose = _who(replay, d.seat, viewer), choice_text(d)
    did = (
        _("{who} played {choice}", who=who, choice=chose)
        if d.is_play
        else _("{who} bid {choice}", who=who, choice=chose)
    )
    prefers = _("hard prefers {choice}", choice=_preferred(o))
    return f"{did}; {prefers} — {_how_much(o)}"


def _differences(
    replay: GameReplay, analysis: Analysis, seats: frozenset[Seat] | None
) -> list[tuple[RecordedDecision, Opinion]]:
    out = []
    for d in replay.decisions:
        o = analysis.opinions.get(d.index)
        if o is not None and _matters(o) and (seats is None or d.seat in seats):
            out.append((d, o))
    out.sort(key=lambda x: (-x[1].points, x[0].index))
    return out


def _overview(
    replay: GameReplay, analysis: Analysis | None, viewer: frozenset[Seat], game_id: int
) -> ReviewPage:
    hands = _n("{n} hand", "{n} hands", len(replay.hands))
    lines = [f"{_standing(replay)} · {hands}", ""]
    title, overview = _("Review of game #{id}", id=game_id), _("Overview")
    if replay.rules.solo:
        lines.append(
            _(
                "The hard computer player's opinions cover partnership games only: in a game "
                "where everyone plays alone its search values no choices, so this review cannot "
                "say which bids or cards were better. What it shows is the whole game: every "
                "bid and trick in order with whose they were, and the score."
            )
        )
        return ReviewPage(title, tuple(lines), overview)
    if not judges(replay.rules):
        lines.append(
            _(
                "The hard computer player judges Spades games only, so this review of a "
                "{game} game is the replay: every hand, what was trump and every trick.",
                game=_(replay.rules.title),
            )
        )
        return ReviewPage(title, tuple(lines), overview)
    if analysis is None:
        lines.append(_("The hard player has not looked at this game yet."))
        return ReviewPage(title, tuple(lines), overview)
    if viewer:
        mine = _differences(replay, analysis, viewer)
        lines.append(_("**Your biggest differences with the hard player**"))
        if mine:
            lines += [f"• {_where(d)}: {opinion_line(replay, d, o, viewer)}" for d, o in mine[:TOP]]
        else:
            lines.append("• " + _("None worth mentioning: hard would have played your cards."))
        lines.append("")
    others = [x for x in _differences(replay, analysis, None) if x[0].seat not in viewer]
    lines.append(
        _("**Biggest differences at the table**") if viewer else _("**Biggest differences**")
    )
    if others:
        lines += [f"• {_where(d)}: {opinion_line(replay, d, o, viewer)}" for d, o in others[:TOP]]
    else:
        lines.append("• " + _("None worth mentioning."))
    opinions = len(analysis.opinions)
    agreed = sum(1 for o in analysis.opinions.values() if not _matters(o))
    lines += [
        "",
        _(
            "The hard player judged {opinions} decisions (the others were forced) from what "
            "each player knew at that moment, and agrees with {agreed} of them. "
            "A difference is what it expects its own choice to gain that player's team, in "
            "tricks and in points a deal — points count the game too, so near the end a card "
            "that decides the game is worth hundreds.",
            opinions=opinions,
            agreed=agreed,
        ),
    ]
    if not analysis.complete:
        left = analysis.total - analysis.examined
        lines.append(
            _(
                "{n} later decisions were left out: the analysis reached its CPU budget.",
                n=left,
            )
        )
    return ReviewPage(title, tuple(lines), overview)


def _standing(replay: GameReplay) -> str:
    """``North–South (alice & carol) 512 · East–West (…) 230 · **NS** win``; in solo games
    every player's own score."""
    names = _names(replay)
    ended = _("not finished (abandoned)")
    if replay.rules.solo:
        scores = " · ".join(
            f"{seat_word(s)} ({names[s]}) {replay.scores[k]}"
            for k, s in enumerate(replay.rules.seats)
        )
        won = next((s for s in replay.rules.seats if s.name == replay.winner), None)
        wins = _("**{name}** wins", name=names[won]) if won is not None else ended
        return f"{scores} · {wins}"
    ns = f"{names[Seat.N]} & {names[Seat.S]}"
    ew = f"{names[Seat.E]} & {names[Seat.W]}"
    result = _("**{team}** win", team=replay.winner) if replay.winner else ended
    north, east = _("North–South"), _("East–West")
    us, them = replay.scores[0], replay.scores[1]
    return f"{north} ({ns}) {us} · {east} ({ew}) {them} · {result}"


def _trick_line(replay: GameReplay, t: TrickPlayed) -> str:
    cards = []
    for seat, c, _index in t.plays:
        text = f"{seat.name} {c}"
        cards.append(f"**{text}**" if seat == t.winner else text)
    end = (
        f" → {md_name(replay.players[t.winner])}"
        if t.winner is not None
        else " " + _("(unfinished)")
    )
    return f"`{t.number:>2}` " + " · ".join(cards) + end


def _hand_lines(
    replay: GameReplay, hand: HandPlayed, analysis: Analysis | None, viewer: frozenset[Seat]
) -> list[str]:
    names = _names(replay)
    seating = " · ".join(f"{s.name} {names[s]}" for s in replay.rules.seats)
    dealer = _("Dealer {name} ({seat})", name=names[hand.dealer], seat=hand.dealer.name)
    lines = [f"{dealer} · {seating}"]
    lines += text_of(replay.rules.game).review_lines(hand, names)
    opinions = analysis.opinions if analysis is not None else {}

    def notes(decisions: list[RecordedDecision]) -> list[str]:
        out = []
        for d in decisions:
            o = opinions.get(d.index)
            if o is not None and _matters(o):
                out.append(f"  ↳ {opinion_line(replay, d, o, viewer)}")
        return out

    lines += notes(list(hand.bids))
    for t in hand.tricks:
        lines.append(_trick_line(replay, t))
        plays = [d for d in replay.decisions if d.index in {i for _seat, _card, i in t.plays}]
        lines += notes(plays)
    if hand.result is not None:
        parts = []
        keys = [s.name for s in replay.rules.seats] if replay.rules.solo else TEAM_KEYS
        for side, key in enumerate(keys):
            r = hand.result.teams[side]
            parts.append(f"{key} {r.points:+d} → {r.score}")
        lines.append(_("**Score**: {parts}", parts=" · ".join(parts)))
    return lines


def review_pages(
    replay: GameReplay, analysis: Analysis | None, viewer: frozenset[Seat], game_id: int
) -> list[ReviewPage]:
    """Every page: the overview, then each hand (long hands over several pages)."""
    pages = [_overview(replay, analysis, viewer, game_id)]
    total = len(replay.hands)
    for hand in replay.hands:
        lines = _hand_lines(replay, hand, analysis, viewer)
        chunks: list[list[str]] = [[]]
        size = 0
        for line in lines:
            if size + len(line) + 1 > PAGE_CHARS and chunks[-1]:
                chunks.append([])
                size = 0
            chunks[-1].append(line)
            size += len(line) + 1
        for i, chunk in enumerate(chunks, start=1):
            part = f" ({i}/{len(chunks)})" if len(chunks) > 1 else ""
            pages.append(
                ReviewPage(
                    _("Hand {number} of {total}", number=hand.number, total=total) + part,
                    tuple(chunk),
                    _("Hand {number}", number=hand.number) + part,
                )
            )
    return pages


# ---------------------------------------------------------------------- Discord
def page_embed(page: ReviewPage, number: int, count: int) -> discord.Embed:
    e = discord.Embed(title=page.title, colour=BLURPLE, description="\n".join(page.lines))
    e.set_footer(
        text=_("Page {page} of {count} · only you see this review", page=number + 1, count=count)
    )
    return e


def page_view(
    game_id: int, pages: list[ReviewPage], number: int, *, share: bool = False
) -> discord.ui.View:
    """The review's paging; with ``share`` (a player of the game reads it), **Share as
    replay** too (bot/ui/review/replay_render.py)."""
    v = discord.ui.View(timeout=None)
    key = str(game_id)
    last = len(pages) - 1
    v.add_item(
        review_button(
            ReviewRef("g", key, max(0, number - 1)),
            _("◀ Previous"),
            disabled=number <= 0,
            tag="p",
            row=0,
        )
    )
    v.add_item(
        review_button(
            ReviewRef("g", key, min(last, number + 1)),
            _("Next ▶"),
            disabled=number >= last,
            tag="n",
            row=0,
        )
    )
    v.add_item(
        review_button(ReviewRef("g", key, 0), _("Overview"), disabled=number == 0, tag="o", row=0)
    )
    # The menu holds 25 options: the overview and the pages around this one.
    lo = max(1, min(number - 12, len(pages) - 24))
    window = [0, *range(lo, min(len(pages), lo + 24))]
    options = [
        discord.SelectOption(label=pages[i].label[:100], value=str(i), default=i == number)
        for i in window
    ]
    v.add_item(jump_select(game_id, options, row=1))
    if share:
        v.add_item(replay_button(ReplayRef(game_id), _("Share as replay"), emoji="📣", row=2))
    return v


def progress_embed(game_id: int, done: int, total: int, ahead: int = 0) -> discord.Embed:
    """The review's progress; ``ahead``: reviews queued before it (its players' own games go
    first)."""
    filled = round(12 * done / total) if total else 12
    bar = "▰" * filled + "▱" * (12 - filled)
    doing = (
        _("The hard player is going through the game…")
        if not ahead
        else _n(
            "Waiting for the hard player: {n} review before this one (players' own games go "
            "first)…",
            "Waiting for the hard player: {n} reviews before this one (players' own games go "
            "first)…",
            ahead,
        )
    )
    progress = _("{done} of {total} decisions", done=done, total=total)
    turns = _("This message turns into the review when it is done.")
    return discord.Embed(
        title=_("Review of game #{id}", id=game_id),
        colour=BLURPLE,
        description=f"{doing}\n{bar} {progress}\n{turns}",
    )
