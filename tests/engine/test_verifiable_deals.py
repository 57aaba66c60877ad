"""Verifiable deals (docs/verifiable-deals.md): the published procedure, reproduced here by a
few independent lines (standard library only), gives the deals and the first dealer the bot
gives; a record with its seed verifies; a record with one card swapped, a changed seed or a
changed commitment is refused with the reason."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game, Rules, Seat
from bot.engine.__main__ import main
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import NotVerified
from bot.engine.games import preset_names
from bot.engine.record import export_record
from bot.engine.shuffle import DEAL, GameSeed, stream_words, uniform_below
from bot.engine.verify import verify
from tests.engine.seeded import seeded_game

Doc = dict[str, Any]


# ---------------------------------------------------------------------- the procedure, again
# Written from docs/verifiable-deals.md alone: no code of the bot below this line until the
# comparisons.
RANKS = "23456789TJQKA"


def words(seed: bytes, label: bytes, number: int) -> Iterator[int]:
    for k in range(1 << 32):
        msg = label + b"\x00" + struct.pack(">II", number, k)
        yield from struct.unpack(">8I", hmac.new(seed, msg, hashlib.sha256).digest())


def fisher_yates(seed: bytes, label: bytes, number: int, deck: list[str]) -> list[str]:
    deck, w = list(deck), words(seed, label, number)
    for i in range(len(deck) - 1, 0, -1):
        x = next(w)
        while x >= 2**32 - 2**32 % (i + 1):
            x = next(w)
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_of(deck: str, players: int) -> list[str]:
    lowest = {"euchre24": "9", "euchre28": "8", "euchre32": "7"}.get(deck, "2")
    cards = [r + s for s in "SHDC" for r in RANKS[RANKS.index(lowest) :]]
    if deck in ("jokers", "jjdd"):
        cards = [c for c in cards if c not in ("2H", "2C")] + ["LJ", "BJ"]
    if players == 3:
        cards.remove("2C")
    return cards


def independent_deal(
    seed: bytes, hand: int, game: str, deck: str, seats: str, dealer: str
) -> tuple[dict[str, list[str]], str | None]:
    cards, n = fisher_yates(seed, b"deal", hand, deck_of(deck, len(seats))), len(seats)
    if game == "euchre":
        return {s: cards[i : 5 * n : n] for i, s in enumerate(seats)}, cards[5 * n]
    hands = {s: cards[i::n] for i, s in enumerate(seats)}
    return hands, hands[dealer][-1] if game == "whist" else None


def independent_first_dealer(seed: bytes, seats: str) -> str:
    drawing, round_ = list(seats), 1
    while True:
        drawn = fisher_yates(seed, b"draw", round_, deck_of("standard", 4))[: len(drawing)]
        top = max(RANKS.index(c[0]) for c in drawn)
        tied = [s for s, c in zip(drawing, drawn, strict=True) if RANKS.index(c[0]) == top]
        if len(tied) == 1:
            return tied[0]
        drawing, round_ = tied, round_ + 1


# ---------------------------------------------------------------------- games of the bot
RULES = {p: Rules.from_preset(p) for p in preset_names()} | {
    f"euchre {d}": Rules.from_preset("euchre").with_option("deck", d)
    for d in ("euchre28", "euchre32")
}


def seed_of(name: str) -> GameSeed:
    return GameSeed(hashlib.sha256(name.encode()).digest())


def independently_verified_hands(doc: Doc) -> int:
    """Check ``doc``'s first dealer and every deal from the fields the record states alone
    (its seed, ``game``, ``deck``, ``seats``, each hand's ``hand`` and ``dealer``), as the
    documentation tells a verifier to; the number of hands checked."""
    seed, seats = bytes.fromhex(doc["seed"]), "".join(doc["seats"])
    assert hashlib.sha256(seed).hexdigest() == doc["commitment"]
    assert doc["first_dealer"] == independent_first_dealer(seed, seats)
    dealer = seats.index(doc["first_dealer"])
    for hand in doc["hands"]:
        assert hand["dealer"] == seats[dealer]  # clockwise among the seats in play
        hands, turned = independent_deal(
            seed, hand["hand"], doc["game"], doc["deck"], seats, hand["dealer"]
        )
        assert hand["deal"] == hands, hand["hand"]
        assert hand.get("trump_card", hand.get("up_card")) == turned, hand["hand"]
        dealer = (dealer + 1) % len(seats)
    return len(doc["hands"])


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_published_procedure_reproduced_independently_gives_the_same_deals(name: str) -> None:
    """Reading only what the record states: nothing of the preset's rules is needed."""
    rules = RULES[name]
    compared = 0
    for k in range(3):
        seed = seed_of(f"{name} {k}")
        doc = export_record(seeded_game(rules, seed, hands=4, choices=k), None, seed)
        assert (doc["game"], doc["deck"]) == (rules.game, rules.deck)
        assert [h["hand"] for h in doc["hands"]] == list(range(1, len(doc["hands"]) + 1))
        compared += independently_verified_hands(doc)
    assert compared >= 6  # random play may end a game early, never all three at once


def test_the_stream_is_the_documented_hmac_blocks_read_as_big_endian_words() -> None:
    seed = seed_of("stream")
    ours, theirs = stream_words(seed.secret, DEAL, 7), words(seed.secret, b"deal", 7)
    assert [next(ours) for _ in range(20)] == [next(theirs) for _ in range(20)]


def test_a_word_at_or_above_the_limit_is_dropped_not_folded() -> None:
    """Rejection sampling: for n = 3 the limit is 2**32 - 1 (2**32 mod 3 = 1), so the word
    2**32 - 1 is dropped and the next one used; every word below is taken modulo n."""
    assert uniform_below(iter([2**32 - 1, 5]), 3) == 2
    assert uniform_below(iter([2**32 - 2, 5]), 3) == (2**32 - 2) % 3
    # n = 52: 2**32 mod 52 = 48, so the 48 highest words are dropped.
    assert uniform_below(iter([2**32 - 48, 2**32 - 1, 51]), 52) == 51
    assert uniform_below(iter([2**32 - 49]), 52) == (2**32 - 49) % 52


def test_the_draw_for_first_dealer_reproduced_independently_even_with_ties() -> None:
    ties = 0
    for k in range(200):
        seed = seed_of(f"draw {k}")
        for seats in ("NESW", "NES"):
            rounds, dealer = draw_first_dealer(seed.secret, tuple(Seat[s] for s in seats))
            ties += len(rounds) > 1
            assert dealer.name == independent_first_dealer(seed.secret, seats)
    assert ties > 0  # the redraw of tied seats was exercised


def test_the_test_vector_of_the_documentation_is_what_the_bot_deals() -> None:
    text = (Path(__file__).parents[2] / "docs" / "verifiable-deals.md").read_text("utf-8")
    block = text.split("### Test vector", 1)[1].split("```")[1]
    lines = {k: v.strip() for k, v in (ln.split(":", 1) for ln in block.strip().splitlines())}
    seed = GameSeed(bytes(32))
    assert lines["commitment"] == seed.commitment
    rounds, dealer = draw_first_dealer(seed.secret)
    drawn = ", ".join(f"{s.name} {c.code}" for s, c in rounds[0].items())
    assert lines["draw round 1"] == f"{drawn} → {dealer.word} deals first"
    assert dealer.name == independent_first_dealer(seed.secret, "NESW")
    deal = Game(Rules.from_preset("standard"), dealer).seeded_deal(seed.secret)
    independent, _ = independent_deal(seed.secret, 1, "spades", "standard", "NESW", "N")
    for s, hand in zip("NESW", deal.hands, strict=True):
        assert lines[f"hand 1, {s}"] == " ".join(c.code for c in hand) == " ".join(independent[s])


# ---------------------------------------------------------------------- verifying records
@pytest.fixture(scope="module")
def records() -> dict[str, Doc]:
    out = {}
    for name in ("standard", "whist", "euchre", "cutthroat-3", "jjdd"):
        seed = seed_of(f"record {name}")
        out[name] = export_record(seeded_game(RULES[name], seed, hands=30), None, seed)
    return out


def refusal(doc: Doc) -> str:
    with pytest.raises(NotVerified) as e:
        list(verify(doc))
    return e.value.reason


@pytest.mark.parametrize("name", ["standard", "whist", "euchre", "cutthroat-3", "jjdd"])
def test_a_record_with_its_seed_verifies(records: dict[str, Doc], name: str) -> None:
    doc = records[name]
    lines = list(verify(doc))
    assert doc["commitment"] in lines[0]
    assert lines[1].startswith("first dealer: the seed's draw (round 1: N ")
    deals = [ln for ln in lines if ln.startswith("hand ")]
    assert len(deals) == len(doc["hands"]) >= 2
    assert lines[-1].endswith(f"all {len(doc['hands'])} deals come from the seed")


def swap(doc: Doc, hand: int, a: str, b: str) -> tuple[str, str]:
    """Swap the first card of seat ``a`` with the first of ``b`` in hand ``hand`` (from 1)."""
    deal = doc["hands"][hand - 1]["deal"]
    deal[a][0], deal[b][0] = deal[b][0], deal[a][0]
    return deal[a][0], deal[b][0]


def test_a_record_with_one_card_swapped_is_refused_naming_the_hand_seat_and_card(
    records: dict[str, Doc],
) -> None:
    doc = copy.deepcopy(records["standard"])
    to_north, to_east = swap(doc, 2, "N", "E")
    assert refusal(doc) == (
        f"hand 2, North: the record deals {to_north} to North, but the seed deals it to East, "
        f"and deals North {to_east} instead"
    )


def test_a_record_dealing_a_kitty_card_is_refused(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["euchre"])
    hand = doc["hands"][0]
    dealt = {c for cards in hand["deal"].values() for c in cards} | {hand["up_card"]}
    kitty = next(r + s for s in "SHDC" for r in "9TJQKA" if r + s not in dealt)
    was, hand["deal"]["W"][2] = hand["deal"]["W"][2], kitty
    assert refusal(doc) == (
        f"hand 1, West: the record deals {kitty} to West, but the seed deals it to nobody "
        f"(it stays in the kitty), and deals West {was} instead"
    )


def test_a_changed_trump_card_is_refused(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["whist"])
    hand = doc["hands"][0]
    dealer = doc["first_dealer"]
    other = next(c for c in hand["deal"][dealer] if c != hand["trump_card"])
    was, hand["trump_card"] = hand["trump_card"], other
    assert refusal(doc) == f"hand 1: the record turns up {other} as the trump card, the seed {was}"


def test_a_changed_up_card_is_refused_in_the_words_of_euchre(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["euchre"])
    hand = doc["hands"][0]
    dealt = {c for cards in hand["deal"].values() for c in cards} | {hand["up_card"]}
    other = next(r + s for s in "SHDC" for r in "9TJQKA" if r + s not in dealt)
    was, hand["up_card"] = hand["up_card"], other
    assert refusal(doc) == f"hand 1: the record turns up {other} as the up-card, the seed {was}"


def test_a_changed_seed_is_refused_by_the_commitment(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["standard"])
    doc["seed"] = ("0" if doc["seed"][0] != "0" else "1") + doc["seed"][1:]
    reason = refusal(doc)
    assert reason.startswith("the seed does not match the commitment: SHA-256 of the seed is ")
    assert reason.endswith(f"the record's commitment is {doc['commitment'][:16]}…")


def test_a_changed_seed_with_its_own_commitment_is_refused_by_the_deals(
    records: dict[str, Doc],
) -> None:
    doc = copy.deepcopy(records["standard"])
    other = seed_of("another seed")
    doc["seed"], doc["commitment"] = other.reveal(), other.commitment
    reason = refusal(doc)
    assert reason.startswith(("first dealer: the seed's draw", "hand 1, North: the record deals"))


def test_a_changed_commitment_is_refused(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["standard"])
    real = doc["commitment"]
    doc["commitment"] = hashlib.sha256(b"something else").hexdigest()
    assert refusal(doc) == (
        f"the seed does not match the commitment: SHA-256 of the seed is {real[:16]}…, "
        f"the record's commitment is {doc['commitment'][:16]}…"
    )


def test_a_record_without_a_seed_cannot_be_verified(records: dict[str, Doc]) -> None:
    doc = copy.deepcopy(records["standard"])
    del doc["seed"], doc["commitment"]
    assert refusal(doc).startswith("the record has no seed")
    doc["seed"] = "abc"
    assert refusal(doc) == "seed: a seed is written as 64 hex digits"


def test_a_record_whose_deals_match_but_whose_play_is_illegal_is_refused(
    records: dict[str, Doc],
) -> None:
    doc = copy.deepcopy(records["standard"])
    hand = doc["hands"][0]
    hand["plays"][1] = hand["plays"][0]
    assert refusal(doc).startswith("the record cannot be replayed: hand 1, play 2: ")


def test_the_seed_never_shows_itself() -> None:
    seed = seed_of("secret")
    assert seed.reveal() not in repr(seed)
    assert seed.short_commitment in repr(seed)
    with pytest.raises(ValueError, match="32 bytes"):
        GameSeed(b"short")


# ---------------------------------------------------------------------- the command line
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_the_verify_command_prints_what_it_checked(
    records: dict[str, Doc], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(records["euchre"]), encoding="utf-8")
    code, out, err = run(capsys, "verify", str(path))
    assert (code, err) == (0, [])
    assert out == list(verify(records["euchre"]))


def test_the_verify_command_refuses_with_one_reason_line_and_exit_1(
    records: dict[str, Doc], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = copy.deepcopy(records["cutthroat-3"])
    swap(doc, 3, "S", "E")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1
    assert len(err) == 1
    assert err[0].startswith("not verified: hand 3, East: the record deals ")
    assert [ln.split(":")[0] for ln in out] == ["commitment", "first dealer", "hand 1", "hand 2"]
    path.write_text("{", encoding="utf-8")
    code, _, err = run(capsys, "verify", str(path))
    assert code == 1
    assert len(err) == 1
    assert err[0].startswith("not verified: malformed record: not JSON")
