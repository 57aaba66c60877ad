"""User installs (issue 27): who installed the app to their account, group DMs (where the
bot is never a member), and which installation an interaction comes through
(``authorizing_integration_owners``) in which context."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .channels import Channel, ChannelType

if TYPE_CHECKING:
    from .handles import Interaction
    from .messages import Message
    from .snowflakes import Snowflakes
    from .users import User

JSON = dict[str, Any]


class InstallsMixin:
    """Mixed into :class:`FakeDiscord`."""

    snowflakes: Snowflakes
    channels: dict[int, Channel]
    user_installs: set[int]

    def add_group_dm(self, name: str, *members: User) -> Channel:
        """A group DM of ``members`` (the first owns it).  The bot is never a member of a
        group DM: it gets no event of it, and its channel routes answer 403 Missing Access;
        a member's user-installed app answers their commands and clicks there."""
        ch = Channel(
            self, self.snowflakes.next(), ChannelType.GROUP_DM, name, recipients=list(members)
        )
        self.channels[ch.id] = ch
        return ch

    def install_app(self, user: User) -> None:
        """``user`` installs the app to their account (the "user install" link)."""
        self.user_installs.add(user.id)

    @staticmethod
    def context_of(channel: Channel) -> int:
        """Discord's interaction context: 0 a server, 1 a DM with the bot, 2 a group DM."""
        if channel.guild is not None:
            return 0
        return 2 if channel.is_group_dm else 1

    def _owners(self, interaction: Interaction) -> JSON:
        return interaction.owners

    def _authorizing(self, user: User, channel: Channel, message: Message | None) -> JSON:
        """Which installation of the app an interaction comes through: the server's (it
        added the bot) or the account that installed it — for a click, the one of the
        interaction that made the message."""
        if message is not None and message.interaction_metadata is not None:
            return dict(message.interaction_metadata["authorizing_integration_owners"])
        guild = channel.guild
        if guild is not None and guild.bot_present:
            return {"0": str(guild.id)}
        if user.id in self.user_installs:
            return {"1": str(user.id)}
        return {"0": "0"}  # a DM with a bot the user shares a server with
