"""``/leaderboard``, ``/stats``, ``/history`` and ``/spades-admin``: the server league."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import cooldowns
from bot.command_input import whole_number
from bot.engine.games import DEFAULT_GAME, entries, preset_names
from bot.errors import Refusal
from bot.i18n import LANGUAGE_NAMES, SERVER_LANGUAGES, _, _n, listed, use
from bot.league.chart import ChartCache, chart_points, render_rating_chart_async
from bot.league.models import LeaderboardSort
from bot.names import clean_name, md_name
from bot.review.access import Purpose, open_game
from bot.ui.league import render as lr
from bot.ui.league.components import LEAGUE_ROUTE, LeagueRef
from bot.ui.text.card_emojis import CARD_EMOJIS
from bot.ui.tournament.render import tournament_history, tournament_record
from cogs.common import (
    SERVER_CONTEXTS,
    SERVER_INSTALLS,
    Interaction,
    anywhere,
    client,
    find_league_scope,
    is_admin,
    league_scope,
    server_id,
    take_cooldowns,
)

if TYPE_CHECKING:
    from bot.app import SpadesBot

SORT_CHOICES = [
    app_commands.Choice(name=label, value=value) for value, label in lr.SORT_LABELS.items()
]
PRESET_CHOICES = [app_commands.Choice(name=p, value=p) for p in preset_names()]
GAME_CHOICES = [app_commands.Choice(name=e.title, value=str(e.kind)) for e in entries()]
COLOUR_CHOICES = [
    app_commands.Choice(name="two colours (black and red)", value="two"),
    app_commands.Choice(name="four colours (♠ black, ♥ red, ♦ blue, ♣ green)", value="four"),
]

LANGUAGE_CHOICES = [
    app_commands.Choice(name="the server's language in Discord", value="server"),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
]


class LeagueCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.league = bot.league
        self.charts = ChartCache()  # the last chart of each member, season and game
        bot.clicks.on([LEAGUE_ROUTE], self.on_component)

    async def _season_name(self, gid: int, season: int) -> str:
        for s in await self.league.settings.seasons(gid):
            if s.number == season:
                return lr.season_title(s.name, s.number)
        return _("Season {number}", number=season)

    async def _season_number(self, gid: int, season: int | None) -> int | None:
        if season is None:
            return None
        if not any(s.number == season for s in await self.league.settings.seasons(gid)):
            raise Refusal(_("There is no season {number} here.", number=season))
        return season

    # ------------------------------------------------------------------ leaderboard
    @app_commands.command(name="leaderboard", extras={"public": True})
    @anywhere
    @app_commands.describe(
        season="Which season (default: the current one)",
        sort="Order",
        game="Which game's standings (default: Spades)",
    )
    @app_commands.choices(sort=SORT_CHOICES, game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        season: app_commands.Range[int, 1, 100_000] | None = None,
        sort: str = "rating",
        game: str = DEFAULT_GAME,
    ) -> None:
        """This server's (or this group's) standings, one game at a time."""
        gid = league_scope(interaction).key
        number = await self._season_number(gid, season)
        ref = LeagueRef("players", interaction.user.id, 0, number or 0, sort, 0, _game(game))
        with use(SERVER_LANGUAGES.of(gid, interaction.guild_locale)):  # a public board
            embed, view = await self._board(gid, ref)
        await interaction.response.send_message(embed=embed, view=view)

    @leaderboard.autocomplete("season")
    async def season_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        scope = find_league_scope(interaction)
        if scope is None:
            return []
        out = []
        for s in reversed(await self.league.settings.seasons(scope.key)):
            title = lr.season_title(s.name, s.number)
            label = _("{season} (current)", season=title) if s.current else title
            if current.lower() in label.lower() or current == str(s.number):
                out.append(app_commands.Choice(name=label[:100], value=s.number))
        return out[:25]

    async def _board(self, gid: int, ref: LeagueRef) -> tuple[discord.Embed, discord.ui.View]:
        season = ref.season or None
        if ref.view == "pairs":
            pairs = await self.league.standings.partnerships(gid, season, ref.page, ref.game)
            name = await self._season_name(gid, pairs.season)
            return lr.partnerships_embed(pairs, name), lr.paging(
                ref, pairs.page, None, pairs.has_next
            )
        page = await self.league.standings.leaderboard(
            gid, season, LeaderboardSort.parse(ref.sort), ref.page, ref.viewer, ref.game
        )
        name = await self._season_name(gid, page.season)
        return lr.leaderboard_embed(page, name, ref.viewer), lr.paging(
            ref, page.page, page.pages, False
        )

    # ------------------------------------------------------------------ stats
    @app_commands.command(name="stats", extras={"public": True})
    @anywhere
    @app_commands.describe(
        member="Whose record (default: yours)", game="Which game (default: Spades)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: Interaction,
        member: discord.Member | discord.User | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        """A player's record in this server (or group), with a chart of their rating."""
        scope = league_scope(interaction)
        gid = scope.key
        who = member or interaction.user
        game = _game(game)
        s = await self.league.standings.stats(gid, who.id, game=game)
        if s is None:
            raise Refusal(
                _(
                    "{name} has no {game} games {here} this season.",
                    # a member Discord did not resolve arrives as a bare object: name by mention
                    name=md_name(getattr(who, "display_name", None) or f"<@{who.id}>"),
                    game=lr.game_name(game),
                    here=_(scope.here),
                )
            )
        history = await self.league.standings.rating_history(gid, who.id, s.season, game)
        points = chart_points(history)
        title = _(
            "{name} — {game} rating over rated games",
            name=clean_name(s.display_name),
            game=lr.game_name(game),
        )
        key = (gid, who.id, s.season, game)
        png = self.charts.get(key, points, title)
        if png is None:  # a new chart to draw: counted, and refused before anything is shown
            take_cooldowns(interaction, cooldowns.chart(gid, interaction.user.id))
        await interaction.response.defer()
        name = await self._season_name(gid, s.season)
        embed = lr.stats_embed(s, name)
        events = client(interaction).tournaments
        if events is not None:  # issue 25: tournaments played, won, best finish
            record = await events.store.record_of(gid, who.id)
            if record.played:
                embed.add_field(
                    name=_("Tournaments"), value=tournament_record(record), inline=False
                )
        if png is None:
            png = await render_rating_chart_async(points, title)
            self.charts.put(key, points, title, png)
        embed.set_image(url="attachment://rating.png")
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(png), filename="rating.png")
        )

    # ------------------------------------------------------------------ history
    @app_commands.command(name="history", extras={"public": True})
    @anywhere
    @app_commands.describe(member="Whose games (default: yours)")
    async def history(
        self, interaction: Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        """Recent games; pick one to get its replayable record file."""
        gid = league_scope(interaction).key
        who = member or interaction.user
        ref = LeagueRef("hist", interaction.user.id, who.id, 0, "rating", 0)
        h = await self.league.history.games(gid, who.id, 0)
        with use(SERVER_LANGUAGES.of(gid, interaction.guild_locale)):  # a public board
            embed = lr.history_embed(h, f"<@{who.id}>")  # an unresolved member: a bare Object
        events = client(interaction).tournaments
        if events is not None:  # issue 25: their tournaments, newest first
            past = await events.store.history_of(gid, who.id, limit=5)
            if past:
                embed.add_field(name=_("Tournaments"), value=tournament_history(past), inline=False)
        with use(SERVER_LANGUAGES.of(gid, interaction.guild_locale)):
            view = lr.history_view(ref, h)
        await interaction.response.send_message(embed=embed, view=view)

    # ------------------------------------------------------------------ paging
    async def on_component(
        self, interaction: Interaction, ref: LeagueRef, values: list[str]
    ) -> None:
        gid = league_scope(interaction).key
        if interaction.user.id != ref.viewer:
            raise Refusal(
                _("Only the member who asked can page through this. Use the command yourself.")
            )
        if ref.view == "pick":
            await self._export(interaction, gid, values)
            return
        public = use(SERVER_LANGUAGES.of(gid, interaction.guild_locale))  # the board's language
        if ref.view == "hist":
            h = await self.league.history.games(gid, ref.subject, ref.page)
            with public:
                embed = lr.history_embed(h, f"<@{ref.subject}>")
                view = lr.history_view(ref.to(page=h.page), h)
            await interaction.response.edit_message(embed=embed, view=view)
            return
        with public:
            embed, view = await self._board(gid, ref)
        await interaction.response.edit_message(embed=embed, view=view)

    async def _export(self, interaction: Interaction, gid: int, values: list[str]) -> None:
        game_id = whole_number(values[0]) if values else None
        if game_id is None:
            raise Refusal(_("Pick a game from the list."))
        uid = interaction.user.id
        game = await open_game(
            self.league.history, client(interaction).review_store, gid, game_id, uid, Purpose.RECORD
        )
        data = json.dumps(game.doc, indent=1, ensure_ascii=False).encode()
        await interaction.response.send_message(
            _(
                "Game #{id}: replay it with `python -m bot.engine replay {file}`.",
                id=game_id,
                file=f"spades-game-{game_id}.json",
            ),
            file=discord.File(io.BytesIO(data), filename=f"spades-game-{game_id}.json"),
            ephemeral=True,
        )

    # ------------------------------------------------------------------ admin
    admin = app_commands.Group(
        name="spades-admin",
        description="Server settings and seasons of Spades (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
        allowed_contexts=SERVER_CONTEXTS,  # a server that added the bot: never a user install
        allowed_installs=SERVER_INSTALLS,
    )

    def _check_admin(self, interaction: Interaction) -> int:
        gid = server_id(interaction)
        if not is_admin(interaction):
            raise Refusal(_("You need the Manage Server permission for this."))
        return gid

    async def _apply(self, interaction: Interaction, **changes: Any) -> None:
        gid = self._check_admin(interaction)
        if not changes:
            raise Refusal(_("Give at least one setting to change."))
        settings = await self.league.settings.update(gid, **changes)
        await interaction.response.send_message(embed=settings_embed(settings), ephemeral=True)

    @admin.command(name="show")
    async def show(self, interaction: Interaction) -> None:
        """Show this server's Spades settings."""
        gid = self._check_admin(interaction)
        settings = await self.league.settings.get(gid)
        await interaction.response.send_message(embed=settings_embed(settings), ephemeral=True)

    @admin.command(name="defaults")
    @app_commands.describe(
        preset="Rules of new tables",
        target="Points to win (0 = the preset's)",
        turn_timer="Seconds per turn (0 = off, else 10-3600)",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def defaults(
        self,
        interaction: Interaction,
        preset: str | None = None,
        target: app_commands.Range[int, 0, 1000] | None = None,
        turn_timer: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:
        """Set the defaults of new tables."""
        changes: dict[str, Any] = {}
        if preset is not None:
            changes["preset"] = preset
        if target is not None:
            changes["target"] = None if target == 0 else target
        if turn_timer is not None:
            changes["turn_timer"] = turn_timer
        await self._apply(interaction, **changes)

    @admin.command(name="channel-allow")
    @app_commands.describe(channel="A channel where tables may be opened")
    async def channel_allow(self, interaction: Interaction, channel: discord.TextChannel) -> None:
        """Allow tables in a channel (once any is listed, only listed channels allow tables)."""
        gid = self._check_admin(interaction)
        current = await self.league.settings.get(gid)
        await self._apply(interaction, allowed_channels=current.allowed_channels | {channel.id})

    @admin.command(name="channel-remove")
    @app_commands.describe(channel="The channel to remove from the list")
    async def channel_remove(self, interaction: Interaction, channel: discord.TextChannel) -> None:
        """Remove a channel from the allowed list (an empty list allows every channel)."""
        gid = self._check_admin(interaction)
        current = await self.league.settings.get(gid)
        await self._apply(interaction, allowed_channels=current.allowed_channels - {channel.id})

    @admin.command(name="ranking")
    @app_commands.describe(
        min_games="Rated games needed to appear on the leaderboard (0-1000)",
        rate_bot_games="Rate games that had computer players",
    )
    async def ranking(
        self,
        interaction: Interaction,
        min_games: app_commands.Range[int, 0, 1000] | None = None,
        rate_bot_games: bool | None = None,
    ) -> None:
        """How players are ranked."""
        changes: dict[str, Any] = {}
        if min_games is not None:
            changes["min_games"] = min_games
        if rate_bot_games is not None:
            changes["rate_bot_games"] = rate_bot_games
        await self._apply(interaction, **changes)

    @admin.command(name="tournaments")
    @app_commands.describe(
        organiser_role="Members with this role may open and run tournaments",
        clear="Remove the organiser role (then only Manage Server)",
    )
    async def tournaments(
        self,
        interaction: Interaction,
        organiser_role: discord.Role | None = None,
        clear: bool = False,
    ) -> None:
        """Who may open and run tournaments besides Manage Server."""
        if organiser_role is not None and clear:
            raise Refusal(_("Give a role or `clear`, not both."))
        if organiser_role is None and not clear:
            raise Refusal(_("Give the organiser role, or `clear: True` to remove it."))
        role = None if organiser_role is None else organiser_role.id
        await self._apply(interaction, organiser_role=role)

    @admin.command(name="cards")
    @app_commands.describe(colours="Two colours (black and red), or four (one per suit)")
    @app_commands.choices(colours=COLOUR_CHOICES)
    async def cards(self, interaction: Interaction, colours: str) -> None:
        """Card faces on this server: two colours, or the four-colour deck."""
        gid = self._check_admin(interaction)
        await client(interaction).card_styles.set_scheme(gid, colours)
        CARD_EMOJIS.set_scheme(gid, colours)
        text = (
            _("Cards on this server now show in four colours: ♠ black, ♥ red, ♦ blue, ♣ green.")
            if colours == "four"
            else _("Cards on this server now show in two colours: ♠ ♣ black, ♥ ♦ red.")
        )
        await interaction.response.send_message(text, ephemeral=True)

    @admin.command(name="language")
    @app_commands.describe(language="The language of the table, hand summaries and boards")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: Interaction, language: str) -> None:
        """The language of this server's public messages (private ones follow each player)."""
        gid = self._check_admin(interaction)
        chosen = None if language == "server" else language
        await client(interaction).languages.set_language(gid, chosen)
        SERVER_LANGUAGES.choose(gid, chosen)
        if chosen is None:
            text = _("Public messages on this server now follow its language in Discord.")
        else:
            text = _(
                "Public messages on this server are now in {language}.",
                language=LANGUAGE_NAMES[chosen],
            )
        await interaction.response.send_message(text, ephemeral=True)

    @admin.command(name="season-new", extras={"public": True})
    @app_commands.describe(name="A name for the new season (optional)")
    async def season_new(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        """Start a new season: standings start afresh, old seasons stay viewable."""
        gid = self._check_admin(interaction)
        season = await self.league.settings.start_season(gid, name)
        with use(SERVER_LANGUAGES.of(gid, interaction.guild_locale)):  # posted in the channel
            text = _(
                "**{season}** has started. Earlier seasons stay on `/leaderboard season:`.",
                season=lr.season_title(season.name, season.number),
            )
        await interaction.response.send_message(text)


def _game(value: str) -> str:
    titles = [_(e.title) for e in entries()]
    if value not in {e.kind for e in entries()}:
        choose = listed(titles, either=True)
        raise Refusal(_("There is no game {game}: choose {games}.", game=repr(value), games=choose))
    return value


def settings_embed(s: Any) -> discord.Embed:
    e = discord.Embed(title=_("Spades settings of this server"), colour=lr.BLURPLE)
    channels = ", ".join(f"<#{c}>" for c in sorted(s.allowed_channels)) or _("every channel")
    e.add_field(
        name=_("New tables"),
        value=_(
            "Preset {preset} · target {target} · turn timer {timer}",
            preset=s.preset,
            target=s.target or _("preset"),
            timer=s.turn_timer or _("off"),
        ),
        inline=False,
    )
    e.add_field(name=_("Tables allowed in"), value=channels, inline=False)
    least = _n("At least {n} rated game", "At least {n} rated games", s.min_games)
    bots = (
        _("games with computer players rated")
        if s.rate_bot_games
        else _("games with computer players unrated")
    )
    e.add_field(name=_("Ranking"), value=f"{least} · {bots}", inline=False)
    tournaments = (
        _(
            "Opened and run by Manage Server or the {role} role",
            role=f"<@&{s.organiser_role}>",
        )
        if s.organiser_role
        else _("Opened and run by Manage Server")
    )
    e.add_field(name=_("Tournaments"), value=tournaments, inline=False)
    e.set_footer(text=_("Current season: {season}", season=s.current_season))
    return e


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(LeagueCog(bot))
