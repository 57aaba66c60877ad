"""A table's rules in plain sentences grouped by topic, what differs from the preset marked;
a one-line summary for footers; and ``/spades help``."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.engine import Rules
from bot.league.settings import RATED_TIMER_MIN
from bot.tables.defaults import default_rules
from bot.ui.game_text import Sentence
from bot.ui.games import text_of
from bot.ui.text import number, preset_title

GREY = discord.Colour(0x607D8B)
CHANGED = " ✎"


def changed_options(rules: Rules) -> set[str]:
    """The options that differ from what a new table of this preset starts with."""
    base = default_rules(rules.preset)
    return {name for name, value in rules.options().items() if getattr(base, name) != value}


def rules_sections(rules: Rules) -> list[tuple[str, list[Sentence]]]:
    """The rules as (topic, sentences), in the order people ask about them (the game's own)."""
    return text_of(rules.game).rules_sections(rules)


def rules_embed(rules: Rules) -> discord.Embed:
    changed = changed_options(rules)
    e = discord.Embed(title=f"Rules: {preset_title(rules)} to {number(rules.target)}", colour=GREY)
    described: set[str] = set()
    for topic, sentences in rules_sections(rules):
        e.add_field(name=topic, value=_lines(sentences, changed), inline=False)
        described.update(o for s in sentences for o in s.options)
    unseen = sorted(changed - described)
    if unseen:  # changed, but without effect under the other rules: still say so
        lines = [
            f"• {name.replace('_', ' ')}: {_value(getattr(rules, name))} (no effect under "
            "these rules)." + CHANGED
            for name in unseen
        ]
        e.add_field(name="Also changed", value="\n".join(lines), inline=False)
    note = (
        f"✎ = changed from the {preset_title(rules)} preset. "
        if changed
        else f"The {preset_title(rules)} preset, unchanged. "
    )
    e.set_footer(text=note + "The host changes rules before the start with /spades rule.")
    return e


def _value(value: object) -> str:
    if value is None or value is False:
        return "off"
    return "on" if value is True else str(value)


def _lines(sentences: Iterable[Sentence], changed: set[str]) -> str:
    return "\n".join(
        "• " + s.text + (CHANGED if changed.intersection(s.options) else "") for s in sentences
    )


def rules_brief(rules: Rules) -> str:
    """One line for a footer, built from the rules themselves (overrides included)."""
    parts = []
    if rules.solo:
        parts.append("3 players, 17 tricks" if rules.players == 3 else "everyone alone")
    if rules.bidding in ("suicide", "whiz", "mirror"):
        parts.append(f"{rules.bidding} bidding")
    if rules.claims:
        parts.append("renege claims")
    if rules.new_york:
        parts.append("partnership bids 4–10 · set twice loses")
    else:
        if rules.nil:
            parts.append(f"nil ±{rules.nil_value}")
        if rules.blind_nil:
            parts.append(f"blind nil ±{rules.blind_nil_value}")
        if rules.bag_limit is not None and rules.bag_penalty:
            parts.append(f"{rules.bag_limit} bags −{rules.bag_penalty}")
        if rules.set_penalty == "zero":
            parts.append("no set penalty")
    if rules.deck != "standard":
        parts.append("jokers" if rules.deck == "jokers" else "jokers and deuces")
    if rules.lose_at is not None:
        parts.append(f"loses at {number(rules.lose_at)}")
    return " · ".join(parts)


def help_embed() -> discord.Embed:
    e = discord.Embed(title="♠ How to play Spades here", colour=GREY)
    e.description = (
        "Four players in two partnerships (North–South against East–West) bid how many "
        "tricks they will take, then play 13 tricks; spades are trump. `/spades rules` "
        "explains the table's rules."
    )
    e.add_field(
        name="1. Sit down",
        value="`/spades new` opens a table here (you host it). Friends press **Sit …** or "
        "use `/spades join`; the host fills empty seats with **Add computer** or "
        "`/spades bot` and presses **Start**.",
        inline=False,
    )
    e.add_field(
        name="2. Your hand",
        value="Press **My hand** on the table message (or `/hand`): only you see it. It "
        "updates by itself: when it is your turn it shows your bid choices or one button "
        "per card you may play — one click per card. **Refresh** is there if it ever "
        "falls behind; after 15 minutes without a click press **My hand** again.",
        inline=False,
    )
    e.add_field(
        name="3. Whose turn",
        value="The table message marks the player on turn with ▶ and, with a turn timer, "
        "counts down; when time runs out a computer plays for them. If your hand cannot be "
        "updated, the bot mentions you once when your turn comes.",
        inline=False,
    )
    e.add_field(
        name="Keyboard",
        value="`/bid 4`, `/bid nil`, `/play A♠` (with suggestions of what you may play), "
        "`/spades leave` (a computer takes your seat), `/spades table` (show the table "
        "again), `/spades abandon` (host).",
        inline=False,
    )
    e.add_field(
        name="Renege claims",
        value="At a table with renege claims any card may be played; **Claim renege** (or "
        "`/claim`) names an opponent you think reneged. The verdict is public, so a claim is "
        "also a probe of that opponent's plays — allowed, and it costs a wrong claimer's side "
        "only its further claims that hand.",
        inline=False,
    )
    e.add_field(
        name="Watch, learn, replay",
        value="**Watch** on the table message (or `/spades watch`) follows a game you do not "
        "play in, privately. A host may set `/spades rule hints on`: each hand then has "
        "**Hint** (the hard computer's choice, why, and the runner-up) and the game is not "
        "rated. After a game, your **Review** can be shared in a thread with **Share as replay**.",
        inline=False,
    )
    e.add_field(
        name="Scores and the league",
        value="After each hand a score sheet explains every point. Games between members are "
        f"rated: `/leaderboard`, `/stats`, `/history` — unless the turn timer is under "
        f"{RATED_TIMER_MIN} s (the table says so). Leaving a rated game counts as a loss unless "
        "you take your seat back; a computer plays an absent member's seat at `normal`, and "
        "nobody can change that.",
        inline=False,
    )
    return e
