"""The hand and table messages render exactly as the golden file says, byte for byte, in every
state of whole games of Spades (bidding, blind nil, New York, jokers, three players), Whist and
Euchre, finished and abandoned, in every language, with and without notices, turn timers, hints
and card faces: what makes rendering cheaper must not change a character of what is shown.

The golden file was written by the renderers before they were made cheaper
(``python -m tests.ui.render_states``); a deliberate change of a message rewrites it."""

from __future__ import annotations

import hashlib
import json

from tests.ui.render_states import GOLDEN, rendered_games


def test_every_state_of_every_game_renders_as_before() -> None:
    golden = json.loads(GOLDEN.read_text())
    digests: dict[str, hashlib._Hash] = {}
    whole = 0
    for preset, step, _playing, text in rendered_games():
        digests.setdefault(preset, hashlib.sha256()).update(text.encode() + b"\n")
        kept = golden["whole"].get(f"{preset}:{step}")
        if kept is not None:  # the states kept whole say where a difference is
            assert json.loads(text) == kept, f"{preset} step {step}"
            assert text == json.dumps(kept, ensure_ascii=False)
            whole += 1
    assert whole == len(golden["whole"])
    assert {p: d.hexdigest() for p, d in digests.items()} == golden["sha256"]
