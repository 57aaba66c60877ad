"""Observation helpers: waiting for messages/edits/state, and what a given user can see."""

# Waiting helpers take a `timeout` on purpose (tests read better than asyncio.timeout blocks).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

from .channels import Channel
from .handles import NoResponse
from .messages import Message, max_in_window
from .users import User

if TYPE_CHECKING:
    from .gateway import Gateway, Session
    from .guilds import Guild

T = TypeVar("T")
_MISSING: Any = object()
Predicate = Callable[[Any], bool]


class Waiters:
    """Futures keyed by something (channel id, message id, object). Waking an unwatched key is a
    single dict lookup, so the hot paths can call :meth:`wake` unconditionally."""

    def __init__(self) -> None:
        self._by_key: dict[Hashable, list[tuple[Predicate, asyncio.Future[Any]]]] = {}

    def wake(self, key: Hashable, arg: Any) -> None:
        entries = self._by_key.get(key)
        if not entries:
            return
        keep = []
        for pred, fut in entries:
            if fut.done():
                continue
            try:
                ok = pred(arg)
            except Exception as exc:
                fut.set_exception(exc)
                continue
            if ok:
                fut.set_result(arg)
            else:
                keep.append((pred, fut))
        if keep:
            self._by_key[key] = keep
        else:
            del self._by_key[key]

    async def wait(
        self, key: Hashable, pred: Predicate, timeout: float, *, initial: Any = _MISSING
    ) -> Any:
        if initial is not _MISSING and pred(initial):
            return initial
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        entry = (pred, fut)
        self._by_key.setdefault(key, []).append(entry)
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise NoResponse(f"condition on {key!r} not met within {timeout}s") from None
        finally:
            entries = self._by_key.get(key)
            if entries and entry in entries:
                entries.remove(entry)
                if not entries:
                    del self._by_key[key]


class ObserveMixin:
    """Mixed into :class:`FakeDiscord`."""

    channels: dict[int, Channel]
    guilds: dict[int, Guild]
    ephemeral_messages: dict[int, Message]
    gateway: Gateway
    response_timeout: float

    def _init_observe(self) -> None:
        self._w_create = Waiters()  # key: channel id, arg: new Message
        self._w_edit = Waiters()  # key: channel id, arg: edited Message
        self._w_message = Waiters()  # key: message id, arg: Message (edited/deleted)
        self._w_misc = Waiters()  # key: any object (interaction handles, "state")

    def _notify(self) -> None:
        """Something about connection/ready/sync state changed."""
        self._w_misc.wake("state", None)

    async def wait_until(
        self, condition: Callable[[], T | None], timeout: float | None = None, *, poll: float = 0.02
    ) -> T:
        """Wait until ``condition()`` is truthy and return its value. Re-checked at once on
        gateway / command-sync changes and every ``poll`` seconds otherwise."""
        loop = asyncio.get_running_loop()
        t = self.response_timeout if timeout is None else timeout
        deadline = loop.time() + t
        while True:
            value = condition()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise NoResponse(f"condition not met within {t}s")
            with contextlib.suppress(NoResponse):
                await self._w_misc.wait("state", lambda _: True, min(poll, remaining))

    async def wait_for_ready(self, timeout: float = 10.0, *, after: int | None = None) -> Session:
        """Wait until a bot is connected and READY + GUILD_CREATEs were sent. With ``after``
        (a previous ``fake.ready_generation``) wait for a *new* identify/resume."""
        gw = self.gateway

        def ready() -> Session | None:
            if after is not None and gw.ready_generation <= after:
                return None
            return gw.current if gw.connected else None

        return await self.wait_until(ready, timeout)

    # ----- messages ----------------------------------------------------------------------
    def messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        """Every (non-ephemeral) message in ``channel``, oldest first, in its current state."""
        return [m for m in channel.messages.values() if include_deleted or not m.deleted]

    def last_message(self, channel: Channel) -> Message | None:
        for m in reversed(channel.messages.values()):
            if not m.deleted:
                return m
        return None

    def ephemeral_for(self, user: User) -> list[Message]:
        return [m for m in self.ephemeral_messages.values() if m.visible_to == user.id]

    def age_tokens(self, user: User, seconds: float) -> int:
        """Age every interaction token ``user`` has produced by ``seconds`` (see
        :meth:`Interaction.age`); returns how many."""
        mine = [i for i in self.interactions.values() if i.user is user]
        for inter in mine:
            inter.age(seconds)
        return len(mine)

    def threads(self, channel: Channel | None = None) -> list[Channel]:
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (channel is None or c.parent is channel)
        ]

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
        *,
        after: Message | int | None = None,
        include_existing: bool = True,
    ) -> Message:
        """First message in ``channel`` matching ``predicate``. Existing messages count unless
        ``include_existing=False``; ``after`` restricts to messages newer than that one."""
        min_id = (after.id if isinstance(after, Message) else after) or 0

        def match(m: Message) -> bool:
            return m.id > min_id and not m.deleted and (predicate is None or predicate(m))

        if include_existing:
            for m in list(channel.messages.values()):
                if match(m):
                    return m
        t = self.response_timeout if timeout is None else timeout
        result: Message = await self._w_create.wait(channel.id, match, t)
        return result

    async def wait_for_edit(
        self,
        target: Message | Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
    ) -> Message:
        """For a message: wait until ``predicate(message)`` holds (checked now and after every
        edit; without a predicate, wait for the next edit). For a channel: the first edit of
        any message in it that matches."""
        t = self.response_timeout if timeout is None else timeout
        if isinstance(target, Channel):
            result: Message = await self._w_edit.wait(target.id, predicate or (lambda _: True), t)
            return result
        if predicate is None:
            start = target.edits
            return await self._w_message.wait(target.id, lambda m: m.edits > start, t)  # type: ignore[no-any-return]
        return await self._w_message.wait(target.id, predicate, t, initial=target)  # type: ignore[no-any-return]

    def max_writes_per(self, channel: Channel, window: float = 1.0) -> int:
        """Most message creates+edits in ``channel`` within any ``window`` seconds."""
        return max_in_window(channel.write_times, window)

    # ----- privacy -----------------------------------------------------------------------
    def _can_see_channel(self, user: User, channel: Channel) -> bool:
        if channel.is_dm:
            return channel.recipient is not None and channel.recipient.id == user.id
        guild = channel.guild
        if guild is None or user.id not in guild.members:
            return False
        return channel.can_see(guild.members[user.id])

    def visible_messages(
        self, to_user: User | None = None, *, include_deleted: bool = True
    ) -> list[Message]:
        """Messages ``to_user`` could have seen (channel messages they can access, their DMs,
        their own ephemeral responses); with ``to_user=None``: every message of every kind."""
        result: list[Message] = []
        for channel in self.channels.values():
            if to_user is None or self._can_see_channel(to_user, channel):
                result.extend(
                    m for m in channel.messages.values() if include_deleted or not m.deleted
                )
        for m in self.ephemeral_messages.values():
            if (to_user is None or m.visible_to == to_user.id) and (
                include_deleted or not m.deleted
            ):
                result.append(m)
        return result

    def all_visible_text(self, to_user: User | None = None, *, include_history: bool = True) -> str:
        """All text ``to_user`` could have read, including earlier versions of edited messages
        (``to_user=None``: everything). Handy for "X never leaks to Y" assertions."""
        parts: list[str] = []
        for m in self.visible_messages(to_user):
            for state in m.versions if include_history else (m.state,):
                if text := state.text:
                    parts.append(text)
        return "\n".join(parts)
