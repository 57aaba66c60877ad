"""A fake Discord (REST API + gateway) for end-to-end tests of a real discord.py bot process.

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test")
        table = guild.add_text_channel("spades")
        alice = fake.add_user("alice")
        guild.add_member(alice)
        async with run_bot(fake, module="bot"):
            inter = await fake.slash(alice, table, "ping")
            reply = await inter.response()

The bot must point discord.py at ``DISCORD_API_BASE`` (``discord.http.Route.BASE``) and learn the
gateway URL from ``GET /gateway/bot`` (see ``barebot.py``).
"""

from .channels import Channel, ChannelType
from .components import ActionRow, Component, SelectOption
from .driver import CommandNotAvailable
from .guilds import Guild, Member, Role
from .handles import Interaction, NoBotConnected, NoResponse, Response, WebhookEdit
from .messages import Attachment, Message, Snapshot, max_in_window
from .permissions import ALL_PERMISSIONS, Perm, perms
from .process import BotExited, BotProcess, run_bot
from .ratelimit import BucketSpec, Peaks, RateLimits
from .server import FakeDiscord
from .users import User

__all__ = [
    "ALL_PERMISSIONS",
    "ActionRow",
    "Attachment",
    "BotExited",
    "BotProcess",
    "BucketSpec",
    "Channel",
    "ChannelType",
    "CommandNotAvailable",
    "Component",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "NoBotConnected",
    "NoResponse",
    "Peaks",
    "Perm",
    "RateLimits",
    "Response",
    "Role",
    "SelectOption",
    "Snapshot",
    "User",
    "WebhookEdit",
    "max_in_window",
    "perms",
    "run_bot",
]
