"""Spades' rules in plain sentences, topic by topic (rules.md; games.md G1-G2): what
``/spades rules`` says of a Spades table."""

from __future__ import annotations

from bot.engine import DECKS, Rules
from bot.i18n import N_, _, _n
from bot.ui.text.game_text import Sentence
from bot.ui.text.game_text import sentence as _s
from bot.ui.text.words import number


def spades_sections(rules: Rules) -> list[tuple[str, list[Sentence]]]:
    """The rules as (topic, sentences), in the order people ask about them."""
    return [
        (_("Cards and tricks"), _cards(rules)),
        (_("Bidding"), _bidding(rules)),
        (_("Scoring"), _scoring(rules)),
        (_("Nil"), _nil(rules)),
        (_("Bags"), _bags(rules)),
        (_("End of the game"), _end(rules)),
    ]


def _cards(r: Rules) -> list[Sentence]:
    deck = DECKS[r.deck]
    trumps = " > ".join(str(c) for c in deck.trump_order()[:5]) + " > …"
    if r.deck == "standard":
        first = _s(_("A standard 52-card deck; spades are always trump."), "deck")
    elif r.deck == "jokers":
        first = _s(
            _("Two jokers replace 2♥ and 2♣; they are the highest trumps and count as spades."),
            "deck",
        )
    else:
        first = _s(
            _(
                "Two jokers replace 2♥ and 2♣; the jokers and 2♦ are the highest trumps and "
                "count as spades."
            ),
            "deck",
        )
    out = [first]
    if r.players == 3:
        out.append(
            _s(
                _(
                    "Three players (North, East, South): the 2♣ is taken out; 17 cards each, "
                    "17 tricks a hand."
                ),
                "players",
            )
        )
    out.append(_s(_("Trumps: {trumps}.", trumps=trumps), "deck"))
    if r.claims:
        out.append(
            _s(
                _(
                    "Follow the suit led if you can, and do not lead spades before they are "
                    "broken while holding another suit — but any card may be played: breaking "
                    "these rules is a renege, seen by nobody until an opponent claims it. Any "
                    "player may claim an opponent reneged, until the last card of the hand; a "
                    "wrong claim bars that side from claiming again in the hand. A verdict is "
                    "public, so a claim is also a probe: a wrong one tells everyone that "
                    "opponent's plays were legal (that they had none of a suit they did not "
                    "follow), for only that one claim. This is allowed; it is part of the game."
                ),
                "renege",
            )
        )
    else:
        out.append(
            _s(
                _(
                    "Follow the suit led if you can. Spades cannot be led until one has been "
                    "played on another suit (unless you hold only spades)."
                ),
                "renege",
            )
        )
    if r.joker_bonus:
        out.append(
            _s(
                _(
                    "Joker bonus: the team that wins a trick with the Big Joker in it scores "
                    "+2, with the Little Joker +1; a joker that loses its trick costs its team 2."
                ),
                "joker_bonus",
            )
        )
    return out


def _bidding(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [
            _s(
                _(
                    "Partnership bidding: each team bids once, 4 to 10 tricks. The first "
                    "partner proposes, the other confirms or changes it."
                ),
                "bidding",
            ),
            _s(_("The first hand is played without bidding: 10 points a trick."), "bidding"),
            _s(
                _(
                    "A team 100 or more behind may bid blind (before either partner looks): "
                    "double points if made."
                ),
                "bidding",
            ),
        ]
    tricks = 17 if r.players == 3 else 13
    if r.solo:
        out = [
            _s(
                _(
                    "Everyone plays alone: each player bids 1 to {n} tricks, starting left "
                    "of the dealer, and that bid is their own contract.",
                    n=tricks,
                ),
                "partnerships",
            )
        ]
    else:
        out = [
            _s(
                _(
                    "Each player bids 1 to {n} tricks, starting left of the dealer; a team's "
                    "contract is the sum of its non-nil bids.",
                    n=tricks,
                ),
                "bidding",
            )
        ]
    restricted = {
        "suicide": N_(
            "Suicide: in each team one partner bids nil (or blind nil) and the other 4 "
            "or more; the team's first bidder chooses, the partner takes the other role."
        ),
        "whiz": N_("Whiz: every bid is nil (or blind nil) or exactly your number of spades."),
        "mirror": N_(
            "Mirror: every bid is exactly your number of spades (none: nil); no blind nil."
        ),
    }
    if r.bidding in restricted:
        out.append(_s(_(restricted[r.bidding]), "bidding"))
    return out


def _scoring(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [
            _s(
                _(
                    "Bid 4–9: made with at most 2 overtricks scores 10 a trick bid (overtricks "
                    "score nothing); fewer tricks, or 3 or more overtricks, lose 10 a trick bid."
                ),
                "bidding",
            ),
            _s(
                _(
                    "Bid 10: 10–12 tricks score 200, all 13 (a Boston) win the game, fewer "
                    "lose 200."
                ),
                "bidding",
            ),
        ]
    if r.bag_value:
        made = _n(
            "A contract made scores 10 a trick bid, plus {n} point a bag (each trick over "
            "the bid).",
            "A contract made scores 10 a trick bid, plus {n} points a bag (each trick over "
            "the bid).",
            r.bag_value,
        )
    else:
        made = _(
            "A contract made scores 10 a trick bid, bags score nothing (each trick over the bid)."
        )
    if r.set_penalty == "bid":
        set_ = _("A contract set (fewer tricks than bid) loses 10 a trick bid.")
    else:
        set_ = _("A contract set (fewer tricks than bid) scores 0: no penalty.")
    out = [_s(made, "bag_value"), _s(set_, "set_penalty")]
    if r.claims:
        if r.renege_penalty == "round":
            text = (
                _(
                    "A player caught reneging scores at most 0 for the hand and gains no bags; "
                    "the points it would have scored go to the other players."
                )
                if r.solo
                else _(
                    "A side caught reneging scores at most 0 for the hand and gains no bags; "
                    "the points it would have scored go to the other sides."
                )
            )
        else:
            text = (
                _(
                    "A player caught reneging scores −250 and gains no bags; every other "
                    "player scores as if it had made its contract exactly and each of its nils."
                )
                if r.solo
                else _(
                    "A side caught reneging scores −250 and gains no bags; every other side "
                    "scores as if it had made its contract exactly and each of its nils."
                )
            )
        out.append(_s(text, "renege_penalty"))
    return out


def _nil(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [_s(_("No nil bids."), "nil")]
    out = []
    if r.nil:
        out.append(
            _s(
                _(
                    "Nil (bid to take no trick): +{v} if you take none, −{v} if you take any.",
                    v=r.nil_value,
                ),
                "nil",
                "nil_value",
            )
        )
        where = {
            "bags": N_(
                "A nil player's tricks count as bags for the team, never toward the contract."
            ),
            "none": N_("A nil player's tricks count for nothing."),
            "contract": N_("A nil player's tricks count toward the partner's contract."),
        }[r.nil_tricks]
        out.append(_s(_(where), "nil_tricks"))
    else:
        out.append(_s(_("No nil bids (except blind nil where it is on)."), "nil", "nil_value"))
    if r.blind_nil:
        if r.blind_nil_min_deficit == 0:
            blind = _(
                "Blind nil (bid before looking at your cards): ±{v}, at any time.",
                v=r.blind_nil_value,
            )
        else:
            blind = _(
                "Blind nil (bid before looking at your cards): ±{v}, when your team is {behind} "
                "or more behind.",
                v=r.blind_nil_value,
                behind=r.blind_nil_min_deficit,
            )
        out.append(_s(blind, "blind_nil", "blind_nil_value", "blind_nil_min_deficit"))
        if r.blind_nil_pass:
            passed = _n(
                "After bidding, a blind nil bidder passes {n} card to their partner and gets "
                "{n} back.",
                "After bidding, a blind nil bidder passes {n} cards to their partner and gets "
                "{n} back.",
                r.blind_nil_pass,
            )
            out.append(_s(passed, "blind_nil_pass"))
    else:
        no_blind = _("No blind nil.")
        out.append(_s(no_blind, "blind_nil", "blind_nil_value", "blind_nil_min_deficit"))
    if r.nil and r.double_nil == "team":
        both = _(
            "Both partners nil: +{v} if neither takes a trick, −{v} otherwise.",
            v=r.double_nil_value,
        )
        out.append(_s(both, "double_nil", "double_nil_value"))
    elif r.nil:
        each = _("Both partners may bid nil; each nil scores on its own.")
        out.append(_s(each, "double_nil", "double_nil_value"))
    if r.blind_nil:
        out.append(_double_blind(r))
    return out


def _double_blind(r: Rules) -> Sentence:
    opts = ("double_blind_nil", "double_blind_nil_min_deficit")
    if r.double_blind_nil == "off":
        return _s(_("Partners may not both bid blind nil."), *opts)
    when = (
        ""
        if r.double_blind_nil_min_deficit == 0
        else " " + _("(team {n} or more behind)", n=r.double_blind_nil_min_deficit)
    )
    if r.double_blind_nil == "scored":
        return _s(
            _(
                "Both partners blind nil{when}: +400 if both make it, −250 if both fail, "
                "−150 if one fails.",
                when=when,
            ),
            *opts,
        )
    return _s(
        _(
            "Both partners blind nil{when}: the team wins the game if both make it and loses "
            "it otherwise.",
            when=when,
        ),
        *opts,
    )


def _bags(r: Rules) -> list[Sentence]:
    if r.new_york:
        return [_s(_("No bags."), "bag_limit")]
    if r.bag_limit is None or r.bag_penalty == 0:
        return [_s(_("Bags are counted but never cost points."), "bag_limit", "bag_penalty")]
    return [
        _s(
            _(
                "Every {n} bags cost {penalty} points (and the count drops by {n}).",
                n=r.bag_limit,
                penalty=r.bag_penalty,
            ),
            "bag_limit",
            "bag_penalty",
        )
    ]


def _end(r: Rules) -> list[Sentence]:
    if r.solo:
        first = _s(
            _(
                "The game ends when a player reaches {n} points: the highest score wins.",
                n=number(r.target),
            ),
            "target",
        )
    else:
        first = _s(
            _(
                "The first team to {n} points wins; if both get there in the same hand, the "
                "higher score wins.",
                n=number(r.target),
            ),
            "target",
        )
    out = [first]
    if r.tie == "bags":
        out.append(
            _s(
                _(
                    "Equal scores at the end: the team with more bags over the game wins "
                    "(still equal: one more hand)."
                ),
                "tie",
            )
        )
    else:
        out.append(_s(_("Equal scores at the end: one more hand."), "tie"))
    if r.new_york:
        out.append(_s(_("A team set in two hands in a row loses the game."), "bidding"))
    if r.lose_at is not None:
        out.append(
            _s(
                _(
                    "Mercy rule: a team whose score falls to {n} or below loses (if both do, "
                    "the higher score wins).",
                    n=number(r.lose_at),
                ),
                "lose_at",
            )
        )
    else:
        out.append(_s(_("No mercy rule: scores may fall without limit."), "lose_at"))
    return out
