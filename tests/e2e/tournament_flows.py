"""Tournament set-ups and drivers through the fake Discord: an organiser opens one, members
sign up with their partners, and — to play a night in seconds — every member leaves their
seat when their table opens, so computer players finish the game (a tournament table plays
on when its members leave, and its result counts)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.driver import eventually
from tests.fakediscord import Channel, FakeDiscord, Guild, Message, Response, User


@dataclass
class Night:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    organiser: User
    players: list[User]
    # (announcement id, user id) done: a table's thread takes that table number's next table
    # every round, each announced with its players mentioned
    left: set[tuple[int, int]] = field(default_factory=set)

    async def ask(self, user: User, *path: str, **options: Any) -> Response | Message:
        inter = await self.fake.slash(user, self.channel, *path, **options)
        return await inter.answer()

    def messages(self) -> list[Message]:
        return self.fake.messages(self.channel)

    def texts(self) -> list[str]:
        return [m.text for m in self.messages()]

    def standings(self) -> Message:
        for m in reversed(self.messages()):
            if m.embeds and str(m.embeds[0].get("title", "")).startswith("🏆"):
                return m
        raise AssertionError("no tournament message")

    def title(self) -> str:
        return str(self.standings().embeds[0].get("title", ""))

    async def leave_seats(self) -> int:
        """Every member seated in a tournament thread leaves their seat (computers take
        over); returns how many left this time."""
        count = 0
        for thread in self.fake.threads(self.channel):
            for m in self.fake.messages(thread):
                if "your game is on" not in m.text:
                    continue
                for user in self.players:
                    key = (m.id, user.id)
                    if f"<@{user.id}>" in m.text and key not in self.left:
                        self.left.add(key)
                        r = await (await self.fake.slash(user, thread, "spades", "leave")).answer()
                        assert "computer player" in r.text, r.text
                        count += 1
        return count

    def seated(self) -> list[Channel]:
        """The tables' threads whose game was announced, by name (table number)."""
        threads = [
            th
            for th in self.fake.threads(self.channel)
            if any("your game is on" in m.text for m in self.fake.messages(th))
        ]
        return sorted(threads, key=lambda th: th.name)

    def players_in(self, thread: Channel) -> list[User]:
        """The members the first announcement in ``thread`` mentioned."""
        announced = next(m for m in self.fake.messages(thread) if "your game is on" in m.text)
        return [u for u in self.players if f"<@{u.id}>" in announced.text]

    async def leave_table(self, thread: Channel) -> None:
        """The members announced in ``thread`` leave (computers finish its game), as
        :meth:`play_out` does."""
        announced = next(m for m in self.fake.messages(thread) if "your game is on" in m.text)
        for user in self.players_in(thread):
            self.left.add((announced.id, user.id))
            r = await (await self.fake.slash(user, thread, "spades", "leave")).answer()
            assert "computer player" in r.text, r.text

    async def play_out(self, done: Callable[[], bool], timeout: float = 50.0) -> None:  # noqa: ASYNC109
        """Leave seats as tables open until ``done()``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            await self.leave_seats()
            if loop.time() > end:
                raise AssertionError(f"not done within {timeout}s: {self.title()}")
            await asyncio.sleep(0.05)


def new_night(fake: FakeDiscord, guild: Guild, players: int) -> Night:
    channel = guild.add_text_channel("game-night")
    organiser = fake.add_user("organiser")
    guild.add_member(organiser, manage_guild=True)
    users = [fake.add_user(f"p{i:02d}") for i in range(1, players + 1)]
    for u in users:
        guild.add_member(u)
    return Night(fake, guild, channel, organiser, users)


def invitation_to(night: Night, partner: User) -> Message:
    """The newest invitation in the tournament channel that asks ``partner`` (its buttons)."""
    for m in reversed(night.messages()):
        if m.text.startswith(f"🤝 <@{partner.id}>") and any(
            c.custom_id.endswith(":accept") for c in m.all_components if c.custom_id
        ):
            return m
    raise AssertionError(f"no invitation to {partner.name}")


async def answer_invitation(
    night: Night, partner: User, verb: str = "accept", *, by: User | None = None
) -> Response | Message:
    """``by`` (the partner themself by default) presses **Accept** or **Decline** on the
    invitation that asks ``partner``."""
    await eventually(lambda: invitation_to(night, partner))
    message = invitation_to(night, partner)
    custom_id = next(
        c.custom_id for c in message.all_components if c.custom_id.endswith(":" + verb)
    )
    return await (await night.fake.click(by or partner, message, custom_id)).answer()


async def sign_up_pair(night: Night, a: User, b: User) -> None:
    """``a`` names ``b`` as partner and ``b`` accepts: both are signed up together."""
    r = await night.ask(a, "tournament", "join", partner=b)
    assert "once they accept" in r.text, r.text
    r = await answer_invitation(night, b)
    assert "signed up" in r.text, r.text


async def sign_up_pairs(night: Night) -> None:
    """Players 1+2, 3+4, … sign up together (each second one accepts the first's invitation)."""
    for a, b in zip(night.players[::2], night.players[1::2], strict=True):
        await sign_up_pair(night, a, b)


async def open_night(night: Night, **options: Any) -> None:
    r = await night.ask(night.organiser, "tournament", "new", **options)
    assert "open for sign-up" in r.text, r.text
    await eventually(lambda: night.standings())


async def start_duplicate(night: Night, name: str, **options: Any) -> tuple[Channel, Channel]:
    """Eight members in four pairs: a duplicate tournament of one round of one board (no turn
    timer: nobody acts until told), started; its two tables' threads."""
    settings = {"rounds": 1, "boards": 1, "turn_timer": 0, **options}
    await open_night(night, name=name, format="duplicate", **settings)
    await sign_up_pairs(night)
    r = await night.ask(night.organiser, "tournament", "start")
    assert "has started" in r.text, r.text
    await eventually(lambda: len(night.seated()) == 2, timeout=30)
    first, second = night.seated()
    return first, second
