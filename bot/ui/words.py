"""Small pieces of English shared by the renderers."""

from __future__ import annotations


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games`` (``plural_form`` for irregular nouns)."""
    return f"{n} {noun if n == 1 else plural_form or noun + 's'}"
