"""The Discord side of live hands (:mod:`bot.tables.live`): a handle is the
:class:`discord.Interaction` whose answer showed the player their hand, and an edit goes
through its webhook (``PATCH /webhooks/{app}/{token}/messages/@original``).  For a button on
the hand message, "@original" is that very message."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.engine import Seat
from bot.tables.live import Edit
from bot.tables.state import Table
from bot.ui.hand import hand_payload

log = logging.getLogger(__name__)

INVALID_WEBHOOK_TOKEN = 50027  # Discord's code for an expired interaction token (HTTP 401)


class InteractionHandEditor:
    """Implements :class:`bot.tables.live.HandEditor`."""

    async def edit(self, handle: Any, table: Table, seat: Seat) -> Edit:
        interaction: discord.Interaction[Any] = handle
        if table.game is None:
            return Edit.GONE
        payload = hand_payload(table, seat)  # rendered now, before any await
        try:
            await interaction.edit_original_response(**payload)
        except discord.NotFound:
            return Edit.GONE  # the message was dismissed or deleted
        except discord.HTTPException as e:
            if e.status in (401, 403) or e.code == INVALID_WEBHOOK_TOKEN:
                return Edit.GONE  # the token expired (15 minutes), or we may not any more
            log.warning("live edit of a hand at table %s failed: %s", table.id, e)
            return Edit.FAILED
        return Edit.SHOWN
