"""The requests a click costs, made with its interaction's token straight through the bot's
aiohttp session: the answer (``POST /interactions/{id}/{token}/callback``) and the live edits of
hands (``PATCH /webhooks/{app}/{token}/messages/{id}``).

They are the bot's most frequent requests, two or more a click, and discord.py's webhook adapter
costs each a route, a lock per token, log calls and the edited message decoded back, none of
which these need (measured: docs/benchmarks-log.md, *Click path and memory*).  What the
adapter did that matters is kept: a 429 from Discord is waited out (``retry_after``) and the
request made again, a 5xx or a reset connection is retried after 1, 3, 5… s, and a refusal
raises discord.py's own exceptions (:class:`discord.NotFound`, :class:`discord.Forbidden`,
:class:`discord.HTTPException` with Discord's ``code``), so callers tell an expired token from
anything else as before.  The session's trace (the pace, the metrics) sees them as it sees every
request.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

import aiohttp
import discord
from discord.http import Route, json_or_text
from discord.utils import _to_json

ATTEMPTS: Final = 5
_JSON: Final = {"Content-Type": "application/json"}
_RESET: Final = (54, 10054)  # the connection reset by the peer (as discord.py retries)


async def token_request(
    session: aiohttp.ClientSession,
    method: str,
    path: str,
    payload: dict[str, Any],
    *,
    params: dict[str, str] | None = None,
    proxy: str | None = None,
    proxy_auth: aiohttp.BasicAuth | None = None,
    want_json: bool = False,
) -> Any:
    """``method`` ``path`` (under the API's base) with ``payload`` as JSON; Discord's answer
    decoded when ``want_json`` (else read and dropped: the connection goes back to the pool)."""
    url = Route.BASE + path
    body = _to_json(payload)
    for attempt in range(ATTEMPTS):
        last = attempt == ATTEMPTS - 1
        try:
            async with session.request(
                method,
                url,
                data=body,
                headers=_JSON,
                params=params,
                proxy=proxy,
                proxy_auth=proxy_auth,
            ) as response:
                status = response.status
                if 200 <= status < 300:
                    if want_json:
                        return await json_or_text(response)
                    await response.read()
                    return None
                data = await json_or_text(response)
                if status == 429 and response.headers.get("Via") and not last:
                    # Discord's own limit (without Via: Cloudflare's, not to be hammered)
                    await asyncio.sleep(float(data["retry_after"]) if isinstance(data, dict) else 1)
                    continue
                if status >= 500 and not last:
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                raise _refusal(response, data)
        except OSError as e:
            if not last and e.errno in _RESET:
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def _refusal(response: aiohttp.ClientResponse, data: dict[str, Any] | str) -> Exception:
    if response.status == 404:
        return discord.NotFound(response, data)
    if response.status == 403:
        return discord.Forbidden(response, data)
    if response.status >= 500:
        return discord.DiscordServerError(response, data)
    return discord.HTTPException(response, data)
