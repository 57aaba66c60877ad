"""Start-up of the bot (placeholder until the Discord layer lands)."""

from __future__ import annotations

import os
import sys

from dotenv import load_dotenv


def run() -> int:
    load_dotenv()
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("DISCORD_TOKEN is not set: put it in .env (see .env.example)", file=sys.stderr)
        return 2
    print("The Discord layer is not built yet.", file=sys.stderr)
    return 2
