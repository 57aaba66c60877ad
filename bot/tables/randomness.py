"""Every random choice of the table service: table ids, deals and computer players' seeds.

In production they come from the operating system.  With a test seed (``SPADES_TEST_SEED``)
they are derived from the seed and the table, so a test can replay a game exactly.
"""

from __future__ import annotations

import random
import secrets

from bot.engine import Deal, Game
from bot.tables.state import Table

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class TableRandomness:
    def __init__(self, test_seed: int | None = None) -> None:
        self.test_seed = test_seed
        self._table_counter = 0

    def table_id(self) -> str:
        """A new table id.  With a test seed, the n-th id of a run is always the same (so a
        seeded run deals the same cards every time); after a restart the sequence starts
        again, and the caller asks for the next id while one is taken."""
        if self.test_seed is not None:
            self._table_counter += 1
            rng = random.Random(f"{self.test_seed}:table:{self._table_counter}")
            return "".join(rng.choice(ID_ALPHABET) for _ in range(8))
        return "".join(secrets.choice(ID_ALPHABET) for _ in range(8))

    def rng(self, table: Table, salt: int) -> random.Random:
        """The generator of one random event at a table (``salt`` names the event)."""
        if table.deal_source is not None:  # shared by the tables of a duplicate round
            return random.Random(f"{table.deal_source}:{salt}")
        if self.test_seed is None:
            return secrets.SystemRandom()
        # Not hash(): string hashing is randomised per process, and a restarted bot must
        # make the same choices from the same state in tests.
        return random.Random(f"{self.test_seed}:{table.id}:{salt}")

    def deal(self, table: Table, game: Game) -> Deal:
        """Shuffle and deal the next hand of ``game`` (its own way: 13 cards to four seats, 17 to
        three; Whist turns up the dealer's last card, Euchre deals five each and turns up the
        kitty's top card)."""
        return game.random_deal(self.rng(table, game.hand_number))

    def computer_seed(self, table: Table, seq: int) -> int:
        """The seed of a computer player's decision after ``seq`` stored actions."""
        return self.rng(table, seq).getrandbits(32)
