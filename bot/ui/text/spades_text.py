"""How the bot words Spades: bids on the table and in the hand message, contracts, blind nil
and card passing, the score sheet's bids, the deal diagram's bids and bags, a reviewed hand's
bids, the rules and the league's bidding figures."""

from __future__ import annotations

import discord

from bot.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    HandResult,
    Phase,
    Rules,
    Seat,
    SeatView,
    SpadesPart,
    Team,
)
from bot.i18n import _, _n
from bot.i18n.cards import bid_word, seat_word
from bot.league.models import PlayerStats
from bot.review.decisions import HandPlayed
from bot.ui.text.game_text import GameText, Sentence, choice_text, per_hand, percent
from bot.ui.text.spades_rules import spades_sections


def _bids(view: SeatView) -> str:
    """``North 4 · East nil · …``: every seat's bid, in the hand message."""
    return " · ".join(f"{seat_word(s)} {bid_label(view, s)}" for s in view.seats)


def bid_label(view: SeatView, seat: Seat) -> str:
    """What the table shows for a seat's bid (individual or New York)."""
    part = view.part_as(SpadesPart)
    if view.rules.new_york:
        team = seat.team
        tb = part.team_bids[team]
        if tb is not None:
            return _("team bid {bid}", bid=bid_word(tb.value, tb.blind)) if tb.seat == seat else "—"
        prop = part.proposals[team]
        proposer = next((b.seat for b in part.bid_log if b.seat.team == team), None)
        if prop is not None and proposer == seat:
            return _("proposes {bid}", bid=bid_word(prop[0], prop[1]))
        return "…"
    b = part.bids[seat]
    return "…" if b is None else bid_word(b)


def team_contract(view: SeatView, team: Team) -> str:
    part = view.part_as(SpadesPart)
    if view.rules.new_york:
        tb = part.team_bids[team]
        return bid_word(tb.value, tb.blind) if tb else "—"
    bids = [part.bids[s] for s in team.seats]
    if any(b is None for b in bids):
        return "—"
    contract = sum(b for b in bids if b is not None and b > 0)
    nils = [bid_word(b) for b in bids if b is not None and b <= NIL]
    return " + ".join([str(contract)] * (contract > 0) + nils) or "0"


def _final_team_bid(result: HandResult, team: Team) -> Bid | None:
    """New York: the team's final bid."""
    return next((b for b in result.bids if b.seat.team == team), None)


def seat_bid(result: HandResult, rules: Rules, seat: Seat) -> str:
    """A seat's bid in a finished hand, as the deal diagram shows it."""
    if rules.new_york:
        tb = _final_team_bid(result, seat.team)
        return _("team {bid}", bid=bid_word(tb.value, tb.blind)) if tb else _("no bid")
    mine = next((b for b in result.bids if b.seat == seat), None)
    return bid_word(mine.value, mine.blind) if mine else "—"


class SpadesText(GameText):
    symbol = "♠"

    # ------------------------------------------------------------------ the table message
    def seat_action(self, view: SeatView, seat: Seat) -> str:
        return _("bid {bid}", bid=bid_label(view, seat)) + " · "

    def team_lines(self, view: SeatView, team: Team) -> list[str]:
        lines = [_("bags {n}", n=view.bag_counts[team])] if view.rules.has_bags else []
        return [*lines, _("contract {contract}", contract=team_contract(view, team))]

    def footer_note(self, view: SeatView) -> str:
        return " · " + _("spades broken") if view.part_as(SpadesPart).spades_broken else ""

    def doing(self, view: SeatView) -> str | None:
        if view.phase is Phase.BID:
            return _("to bid")
        if view.phase is Phase.PASS:
            return _("to pass cards")
        return None

    # ------------------------------------------------------------------ the hand message
    def hidden_text(self, view: SeatView, seat: Seat) -> str:
        if view.rules.new_york:
            return _(
                "Your cards are face down. Your team may make a **blind bid** (4–10, "
                "scores double) before either of you looks — or look at your cards."
            )
        if view.part_as(SpadesPart).bids[seat] == BLIND_NIL:
            return _("You bid blind nil. Your cards show when bidding is over.")
        return _(
            "Your cards are face down. You may bid **blind nil** before looking "
            "— or look at your cards."
        )

    def prompt(self, view: SeatView) -> str | None:
        if view.phase is Phase.BID:
            if view.rules.new_york:
                part = view.part_as(SpadesPart)
                prop = part.proposals[view.seat.team] if view.seat is not None else None
                if prop is not None:
                    return _(
                        "Your partner proposes **{bid}**: confirm it or choose the team's bid.",
                        bid=bid_word(prop[0], prop[1]),
                    )
                return _("**Your turn:** propose your team's bid (4–10).")
            return _("**Your turn to bid.**")
        if view.phase is Phase.PASS:
            n = view.rules.blind_nil_pass
            return _n(
                "**Your turn:** choose {n} card to pass to your partner.",
                "**Your turn:** choose {n} cards to pass to your partner.",
                n,
            )
        return None

    def bid_lines(self, view: SeatView) -> list[str]:
        part = view.part_as(SpadesPart)
        lines = []
        if part.received:
            lines.append(
                _("Your partner passed you: {cards}", cards=" ".join(str(c) for c in part.received))
            )
        if not part.bid_log:
            return lines
        if view.phase is Phase.BID and view.my_turn:
            lines.append(_("Bids so far: {bids}", bids=_bids(view)))
        elif view.phase in (Phase.PASS, Phase.PLAY):
            lines.append(_("Bids: {bids}", bids=_bids(view)))
        return lines

    # ------------------------------------------------------------------ score sheets
    def sheet_head(self, rules: Rules, result: HandResult, team: Team, took: str) -> str:
        return _("Bid {bid}", bid=_sheet_bid(rules, result, team)) + f" · {took}"

    # ------------------------------------------------------------------ deal diagrams
    def diagram_seat(self, result: HandResult, rules: Rules, seat: Seat) -> tuple[str, str]:
        bid = seat_bid(result, rules, seat)
        return bid, _("bid {bid} · took {n}", bid=bid, n=result.tricks[seat])

    def diagram_team(self, result: HandResult, rules: Rules, team: Team) -> str:
        if rules.new_york:
            tb = _final_team_bid(result, team)
            return bid_word(tb.value, tb.blind) if tb else "—"
        values = [x.value for x in result.bids if x.seat in team.seats]
        contract = sum(v for v in values if v > 0)
        nils = [bid_word(v) for v in values if v <= NIL]
        return " + ".join([str(contract)] * (contract > 0) + nils) or "0"

    def diagram_bags(self, rules: Rules) -> bool:
        return rules.has_bags and not rules.new_york

    # ------------------------------------------------------------------ reviews, rules, league
    def review_lines(self, hand: HandPlayed, names: dict[Seat, str]) -> list[str]:
        if not hand.bids:
            return [_("**Bids**: none")]
        bids = " · ".join(f"{b.seat.name} {choice_text(b)}" for b in hand.bids)
        return [_("**Bids**: {bids}", bids=bids)]

    def rules_sections(self, rules: Rules) -> list[tuple[str, list[Sentence]]]:
        return spades_sections(rules)

    def stats_fields(self, e: discord.Embed, s: PlayerStats) -> None:
        avg_bid = "—" if s.average_bid is None else f"{s.average_bid:.2f}"
        avg_tricks = "—" if s.average_tricks is None else f"{s.average_tricks:.2f}"
        e.add_field(
            name=_("Bidding"),
            value=_(
                "Contracts made {rate} ({made}/{hands})\nAverage bid {bid} · tricks {tricks}",
                rate=percent(s.contracts_made_rate),
                made=s.contracts_made,
                hands=s.contract_hands,
                bid=avg_bid,
                tricks=avg_tricks,
            ),
        )
        e.add_field(
            name=_("Nil"),
            value=_(
                "Nil {made}/{bids} ({rate})\nBlind nil {blind_made}/{blind_bids} ({blind_rate})",
                made=s.nil_made,
                bids=s.nil_bids,
                rate=percent(s.nil_rate),
                blind_made=s.blind_nil_made,
                blind_bids=s.blind_nil_bids,
                blind_rate=percent(s.blind_nil_rate),
            ),
        )
        bags = per_hand(s.bags_per_hand)
        e.add_field(
            name=_("Bags and sets"),
            value=_("{n} bags per hand", n=bags)
            + "\n"
            + _n("{n} set suffered", "{n} sets suffered", s.sets),
        )
        if s.claims or s.caught:  # games.md G1: renege claims
            e.add_field(
                name=_("Renege claims"),
                value=_n(
                    "{n} claim made, {won} correct",
                    "{n} claims made, {won} correct",
                    s.claims,
                    won=s.claims_won,
                )
                + "\n"
                + _n("Caught reneging {n} time", "Caught reneging {n} times", s.caught),
            )


def _sheet_bid(rules: Rules, result: HandResult, team: Team) -> str:
    if rules.new_york:
        tb = _final_team_bid(result, team)
        if tb is None:
            return _("none (first hand)")
        return bid_word(tb.value, tb.blind)
    bids = {x.seat: x.value for x in result.bids}
    return " + ".join(bid_word(bids[s]) if s in bids else "?" for s in team.seats)
