"""Every random choice of the table service: table ids, game seeds and computer players' seeds.

In production they come from the operating system.  With a test seed (``SPADES_TEST_SEED``)
they are derived from the seed and the table, so a test can replay a game exactly.  A game's
deals and its draw for first dealer come from the game's own seed (docs/verifiable-deals.md);
only a game started before seeds existed is dealt by :meth:`TableRandomness.rng`.
"""

from __future__ import annotations

import random
import secrets

from bot.engine import Deal, Game
from bot.engine.shuffle import SEED_BYTES, GameSeed
from bot.tables.state import Table

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class TableRandomness:
    def __init__(self, test_seed: int | None = None) -> None:
        self.test_seed = test_seed
        self._table_counter = 0
        self._secret_counter = 0

    def table_id(self) -> str:
        """A new table id.  With a test seed, the n-th id of a run is always the same (so a
        seeded run deals the same cards every time); after a restart the sequence starts
        again, and the caller asks for the next id while one is taken."""
        if self.test_seed is not None:
            self._table_counter += 1
            rng = random.Random(f"{self.test_seed}:table:{self._table_counter}")
            return "".join(rng.choice(ID_ALPHABET) for _ in range(8))
        return "".join(secrets.choice(ID_ALPHABET) for _ in range(8))

    def secret(self, label: str) -> str:
        """A new secret of 32 bytes as 64 hex digits (an organiser's: a tournament's draws
        and deal keys derive from it): from the operating system; with a test seed, from the
        seed, ``label`` and how many were drawn before in this run, so a seeded test draws
        the same every run."""
        if self.test_seed is None:
            return secrets.token_hex(SEED_BYTES)
        self._secret_counter += 1
        label = f"{self.test_seed}:secret:{label}:{self._secret_counter}"
        return random.Random(label).randbytes(SEED_BYTES).hex()

    def rng(self, table: Table, salt: int) -> random.Random:
        """The generator of one random event at a table (``salt`` names the event)."""
        if self.test_seed is None:
            return secrets.SystemRandom()
        # Not hash(): string hashing is randomised per process, and a restarted bot must
        # make the same choices from the same state in tests.
        return random.Random(f"{self.test_seed}:{table.id}:{salt}")

    def game_seed(self, table: Table) -> GameSeed:
        """A new game's secret seed: 32 bytes from the operating system (with a test seed:
        from the test seed and the table id).  A table given a ``deal_source`` (a duplicate
        round's key, 64 hex digits) takes it as its seed: every table of the round draws the
        same dealer and deals the same boards, and each can be verified like any game."""
        if table.deal_source is not None:
            return GameSeed.from_hex(table.deal_source)
        if self.test_seed is None:
            return GameSeed(secrets.token_bytes(SEED_BYTES))
        return GameSeed(random.Random(f"{self.test_seed}:{table.id}:seed").randbytes(SEED_BYTES))

    def deal(self, table: Table, game: Game) -> Deal:
        """Shuffle and deal the next hand of ``game`` (its own way: 13 cards to four seats, 17 to
        three; Whist turns up the dealer's last card, Euchre deals five each and turns up the
        kitty's top card): from the table's seed, or for a game without one (started before
        seeds) from the operating system."""
        if table.seed is not None:
            return game.seeded_deal(table.seed.secret)
        return game.random_deal(self.rng(table, game.hand_number))

    def computer_seed(self, table: Table, seq: int) -> int:
        """The seed of a computer player's decision after ``seq`` stored actions."""
        return self.rng(table, seq).getrandbits(32)
