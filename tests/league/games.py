"""Finished games for league tests and benchmarks: random legal play-outs of the engine."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.actions import BLIND_NIL, NIL, SEATS, Action, Bid, Claim, Look
from bot.engine.game import Game
from bot.engine.record import export_record
from bot.engine.rules import Rules
from bot.league.models import FinishedGame, SeatPlayer

START = datetime(2026, 1, 1, tzinfo=UTC)


def _estimate(game: Game, seat: int) -> int:
    """A rough trick estimate: aces, guarded kings, and one trick per two spades."""
    cards = game.hand(SEATS[seat])
    spades = sum(1 for c in cards if c.suit == "S")
    aces = sum(1 for c in cards if c.rank == 14 and c.suit != "S")
    return max(1, min(13, aces + spades // 2))


def _choose(rng: random.Random, game: Game, actions: list[Action]) -> Action:
    """A random legal action; bids are small and close to the hand's strength."""
    bids = [a for a in actions if isinstance(a, Bid)]
    if not bids:
        return rng.choice(actions)
    looks = [a for a in actions if isinstance(a, Look)]
    roll = rng.random()
    if looks and roll < 0.9:
        return looks[0]
    special = [b for b in bids if b.value in (NIL, BLIND_NIL)]
    if special and roll < 0.08:
        return rng.choice(special)
    want = _estimate(game, bids[0].seat) + rng.choice((-1, 0, 0, 1))
    numeric = [b for b in bids if b.value > 0]
    if not numeric:
        return rng.choice(bids)
    return min(numeric, key=lambda b: abs(b.value - want))


def play_random_game(
    seed: int, rules: Rules | None = None, *, stop_after_hands: int | None = None
) -> Game:
    """A random legal game to its end (or stopped early, like an abandoned table)."""
    rng = random.Random(seed)
    rules = rules or Rules.from_preset("standard", target=150, lose_at=-200)
    game = Game(rules, SEATS[seed % rules.players])
    while not game.over:
        if rules.claims and game.phase == "play" and rng.random() < 0.05:
            _claim(rng, game)  # games.md G1: now and then someone claims a renege
        if game.phase == "deal":
            if stop_after_hands is not None and len(game.results) >= stop_after_hands:
                # abandoned in the middle of the next hand
                game.deal(rng)
                for _ in range(rng.randrange(0, 20)):
                    actions = game.legal_actions()
                    if not actions:
                        break
                    game.apply(_choose(rng, game, actions))
                return game
            game.deal(rng)
            continue
        game.apply(_choose(rng, game, game.legal_actions()))
    return game


def _claim(rng: random.Random, game: Game) -> None:
    seats = [s for s in game.seating.seats if game.claim_targets(s)]
    if seats:
        seat = rng.choice(seats)
        game.apply(Claim(seat, rng.choice(game.claim_targets(seat))))


def finished_game(
    seed: int,
    users: tuple[int | None, ...],
    *,
    guild_id: int = 1,
    channel_id: int = 10,
    rules: Rules | None = None,
    abandon_after: int | None = None,
    minutes: int = 0,
    names: dict[int, str] | None = None,
    with_results: bool = False,
) -> FinishedGame:
    """A :class:`FinishedGame` played out at random with ``users`` in seats N, E, S, W (N, E,
    S with three players; ``None`` = a computer player of level normal)."""
    game = play_random_game(seed, rules, stop_after_hands=abandon_after)
    seats = tuple(
        SeatPlayer(None, "Bot (normal)", "normal")
        if u is None
        else SeatPlayer(u, (names or {}).get(u, f"player{u}"))
        for u in users
    )
    players: dict[str, dict[str, Any]] = {
        s.name: {"name": p.display_name, "bot": p.user_id is None}
        for s, p in zip(game.seating.seats, seats, strict=True)
    }
    record = export_record(game, players)
    winner = None if game.winner is None else game.winner.name
    started = START + timedelta(minutes=minutes)
    return FinishedGame(
        guild_id=guild_id,
        channel_id=channel_id,
        table_id=f"t{seed}",
        started_at=started,
        ended_at=started + timedelta(minutes=20),
        abandoned=abandon_after is not None,
        seats=seats,
        rules=game.rules,
        scores=tuple(game.scores),
        winner=winner,
        record=record,
        results=tuple(game.results) if with_results else None,
    )
