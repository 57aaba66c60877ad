"""Each game's seed in the table service (docs/verifiable-deals.md), on SQLite and PostgreSQL:
drawn at the start, the draw for first dealer and every deal derived from it, stored, kept by
a table restored after a restart, never in a log line or a repr; a game from before seeds
still loads, deals and exports (without seed fields)."""

from __future__ import annotations

import logging
import random

import pytest

from bot.engine import Rules, SeatView, seat_view
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import NotVerified
from bot.engine.record import export_record
from bot.engine.verify import verify
from bot.league_link import finished_game
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.state import Table
from bot.ui.table.render import table_embed
from bot.ui.text.seed_text import reveal_text, verify_answer
from tests.engine.test_verifiable_deals import seed_of, seeded_game
from tests.tables.test_service import act_once, decide, started_table


async def play_to_hand(svc: TableService, table: Table, hand: int, rng: random.Random) -> None:
    assert table.game is not None
    while table.game.hand_number < hand:
        await act_once(svc, table, rng)


async def test_a_game_is_dealt_from_its_seed_which_survives_a_restart(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    rng = random.Random(5)
    async with Database.open(database_url) as db:
        svc = TableService(db, decide, bot_delay=0)  # no test seed: from the operating system
        # Deals no one chose: at the default target of 200 some end the game in two hands
        # (1 run in 8 or so); no two hands reach 1,000.
        table = await started_table(svc, target=1000)
        seed = table.seed
        assert seed is not None
        assert table.game is not None
        rounds, dealer = draw_first_dealer(seed.secret, table.seat_order)
        assert table.game.first_dealer == dealer
        assert table.dealer_draw == [{s.name: c.code for s, c in r.items()} for r in rounds]
        await play_to_hand(svc, table, 2, rng)
        await svc.close()
    async with Database.open(database_url) as db:
        svc = TableService(db, decide, bot_delay=0)
        (restored,) = await svc.restore()
        assert restored.seed == seed
        await play_to_hand(svc, restored, 3, rng)
        assert restored.game is not None
        doc = export_record(restored.game, None, restored.seed)
        checked = list(verify(doc))
        assert checked[-1].endswith("all 3 deals come from the seed")
        await svc.close()
    secret = seed.reveal()
    assert secret not in caplog.text
    assert secret not in repr(table)
    assert secret not in repr(restored)


async def test_the_seed_is_shown_only_once_the_game_is_over(database_url: str) -> None:
    async with Database.open(database_url) as db:
        svc = TableService(db, decide, test_seed=11, bot_delay=0)
        table = await started_table(svc)
        assert table.seed is not None
        assert table.game is not None
        footer = table_embed(table, public_view(table)).footer.text
        assert footer is not None
        assert footer.endswith(f"deals committed {table.seed.short_commitment}")
        assert reveal_text(table) is None  # the game runs: the seed stays hidden
        await svc.endings.abandon(table, table.host_id, is_admin=True, name="mod")
        revealed = reveal_text(table)
        assert revealed is not None
        assert table.seed.reveal() in revealed
        assert table.seed.commitment in revealed
        # The league's record of the ended game reveals the seed, and it verifies.
        finished = finished_game(table, table.game)
        assert finished is not None
        assert finished.record["seed"] == table.seed.reveal()
        assert list(verify(finished.record))[-1].startswith("verified")
        await svc.close()


async def test_a_game_started_before_seeds_still_loads_deals_and_exports(
    database_url: str,
) -> None:
    rng = random.Random(2)
    async with Database.open(database_url) as db:
        svc = TableService(db, decide, test_seed=4, bot_delay=0)
        table = await started_table(svc)
        # As a table started before migration 008 left it: no seed.
        async with db.transaction() as tx:
            await svc.store.update_table(tx, table.id, seed=None)
        await svc.close()
    async with Database.open(database_url) as db:
        svc = TableService(db, decide, test_seed=4, bot_delay=0)
        (restored,) = await svc.restore()
        assert restored.seed is None
        await play_to_hand(svc, restored, 2, rng)
        assert restored.game is not None
        assert table_embed(restored, public_view(restored)).footer.text == (
            f"Table {restored.id} · hand 2"
        )
        doc = export_record(restored.game, None, restored.seed)
        assert "seed" not in doc
        assert "commitment" not in doc
        with pytest.raises(NotVerified, match="no seed"):
            list(verify(doc))
        await svc.close()


def public_view(table: Table) -> SeatView:
    assert table.game is not None
    return seat_view(table.game, None)


def test_the_verify_answer_gives_the_result_what_was_checked_and_the_steps() -> None:
    seed = seed_of("answer")
    doc = export_record(seeded_game(Rules.from_preset("standard"), seed, hands=3), None, seed)
    good = verify_answer(7, doc)
    assert good.startswith("✅ **Game #7 verifies.**\n• commitment: SHA-256 of the seed is ")
    assert "• 3 deals recomputed from the seed, each one as recorded\n• verified: " in good
    assert "docs/verifiable-deals.md" in good
    assert "python -m bot.engine verify" in good
    deal = doc["hands"][2]["deal"]
    deal["S"][0], deal["E"][0] = deal["E"][0], deal["S"][0]
    bad = verify_answer(7, doc)
    assert bad.startswith("❌ **Game #7 does not verify**: hand 3, East: the record deals ")
    assert "recomputed" not in bad
    del doc["seed"]
    assert verify_answer(7, doc).startswith("Game #7 was played before verifiable deals")
