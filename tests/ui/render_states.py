"""Hand and table messages rendered in many states, for pinning the renderers' output: whole
games of several kinds walked by the easy computer player from fixed seeds, each state rendered
for every seat in a language, with and without a notice, a turn timer, hints and card faces
(tests/ui/test_render_unchanged.py; ``python -m tests.ui.render_states`` writes what it
compares with, from the renderers of the tree it runs in)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.ai.levels import get_player
from bot.engine import Game, Rules, Seat, seat_view
from bot.i18n import LANGUAGES, use
from bot.tables.randomness import TableRandomness
from bot.tables.state import Occupant, Table, TableStatus
from bot.ui.hand.hand import hand_json
from bot.ui.images.cards import emoji_name, face_codes
from bot.ui.table.render import table_components, table_embed
from bot.ui.text.card_emojis import CARD_EMOJIS

PRESETS = (
    "standard",
    "house",
    "new-york",
    "joker",
    "jjdd",
    "solo",
    "cutthroat-3",
    "short-whist",
    "euchre",
)
GOLDEN = Path(__file__).parent / "golden" / "rendered_messages.json"
#: States kept whole in the golden file (preset, step): bidding, blind nil's face-down hand and
#: Look, New York's proposals, play, a three-player game, Whist, Euchre's calling, the end.
WHOLE = (
    ("standard", 0),
    ("standard", 17),
    ("house", 0),
    ("house", 3),
    ("new-york", 2),
    ("joker", 31),
    ("cutthroat-3", 8),
    ("short-whist", 6),
    ("euchre", 0),
    ("euchre", 1),
    ("euchre", 9),
)
GUILD_WITH_FACES = 77  # a server whose card faces are uploaded (half of them, in ``faces``)


def table_of(preset: str, guild_id: int, hints: bool) -> Table:
    rules = Rules.from_preset(preset)
    table = Table(id="t3st1234", guild_id=guild_id, channel_id=2, host_id=1, rules=rules)
    for seat in rules.seats:
        table.seats[seat] = Occupant(int(seat) + 101, f"p{seat.word}")
    table.status = TableStatus.PLAYING
    table.options = replace(table.options, hints=hints)
    table.game = Game(rules, Seat.N)
    return table


def walk(preset: str, seed: int = 5) -> Iterator[tuple[int, Table]]:
    """The states of a whole game of ``preset`` (then finished, then abandoned), numbered."""
    hints = preset in ("house", "euchre")
    table = table_of(preset, GUILD_WITH_FACES if preset != "solo" else 3, hints)
    game = table.game
    assert game is not None
    randomness = TableRandomness(test_seed=seed)
    player = get_player("easy")
    rng = random.Random(f"{preset}{seed}")
    step = 0
    for _ in range(3000):
        if game.over:
            break
        if game.to_act is None:
            game.apply(randomness.deal(table, game))
            continue
        table.deadline = 1_900_000_000.0 + step if step % 3 == 1 else None
        table.version += 1
        yield step, table
        step += 1
        game.apply(player.decide(seat_view(game, game.to_act), rng, 0.01))
    table.deadline = None
    table.status = TableStatus.FINISHED
    yield step, table
    table.status = TableStatus.ABANDONED
    yield step + 1, table


def render(table: Table, step: int) -> dict[str, Any]:
    """Every seat's hand message and the table message of one state, in one language."""
    language = LANGUAGES[step % len(LANGUAGES)]
    assert table.game is not None
    notice = "⚠ Not your turn." if step % 4 == 2 else None
    with use(language):
        hands = {s.name: hand_json(table, s, notice) for s in table.game.seating.seats}
        view = seat_view(table.game, None)
        embed = table_embed(table, view).to_dict()
        components = table_components(table).to_components()
    return {"language": language, "hands": hands, "table": [embed, components]}


def rendered_games() -> Iterator[tuple[str, int, bool, str]]:
    """(preset, step, is the game still on, the state's rendering as JSON) of every state."""
    with faces():
        for preset in PRESETS:
            for step, table in walk(preset):
                text = json.dumps(render(table, step), ensure_ascii=False)
                yield preset, step, table.status == TableStatus.PLAYING, text


class faces:  # noqa: N801 - used as a context manager, like contextlib's
    """Half of the two-colour card faces uploaded (fake emoji ids), and a server of its own
    four-colour scheme, for the time of a rendering."""

    def __enter__(self) -> None:
        self.saved = dict(CARD_EMOJIS.ids), dict(CARD_EMOJIS.guild_schemes)
        for i, code in enumerate(face_codes()):
            if i % 2 == 0:
                CARD_EMOJIS.ids[emoji_name(code, "two")] = 10_000 + i
                CARD_EMOJIS.ids[emoji_name(code, "four")] = 20_000 + i
        CARD_EMOJIS.guild_schemes[GUILD_WITH_FACES] = "four"

    def __exit__(self, *exc: object) -> None:
        CARD_EMOJIS.ids.clear()
        CARD_EMOJIS.ids.update(self.saved[0])
        CARD_EMOJIS.guild_schemes.clear()
        CARD_EMOJIS.guild_schemes.update(self.saved[1])


def golden() -> dict[str, Any]:
    """Per preset the SHA-256 of every state's rendering, and the states of :data:`WHOLE` (and
    each game's end) as they render."""
    digests: dict[str, Any] = {}
    whole: dict[str, Any] = {}
    for preset, step, playing, text in rendered_games():
        digest = digests.setdefault(preset, hashlib.sha256())
        digest.update(text.encode() + b"\n")
        if (preset, step) in WHOLE or (preset == "standard" and not playing):
            whole[f"{preset}:{step}"] = json.loads(text)
    return {"sha256": {p: d.hexdigest() for p, d in digests.items()}, "whole": whole}


if __name__ == "__main__":  # writes the golden file from this tree's renderers
    GOLDEN.write_text(json.dumps(golden(), ensure_ascii=False, indent=1) + "\n")
    sys.stdout.write(f"wrote {GOLDEN}\n")
