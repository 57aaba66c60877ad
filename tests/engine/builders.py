"""Test helpers: the decks of rules.md §1 written out on their own, a builder of deals whose
tricks come out as wanted, and a helper that plays such a hand through a :class:`Game`.

The builder gives every trick four cards of one (effective) suit, so everybody follows and the
holder of the highest card wins; the few cards left over from suits that do not divide by four
form the last trick, won by a spade.  Spades are led only once a leader holds nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Deal,
    Game,
    HandResult,
    Look,
    PassCards,
    Play,
    Rules,
    Seat,
    Team,
    card,
)

SEAT_ORDER = "NESW"
RANKS = "23456789TJQKA"

# rules.md §1, independently of bot.engine.cards: the spades of each deck, lowest first.
TRUMPS_LOW_TO_HIGH: dict[str, tuple[str, ...]] = {
    "standard": tuple(r + "S" for r in RANKS),
    "jokers": (*(r + "S" for r in RANKS), "LJ", "BJ"),
    "jjdd": (*(r + "S" for r in RANKS[1:]), "2S", "2D", "LJ", "BJ"),
}
REMOVED: dict[str, tuple[str, ...]] = {"standard": (), "jokers": ("2H", "2C"), "jjdd": ("2H", "2C")}


def deck_codes(deck: str) -> list[str]:
    """The 52 card codes of a deck (rules.md §1)."""
    codes = [r + s for s in "SHDC" for r in RANKS if r + s not in REMOVED[deck]]
    if deck != "standard":
        codes += ["LJ", "BJ"]
    assert len(codes) == 52
    return codes


def effective_suit(code: str, deck: str) -> str:
    """Jokers and, in jjdd, the 2♦ are spades."""
    return "S" if code in TRUMPS_LOW_TO_HIGH[deck] else code[1]


def power(code: str, deck: str) -> int:
    """Order within an effective suit; every spade is above every other card."""
    trumps = TRUMPS_LOW_TO_HIGH[deck]
    if code in trumps:
        return 100 + trumps.index(code)
    return RANKS.index(code[0])


def trick_winner(trick: Sequence[tuple[str, str]], deck: str) -> str:
    """Brute force (rules.md §4): the highest trump, else the highest card of the suit led."""
    trumps = [(s, c) for s, c in trick if effective_suit(c, deck) == "S"]
    led = effective_suit(trick[0][1], deck)
    candidates = trumps or [(s, c) for s, c in trick if effective_suit(c, deck) == led]
    return max(candidates, key=lambda sc: power(sc[1], deck))[0]


def clockwise_from(seat: str) -> list[str]:
    i = SEAT_ORDER.index(seat)
    return [SEAT_ORDER[(i + k) % 4] for k in range(4)]


def _suit_plan(deck: str) -> tuple[list[str], dict[str, list[str]], list[str], list[str]]:
    """Trick suits in order, each suit's round cards (low to high), spade and other leftovers."""
    order: list[str] = []
    rounds: dict[str, list[str]] = {}
    spare_spades: list[str] = []
    spare_others: list[str] = []
    for suit in "HDCS":
        cards = sorted(
            (c for c in deck_codes(deck) if effective_suit(c, deck) == suit),
            key=lambda c: power(c, deck),
        )
        left = len(cards) % 4
        (spare_spades if suit == "S" else spare_others).extend(cards[:left])
        rounds[suit] = cards[left:]
        order += [suit] * (len(cards) // 4)
    if spare_spades or spare_others:
        order.append("*")
    assert len(order) == 13
    return order, rounds, spare_spades, spare_others


def mixed_trick_constraint(deck: str) -> int | None:
    """Index of the trick whose winner must also win the last trick (``None``: no constraint).

    With leftovers the first spade trick is led by the holder of the top leftover spade (who
    then holds nothing but spades) and that card wins the last, mixed trick.
    """
    order, _, _, _ = _suit_plan(deck)
    return order.index("S") - 1 if order[-1] == "*" else None


@dataclass(frozen=True)
class BuiltHand:
    hands: dict[str, list[str]]  # the hands when play starts
    plays: list[str]
    winners: list[str]


def build_hand(
    deck: str,
    leader: str,
    winners: Sequence[str],
    seconds: Mapping[int, str] | None = None,
) -> BuiltHand:
    """A deal and a legal play sequence whose trick ``k`` (0-based) is won by ``winners[k]``.

    ``seconds[k]`` names the seat that gets the second-highest card of trick ``k``.
    """
    assert len(winners) == 13
    seconds = seconds or {}
    order, rounds, spare_spades, spare_others = _suit_plan(deck)
    tie = mixed_trick_constraint(deck)
    if tie is not None:
        assert winners[tie] == winners[12], "the first spade leader must win the last trick"
    per_trick: list[dict[str, str]] = []
    used = dict.fromkeys("HDCS", 0)
    for k, suit in enumerate(order):
        w = winners[k]
        if suit == "*":
            assign = {w: spare_spades[-1]}
            rest = spare_spades[:-1] + spare_others
            for seat, c in zip(clockwise_from(w)[1:], rest, strict=True):
                assign[seat] = c
        else:
            block = rounds[suit][used[suit] : used[suit] + 4]
            used[suit] += 4
            assign = {w: block[3]}
            others = clockwise_from(w)[1:]
            if k in seconds:
                assert seconds[k] != w
                others.remove(seconds[k])
                others.insert(0, seconds[k])
            for seat, c in zip(others, (block[2], block[1], block[0]), strict=True):
                assign[seat] = c
        per_trick.append(assign)
    hands = {s: sorted((t[s] for t in per_trick), key=deck_codes(deck).index) for s in SEAT_ORDER}
    plays: list[str] = []
    lead = leader
    for k, assign in enumerate(per_trick):
        trick = [(s, assign[s]) for s in clockwise_from(lead)]
        plays += [c for _, c in trick]
        lead = trick_winner(trick, deck)
        assert lead == winners[k], (k, trick, winners[k])
    return BuiltHand(hands, plays, list(winners))


def winners_for(counts: Mapping[str, int], deck: str) -> list[str]:
    """A winner sequence with ``counts[seat]`` tricks per seat that :func:`build_hand` accepts."""
    assert sum(counts.values()) == 13
    left = {s: counts.get(s, 0) for s in SEAT_ORDER}
    slots: list[str | None] = [None] * 13
    tie = mixed_trick_constraint(deck)
    if tie is not None:
        top = max(SEAT_ORDER, key=lambda s: left[s])
        slots[tie] = slots[12] = top
        left[top] -= 2
    # Deal the remaining wins round-robin so that the lead moves about the table.
    pool: list[str] = []
    while any(left.values()):
        for s in SEAT_ORDER:
            if left[s]:
                pool.append(s)
                left[s] -= 1
    it = iter(pool)
    return [s if s is not None else next(it) for s in slots]


# ---------------------------------------------------------------- playing through a Game
BidSpec = int | str | tuple[int, bool] | None


def _bid_value(spec: int | str) -> int:
    if spec == "nil":
        return NIL
    if spec == "blind_nil":
        return BLIND_NIL
    assert isinstance(spec, int)
    return spec


def pass_plan(
    game: Game, bids: Mapping[str, int | str], post: Mapping[str, list[str]]
) -> tuple[dict[str, list[str]], list[tuple[str, list[str]]]]:
    """The deal before blind-nil passing and the passes that turn it into ``post``."""
    n = game.rules.blind_nil_pass
    deal = {s: list(cs) for s, cs in post.items()}
    passes: list[tuple[str, list[str]]] = []
    if not n:
        return deal, passes
    first = game.dealer.left
    for seat in (Seat((first + i) % 4) for i in range(4)):
        partner = seat.partner
        if bids[seat.name] == "blind_nil" and bids[partner.name] != "blind_nil":
            given = post[partner.name][:n]  # must end with the partner
            back = post[seat.name][:n]  # must end with the blind nil bidder
            deal[seat.name] = [c for c in deal[seat.name] if c not in back] + given
            deal[partner.name] = [c for c in deal[partner.name] if c not in given] + back
            passes += [(seat.name, given), (partner.name, back)]
    return deal, passes


def deal_action(hands: Mapping[str, Sequence[str]]) -> Deal:
    h = [tuple(card(c) for c in hands[s]) for s in SEAT_ORDER]
    return Deal((h[0], h[1], h[2], h[3]))


def make_bids(game: Game, bids: Mapping[str, BidSpec]) -> None:
    """Bid for every seat (individual: by seat name; New York: by team name), looking first
    when a seat could still bid blind."""
    if game.rules.new_york:
        d = game.dealer
        for first in (d.left, d.partner):
            spec = bids[first.team.name]
            value, blind = spec if isinstance(spec, tuple) else (spec, False)
            assert isinstance(value, int)
            for bidder in (first, first.partner):
                if not blind and game.blind_open(bidder):
                    game.apply(Look(bidder))
                game.apply(Bid(bidder, value, blind))
        return
    for i in range(4):
        seat = Seat((game.dealer + 1 + i) % 4)
        spec = bids[seat.name]
        assert isinstance(spec, int | str)
        value = _bid_value(spec)
        if value != BLIND_NIL and game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))


def play_hand(
    game: Game,
    bids: Mapping[str, BidSpec] | None,
    counts: Mapping[str, int] | None = None,
    *,
    winners: Sequence[str] | None = None,
    seconds: Mapping[int, str] | None = None,
) -> HandResult:
    """Deal, bid, pass and play one whole hand whose tricks per seat are ``counts`` (or whose
    trick winners are ``winners``).  ``bids=None``: the bid-less first hand of New York."""
    deck = game.rules.deck
    if winners is None:
        assert counts is not None
        winners = winners_for(counts, deck)
    built = build_hand(deck, game.dealer.left.name, winners, seconds)
    individual = {k: v for k, v in (bids or {}).items() if isinstance(v, int | str)}
    deal, passes = (
        pass_plan(game, individual, built.hands)
        if bids and not game.rules.new_york
        else (built.hands, [])
    )
    game.apply(deal_action(deal))
    if bids is not None:
        make_bids(game, bids)
    for seat, cards in passes:
        game.apply(PassCards(Seat[seat], tuple(card(c) for c in cards)))
    for code in built.plays:
        to_act = game.to_act
        assert to_act is not None
        game.apply(Play(to_act, card(code)))
    return game.results[-1]


# ---------------------------------------------------------------- hand-picked deals
def fill_deal(
    deck: str,
    fixed: Mapping[str, Sequence[str]],
    void: Mapping[str, str] | None = None,
) -> dict[str, list[str]]:
    """A full deal in which ``fixed[seat]`` are among the seat's cards, the rest of the deck is
    spread over the seats, and ``void[seat]`` lists effective suits (e.g. ``"SH"``) the seat
    gets no further card of."""
    void = void or {}
    hands = {s: list(fixed.get(s, ())) for s in SEAT_ORDER}
    taken = {c for cs in hands.values() for c in cs}
    assert len(taken) == sum(len(cs) for cs in hands.values()), "a fixed card twice"
    rest = [c for c in deck_codes(deck) if c not in taken]
    # Cards of suits many seats refuse go first, to the seat with the most room.
    rest.sort(key=lambda c: -sum(effective_suit(c, deck) in v for v in void.values()))
    for c in rest:
        suit = effective_suit(c, deck)
        room = [s for s in SEAT_ORDER if len(hands[s]) < 13 and suit not in void.get(s, "")]
        assert room, f"no seat can take {c}"
        hands[max(room, key=lambda s: 13 - len(hands[s]))].append(c)
    return hands


def game_in_play(
    preset: str,
    fixed: Mapping[str, Sequence[str]],
    void: Mapping[str, str] | None = None,
    first_dealer: Seat = Seat.N,
    **overrides: object,
) -> Game:
    """A new game (East leads when North deals) in the play phase of its first hand, every
    seat having bid 3 (New York: the bid-less first hand)."""
    game = Game(Rules.from_preset(preset, **overrides), first_dealer)
    game.apply(deal_action(fill_deal(game.rules.deck, fixed, void)))
    if not game.rules.new_york:
        make_bids(game, dict.fromkeys(SEAT_ORDER, 3))
    return game


def play(game: Game, *codes: str) -> None:
    """Play cards in turn order."""
    for code in codes:
        to_act = game.to_act
        assert to_act is not None
        game.apply(Play(to_act, card(code)))


def finish_trick(game: Game) -> None:
    """Play the first legal card for every seat still to play in the current trick."""
    while game.current_trick:
        game.apply(game.legal_actions()[0])


# ---------------------------------------------------------------- games at a point of interest
def deal_next(game: Game, fixed: Mapping[str, Sequence[str]] | None = None) -> None:
    """Deal the next hand (``fixed[seat]`` among the seat's cards)."""
    game.apply(deal_action(fill_deal(game.rules.deck, fixed or {})))


def bid_looking_first(game: Game, *seats: Seat, value: int = 3) -> None:
    """``seats`` bid ``value`` in turn, each looking at their cards first while blind nil is
    open to them."""
    for seat in seats:
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))


def trailing_ns(preset: str, **overrides: object) -> Game:
    """A game whose second hand is dealt with NS trailing EW by 140 (EW 80, NS -60)."""
    game = Game(Rules.from_preset(preset, **overrides))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 4}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.deficit(Team.NS) == 140
    deal_next(game)
    return game


def house_trailing(deficit_hands: int) -> Game:
    """House rules; NS trail by 150 per earlier hand (EW bid 13 and take all, NS bid 1 + 1)."""
    game = Game(Rules.from_preset("house"))
    for _ in range(deficit_hands):
        play_hand(game, {"N": 1, "E": 7, "S": 1, "W": 6}, {"E": 7, "W": 6, "N": 0, "S": 0})
    deal_next(game)
    return game


def passing_game(**overrides: object) -> Game:
    """House rules, NS 140 behind, S (second to bid) bids blind nil: the passing is next."""
    game = trailing_ns("house", **overrides)
    game.apply(Bid(Seat.S, BLIND_NIL))
    bid_looking_first(game, Seat.W, Seat.N, Seat.E)
    return game


def new_york_second_hand(first: Mapping[str, int]) -> Game:
    """New York after a bid-less first hand with ``first`` tricks; hand 2 dealt (dealer E)."""
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, first)
    deal_next(game)
    return game
