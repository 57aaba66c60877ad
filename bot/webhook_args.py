"""What discord.py's webhook calls take: a message's arguments made fit for a follow-up or for
an edit through an interaction token.

The bot writes a message as keyword arguments — ``content``, ``embed``, ``view``, ``file`` —
the same for a channel message, an interaction's answer and a token's follow-up or edit.  The
webhook calls are stricter than the others:

* :meth:`discord.Webhook.send` (a follow-up) refuses ``None`` where a channel send or an edit
  reads it as "none": ``view=None`` raises :class:`TypeError`, ``file=None`` or ``files=None``
  fail on the missing file, ``embeds=None`` on its length.  A new message without a view has
  no components anyway, so a ``None`` is left out;
* :meth:`discord.Webhook.edit_message` (and ``edit_original_response``) takes no ``file``,
  ``files``, ``delete_after`` or ``suppress_embeds``: new files go in ``attachments``, where
  a ``None`` (clear) is meaningful and kept.

:func:`for_followup` and :func:`for_edit` return arguments the call accepts (unknown keys
left out), so no payload the bot builds can raise in discord.py before the request is made.
"""

from __future__ import annotations

from typing import Any, Final

FOLLOWUP_KEYS: Final = frozenset(
    {
        "content",
        "embed",
        "embeds",
        "file",
        "files",
        "view",
        "tts",
        "ephemeral",
        "allowed_mentions",
        "suppress_embeds",
        "silent",
        "wait",
    }
)
EDIT_KEYS: Final = frozenset(
    {"content", "embed", "embeds", "attachments", "view", "allowed_mentions"}
)


def for_followup(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` as :meth:`discord.Webhook.send` takes them: its own keys, without ``None``."""
    return {k: v for k, v in kwargs.items() if k in FOLLOWUP_KEYS and v is not None}


def for_edit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` as :meth:`discord.Webhook.edit_message` takes them: a ``file`` or ``files``
    becomes the message's ``attachments`` (what it then carries), other keys are left out."""
    out = {k: v for k, v in kwargs.items() if k in EDIT_KEYS}
    files = [f for f in (kwargs.get("file"), *(kwargs.get("files") or ())) if f is not None]
    if files and "attachments" not in out:
        out["attachments"] = files
    return out
