"""One hand or one game at an arena table: the players decide from their seat views, each
decision timed (CPU time of this process for built-in players, wall time for external
programs) and each needless overtake of a partner noted (:mod:`tools.arena_detail`)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bot.engine.actions import BLIND_NIL, NIL, Bid, Deal, Play, Seat
from bot.engine.game import Game, HandResult, Phase
from bot.engine.games import entry_of
from bot.engine.rules import Rules
from bot.engine.views import seat_view
from tools.arena_detail import overtake_event, overtakes_partner
from tools.arena_players import default_budget, player
from tools.arena_report import TeamLine
from tools.protocol import ExternalPlayer, game_end_message, hand_end_message
from tools.serve_player import VirtualClock

MAX_GAME_HANDS = 200


def make_deal(rules: Rules, rng: random.Random, dealer: Seat = Seat.N) -> Deal:
    """The game's deal of a deck shuffled by ``rng`` (Whist turns up the dealer's card;
    three players: 17 cards each)."""
    return Game(rules, dealer).random_deal(rng)


def bag_unit(rules: Rules) -> float:
    """What a bag costs in the long run: its share of the next penalty."""
    if rules.new_york or not rules.bag_limit or not rules.bag_penalty:
        return 0.0
    return rules.bag_penalty / rules.bag_limit


def team_lines(rules: Rules, res: HandResult, side_of_team: Sequence[int]) -> list[TeamLine]:
    if not entry_of(rules.game).takes(Bid):  # no bids: points and tricks only
        return [
            TeamLine(
                side_of_team[team],
                res.teams[team].points,
                res.tricks[team] + res.tricks[team + 2],
                float(res.teams[team].points),
                None,
                res.tricks[team] + res.tricks[team + 2],
                False,
                False,
                0,
                0,
                0,
                0,
                0,
            )
            for team in (0, 1)
        ]
    out = []
    bids: dict[int, int] = {}
    team_bid: dict[int, int] = {}
    for b in res.bids:
        if rules.new_york:
            team_bid[int(b.seat) & 1] = b.value
        else:
            bids[int(b.seat)] = b.value
    for team in (0, 1):
        seats = (team, team + 2)
        ts = res.teams[team]
        nils = nils_made = blind = blind_made = 0
        if rules.new_york:
            contract = team_bid.get(team)
            counted = res.tricks[team] + res.tricks[team + 2]
        else:
            contract = sum(bids[s] for s in seats if bids[s] > 0) or None
            counted = sum(
                res.tricks[s] for s in seats if bids[s] > 0 or rules.nil_tricks == "contract"
            )
            for s in seats:
                if bids[s] == NIL:
                    nils += 1
                    nils_made += res.tricks[s] == 0
                elif bids[s] == BLIND_NIL:
                    blind += 1
                    blind_made += res.tricks[s] == 0
        out.append(
            TeamLine(
                side_of_team[team],
                ts.points,
                res.tricks[team] + res.tricks[team + 2],
                ts.points - bag_unit(rules) * ts.bag_count,
                contract,
                counted,
                contract is not None and not ts.was_set,
                ts.was_set,
                ts.bags,
                nils,
                nils_made,
                blind,
                blind_made,
            )
        )
    return out


class _Table:
    """The players of one table (by seat), their decision times and needless overtakes."""

    def __init__(self, specs: Sequence[str], seed: int, budgets: dict[str, float]) -> None:
        self.specs = specs  # by seat
        self.players = [player(s) for s in specs]
        self.seed = seed
        self.budgets = budgets
        self.times: dict[str, list[float]] = {}
        self.overtakes: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []  # the needless overtakes, for --detail
        self.k = 0

    def step(self, game: Game) -> None:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        spec = self.specs[seat]
        rng = random.Random(self.seed * 1000 + self.k)
        self.k += 1
        # Built-in players are timed in CPU time of this process (one core, whatever else the
        # machine is doing); external programs and served revisions in wall-clock time.
        clock = time.perf_counter if spec.startswith(("cmd:", "git:")) else time.process_time
        t0 = clock()
        budget = self.budgets[spec] if spec in self.budgets else default_budget(spec)
        searcher_clock = getattr(self.players[seat], "clock", None)
        if isinstance(searcher_clock, VirtualClock):
            searcher_clock.for_bid(view.phase is Phase.BID)
        action = self.players[seat].decide(view, rng, budget)
        self.times.setdefault(spec, []).append(clock() - t0)
        real, known = overtakes_partner(game, action)
        if real:
            self.overtakes[spec] = self.overtakes.get(spec, 0) + 1
            assert isinstance(action, Play)
            self.events.append(
                overtake_event(game, action, " ".join(c.code for c in view.hand or ()), spec, known)
            )
        if known:
            self.overtakes[spec + "\0known"] = self.overtakes.get(spec + "\0known", 0) + 1
        game.apply(action)

    def notify(self, message: dict[str, Any]) -> None:
        seen: set[int] = set()
        for p in self.players:
            if isinstance(p, ExternalPlayer) and id(p) not in seen:
                seen.add(id(p))
                p.notify(message)


def play_hand(
    rules: Rules,
    deal: Deal,
    dealer: Seat,
    specs: Sequence[str],
    seed: int,
    budgets: dict[str, float],
) -> tuple[HandResult, dict[str, list[float]], dict[str, int], list[dict[str, Any]]]:
    """Play one deal as a one-hand game from 0-0 (New York: with bidding); the result,
    decision times, needless partner overtakes by player and each of them described."""
    game = Game(rules, dealer)
    if rules.new_york:
        game.hand_number = 2  # a bidding hand, not the bid-less first hand of a game
    table = _Table(specs, seed, budgets)
    game.apply(deal)
    while not game.results:
        table.step(game)
    res = game.results[-1]
    table.notify(hand_end_message(res, rules.new_york, game))
    table.notify(game_end(game))
    return res, table.times, table.overtakes, table.events


def play_game(
    rules: Rules,
    deals: Iterator[random.Random],
    dealer: Seat,
    specs: Sequence[str],
    seed: int,
    budgets: dict[str, float],
) -> tuple[Game, dict[str, list[float]]]:
    """A full game to the target, each hand dealt from the next of ``deals``."""
    game = Game(rules, dealer)
    table = _Table(specs, seed, budgets)
    while not game.over and game.hand_number <= MAX_GAME_HANDS:
        if game.to_act is None:
            game.apply(game.random_deal(next(deals)))
            continue
        before = len(game.results)
        table.step(game)
        if len(game.results) > before:
            table.notify(hand_end_message(game.results[-1], rules.new_york, game))
    table.notify(game_end(game))
    return game, table.times


def game_end(game: Game) -> dict[str, Any]:
    winner = None if game.winner is None else int(game.winner)
    return game_end_message(game.scores, winner, game.seating.side_names)
