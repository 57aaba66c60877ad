"""A shared replay: a finished game posted in a thread, stepped trick by trick.

Steps, in order: for each hand, the deal (every hand as dealt, the bids or the trump), then one
step per trick (the cards each player still held before it, the trick itself and who took it,
the tricks so far, and after the last one the hand's score).  Where the post-game review has
judged a decision of that step, its opinion is shown too.  Every hand is shown — this is a
game that is over.

Plain data first (:func:`replay_steps`, :func:`step_embed`), so tests read a step without
Discord.  Nothing is stored: a step is rebuilt from the game's record on each click.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.engine import Card, Rules, Seat
from bot.i18n import _
from bot.i18n.cards import bid_word, seat_word
from bot.names import md_name
from bot.review.analysis import Analysis
from bot.review.decisions import GameReplay, HandPlayed, RecordedDecision
from bot.ui.images.deal import suit_lines
from bot.ui.review.replay_components import ReplayRef, replay_button
from bot.ui.review.review_render import SHOWN_POINTS, opinion_line
from bot.ui.text.trump_text import hand_trump_text

TEAL: Final = discord.Colour(0x00897B)
NOBODY: Final = frozenset[Seat]()


@dataclass(frozen=True, slots=True)
class Step:
    hand: HandPlayed
    trick: int  # 0: the deal and the bids; k: the hand's trick k


def replay_steps(replay: GameReplay) -> list[Step]:
    steps = []
    for hand in replay.hands:
        steps.append(Step(hand, 0))
        steps.extend(Step(hand, t.number) for t in hand.tricks)
    return steps


def held_before(hand: HandPlayed, rules: Rules, trick: int) -> dict[Seat, list[Card]] | None:
    """What each seat held before trick ``trick`` of a finished hand (``None``: the hand the
    game was abandoned in, whose deal the record does not hold)."""
    r = hand.result
    if r is None:
        return None
    held = {s: list(r.deal[s]) for s in rules.seats}
    for p in r.passes:  # blind nil: cards passed to the partner
        for c in p.cards:
            held[p.seat].remove(c)
            held[p.seat.partner].append(c)
    if r.discard is not None and r.up_card is not None:  # Euchre: the dealer took the up-card
        held[r.dealer].append(r.up_card)
        held[r.dealer].remove(r.discard)
    for t in hand.tricks:
        if t.number >= trick:
            break
        for seat, c, _i in t.plays:
            held[seat].remove(c)
    return held


def _cards(cards: list[Card], rules: Rules, trump: str | None) -> str:
    lines = suit_lines(tuple(cards), rules, trump)
    return " · ".join(" ".join(str(c) for c in line.cards) for line in lines if line.cards) or "—"


def _bids(replay: GameReplay, hand: HandPlayed) -> str | None:
    if hand.bids:
        return " · ".join(
            f"{d.seat.name} {bid_word(d.action.value, d.action.blind)}"  # type: ignore[union-attr]
            for d in hand.bids
        )
    if hand.result is not None:
        return hand_trump_text(hand.result, {s: md_name(n) for s, n in replay.players.items()})
    return None


def _notes(
    replay: GameReplay, analysis: Analysis | None, decisions: list[RecordedDecision]
) -> list[str]:
    if analysis is None:
        return []
    out = []
    for d in decisions:
        o = analysis.opinions.get(d.index)
        if o is not None and o.points >= SHOWN_POINTS:
            out.append(f"↳ {opinion_line(replay, d, o, NOBODY)}")
    return out


def step_embed(
    replay: GameReplay, analysis: Analysis | None, game_id: int, steps: list[Step], index: int
) -> discord.Embed:
    step = steps[index]
    hand, rules = step.hand, replay.rules
    names = {s: md_name(n) for s, n in replay.players.items()}
    if step.trick == 0:
        where = _("the deal")
    else:
        where = _("trick {n} of {count}", n=step.trick, count=len(hand.tricks))
    title = _(
        "Replay of game #{game} — hand {n} of {count}, {where}",
        game=game_id,
        n=hand.number,
        count=len(replay.hands),
        where=where,
    )
    e = discord.Embed(title=title, colour=TEAL)
    dealer = f"{names[hand.dealer]} ({seat_word(hand.dealer)})"
    lines = [_("Dealer {dealer}", dealer=dealer)]
    bids = _bids(replay, hand)
    if bids:
        lines.append(_("**Bids**: {bids}", bids=bids) if hand.bids else bids)
    trump = hand.result.trump if hand.result is not None else "S"
    held = held_before(hand, rules, max(step.trick, 1))
    for s in rules.seats:
        cards = _("not recorded (the game ended in this hand)") if held is None else None
        if held is not None:
            cards = _cards(held[s], rules, trump)
        head = _("as dealt") if step.trick == 0 else _("held")
        e.add_field(name=f"{seat_word(s)} — {names[s]} ({head})", value=cards or "—", inline=False)
    notes: list[str] = []
    if step.trick == 0:
        notes = _notes(replay, analysis, list(hand.bids))
    else:
        t = hand.tricks[step.trick - 1]
        cards = " · ".join(
            f"**{seat.name} {c}**" if seat == t.winner else f"{seat.name} {c}"
            for seat, c, _i in t.plays
        )
        won = f" → {names[t.winner]}" if t.winner is not None else " " + _("(unfinished)")
        e.add_field(name=_("Trick {n}", n=t.number), value=cards + won, inline=False)
        taken = dict.fromkeys(rules.seats, 0)
        for done in hand.tricks[: step.trick]:
            if done.winner is not None:
                taken[done.winner] += 1
        counts = " · ".join(f"{s.name} {taken[s]}" for s in rules.seats)
        lines.append(_("Tricks: {counts}", counts=counts))
        decided = {i for _s, _c, i in t.plays}
        notes = _notes(replay, analysis, [d for d in replay.decisions if d.index in decided])
        if step.trick == len(hand.tricks) and hand.result is not None:
            keys = [s.name for s in rules.seats] if rules.solo else ["NS", "EW"]
            score = " · ".join(
                f"{key} {hand.result.teams[k].points:+d} → {hand.result.teams[k].score}"
                for k, key in enumerate(keys)
            )
            lines.append(_("**Score**: {score}", score=score))
    if notes:
        e.add_field(name=_("The hard player's review"), value="\n".join(notes)[:1024], inline=False)
    e.description = "\n".join(lines)
    e.set_footer(
        text=_(
            "Step {n} of {count} · the hands are shown because the game is over",
            n=index + 1,
            count=len(steps),
        )
    )
    return e


def step_view(game_id: int, poster: int, steps: list[Step], index: int) -> discord.ui.View:
    """**Previous**, **Next** and **Next hand**: only the poster's clicks turn the steps."""
    v = discord.ui.View(timeout=None)
    last = len(steps) - 1
    hand = steps[index].hand.number
    next_hand = next((i for i in range(index, len(steps)) if steps[i].hand.number > hand), last)
    v.add_item(
        replay_button(
            ReplayRef(game_id, poster, max(0, index - 1)), "◀ " + _("Previous"), tag="p",
            disabled=index <= 0,
        )
    )  # fmt: skip
    v.add_item(
        replay_button(
            ReplayRef(game_id, poster, min(last, index + 1)), _("Next") + " ▶", tag="n",
            disabled=index >= last, style=discord.ButtonStyle.primary,
        )
    )  # fmt: skip
    v.add_item(
        replay_button(
            ReplayRef(game_id, poster, next_hand), _("Next hand") + " ⏭", tag="h",
            disabled=next_hand <= index,
        )
    )  # fmt: skip
    return v


def step_payload(
    replay: GameReplay,
    analysis: Analysis | None,
    game_id: int,
    poster: int,
    index: int,
) -> dict[str, Any]:
    steps = replay_steps(replay)
    index = max(0, min(index, len(steps) - 1))
    return {
        "content": _("Replay posted by {poster}: only they turn its steps.", poster=f"<@{poster}>"),
        "embed": step_embed(replay, analysis, game_id, steps, index),
        "view": step_view(game_id, poster, steps, index),
    }
