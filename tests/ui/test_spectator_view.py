"""No spectator payload ever holds a card not yet played, in any preset and any ``spectators``
mode: the property, over random whole games driven by the normal computer player.

At every point of every game the spectator's payload is rendered exactly as the bot renders it
(:func:`bot.ui.spectator.spectator.spectator_message` on the stage and the public view, and
``/spades watch``'s autocomplete, :func:`bot.ui.spectator.spectator.watch_choices`) and read the way
a person would: every card it names — as text (``A♠``, ``10♥``, ``Big🃏``) or as a card face
(``<:c_AS:…>``), in the embed, the components and the attachment's name — must be public: played
this hand, or face up on the table (Whist's turned-up trump, Euchre's up-card).  With
``spectators: hands after each hand`` the finished hand's deal is shown too: it must be the deal of
a hand that is over, card for card, and the picture must draw that hand.  With
``spectators: off`` nobody may watch.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.levels import get_player
from bot.engine import CARDS, Card, Game, Rules, Seat, card, entry_of, preset_names, seat_view
from bot.errors import Refusal
from bot.tables.defaults import default_rules
from bot.tables.options import SPECTATOR_MODES, TableOptions
from bot.tables.spectators import Spectators
from bot.tables.state import Occupant, Table, TableStatus
from bot.ui.images.cards import emoji_name
from bot.ui.spectator.spectator import Stage, spectator_message, watch_choices
from bot.ui.text.card_emojis import CARD_EMOJIS

CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|Big🃏|Little🃏")
CARD_FACE = re.compile(r"<:c4?_([2-9TJQKA][SHDC]|BJ|LJ):\d+>")
BY_TEXT = {str(c): c for c in CARDS}
NAMES = ("Ann", "Ben", "Cal", "Dee")
PLAYER = get_player("normal")
MAX_ACTIONS = 4000


def cards_named(text: str) -> set[Card]:
    """Every card ``text`` names, as text or as a card face."""
    found = {BY_TEXT[m] for m in CARD_TEXT.findall(text)}
    return found | {card(code) for code in CARD_FACE.findall(text)}


@pytest.fixture(params=[False, True], ids=["text", "faces"])
def faces(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Cards shown as text, or as the application's card faces."""
    if request.param:
        for i, c in enumerate(CARDS):
            CARD_EMOJIS.ids[emoji_name(c.code)] = 10_000 + i
    yield request.param
    CARD_EMOJIS.ids.clear()


def new_table(preset: str, mode: str, game: Game) -> Table:
    table = Table(
        id="t1",
        guild_id=1,
        channel_id=2,
        host_id=100,
        rules=game.rules,
        status=TableStatus.PLAYING,
        game=game,
        options=TableOptions(spectators=mode),
    )
    for s in game.rules.seats:
        table.seats[s] = Occupant(100 + s, NAMES[s])
    return table


def low_target(preset: str) -> Rules:
    """A table's rules for ``preset`` (the mercy rule included), to a low target: short games."""
    rules = Rules.from_preset(preset)
    low = entry_of(rules.game).targets[0]
    return default_rules(preset, target=max(low, min(rules.target, 3 if low == 1 else 150)))


def public_cards(game: Game) -> set[Card]:
    """What anyone at the table has seen of the hand in progress: the cards played, and the
    card turned face up (Whist's trump card, Euchre's up-card)."""
    seen = {c for _, c in game.plays}
    for name in ("trump_card", "up_card"):  # Whist's and Euchre's (other games have none)
        c = getattr(game, name, None)
        if c is not None:
            seen.add(c)
    return seen


def check_payload(table: Table, game: Game, mode: str) -> None:
    view = seat_view(game, None)
    message = spectator_message(Stage.of(table, view), view)
    embed = json.loads(json.dumps(message.embed, ensure_ascii=False))
    deal_fields = [f for f in embed["fields"] if f["name"].endswith(" as dealt")]
    rest = {**embed, "fields": [f for f in embed["fields"] if f not in deal_fields]}
    components = message.json()["components"]
    shown = json.dumps([rest, components], ensure_ascii=False)
    if message.picture is not None:
        shown += message.picture.filename
    if not game.over:
        named = cards_named(shown)
        secret = named - public_cards(game)
        assert not secret, f"{sorted(map(str, secret))} shown to spectators in {shown}"
    # A finished hand's deal, only with 'hands after each hand', only once that hand is over.
    if mode != "hands":
        assert not deal_fields
        assert message.picture is None
        return
    if not game.results:
        assert not deal_fields
        assert message.picture is None
        return
    [field] = deal_fields
    number = int(field["name"].split()[1])
    result = next(r for r in game.results if r.number == number)
    assert number < game.hand_number or game.over
    assert message.picture is not None
    assert message.picture.result == result
    assert not cards_named(message.picture.filename)
    for s in game.rules.seats:
        line = next(x for x in field["value"].splitlines() if x.startswith(f"**{s.word}**"))
        assert cards_named(line) == set(result.deal[s]), line


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.parametrize("preset", preset_names())
def test_no_spectator_payload_holds_a_card_not_yet_played(
    preset: str, seed: int, faces: bool
) -> None:
    rng = random.Random(seed)
    game = Game(low_target(preset), Seat(rng.randrange(len(Rules.from_preset(preset).seats))))
    tables = {mode: new_table(preset, mode, game) for mode in SPECTATOR_MODES}
    for _ in range(MAX_ACTIONS):
        over = game.over
        for mode, table in tables.items():
            table.status = TableStatus.FINISHED if over else TableStatus.PLAYING
            table.deadline = None if over else 1_900_000_000.0
            if mode == "off":
                with pytest.raises(Refusal, match=r"closed this table to spectators|has ended"):
                    Spectators().check(table, 999)
                assert watch_choices([table], "") == []
                continue
            check_payload(table, game, mode)
            for label, value in watch_choices([table], ""):
                assert not cards_named(label), label
                assert value == "t1"
        if over:
            return
        act(game, rng)
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


def act(game: Game, rng: random.Random) -> None:
    if game.to_act is None:
        game.apply(game.random_deal(rng))
        return
    view = seat_view(game, game.to_act)
    action: Any = PLAYER.decide(view, rng, 0.01)
    game.apply(action)


def test_the_check_reads_cards_in_both_forms() -> None:
    """The reader of the property finds a card in every form the bot writes one."""
    CARD_EMOJIS.ids[emoji_name("QH")] = 77
    try:
        face = CARD_EMOJIS.for_guild(1).inline(card("QH"))
    finally:
        CARD_EMOJIS.ids.clear()
    assert cards_named(f"South {face}  West 10♦  → North · Big🃏") == {
        card("QH"),
        card("TD"),
        card("BJ"),
    }
    assert cards_named("♠ Spades · Standard · to 500 · bid 4 · won 2") == set()


def test_a_spectator_view_refuses_a_seat_view() -> None:
    game = Game(Rules.from_preset("standard"), Seat.N)
    game.apply(game.random_deal(random.Random(1)))
    table = new_table("standard", "public", game)
    view = seat_view(game, Seat.E)
    with pytest.raises(ValueError, match="public view only"):
        spectator_message(Stage.of(table, view), view)
