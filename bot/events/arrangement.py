"""How a tournament's game becomes a table: the rules every table plays, who sits where, a
duplicate round's shared deals, who may see a table and who may watch it.  Pure functions of
the stored tournament."""

from __future__ import annotations

from bot.engine import Rules, Seat
from bot.engine.games import entry_of
from bot.engine.shuffle import GameSeed
from bot.events.pairing.model import GameSlot, Tournament, TournamentSettings
from bot.i18n import Text, later
from bot.tables.arranged import ArrangedSeat
from bot.tables.defaults import default_rules
from bot.tables.options import TableOptions


def tournament_game(t: Tournament) -> str:
    return tournament_rules(t.settings).game


def tournament_rules(s: TournamentSettings) -> Rules:
    """The rules every table plays.  Duplicate rounds are a number of boards, not a target:
    their games get the highest target the game allows (and no mercy rule), so the boards,
    not the score, end them."""
    if s.format == "duplicate":
        rules = Rules.from_preset(s.preset)
        return Rules.from_preset(s.preset, target=entry_of(rules.game).targets[1])
    return default_rules(s.preset, **({"target": s.target} if s.target is not None else {}))


def round_key(t: Tournament, round_no: int) -> str:
    """The deal key of a duplicate round: every table of the round deals from it."""
    return t.derived(f"round:{round_no}").hex()


def round_seed_notice(t: Tournament) -> Text | None:
    """Once a duplicate round's last table has ended, its seed (the round's deal key) and
    commitment, so that every game of the round can be checked: no table shows the seed
    while another still plays the same boards (docs/verifiable-deals.md).  ``None`` for
    any other format."""
    if t.settings.format != "duplicate":
        return None
    seed = GameSeed.from_hex(round_key(t, t.round))
    return later(
        "🔓 Round {round} is over: its deals came from the seed `{seed}` (commitment "
        "`{commitment}`, shown as `{short}` at every table of the round). Check any game of "
        "the round with `/spades verify game:<table id>`.",
        round=t.round,
        seed=seed.reveal(),
        commitment=seed.commitment,
        short=seed.short_commitment,
    )


def duplicate_deals(t: Tournament, g: GameSlot) -> tuple[int | None, str | None]:
    """(hand limit, deal key) of a game's table: the boards of a duplicate round, else none."""
    if t.settings.format != "duplicate":
        return None, None
    return t.settings.boards, round_key(t, g.round)


def private_tables(t: Tournament) -> bool:
    """Do the tournament's tables play in private threads?  A duplicate round's do: every
    table deals the same boards, so nobody but a table's players (and the organiser, when
    not entered) may see one while the round is on."""
    return t.settings.format == "duplicate"


def thread_members(t: Tournament, g: GameSlot) -> tuple[list[int], list[int]]:
    """A private table thread's members for game ``g``: who must be in it (the game's
    players, and the organiser unless they are entered — then only at their own games),
    and who must leave it first (the players of earlier games in that thread who do not
    play this one: a table number's thread takes that table of every round)."""
    players = [m.user_id for e in g.entries if e in t.entries for m in t.entries[e].members]
    wanted = players if t.signed_up(t.organiser_id) else [*players, t.organiser_id]
    here = (g.round, g.slot, g.game_no)
    earlier = {
        m.user_id
        for x in t.games
        if x.thread_id == g.thread_id and (x.round, x.slot, x.game_no) != here
        for e in x.entries
        if e in t.entries
        for m in t.entries[e].members
    }
    return wanted, sorted(earlier - set(wanted))


def table_options(t: Tournament) -> TableOptions:
    """Who may watch the tournament's tables, and how far behind: the organiser's choice
    (``spectators``, ``spectator_delay`` in tricks).  Entrants of a duplicate tournament
    never watch (:func:`watch_refusal`)."""
    s = t.settings
    return TableOptions("public" if s.spectators else "off", False, s.spectator_delay)


def seating(t: Tournament, g: GameSlot) -> dict[Seat, ArrangedSeat]:
    """Who sits where: the first entry North–South, the second East–West (solo: one entry a
    seat, in order); a computer fills a computer team's seats and any missing member's."""
    rules = tournament_rules(t.settings)
    seat_groups: list[tuple[Seat, ...]]
    if t.settings.solo:
        seat_groups = [(s,) for s in rules.seats]
    else:
        seat_groups = [(Seat.N, Seat.S), (Seat.E, Seat.W)]
    out: dict[Seat, ArrangedSeat] = {}
    for entry_id, seats in zip(g.entries, seat_groups, strict=False):
        entry = t.entries[entry_id]
        for i, seat in enumerate(seats):
            if i < len(entry.members):
                m = entry.members[i]
                out[seat] = ArrangedSeat(m.user_id, m.name)
            else:
                out[seat] = ArrangedSeat(None, "Computer (normal)", "normal")
    return out
