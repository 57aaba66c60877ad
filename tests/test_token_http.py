"""bot/token_http.py over loopback against a small HTTP server that answers as Discord does: a
429 is waited out and the request made again, a 5xx retried, refusals raise discord.py's own
exceptions with Discord's code, and the body goes as JSON."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route

from bot import token_http
from bot.token_http import token_request


class Discordish:
    """Answers queued per path: (status, JSON body, headers)."""

    def __init__(self) -> None:
        self.answers: dict[str, list[tuple[int, Any, dict[str, str]]]] = {}
        self.received: list[tuple[str, str, dict[str, str], Any]] = []

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.text()
        self.received.append((request.method, request.path, dict(request.query), json.loads(body)))
        status, data, headers = self.answers[request.path].pop(0)
        if data is None:
            return web.Response(status=status, headers=headers)
        # exactly Discord's content type (aiohttp's json_response would add a charset)
        headers = {**headers, "Content-Type": "application/json"}
        return web.Response(status=status, body=json.dumps(data).encode(), headers=headers)


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Discordish]:
    fake = Discordish()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    sleeps: list[float] = []

    async def no_wait(seconds: float) -> None:
        sleeps.append(seconds)

    monkeypatch.setattr(token_http.asyncio, "sleep", no_wait)
    fake.sleeps = sleeps  # type: ignore[attr-defined]
    try:
        yield fake
    finally:
        await runner.cleanup()


async def test_a_429_is_waited_out_and_the_request_made_again(server: Discordish) -> None:
    path = "/api/v10/webhooks/1/tok/messages/@original"
    server.answers[path] = [
        (429, {"retry_after": 0.25, "message": "slow down"}, {"Via": "1.1 google"}),
        (200, {"id": "5"}, {}),
    ]
    async with aiohttp.ClientSession() as session:
        out = await token_request(
            session,
            "PATCH",
            "/webhooks/1/tok/messages/@original",
            {"content": "ÿ hand"},
            params={"with_components": "1"},
        )
    assert out is None  # read, not decoded
    assert [r[:3] for r in server.received] == [
        ("PATCH", path, {"with_components": "1"}),
        ("PATCH", path, {"with_components": "1"}),
    ]
    assert server.received[0][3] == {"content": "ÿ hand"}
    assert server.sleeps == [0.25]  # type: ignore[attr-defined]


async def test_a_server_error_is_retried_and_an_answer_decoded(server: Discordish) -> None:
    path = "/api/v10/interactions/9/tok/callback"
    server.answers[path] = [(502, None, {}), (200, {"interaction": {"id": "9"}}, {})]
    async with aiohttp.ClientSession() as session:
        out = await token_request(
            session, "POST", "/interactions/9/tok/callback", {"type": 7}, want_json=True
        )
    assert out == {"interaction": {"id": "9"}}
    assert server.sleeps == [1]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("status", "code", "raised"),
    [
        (404, 10015, discord.NotFound),
        (403, 50001, discord.Forbidden),
        (401, 50027, discord.HTTPException),
        (400, 40060, discord.HTTPException),
    ],
)
async def test_refusals_raise_discord_py_exceptions_with_discords_code(
    server: Discordish, status: int, code: int, raised: type[discord.HTTPException]
) -> None:
    path = "/api/v10/webhooks/1/tok/messages/7"
    server.answers[path] = [(status, {"code": code, "message": "no"}, {})]
    async with aiohttp.ClientSession() as session:
        with pytest.raises(raised) as caught:
            await token_request(session, "PATCH", "/webhooks/1/tok/messages/7", {"content": "x"})
    assert caught.value.status == status
    assert caught.value.code == code
    assert server.sleeps == []  # type: ignore[attr-defined]


async def test_a_429_without_via_is_not_hammered(server: Discordish) -> None:
    """Without ``Via`` the 429 is Cloudflare's (an IP ban), not Discord's: raised at once."""
    path = "/api/v10/webhooks/1/tok/messages/7"
    server.answers[path] = [(429, {"retry_after": 5, "message": "banned"}, {})]
    async with aiohttp.ClientSession() as session:
        with pytest.raises(discord.HTTPException) as caught:
            await token_request(session, "PATCH", "/webhooks/1/tok/messages/7", {"content": "x"})
    assert caught.value.status == 429
    assert len(server.received) == 1
