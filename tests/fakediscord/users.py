"""Users of the fake Discord (people and bots), as discord.py 2.7 expects their JSON."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class User:
    __slots__ = ("_payload", "bot", "global_name", "id", "locale", "name")

    def __init__(self, id: int, name: str, *, bot: bool = False, global_name: str | None = None):
        self.id = id
        self.name = name
        self.bot = bot
        self.global_name = global_name
        self.locale = "en-US"  # the client's language: each interaction's ``locale``
        self._payload: JSON | None = None

    def payload(self) -> JSON:
        if self._payload is None:
            self._payload = {
                "id": str(self.id),
                "username": self.name,
                "discriminator": "0",
                "global_name": self.global_name or self.name,
                "avatar": None,
                "bot": self.bot,
                "public_flags": 0,
                "flags": 0,
            }
        return self._payload

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"
