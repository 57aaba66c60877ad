"""``/tournament …``: an organiser runs a game night; members sign up and play."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal
from bot.events.arrangement import tournament_rules
from bot.events.controls import OrganiserControls, ensure_may_open
from bot.events.pairing import model
from bot.events.pairing.model import (
    Member,
    NewTournament,
    Tournament,
    TournamentSettings,
    TournamentStatus,
)
from bot.events.service import TournamentService
from bot.events.signup import SignUp
from bot.i18n import N_, _
from bot.names import clean_name
from bot.tables.new_table import check_preset
from bot.ui.tournament import render
from bot.ui.tournament.components import (
    INVITATION_ROUTE,
    TOURNAMENT_ROUTE,
    InvitationRef,
    TournamentRef,
)
from cogs.choices import preset_autocomplete
from cogs.common import Interaction, channel_id, client, is_admin, reply, server_id

if TYPE_CHECKING:
    from bot.app import SpadesBot

T = TypeVar("T", bound=str)

FORMATS = [
    app_commands.Choice(name="Swiss rounds", value="swiss"),
    app_commands.Choice(name="Single elimination (knock-out)", value="elimination"),
    app_commands.Choice(name="Duplicate rounds (same deals at every table)", value="duplicate"),
]
TEAM_MODES = [
    app_commands.Choice(name="Partners sign up together (alone: drawn)", value="pairs"),
    app_commands.Choice(name="Partners drawn at random", value="draw"),
]
ODD = [
    app_commands.Choice(name="a bye", value="bye"),
    app_commands.Choice(name="a computer team", value="computer"),
]


async def may_organise(interaction: Interaction) -> bool:
    """Manage Server, or the role the server's admins named (``/spades-admin tournaments``):
    they may open tournaments and run any of the server's (the one who opened a tournament
    runs it too, see :func:`bot.events.controls.ensure_organiser`)."""
    if is_admin(interaction):
        return True
    role = await organiser_role(interaction)
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None


async def organiser_role(interaction: Interaction) -> int | None:
    settings = await client(interaction).league.settings.get(server_id(interaction))
    return settings.organiser_role


def one_of(value: str, allowed: tuple[T, ...], what: str) -> T:
    """``value`` as the one of ``allowed`` it names (a choice's value, checked again here)."""
    for option in allowed:
        if option == value:
            return option
    raise Refusal(
        _("There is no {what} {value}: pick one from the list.", what=_(what), value=repr(value))
    )


def signup(interaction: Interaction) -> SignUp:
    """Sign-up for the member asking, whose joins and leaves are limited (bot.cooldowns)."""
    return SignUp(service(interaction), client(interaction).cooldowns)


def sent_at(interaction: Interaction) -> float:
    """When Discord made the interaction (its clock: limits and expiries are read on it)."""
    return interaction.created_at.timestamp()


def service(interaction: Interaction) -> TournamentService:
    s = client(interaction).tournaments
    if s is None:
        raise Refusal(_("Tournaments are not available right now."))
    return s


def member_of(user: discord.abc.User) -> Member:
    """A member as a tournament keeps them: their display name cleaned (one line, no bidi or
    control characters; escaped wherever it reaches markdown)."""
    return Member(user.id, clean_name(getattr(user, "display_name", None) or "", user.name))


def real_member(user: discord.abc.User | None, what: str) -> Member | None:
    """A partner or substitute: a member of this server, not a bot."""
    if user is None:
        return None
    if not isinstance(user, discord.Member):
        raise Refusal(_("The {what} must be a member of this server.", what=_(what)))
    if user.bot:
        raise Refusal(_("The {what} must be a person, not a bot.", what=_(what)))
    return member_of(user)


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(
        name="tournament", description="Run or play in a tournament", guild_only=True
    )

    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        bot.clicks.on([TOURNAMENT_ROUTE], self.on_component)
        bot.clicks.on([INVITATION_ROUTE], self.on_invitation)

    def _find(self, interaction: Interaction, name: str | None) -> Tournament:
        return service(interaction).running(server_id(interaction), name)

    def _controls(self, interaction: Interaction) -> OrganiserControls:
        return OrganiserControls(service(interaction))

    # ------------------------------------------------------------------ organiser
    @tournament.command(name="new")
    @app_commands.describe(
        name="The tournament's name",
        preset="The rules every table plays",
        format="How entries are paired",
        team_mode="How partnerships form (solo presets: everyone alone)",
        rounds="Swiss and duplicate: number of rounds",
        best_of="Knock-out: games per match (odd)",
        boards="Duplicate: hands per round",
        target="Points to win a game (default: the preset's)",
        turn_timer="Seconds each player has to act (0 = none)",
        rated="Rate the games in the league",
        odd="An odd number of teams: a bye or a computer team",
        start_in="Minutes until the start",
        round_minutes="Minutes a round may last (0 = no deadline)",
        checkin_minutes="Check-in window before the start, in minutes (0 = none)",
        spectators="Members not entered may watch the tables (default: on; duplicate: off)",
        spectator_delay="Spectators see each game this many tricks behind (0 = live)",
    )
    @app_commands.choices(format=FORMATS, team_mode=TEAM_MODES, odd=ODD)
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def new(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        preset: str = "standard",
        format: str = "swiss",
        team_mode: str = "pairs",
        rounds: app_commands.Range[int, 1, 12] = 3,
        best_of: app_commands.Range[int, 1, 7] = 1,
        boards: app_commands.Range[int, 1, 16] = 4,
        target: app_commands.Range[int, 1, 1000] | None = None,
        turn_timer: app_commands.Range[int, 0, 3600] = 60,
        rated: bool = True,
        odd: str = "bye",
        start_in: app_commands.Range[int, 0, 10080] = 15,
        round_minutes: app_commands.Range[int, 0, 1440] = 0,
        checkin_minutes: app_commands.Range[int, 0, 120] = 0,
        spectators: bool | None = None,
        spectator_delay: app_commands.Range[int, 0, 52] = 0,
    ) -> None:
        """Open a tournament in this channel: sign-up, then rounds that run themselves."""
        gid = server_id(interaction)
        ensure_may_open(await may_organise(interaction), await organiser_role(interaction))
        if isinstance(interaction.channel, discord.Thread):
            raise Refusal(_("Open a tournament in a text channel: its tables get threads there."))
        check_preset(preset)
        rules = tournament_rules(TournamentSettings(preset=preset, target=target))
        settings = TournamentSettings(
            preset=preset,
            target=target,
            format=one_of(format, model.FORMATS, N_("format")),
            team_mode="solo"
            if rules.solo
            else one_of(team_mode, model.TEAM_MODES, N_("team mode")),
            rounds=rounds,
            best_of=best_of,
            boards=boards,
            turn_timer=turn_timer,
            rated=rated,
            odd=one_of(odd, model.ODD_ENTRIES, N_("odd entry")),
            round_minutes=round_minutes,
            checkin_minutes=checkin_minutes,
            players=rules.players,
            solo=rules.solo,
            spectators=format != "duplicate" if spectators is None else spectators,
            spectator_delay=spectator_delay,
        )
        new = NewTournament(
            guild_id=gid,
            channel_id=channel_id(interaction),
            organiser_id=interaction.user.id,
            name=name,
            settings=settings,
            starts_at=time.time() + start_in * 60,
        )
        t = await SignUp(service(interaction)).create(new)
        await reply(
            interaction,
            _(
                "**{name}** is open for sign-up (starts {when}). "
                "`/tournament start` starts it early.",
                name=t.md_name,
                when=f"<t:{int(t.starts_at)}:R>",
            ),
        )

    @tournament.command(name="start")
    @app_commands.describe(name="Which tournament (default: the only one)", reason="Posted with it")
    async def start(
        self, interaction: Interaction, name: str | None = None, reason: str | None = None
    ) -> None:
        """Organiser: close sign-up and seat round 1 now."""
        t = self._find(interaction, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self._controls(interaction).start_early(
            t, interaction.user.id, await may_organise(interaction), reason
        )
        await reply(interaction, text)

    @tournament.command(name="pause")
    @app_commands.describe(name="Which tournament", reason="Posted with it")
    async def pause(
        self, interaction: Interaction, name: str | None = None, reason: str | None = None
    ) -> None:
        """Organiser: pause (no new round is seated), or go on when paused."""
        t = self._find(interaction, name)
        c = self._controls(interaction)
        uid, admin = interaction.user.id, await may_organise(interaction)
        if t.status == TournamentStatus.PAUSED:
            await reply(interaction, await c.go_on(t, uid, admin, reason))
        else:
            await reply(interaction, await c.pause(t, uid, admin, reason))

    @tournament.command(name="extend")
    @app_commands.describe(
        minutes="Minutes to add to this round", name="Which tournament", reason="Posted with it"
    )
    async def extend(
        self,
        interaction: Interaction,
        minutes: app_commands.Range[int, 1, 240],
        name: str | None = None,
        reason: str | None = None,
    ) -> None:
        """Organiser: give the current round more time."""
        t = self._find(interaction, name)
        text = await self._controls(interaction).extend(
            t, interaction.user.id, await may_organise(interaction), minutes, reason
        )
        await reply(interaction, text)

    @tournament.command(name="replace")
    @app_commands.describe(
        member="The member to replace",
        substitute="Who takes their place (default: a computer player)",
        name="Which tournament",
        reason="Posted with it",
    )
    async def replace(
        self,
        interaction: Interaction,
        member: discord.User,
        substitute: discord.User | None = None,
        name: str | None = None,
        reason: str | None = None,
    ) -> None:
        """Organiser: a substitute or a computer plays for a member (a no-show)."""
        t = self._find(interaction, name)
        sub = real_member(substitute, N_("substitute"))
        text = await self._controls(interaction).replace(
            t, interaction.user.id, await may_organise(interaction), member.id, sub, reason
        )
        await reply(interaction, text)

    @tournament.command(name="disqualify")
    @app_commands.describe(
        member="A member of the team to disqualify",
        name="Which tournament",
        reason="Posted with it",
    )
    async def disqualify(
        self,
        interaction: Interaction,
        member: discord.User,
        name: str | None = None,
        reason: str | None = None,
    ) -> None:
        """Organiser: a team is out (its game in play is lost)."""
        t = self._find(interaction, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self._controls(interaction).disqualify(
            t, interaction.user.id, await may_organise(interaction), member.id, reason
        )
        await reply(interaction, text)

    @tournament.command(name="cancel")
    @app_commands.describe(name="Which tournament", reason="Posted with it")
    async def cancel(
        self, interaction: Interaction, name: str | None = None, reason: str | None = None
    ) -> None:
        """Organiser: end the tournament now."""
        t = self._find(interaction, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self._controls(interaction).cancel(
            t, interaction.user.id, await may_organise(interaction), reason
        )
        await reply(interaction, text)

    # ------------------------------------------------------------------ members
    @tournament.command(name="join")
    @app_commands.describe(
        partner="Your partner (asked to accept; you sign up together)", name="Which tournament"
    )
    async def join(
        self, interaction: Interaction, partner: discord.User | None = None, name: str | None = None
    ) -> None:
        """Sign up (with a partner, who accepts first, or alone to be drawn)."""
        t = self._find(interaction, name)
        mate = real_member(partner, N_("partner"))
        text = await signup(interaction).join(
            t, member_of(interaction.user), mate, now=sent_at(interaction)
        )
        await reply(interaction, text)

    @tournament.command(name="leave")
    @app_commands.describe(name="Which tournament")
    async def leave(self, interaction: Interaction, name: str | None = None) -> None:
        """Withdraw before the start."""
        t = self._find(interaction, name)
        text = await signup(interaction).leave(t, interaction.user.id, now=sent_at(interaction))
        await reply(interaction, text)

    @tournament.command(name="results")
    @app_commands.describe(name="The tournament's name (default: the one running)")
    async def results(self, interaction: Interaction, name: str | None = None) -> None:
        """A tournament's standings or final results, with CSV and JSON."""
        t = await service(interaction).named(server_id(interaction), name)
        payload = (
            render.signup_payload(t)
            if t.status == TournamentStatus.SIGNUP
            else render.standings_payload(t)
        )
        await interaction.response.send_message(
            ephemeral=True, **{k: v for k, v in payload.items() if v is not None}
        )

    @results.autocomplete("name")
    async def results_names(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = await service(interaction).store.names(server_id(interaction), current)
        return [
            app_commands.Choice(name=clean_name(n, "?", limit=model.NAME_MAX), value=n)
            for n in names
        ]

    # ------------------------------------------------------------------ buttons
    async def on_component(
        self, interaction: Interaction, ref: TournamentRef, values: list[str]
    ) -> None:
        s = service(interaction)
        if ref.verb in ("csv", "json"):
            t = await s.of_server(server_id(interaction), ref.tournament_id)
            text = render.results_csv(t) if ref.verb == "csv" else render.results_json(t)
            file = discord.File(io.BytesIO(text.encode()), filename=f"tournament-{t.id}.{ref.verb}")
            await interaction.response.send_message(
                _("Results of {name}:", name=t.md_name), file=file, ephemeral=True
            )
            return
        t = s.get(ref.tournament_id)
        now = sent_at(interaction)
        if ref.verb == "join":
            text = await signup(interaction).join(t, member_of(interaction.user), now=now)
        elif ref.verb == "leave":
            text = await signup(interaction).leave(t, interaction.user.id, now=now)
        else:
            text = await signup(interaction).check_in(t, interaction.user.id)
        await reply(interaction, text)

    async def on_invitation(
        self, interaction: Interaction, ref: InvitationRef, values: list[str]
    ) -> None:
        """**Accept** / **Decline** of a partner invitation: only the partner's click counts
        (anyone else is refused, alone)."""
        t = service(interaction).get(ref.tournament_id)
        if t.guild_id != server_id(interaction):
            raise Refusal(_("That tournament is gone."))
        text = await signup(interaction).answer(
            t, interaction.user.id, ref.inviter_id, ref.accept, now=sent_at(interaction)
        )
        await reply(interaction, text)


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(TournamentCog(bot))
