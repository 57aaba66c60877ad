"""Verifiable deals in words (docs/verifiable-deals.md): the commitment a running game shows,
the seed revealed at its end, and the answer of ``/spades verify``.

The seed is only ever shown through :func:`reveal_text`, which gives nothing for a table whose
game is still running: a seed shown early would give away every hand still to come.  A
duplicate round's tables share one seed: a table that ends while another of them still plays
says when the seed will be revealed instead (:func:`withheld_text`), and a stored record read
meanwhile has no ``seed`` (bot.store.league_history).
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import NotVerified
from bot.engine.lines import Line
from bot.engine.verify import verify
from bot.i18n import _
from bot.i18n.lines import line_text
from bot.tables.state import Table

DOC = "docs/verifiable-deals.md"


def how() -> str:
    return _(
        "How to check by hand ({doc} in the bot's source): SHA-256 of the seed must be the "
        "commitment the table message showed while the game ran; each hand's deck (in card "
        "order) is shuffled by Fisher–Yates with random numbers from HMAC-SHA256 keyed with "
        'the seed (message "deal", 0x00, the hand number, a block counter), then dealt round '
        'the table; the draw for first dealer likewise ("draw", the round).  '
        "Or run `python -m bot.engine verify` on the record file from `/history`.",
        doc=DOC,
    )


def commitment_footer(table: Table) -> str:
    """`` · deals committed 3f2a…`` for the table message's footer (nothing for a game
    without a seed)."""
    if table.seed is None:
        return ""
    return " · " + _("deals committed {commitment}", commitment=table.seed.short_commitment)


def reveal_text(table: Table) -> str | None:
    """The game's seed and full commitment, once it is over; ``None`` without a seed, and
    ``None`` while the table is still open (the seed stays hidden, whoever asks)."""
    if table.seed is None or table.game is None or table.open:
        return None
    seed = table.seed
    if table.seed_withheld:
        return withheld_text(table.id, seed.short_commitment)
    return _(
        "Seed: `{seed}`\nCommitment (SHA-256 of the seed): `{commitment}` — the table showed "
        "`{short}` from the first deal on.\nCheck every deal: `/spades verify game:{table}`, "
        "or `python -m bot.engine verify` on the record from `/history` ({doc}).",
        seed=seed.reveal(),
        commitment=seed.commitment,
        short=seed.short_commitment,
        table=table.id,
        doc=DOC,
    )


def withheld_text(table_id: str, short: str) -> str:
    """What a game whose seed another table still deals from (a duplicate round) says in
    place of the seed: when it comes, and how to check then."""
    return _(
        "This game's deals are the round's: other tables are still playing them, so the seed "
        "is revealed when the round's last table ends (in the tournament's round notice). "
        "Then check every deal with `/spades verify game:{table}`, or `python -m bot.engine "
        "verify` on the record from `/history` ({doc}). The commitment began `{short}`.",
        table=table_id,
        short=short,
        doc=DOC,
    )


def withheld_answer(game_id: int, doc: dict[str, Any]) -> str:
    """What ``/spades verify`` says of a finished game whose seed is still withheld."""
    commitment = str(doc.get("commitment", ""))
    return _(
        "Game #{id} is over, but other tables of its round are still playing the same deals: "
        "its seed is revealed when the round's last table ends. Its commitment is "
        "`{commitment}`.",
        id=game_id,
        commitment=commitment,
    )


def boards_withheld_note(hand: int) -> str:
    """What a spectator of a duplicate round's table sees in place of a finished hand's
    deal while the round's other tables may still play that board (Table.boards_withheld)."""
    return _(
        "Hand {number}'s deal is a board other tables of the round may still be playing: it "
        "is shown when the round's last table ends.",
        number=hand,
    )


def commitment_only(table: Table) -> str:
    """What ``/spades verify`` says of a game still being played."""
    if table.seed is None:
        return _("That game is still being played, and it was started before verifiable deals.")
    return _(
        "That game is still being played: its seed is revealed when it ends. Its commitment "
        "(on the table message) begins `{short}`.",
        short=table.seed.short_commitment,
    )


def verify_answer(game_id: int, doc: Any) -> str:
    """The answer of ``/spades verify`` for a game's record: the result, what was checked,
    how to check by hand."""
    if not isinstance(doc, dict) or "seed" not in doc:
        return _(
            "Game #{id} was played before verifiable deals: it has no seed, so its "
            "deals cannot be checked.",
            id=game_id,
        )
    checks: list[Line] = []
    try:
        checks.extend(verify(doc))
    except NotVerified as e:
        reason = line_text(e.line)
        head = _("❌ **Game #{id} does not verify**: {reason}.", id=game_id, reason=reason)
        done = [line_text(c) for c in checks if not c.startswith("hand ")]
    else:
        head = _("✅ **Game #{id} verifies.**", id=game_id)
        hands = sum(c.startswith("hand ") for c in checks)
        done = [line_text(c) for c in checks if not c.startswith("hand ")]
        done.insert(-1, _("{n} deals recomputed from the seed, each one as recorded", n=hands))
    body = "\n".join(f"• {c}" for c in done)
    return f"{head}\n{body}\n\n{how()}"[:2000]
