"""The fake's application emojis behave as Discord's do for a real discord.py client: list,
create, fetch, rename, delete; names, image size, unique names and the 2,000-emoji limit are
enforced; a component may only use an emoji Discord knows."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import discord
import pytest
from PIL import Image

from tests.fakediscord import FakeDiscord
from tests.fakediscord.emojis import MAX_APPLICATION_EMOJIS, AppEmoji
from tests.fakediscord.fixtures import World, inprocess_bot


def png(size: int = 16, colour: tuple[int, int, int] = (200, 0, 0)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture
async def client(fake: FakeDiscord, world: World) -> AsyncIterator[discord.Client]:
    async with inprocess_bot(fake, discord.Client(intents=discord.Intents.none())) as c:
        yield c


async def test_create_list_fetch_rename_delete(fake: FakeDiscord, client: discord.Client) -> None:
    assert await client.fetch_application_emojis() == []
    made = await client.create_application_emoji(name="c_AS", image=png())
    assert made.name == "c_AS"
    assert made.is_application_owned()
    assert str(made) == f"<:c_AS:{made.id}>"
    assert fake.app_emojis.named("c_AS") is not None
    [listed] = await client.fetch_application_emojis()
    assert (listed.id, listed.name) == (made.id, "c_AS")
    fetched = await client.fetch_application_emoji(made.id)
    assert fetched.name == "c_AS"
    renamed = await fetched.edit(name="c_KS")
    assert renamed.name == "c_KS"
    assert fake.app_emojis.names() == ["c_KS"]
    await renamed.delete()
    assert await client.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as e:
        await client.fetch_application_emoji(made.id)
    assert e.value.code == 10014
    assert (fake.app_emojis.creates, fake.app_emojis.edits, fake.app_emojis.deletes) == (1, 1, 1)


@pytest.mark.parametrize("name", ["a", "x" * 33, "c-AS", "c AS", "c♠"])
async def test_bad_names_are_refused(fake: FakeDiscord, client: discord.Client, name: str) -> None:
    with pytest.raises(discord.HTTPException) as e:
        await client.create_application_emoji(name=name, image=png())
    assert (e.value.status, e.value.code) == (400, 50035)
    assert "name" in e.value.text
    # Discord's API description knows only the length (2 to 32): the fake refuses the rest
    by_description = fake.take_api_violations()
    if fake.api is not None:
        assert bool(by_description) == (not 2 <= len(name) <= 32), by_description


async def test_names_are_unique_within_the_application(client: discord.Client) -> None:
    first = await client.create_application_emoji(name="c_AS", image=png())
    with pytest.raises(discord.HTTPException) as e:
        await client.create_application_emoji(name="c_AS", image=png(colour=(0, 0, 0)))
    assert e.value.code == 50035
    other = await client.create_application_emoji(name="c_KS", image=png())
    with pytest.raises(discord.HTTPException):
        await other.edit(name="c_AS")
    assert [e.name for e in await client.fetch_application_emojis()] == ["c_AS", "c_KS"]
    assert first.id != other.id


async def test_images_over_256_kib_or_not_images_are_refused(client: discord.Client) -> None:
    big = Image.frombytes("RGB", (400, 400), bytes(range(256)) * (400 * 400 * 3 // 256 + 1))
    buf = io.BytesIO()
    big.save(buf, format="PNG", compress_level=0)
    assert len(buf.getvalue()) > 256 * 1024
    with pytest.raises(discord.HTTPException) as e:
        await client.create_application_emoji(name="big", image=buf.getvalue())
    assert e.value.code == 50035
    assert "image" in e.value.text
    with pytest.raises(ValueError, match="Unsupported image type"):  # discord.py checks first
        await client.create_application_emoji(name="text", image=b"not an image at all")


async def test_an_application_holds_at_most_2000_emojis(
    fake: FakeDiscord, client: discord.Client
) -> None:
    store = fake.app_emojis
    for i in range(MAX_APPLICATION_EMOJIS - 1):
        eid = fake.snowflakes.next()
        store.by_id[eid] = AppEmoji(eid, f"filler_{i}", png(), "png")
    last = await client.create_application_emoji(name="last_one", image=png())
    assert len(await client.fetch_application_emojis()) == MAX_APPLICATION_EMOJIS
    with pytest.raises(discord.HTTPException) as e:
        await client.create_application_emoji(name="one_too_many", image=png())
    assert (e.value.status, e.value.code) == (400, 30008)
    await last.delete()
    await client.create_application_emoji(name="one_too_many", image=png())


async def test_components_may_only_use_emojis_discord_knows(
    fake: FakeDiscord, world: World, client: discord.Client
) -> None:
    made = await client.create_application_emoji(name="c_AS", image=png())
    channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    good = discord.ui.View()
    good.add_item(discord.ui.Button(label="A♠", emoji=made, custom_id="x:1"))
    msg = await channel.send("cards", view=good)
    [button] = fake.messages(world.channel)[-1].all_components
    assert int(button.raw["emoji"]["id"]) == made.id
    bad = discord.ui.View()
    bad.add_item(
        discord.ui.Button(
            label="K♠", emoji=discord.PartialEmoji(name="c_KS", id=made.id + 1), custom_id="x:2"
        )
    )
    with pytest.raises(discord.HTTPException) as e:
        await channel.send("cards", view=bad)
    assert e.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await msg.edit(view=bad)
