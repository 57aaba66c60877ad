"""Spades' rules in plain sentences, topic by topic (rules.md; games.md G1-G2): what
``/spades rules`` says of a Spades table."""

from __future__ import annotations

from bot.engine import DECKS, Rules
from bot.ui.game_text import Sentence
from bot.ui.game_text import sentence as _s
from bot.ui.text import number, plural


def spades_sections(rules: Rules) -> list[tuple[str, list[Sentence]]]:
    """The rules as (topic, sentences), in the order people ask about them."""
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
