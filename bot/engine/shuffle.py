"""Verifiable deals (``docs/verifiable-deals.md``): a game's secret seed, its public commitment,
and every shuffle of the game derived from the seed.

Each game draws a 32-byte seed and shows its **commitment**, the SHA-256 of the seed, from the
first deal on; the seed itself is revealed only when the game is over.  Every shuffle of the
game (each hand's deal, each round of the draw for first dealer) is a Fisher–Yates shuffle
whose random numbers come from HMAC-SHA256 keyed with the seed, in counter mode:

* block *k* of the stream ``(label, number)`` is
  ``HMAC-SHA256(key=seed, msg=label ‖ 0x00 ‖ u32be(number) ‖ u32be(k))``, *k* = 0, 1, 2 …;
  ``label`` is ASCII ``deal`` (``number``: the hand, from 1) or ``draw`` (the round of the
  draw for first dealer, from 1);
* the blocks are read as consecutive big-endian 32-bit words;
* a uniform integer in [0, n) takes the next word *w* and keeps ``w mod n`` when
  ``w < 2³² − (2³² mod n)``, else it drops *w* and takes the next (rejection: no modulo bias);
* the shuffle runs ``i`` from the last position down to 1, swapping positions ``i`` and a
  uniform ``j`` in [0, i].

Nothing here does I/O; drawing the seed itself is the table service's job.

>>> seed = GameSeed(bytes(32))
>>> seed.commitment[:16]
'66687aadf862bd77'
>>> shuffled(seed.secret, DEAL, 1, "abcde")
['e', 'a', 'b', 'c', 'd']
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

SEED_BYTES: Final = 32
SHORT_COMMITMENT: Final = 16  # hex characters of the commitment shown during the game
DEAL: Final = "deal"  # label of hand n's shuffle
DRAW: Final = "draw"  # label of round r of the draw for first dealer
_WORDS: Final = 1 << 32

T = TypeVar("T")


def commitment(secret: bytes) -> str:
    """The commitment to a seed: SHA-256 of its 32 bytes, lowercase hex (64 characters)."""
    return hashlib.sha256(secret).hexdigest()


@dataclass(frozen=True, slots=True, repr=False)
class GameSeed:
    """A game's secret seed.  Its ``repr`` shows only the commitment, so a seed that reaches
    a log line or an error message by accident gives nothing away; :meth:`reveal` is the one
    way to its value (for the end of the game)."""

    secret: bytes

    def __post_init__(self) -> None:
        if len(self.secret) != SEED_BYTES:
            raise ValueError(f"a game seed is {SEED_BYTES} bytes, not {len(self.secret)}")

    @classmethod
    def from_hex(cls, text: str) -> GameSeed:
        """The seed written as 64 hex digits (a record's ``seed``); ``ValueError`` otherwise."""
        if not isinstance(text, str) or len(text) != 2 * SEED_BYTES:
            raise ValueError(f"a seed is written as {2 * SEED_BYTES} hex digits")
        try:
            return cls(bytes.fromhex(text))
        except ValueError:
            raise ValueError(f"a seed is written as {2 * SEED_BYTES} hex digits") from None

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    @property
    def short_commitment(self) -> str:
        """The first :data:`SHORT_COMMITMENT` hex digits of the commitment."""
        return self.commitment[:SHORT_COMMITMENT]

    def reveal(self) -> str:
        """The seed as 64 lowercase hex digits: only once the game is over."""
        return self.secret.hex()

    def __repr__(self) -> str:
        return f"GameSeed(commitment={self.short_commitment}…)"


def stream_words(secret: bytes, label: str, number: int) -> Iterator[int]:
    """The stream ``(label, number)``: big-endian 32-bit words of consecutive HMAC blocks."""
    if not 0 <= number < _WORDS:
        raise ValueError(f"a stream number is in [0, 2^32), not {number}")
    head = label.encode("ascii") + b"\x00" + number.to_bytes(4, "big")
    digest = hmac.digest
    k = 0
    while True:
        block = digest(secret, head + k.to_bytes(4, "big"), "sha256")
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def uniform_below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) from ``words``, by rejection sampling."""
    limit = _WORDS - _WORDS % n
    for w in words:
        if w < limit:
            return w % n
    raise AssertionError("the stream is endless")  # pragma: no cover


def shuffled(secret: bytes, label: str, number: int, items: Sequence[T]) -> list[T]:
    """``items`` shuffled by the stream ``(label, number)`` of the seed ``secret``."""
    out = list(items)
    words = stream_words(secret, label, number)
    for i in range(len(out) - 1, 0, -1):
        j = uniform_below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
