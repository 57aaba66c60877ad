"""A shared replay's steps (bot/ui/review/replay_render.py), read from recorded games: each hand's
deal then each trick in order, what every player held before each trick, the hand's score
after its last trick, and paging buttons that only the poster's id opens."""

from __future__ import annotations

import re

import pytest

from bot.engine import Seat
from bot.review.decisions import replay_game
from bot.ui.review.replay_components import ReplayButton, ReplayRef
from bot.ui.review.replay_render import held_before, replay_steps, step_embed, step_view
from tests.review.helpers import record, with_players

RECORDS = (
    "standard.json",
    "house-double-blind-nil.json",  # blind nil passes cards to the partner
    "euchre.json",  # the dealer takes the up-card and discards
    "whist.json",
    "new-york.json",
)


@pytest.mark.parametrize("name", RECORDS)
def test_every_trick_of_every_hand_is_a_step_after_its_deal(name: str) -> None:
    replay = replay_game(with_players(record(name)))
    steps = replay_steps(replay)
    expected = [(h.number, 0) for h in replay.hands]
    order = []
    for h in replay.hands:
        order.append((h.number, 0))
        order.extend((h.number, t.number) for t in h.tricks)
    assert [(s.hand.number, s.trick) for s in steps] == order
    assert {x for x in order if x[1] == 0} == set(expected)


@pytest.mark.parametrize("name", RECORDS)
def test_each_trick_is_played_from_what_its_players_held(name: str) -> None:
    replay = replay_game(with_players(record(name)))
    rules = replay.rules
    for hand in replay.hands:
        held = held_before(hand, rules, 1)
        assert held is not None
        if not hand.tricks:  # Euchre: everybody passed, the hand is void
            continue
        assert max(len(v) for v in held.values()) == len(hand.tricks)
        for t in hand.tricks:
            before = held_before(hand, rules, t.number)
            assert before is not None
            for seat, c, _ in t.plays:
                assert c in before[seat], (hand.number, t.number, seat, c)
        after = held_before(hand, rules, len(hand.tricks) + 1)
        assert after is not None
        players = {seat for t in hand.tricks for seat, _, _ in t.plays}
        assert all(after[s] == [] for s in players), "every card held is played by the end"


def test_a_trick_step_shows_the_trick_the_tricks_so_far_and_at_the_end_the_score() -> None:
    replay = replay_game(with_players(record("standard.json")))
    steps = replay_steps(replay)
    deal = step_embed(replay, None, 7, steps, 0).to_dict()
    assert deal["title"] == f"Replay of game #7 — hand 1 of {len(replay.hands)}, the deal"
    assert [f["name"] for f in deal["fields"]][:4] == [
        "North — alice (as dealt)",
        "East — bob (as dealt)",
        "South — carol (as dealt)",
        "West — Computer (hard) (as dealt)",
    ]
    assert "**Bids**" in deal["description"]
    last = next(i for i, s in enumerate(steps) if s.hand.number == 1 and s.trick == 13)
    end = step_embed(replay, None, 7, steps, last).to_dict()
    assert "trick 13 of 13" in end["title"]
    assert "**Score**: NS" in end["description"]
    trick = next(f for f in end["fields"] if f["name"] == "Trick 13")
    assert trick["value"].count("**") == 2, "the winning card in bold"
    tricks = next(x for x in end["description"].splitlines() if x.startswith("Tricks: "))
    assert sum(int(part.split()[1]) for part in tricks[8:].split(" · ")) == 13
    assert "the hands are shown because the game is over" in end["footer"]["text"]


def test_the_paging_buttons_carry_the_poster_and_only_the_steps_there_are() -> None:
    replay = replay_game(with_players(record("standard.json")))
    steps = replay_steps(replay)
    first = step_view(7, 4242, steps, 0).to_components()
    buttons = [c for row in first for c in row["components"]]
    assert [b["label"] for b in buttons] == ["◀ Previous", "Next ▶", "Next hand ⏭"]
    assert buttons[0]["disabled"] is True
    assert buttons[1]["custom_id"] == "spades:rp:7:4242:1:n"
    assert buttons[2]["custom_id"] == "spades:rp:7:4242:14:h", "hand 2 starts at step 14"
    template = re.compile(ReplayButton.__discord_ui_compiled_template__.pattern)
    for b in buttons:
        m = template.fullmatch(b["custom_id"])
        assert m is not None
        assert ReplayButton.parse(m).poster == 4242
    last = step_view(7, 4242, steps, len(steps) - 1).to_components()
    assert [c["disabled"] for row in last for c in row["components"]] == [False, True, True]
    assert ReplayRef(7).custom_id() == "spades:rp:7:share"
    assert replay.players[Seat.N] == "alice"
