"""Why a choice is good, in one plain sentence, from the seat's view: for hints.

:func:`why` looks at what the chosen action does in the position — the trick on the table,
the bids, nils still alive, the tricks the side has and needs — and names its main purpose,
in the words players use: "it covers your partner's nil", "it cashes a sure winner", "it keeps
the contract safe", "it avoids bags" …  The hard player does not say why it chose (its search
values choices by points); this names the effect of its choice, so the sentence is true of
the position whatever the search weighed.

:func:`same_in_effect` gives the choices that do exactly what a card does (the touching cards
of one suit: every card between them is played or in the same hand), so the runner-up is a
real alternative and not the next card of a run.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import BLIND_NIL, NIL, Action, Bid, Call, Discard, PassCards, Play
from bot.engine.cards import SUIT_SYMBOLS, Card
from bot.engine.decks import DECKS, Deck
from bot.engine.seats import Seat
from bot.engine.views import SeatView
from bot.i18n import later


@dataclass(frozen=True, slots=True)
class _Board:
    """The play of one card, as far as the seat can tell."""

    view: SeatView
    me: Seat
    deck: Deck
    card: Card

    @property
    def suit(self) -> str:
        return self.deck.suit_of(self.card)

    @property
    def led(self) -> str | None:
        trick = self.view.current_trick
        return self.deck.suit_of(trick[0][1]) if trick else None

    def power(self, c: Card) -> int:
        return self.deck.power[c.index]

    def best(self) -> tuple[Seat, Card] | None:
        """Who is winning the trick on the table, with what."""
        trick = self.view.current_trick
        if not trick:
            return None
        led = self.led
        top = trick[0]
        for seat, c in trick[1:]:
            if self._beats(c, top[1], led):
                top = (seat, c)
        return top

    def _beats(self, c: Card, other: Card, led: str | None) -> bool:
        mine, theirs = self.deck.suit_of(c), self.deck.suit_of(other)
        trump = self.deck.trump
        if mine == theirs:
            return self.power(c) > self.power(other)
        return mine == trump or (mine == led and theirs != trump)

    def wins_now(self) -> bool:
        """The card would be winning the trick once played (a lead wins until beaten)."""
        top = self.best()
        return top is None or self._beats(self.card, top[1], self.led)

    def top_of_suit(self) -> bool:
        """No card of its suit above it is still out: every higher one is played or mine."""
        played = {c for _, c in self.view.plays}
        mine = set(self.view.hand or ())
        suit = self.suit
        above = [
            c
            for c in self.deck.cards
            if self.deck.suit_of(c) == suit and self.power(c) > self.power(self.card)
        ]
        return all(c in played or c in mine for c in above)

    def players_after(self) -> int:
        """How many seats still play to this trick after me."""
        view = self.view
        active = len(view.seats) - (view.sitting_out is not None)
        return active - len(view.current_trick) - 1


def _deck(view: SeatView) -> Deck:
    return DECKS[view.rules.deck].with_trump(view.trump)


def same_in_effect(view: SeatView, action: Action) -> frozenset[Action]:
    """``action`` and the plays that do the same (touching cards of its suit in my hand)."""
    if not isinstance(action, Play) or view.hand is None or view.trump is None:
        return frozenset({action})
    deck = _deck(view)
    suit = deck.suit_of(action.card)
    gone = {c for _, c in view.plays} | set(view.hand)
    ranked = sorted(
        (c for c in deck.cards if deck.suit_of(c) == suit), key=lambda c: deck.power[c.index]
    )
    i = ranked.index(action.card)
    run = {action.card}
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(ranked) and ranked[j] in gone:
            if ranked[j] in view.hand:
                run.add(ranked[j])
            j += step
    plays = {a for a in view.legal if isinstance(a, Play) and a.card in run}
    return frozenset({action, *plays})


def why(view: SeatView, action: Action) -> str:
    """The main reason for ``action``, as a clause: ``"it cashes a sure winner"``."""
    if isinstance(action, Play) and view.hand is not None and view.trump is not None:
        return _why_card(_Board(view, action.seat, _deck(view), action.card))
    if isinstance(action, Bid):
        return _why_bid(view, action)
    if isinstance(action, Call):
        return _why_call(action)
    if isinstance(action, Discard):
        return later("it throws away the card least likely to take a trick")
    if isinstance(action, PassCards):
        return later("these are the cards that help your partner most")
    return later("looking at your cards first is worth more than bidding blind nil now")


def _bids(view: SeatView) -> tuple[int | None, ...]:
    """Each seat's bid this hand (a game without bidding: none)."""
    part = view.bidding
    return part.bids if part is not None else ()


def _nil_alive(view: SeatView, seat: Seat) -> bool:
    bids = _bids(view)
    bid = bids[seat] if seat < len(bids) else None
    return bid is not None and bid <= NIL and view.tricks_won[seat] == 0


def _contract(view: SeatView, me: Seat) -> tuple[int, int] | None:
    """(tricks my side needs, tricks it has), for a side that bid a number of tricks."""
    all_bids = _bids(view)
    if not any(b is not None for b in all_bids):
        return None
    side = (me, me.partner) if view.rules.partnerships else (me,)
    bids = [all_bids[s] for s in side]
    if any(b is None for b in bids):
        return None
    need = sum(b for b in bids if b is not None and b > 0)
    if need == 0:
        return None
    return need, sum(view.tricks_won[s] for s in side)


def _why_card(b: _Board) -> str:
    view, me = b.view, b.me
    partner = me.partner if view.rules.partnerships else None
    top = b.best()
    wins = b.wins_now()
    if partner is not None and _nil_alive(view, partner) and not _nil_alive(view, me):
        partner_played = any(s == partner for s, _ in view.current_trick)
        if partner_played and top is not None and top[0] == partner and wins:
            return later(
                "it covers your partner's nil: your card takes the trick instead of theirs"
            )
        if not partner_played and wins and b.players_after() > 0:
            return later("it covers your partner's nil: a high card they can play under")
    if _nil_alive(view, me):
        if view.current_trick and not wins:
            return later("it keeps your nil safe: it stays under the cards already played")
        if not view.current_trick:
            return later("it keeps your nil safe: a low lead that others will beat")
        return later("it gets rid of a dangerous card while your nil can still be kept")
    opponents = [
        s
        for s in view.seats
        if s not in (me, partner) and s != view.sitting_out and _nil_alive(view, s)
    ]
    if opponents and top is not None and top[0] in opponents and not wins:
        return later("it tries to set the opponents' nil: their card is left winning the trick")
    if partner is not None and top is not None and top[0] == partner and not wins:
        return later("it leaves the trick to your partner, who is winning it already")
    contract = _contract(view, me)
    side = partner is not None
    if contract is not None and contract[1] >= contract[0] and not wins:
        if side:
            return later("it avoids bags: your side has its contract already")
        return later("it avoids bags: you have your contract already")
    if (
        wins
        and b.top_of_suit()
        and (b.suit == b.deck.trump or b.players_after() == 0 or not view.current_trick)
    ):
        return later("it cashes a sure winner")
    if wins and b.led is not None and b.suit == b.deck.trump and b.suit != b.led:
        return later("it trumps the trick")
    if wins and b.players_after() == 0:
        if contract is not None and contract[1] < contract[0]:
            if side:
                return later("it keeps the contract safe: it takes a trick your side needs")
            return later("it keeps the contract safe: it takes a trick you need")
        return later("it takes the trick as cheaply as possible")
    if wins and contract is not None and contract[1] < contract[0]:
        if side:
            return later("it keeps the contract safe: a trick your side needs")
        return later("it keeps the contract safe: a trick you need")
    if view.current_trick and not wins:
        return later("it plays low: this trick cannot be won cheaply, so your high cards wait")
    if not view.current_trick and b.suit == b.deck.trump:
        return later("it leads trumps to draw the opponents'")
    return later("it leads a card that gives nothing away")


def _why_bid(view: SeatView, bid: Bid) -> str:
    if bid.value == BLIND_NIL:
        return later("blind nil's bonus is worth the risk at this score")
    if bid.value == NIL:
        return later(
            "your hand is weak enough for nil: its bonus is worth more than your few tricks"
        )
    partner = view.seat.partner if view.seat is not None and view.rules.partnerships else None
    if partner is not None and _nil_alive(view, partner):
        return later(
            "your hand should take about {n} while covering your partner's nil", n=bid.value
        )
    if bid.value == 1:
        return later("your hand should take about one trick")
    # more than one: plural in every language the bot speaks
    return later("your hand should take about {n} tricks", n=bid.value)


def _why_call(call: Call) -> str:
    if call.call == Call.PASS:
        return later("your hand is not strong enough to make trump")
    suit = SUIT_SYMBOLS[call.call] if call.call != Call.ORDER else ""
    if call.call == Call.ORDER and call.alone:
        return later("your hand with this trump should take three tricks and play alone")
    if call.call == Call.ORDER:
        return later("your hand with this trump should take three tricks")
    if call.alone:
        return later("your hand is strongest in {suit} and strong enough to play alone", suit=suit)
    return later("your hand is strongest in {suit}", suit=suit)
