"""Webhook edits held on their way: a test puts two writes to one message in an order the
network could.

Discord applies the writes to a message in the order they arrive, and a bot's requests do not
arrive in the order they were sent: an edit through an interaction's token can still be on its
way when the answer to a click on that message lands.  ``fake.hold_webhook_edits(message_id)``
holds every later ``PATCH /webhooks/{app}/{token}/messages/{id}`` of that message — received,
checked, not yet applied, the bot still waiting for the answer — until the test releases it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .messages import JSON


@dataclass(eq=False)
class HeldEdit:
    body: JSON  # the edit's JSON, as the bot sent it
    go: asyncio.Event = field(default_factory=asyncio.Event)
    landed: asyncio.Event = field(default_factory=asyncio.Event)  # applied to the message


class EditHold:
    """The webhook edits of one message, held until :meth:`release`."""

    def __init__(self, message_id: int) -> None:
        self.message_id = message_id
        self.held: list[HeldEdit] = []  # in the order they arrived
        self._arrived = asyncio.Event()
        self.active = True

    async def admit(self, message_id: int, body: JSON) -> HeldEdit | None:
        """Called by the fake before it applies a webhook edit: returns once it may (the
        edit if it was held: the fake sets its ``landed`` once it is applied)."""
        if not self.active or message_id != self.message_id:
            return None
        edit = HeldEdit(body)
        self.held.append(edit)
        self._arrived.set()
        await edit.go.wait()
        return edit

    async def wait_held(self, count: int = 1, timeout: float = 30.0) -> HeldEdit:  # noqa: ASYNC109
        """Until ``count`` edits are held; returns the latest."""
        async with asyncio.timeout(timeout):
            while len(self.held) < count:
                self._arrived.clear()
                await self._arrived.wait()
        return self.held[-1]

    def let_through(self, edit: HeldEdit) -> None:
        """Let one held edit land; later ones are still held."""
        edit.go.set()

    async def release(self) -> None:
        """Let every held edit land (in the order they arrived), hold no more, and return
        once they are applied."""
        self.active = False
        for edit in self.held:
            edit.go.set()
        for edit in self.held:
            await edit.landed.wait()
