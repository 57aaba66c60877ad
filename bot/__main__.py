"""``python -m bot``: start the Discord bot (reads DISCORD_TOKEN from .env)."""

from __future__ import annotations

import sys


def main() -> int:
    from bot.app import run

    return run()


if __name__ == "__main__":
    sys.exit(main())
