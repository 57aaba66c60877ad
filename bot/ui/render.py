"""Embeds and component layouts.  Everything here reads a :class:`SeatView` — the public view
for channel messages, the player's own view for their ephemeral hand — never the raw game, so
a hidden card cannot reach the channel by accident."""

from __future__ import annotations

import discord

from bot.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Card,
    HandResult,
    Look,
    PassCards,
    Play,
    Rules,
    Seat,
    SeatView,
    Team,
    bid_text,
)
from bot.engine.cards import cards_of, mask_of
from bot.engine.decks import DECKS
from bot.engine.game import Phase
from bot.engine.rules import PRESET_DESCRIPTIONS
from bot.tables.state import Table
from bot.ui.components import ComponentRef, button, select
from bot.ui.words import plural

GREEN = discord.Colour(0x2E7D32)
GREY = discord.Colour(0x607D8B)
GOLD = discord.Colour(0xF9A825)
TEAM_NAMES = ("North–South", "East–West")
DISPLAY_SUITS = ("S", "H", "C", "D")  # alternate colours


# ---------------------------------------------------------------------- text helpers
def hand_text(cards: tuple[Card, ...], rules: Rules) -> str:
    """A hand sorted by suit (effective suit: jokers and jjdd's 2♦ sit with the spades)."""
    deck = DECKS[rules.deck]
    mask = mask_of(cards)
    parts = []
    for suit in DISPLAY_SUITS:
        in_suit = cards_of(mask & deck.suit_masks["SHDC".index(suit)])
        if not in_suit:
            continue
        ordered = sorted(in_suit, key=lambda c: -deck.power[c.index])
        parts.append(" ".join(str(c) for c in ordered))
    return "   ".join(parts) if parts else "(no cards)"


def bid_label(view: SeatView, seat: Seat) -> str:
    """What the table shows for a seat's bid (individual or New York)."""
    if view.rules.new_york:
        team = seat.team
        tb = view.team_bids[team]
        if tb is not None:
            return f"team bid {bid_text(tb.value, tb.blind)}" if tb.seat == seat else "—"
        prop = view.proposals[team]
        proposer = next((b.seat for b in view.bid_log if b.seat.team == team), None)
        if prop is not None and proposer == seat:
            return f"proposes {bid_text(prop[0], prop[1])}"
        return "…"
    b = view.bids[seat]
    return "…" if b is None else bid_text(b)


def team_contract(view: SeatView, team: Team) -> str:
    if view.rules.new_york:
        tb = view.team_bids[team]
        return bid_text(tb.value, tb.blind) if tb else "—"
    bids = [view.bids[s] for s in team.seats]
    if any(b is None for b in bids):
        return "—"
    contract = sum(b for b in bids if b is not None and b > 0)
    nils = [bid_text(b) for b in bids if b is not None and b <= NIL]
    return " + ".join([str(contract)] * (contract > 0) + nils) or "0"


def _names(table: Table) -> dict[Seat, str]:
    out = {}
    for s in table.seat_order:
        occ = table.seats.get(s)
        if occ is None:
            out[s] = "*(empty)*"
        elif occ.left:
            out[s] = f"Computer ({occ.bot_level}) · {occ.name} left"
        elif occ.away:
            out[s] = f"{occ.name} (computer playing)"
        else:
            out[s] = occ.name
    return out


def rules_summary(rules: Rules) -> str:
    return f"{rules.preset} to {rules.target}"


# ---------------------------------------------------------------------- table message
def table_embed(table: Table, view: SeatView | None) -> discord.Embed:
    names = _names(table)
    title = f"♠ Spades — {rules_summary(table.rules)}"
    if table.status == "lobby":
        e = discord.Embed(title=title, colour=GREY)
        e.description = (
            f"Waiting for players. Host: **{table.host_name()}**.\n"
            "Sit with the buttons or `/spades join`; the host fills empty seats with "
            "`/spades bot` and starts with **Start**."
        )
        for s in table.seat_order:
            side = "alone" if table.rules.solo else ("NS", "EW")[s.team]
            e.add_field(name=f"{s.word} ({side})", value=names[s])
        e.set_footer(text=f"Table {table.id} · {PRESET_DESCRIPTIONS[table.rules.preset]}")
        return e
    if view is None:  # closed before the game started
        e = discord.Embed(title=title, colour=GREY)
        e.description = "This table was closed before the game started."
        e.set_footer(text=f"Table {table.id}")
        return e
    if table.status != "playing":
        e = discord.Embed(title=title, colour=GOLD)
        e.description = final_text(table, view)
    else:
        e = discord.Embed(title=title, colour=GREEN)
        e.description = status_line(table, view)
    for s in view.seats:
        marks = []
        if s == view.dealer:
            marks.append("dealer")
        if view.to_act == s and table.status == "playing":
            marks.append("▶ to act")
        head = f"{s.word}" + (f" · {', '.join(marks)}" if marks else "")
        line2 = f"Bid: {bid_label(view, s)} · Won: {view.tricks_won[s]}"
        e.add_field(name=head, value=f"{names[s]}\n{line2}")
    if view.current_trick:
        trick = "  ".join(f"{s.name} {c}" for s, c in view.current_trick)
    elif view.completed_tricks:
        last = view.completed_tricks[-1]
        trick = "  ".join(f"{s.name} {c}" for s, c in last.cards) + f"  → {last.winner.word}"
    else:
        trick = "—"
    e.add_field(name="Trick" if view.current_trick else "Last trick", value=trick, inline=False)
    e.add_field(name="Score", value="\n".join(score_lines(view, names)), inline=False)
    broken = " · spades broken" if view.spades_broken else ""
    e.set_footer(text=f"Table {table.id} · hand {view.hand_number}{broken}")
    return e


def score_lines(view: SeatView, names: dict[Seat, str]) -> list[str]:
    """One line per side: the teams, or in solo (games.md G2) every player alone."""
    out = []
    if not view.rules.partnerships:
        for s in view.seats:
            line = f"**{s.word}** ({names[s]}): {view.scores[s]}"
            if view.rules.has_bags:
                line += f" · bags {view.bag_counts[s]}"
            out.append(line + f" · bid {bid_label(view, s)}")
        return out
    for t in Team:
        line = f"**{TEAM_NAMES[t]}**: {view.scores[t]}"
        if view.rules.has_bags:
            line += f" · bags {view.bag_counts[t]}"
        line += f" · contract {team_contract(view, t)}"
        out.append(line)
    return out


def status_line(table: Table, view: SeatView) -> str:
    seat = view.to_act
    if seat is None:
        return "Dealing…"
    who = table.seats[seat].name if seat in table.seats else seat.word
    if view.phase is Phase.BID:
        what = "to bid"
    elif view.phase is Phase.PASS:
        what = "to pass cards"
    else:
        what = "to lead" if not view.current_trick else "to play"
    return (
        f"Hand {view.hand_number} · **{who}** ({seat.word}) {what}.\n"
        "Press **My hand** (or `/hand`) to see your cards and act."
    )


def final_text(table: Table, view: SeatView) -> str:
    if table.status == "abandoned":
        return "This table was abandoned. The game is not rated."
    if view.winner is None:
        return "The game is over."
    names = _names(table)
    if isinstance(view.winner, Seat):  # solo (games.md G2): a player wins alone
        w = view.winner
        others = ", ".join(str(view.scores[s]) for s in view.seats if s != w)
        return f"🏆 **{names[w]}** ({w.word}) wins with {view.scores[w]} (others: {others})" + (
            f" — {view.end_reason}." if view.end_reason else "."
        )
    a, b = view.winner.seats
    return (
        f"🏆 **{TEAM_NAMES[view.winner]}** win ({names[a]} & {names[b]}) "
        f"{view.scores[view.winner]} to {view.scores[view.winner.other]}"
        + (f" — {view.end_reason}." if view.end_reason else ".")
    )


def table_components(table: Table) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    tid = table.id
    if table.status == "lobby":
        for s in table.free_seats():
            v.add_item(
                button(
                    ComponentRef(tid, "join", s),
                    f"Sit {s.word}",
                    discord.ButtonStyle.primary,
                    row=0,
                )
            )
        v.add_item(button(ComponentRef(tid, "addbot"), "Add computer", row=1))
        v.add_item(button(ComponentRef(tid, "leave"), "Leave", discord.ButtonStyle.danger, row=1))
        v.add_item(button(ComponentRef(tid, "start"), "Start", discord.ButtonStyle.success, row=1))
        v.add_item(button(ComponentRef(tid, "rules"), "Rules", row=1))
    elif table.status == "playing":
        v.add_item(
            button(ComponentRef(tid, "hand"), "My hand", discord.ButtonStyle.primary, emoji="🂠")
        )
        v.add_item(button(ComponentRef(tid, "rules"), "Rules"))
        if table.rules.claims:  # games.md G1
            v.add_item(button(ComponentRef(tid, "claim"), "Claim renege", emoji="⚖"))
        if any(o.is_computer and o.user_id is None for o in table.seats.values()):
            v.add_item(button(ComponentRef(tid, "join"), "Take a computer's seat"))
        if table.abandon_vote is not None:  # the host asked to end the game early
            v.add_item(
                button(
                    ComponentRef(tid, "agree"), "Agree to end", discord.ButtonStyle.danger, row=1
                )
            )
            v.add_item(
                button(
                    ComponentRef(tid, "keep"), "Keep playing", discord.ButtonStyle.success, row=1
                )
            )
    return v


def claim_components(table: Table, targets: tuple[Seat, ...]) -> discord.ui.View:
    """The ephemeral choice of the opponent a renege claim names (games.md G1)."""
    v = discord.ui.View(timeout=None)
    names = _names(table)
    for s in targets:
        v.add_item(
            button(
                ComponentRef(table.id, "claimon", s),
                f"{names[s]} ({s.word})",
                discord.ButtonStyle.danger,
            )
        )
    return v


# ---------------------------------------------------------------------- hand summaries
def hand_result_embed(table: Table, result: HandResult) -> discord.Embed:
    names = _names(table)
    e = discord.Embed(title=f"Hand {result.number} — scores", colour=GREY)
    if table.rules.solo:
        for s in table.seat_order:
            e.add_field(name=f"{s.word} — {names[s]}", value=_solo_hand_lines(result, s))
        return _with_claims(e, result)
    ny = table.rules.new_york
    for t in Team:
        a, b = t.seats
        res = result.teams[t]
        took = result.tricks[a] + result.tricks[b]
        if ny:
            tb = next((x for x in result.bids if x.seat.team == t), None)
            bid = bid_text(tb.value, tb.blind) if tb else "no bidding"
        else:
            bids = {x.seat: x.value for x in result.bids}
            bid = " + ".join(_bid_word(bids.get(s)) for s in (a, b))
        lines = [
            f"Bid {bid} · took {took} "
            f"({names[a]} {result.tricks[a]}, {names[b]} {result.tricks[b]})",
            f"Points **{res.points:+d}**" + (f" · bags +{res.bags}" if res.bags else ""),
        ]
        if res.bag_penalty:
            lines.append(f"Bag penalty −{res.bag_penalty}")
        if res.caught:
            lines.append("Caught reneging")
        lines.append(f"Score {res.score}" + (f" · bag count {res.bag_count}" if not ny else ""))
        e.add_field(name=TEAM_NAMES[t], value="\n".join(lines))
    return _with_claims(e, result)


def _with_claims(e: discord.Embed, result: HandResult) -> discord.Embed:
    """games.md G1: the hand's renege claims, as judged, under the scores."""
    if result.claims:
        text = "\n".join(f"⚖ {c.seat.word}: {c.text}" for c in result.claims)
        e.add_field(name="Renege claims", value=text, inline=False)
    return e


def _solo_hand_lines(result: HandResult, seat: Seat) -> str:
    """One player's hand in a solo game: bid, tricks, points, bags and score."""
    res = result.teams[seat]
    bids = {x.seat: x.value for x in result.bids}
    lines = [
        f"Bid {_bid_word(bids.get(seat))} · took {result.tricks[seat]}",
        f"Points **{res.points:+d}**" + (f" · bags +{res.bags}" if res.bags else ""),
    ]
    if res.bag_penalty:
        lines.append(f"Bag penalty −{res.bag_penalty}")
    if res.caught:
        lines.append("Caught reneging")
    lines.append(f"Score {res.score} · bag count {res.bag_count}")
    return "\n".join(lines)


def _bid_word(value: int | None) -> str:
    if value is None:
        return "?"
    return bid_text(value)


def game_over_embed(table: Table, view: SeatView) -> discord.Embed:
    e = discord.Embed(title="Game over", colour=GOLD, description=final_text(table, view))
    if view.rules.partnerships:
        final = f"{TEAM_NAMES[0]} {view.scores[0]} · {TEAM_NAMES[1]} {view.scores[1]}"
    else:  # solo: every player's score
        names = _names(table)
        final = " · ".join(f"{names[s]} ({s.name}) {view.scores[s]}" for s in view.seats)
    e.add_field(name="Final score", value=final, inline=False)
    e.set_footer(text=f"Table {table.id} · {plural(len(view.results), 'hand')}")
    return e


def rules_embed(rules: Rules) -> discord.Embed:
    e = discord.Embed(title=f"Rules: {rules.preset}", colour=GREY)
    e.description = PRESET_DESCRIPTIONS[rules.preset]
    lines = []
    overrides = rules.overrides()
    for name, value in rules.options().items():
        shown = (
            "off"
            if value is None
            else ("on" if value is True else "off" if value is False else value)
        )
        mark = " *(changed)*" if name in overrides else ""
        lines.append(f"`{name}`: {shown}{mark}")
    e.add_field(name="Options", value="\n".join(lines[:12]), inline=True)
    e.add_field(name="\u200b", value="\n".join(lines[12:]) or "\u200b", inline=True)
    deck = DECKS[rules.deck]
    trumps = " > ".join(str(c) for c in deck.trump_order()[:6]) + " > …"
    e.set_footer(text=f"Trumps: {trumps}")
    return e


# ---------------------------------------------------------------------- private hand
def hand_embed(table: Table, view: SeatView, notice: str | None = None) -> discord.Embed:
    assert view.seat is not None
    seat = view.seat
    e = discord.Embed(title=f"Your hand — {seat.word}", colour=GREEN)
    if view.hand_hidden:
        if view.rules.new_york:
            body = (
                "Your cards are face down. Your team may make a **blind bid** (4–10, "
                "scores double) before either of you looks — or look at your cards."
            )
        elif view.bids[seat] == BLIND_NIL:
            body = "You bid blind nil. Your cards show when bidding is over."
        else:
            body = (
                "Your cards are face down. You may bid **blind nil** before looking "
                "— or look at your cards."
            )
        e.description = body
    elif view.hand is not None:
        e.description = f"# {hand_text(view.hand, view.rules)}" if view.hand else "(no cards left)"
    lines = [prompt_line(table, view)]
    if view.received:
        lines.append(f"Your partner passed you: {' '.join(str(c) for c in view.received)}")
    if view.current_trick:
        lines.append("Trick: " + "  ".join(f"{s.word} {c}" for s, c in view.current_trick))
    if notice:
        lines.insert(0, f"**{notice}**")
    e.add_field(name="Now", value="\n".join(lines), inline=False)
    if view.rules.partnerships:
        my_team = seat.team
        standing = f"your team {view.scores[my_team]} · them {view.scores[my_team.other]}"
    else:  # solo: your score and the best of the others'
        best = max(view.scores[s] for s in view.seats if s != seat)
        standing = f"you {view.scores[seat]} · best of the others {best}"
    e.set_footer(
        text=f"Hand {view.hand_number} · {standing} · won {plural(view.tricks_won[seat], 'trick')}"
    )
    return e


def prompt_line(table: Table, view: SeatView) -> str:
    if view.over:
        return "The game is over."
    if view.my_turn:
        if view.phase is Phase.BID:
            if view.rules.new_york:
                prop = view.proposals[view.seat.team] if view.seat is not None else None
                if prop is not None:
                    return (
                        f"Your partner proposes **{bid_text(prop[0], prop[1])}**: "
                        "confirm it or choose the team's bid."
                    )
                return "Propose your team's bid (4–10)."
            return "Your turn to **bid**."
        if view.phase is Phase.PASS:
            n = view.rules.blind_nil_pass
            return f"Choose **{n}** card{'s' if n > 1 else ''} to pass to your partner."
        return "Your turn to **play** a card."
    seat = view.to_act
    if seat is None:
        return "Waiting for the deal."
    who = table.seats[seat].name if seat in table.seats else seat.word
    return f"Waiting for {who} ({seat.word}). Press **Refresh** to update."


def hand_components(table: Table, view: SeatView) -> discord.ui.View:
    """Only the actions that are the player's now."""
    assert view.seat is not None
    seat, hand_no, tid = view.seat, view.hand_number, table.id
    v = discord.ui.View(timeout=None)

    def ref(verb: str, card: str | None = None) -> ComponentRef:
        return ComponentRef(tid, verb, seat, hand_no, card)

    legal = view.legal
    plays = [a for a in legal if isinstance(a, Play)]
    bids = [a for a in legal if isinstance(a, Bid)]
    passes = [a for a in legal if isinstance(a, PassCards)]
    if any(isinstance(a, Look) for a in legal):
        v.add_item(button(ref("look"), "Look at my cards", discord.ButtonStyle.primary, row=0))
    if bids:
        if any(b.value == BLIND_NIL for b in bids):
            v.add_item(button(ref("blind"), "Blind nil", discord.ButtonStyle.danger, row=0))
        numeric = [b for b in bids if b.value != BLIND_NIL]
        if numeric:
            prop = view.proposals[seat.team] if view.rules.new_york else None
            options = [
                discord.SelectOption(
                    label=_bid_option_label(b),
                    value=_bid_value(b),
                    default=prop is not None and prop[0] == b.value,
                )
                for b in numeric
            ]
            v.add_item(select(ref("bid"), options, "Choose your bid", row=1))
    if passes and view.hand:
        n = view.rules.blind_nil_pass
        options = [discord.SelectOption(label=str(c), value=c.code) for c in view.hand]
        v.add_item(
            select(
                ref("pass"), options, f"Pass {plural(n, 'card')}", min_values=n, max_values=n, row=1
            )
        )
    if plays:
        deck = DECKS[view.rules.deck]
        ordered = sorted(
            (p.card for p in plays),
            key=lambda c: (
                DISPLAY_SUITS.index(_eff_suit(deck.suit_masks, c)),
                -deck.power[c.index],
            ),
        )
        for i, c in enumerate(ordered[:20]):
            v.add_item(
                button(ref("play", c.code), str(c), _card_style(c, deck.suit_masks), row=i // 5)
            )
    v.add_item(button(ref("refresh"), "Refresh", row=4, emoji="🔄"))
    return v


def _eff_suit(masks: tuple[int, int, int, int], c: Card) -> str:
    for s, m in zip("SHDC", masks, strict=True):
        if m >> c.index & 1:
            return s
    return "S"


def _card_style(c: Card, masks: tuple[int, int, int, int]) -> discord.ButtonStyle:
    suit = _eff_suit(masks, c)
    return (
        discord.ButtonStyle.danger
        if suit in ("H", "D") and c.suit in ("H", "D")
        else discord.ButtonStyle.secondary
    )


def _bid_option_label(b: Bid) -> str:
    if b.value == NIL:
        return "Nil (take no tricks)"
    if b.blind:
        return f"Blind {b.value} (before looking)"
    return f"{b.value} trick{'s' if b.value != 1 else ''}"


def _bid_value(b: Bid) -> str:
    if b.value == NIL:
        return "nil"
    return f"blind{b.value}" if b.blind else str(b.value)
