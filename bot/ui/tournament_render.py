"""How a tournament looks: the sign-up message (who is in, Join / Leave / Check in, the
countdown), the live standings (round, each table's state and score, the standings), the
podium, and the results as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import discord

from bot.events import duplicate, rounds, swiss
from bot.events.model import GameSlot, Tournament, duration
from bot.store.tournaments import PastTournament, PlayerRecord
from bot.ui.tournament_components import TournamentRef, tournament_button

COLOUR = 0x8E44AD
FORMAT_NAMES = {
    "elimination": "Single elimination",
    "swiss": "Swiss",
    "duplicate": "Duplicate",
}
MEDALS = ("🥇", "🥈", "🥉")
MAX_LINES = 24


def describe(t: Tournament) -> str:
    s = t.settings
    parts = [FORMAT_NAMES[s.format], f"preset **{s.preset}**"]
    if s.target is not None:
        parts.append(f"to {s.target}")
    if s.format == "elimination":
        parts.append(f"best of {s.best_of}")
    elif s.format == "duplicate":
        parts.append(f"{s.rounds} round(s) of {s.boards} board(s)")
    else:
        parts.append(f"{s.rounds} round(s)")
    parts.append(
        {"pairs": "partners sign up together", "draw": "partners drawn", "solo": "solo"}[
            s.team_mode
        ]
    )
    parts.append(f"turn timer {s.turn_timer}s" if s.turn_timer else "no turn timer")
    parts.append("rated" if s.rated else "unrated")
    if s.round_minutes:
        parts.append(f"{s.round_minutes} min a round")
    return " · ".join(parts)


def signup_payload(t: Tournament) -> dict[str, Any]:
    embed = discord.Embed(title=f"🏆 {t.name} — sign-up", colour=COLOUR, description=describe(t))
    start = int(t.starts_at)
    when = f"Starts <t:{start}:R> (<t:{start}:t>)"
    if t.settings.checkin_minutes:
        opens = int(t.starts_at - t.settings.checkin_minutes * 60)
        when += f"; check-in opens <t:{opens}:R>"
    embed.add_field(name="Start", value=when, inline=False)
    lines = []
    for e in list(t.entries.values())[:MAX_LINES]:
        mark = " ✅" if e.checked_in else ""
        alone = (
            " (looking for a partner)" if t.settings.team_size == 2 and len(e.members) == 1 else ""
        )
        lines.append(f"{e.id}. {e.name}{alone}{mark}")
    if len(t.entries) > MAX_LINES:
        lines.append(f"… and {len(t.entries) - MAX_LINES} more")
    embed.add_field(
        name=f"Signed up ({len(t.entries)})", value="\n".join(lines) or "Nobody yet.", inline=False
    )
    embed.set_footer(text=f"Organiser: see /tournament · id {t.id}")
    view = discord.ui.View(timeout=None)
    if t.status == "signup":
        view.add_item(
            tournament_button(TournamentRef(t.id, "join"), "Join", discord.ButtonStyle.success)
        )
        view.add_item(tournament_button(TournamentRef(t.id, "leave"), "Leave"))
        if t.settings.checkin_minutes:
            view.add_item(
                tournament_button(
                    TournamentRef(t.id, "checkin"), "Check in", discord.ButtonStyle.primary
                )
            )
    return {"embed": embed, "view": view}


def _game_line(t: Tournament, g: GameSlot, live: dict[str, tuple[int, ...]]) -> str:
    names = [t.entries[e].name if e in t.entries else f"#{e}" for e in g.entries]
    where = f" <#{g.thread_id}>" if g.thread_id else ""
    if g.status == "bye":
        return f"T{g.slot}: {names[0]} — bye"
    vs = " v ".join(names)
    game = f" (game {g.game_no})" if g.game_no > 1 else ""
    if g.status == "done":
        score = "–".join(str(s) for s in g.scores or ())
        winner = t.entries[g.winner].name if g.winner in t.entries else "draw"
        how = " (time)" if g.decided else ""
        return f"T{g.slot}{game}: {vs} — {score}, **{winner}**{how}"
    state = "playing" if g.status == "playing" else "being seated"
    scores = live.get(g.table_id) if g.table_id else None
    if scores is not None:
        state += ", " + "–".join(str(s) for s in scores)
    return f"T{g.slot}{game}: {vs} — {state}{where}"


def standings_lines(t: Tournament) -> list[str]:
    entries = [e.id for e in t.entries.values() if e.status not in ("dropped",)]
    if t.settings.format == "duplicate":
        return [
            f"{i}. {t.entries[e].name} — {mp} MP"
            for i, (e, mp) in enumerate(duplicate.standings(entries, t.games), start=1)
        ]
    if t.settings.format == "swiss":
        return [
            f"{i}. {t.entries[s.entry].name} — {s.points} pts (Bu {s.buchholz}, ±{s.difference})"
            for i, s in enumerate(swiss.standings(entries, t.games), start=1)
        ]
    alive = set()
    for slot, w in rounds.match_winners(t, t.round).items():
        games = rounds.matches(t, t.round)[slot]
        alive |= {w} if w is not None else {e for g in games for e in g.entries}
    return [f"• {t.entries[e].name}" for e in sorted(alive) if e in t.entries]


def standings_payload(
    t: Tournament, live: dict[str, tuple[int, ...]] | None = None
) -> dict[str, Any]:
    """The live standings: the round, each table's state (a table playing: its score as it
    stands, from ``live``, by table id) and the standings."""
    if t.status == "finished":
        return podium_payload(t)
    title = f"🏆 {t.name} — round {t.round} of {rounds.total_rounds(t)}"
    if t.status == "paused":
        title += " (paused)"
    if t.status == "cancelled":
        title = f"🏆 {t.name} — cancelled"
    embed = discord.Embed(title=title, colour=COLOUR, description=describe(t))
    if t.round_deadline and t.status == "running":
        embed.add_field(name="Round ends", value=f"<t:{int(t.round_deadline)}:R>", inline=False)
    if t.round_left is not None and t.status == "paused":
        embed.add_field(
            name="Round clock stopped", value=f"{duration(t.round_left)} left", inline=False
        )
    games = t.round_games()
    lines = [_game_line(t, g, live or {}) for g in games[:MAX_LINES]]
    embed.add_field(name=f"Round {t.round}", value="\n".join(lines)[:1024] or "—", inline=False)
    heading = "Still in" if t.settings.format == "elimination" else "Standings"
    st = standings_lines(t)[:MAX_LINES]
    embed.add_field(name=heading, value="\n".join(st)[:1024] or "—", inline=False)
    return {"embed": embed, "view": None}


def podium_payload(t: Tournament) -> dict[str, Any]:
    places = rounds.places(t)
    ranked = sorted(places.items(), key=lambda p: (p[1], p[0]))
    embed = discord.Embed(
        title=f"🏆 {t.name} — final results", colour=COLOUR, description=describe(t)
    )
    podium = []
    for e, place in ranked:
        if place <= 3:
            medal = MEDALS[place - 1]
            podium.append(f"{medal} {t.entries[e].name}")
    embed.add_field(name="Podium", value="\n".join(podium) or "—", inline=False)
    table = [f"{place}. {t.entries[e].name}" for e, place in ranked[:MAX_LINES]]
    embed.add_field(name="Places", value="\n".join(table)[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(tournament_button(TournamentRef(t.id, "csv"), "Results (CSV)", emoji="📄"))
    view.add_item(tournament_button(TournamentRef(t.id, "json"), "Results (JSON)", emoji="🧾"))
    return {"embed": embed, "view": view}


def results_document(t: Tournament) -> dict[str, Any]:
    """The results as one JSON document: settings, entries with places, every game."""
    places = rounds.places(t) if t.status == "finished" else {}
    return {
        "format": "spades-tournament/1",
        "name": t.name,
        "status": t.status,
        "settings": t.settings.to_record(),
        "entries": [
            {
                "entry": e.id,
                "name": e.name,
                "members": [m.user_id for m in e.members],
                "status": e.status,
                "place": places.get(e.id),
            }
            for e in t.entries.values()
        ],
        "games": [
            {
                "round": g.round,
                "table": g.slot,
                "game": g.game_no,
                "entries": list(g.entries),
                "status": g.status,
                "scores": list(g.scores) if g.scores is not None else None,
                "winner": g.winner,
                "decided_by_time": g.decided,
                "boards": [list(b) for b in g.boards],
                "table_id": g.table_id,
            }
            for g in t.games
        ],
    }


def results_json(t: Tournament) -> str:
    return json.dumps(results_document(t), indent=1, ensure_ascii=False)


def results_csv(t: Tournament) -> str:
    places = rounds.places(t) if t.status == "finished" else {}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["place", "entry", "name", "status", "games", "wins"])
    for e in sorted(t.entries.values(), key=lambda e: (places.get(e.id, 10**6), e.id)):
        mine = [g for g in t.games if e.id in g.entries and g.status == "done"]
        w.writerow(
            [
                places.get(e.id, ""),
                e.id,
                e.name,
                e.status,
                len(mine),
                sum(g.winner == e.id for g in mine),
            ]
        )
    return out.getvalue()


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def tournament_record(r: PlayerRecord) -> str:
    """``/stats``: tournaments played, won and the best finish."""
    best = ordinal(r.best) if r.best is not None else "—"
    return f"{r.played} played · {r.won} won · best finish {best}"


def tournament_history(past: list[PastTournament]) -> str:
    """``/history``: the member's latest tournaments, one line each."""
    lines = []
    for p in past:
        when = f"<t:{int(p.ended_at)}:d>" if p.ended_at else ""
        if p.status == "cancelled":
            how = "cancelled"
        elif p.place is not None:
            how = f"{MEDALS[p.place - 1] if p.place <= 3 else ''} {ordinal(p.place)} of {p.entries}"
        else:
            how = "did not finish"
        lines.append(f"**{p.name}** — {how.strip()} {when}".strip())
    return "\n".join(lines)[:1024]
