"""Adding a game is adding its package and one registry entry (docs/adding-a-game.md): a
fourth game, defined and registered here only, is played to the end through the engine,
decided by the generic computer players, rendered by the UI's generic paths, and recorded and
replayed — with no edit anywhere else.  And docs/adding-a-game.md names every place this test
has to touch for it (the hooks, the registries, the types of its entries).

*Plain tricks*: four players in two partnerships, three cards each from a standard deck with
no trump, the seat left of the dealer leads, a side scores one point a trick, first to 3.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ai.games import GENERIC as AI_GENERIC
from bot.ai.games import AiGame, ai_of, register_ai, unregister_ai
from bot.ai.levels import get_player
from bot.ai.whist import TrickEasy, TrickNormal
from bot.engine import (
    DECKS,
    Action,
    Card,
    Deal,
    Deck,
    Game,
    GameEntry,
    GameKind,
    Phase,
    Play,
    Rules,
    RulesError,
    Seat,
    SeatView,
    entry_of,
    preset_names,
    seat_view,
)
from bot.engine.errors import InvalidDeal
from bot.engine.game import register_game
from bot.engine.games import Preset, register, unregister
from bot.engine.lines import Line
from bot.engine.record import export_record, replay
from bot.engine.scoring import ScorePart, TeamHandScore, tricks_line
from bot.engine.seats import Team
from bot.tables.state import Occupant, Table
from bot.ui.hand.hand import hand_embed, hand_text
from bot.ui.images.deal import diagram_of, render_deal
from bot.ui.table.render import table_embed
from bot.ui.table.scoresheet import game_over_embed, hand_result_embed
from bot.ui.text.game_text import GameText
from bot.ui.text.games import GENERIC, game_title, register_text, text_of, unregister_text
from bot.ui.text.rules_text import rules_embed

PLAIN = GameKind.extra("plain")
CARDS_EACH = 3
NO_TRUMP = DECKS["standard"].with_trump(None)


class PlainGame(Game):
    """The game: only the hooks the shared core asks a game for."""

    __slots__ = ()

    def _make_deck(self) -> Deck:
        return NO_TRUMP

    def _cards_per_seat(self) -> int:
        return CARDS_EACH

    def _deal_from(self, cards: list[Card]) -> Deal:
        n = len(self.seating.seats)
        return Deal(tuple(tuple(cards[i : n * CARDS_EACH : n]) for i in range(n)))

    def _check_dealt(self, deal: Deal, dealt: int) -> None:
        if dealt & ~self.deck.mask or deal.turned is not None:
            raise InvalidDeal(Line("Plain tricks deals three cards each and turns none up"))

    def _begin_hand(self) -> None:
        self.phase = Phase.PLAY
        self._begin_tricks(self.deck, self.seating.seats, self.dealer)

    def _last_trick_played(self) -> None:
        t = self._tricks
        teams = []
        for side, team in enumerate(Team):
            a, b = team.seats
            took = t[a] + t[b]
            part = ScorePart("tricks", tricks_line(took), took)
            teams.append(TeamHandScore(took, 0, 0, self.scores[side] + took, 0, parts=(part,)))
        self._close_hand(teams, self._result(teams))


register_game(PLAIN, PlainGame)

ENTRY = GameEntry(
    kind=PLAIN,
    title="Plain tricks",
    presets=(
        Preset(
            "plain", "Plain tricks", "Plain tricks: three cards each, no trump, to 3", {"target": 3}
        ),
    ),
    options=("target",),
)


@pytest.fixture
def plain() -> Iterator[GameEntry]:
    """The game registered for one test only (its UI and computer players: none of its own)."""
    register(ENTRY)
    yield ENTRY
    unregister(PLAIN)


def play_to_the_end(rules: Rules, level: str, seed: int) -> Game:
    game = Game(rules, Seat.E)
    players = {s: get_player(level) for s in game.seating.seats}
    rng = random.Random(seed)
    while not game.over:
        assert game.hand_number < 50, "the game ends"
        if game.phase is Phase.DEAL:
            game.deal(rng)
            continue
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        action = players[seat].decide(view, rng, 0.01)
        assert action in view.legal
        game.apply(action)
    return game


def test_the_registered_game_is_a_game_with_rules_presets_and_a_kind(plain: GameEntry) -> None:
    rules = Rules.from_preset("plain")
    assert rules.game is PLAIN
    assert rules.game == "plain", "stored as the string, like every game"
    assert GameKind("plain") is PLAIN
    assert rules.title == "Plain tricks"
    assert "plain" in preset_names()
    assert entry_of("plain") is plain
    assert rules.options() == {"game": PLAIN, "target": 3}
    with pytest.raises(RulesError, match="nil is a Spades option, not one of Plain tricks"):
        Rules.from_preset("plain", nil=False)
    assert type(Game(rules)) is PlainGame


def test_the_game_is_gone_once_unregistered() -> None:
    assert "plain" not in preset_names()
    with pytest.raises(RulesError):
        Rules.from_preset("plain")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_generic_computer_players_play_it_to_the_end(plain: GameEntry, level: str) -> None:
    assert ai_of(PLAIN).players(level).__class__ in (TrickEasy, TrickNormal)
    game = play_to_the_end(Rules.from_preset("plain"), level, seed=len(level))
    assert game.over
    assert max(game.scores) >= 3
    for result in game.results:
        assert sum(result.tricks) == CARDS_EACH
        assert all(len(hand) == CARDS_EACH for hand in result.deal)
        assert result.trump is None
    assert game.winner in tuple(Team)


def test_its_record_replays_to_the_same_end(plain: GameEntry) -> None:
    game = play_to_the_end(Rules.from_preset("plain"), "normal", seed=3)
    lines = list(replay(export_record(game)))
    assert len(lines) == len(game.results) + 1
    final = lines[-1]
    assert game.winner is not None
    assert final == {"final": True, "score": {"NS": game.scores[0], "EW": game.scores[1]},
                     "winner": game.winner.name}  # fmt: skip


def test_the_generic_ui_renders_it(plain: GameEntry) -> None:
    assert text_of(PLAIN) is GENERIC
    rules = Rules.from_preset("plain")
    game = play_to_the_end(rules, "normal", seed=5)
    table = Table("t1", 1, 2, 10, rules, status="playing", game=game)
    table.seats = {s: Occupant(10 + s, f"p{s.name}") for s in game.seating.seats}
    assert game_title(rules) == "🂠 Plain tricks · to 3"

    result = game.results[0]
    sheet = hand_result_embed(table, result).to_dict()
    ns = sheet["fields"][0]["value"]
    assert ns.startswith(f"Took {result.tricks[0] + result.tricks[2]} (pN ")
    diagram = diagram_of(result, rules, {s: f"p{s.name}" for s in Seat})
    assert diagram.trump is None
    assert [h.note for h in diagram.hands] == [f"took {t}" for t in result.tricks]
    drawn = render_deal(diagram)
    assert drawn.png.startswith(b"\x89PNG")

    over = game_over_embed(table, seat_view(game, None)).to_dict()
    assert "wins" in over["description"] or "win" in over["description"]
    table.status = "finished"
    public = table_embed(table, seat_view(game, None)).to_dict()
    assert public["title"] == "🂠 Plain tricks · to 3"
    assert "bid" not in str(public["fields"]), "no bids in a game without them"
    rules_text = rules_embed(rules).to_dict()
    assert "Plain tricks: three cards each, no trump, to 3." in str(rules_text["fields"])


def test_the_hand_message_shows_a_hand_in_play(plain: GameEntry) -> None:
    rules = Rules.from_preset("plain")
    game = Game(rules, Seat.N)
    game.deal(random.Random(9))
    table = Table("t2", 1, 2, 10, rules, status="playing", game=game)
    table.seats = {s: Occupant(10 + s, f"p{s.name}") for s in game.seating.seats}
    seat = game.to_act
    assert seat is Seat.E
    view = seat_view(game, seat)
    assert view.part is None, "a game of trick play only has no part of its own"
    hand = hand_embed(table, view).to_dict()
    assert hand["description"] == f"# {hand_text(game.hand(seat), view)}"
    assert "**Your turn to play** a card." in hand["fields"][0]["value"]
    assert all(isinstance(a, Play) for a in view.legal)
    status = table_embed(table, seat_view(game, None)).to_dict()["description"]
    assert f"({seat.word}) to lead." in status


class PlainText(GameText):
    """Words of its own: a symbol, and the tricks each side needs on the table."""

    symbol = "🃏"

    def team_lines(self, view: SeatView, team: Team) -> list[str]:
        return [f"needs {max(0, view.rules.target - view.scores[team])}"]


class FirstCard:
    """Players of its own: the first legal card, every decision remembered."""

    level = "normal"

    def __init__(self) -> None:
        self.decided: list[tuple[SeatView, Action]] = []

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        self.decided.append((view, view.legal[0]))
        return view.legal[0]


def test_its_own_words_and_players_are_used_once_registered(plain: GameEntry) -> None:
    """The game's UI and AI entries, registered like its engine entry, replace the generic
    ones — and go with it."""
    first = FirstCard()
    register_text(PLAIN, PlainText())
    register_ai(PLAIN, AiGame(lambda level: first))
    try:
        rules = Rules.from_preset("plain")
        game = play_to_the_end(rules, "hard", seed=1)
        assert first.decided
        assert all(action == view.legal[0] for view, action in first.decided)
        table = Table("t3", 1, 2, 10, rules, status="finished", game=game)
        table.seats = {s: Occupant(10 + s, f"p{s.name}") for s in game.seating.seats}
        assert game_title(rules) == "🃏 Plain tricks · to 3"
        fields = table_embed(table, seat_view(game, None)).to_dict()["fields"]
        teams = [f for f in fields if f["name"] in ("North–South", "East–West")]
        needs = [f"needs {max(0, 3 - game.scores[t])}" for t in Team]
        assert [f["value"].splitlines()[-1] for f in teams] == needs
    finally:
        unregister_text(PLAIN)
        unregister_ai(PLAIN)
    assert text_of(PLAIN) is GENERIC
    assert ai_of(PLAIN) is AI_GENERIC


# ---------------------------------------------------------------------- the document
GUIDE = Path(__file__).resolve().parents[1] / "docs" / "adding-a-game.md"


def places_touched() -> dict[str, str]:
    """Every place this test has to touch to add its game, by name, with the file it is in:
    the hooks its game and its words override, the registries it registers in (``register…``),
    and the types its entries are made of."""
    classes = (PlainGame, PlainText)
    places = {
        name: cls.__mro__[1].__module__
        for cls in classes
        for name in vars(cls)
        if not name.startswith("__")
    }
    registries = [obj for name, obj in globals().items() if name.startswith("register")]
    made_of = [
        GameKind.extra,
        type(ENTRY),
        type(ENTRY.presets[0]),
        *(c.__mro__[1] for c in classes),
    ]
    made_of += [AiGame, ScorePart]
    for obj in (*registries, *made_of):
        places[obj.__name__] = obj.__module__
    return places


def test_the_places_touched_are_found() -> None:
    places = places_touched()
    assert {"_begin_hand", "_last_trick_played", "symbol", "team_lines"} <= places.keys()
    assert places["register"] == "bot.engine.games"
    assert places["register_text"] == "bot.ui.text.games"
    assert places["register_ai"] == "bot.ai.games"
    assert places["_deal_from"] == "bot.engine.game"
    assert {
        "GameEntry",
        "Preset",
        "Game",
        "GameText",
        "AiGame",
        "ScorePart",
        "extra",
    } <= places.keys()


@pytest.mark.parametrize(("name", "module"), sorted(places_touched().items()))
def test_the_guide_names_every_place_this_test_touches(name: str, module: str) -> None:
    """docs/adding-a-game.md lists every place a new game touches: each hook, registry and type
    this test needs to add its game is named there, with its file."""
    guide = GUIDE.read_text(encoding="utf-8")
    assert re.search(rf"`[^`]*\b{re.escape(name)}\b[^`]*`", guide), f"{name} is not named"
    assert f"`{module.replace('.', '/')}.py`" in guide, f"{module} ({name}) is not named"
