"""A player's private hand message (ephemeral): their cards, what is happening, and on their
turn only the actions that are theirs.  The same message is sent as an answer and edited live
(:mod:`bot.ui.hand.live_editor`), so it never says anything that goes stale between two of its
updates: who is on turn is shown only when it is the player."""

from __future__ import annotations

import functools
from typing import Any

import discord

from bot.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Call,
    Card,
    Discard,
    Look,
    PassCards,
    Phase,
    Play,
    Seat,
    SeatView,
    seat_view,
)
from bot.engine.cards import mask_of
from bot.i18n import _, _n
from bot.i18n.cards import seat_word
from bot.tables.state import Table, TableStatus
from bot.ui.hand.hand_actions import bid_value
from bot.ui.table.components import ComponentRef, HandVerb, HintVerb, MenuVerb
from bot.ui.table.controls import Control, Option, controls_json, controls_view
from bot.ui.table.render import GREEN, GREY, deadline_text, final_text, trick_text
from bot.ui.text.card_emojis import CARD_EMOJIS
from bot.ui.text.game_text import effective_suit, sorted_groups, sorted_hand
from bot.ui.text.games import text_of
from bot.ui.text.trump_text import call_button_label, call_value
from bot.ui.text.words import number


def hand_json(table: Table, seat: Seat, notice: str | None = None) -> dict[str, Any]:
    """The same message as Discord's JSON (``embeds`` and ``components``: none once the game
    ended), for answers and live edits alike: sent as it is, with no discord.py objects."""
    assert table.game is not None
    view = seat_view(table.game, seat)
    return {
        "embeds": [hand_embed_json(table, view, notice)],
        "components": controls_json(hand_controls(table, view)) if table.open else [],
    }


def hand_text(cards: tuple[Card, ...], view: SeatView) -> str:
    """A hand sorted by effective suit, trump first (jokers and jjdd's 2♦ sit with the spades;
    in Euchre the bowers head the trumps), highest first."""
    return _hand_text(mask_of(cards), view.rules.deck, view.trump) or _("(no cards)")


@functools.lru_cache(maxsize=8192)
def _hand_text(mask: int, deck: str, trump: str | None) -> str:
    """:func:`hand_text` of the cards of ``mask`` (empty for none), remembered like
    :func:`bot.ui.text.game_text.sorted_groups`: a function of these cards alone."""
    groups = sorted_groups(mask, deck, trump)
    return "   ".join(" ".join(str(c) for c in g) for g in groups)


def hand_embed(table: Table, view: SeatView, notice: str | None = None) -> discord.Embed:
    """:func:`hand_embed_json` as a discord.py embed."""
    return discord.Embed.from_dict(hand_embed_json(table, view, notice))


def hand_embed_json(table: Table, view: SeatView, notice: str | None = None) -> dict[str, Any]:
    """The hand's embed as Discord's JSON, key for key what discord.py's ``Embed.to_dict``
    gives (built directly: a hand is rendered twice a click, and the embed object, its
    fields and ``to_dict`` cost as much as the words in it)."""
    assert view.seat is not None
    seat = view.seat
    description: str | None = None
    if view.hand_hidden:
        description = text_of(view.rules.game).hidden_text(view, seat)
    elif view.hand is not None:
        description = f"# {hand_text(view.hand, view)}" if view.hand else _("(no cards left)")
    lines = [f"**{notice}**"] if notice else []
    lines.extend(now_lines(table, view))
    if view.rules.partnerships:
        my_team = seat.team
        standing = _(
            "your team {us} · them {them}",
            us=number(view.scores[my_team]),
            them=number(view.scores[my_team.other]),
        )
    else:  # solo (games.md G2): your score and the best of the others'
        best = max(view.scores[s] for s in view.seats if s != seat)
        standing = _(
            "you {mine} · best of the others {best}",
            mine=number(view.scores[seat]),
            best=number(best),
        )
    won = _n("you won {n} trick", "you won {n} tricks", view.tricks_won[seat])
    hand = _("Hand {number}", number=number(view.hand_number))
    embed: dict[str, Any] = {
        "footer": {"text": f"{hand} · {standing} · {won}"},
        "fields": [{"inline": False, "name": _("Now"), "value": "\n".join(lines)}],
        "flags": 0,
        "color": (GREEN if view.my_turn else GREY).value,
        "type": "rich",
    }
    if description:
        embed["description"] = description
    embed["title"] = _("Your hand — {seat}", seat=seat_word(seat))
    return embed


def now_lines(table: Table, view: SeatView) -> list[str]:
    """What is happening, as far as it cannot go stale before this message's next update."""
    if table.status == TableStatus.FINISHED:
        return [_("The game is over."), final_text(table, view)]
    if not table.open:
        return [final_text(table, view)]
    text = text_of(view.rules.game)
    lines = [prompt_line(view)]
    trump = text.trump_line(view)
    if trump is not None:
        lines.append(trump)
    lines += text.status_lines(view)
    if view.my_turn and table.deadline is not None:
        lines.append(
            _("⏱ Time runs out {when}; then a computer plays for you.", when=deadline_text(table))
        )
    lines += text.bid_lines(view)
    if view.phase is Phase.PLAY:
        if view.my_turn and view.current_trick:
            lines.append(_("Trick: {trick}", trick=trick_text(view)))
        elif view.completed_tricks:
            head = view.current_trick and not view.my_turn
            last = _last(view)
            lines.append(
                _("Last complete trick: {trick}", trick=last)
                if head
                else _("Last trick: {trick}", trick=last)
            )
    return lines


def _last(view: SeatView) -> str:
    last = view.completed_tricks[-1]
    cards = "  ".join(f"{seat_word(s)} {c}" for s, c in last.cards)
    return cards + "  → " + _("{seat} wins", seat=seat_word(last.winner))


def prompt_line(view: SeatView) -> str:
    if view.over:
        return _("The game is over.")
    if not view.my_turn:
        return _("Not your turn: this message updates itself when it is.")
    return text_of(view.rules.game).prompt(view) or _("**Your turn to play** a card.")


def hand_components(table: Table, view: SeatView) -> discord.ui.View:
    """Only the actions that are the player's now, and Refresh (for an answer)."""
    return controls_view(hand_controls(table, view))


def hand_controls(table: Table, view: SeatView) -> list[Control]:
    """The hand message's buttons and selects: only the actions that are the player's now,
    and Refresh."""
    assert view.seat is not None
    seat, hand_no, tid = view.seat, view.hand_number, table.id
    out: list[Control] = []

    def ref(verb: HandVerb | MenuVerb | HintVerb, card: str | None = None) -> ComponentRef:
        return ComponentRef(tid, verb, seat, hand_no, card)

    legal = view.legal
    plays: list[Play] = []
    bids: list[Bid] = []
    calls: list[Call] = []
    discards: list[Card] = []
    look = passes = False
    for a in legal:  # one pass (a bid has fourteen choices, a play up to thirteen)
        if isinstance(a, Play):
            plays.append(a)
        elif isinstance(a, Bid):
            bids.append(a)
        elif isinstance(a, Call):
            calls.append(a)
        elif isinstance(a, Discard):
            discards.append(a.card)
        elif isinstance(a, PassCards):
            passes = True
        elif isinstance(a, Look):
            look = True
    if look:
        out.append(
            Control(ref(HandVerb.LOOK), _("Look at my cards"), 0, discord.ButtonStyle.primary)
        )
    if bids:
        if any(b.value == BLIND_NIL for b in bids):
            out.append(Control(ref(HandVerb.BLIND), _("Blind nil"), 0, discord.ButtonStyle.danger))
        numeric = [b for b in bids if b.value != BLIND_NIL]
        if numeric:
            bidding = view.bidding
            prop = bidding.proposals[seat.team] if bidding and view.rules.new_york else None
            options = tuple(
                Option(_bid_option_label(b), bid_value(b), prop is not None and prop[0] == b.value)
                for b in numeric
            )
            out.append(Control(ref(MenuVerb.BID), _("Choose your bid"), 1, options=options))
    if passes and view.hand:
        n = view.rules.blind_nil_pass
        options = tuple(Option(str(c), c.code) for c in view.hand)
        label = _n("Pass {n} card", "Pass {n} cards", n)
        out.append(
            Control(ref(MenuVerb.PASS), label, 1, options=options, min_values=n, max_values=n)
        )
    for i, call in enumerate(calls):  # Euchre: pass, order up (alone), call a suit (alone)
        passing = call.call == Call.PASS
        style = discord.ButtonStyle.secondary if passing else discord.ButtonStyle.primary
        out.append(
            Control(ref(HandVerb.CALL, call_value(call)), call_button_label(call), i // 4, style)
        )
    cards = [p.card for p in plays] or discards
    if cards:
        verb = HandVerb.PLAY if plays else HandVerb.DISCARD
        ordered = [c for group in sorted_hand(cards, view) for c in group]
        faces = CARD_EMOJIS.for_guild(table.guild_id)
        for i, c in enumerate(ordered[:20]):
            style = _card_style(c, view)
            out.append(Control(ref(verb, c.code), str(c), i // 5, style, emoji=faces.emoji(c)))
    if table.options.hints and view.my_turn and len(view.legal) > 1:
        out.append(
            Control(ref(HintVerb.HINT), _("Hint"), 4, discord.ButtonStyle.success, emoji="💡")
        )
    out.append(Control(ref(HandVerb.REFRESH), _("Refresh"), 4, emoji="🔄"))
    return out


def _card_style(c: Card, view: SeatView) -> discord.ButtonStyle:
    """Red buttons for red cards of a red suit (a joker, or jjdd's 2♦ as a spade, is grey)."""
    suit = effective_suit(view, c)
    red = ("H", "D")
    return (
        discord.ButtonStyle.danger
        if suit in red and c.suit in red
        else discord.ButtonStyle.secondary
    )


def _bid_option_label(b: Bid) -> str:
    if b.value == NIL:
        return _("Nil (take no tricks)")
    if b.blind:
        return _("Blind {bid} (before looking)", bid=b.value)
    return _n("{n} trick", "{n} tricks", b.value)
