"""Discord permission bits, the defaults the fake grants, and how a base value resolves."""

from __future__ import annotations

import enum


class Perm(enum.IntFlag):
    """Discord permission bits (the subset a card-game bot cares about, plus a few more)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_DEFAULT = int(
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | int(Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS)


def perms(*names: str | Perm) -> int:
    """``perms("manage_guild", Perm.ADMINISTRATOR)`` -> permission int."""
    value = 0
    for name in names:
        value |= int(name) if isinstance(name, Perm) else int(Perm[name.upper()])
    return value


def resolve_permissions(base: int) -> int:
    return ALL_PERMISSIONS if base & Perm.ADMINISTRATOR else base
