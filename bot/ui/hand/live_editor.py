"""The Discord side of live hands (:mod:`bot.tables.live`).

A handle is a :class:`HandMessage`: the webhook of the interaction whose answer showed the
player their hand (its token edits that message for 15 minutes) and how that token names the
message — its id when the answer created it, ``@original`` when the answer was an update of
the clicked message (Discord lets a token edit by id only what it created) — not
the interaction itself, which carries the whole message it was clicked on and would be kept
for every seated player.  An edit is ``PATCH /webhooks/{app}/{token}/messages/{id}`` with the
message as JSON (:func:`bot.ui.hand.hand.hand_json`), made by :func:`bot.token_http.token_request`
(429s waited out, discord.py's exceptions) without building discord.py objects for the hand's
buttons or decoding the edited message Discord returns: live edits are the bot's most frequent
request."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import discord
from discord.webhook.async_ import async_context

from bot import timely
from bot.engine import GameError, Seat
from bot.errors import Duplicate, NotSeated, NotYourButtons, Refusal, StaleButton
from bot.i18n import language_of, use
from bot.tables.live import Answer, Edit, LiveHands, live_key
from bot.tables.state import Table
from bot.token_http import token_request
from bot.ui.discord.failures import refusal_text
from bot.ui.discord.surfaces import INVALID_WEBHOOK_TOKEN, ORIGINAL
from bot.ui.hand.hand import hand_json

log = logging.getLogger(__name__)
WITH_COMPONENTS: Final = {"with_components": "1"}  # the buttons of a message the bot owns


@dataclass(frozen=True, slots=True)
class HandMessage:
    webhook: discord.Webhook
    message_id: int
    language: str = "en"  # the player's, from the interaction that showed the hand


def hand_message(
    interaction: discord.Interaction[Any], answered: Any, *, edited: bool
) -> HandMessage | None:
    """The hand message an answer showed: ``edited``, the message the clicked button is on;
    otherwise the new message the answer created.  ``answered`` is what the answer returned
    (``None`` or ``False`` when it could not be delivered: then there is no message to
    follow): the new message's id, or discord.py's answer naming it."""
    if answered is None or answered is False:
        return None
    if edited:  # the clicked message: its id is another token's, it is this one's @original
        message_id = ORIGINAL if interaction.message is not None else None
    elif isinstance(answered, int):
        message_id = answered
    else:  # InteractionCallbackResponse, or the follow-up of a deferred answer
        message_id = getattr(answered, "message_id", None) or getattr(answered, "id", None)
    if message_id is None:
        return None
    return HandMessage(interaction.followup, message_id, language_of(interaction.locale))


async def send_hand(
    interaction: discord.Interaction[Any],
    answer: Answer,
    table: Table,
    seat: Seat,
    notice: str | None = None,
    *,
    edit: bool = False,
) -> None:
    """Answer with the player's hand (a new ephemeral message, or ``edit`` the one the
    button is on); that message then follows the game live: ``answer`` (opened by
    :meth:`bot.tables.live.LiveHands.answering`) takes it and what it shows.  The hand goes
    as Discord's JSON, as its live edits do (:func:`bot.ui.hand.hand.hand_json`)."""
    payload = hand_json(table, seat, notice)
    key = live_key(table, seat)  # what the message shows: rendered before any await
    response = timely.guard(interaction)  # guarded already by the click's or command's way
    answered: int | bool | None
    if edit:
        await answer.after_live_edit()  # land after the live edit of this message on its way
        answered = await response.edit_json(payload)
    else:
        answered = await response.send_json(payload, ephemeral=True)
    handle = hand_message(interaction, answered, edited=edit)
    if handle is not None:
        answer.shown(handle, key)


async def answer_on_hand(
    interaction: discord.Interaction[Any],
    live: LiveHands,
    table: Table,
    seat: Seat | None,
    act: Callable[[], Awaitable[str | None]],
    *,
    stale_is_news: bool = True,
) -> None:
    """A click on a player's hand message (a move, Refresh, a hint), answered by editing that
    message to the current hand, which then follows the game live, with a notice on it: what
    ``act`` did (its answer), or why not — a refusal or an engine error in the words
    :func:`bot.ui.discord.failures.answer_error` uses, marked ⚠.  A stale button's reason is news,
    unmarked, when ``stale_is_news`` (a move's button from an earlier hand: the hand shown is
    the one to play).  What is not for this hand — another player's buttons, a member not
    seated, a repeated click — and any refusal once the game is over are raised, for
    ``answer_error`` to answer alone."""
    with live.answering(table, interaction.user.id) as answer:
        try:
            notice = await act()
        except (NotYourButtons, NotSeated, Duplicate):
            raise  # not theirs to see
        except (Refusal, GameError) as e:
            if table.game is None:
                raise
            news = stale_is_news and isinstance(e, StaleButton)
            notice = f"{'' if news else '⚠ '}{refusal_text(e)}"
            timely.judge(interaction, "refused")  # shown on the hand, counted as refused
        assert seat is not None  # checked by ``act``: the member plays it
        await send_hand(interaction, answer, table, seat, notice, edit=True)


class InteractionHandEditor:
    """Implements :class:`bot.tables.live.HandEditor`."""

    async def edit(self, handle: Any, table: Table, seat: Seat) -> Edit:
        message: HandMessage = handle
        if table.game is None:
            return Edit.GONE
        with use(message.language):
            payload = hand_json(table, seat)  # rendered now, before any await
        return await edit_live_message(
            message,
            payload=payload,
            failed=("live edit of a hand at table %s failed: %s", table.id),
        )


async def edit_live_message(
    message: HandMessage,
    *,
    payload: dict[str, Any] | None,
    failed: tuple[str, str],
    multipart: list[dict[str, Any]] | None = None,
    files: list[discord.File] | None = None,
) -> Edit:
    """Edit a message that follows the game live (a hand, a spectator's view) through its
    interaction token: ``PATCH /webhooks/{app}/{token}/messages/{id}``.  GONE when the message
    was dismissed or deleted, or the token ended (15 minutes) or may not any more; FAILED on
    any other refusal or failure, logged with ``failed`` (a format and the table's id)."""
    webhook = message.webhook
    assert webhook.token is not None
    try:
        if multipart is None and payload is not None:  # the usual case: JSON alone
            await token_request(
                webhook.session,
                "PATCH",
                f"/webhooks/{webhook.id}/{webhook.token}/messages/{message.message_id}",
                payload,
                params=WITH_COMPONENTS,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
            )
        else:  # files (a spectator's picture): discord.py builds the multipart body
            await async_context.get().edit_webhook_message(
                webhook.id,
                webhook.token,
                message.message_id,
                session=webhook.session,
                proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth,
                payload=payload,
                multipart=multipart,
                files=files,
                with_components=True,
            )
    except discord.NotFound:
        return Edit.GONE  # the message was dismissed or deleted
    except discord.HTTPException as e:
        if e.status in (401, 403) or e.code == INVALID_WEBHOOK_TOKEN:
            return Edit.GONE  # the token expired (15 minutes), or we may not any more
        log.warning(*failed, e)
        return Edit.FAILED
    except Exception as e:  # not a refusal (a dropped connection…): as FAILED, with its traceback
        log.warning(*failed, type(e).__name__, exc_info=True)
        return Edit.FAILED
    return Edit.SHOWN
