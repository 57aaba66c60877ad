"""A table's rules in plain sentences grouped by topic, what differs from the preset marked;
a one-line summary for footers; and ``/spades help``."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.engine import BLIND_NIL, NIL, Rules, card
from bot.i18n import SOURCE, _, current
from bot.i18n.cards import bid_word, card_name
from bot.league.settings import RATED_TIMER_MIN
from bot.tables.defaults import default_rules
from bot.ui.text.game_text import Sentence
from bot.ui.text.games import text_of
from bot.ui.text.words import number, preset_title

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
    title = _(
        "Rules: {preset} to {target}", preset=preset_title(rules), target=number(rules.target)
    )
    e = discord.Embed(title=title, colour=GREY)
    described: set[str] = set()
    for topic, sentences in rules_sections(rules):
        e.add_field(name=topic, value=_lines(sentences, changed), inline=False)
        described.update(o for s in sentences for o in s.options)
    unseen = sorted(changed - described)
    if unseen:  # changed, but without effect under the other rules: still say so
        lines = [
            "• "
            + _(
                "{option}: {value} (no effect under these rules).",
                option=name.replace("_", " "),
                value=_value(getattr(rules, name)),
            )
            + CHANGED
            for name in unseen
        ]
        e.add_field(name=_("Also changed"), value="\n".join(lines), inline=False)
    note = (
        _("✎ = changed from the {preset} preset.", preset=preset_title(rules))
        if changed
        else _("The {preset} preset, unchanged.", preset=preset_title(rules))
    )
    host = _("The host changes rules before the start with /spades rule.")
    e.set_footer(text=f"{note} {host}")
    return e


def _value(value: object) -> str:
    if value is None or value is False:
        return _("off")
    return _("on") if value is True else str(value)


def _lines(sentences: Iterable[Sentence], changed: set[str]) -> str:
    return "\n".join(
        "• " + s.text + (CHANGED if changed.intersection(s.options) else "") for s in sentences
    )


def rules_brief(rules: Rules) -> str:
    """One line for a footer, built from the rules themselves (overrides included)."""
    parts = []
    if rules.solo:
        parts.append(_("3 players, 17 tricks") if rules.players == 3 else _("everyone alone"))
    if rules.bidding in ("suicide", "whiz", "mirror"):
        parts.append(_("{bidding} bidding", bidding=rules.bidding))
    if rules.claims:
        parts.append(_("renege claims"))
    if rules.new_york:
        parts.append(_("partnership bids 4–10 · set twice loses"))
    else:
        if rules.nil:
            parts.append(f"{bid_word(NIL)} ±{number(rules.nil_value)}")
        if rules.blind_nil:
            parts.append(f"{bid_word(BLIND_NIL)} ±{number(rules.blind_nil_value)}")
        if rules.bag_limit is not None and rules.bag_penalty:
            parts.append(
                _("{n} bags −{penalty}", n=rules.bag_limit, penalty=number(rules.bag_penalty))
            )
        if rules.set_penalty == "zero":
            parts.append(_("no set penalty"))
    if rules.deck != "standard":
        parts.append(_("jokers") if rules.deck == "jokers" else _("jokers and deuces"))
    if rules.lose_at is not None:
        parts.append(_("loses at {n}", n=number(rules.lose_at)))
    return " · ".join(parts)


def help_embed() -> discord.Embed:
    e = discord.Embed(title=_("♠ How to play Spades here"), colour=GREY)
    e.description = _(
        "Four players in two partnerships (North–South against East–West) bid how many "
        "tricks they will take, then play 13 tricks; spades are trump. `/spades rules` "
        "explains the table's rules."
    )
    e.add_field(
        name=_("1. Sit down"),
        value=_(
            "`/spades new` opens a table here (you host it). Friends press **Sit …** or "
            "use `/spades join`; the host fills empty seats with **Add computer** or "
            "`/spades bot` and presses **Start**."
        ),
        inline=False,
    )
    e.add_field(
        name=_("2. Your hand"),
        value=_(
            "Press **My hand** on the table message (or `/hand`): only you see it. It "
            "updates by itself: when it is your turn it shows your bid choices or one button "
            "per card you may play — one click per card. **Refresh** is there if it ever "
            "falls behind; after 15 minutes without a click press **My hand** again."
        ),
        inline=False,
    )
    e.add_field(
        name=_("3. Whose turn"),
        value=_(
            "The table message marks the player on turn with ▶ and, with a turn timer, "
            "counts down; when time runs out a computer plays for them. If your hand cannot "
            "be updated, the bot mentions you once when your turn comes."
        ),
        inline=False,
    )
    e.add_field(
        name=_("Keyboard"),
        value=_(
            "`/bid 4`, `/bid {nil}`, `/play {card}` (with suggestions of what you may play), "
            "`/spades leave` (a computer takes your seat), `/spades table` (show the table "
            "again), `/spades abandon` (host).",
            nil=bid_word(NIL),
            card="A♠" if current() == SOURCE else card_name(card("AS")),  # words beyond English
        ),
        inline=False,
    )
    e.add_field(
        name=_("Renege claims"),
        value=_(
            "At a table with renege claims any card may be played; **Claim renege** (or "
            "`/claim`) names an opponent you think reneged. The verdict is public, so a claim "
            "is also a probe of that opponent's plays — allowed, and it costs a wrong "
            "claimer's side only its further claims that hand."
        ),
        inline=False,
    )
    e.add_field(
        name=_("Watch, learn, replay"),
        value=_(
            "**Watch** on the table message (or `/spades watch`) follows a game you do not "
            "play in, privately. A host may set `/spades rule hints on`: each hand then has "
            "**Hint** (the hard computer's choice, why, and the runner-up) and the game is not "
            "rated. After a game, your **Review** can be shared in a thread with **Share as "
            "replay**."
        ),
        inline=False,
    )
    e.add_field(
        name=_("Scores and the league"),
        value=_(
            "After each hand a score sheet explains every point. Games between members are "
            "rated: `/leaderboard`, `/stats`, `/history` — unless the turn timer is under "
            "{s} s (the table says so). Leaving a rated game counts as a loss unless you take "
            "your seat back; a computer plays an absent member's seat at `normal`, and nobody "
            "can change that.",
            s=RATED_TIMER_MIN,
        ),
        inline=False,
    )
    return e
