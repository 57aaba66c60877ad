"""The score sheet players read after each hand (issue 8, item 3): every line of a team's
breakdown, as rendered, adds up to the hand's points — for every worked example of rules.md §9
and every hand of every preset's worked-example record — and the game-over message shows the
winner, the final scores and each member's rating change."""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot.engine import BLIND_NIL, NIL, Bid, Game, HandResult, Rules, Seat, Team, seat_view
from bot.engine.record import Replayer
from bot.engine.spades.scoring import score_individual, score_new_york
from bot.tables.state import Occupant, SeatRating, Table, TableStatus
from bot.ui.table.scoresheet import game_over_embed, hand_result_embed, ratings_text
from tests.engine.builders import play_hand
from tests.engine.scenarios import SCENARIOS
from tests.engine.test_worked_examples import INDIVIDUAL_ROWS, NEW_YORK_ROWS, Row, load

NAMES = {Seat.N: "alice", Seat.E: "bob", Seat.S: "carol", Seat.W: "dave"}
ITEM = re.compile(r"^(.+): ([+−]\d+|0)$")
TOTAL = re.compile(r"^= \*\*([+−]\d+|0)\*\* this hand · score \*\*(−?[\d,]+)\*\*")


def table_for(rules: Rules) -> Table:
    table = Table(id="t3st", guild_id=1, channel_id=2, host_id=1, rules=rules)
    for seat, name in NAMES.items():
        table.seats[seat] = Occupant(int(seat) + 1, name)
    return table


def number(text: str) -> int:
    return int(text.replace("−", "-").replace(",", "").replace("+", ""))


def sheet_of(table: Table, result: HandResult) -> dict[Team, tuple[list[tuple[str, int]], int]]:
    """Each team's rendered items (label, points) and its rendered total."""
    embed = hand_result_embed(table, result).to_dict()
    out = {}
    for team, field in zip(Team, embed.get("fields", []), strict=True):
        assert field["name"] in ("North–South", "East–West")
        lines = field["value"].split("\n")
        items = [(m.group(1), number(m.group(2))) for ln in lines if (m := ITEM.match(ln))]
        totals = [TOTAL.match(ln) for ln in lines if ln.startswith("=")]
        assert len(totals) == 1
        assert totals[0] is not None, field["value"]
        out[team] = (items, number(totals[0].group(1)))
    return out


def assert_sheet_adds_up(table: Table, result: HandResult) -> None:
    for team, (items, total) in sheet_of(table, result).items():
        assert items, "every hand explains its points"
        assert sum(p for _, p in items) == total == result.teams[team].points, items


def one_hand(rules: Rules, bids: tuple[Bid, ...], ns_score: object, ew_score: object) -> HandResult:
    return HandResult(
        number=1,
        dealer=Seat.W,
        deal=((), (), (), ()),
        bids=bids,
        passes=(),
        plays=(),
        tricks=(3, 3, 4, 3),
        teams=(ns_score, ew_score),  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------- the worked examples
@pytest.mark.parametrize("row", INDIVIDUAL_ROWS, ids=str)
def test_the_sheet_adds_up_for_the_worked_example(row: Row) -> None:
    rules = Rules.from_preset(row.preset)
    score = score_individual(
        rules,
        row.bids,
        row.tricks,
        score_before=1000,
        bag_count_before=row.bag_count_before,
        joker_points=row.joker_points,
        seats=(Seat.N, Seat.S),
    )
    other = score_individual(rules, (3, 3), (3, 3), 0, 0, seats=(Seat.E, Seat.W))
    bids = (
        Bid(Seat.N, row.bids[0], row.bids[0] == BLIND_NIL),
        Bid(Seat.E, 3),
        Bid(Seat.S, row.bids[1], row.bids[1] == BLIND_NIL),
        Bid(Seat.W, 3),
    )
    result = one_hand(rules, bids, score, other)
    assert_sheet_adds_up(table_for(rules), result)
    items, total = sheet_of(table_for(rules), result)[Team.NS]
    assert total == row.points
    if NIL in row.bids or BLIND_NIL in row.bids:
        assert any(label.startswith(("alice's", "carol's", "Double")) for label, _ in items), (
            "a nil line names the player"
        )


@pytest.mark.parametrize("row", NEW_YORK_ROWS, ids=[r[0] for r in NEW_YORK_ROWS])
def test_the_sheet_adds_up_for_the_new_york_worked_example(
    row: tuple[str, int | None, bool, int, int, str | None, bool],
) -> None:
    _, bid, blind, tricks, points, _, _ = row
    rules = Rules.from_preset("new-york")
    ns = score_new_york(bid, blind, tricks, score_before=100)
    ew = score_new_york(bid, False, 13 - tricks, score_before=100)
    bids = () if bid is None else (Bid(Seat.S, bid, blind), Bid(Seat.W, bid))
    result = one_hand(rules, bids, ns, ew)
    assert_sheet_adds_up(table_for(rules), result)
    assert sheet_of(table_for(rules), result)[Team.NS][1] == points


@cache
def replayed(name: str) -> Game:
    replayer = Replayer(load(name))
    for _ in replayer.lines():
        pass
    return replayer.game


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_sheet_adds_up_in_every_hand_of_every_preset_record(name: str) -> None:
    game = replayed(name)
    table = table_for(game.rules)
    assert game.results
    for result in game.results:
        assert_sheet_adds_up(table, result)
        embed = hand_result_embed(table, result).to_dict()
        assert len(str(embed)) < 6000
        assert all(len(f["value"]) <= 1024 for f in embed["fields"])


def test_a_nil_line_names_the_player_and_the_bag_penalty_is_its_own_line() -> None:
    rules = Rules.from_preset("standard")
    ns = score_individual(rules, (NIL, 4), (1, 5), 0, 8, seats=(Seat.N, Seat.S))
    ew = score_individual(rules, (3, 3), (3, 1), 0, 0, seats=(Seat.E, Seat.W))
    bids = (Bid(Seat.N, NIL), Bid(Seat.E, 3), Bid(Seat.S, 4), Bid(Seat.W, 3))
    sheet = sheet_of(table_for(rules), one_hand(rules, bids, ns, ew))
    labels = [label for label, _ in sheet[Team.NS][0]]
    assert labels == [
        "Contract 4 made (5 tricks)",
        "alice's nil failed (1 trick)",
        "2 bags",
        "Bag penalty (10 bags)",
    ]
    assert sheet[Team.NS][1] == 40 - 100 + 2 - 100
    assert sheet[Team.EW][0] == [("Contract 6 set (4 tricks)", -60)]


# ---------------------------------------------------------------- game over
def finished_table(ratings: tuple[SeatRating, ...] | None) -> tuple[Table, Game]:
    game = replayed("standard")
    table = table_for(game.rules)
    table.status = TableStatus.FINISHED
    table.game = game
    table.ratings = ratings
    return table, game


def test_game_over_shows_the_winner_final_scores_and_each_rating_change() -> None:
    ratings = (
        SeatRating(Seat.N, 1000, 940),
        SeatRating(Seat.E, 1000, 1062),
        SeatRating(Seat.S, 1120, 1071),
        SeatRating(Seat.W, 987, 1040),
    )
    table, game = finished_table(ratings)
    embed = game_over_embed(table, seat_view(game, None)).to_dict()
    text = str(embed)
    assert game.winner is Team.EW
    assert "🏆 **East–West** win (bob & dave)" in embed["description"]
    assert f"North–South {game.scores[0]} · East–West {game.scores[1]}" in text
    ratings_field = next(f["value"] for f in embed["fields"] if f["name"] == "Ratings")
    assert ratings_field.split("\n") == [
        "alice: 1,000 → **940** (−60)",
        "bob: 1,000 → **1,062** (+62)",
        "carol: 1,120 → **1,071** (−49)",
        "dave: 987 → **1,040** (+53)",
    ]


def test_game_over_says_why_a_game_is_not_rated() -> None:
    table, _ = finished_table(None)
    assert ratings_text(table) == "Not rated."
    table.seats[Seat.E] = Occupant(None, "Computer (normal)", "normal")
    assert "computer players" in ratings_text(table)


def test_game_over_says_in_words_that_the_mercy_rule_ended_the_game() -> None:
    """The engine's reason names the option (``lose_at``) and teams by code; the table says it
    in words, with the scores' real minus signs."""
    one = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(one, {"N": 3, "E": 2, "S": 7, "W": 2}, {"N": 4, "E": 4, "S": 1, "W": 4})
    both = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(both, {"N": 6, "E": 5, "S": 5, "W": 5}, {"N": 3, "E": 4, "S": 2, "W": 4})
    for game, why, final in (
        (one, "North–South fell to −100 or below (mercy rule).", "North–South −100 · "),
        (
            both,
            "both teams fell to −100 or below (mercy rule); the higher score wins.",
            "North–South −110 · East–West −100",
        ),
    ):
        assert game.winner is Team.EW
        table = table_for(game.rules)
        table.status, table.game = "finished", game
        embed = game_over_embed(table, seat_view(game, None)).to_dict()
        assert embed["description"].endswith(f" — {why}"), embed["description"]
        assert "lose_at" not in str(embed)
        assert final in next(f["value"] for f in embed["fields"] if f["name"] == "Final score")


def test_every_end_reason_reads_as_words() -> None:
    """The engine's reasons (the Lines its deciders give) as the table writes them."""
    from bot.engine.scoring import WINS, TeamHandScore
    from bot.engine.spades.scoring import decide_partnerships
    from bot.i18n.lines import line_text

    def reason(
        rules: Rules,
        scores: list[int],
        bags: tuple[int, int] = (0, 0),
        streak: tuple[int, int] = (0, 0),
        events: tuple[str | None, str | None] = (None, None),
    ) -> str:
        teams = [TeamHandScore(0, 0, 0, s, 0, event=e) for s, e in zip(scores, events, strict=True)]
        why = decide_partnerships(rules, scores, list(bags), list(streak), teams)[1]
        assert why is not None
        return line_text(why)

    new_york = Rules.from_preset("new-york")
    assert reason(new_york, [100, 50], streak=(0, 2)) == "East–West were set twice in a row"
    solo = Game(Rules.from_preset("solo", lose_at=-250))
    solo.scores = [-260, 100, 50, 0]
    why = solo._decide([])[1]
    assert why is not None
    assert line_text(why) == "a player fell to −250 or below (mercy rule); the highest score wins"
    tie = Rules.from_preset("standard", tie="bags")
    assert reason(tie, [520, 520], bags=(3, 5)) == (
        "tied at the target; the team with more bags over the game wins"
    )
    assert reason(new_york, [100, 50], events=(WINS, None)) == "Boston"
