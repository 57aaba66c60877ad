"""A table's rules in plain sentences grouped by topic, what differs from the preset marked;
a one-line summary for footers; and ``/spades help``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.engine import DECKS, Rules
from bot.engine.rules import PRESET_DESCRIPTIONS
from bot.league.settings import RATED_TIMER_MIN
from bot.tables.defaults import default_rules
from bot.ui.text import number, plural, preset_title

GREY = discord.Colour(0x607D8B)
CHANGED = " ✎"


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    options: tuple[str, ...]  # the rule options it describes


def _s(text: str, *options: str) -> Sentence:
    return Sentence(text, options)


def changed_options(rules: Rules) -> set[str]:
    """The options that differ from what a new table of this preset starts with."""
    base = default_rules(rules.preset)
    return {name for name, value in rules.options().items() if getattr(base, name) != value}


def rules_sections(rules: Rules) -> list[tuple[str, list[Sentence]]]:
    """The rules as (topic, sentences), in the order people ask about them."""
    if rules.game != "spades":  # Whist and Euchre: their preset's description, for now
        return [
            ("The game", [_s(PRESET_DESCRIPTIONS[rules.preset] + ".", "game", "deck")]),
            ("End of the game", [_s(f"The first side to {rules.target} points wins.", "target")]),
        ]
    return [
        ("Cards and tricks", _cards(rules)),
        ("Bidding", _bidding(rules)),
        ("Scoring", _scoring(rules)),
        ("Nil", _nil(rules)),
        ("Bags", _bags(rules)),
        ("End of the game", _end(rules)),
    ]


def _cards(r: Rules) -> list[Sentence]:
    deck = DECKS[r.deck]
    trumps = " > ".join(str(c) for c in deck.trump_order()[:5]) + " > …"
    if r.deck == "standard":
        first = _s("A standard 52-card deck; spades are always trump.", "deck")
    elif r.deck == "jokers":
        first = _s(
            "Two jokers replace 2♥ and 2♣; they are the highest trumps and count as spades.",
            "deck",
        )
    else:
        first = _s(
            "Two jokers replace 2♥ and 2♣; the jokers and 2♦ are the highest trumps and count "
            "as spades.",
            "deck",
        )
    out = [first]
    if r.players == 3:
        out.append(
            _s(
                "Three players (North, East, South): the 2♣ is taken out; 17 cards each, "
                "17 tricks a hand.",
                "players",
            )
        )
    out.append(_s(f"Trumps: {trumps}.", "deck"))
    if r.claims:
        out.append(
            _s(
                "Follow the suit led if you can, and do not lead spades before they are broken "
                "while holding another suit — but any card may be played: breaking these rules "
                "is a renege, seen by nobody until an opponent claims it. Any player may claim "
                "an opponent reneged, until the last card of the hand; a wrong claim bars that "
                "side from claiming again in the hand. A verdict is public, so a claim is also "
                "a probe: a wrong one tells everyone that opponent's plays were legal (that they "
                "had none of a suit they did not follow), for only that one claim. This is "
                "allowed; it is part of the game.",
                "renege",
            )
        )
    else:
        out.append(
            _s(
                "Follow the suit led if you can. Spades cannot be led until one has been played "
                "on another suit (unless you hold only spades).",
                "renege",
            )
        )
    if r.joker_bonus:
        out.append(
            _s(
                "Joker bonus: the team that wins a trick with the Big Joker in it scores +2, "
                "with the Little Joker +1; a joker that loses its trick costs its team 2.",
                "joker_bonus",
            )
        )
    return out


def _bidding(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [
            _s(
                "Partnership bidding: each team bids once, 4 to 10 tricks. The first partner "
                "proposes, the other confirms or changes it.",
                "bidding",
            ),
            _s("The first hand is played without bidding: 10 points a trick.", "bidding"),
            _s(
                "A team 100 or more behind may bid blind (before either partner looks): "
                "double points if made.",
                "bidding",
            ),
        ]
    tricks = 17 if r.players == 3 else 13
    if r.solo:
        out = [
            _s(
                f"Everyone plays alone: each player bids 1 to {tricks} tricks, starting left "
                "of the dealer, and that bid is their own contract.",
                "partnerships",
            )
        ]
    else:
        out = [
            _s(
                f"Each player bids 1 to {tricks} tricks, starting left of the dealer; a team's "
                "contract is the sum of its non-nil bids.",
                "bidding",
            )
        ]
    restricted = {
        "suicide": "Suicide: in each team one partner bids nil (or blind nil) and the other 4 "
        "or more; the team's first bidder chooses, the partner takes the other role.",
        "whiz": "Whiz: every bid is nil (or blind nil) or exactly your number of spades.",
        "mirror": "Mirror: every bid is exactly your number of spades (none: nil); no blind nil.",
    }
    if r.bidding in restricted:
        out.append(_s(restricted[r.bidding], "bidding"))
    return out


def _scoring(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [
            _s(
                "Bid 4–9: made with at most 2 overtricks scores 10 a trick bid (overtricks "
                "score nothing); fewer tricks, or 3 or more overtricks, lose 10 a trick bid.",
                "bidding",
            ),
            _s(
                "Bid 10: 10–12 tricks score 200, all 13 (a Boston) win the game, fewer lose 200.",
                "bidding",
            ),
        ]
    bag = f"plus {plural(r.bag_value, 'point')} a bag" if r.bag_value else "bags score nothing"
    made = _s(
        f"A contract made scores 10 a trick bid, {bag} (each trick over the bid).", "bag_value"
    )
    if r.set_penalty == "bid":
        set_ = _s("A contract set (fewer tricks than bid) loses 10 a trick bid.", "set_penalty")
    else:
        set_ = _s("A contract set (fewer tricks than bid) scores 0: no penalty.", "set_penalty")
    out = [made, set_]
    if r.claims:
        side = "player" if r.solo else "side"
        if r.renege_penalty == "round":
            text = (
                f"A {side} caught reneging scores at most 0 for the hand and gains no bags; "
                f"the points it would have scored go to the other {side}s."
            )
        else:
            text = (
                f"A {side} caught reneging scores −250 and gains no bags; every other {side} "
                "scores as if it had made its contract exactly and each of its nils."
            )
        out.append(_s(text, "renege_penalty"))
    return out


def _nil(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [_s("No nil bids.", "nil")]
    out = []
    if r.nil:
        out.append(
            _s(
                f"Nil (bid to take no trick): +{r.nil_value} if you take none, "
                f"−{r.nil_value} if you take any.",
                "nil",
                "nil_value",
            )
        )
        where = {
            "bags": "count as bags for the team, never toward the contract",
            "none": "count for nothing",
            "contract": "count toward the partner's contract",
        }[r.nil_tricks]
        out.append(_s(f"A nil player's tricks {where}.", "nil_tricks"))
    else:
        out.append(_s("No nil bids (except blind nil where it is on).", "nil", "nil_value"))
    if r.blind_nil:
        when = (
            "at any time"
            if r.blind_nil_min_deficit == 0
            else f"when your team is {r.blind_nil_min_deficit} or more behind"
        )
        out.append(
            _s(
                f"Blind nil (bid before looking at your cards): ±{r.blind_nil_value}, {when}.",
                "blind_nil",
                "blind_nil_value",
                "blind_nil_min_deficit",
            )
        )
        if r.blind_nil_pass:
            n = plural(r.blind_nil_pass, "card")
            out.append(
                _s(
                    f"After bidding, a blind nil bidder passes {n} to their partner and "
                    f"gets {n} back.",
                    "blind_nil_pass",
                )
            )
    else:
        out.append(_s("No blind nil.", "blind_nil", "blind_nil_value", "blind_nil_min_deficit"))
    if r.nil and r.double_nil == "team":
        v = r.double_nil_value
        out.append(
            _s(
                f"Both partners nil: +{v} if neither takes a trick, −{v} otherwise.",
                "double_nil",
                "double_nil_value",
            )
        )
    elif r.nil:
        out.append(
            _s(
                "Both partners may bid nil; each nil scores on its own.",
                "double_nil",
                "double_nil_value",
            )
        )
    if r.blind_nil:
        out.append(_double_blind(r))
    return out


def _double_blind(r: Rules) -> Sentence:
    opts = ("double_blind_nil", "double_blind_nil_min_deficit")
    if r.double_blind_nil == "off":
        return _s("Partners may not both bid blind nil.", *opts)
    when = (
        ""
        if r.double_blind_nil_min_deficit == 0
        else f" (team {r.double_blind_nil_min_deficit} or more behind)"
    )
    if r.double_blind_nil == "scored":
        return _s(
            f"Both partners blind nil{when}: +400 if both make it, −250 if both fail, "
            "−150 if one fails.",
            *opts,
        )
    return _s(
        f"Both partners blind nil{when}: the team wins the game if both make it and loses "
        "it otherwise.",
        *opts,
    )


def _bags(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [_s("No bags.", "bag_limit")]
    if r.bag_limit is None or r.bag_penalty == 0:
        return [_s("Bags are counted but never cost points.", "bag_limit", "bag_penalty")]
    return [
        _s(
            f"Every {r.bag_limit} bags cost {r.bag_penalty} points (and the count drops by "
            f"{r.bag_limit}).",
            "bag_limit",
            "bag_penalty",
        )
    ]


def _end(r: Rules) -> list[Sentence]:
    if r.solo:
        first = _s(
            f"The game ends when a player reaches {number(r.target)} points: the highest "
            "score wins.",
            "target",
        )
    else:
        first = _s(
            f"The first team to {number(r.target)} points wins; if both get there in the "
            "same hand, the higher score wins.",
            "target",
        )
    out = [first]
    if r.tie == "bags":
        out.append(
            _s(
                "Equal scores at the end: the team with more bags over the game wins (still "
                "equal: one more hand).",
                "tie",
            )
        )
    else:
        out.append(_s("Equal scores at the end: one more hand.", "tie"))
    if r.new_york:
        out.append(_s("A team set in two hands in a row loses the game.", "bidding"))
    if r.lose_at is not None:
        out.append(
            _s(
                f"Mercy rule: a team whose score falls to {number(r.lose_at)} or below loses "
                "(if both do, the higher score wins).",
                "lose_at",
            )
        )
    else:
        out.append(_s("No mercy rule: scores may fall without limit.", "lose_at"))
    return out


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
