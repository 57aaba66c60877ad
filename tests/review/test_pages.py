"""The review's pages: every trick of every hand in order, whose each card was, the bids, and
the hard player's biggest differences first."""

from __future__ import annotations

import re

from bot.engine import Seat
from bot.review.analysis import ANALYSIS_VERSION, Analysis, Opinion
from bot.review.decisions import replay_game
from bot.ui.review.review_render import PAGE_CHARS, ReviewPage, page_embed, page_view, review_pages
from tests.review.helpers import record, with_players

TRICK = re.compile(r"^`\s*(\d+)` (.*) → (.*)$")
CARD = re.compile(r"(?:\*\*)?([NESW]) ((?:10|[2-9JQKA])[♠♥♦♣]|Big🃏|Little🃏)(?:\*\*)?")


def test_the_pages_list_every_trick_of_every_hand_in_order() -> None:
    doc = with_players(record())
    replay = replay_game(doc)
    pages = review_pages(replay, None, frozenset(), 7)
    assert pages[0].label == "Overview"
    seen: dict[int, list[tuple[int, list[tuple[str, str]], str]]] = {}
    for page in pages[1:]:
        hand = int(re.match(r"Hand (\d+)", page.title).group(1))  # type: ignore[union-attr]
        for line in page.lines:
            m = TRICK.match(line)
            if m:
                cards = CARD.findall(m.group(2))
                seen.setdefault(hand, []).append((int(m.group(1)), cards, m.group(3)))
    assert sorted(seen) == list(range(1, len(doc["hands"]) + 1))
    for n, hand_doc in enumerate(doc["hands"], start=1):
        tricks = seen[n]
        assert [t[0] for t in tricks] == list(range(1, 14)), "every trick, in order"
        shown = [code for _, cards, _ in tricks for _, code in cards]
        played = [str(replay.hands[n - 1].tricks[i // 4].plays[i % 4][1]) for i in range(52)]
        assert shown == played, "every card, in the order it was played"
        assert len(hand_doc["plays"]) == 52
        for number, cards, winner in tricks:
            trick = replay.hands[n - 1].tricks[number - 1]
            assert [s for s, _ in cards] == [s.name for s, _, _ in trick.plays], "whose card"
            assert trick.winner is not None
            assert winner == replay.players[trick.winner]
    for page in pages:
        assert len("\n".join(page.lines)) <= PAGE_CHARS


def test_a_hand_page_shows_its_bids_with_whose_they_were() -> None:
    replay = replay_game(with_players(record()))
    page = review_pages(replay, None, frozenset(), 7)[1]
    bids = next(line for line in page.lines if line.startswith("**Bids**"))
    for b in replay.hands[0].bids:
        assert f"{b.seat.name} " in bids
    assert "Dealer" in page.lines[0]


def test_the_overview_puts_the_biggest_differences_first() -> None:
    replay = replay_game(with_players(record()))
    plays = [d for d in replay.decisions if d.is_play]
    mine = [d for d in plays if d.seat == Seat.N][:3]
    theirs = [d for d in plays if d.seat == Seat.E][:2]
    opinions = {
        mine[0].index: Opinion(mine[0].index, "2C", 4.0, 0.2, 40),
        mine[1].index: Opinion(mine[1].index, "3C", 12.0, 0.6, 40),
        mine[2].index: Opinion(mine[2].index, "4C", 0.0, 0.0, 40),  # agrees: not listed
        theirs[0].index: Opinion(theirs[0].index, "5C", 30.0, 1.5, 40),
        theirs[1].index: Opinion(theirs[1].index, "6C", 2.0, 0.1, 40),
    }
    n = len(replay.decisions)
    analysis = Analysis(ANALYSIS_VERSION, opinions, n, n, 9.5)
    overview = review_pages(replay, analysis, frozenset({Seat.N}), 7)[0]
    text = "\n".join(overview.lines)
    mine_at = text.index("Your biggest differences")
    table_at = text.index("Biggest differences at the table")
    d1 = mine[1]
    played = d1.action.card  # type: ignore[union-attr]
    first = (
        f"Hand {d1.hand}, trick {d1.trick}: you played {played}; hard prefers 3♣ — about 0.6 tricks"
    )
    assert first in text
    assert text.index(first) < text.index(f"Hand {mine[0].hand}, trick {mine[0].trick}: you")
    assert mine_at < text.index(first) < table_at
    assert f"bob (E) played {theirs[0].action.card}; hard prefers 5♣ — about 1.5 tricks" in text  # type: ignore[union-attr]
    assert "4♣" not in text, "an agreement is not a difference"
    assert "judged 5 decisions" in text


def test_paging_buttons_and_menu_fit_discord() -> None:
    replay = replay_game(with_players(record()))
    pages = review_pages(replay, None, frozenset(), 7)
    for number in (0, 5, len(pages) - 1):
        view = page_view(7, pages, number)
        ids = [c.custom_id for c in view.children if hasattr(c, "custom_id")]  # type: ignore[attr-defined]
        assert len(ids) == len(set(ids))
        assert all(len(i) <= 100 for i in ids)
        embed = page_embed(pages[number], number, len(pages))
        assert len(embed.description or "") <= 4096
        assert len(embed) <= 6000


def _hand_pages(pages: list[ReviewPage]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for page in pages[1:]:
        hand = int(re.match(r"Hand (\d+) of", page.title).group(1))  # type: ignore[union-attr]
        out.setdefault(hand, []).extend(page.lines)
    return out


def test_a_euchre_review_is_the_replay_with_calls_trump_and_tricks_of_three_when_alone() -> None:
    """Whist and Euchre have no opinions from the hard player (it judges Spades only): the
    review says so and shows the replay — every hand (the void one too), the calls, what was
    trump and who made it, and every trick, three cards a trick when the maker went alone."""
    doc = with_players(record("euchre.json"))
    replay = replay_game(doc)
    pages = review_pages(replay, None, frozenset({Seat.N}), 4)
    assert "judges Spades games only" in "\n".join(pages[0].lines)
    assert "Euchre" in "\n".join(pages[0].lines)
    hands = _hand_pages(pages)
    assert sorted(hands) == list(range(1, len(doc["hands"]) + 1)), "every hand, void ones too"
    for number, hand_doc in enumerate(doc["hands"], start=1):
        text = "\n".join(hands[number])
        assert "**Bids**" not in text
        calls = hand_doc["calls"]
        shown = next(line for line in hands[number] if line.startswith("**Calls**: "))
        assert shown.count(" · ") == len(calls) - 1
        tricks = [TRICK.match(line) for line in hands[number]]
        cards = [CARD.findall(m.group(2)) for m in tricks if m]
        result = replay.hands[number - 1].result
        assert result is not None
        if not hand_doc["plays"]:
            assert result.void
            assert not cards
            assert "Everybody passed" in text
            continue
        alone = any(c.get("alone") for c in calls)
        per_trick = 3 if alone else 4
        assert [len(c) for c in cards] == [per_trick] * 5, f"hand {number}: {cards}"
        played = [code for trick in cards for _, code in trick]
        assert played == [str(c) for c in result.plays], "every card, in the order played"
        assert f"Trump {'♠♥♦♣'['SHDC'.index(result.trump)]}" in text  # type: ignore[arg-type]
        if alone:
            assert "alone" in text
            assert "sat out" in text
        if result.discard is not None:
            assert f"took the {result.up_card} and discarded the {result.discard}." in text
        # Each trick's winner is the seat the record's trick count credits.
        won = dict.fromkeys(Seat, 0)
        for m in tricks:
            if m:
                won[next(s for s in Seat if replay.players[s] == m.group(3))] += 1
        assert tuple(won[s] for s in Seat) == result.tricks


def test_a_whist_review_shows_the_turned_up_trump_and_thirteen_tricks() -> None:
    doc = with_players(record("whist.json"))
    replay = replay_game(doc)
    pages = review_pages(replay, None, frozenset(), 9)
    assert "judges Spades games only" in "\n".join(pages[0].lines)
    hands = _hand_pages(pages)
    assert sorted(hands) == [1, 2, 3, 4]
    for number, hand_doc in enumerate(doc["hands"], start=1):
        text = "\n".join(hands[number])
        assert "turned up" in text
        assert "**Bids**" not in text
        numbers = [int(m.group(1)) for m in map(TRICK.match, hands[number]) if m]
        assert numbers == list(range(1, 14))
        assert len(hand_doc["plays"]) == 52
