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
    bid_text,
)
from bot.league.models import PlayerStats
from bot.review.decisions import HandPlayed
from bot.ui.game_text import GameText, Sentence, choice_text, per_hand, percent
from bot.ui.spades_rules import spades_sections
from bot.ui.text import plural


def bid_label(view: SeatView, seat: Seat) -> str:
    """What the table shows for a seat's bid (individual or New York)."""
    part = view.part_as(SpadesPart)
    if view.rules.new_york:
        team = seat.team
        tb = part.team_bids[team]
        if tb is not None:
            return f"team bid {bid_text(tb.value, tb.blind)}" if tb.seat == seat else "—"
        prop = part.proposals[team]
        proposer = next((b.seat for b in part.bid_log if b.seat.team == team), None)
        if prop is not None and proposer == seat:
            return f"proposes {bid_text(prop[0], prop[1])}"
        return "…"
    b = part.bids[seat]
    return "…" if b is None else bid_text(b)


def team_contract(view: SeatView, team: Team) -> str:
    part = view.part_as(SpadesPart)
    if view.rules.new_york:
        tb = part.team_bids[team]
        return bid_text(tb.value, tb.blind) if tb else "—"
    bids = [part.bids[s] for s in team.seats]
    if any(b is None for b in bids):
        return "—"
    contract = sum(b for b in bids if b is not None and b > 0)
    nils = [bid_text(b) for b in bids if b is not None and b <= NIL]
    return " + ".join([str(contract)] * (contract > 0) + nils) or "0"


def _final_team_bid(result: HandResult, team: Team) -> Bid | None:
    """New York: the team's final bid."""
    return next((b for b in result.bids if b.seat.team == team), None)


def seat_bid(result: HandResult, rules: Rules, seat: Seat) -> str:
    """A seat's bid in a finished hand, as the deal diagram shows it."""
    if rules.new_york:
        tb = _final_team_bid(result, seat.team)
        return f"team {bid_text(tb.value, tb.blind)}" if tb else "no bid"
    mine = next((b for b in result.bids if b.seat == seat), None)
    return bid_text(mine.value, mine.blind) if mine else "—"


class SpadesText(GameText):
    symbol = "♠"

    # ------------------------------------------------------------------ the table message
    def seat_action(self, view: SeatView, seat: Seat) -> str:
        return f"bid {bid_label(view, seat)} · "

    def team_lines(self, view: SeatView, team: Team) -> list[str]:
        lines = [f"bags {view.bag_counts[team]}"] if view.rules.has_bags else []
        return [*lines, f"contract {team_contract(view, team)}"]

    def footer_note(self, view: SeatView) -> str:
        return " · spades broken" if view.part_as(SpadesPart).spades_broken else ""

    def doing(self, view: SeatView) -> str | None:
        if view.phase is Phase.BID:
            return "to bid"
        if view.phase is Phase.PASS:
            return "to pass cards"
        return None

    # ------------------------------------------------------------------ the hand message
    def hidden_text(self, view: SeatView, seat: Seat) -> str:
        if view.rules.new_york:
            return (
                "Your cards are face down. Your team may make a **blind bid** (4–10, "
                "scores double) before either of you looks — or look at your cards."
            )
        if view.part_as(SpadesPart).bids[seat] == BLIND_NIL:
            return "You bid blind nil. Your cards show when bidding is over."
        return (
            "Your cards are face down. You may bid **blind nil** before looking "
            "— or look at your cards."
        )

    def prompt(self, view: SeatView) -> str | None:
        if view.phase is Phase.BID:
            if view.rules.new_york:
                part = view.part_as(SpadesPart)
                prop = part.proposals[view.seat.team] if view.seat is not None else None
                if prop is not None:
                    return (
                        f"Your partner proposes **{bid_text(prop[0], prop[1])}**: "
                        "confirm it or choose the team's bid."
                    )
                return "**Your turn:** propose your team's bid (4–10)."
            return "**Your turn to bid.**"
        if view.phase is Phase.PASS:
            n = view.rules.blind_nil_pass
            return f"**Your turn:** choose {plural(n, 'card')} to pass to your partner."
        return None

    def bid_lines(self, view: SeatView) -> list[str]:
        part = view.part_as(SpadesPart)
        lines = []
        if part.received:
            lines.append(f"Your partner passed you: {' '.join(str(c) for c in part.received)}")
        bids = " · ".join(f"{s.word} {bid_label(view, s)}" for s in view.seats)
        if view.phase is Phase.BID and view.my_turn and part.bid_log:
            lines.append("Bids so far: " + bids)
        elif view.phase in (Phase.PASS, Phase.PLAY) and part.bid_log:
            lines.append("Bids: " + bids)
        return lines

    # ------------------------------------------------------------------ score sheets
    def sheet_head(self, rules: Rules, result: HandResult, team: Team, took: str) -> str:
        return f"Bid {_sheet_bid(rules, result, team)} · {took}"

    # ------------------------------------------------------------------ deal diagrams
    def diagram_seat(self, result: HandResult, rules: Rules, seat: Seat) -> tuple[str, str]:
        bid = seat_bid(result, rules, seat)
        return bid, f"bid {bid} · took {result.tricks[seat]}"

    def diagram_team(self, result: HandResult, rules: Rules, team: Team) -> str:
        if rules.new_york:
            tb = _final_team_bid(result, team)
            return bid_text(tb.value, tb.blind) if tb else "—"
        values = [x.value for x in result.bids if x.seat in team.seats]
        contract = sum(v for v in values if v > 0)
        nils = [bid_text(v) for v in values if v <= NIL]
        return " + ".join([str(contract)] * (contract > 0) + nils) or "0"

    def diagram_bags(self, rules: Rules) -> bool:
        return rules.has_bags and not rules.new_york

    # ------------------------------------------------------------------ reviews, rules, league
    def review_lines(self, hand: HandPlayed, names: dict[Seat, str]) -> list[str]:
        if not hand.bids:
            return ["**Bids**: none"]
        return ["**Bids**: " + " · ".join(f"{b.seat.name} {choice_text(b)}" for b in hand.bids)]

    def rules_sections(self, rules: Rules) -> list[tuple[str, list[Sentence]]]:
        return spades_sections(rules)

    def stats_fields(self, e: discord.Embed, s: PlayerStats) -> None:
        avg_bid = "—" if s.average_bid is None else f"{s.average_bid:.2f}"
        avg_tricks = "—" if s.average_tricks is None else f"{s.average_tricks:.2f}"
        e.add_field(
            name="Bidding",
            value=f"Contracts made {percent(s.contracts_made_rate)} ({s.contracts_made}/"
            f"{s.contract_hands})\nAverage bid {avg_bid} · tricks {avg_tricks}",
        )
        e.add_field(
            name="Nil",
            value=f"Nil {s.nil_made}/{s.nil_bids} ({percent(s.nil_rate)})\n"
            f"Blind nil {s.blind_nil_made}/{s.blind_nil_bids} ({percent(s.blind_nil_rate)})",
        )
        bags = per_hand(s.bags_per_hand)
        e.add_field(
            name="Bags and sets", value=f"{bags} bags per hand\n{plural(s.sets, 'set')} suffered"
        )
        if s.claims or s.caught:  # games.md G1: renege claims
            e.add_field(
                name="Renege claims",
                value=f"{plural(s.claims, 'claim')} made, {s.claims_won} correct\n"
                f"Caught reneging {plural(s.caught, 'time')}",
            )


def _sheet_bid(rules: Rules, result: HandResult, team: Team) -> str:
    if rules.new_york:
        tb = _final_team_bid(result, team)
        if tb is None:
            return "none (first hand)"
        return bid_text(tb.value, tb.blind)
    bids = {x.seat: x.value for x in result.bids}
    return " + ".join(bid_text(bids[s]) if s in bids else "?" for s in team.seats)
