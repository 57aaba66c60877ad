"""Duplicate matches between computer players (and external programs).

``python -m bot.ai.arena --ns hard --ew normal --deals 2000 --preset standard --seed 1``

Every deal is played twice with the partnerships swapped (duplicate), each time as a one-hand
game from 0-0; in solo presets (``solo``, ``cutthroat-3``) once per seat, one player of side A
against a field of side B, rotated round the table (:mod:`bot.ai.solo_arena`).  Full games to
the target are played as well (``--games`` pairs, each pair the same deal stream with the
sides swapped, real bag penalties included; solo: one game per rotation): points per hand and
the share of games won (figures and intervals: :mod:`bot.ai.arena_report`).  A side is a level
(``easy``, ``normal``, ``hard``), ``cmd:COMMAND`` for a program speaking docs/player-protocol.md, or
``py:MODULE:CLASS`` for a player class importable from the working directory (the frozen
previous hard level is ``py:benchmarks.prev_hard:PrevHardPlayer``).

Time: built-in and ``py:`` players are timed in CPU time of the deciding thread, and players
that search to a clock (``hard``) are given that CPU clock too, so a busy machine changes
neither what they do nor what is measured; external programs are timed in wall-clock time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai import solo_arena
from bot.ai.arena_report import (
    Summary,
    TaskResult,
    TeamLine,
    format_summary,
    merge_times,
    summarize,
)
from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import Player
from bot.ai.protocol import ExternalPlayer, game_end_message, hand_end_message
from bot.engine.actions import BLIND_NIL, NIL, SEATS, Action, Deal, Play, Seat
from bot.engine.game import Game, HandResult
from bot.engine.rules import PRESET_NAMES, Rules
from bot.engine.views import seat_view

MAX_GAME_HANDS = 200


# --------------------------------------------------------------------------- players per process
_PLAYERS: dict[str, Player | ExternalPlayer] = {}


def _player(spec: str) -> Player | ExternalPlayer:
    p = _PLAYERS.get(spec)
    if p is None:
        if spec.startswith("cmd:"):
            p = ExternalPlayer(spec[4:])
        elif spec.startswith("py:"):
            p = _import_player(spec)
        else:
            p = get_player(spec)
        if hasattr(p, "clock"):
            p.clock = time.thread_time  # search to the CPU clock of this thread
        _PLAYERS[spec] = p
    return p


def _import_player(spec: str) -> Player:
    module, _, name = spec[3:].partition(":")
    cls = getattr(importlib.import_module(module), name)
    player: Player = cls()
    return player


def default_budget(spec: str) -> float:
    """The budget a side gets unless ``--budget`` says otherwise."""
    if spec in DEFAULT_BUDGET_S:
        return DEFAULT_BUDGET_S[spec]
    if spec.startswith("py:"):
        return float(getattr(_player(spec), "default_budget_s", 0.05))
    return 0.05


def close_players() -> None:
    for p in _PLAYERS.values():
        if isinstance(p, ExternalPlayer):
            p.close()
    _PLAYERS.clear()


def check_side(spec: str) -> str:
    if spec in LEVELS or (spec.startswith("cmd:") and spec[4:].strip()):
        return spec
    if spec.startswith("py:") and spec.count(":") == 2:
        try:
            _import_player(spec)
        except (ImportError, AttributeError, TypeError) as e:
            raise argparse.ArgumentTypeError(f"{spec!r}: {e}") from None
        return spec
    raise argparse.ArgumentTypeError(
        f"{spec!r}: a side is one of {', '.join(LEVELS)}, cmd:COMMAND or py:MODULE:CLASS"
    )


# --------------------------------------------------------------------------- one hand / game
def make_deal(rules: Rules, rng: random.Random, dealer: Seat = Seat.N) -> Deal:
    """The game's deal of a deck shuffled by ``rng`` (Whist turns up the dealer's card;
    three players: 17 cards each)."""
    return Game(rules, dealer).random_deal(rng)


def _bid_text(bid: Any) -> str:
    """A bid of a hand's record in a few letters (``N4``, ``E nil``, ``S blind nil``)."""
    seat = bid.seat.name if hasattr(bid, "seat") else "?"
    value = getattr(bid, "value", bid)
    return f"{seat}{' blind' if getattr(bid, 'blind', False) else ''} {value}"


def bag_unit(rules: Rules) -> float:
    """What a bag costs in the long run: its share of the next penalty."""
    if rules.new_york or not rules.bag_limit or not rules.bag_penalty:
        return 0.0
    return rules.bag_penalty / rules.bag_limit


def _team_lines(rules: Rules, res: HandResult, side_of_team: Sequence[int]) -> list[TeamLine]:
    if rules.game != "spades":  # no bids: points and tricks only
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
    def __init__(self, specs: Sequence[str], seed: int, budgets: dict[str, float]) -> None:
        self.specs = specs  # by seat
        self.players = [_player(s) for s in specs]
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
        # machine is doing); external programs in wall-clock time.
        clock = time.perf_counter if spec.startswith("cmd:") else time.process_time
        t0 = clock()
        budget = self.budgets[spec] if spec in self.budgets else default_budget(spec)
        action = self.players[seat].decide(view, rng, budget)
        self.times.setdefault(spec, []).append(clock() - t0)
        real, known = overtakes_partner(game, action)
        if real:
            self.overtakes[spec] = self.overtakes.get(spec, 0) + 1
            assert isinstance(action, Play)
            self.events.append(
                {
                    "seat": seat.name,
                    "player": spec,
                    "known": known,
                    "trick_number": len(game.completed_tricks) + 1,
                    "hand": " ".join(c.code for c in view.hand or ()),
                    "trick": " ".join(f"{s.name}:{c.code}" for s, c in game.current_trick),
                    "played": action.card.code,
                    "bids": [None if b is None else b for b in game.bids],
                    "tricks_won": list(game.tricks_won),
                }
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


def overtakes_partner(game: Game, action: Action) -> tuple[bool, bool]:
    """Is ``action`` a ruff or overtake of the partner's winning card, and was that needless?

    Returns ``(by the real hands, known to the player)``.  Both need: the partner's card is
    winning the trick, the partner is not a nil bidder still to be covered, the player had a
    legal card that would not beat it, and played one that does.  *By the real hands*: no
    opponent still to play holds a legal card that beats it.  *Known*: no card that could beat
    it is unseen by the player, except in suits those opponents have shown they lack — the
    player could tell the trick was already won.
    """
    no = (False, False)
    if not isinstance(action, Play) or not game.rules.partnerships:
        return no
    trick = game.current_trick
    if not trick or game.sitting_out is not None:
        return no
    deck = game.trump_order  # the trump in force (Whist, Euchre: this hand's)
    power = deck.power
    spades = deck.trumps
    lead = next(m for m in deck.suit_masks if m >> trick[0][1].index & 1)
    follow = lead | spades
    best_seat, best = max(
        ((s, c) for s, c in trick if follow >> c.index & 1), key=lambda x: power[x[1].index]
    )
    seat = action.seat
    if best_seat != seat.partner:
        return no
    partner_bid = game.bids[best_seat]
    if partner_bid is not None and partner_bid <= NIL and game.tricks_won[best_seat] == 0:
        return no
    beats = 0
    for i in range(54):
        bit = 1 << i
        above = bit & deck.mask and power[i] > power[best.index]
        if above and (bit & spades or (bit & lead and not (1 << best.index) & spades)):
            beats |= bit
    legal = game.legal_mask()
    if not legal & ~beats or not (1 << action.card.index) & beats:
        return no
    later = [Seat((seat + k) % 4) for k in range(1, 4 - len(trick))]
    real = not any(((game.hand_mask(o) & lead) or game.hand_mask(o)) & beats for o in later)
    unseen = deck.mask & ~game.hand_mask(seat)
    voids = [0, 0, 0, 0]
    for t in [*(tr.cards for tr in game.completed_tricks), trick]:
        led = next(m for m in deck.suit_masks if m >> t[0][1].index & 1)
        for s, c in t:
            unseen &= ~c.bit
            if not led >> c.index & 1:
                voids[s] |= led
    known = not any(unseen & ~voids[o] & beats for o in later)
    return real, known and real


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
    table.notify(_game_end(game))
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
    table.notify(_game_end(game))
    return game, table.times


def _game_end(game: Game) -> dict[str, Any]:
    winner = None if game.winner is None else int(game.winner)
    return game_end_message(game.scores, winner, game.seating.side_names)


# --------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class Task:
    kind: str  # "deal" or "game"
    number: int
    seed: int
    rules: Rules
    side_a: str
    side_b: str
    budgets: tuple[tuple[str, float], ...]


def _problems() -> list[str]:
    out: list[str] = []
    for p in _PLAYERS.values():
        if isinstance(p, ExternalPlayer):
            out.extend(p.problems)
            p.problems.clear()
    return out


def run_task(task: Task) -> TaskResult:
    rules = task.rules
    budgets = dict(task.budgets)
    a, b = task.side_a, task.side_b
    result = TaskResult(task.kind, task.number)
    if rules.solo:  # no partnerships to swap: rotate one A round a field of B
        return _run_solo_task(task, result)
    if task.kind == "deal":
        dealer = SEATS[task.number % 4]
        deal = make_deal(rules, random.Random(f"{task.seed}:deal:{task.number}"), dealer)
        diff = 0.0
        diff_eff = 0.0
        for table, (ns, ew) in enumerate(((a, b), (b, a))):
            specs = (ns, ew, ns, ew)
            seed = (task.seed * 1_000_003 + task.number) * 2 + table
            res, times, over, events = play_hand(rules, deal, dealer, specs, seed, budgets)
            merge_times(result.times, times)
            for e in events:
                e["table"] = table
            result.events.extend(events)
            result.hands.append(
                {
                    "table": table,
                    "ns": ns,
                    "deal": [" ".join(c.code for c in h) for h in res.deal],
                    "bids": [_bid_text(b) for b in res.bids],
                    "plays": " ".join(c.code for c in res.plays),
                    "tricks": list(res.tricks),
                    "points": [t.points for t in res.teams],
                }
            )
            sides = (0, 1) if table == 0 else (1, 0)
            for side, spec in ((sides[0], ns), (sides[1], ew)):
                result.overtakes[side] += over.get(spec, 0)
                result.overtakes_known[side] += over.get(spec + "\0known", 0)
            lines = _team_lines(rules, res, sides)
            result.lines.extend(lines)
            pts = {ln.side: ln.points for ln in lines}
            diff += pts[0] - pts[1]
            eff = {ln.side: ln.effective for ln in lines}
            diff_eff += eff[0] - eff[1]
        result.diff = diff / 2
        result.diff_eff = diff_eff / 2
    else:
        for table, (ns, ew) in enumerate(((a, b), (b, a))):
            specs = (ns, ew, ns, ew)
            stream = (
                random.Random(f"{task.seed}:game:{task.number}:{k}")
                for k in range(MAX_GAME_HANDS + 1)
            )
            seed = (task.seed * 1_000_003 + task.number) * 2 + table + 10**12
            game, times = play_game(rules, stream, SEATS[task.number % 4], specs, seed, budgets)
            merge_times(result.times, times)
            sides = (0, 1) if table == 0 else (1, 0)
            for res in game.results:
                result.game_lines.extend(_team_lines(rules, res, sides))
            result.game_hands += len(game.results)
            if game.winner is None:
                result.wins.append(-1)
            else:
                team = int(game.winner)
                result.wins.append(team if table == 0 else team ^ 1)
    result.problems = _problems()
    return result


def _run_solo_task(task: Task, result: TaskResult) -> TaskResult:
    rules, budgets = task.rules, dict(task.budgets)
    dealer = SEATS[task.number % rules.players]
    seed = task.seed * 1_000_003 + task.number
    if task.kind == "deal":
        deal = make_deal(rules, random.Random(f"{task.seed}:deal:{task.number}"), dealer)
        lines, diff, diff_eff, times = solo_arena.play_deal(
            rules,
            deal,
            dealer,
            task.side_a,
            task.side_b,
            seed,
            budgets,
            play_hand,
            TeamLine,
            bag_unit(rules),
        )
        result.lines, result.diff, result.diff_eff = lines, diff, diff_eff
    else:
        stream = solo_arena.deal_stream(rules, task.seed, task.number, MAX_GAME_HANDS + 1)
        wins, times = solo_arena.play_games(
            rules, stream, dealer, task.side_a, task.side_b, seed + 10**12, budgets, play_game
        )
        result.wins = wins
    merge_times(result.times, times)
    result.problems = _problems()
    return result


# --------------------------------------------------------------------------- running
class Progress:
    """A tiny progress bar on stderr."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.2 and self.done < self.total):
            return
        self.last = now
        width = 30
        frac = self.done / max(1, self.total)
        bar = "#" * int(width * frac) + "." * (width - int(width * frac))
        el = now - self.start
        eta = el / frac - el if frac else 0.0
        print(
            f"\r[{bar}] {self.done}/{self.total} {el:6.0f}s eta {eta:5.0f}s",
            end="",
            file=sys.stderr,
            flush=True,
        )
        if self.done >= self.total:
            print(file=sys.stderr)


def run_match(
    side_a: str,
    side_b: str,
    deals: int,
    preset: str = "standard",
    seed: int = 1,
    jobs: int = 1,
    games: int = 0,
    budgets: dict[str, float] | None = None,
    progress: bool = False,
    rules: Rules | None = None,
    on_result: Callable[[list[TaskResult]], None] | None = None,
    detail: str | None = None,
) -> Summary:
    """Play the match; ``on_result`` is called with the results so far after each task."""
    rules = rules or Rules.from_preset(preset)
    b = {spec: default_budget(spec) for spec in (side_a, side_b)}
    b.update(budgets or {})
    bt = tuple(sorted(b.items()))
    tasks = [Task("deal", i, seed, rules, side_a, side_b, bt) for i in range(deals)]
    # Full games spread among the deals, so that the figures so far cover both.
    for g in range(games):
        tasks.insert(g + (g * deals) // games, Task("game", g, seed, rules, side_a, side_b, bt))
    bar = Progress(len(tasks), progress)
    results: list[TaskResult] = []

    if detail:
        open(detail, "w", encoding="utf-8").close()

    def done(r: TaskResult) -> None:
        results.append(r)
        if detail and r.kind == "deal":
            line = {"deal": r.number, "diff": r.diff, "diff_eff": r.diff_eff}
            with open(detail, "a", encoding="utf-8") as f:
                f.write(json.dumps({**line, "hands": r.hands, "overtakes": r.events}) + "\n")
        bar.update()
        if on_result is not None:
            on_result(results)

    if jobs <= 1:
        try:
            for t in tasks:
                done(run_task(t))
        finally:
            close_players()
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(jobs) as pool:
            for r in pool.imap_unordered(run_task, tasks, chunksize=1):
                done(r)
    results.sort(key=lambda r: (r.kind, r.number))
    for r in results:
        for p in r.problems[:5]:
            print(f"[{r.kind} {r.number}] {p}", file=sys.stderr)
    return summarize(side_a, side_b, results)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.ai.arena", description=__doc__.split("\n")[0])
    ap.add_argument("--ns", type=check_side, default="normal", help="side A (seats N and S first)")
    ap.add_argument("--ew", type=check_side, default="easy", help="side B")
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals (each played twice)")
    ap.add_argument("--games", type=int, default=0, help="pairs of full games to the target")
    ap.add_argument("--preset", choices=PRESET_NAMES, default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (2 = both cores)")
    ap.add_argument("--budget", type=float, default=None, help="hard: seconds per decision")
    ap.add_argument(
        "--budget-b", type=float, default=None, help="side B's budget (a py: side), seconds"
    )
    ap.add_argument("--json", default=None, help="also write the summary as JSON to this file")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument(
        "--detail",
        default=None,
        help="write one JSON line per deal (difference, hands, each needless overtake) here",
    )
    args = ap.parse_args(argv)
    budgets = {"hard": args.budget} if args.budget is not None else {}
    if args.budget_b is not None:
        budgets[args.ew] = args.budget_b
    summary = run_match(
        args.ns,
        args.ew,
        args.deals,
        args.preset,
        args.seed,
        args.jobs,
        args.games,
        budgets,
        progress=not args.quiet,
        detail=args.detail,
    )
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary.to_json(), f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
