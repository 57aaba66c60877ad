"""The ``spades-record/1`` format (records.md, games.md G5): export a game, and replay a record
through the engine.

A record states its game, deck and seats (:mod:`bot.engine.record_fields`); a hand's record has
its number and dealer, the deal and each game's own actions: Spades ``bids`` (and ``passes``),
Whist the ``trump_card``, Euchre the ``up_card``, ``calls`` and the dealer's ``discard``; then
``plays``.  Replay lines keep one shape for every game; Whist and Euchre add ``trump`` (and
Euchre ``maker``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, NamedTuple

from bot.engine.actions import (
    BLIND_NIL,
    NIL,
    SEATS,
    Action,
    Bid,
    Call,
    Claim,
    ClaimResult,
    Deal,
    Discard,
    Look,
    PassCards,
    Play,
    Seat,
    bid_record,
)
from bot.engine.cards import BY_CODE, SUITS, Card
from bot.engine.errors import IllegalAction, RecordError, RulesError
from bot.engine.game import Game, HandResult, Phase
from bot.engine.games import DEFAULT_GAME, GameKind
from bot.engine.lines import Line
from bot.engine.record_fields import (
    check_game_fields,
    check_hand_fields,
    game_fields,
    hand_fields,
)
from bot.engine.rules import Rules
from bot.engine.seats import PARTNERSHIPS
from bot.engine.shuffle import GameSeed

FORMAT: Final = "spades-record/1"
_TURNED: Final[dict[str, str]] = {GameKind.WHIST: "trump_card", GameKind.EUCHRE: "up_card"}
TEAM_KEYS: Final = ("NS", "EW")


def bid_json(bid: Bid, new_york: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": bid.seat.name, "bid": bid_record(bid.value)}
    if new_york and bid.blind:
        out["blind"] = True
    return out


def call_json(call: Call) -> dict[str, Any]:
    """A Euchre call: ``alone`` is written on every call but a pass (G7)."""
    out: dict[str, Any] = {"seat": call.seat.name, "call": call.call}
    if call.call != Call.PASS:
        out["alone"] = call.alone
    return out


def hand_json(
    deal: tuple[tuple[Card, ...], ...],
    bids: tuple[Bid, ...],
    passes: tuple[PassCards, ...],
    plays: tuple[Card, ...],
    new_york: bool,
    *,
    game: str = DEFAULT_GAME,
    turned: Card | None = None,
    calls: tuple[Call, ...] = (),
    discard: Card | None = None,
    claims: tuple[ClaimResult, ...] = (),
) -> dict[str, Any]:
    """One hand's record: the deal, the game's own actions, the plays, the claims (G5)."""
    out: dict[str, Any] = {"deal": {SEATS[i].name: [c.code for c in h] for i, h in enumerate(deal)}}
    if game == GameKind.WHIST:
        out["trump_card"] = turned.code if turned else None
    elif game == GameKind.EUCHRE:
        out["up_card"] = turned.code if turned else None
        out["calls"] = [call_json(c) for c in calls]
        if discard is not None:
            out["discard"] = discard.code
    else:
        out["bids"] = [bid_json(b, new_york) for b in bids]
    out["plays"] = [c.code for c in plays]
    if passes:
        out["passes"] = [{"seat": p.seat.name, "cards": [c.code for c in p.cards]} for p in passes]
    if claims:
        out["claims"] = [
            {"seat": c.seat.name, "against": c.against.name, "after": c.after} for c in claims
        ]
    return out


def result_json(result: HandResult, game: str, new_york: bool = False) -> dict[str, Any]:
    """The record of a hand (finished, or so far): its number and dealer, then its actions."""
    return hand_fields(result.number, result.dealer) | hand_json(
        result.deal,
        result.bids,
        result.passes,
        result.plays,
        new_york,
        game=game,
        turned=result.trump_card or result.up_card,
        calls=result.calls,
        discard=result.discard,
        claims=result.claims,
    )


def export_record(
    game: Game,
    players: Mapping[str, Mapping[str, Any]] | None = None,
    seed: GameSeed | None = None,
    boards: int | None = None,
) -> dict[str, Any]:
    """The whole game so far as a ``spades-record/1`` document, stating its game, deck and seats
    (and ``boards``, a duplicate round's table's hand limit); with the game's ``seed`` (give it
    only once the game is over) the record reveals it beside its ``commitment``."""
    ny = game.rules.new_york
    name = game.rules.game
    hands = [result_json(r, name, ny) for r in game.results]
    if game.phase not in (Phase.DEAL, Phase.OVER):
        hands.append(result_json(game.hand_so_far(), name, ny))
    doc: dict[str, Any] = {
        "format": FORMAT,
        **game_fields(game, boards),
        "rules": game.rules.to_record(),
        "players": {s.name: dict(players[s.name]) for s in game.seating.seats} if players else {},
        "first_dealer": game.first_dealer.name,
    }
    if seed is not None:  # docs/verifiable-deals.md
        doc["seed"], doc["commitment"] = seed.reveal(), seed.commitment
    doc["hands"] = hands
    if not players:
        del doc["players"]
    return doc


def hand_line(result: HandResult, game: Game | None = None) -> dict[str, Any]:
    """The replay line of a finished hand: ``teams`` (``players`` in solo, games.md G2), with
    ``caught`` beside ``points`` where ``renege = claim`` (G1); Whist and Euchre add ``trump``
    (and ``maker``).  Without ``game``: a partnership game without claims."""
    seating = game.seating if game is not None else PARTNERSHIPS
    line: dict[str, Any] = {"hand": result.number, "dealer": result.dealer.name}
    if result.trump_card is not None or result.up_card is not None:
        line["trump"] = result.trump
    if result.up_card is not None:
        line["maker"] = result.maker.name if result.maker is not None else None
    line["tricks"] = {s.name: result.tricks[s] for s in seating.seats}
    sides: dict[str, Any] = {}
    for k, name in enumerate(seating.side_names):
        entry: dict[str, Any] = result.teams[k].to_json()
        if game is not None and game.rules.claims:
            entry = {"points": entry.pop("points"), "caught": result.teams[k].caught, **entry}
        sides[name] = entry
    line[side_key(game.rules if game is not None else None)] = sides
    return line


def side_key(rules: Rules | None) -> str:
    """``"teams"``, or ``"players"`` when every player scores alone (games.md G2)."""
    return "players" if rules is not None and rules.solo else "teams"


def final_line(game: Game) -> dict[str, Any]:
    names = game.seating.side_names
    return {
        "final": True,
        "score": {name: game.scores[k] for k, name in enumerate(names)},
        "winner": game.winner.name if game.winner is not None else None,
    }


def _refused(error: str, line: Line, **details: Any) -> RecordError:
    """The error of a record refused (``error`` names what: ``malformed record``, ``illegal
    bid``…; ``details`` where), its reason the English of ``line``."""
    return RecordError(line, {"error": error, **details, "reason": str(line)})


def _malformed(line: Line, **details: Any) -> RecordError:
    return _refused("malformed record", line, **details)


def _seat(value: Any, where: dict[str, Any]) -> Seat:
    if isinstance(value, str) and value in Seat.__members__:
        return Seat[value]
    raise _malformed(Line("{value} is not a seat (N, E, S or W)", value=repr(value)), **where)


def _card(code: Any, where: dict[str, Any]) -> Card:
    if isinstance(code, str) and code in BY_CODE:
        return BY_CODE[code]
    raise _malformed(Line("{code} is not a card code", code=repr(code)), **where)


def _list(value: Any, what: str | Line, where: dict[str, Any]) -> list[Any]:
    if not isinstance(value, list):
        raise _malformed(Line("{what} must be a list", what=what), **where)
    return value


BeforeAction = Callable[[Game, Action | Deal], None]


class Replayer:
    """Replays a record, yielding one line per hand; raises :class:`RecordError` on the first
    illegal or malformed action.  ``game`` holds the state reached; ``before`` (if given) is
    called with the game and each action just before the action is applied."""

    def __init__(self, doc: Any, before: BeforeAction | None = None) -> None:
        self.before = before
        if not isinstance(doc, dict):
            raise _malformed(Line("a record is a JSON object"))
        if doc.get("format") != FORMAT:
            raise _malformed(Line("format must be {format}", format=repr(FORMAT)))
        rules_doc = doc.get("rules", {"preset": "standard"})
        try:
            rules = Rules.from_record(rules_doc)
        except RulesError as e:
            known = e.option is None or e.option in Rules.__dataclass_fields__
            kind = "invalid rules" if known else "unknown option"
            details: dict[str, Any] = {"error": kind}
            if e.option:
                details["option"] = e.option
            details["reason"] = str(e.line)
            raise RecordError(e.line, details) from None
        game = Game(rules)
        seats = game.seating.seats
        names = ", ".join(s.name for s in seats)
        players = doc.get("players", {})
        if not isinstance(players, dict) or any(k not in {s.name for s in seats} for k in players):
            raise _malformed(Line("players must map seats {names} to players", names=names))
        first = _seat(doc.get("first_dealer", "N"), {})
        if first not in seats:
            raise _malformed(Line("first_dealer must be one of {names}", names=names))
        self.doc = doc
        self.game = Game(rules, first)
        self.boards = check_game_fields(doc, self.game)  # the stated game, deck and seats
        self.hands = _list(doc.get("hands", []), "hands", {})

    def lines(self) -> Iterator[dict[str, Any]]:
        last = len(self.hands)
        for n, hand in enumerate(self.hands, start=1):
            line = self._replay_hand(n, hand, n == last)
            yield line
        yield final_line(self.game)

    def _replay_hand(self, n: int, hand: Any, last: bool) -> dict[str, Any]:
        game = self.game
        where = {"hand": n}
        if game.over or (self.boards is not None and n > self.boards):
            raise _refused("hand after game over", Line("the game was already over"), hand=n)
        if not isinstance(hand, dict):
            raise _malformed(Line("a hand is a JSON object"), **where)
        check_hand_fields(hand, n, game)
        seats = game.seating.seats
        deal_doc = hand.get("deal")
        if not isinstance(deal_doc, dict) or set(deal_doc) != {s.name for s in seats}:
            names = ", ".join(s.name for s in seats)
            raise _malformed(Line("deal must give the cards of {names}", names=names), **where)
        cards = tuple(
            tuple(_card(c, where) for c in _list(deal_doc[s.name], _DEALT_HAND, where))
            for s in seats
        )
        self._do(Deal(cards, self._turned(hand, where)), "deal", where, {})
        self._replay_bids(n, _list(hand.get("bids", []), "bids", where))
        for i, p in enumerate(_list(hand.get("passes") or [], "passes", where), start=1):
            at = {"hand": n, "pass": i}
            if not isinstance(p, dict):
                raise _malformed(Line("a pass is an object with seat and cards"), **at)
            seat = _seat(p.get("seat"), at)
            pcards = tuple(_card(c, at) for c in _list(p.get("cards"), "cards", at))
            self._do(PassCards(seat, pcards), "pass", at, {"seat": seat.name, "cards": p["cards"]})
        self._replay_calls(n, _list(hand.get("calls", []), "calls", where))
        if "discard" in hand:
            at = {"hand": n, "discard": 1}
            code = hand["discard"]
            self._do(Discard(game.dealer, _card(code, at)), "discard", at, {"card": code})
        claims = self._claims(n, _list(hand.get("claims") or [], "claims", where))
        plays = _list(hand.get("plays", []), "plays", where)
        for i, code in enumerate(plays, start=1):
            self._claim_at(n, claims, i - 1)
            at = {"hand": n, "play": i}
            c = _card(code, at)
            player = game.to_act
            if game.phase is not Phase.PLAY or player is None:
                not_yet = _NOT_PLAYING.get(game.phase, _HAND_OVER)
                raise _refused("illegal play", not_yet, **at, card=code)
            self._do(Play(player, c), "play", at, {"card": code})
        self._claim_at(n, claims, len(plays))
        if claims:
            index, claim, shown = claims[0]
            reason = Line("only {n} cards were played in this hand", n=len(plays))
            if claim.after == len(plays) and game.results and game.results[-1].number == n:
                reason = Line("a claim made when the last card lands is too late")
            raise _refused("illegal claim", reason, hand=n, claim=index, **shown)
        if game.results and game.results[-1].number == n:
            return hand_line(game.results[-1], game)
        if not last:
            raise _malformed(Line("only the last hand may stop early"), **where)
        return {
            "hand": n,
            "dealer": game.dealer.name,
            "tricks": {s.name: game.tricks_won[s] for s in seats},
            "complete": False,
        }

    def _claims(self, n: int, entries: list[Any]) -> list[tuple[int, _RecordClaim, dict[str, Any]]]:
        """The hand's claims (G5), checked for form and order; applied by :meth:`_claim_at`."""
        out: list[tuple[int, _RecordClaim, dict[str, Any]]] = []
        last = 0
        for i, entry in enumerate(entries, start=1):
            at = {"hand": n, "claim": i}
            if not isinstance(entry, dict):
                raise _malformed(Line("a claim is an object with seat, against and after"), **at)
            seat = _seat(entry.get("seat"), at)
            against = _seat(entry.get("against"), at)
            after = entry.get("after")
            if not isinstance(after, int) or isinstance(after, bool) or after < 1:
                raise _malformed(Line("a claim's after is the number of plays made (from 1)"), **at)
            if after < last:
                raise _malformed(Line("claims are listed in the order they were made"), **at)
            last = after
            shown = {"seat": seat.name, "against": against.name, "after": after}
            out.append((i, _RecordClaim(seat, against, after), shown))
        return out

    def _claim_at(
        self, n: int, claims: list[tuple[int, _RecordClaim, dict[str, Any]]], made: int
    ) -> None:
        """Apply the claims made when ``made`` cards had been played (removing them); none
        once the hand is over (they are refused as too late by the caller)."""
        while claims and claims[0][1].after == made and self.game.phase is Phase.PLAY:
            index, claim, shown = claims.pop(0)
            at = {"hand": n, "claim": index}
            self._do(Claim(claim.seat, claim.against), "claim", at, shown)

    def _turned(self, hand: dict[str, Any], where: dict[str, Any]) -> Card | None:
        """Whist's ``trump_card`` or Euchre's ``up_card``."""
        key = _TURNED.get(self.game.rules.game)
        if key is None:
            return None
        if key not in hand:
            names_its = Line("a {game} hand names its {key}", game=self.game.rules.game, key=key)
            raise _malformed(names_its, **where)
        return _card(hand[key], where)

    def _replay_calls(self, n: int, calls: list[Any]) -> None:
        for i, entry in enumerate(calls, start=1):
            at = {"hand": n, "call": i}
            if not isinstance(entry, dict):
                raise _malformed(Line("a call is an object with seat and call"), **at)
            seat = _seat(entry.get("seat"), at)
            shown = {
                ("value" if k == "call" else k): entry[k]
                for k in ("seat", "call", "alone")
                if k in entry
            }
            raw = entry.get("call")
            alone = entry.get("alone", False)
            if raw not in (Call.PASS, Call.ORDER, *SUITS) or not isinstance(alone, bool):
                reason = Line(
                    '{call} is not a call ("pass", "order" or a suit, "alone" true/false)',
                    call=repr(raw),
                )
                raise _refused("illegal call", reason, **at, **shown)
            self._do(Call(seat, raw, alone), "call", at, shown)

    def _replay_bids(self, n: int, bids: list[Any]) -> None:
        game = self.game
        ny = game.rules.new_york
        for i, entry in enumerate(bids, start=1):
            at = {"hand": n, "bid": i}
            if not isinstance(entry, dict):
                raise _malformed(Line("a bid is an object with seat and bid"), **at)
            seat = _seat(entry.get("seat"), at)
            # The action goes beside its index (key "bid"), so its bid shows as "value".
            shown = {
                ("value" if k == "bid" else k): entry[k]
                for k in ("seat", "bid", "blind")
                if k in entry
            }
            raw = entry.get("bid")
            if raw == "nil":
                value = NIL
            elif raw == "blind_nil":
                value = BLIND_NIL
            elif isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1:
                value = raw
            else:
                reason = Line('{bid} is not a bid (1-13, "nil" or "blind_nil")', bid=repr(raw))
                raise _refused("illegal bid", reason, **at, **shown)
            blind = entry.get("blind", False) is True
            if ny:
                self._team_bid(seat, value, blind, at, shown)
            else:
                if value != BLIND_NIL and game.to_act == seat and game.is_legal(Look(seat)):
                    self._look(seat)
                self._do(Bid(seat, value), "bid", at, shown)

    def _team_bid(
        self, seat: Seat, value: int, blind: bool, at: dict[str, Any], shown: dict[str, Any]
    ) -> None:
        game = self.game
        turn = game.to_act
        if game.phase is not Phase.BID or turn is None:
            reason = (
                Line("the first hand is played without bidding")
                if game.hand_number == 1
                else Line("bidding is over")
            )
            raise _refused("illegal bid", reason, **at, **shown)
        if seat not in (turn, turn.partner):
            team = "NS" if turn % 2 == 0 else "EW"
            raise _refused(
                "illegal bid", Line("it is team {team}'s turn to bid", team=team), **at, **shown
            )
        for bidder in (turn, turn.partner):
            if not blind and game.is_legal(Look(bidder)):
                self._look(bidder)
            self._do(Bid(bidder, value, blind), "bid", at, shown)

    def _look(self, seat: Seat) -> None:
        """A bidder who bids other than blind has looked at their cards (implied by records)."""
        if self.before is not None:
            self.before(self.game, Look(seat))
        self.game.apply(Look(seat))

    def _do(self, action: Any, kind: str, at: dict[str, Any], shown: dict[str, Any]) -> None:
        if self.before is not None:
            self.before(self.game, action)
        try:
            self.game.apply(action)
        except IllegalAction as e:
            error = "invalid deal" if kind == "deal" else f"illegal {kind}"
            raise _refused(error, e.line, **at, **shown) from None


class _RecordClaim(NamedTuple):
    seat: Seat
    against: Seat
    after: int


_NOT_PLAYING: Final = {
    Phase.BID: Line("bidding is not over"),
    Phase.PASS: Line("bidding is not over"),
    Phase.CALL: Line("calling is not over"),
    Phase.DISCARD: Line("the dealer has not discarded"),
}
_HAND_OVER: Final = Line("hand over")
_DEALT_HAND: Final = Line("a dealt hand")


def replay(doc: Any) -> Iterator[dict[str, Any]]:
    """Yield the replay lines of records.md for ``doc`` (raises :class:`RecordError`)."""
    return Replayer(doc).lines()
