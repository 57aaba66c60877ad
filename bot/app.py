"""Start-up: settings → database → bot → extensions → restore tables → sync commands → run."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
import sys
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands
from dotenv import load_dotenv

from bot import (
    collector,
    command_input,
    health,
    i18n,
    logcontext,
    logsafe,
    metrics,
    monitor,
    timely,
)
from bot.ai.variants import proven_renege
from bot.ai.worker import AIPool
from bot.config import ConfigError, Settings
from bot.cooldowns import Cooldowns
from bot.engine import Action, SeatView
from bot.events.pairing.model import Tournament
from bot.events.resumption import resume
from bot.events.service import TournamentService
from bot.i18n.commands import CommandTranslator
from bot.i18n.core import preload
from bot.league_link import recorder
from bot.review.service import ReviewService
from bot.sharding import ShardingError, ShardPlan
from bot.store.card_styles import CardStyleStore
from bot.store.db import Database, Synchronous
from bot.store.errors import SetupError
from bot.store.languages import LanguageStore
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore
from bot.store.url import parse_database_url
from bot.tables.service import TableService
from bot.tables.spectators import Spectators
from bot.tables.state import SurfaceToken, Table
from bot.ui.discord.clicks import ClickRouter, route_from_the_gateway
from bot.ui.discord.failures import answer_error
from bot.ui.discord.pace import Pace, pacing_trace
from bot.ui.hand.live_editor import InteractionHandEditor
from bot.ui.league.components import LEAGUE_ITEMS
from bot.ui.review.replay_components import REPLAY_ITEMS
from bot.ui.review.review_components import REVIEW_ITEMS
from bot.ui.spectator.spectator_editor import SpectatorViews
from bot.ui.table.components import DYNAMIC_ITEMS
from bot.ui.table.publisher import TablePublisher
from bot.ui.text.card_emojis import CARD_EMOJIS, sync_card_emojis
from bot.ui.tournament.components import TOURNAMENT_ITEMS
from bot.ui.tournament.publisher import TournamentPublisher

log = logging.getLogger("spades")
# Every component the bot answers, rebuilt from its custom id (bot/ui/*/*components.py).
ROUTED_ITEMS = (*DYNAMIC_ITEMS, *LEAGUE_ITEMS, *REVIEW_ITEMS, *TOURNAMENT_ITEMS, *REPLAY_ITEMS)
# Discord allows a bot 50 requests a second (interaction endpoints aside): the requests with
# the bot's token go one every 1/REQUESTS_PER_SECOND s, and no more than REQUESTS_IN_A_SECOND
# of them can arrive in any second (bot/ui/discord/pace.py); the tables' channel writes (the
# publisher's budget) take at most WRITES_PER_SECOND.  CLUSTER_COUNT processes share all three.
REQUESTS_PER_SECOND = 40
REQUESTS_IN_A_SECOND = 45
WRITES_PER_SECOND = 36
# How long a spectator's edit waits for the players' interactions to be answered first.
SPECTATORS_WAIT_S = 0.25
# A live edit of a hand waits (at most this long) while any click is still to be answered:
# under load the answers go first (docs/benchmarks.md, issue 34 item 1).
LIVE_HANDS_WAIT_S = 0.5

# cogs.verify adds /spades verify to the group of cogs.spades, so it loads after it.
EXTENSIONS = (
    "cogs.spades",
    "cogs.play",
    "cogs.league",
    "cogs.housekeeping",
    "cogs.review",
    "cogs.verify",
    "cogs.tournament",
    "cogs.watch",
    "cogs.replay",
)
# Retrying an unreachable Discord at start-up: 1 s, 2 s, 4 s … at most a minute apart.
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 60.0
# How long start-up waits for the application's emojis to be listed before drawing the
# restored tables (the card faces already uploaded); past it, cards show as text until then.
EMOJIS_KNOWN_S = 30.0
# What "Discord cannot be reached" looks like to discord.py and aiohttp.
UNREACHABLE = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.DiscordServerError)


class SpadesTree(app_commands.CommandTree[Any]):
    """Every command passes here first: its options are checked against the command as the
    bot has it now, and its answer is guarded so that it comes within Discord's 3 s.  One
    error hook for all: refusals and bad input are shown, the rest logged with context."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        i18n.answering(interaction)  # every answer to it in the user's language
        data: dict[str, Any] = dict(interaction.data or {})
        command = command_input.find_command(self, data, interaction.guild_id)
        public = bool(command is not None and command.extras.get("public"))
        kind = command.qualified_name if command is not None else "unknown"
        timely.guard(interaction, public=public, kind=("command", kind))
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        # The command's name only: its options may name a card (/discard).
        what = "autocomplete of" if autocomplete else "command"
        log.debug("%s /%s from user %s", what, data.get("name"), interaction.user.id)
        try:
            command_input.check(command, data, autocomplete=autocomplete)
        except command_input.BadInput as e:
            log.info("refused %s: %s", data.get("name"), e.reason)
            with contextlib.suppress(discord.HTTPException):
                if autocomplete:
                    await interaction.response.autocomplete([])
                else:
                    await interaction.response.send_message(e.reason, ephemeral=True)
            timely.judge(interaction, "refused")
            timely.release(interaction)  # discord.py goes no further: neither hook comes
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)
        timely.release(interaction)


class SpadesBot(commands.AutoShardedBot):
    """The bot: owns the database, the table service and the message publisher.

    Sharded (``SHARD_COUNT``/``SHARD_IDS``): it runs its shards in one process and restores,
    times and serves only the tables of their guilds."""

    def __init__(self, settings: Settings, db: Database) -> None:
        # Only the guilds intent: channel and thread cache.  Interactions carry the member
        # and their permissions, so no privileged intent (members, message content) is needed.
        intents = discord.Intents.none()
        intents.guilds = True
        processes = settings.cluster_count
        self.pace = Pace(REQUESTS_PER_SECOND / processes, max(1, REQUESTS_IN_A_SECOND // processes))
        self.trace = pacing_trace(self.pace)  # every HTTP request of the bot (and its metrics)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=SpadesTree,
            http_trace=self.trace,
        )
        self.settings = settings
        self.db = db
        level, _, log_format, shards = settings.log_setup()
        self.ai = AIPool(
            budgets={"hard": settings.ai_budget_ms / 1000},
            worker_setup=logsafe.setup_worker,
            worker_setup_args=(level, log_format, shards),
            on_decision=metrics.decision,
            on_crash=metrics.worker_crash,
        )
        # Discord's global request budget is per bot: CLUSTER_COUNT processes share it.
        self.publisher = TablePublisher(
            self,
            self._set_message,
            self._set_token,
            writes_per_second=WRITES_PER_SECOND / settings.cluster_count,
        )
        self.league = LeagueStore(db)
        self.spectator_views = SpectatorViews()
        self.tables = TableService(
            db,
            self._decide,
            listener=self.publisher,
            editor=InteractionHandEditor(),
            remind=self.publisher.turn_reminder,
            live_gate=lambda: timely.quiet(LIVE_HANDS_WAIT_S),
            spectators=Spectators(
                editor=self.spectator_views,
                recounted=self.publisher.changed,  # the table message shows the count
                gate=lambda: timely.quiet(SPECTATORS_WAIT_S),
            ),
            on_game_stored=recorder(self.league),
            test_seed=settings.test_seed,
            bot_delay=settings.bot_delay,
            claim=proven_renege,  # computer players' renege claims (games.md G1)
        )
        self.clicks = ClickRouter()  # every button and select, by verb (the cogs register)
        self.plan: ShardPlan | None = None
        # Each answered interaction's token may carry its table's next writes (issue 27).
        timely.on_answered(self.publisher.offer)
        self.review_store = ReviewStore(db)
        self.reviews = ReviewService(
            self.review_store,
            lambda: self.ai.executor_for("hard"),
            game_budget_s=settings.review_budget,
        )
        self.card_styles = CardStyleStore(db)
        self.languages = LanguageStore(db)
        self.tournament_publisher = TournamentPublisher(
            self, self._set_tournament_message, self.tables.registry
        )
        self.tournaments = TournamentService(db, self.tables, self.tournament_publisher)
        self.cooldowns = Cooldowns()  # reposts, threads, reviews, charts (bot.cooldowns)
        self.emoji_sync: asyncio.Task[Any] | None = None
        self.restoring: asyncio.Task[None] | None = None  # the unfinished tables' games
        self.pauses: collector.Pauses | None = None
        self.connected_shards: set[int] = set()  # connected once (the next is a reconnect)

    async def _decide(self, view: SeatView, level: str, seed: int, think: float) -> Action:
        return await self.ai.decide(view, level, seed, thinking_delay_s=think)

    async def _set_message(self, table: Table, message_id: int) -> None:
        await self.tables.set_message(table, message_id)

    async def _set_token(self, table: Table, token: SurfaceToken | None) -> None:
        await self.tables.set_token(table, token)

    async def _set_tournament_message(self, t: Tournament, message_id: int) -> None:
        await self.tournaments.set_message(t, message_id)

    async def setup_hook(self) -> None:
        count = self.settings.shard_count
        if count is None or self.settings.api_base:
            # Discord's recommended shard count, and (for a test API base: discord.py
            # otherwise connects to a fixed gateway host) the gateway URL.
            recommended, url, _limits = await self.http.get_bot_gateway()
            count = count or recommended
            if self.settings.api_base:
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.plan = plan = ShardPlan.make(count, self.settings.shard_ids)
        self.shard_count = plan.count
        self.shard_ids = list(plan.ids)
        logcontext.know_shard_count(plan.count)
        log.info("serving %s", plan.describe())
        for item in ROUTED_ITEMS:
            self.add_dynamic_items(item)
        # Our components' clicks go to their routes straight off the gateway (and those of
        # ours no template fits are refused, not dropped).
        route_from_the_gateway(self, ROUTED_ITEMS)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        unrouted = self.clicks.unrouted(route for item in ROUTED_ITEMS for route in item.routes)
        if unrouted:  # a verb without its handler: a mistake of ours, found before serving
            raise RuntimeError(f"no handler for the component route(s) {', '.join(unrouted)}")
        # Card faces upload in the background (by the process serving shard 0; the others
        # pick them up); cards show as text until theirs is there.  The faces already
        # uploaded are known (one listing) before a table is drawn: a restored table message
        # looks exactly as it did before the restart.
        self.emoji_sync = asyncio.create_task(
            sync_card_emojis(self, self.tables.store, upload=0 in plan.ids)
        )
        preload()  # the catalogs, compiled before the first interaction needs one
        i18n.SERVER_LANGUAGES.client = self  # servers' preferred locales, from the guild cache
        i18n.SERVER_LANGUAGES.load(await self.languages.languages())
        await self.tree.set_translator(CommandTranslator())
        for gid, scheme in (await self.card_styles.schemes()).items():
            CARD_EMOJIS.set_scheme(gid, scheme)
        if not await CARD_EMOJIS.wait_known(EMOJIS_KNOWN_S):
            log.warning(
                "the card emojis were not listed within %.0f s: cards show as text until they are",
                EMOJIS_KNOWN_S,
            )
        # The unfinished tables are known at once; their games are replayed once connected, in
        # the background (a table clicked meanwhile first), their messages redrawn as they come.
        await self.tables.start_restore(plan.serves)
        self.restoring = asyncio.create_task(self._restore_the_rest(), name="restore")
        # Tournaments of this process's servers catch up (seat, advance) after their tables.
        resumed = await resume(self.tournaments, plan.serves)
        if resumed:
            log.info("resumed %d tournament(s)", len(resumed))
        await self.sync_commands_if_changed()
        collector.settle()  # start-up's objects stay for good: no collection walks them again
        self.pauses = collector.watch()  # logged at shutdown

    async def _restore_the_rest(self) -> None:
        """Once connected, bring back every table still waiting (see
        :meth:`TableService.finish_restore`); until then a table comes back when looked up."""
        await self.wait_until_ready()
        try:
            for table in await self.tables.finish_restore():
                metrics.tables_restored(table.rules.game.value)
        except Exception:
            log.exception("restoring the unfinished tables failed")

    async def sync_commands_if_changed(self) -> None:
        """Sync application commands only when the command tree changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [
            await c.get_translated_payload(self.tree, translator)
            if translator is not None
            else c.to_dict(self.tree)
            for c in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, default=str).encode()
        ).hexdigest()
        key = f"command_hash:{guild.id if guild else 'global'}"
        if await self.tables.store.get_meta(key) == digest:
            log.info("application commands unchanged; not syncing")
            return
        try:
            await self.tree.sync(guild=guild)
        except (*UNREACHABLE, discord.HTTPException) as e:
            # The old commands keep working; the next start tries again.
            log.warning("could not sync application commands (%s); trying on the next start", e)
            return
        await self.tables.store.set_meta(key, digest)
        log.info("synced %d application command(s)", len(payload))

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        timely.release(interaction)  # a command's handler has finished (buttons: dispatch)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d server(s)", self.user, len(self.guilds))

    async def on_shard_connect(self, shard_id: int) -> None:
        if shard_id in self.connected_shards:
            metrics.gateway_reconnect("identify")  # a new session after a drop
        self.connected_shards.add(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        metrics.gateway_reconnect("resume")

    async def close(self) -> None:
        if self.emoji_sync is not None:
            self.emoji_sync.cancel()
        if self.restoring is not None:
            self.restoring.cancel()
        await self.reviews.close()
        await self.tournaments.close()
        await self.tournament_publisher.close()
        await self.tables.close()
        await self.publisher.close()
        self.spectator_views.close()
        self.ai.close()
        await super().close()
        commits = sorted(self.db.commit_seconds)
        if commits:
            log.info(
                "commit latency over the last %d commits: p50 %.2f ms, p99 %.2f ms",
                len(commits),
                commits[len(commits) // 2] * 1000,
                commits[min(len(commits) - 1, int(len(commits) * 0.99))] * 1000,
            )
            self.db.commit_seconds.clear()
        if self.pauses is not None:
            log.info("%s", self.pauses.describe())
            collector.unwatch(self.pauses)
            self.pauses = None


async def login(bot: SpadesBot, token: str, stopping: asyncio.Event) -> None:
    """Log in, waiting for Discord with growing pauses while it cannot be reached.

    Chosen over exiting: a bot started before the network is up (a container at boot, a
    laptop waking) comes up by itself, as discord.py does once connected.  Each failed try is
    one WARNING line saying why and when the next one comes; a rejected token still ends the
    bot at once (:class:`discord.LoginFailure`).  Returns early once ``stopping`` is set.
    """
    delay = RETRY_FIRST_S
    while not stopping.is_set():
        try:
            await bot.login(token)
            return
        except UNREACHABLE as e:
            if bot.user is not None:
                raise  # logged in: the failure came later (setup_hook) and is not retried
            log.warning(
                "Discord is unreachable (%s); trying again in %.0f s",
                _reason(e),
                delay,
            )
        # discord.py opens a fresh HTTP session on each login: close the failed one.
        await bot.http.close()
        bot.http.connector = discord.utils.MISSING
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), delay)
        delay = min(delay * 2, RETRY_MAX_S)


def _reason(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text[:200]


def _one_line_reconnects(record: logging.LogRecord) -> bool:
    """discord.py logs each gateway reconnect with a traceback; keep it to one line."""
    if record.exc_info and str(record.msg).startswith("Attempting a reconnect"):
        error = record.exc_info[1]
        record.msg = f"{record.msg} ({_reason(error) if error else 'connection lost'})"
        record.exc_info = None
        record.exc_text = None
    return True


async def _main(settings: Settings) -> int:
    synchronous: Synchronous = "full" if settings.sqlite_synchronous == "full" else "normal"
    try:
        async with Database.open(settings.database_url, synchronous=synchronous) as db:
            where = parse_database_url(settings.database_url).redacted()
            log.info("database %s (schema %d)", where, await db.schema_version())
            return await _serve(settings, db)
    except SetupError as e:  # an operator's mistake with the database: one line, exit 2
        print(str(e), file=sys.stderr)
        return 2


async def _serve(settings: Settings, db: Database) -> int:
    bot = SpadesBot(settings, db)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: set[asyncio.Future[None]] = set()

    def stop() -> None:
        stopping.set()
        closing.add(asyncio.ensure_future(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        # `docker stop` and Ctrl-C: close the gateway and the database cleanly.
        loop.add_signal_handler(sig, stop)
    try:
        watching = await monitor.start(bot, bot.trace, settings)  # None: METRICS_PORT unset
    except monitor.MetricsError as e:  # an operator's mistake: one line, exit 2
        print(str(e), file=sys.stderr)
        return 2
    beat = None
    if settings.health_file:
        beat = asyncio.create_task(health.beat(settings.health_file, lambda: _alive(bot)))
    try:
        async with bot:
            await login(bot, settings.token, stopping)
            if not stopping.is_set():
                await bot.connect()
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN: reset the token on the Bot page of your "
            "application and put the new one in .env",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents requested.", file=sys.stderr)
        return 2
    except ShardingError as e:  # SHARD_IDS beyond Discord's recommended SHARD_COUNT
        print(str(e), file=sys.stderr)
        return 2
    finally:
        if beat is not None:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
            health.remove(settings.health_file or "")
        if watching is not None:
            await watching.stop()
    return 0


def _alive(bot: SpadesBot) -> bool:
    """Connected: ready, and every shard's gateway connection open; and the hard players'
    worker processes not dying at every decision."""
    if not bot.is_ready() or bot.is_closed() or not bot.ai.working:
        return False
    shards = bot.shards.values()
    return bool(shards) and all(not shard.is_closed() for shard in shards)


def run() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ConfigError as e:
        print(str(e), file=sys.stderr)
        return 2
    # The bot's loggers at LOG_LEVEL; discord.py's at INFO (DISCORD_LOG_LEVEL): its DEBUG
    # writes every hand and token.  Tokens are masked on every line (bot.logsafe).
    logsafe.setup(*settings.log_setup())
    # The bot has no voice features: drop discord.py's warnings about voice libraries.
    client_log = logging.getLogger("discord.client")
    client_log.addFilter(lambda record: "voice will NOT be supported" not in record.getMessage())
    client_log.addFilter(_one_line_reconnects)
    if settings.api_base:
        # Tests point discord.py at a fake Discord API; nothing else changes.
        discord.http.Route.BASE = settings.api_base
    try:
        return asyncio.run(_main(settings))
    except KeyboardInterrupt:
        return 0
