"""How a tournament looks: the sign-up message (who is in, Join / Leave / Check in, the
countdown), the live standings (round, each table's state and score, the standings), the
podium, and the results as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import discord

from bot.events.pairing import duplicate, rounds, swiss
from bot.events.pairing.model import (
    NAME_MAX,
    EntryStatus,
    GameSlot,
    SlotStatus,
    Tournament,
    TournamentStatus,
    duration,
)
from bot.i18n import N_, _, ordinal
from bot.names import md_name
from bot.store.tournaments import PastTournament, PlayerRecord
from bot.ui.tournament.components import TournamentRef, tournament_button

COLOUR = 0x8E44AD
FORMAT_NAMES = {
    "elimination": N_("Single elimination"),
    "swiss": N_("Swiss"),
    "duplicate": N_("Duplicate"),
}
TEAM_MODES = {
    "pairs": N_("partners sign up together"),
    "draw": N_("partners drawn"),
    "solo": N_("solo"),
}
MEDALS = ("🥇", "🥈", "🥉")
MAX_LINES = 24


def describe(t: Tournament) -> str:
    s = t.settings
    parts = [_(FORMAT_NAMES[s.format]), _("preset **{preset}**", preset=s.preset)]
    if s.target is not None:
        parts.append(_("to {target}", target=s.target))
    if s.format == "elimination":
        parts.append(_("best of {n}", n=s.best_of))
    elif s.format == "duplicate":
        parts.append(_("{rounds} round(s) of {boards} board(s)", rounds=s.rounds, boards=s.boards))
    else:
        parts.append(_("{rounds} round(s)", rounds=s.rounds))
    parts.append(_(TEAM_MODES[s.team_mode]))
    parts.append(_("turn timer {s}s", s=s.turn_timer) if s.turn_timer else _("no turn timer"))
    parts.append(_("rated") if s.rated else _("unrated"))
    if s.round_minutes:
        parts.append(_("{n} min a round", n=s.round_minutes))
    if not s.spectators:
        parts.append(_("no spectators"))
    elif s.spectator_delay:
        parts.append(_("spectators {n} tricks behind", n=s.spectator_delay))
    else:
        parts.append(_("spectators live"))
    return " · ".join(parts)


def _fault(embed: discord.Embed, t: Tournament) -> None:
    """A tournament marked at the last start (bot/events/resumption.py): said first."""
    if t.fault is not None:
        embed.add_field(
            name="⚠",
            value=_(
                "I could not catch this tournament up after my last restart (the error is in "
                "my log); I keep trying."
            ),
            inline=False,
        )


def signup_payload(t: Tournament) -> dict[str, Any]:
    title = _("🏆 {name} — sign-up", name=t.md_name)
    embed = discord.Embed(title=title, colour=COLOUR, description=describe(t))
    _fault(embed, t)
    start = int(t.starts_at)
    when = _("Starts {when} ({time})", when=f"<t:{start}:R>", time=f"<t:{start}:t>")
    if t.settings.checkin_minutes:
        opens = int(t.starts_at - t.settings.checkin_minutes * 60)
        when += "; " + _("check-in opens {when}", when=f"<t:{opens}:R>")
    embed.add_field(name=_("Start"), value=when, inline=False)
    lines = []
    for e in list(t.entries.values())[:MAX_LINES]:
        mark = " ✅" if e.checked_in else ""
        looking = t.settings.team_size == 2 and len(e.members) == 1
        alone = " " + _("(looking for a partner)") if looking else ""
        lines.append(f"{e.id}. {e.md_name}{alone}{mark}")
    if len(t.entries) > MAX_LINES:
        lines.append(_("… and {n} more", n=len(t.entries) - MAX_LINES))
    embed.add_field(
        name=_("Signed up ({n})", n=len(t.entries)),
        value="\n".join(lines) or _("Nobody yet."),
        inline=False,
    )
    embed.set_footer(text=_("Organiser: see /tournament · id {id}", id=t.id))
    view = discord.ui.View(timeout=None)
    if t.status == TournamentStatus.SIGNUP:
        view.add_item(
            tournament_button(TournamentRef(t.id, "join"), _("Join"), discord.ButtonStyle.success)
        )
        view.add_item(tournament_button(TournamentRef(t.id, "leave"), _("Leave")))
        if t.settings.checkin_minutes:
            view.add_item(
                tournament_button(
                    TournamentRef(t.id, "checkin"), _("Check in"), discord.ButtonStyle.primary
                )
            )
    return {"embed": embed, "view": view}


def _game_line(
    t: Tournament, g: GameSlot, live: dict[str, tuple[int, ...]], shown: bool = True
) -> str:
    """A game of the round: its state, and (``shown``) its score."""
    names = [t.entries[e].md_name if e in t.entries else f"#{e}" for e in g.entries]
    where = f" <#{g.thread_id}>" if g.thread_id else ""
    if g.status == SlotStatus.BYE:
        return f"T{g.slot}: {names[0]} — " + _("bye")
    vs = " v ".join(names)
    game = " " + _("(game {n})", n=g.game_no) if g.game_no > 1 else ""
    if g.status == SlotStatus.DONE and not shown:  # a duplicate round still on
        return f"T{g.slot}{game}: {vs} — " + _("finished (results when the round is over)")
    if g.status == SlotStatus.DONE:
        score = "–".join(str(s) for s in g.scores or ())
        winner = t.entries[g.winner].md_name if g.winner in t.entries else _("draw")
        how = " " + _("(time)") if g.decided else ""
        return f"T{g.slot}{game}: {vs} — {score}, **{winner}**{how}"
    state = _("playing") if g.status == SlotStatus.PLAYING else _("being seated")
    scores = live.get(g.table_id) if g.table_id else None
    if scores is not None:
        state += ", " + "–".join(str(s) for s in scores)
    return f"T{g.slot}{game}: {vs} — {state}{where}"


def standings_lines(t: Tournament) -> list[str]:
    entries = [e.id for e in t.entries.values() if e.status != EntryStatus.DROPPED]
    if t.settings.format == "duplicate":  # the rounds that are over
        return [
            f"{i}. {t.entries[e].md_name} — " + _("{mp} MP", mp=mp)
            for i, (e, mp) in enumerate(
                duplicate.standings(entries, rounds.shown_games(t)), start=1
            )
        ]
    if t.settings.format == "swiss":
        return [
            f"{i}. {t.entries[s.entry].md_name} — "
            + _(
                "{points} pts (Bu {buchholz}, ±{difference})",
                points=s.points,
                buchholz=s.buchholz,
                difference=s.difference,
            )
            for i, s in enumerate(swiss.standings(entries, t.games), start=1)
        ]
    alive = set()
    for slot, w in rounds.match_winners(t, t.round).items():
        games = rounds.matches(t, t.round)[slot]
        alive |= {w} if w is not None else {e for g in games for e in g.entries}
    return [f"• {t.entries[e].md_name}" for e in sorted(alive) if e in t.entries]


def standings_payload(
    t: Tournament, live: dict[str, tuple[int, ...]] | None = None
) -> dict[str, Any]:
    """The live standings: the round, each table's state (a table playing: its score as it
    stands, from ``live``, by table id) and the standings."""
    if t.status == TournamentStatus.FINISHED:
        return podium_payload(t)
    title = _(
        "🏆 {name} — round {round} of {rounds}",
        name=t.md_name,
        round=t.round,
        rounds=rounds.total_rounds(t),
    )
    if t.status == TournamentStatus.PAUSED:
        title += " " + _("(paused)")
    if t.status == TournamentStatus.CANCELLED:
        title = _("🏆 {name} — cancelled", name=t.md_name)
    embed = discord.Embed(title=title, colour=COLOUR, description=describe(t))
    _fault(embed, t)
    if t.round_deadline and t.status == TournamentStatus.RUNNING:
        ends = f"<t:{int(t.round_deadline)}:R>"
        embed.add_field(name=_("Round ends"), value=ends, inline=False)
    if t.round_left is not None and t.status == TournamentStatus.PAUSED:
        embed.add_field(
            name=_("Round clock stopped"),
            value=_("{left} left", left=duration(t.round_left)),
            inline=False,
        )
    games = t.round_games()
    shown = set(map(id, rounds.shown_games(t)))
    lines = [_game_line(t, g, live or {}, id(g) in shown) for g in games[:MAX_LINES]]
    embed.add_field(
        name=_("Round {n}", n=t.round), value="\n".join(lines)[:1024] or "—", inline=False
    )
    heading = _("Still in") if t.settings.format == "elimination" else _("Standings")
    st = standings_lines(t)[:MAX_LINES]
    embed.add_field(name=heading, value="\n".join(st)[:1024] or "—", inline=False)
    return {"embed": embed, "view": None}


def podium_payload(t: Tournament) -> dict[str, Any]:
    places = rounds.places(t)
    ranked = sorted(places.items(), key=lambda p: (p[1], p[0]))
    embed = discord.Embed(
        title=_("🏆 {name} — final results", name=t.md_name), colour=COLOUR, description=describe(t)
    )
    podium = []
    for e, place in ranked:
        if place <= 3:
            medal = MEDALS[place - 1]
            podium.append(f"{medal} {t.entries[e].md_name}")
    embed.add_field(name=_("Podium"), value="\n".join(podium) or "—", inline=False)
    table = [f"{place}. {t.entries[e].md_name}" for e, place in ranked[:MAX_LINES]]
    embed.add_field(name=_("Places"), value="\n".join(table)[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    csv_ref, json_ref = TournamentRef(t.id, "csv"), TournamentRef(t.id, "json")
    view.add_item(tournament_button(csv_ref, _("Results (CSV)"), emoji="📄"))
    view.add_item(tournament_button(json_ref, _("Results (JSON)"), emoji="🧾"))
    return {"embed": embed, "view": view}


def results_document(t: Tournament) -> dict[str, Any]:
    """The results as one JSON document: settings, entries with places, every game."""
    places = rounds.places(t) if t.status == TournamentStatus.FINISHED else {}
    return {
        "format": "spades-tournament/1",
        "name": t.plain_name,
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
            for g in rounds.shown_games(t)
        ],
    }


def results_json(t: Tournament) -> str:
    return json.dumps(results_document(t), indent=1, ensure_ascii=False)


# A cell a spreadsheet would read as a formula starts with one of these (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """``value`` for a CSV cell: text that a spreadsheet would run as a formula (a member
    named ``=HYPERLINK(…)``) is kept as text by a leading ``'``, as OWASP recommends."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def results_csv(t: Tournament) -> str:
    places = rounds.places(t) if t.status == TournamentStatus.FINISHED else {}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["place", "entry", "name", "status", "games", "wins"])
    for e in sorted(t.entries.values(), key=lambda e: (places.get(e.id, 10**6), e.id)):
        mine = [
            g for g in rounds.shown_games(t) if e.id in g.entries and g.status == SlotStatus.DONE
        ]
        row = [
            places.get(e.id, ""),
            e.id,
            e.name,
            e.status,
            len(mine),
            sum(g.winner == e.id for g in mine),
        ]
        w.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def tournament_record(r: PlayerRecord) -> str:
    """``/stats``: tournaments played, won and the best finish."""
    best = ordinal(r.best) if r.best is not None else "—"
    return _(
        "{played} played · {won} won · best finish {best}",
        played=r.played,
        won=r.won,
        best=best,
    )


def tournament_history(past: list[PastTournament]) -> str:
    """``/history``: the member's latest tournaments, one line each."""
    lines = []
    for p in past:
        when = f"<t:{int(p.ended_at)}:d>" if p.ended_at else ""
        if p.status == TournamentStatus.CANCELLED:
            how = _("cancelled")
        elif p.place is not None:
            medal = MEDALS[p.place - 1] if p.place <= 3 else ""
            how = medal + " " + _("{place} of {n}", place=ordinal(p.place), n=p.entries)
        else:
            how = _("did not finish")
        lines.append(f"**{md_name(p.name, limit=NAME_MAX)}** — {how.strip()} {when}".strip())
    return "\n".join(lines)[:1024]
