"""A message's arguments made fit for discord.py's webhook calls (bot/webhook_args.py): a
follow-up is never told ``None`` (``Webhook.send`` raises ``TypeError`` for ``view=None``), an
edit never gets a ``file``."""

from __future__ import annotations

import inspect
import io

import discord

from bot.webhook_args import EDIT_KEYS, FOLLOWUP_KEYS, for_edit, for_followup


def test_a_followup_leaves_out_none_and_keys_the_call_does_not_take() -> None:
    embed = discord.Embed(title="table")
    sent = for_followup(
        {"embed": embed, "view": None, "file": None, "content": None, "delete_after": 5}
    )
    assert sent == {"embed": embed}


def test_an_edit_keeps_none_and_carries_files_as_attachments() -> None:
    file = discord.File(io.BytesIO(b"png"), filename="deal.png")
    edit = for_edit({"embed": None, "view": None, "file": file, "suppress_embeds": True})
    assert edit == {"embed": None, "view": None, "attachments": [file]}
    assert for_edit({"content": "x", "attachments": []}) == {"content": "x", "attachments": []}


def test_the_keys_are_the_webhook_calls_own() -> None:
    send = inspect.signature(discord.Webhook.send).parameters
    edit = inspect.signature(discord.Webhook.edit_message).parameters
    original = inspect.signature(discord.Interaction.edit_original_response).parameters
    assert set(send) >= FOLLOWUP_KEYS
    assert set(edit) >= EDIT_KEYS
    assert set(original) >= EDIT_KEYS
