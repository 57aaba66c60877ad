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

from bot.engine import Card, Rules, Seat, bid_text
from bot.names import md_name
from bot.review.analysis import Analysis
from bot.review.decisions import GameReplay, HandPlayed, RecordedDecision
from bot.ui.images.deal import suit_lines
from bot.ui.replay_components import ReplayRef, replay_button
from bot.ui.review_render import SHOWN_POINTS, opinion_line
from bot.ui.trump_text import hand_trump_text

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
        for seat, c, _ in t.plays:
            held[seat].remove(c)
    return held


def _cards(cards: list[Card], rules: Rules, trump: str | None) -> str:
    lines = suit_lines(tuple(cards), rules, trump)
    return " · ".join(" ".join(str(c) for c in line.cards) for line in lines if line.cards) or "—"


def _bids(replay: GameReplay, hand: HandPlayed) -> str | None:
    if hand.bids:
        return " · ".join(
            f"{d.seat.name} {bid_text(d.action.value, d.action.blind)}"  # type: ignore[union-attr]
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
    where = "the deal" if step.trick == 0 else f"trick {step.trick} of {len(hand.tricks)}"
    e = discord.Embed(
        title=f"Replay of game #{game_id} — hand {hand.number} of {len(replay.hands)}, {where}",
        colour=TEAL,
    )
    lines = [f"Dealer {names[hand.dealer]} ({hand.dealer.word})"]
    bids = _bids(replay, hand)
    if bids:
        lines.append(f"**Bids**: {bids}" if hand.bids else bids)
    trump = hand.result.trump if hand.result is not None else "S"
    held = held_before(hand, rules, max(step.trick, 1))
    for s in rules.seats:
        cards = "not recorded (the game ended in this hand)" if held is None else None
        if held is not None:
            cards = _cards(held[s], rules, trump)
        head = "as dealt" if step.trick == 0 else "held"
        e.add_field(name=f"{s.word} — {names[s]} ({head})", value=cards or "—", inline=False)
    notes: list[str] = []
    if step.trick == 0:
        notes = _notes(replay, analysis, list(hand.bids))
    else:
        t = hand.tricks[step.trick - 1]
        cards = " · ".join(
            f"**{seat.name} {c}**" if seat == t.winner else f"{seat.name} {c}"
            for seat, c, _ in t.plays
        )
        won = f" → {names[t.winner]}" if t.winner is not None else " (unfinished)"
        e.add_field(name=f"Trick {t.number}", value=cards + won, inline=False)
        taken = dict.fromkeys(rules.seats, 0)
        for done in hand.tricks[: step.trick]:
            if done.winner is not None:
                taken[done.winner] += 1
        lines.append("Tricks: " + " · ".join(f"{s.name} {taken[s]}" for s in rules.seats))
        decided = {i for _, _, i in t.plays}
        notes = _notes(replay, analysis, [d for d in replay.decisions if d.index in decided])
        if step.trick == len(hand.tricks) and hand.result is not None:
            keys = [s.name for s in rules.seats] if rules.solo else ["NS", "EW"]
            score = " · ".join(
                f"{key} {hand.result.teams[k].points:+d} → {hand.result.teams[k].score}"
                for k, key in enumerate(keys)
            )
            lines.append(f"**Score**: {score}")
    if notes:
        e.add_field(name="The hard player's review", value="\n".join(notes)[:1024], inline=False)
    e.description = "\n".join(lines)
    e.set_footer(
        text=f"Step {index + 1} of {len(steps)} · the hands are shown because the game is over"
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
            ReplayRef(game_id, poster, max(0, index - 1)), "◀ Previous", tag="p",
            disabled=index <= 0,
        )
    )  # fmt: skip
    v.add_item(
        replay_button(
            ReplayRef(game_id, poster, min(last, index + 1)), "Next ▶", tag="n",
            disabled=index >= last, style=discord.ButtonStyle.primary,
        )
    )  # fmt: skip
    v.add_item(
        replay_button(
            ReplayRef(game_id, poster, next_hand), "Next hand ⏭", tag="h",
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
        "content": f"Replay posted by <@{poster}>: only they turn its steps.",
        "embed": step_embed(replay, analysis, game_id, steps, index),
        "view": step_view(game_id, poster, steps, index),
    }
