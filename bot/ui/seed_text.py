"""Verifiable deals in words (docs/verifiable-deals.md): the commitment a running game shows,
the seed revealed at its end, and the answer of ``/spades verify``.

The seed is only ever shown through :func:`reveal_text`, which gives nothing for a table whose
game is still running: a seed shown early would give away every hand still to come.
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import NotVerified
from bot.engine.verify import verify
from bot.tables.state import Table

DOC = "docs/verifiable-deals.md"
HOW = (
    f"How to check by hand ({DOC} in the bot's source): SHA-256 of the seed must be the "
    "commitment the table message showed while the game ran; each hand's deck (in card "
    "order) is shuffled by Fisher–Yates with random numbers from HMAC-SHA256 keyed with the "
    'seed (message "deal", 0x00, the hand number, a block counter), then dealt round the '
    'table; the draw for first dealer likewise ("draw", the round).  '
    "Or run `python -m bot.engine verify` on the record file from `/history`."
)


def commitment_footer(table: Table) -> str:
    """`` · deals committed 3f2a…`` for the table message's footer (nothing for a game
    without a seed)."""
    if table.seed is None:
        return ""
    return f" · deals committed {table.seed.short_commitment}"


def reveal_text(table: Table) -> str | None:
    """The game's seed and full commitment, once it is over; ``None`` without a seed, and
    ``None`` while the table is still open (the seed stays hidden, whoever asks)."""
    if table.seed is None or table.game is None or table.open:
        return None
    seed = table.seed
    return (
        f"Seed: `{seed.reveal()}`\n"
        f"Commitment (SHA-256 of the seed): `{seed.commitment}` — the table showed "
        f"`{seed.short_commitment}` from the first deal on.\n"
        f"Check every deal: `/spades verify game:{table.id}`, or "
        f"`python -m bot.engine verify` on the record from `/history` ({DOC})."
    )


def commitment_only(table: Table) -> str:
    """What ``/spades verify`` says of a game still being played."""
    if table.seed is None:
        return "That game is still being played, and it was started before verifiable deals."
    return (
        "That game is still being played: its seed is revealed when it ends. Its commitment "
        f"(on the table message) begins `{table.seed.short_commitment}`."
    )


def verify_answer(game_id: int, doc: Any) -> str:
    """The answer of ``/spades verify`` for a game's record: the result, what was checked,
    how to check by hand."""
    if not isinstance(doc, dict) or "seed" not in doc:
        return (
            f"Game #{game_id} was played before verifiable deals: it has no seed, so its "
            "deals cannot be checked."
        )
    checks: list[str] = []
    try:
        checks.extend(verify(doc))
    except NotVerified as e:
        head = f"❌ **Game #{game_id} does not verify**: {e.reason}."
        done = [c for c in checks if not c.startswith("hand ")]
    else:
        head = f"✅ **Game #{game_id} verifies.**"
        hands = sum(c.startswith("hand ") for c in checks)
        done = [c for c in checks if not c.startswith("hand ")]
        done.insert(-1, f"{hands} deals recomputed from the seed, each one as recorded")
    body = "\n".join(f"• {c}" for c in done)
    return f"{head}\n{body}\n\n{HOW}"[:2000]
