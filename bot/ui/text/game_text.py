"""How the bot words one game: the base, generic trick-taking game, and its hooks.

Every message that says something a game of its own would say differently (the seat's bid or
call on the table, the team's contract, the prompt on the player's turn, the score sheet's
first line, the deal diagram's notes, the review of a hand, the rules, the league's figures)
asks the game's :class:`GameText` (:func:`bot.ui.text.games.text_of`).  This base answers for a
game that is trick play only — no bids, no trump ceremony: it is what a game registered
without a text of its own is rendered with.  Spades' words are in :mod:`bot.ui.text.spades_text`,
Whist's and Euchre's in :mod:`bot.ui.text.trump_text`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import discord

from bot.engine import (
    Bid,
    Card,
    HandResult,
    Play,
    Rules,
    Seat,
    SeatView,
    Team,
    cards_of,
    preset,
)
from bot.engine.cards import mask_of
from bot.engine.decks import DECKS, Deck
from bot.i18n import _
from bot.i18n.cards import bid_word
from bot.league.models import PlayerStats
from bot.review.decisions import HandPlayed, RecordedDecision


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    options: tuple[str, ...]  # the rule options it describes


def sentence(text: str, *options: str) -> Sentence:
    return Sentence(text, options)


# ---------------------------------------------------------------------- hands, every game
DISPLAY_SUITS = ("S", "H", "C", "D")  # alternate colours
_RED = ("H", "D")


def trump_deck(view: SeatView) -> Deck:
    """The deck ranked under the trump in force (Spades: its own deck, spades always trump)."""
    return DECKS[view.rules.deck].with_trump(view.trump)


def suit_order(view: SeatView) -> tuple[str, ...]:
    """Trump first, then the other suits alternating colours."""
    return _suit_order(view.trump)


@functools.cache
def _suit_order(trump: str | None) -> tuple[str, ...]:
    if trump is None:
        return DISPLAY_SUITS
    rest = [s for s in DISPLAY_SUITS if s != trump]
    # Keep colours alternating after the trump: start with a suit of the other colour.
    rest.sort(key=lambda s: (s in _RED) == (trump in _RED))
    out = [trump]
    while rest:
        want_red = out[-1] not in _RED
        pick = next((s for s in rest if (s in _RED) == want_red), rest[0])
        rest.remove(pick)
        out.append(pick)
    return tuple(out)


def sorted_hand(cards: tuple[Card, ...] | list[Card], view: SeatView) -> list[list[Card]]:
    """The cards grouped by effective suit in :func:`suit_order`, highest first (so in Euchre
    the right and left bowers head the trumps)."""
    return [list(g) for g in sorted_groups(mask_of(cards), view.rules.deck, view.trump)]


@functools.lru_cache(maxsize=8192)
def sorted_groups(mask: int, deck_name: str, trump: str | None) -> tuple[tuple[Card, ...], ...]:
    """:func:`sorted_hand` of the cards of ``mask``, remembered: every hand message sorts its
    hand, and its playable cards, again and again as the hand goes on.  A function of the
    cards alone (those of ``mask``, nobody's else), so remembering it shows nobody anything."""
    deck = DECKS[deck_name].with_trump(trump)
    groups = []
    for suit in _suit_order(trump):
        in_suit = cards_of(mask & deck.suit_masks["SHDC".index(suit)])
        if in_suit:
            groups.append(tuple(sorted(in_suit, key=lambda c: -deck.power[c.index])))
    return tuple(groups)


def effective_suit(view: SeatView, card: Card) -> str:
    return trump_deck(view).suit_of(card)


def percent(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.0f}%"


def per_hand(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


class GameText:
    """The words of a game of trick play only; a game with phases of its own overrides the
    hooks it needs (each says where its words appear)."""

    #: Before the game's name in the table message's title.
    symbol = "🂠"

    # ------------------------------------------------------------------ the table message
    def seat_action(self, view: SeatView, seat: Seat) -> str:
        """Before ``won 3`` under a seat: its bid or call (``bid 4 · ``)."""
        return ""

    def team_lines(self, view: SeatView, team: Team) -> list[str]:
        """A team's lines under its points (bags, contract; makers or defenders)."""
        return []

    def trump_line(self, view: SeatView) -> str | None:
        """The table's (and the hand message's) line on trump (``None``: no such line)."""
        return None

    def footer_note(self, view: SeatView) -> str:
        """What the table message's footer adds after the hand number."""
        return ""

    def doing(self, view: SeatView) -> str | None:
        """What the seat on turn does in the game's own phases (``to bid``); ``None`` in trick
        play (``to lead`` / ``to play``)."""
        return None

    # ------------------------------------------------------------------ the hand message
    def hidden_text(self, view: SeatView, seat: Seat) -> str:
        """The hand message while the seat's cards are face down."""
        return _("Your cards are face down.")

    def prompt(self, view: SeatView) -> str | None:
        """The hand message's first line on the player's turn in the game's own phases."""
        return None

    def status_lines(self, view: SeatView) -> list[str]:
        """The hand message's lines after the trump line (Euchre's calls, the discard)."""
        return []

    def bid_lines(self, view: SeatView) -> list[str]:
        """The hand message's lines after the turn timer's (cards passed, the bids)."""
        return []

    # ------------------------------------------------------------------ score sheets
    def result_line(self, result: HandResult, names: dict[Seat, str]) -> str | None:
        """A finished hand's sheet opens with this (what was trump and who made it)."""
        return None

    def sheet_head(self, rules: Rules, result: HandResult, team: Team, took: str) -> str:
        """A team's sheet's first line; ``took`` is ``took 7 (alice 3, carol 4)``."""
        return took[0].upper() + took[1:]

    # ------------------------------------------------------------------ deal diagrams
    def diagram_seat(self, result: HandResult, rules: Rules, seat: Seat) -> tuple[str, str]:
        """A seat's bid and its panel's note in a hand's deal diagram."""
        return "", _("took {n}", n=result.tricks[seat])

    def diagram_team(self, result: HandResult, rules: Rules, team: Team) -> str:
        """The bid column of a team's line in the middle of the diagram."""
        return ""

    def diagram_bags(self, rules: Rules) -> bool:
        """Does the diagram's middle show each side's bags?"""
        return False

    def diagram_trump(self, result: HandResult) -> str | None:
        """Under the hand's number: the trump (``None``: nothing)."""
        return None

    # ------------------------------------------------------------------ reviews, rules, league
    def review_lines(self, hand: HandPlayed, names: dict[Seat, str]) -> list[str]:
        """A reviewed hand's lines before its tricks (the bids; the trump and calls)."""
        return []

    def rules_sections(self, rules: Rules) -> list[tuple[str, list[Sentence]]]:
        """The rules as (topic, sentences): the preset's description and the target."""
        return [
            (_("The game"), [sentence(_(preset(rules.preset).description) + ".", "game", "deck")]),
            (
                _("End of the game"),
                [sentence(_("The first side to {n} points wins.", n=rules.target), "target")],
            ),
        ]

    def stats_fields(self, e: discord.Embed, s: PlayerStats) -> None:
        """``/stats``: the game's own figures (the base: tricks per hand)."""
        e.add_field(name=_("Tricks"), value=_("{n} tricks per hand", n=per_hand(s.tricks_per_hand)))


def choice_text(d: RecordedDecision) -> str:
    """A reviewed decision: the card played, or the bid."""
    if isinstance(d.action, Play):
        return str(d.action.card)
    if isinstance(d.action, Bid):
        return bid_word(d.action.value, d.action.blind)
    return "?"


def took_text(result: HandResult, team: Team, names: dict[Seat, str]) -> str:
    """``took 7 (alice 3, carol 4)``."""
    a, b = team.seats
    took = result.tricks[a] + result.tricks[b]
    each = f"{names[a]} {result.tricks[a]}, {names[b]} {result.tricks[b]}"
    return _("took {n} ({each})", n=took, each=each)
