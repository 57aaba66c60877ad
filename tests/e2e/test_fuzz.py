"""Hostile and odd input: oversized, wrong-typed and unknown option values, and command
signatures the bot no longer has, sent through the fake Discord as a forged request (or an
outdated client) would.  Each gets an ephemeral reason within Discord's 3 s, never "something
went wrong", and the bot logs no ERROR and no traceback."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.conftest import World
from tests.e2e.flows import Shared, fresh_world, open_table, shared_bot
from tests.fakediscord import Message, Response, User
from tests.fakediscord.handles import AUTOCOMPLETE_RESULT

pytestmark = pytest.mark.asyncio(loop_scope="module")

STALE = "This command has changed since your Discord app loaded it"
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with shared_bot(tmp_path_factory.mktemp("fuzz")) as s:
        yield s


@pytest.fixture
def world(shared: Shared) -> World:
    return fresh_world(shared)


def opt(name: str, type: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": type, "value": value}


def sub(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "type": 1, "options": list(options)}


async def send(world: World, data: dict[str, Any], user: User | None = None) -> Response | Message:
    inter = await world.fake.slash_raw(user or world.users[0], world.channel, data)
    answer = await inter.answer()
    latency = inter.discord_latency
    assert latency is not None
    assert latency < 3.0, f"answered after {latency:.2f}s"
    return answer


def reasoned(answer: Response | Message, *parts: str) -> str:
    text = answer.text
    assert answer.ephemeral, f"not ephemeral: {text!r}"
    assert text.strip(), "an empty answer"
    assert "something went wrong" not in text, text
    assert len(text) <= 400, f"a long answer ({len(text)} characters)"
    for part in parts:
        assert part in text, f"{part!r} not in {text!r}"
    return text


def log_lines_since(shared: Shared, mark: int) -> list[str]:
    return shared.proc.output.splitlines()[mark:]


def no_errors_logged(shared: Shared, mark: int) -> None:
    lines = log_lines_since(shared, mark)
    bad = [line for line in lines if " ERROR " in line or "Traceback" in line]
    assert not bad, "\n".join(lines)


# ---------------------------------------------------------------------- each case, named
CASES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    (
        "6000-char card",
        {"name": "play", "options": [opt("card", STRING, "x" * 6000)]},
        ("`card` is too long: at most 30 characters, not 6000.",),
    ),
    (
        "6000-char bid",
        {"name": "bid", "options": [opt("bid", STRING, "9" * 6000)]},
        ("`bid` is too long: at most 20 characters",),
    ),
    ("card: 5", {"name": "play", "options": [opt("card", STRING, 5)]}, ("`card` must be text",)),
    ("bid: {}", {"name": "bid", "options": [opt("bid", STRING, {})]}, ("`bid` must be text",)),
    (
        "seat: Q",
        {"name": "spades", "options": [sub("join", opt("seat", STRING, "Q"))]},
        ("`Q` is not a seat: choose North, East, South or West",),
    ),
    (
        "level: expert",
        {"name": "spades", "options": [sub("bot", opt("level", STRING, "expert"))]},
        ("`level` must be one of easy, normal, hard",),
    ),
    (
        "target: 0",
        {"name": "spades", "options": [sub("new", opt("target", INTEGER, 0))]},
        ("`target` must be between 1 and 1000, not 0.",),
    ),
    (
        "target: 5000",
        {"name": "spades", "options": [sub("new", opt("target", INTEGER, 5000))]},
        ("`target` must be between 1 and 1000",),
    ),
    (
        "target: 'abc'",
        {"name": "spades", "options": [sub("new", opt("target", INTEGER, "abc"))]},
        ("`target` must be a whole number.",),
    ),
    (
        "target: 2.5",
        {"name": "spades", "options": [sub("new", opt("target", INTEGER, 2.5))]},
        ("`target` must be a whole number.",),
    ),
    (
        "turn_timer: -5",
        {"name": "spades", "options": [sub("new", opt("turn_timer", INTEGER, -5))]},
        ("`turn_timer` must be between 0 and 3600",),
    ),
    (
        "preset: nope",
        {"name": "spades", "options": [sub("new", opt("preset", STRING, "nope"))]},
        ("There is no preset `nope`: pick one from the list (standard,",),
    ),
    (
        "thread: 'yes'",
        {"name": "spades", "options": [sub("new", opt("thread", BOOLEAN, "yes"))]},
        ("`thread` must be true or false.",),
    ),
    (
        "rule name: 41 chars",
        {
            "name": "spades",
            "options": [sub("rule", opt("name", STRING, "n" * 41), opt("value", STRING, "on"))],
        },
        ("`name` is too long",),
    ),
    (
        "season: 0",
        {"name": "leaderboard", "options": [opt("season", INTEGER, 0)]},
        ("`season` must be between 1 and 100000, not 0.",),
    ),
    (
        "season: 10**30",
        {"name": "leaderboard", "options": [opt("season", INTEGER, 10**30)]},
        ("`season` must be between 1 and 100000",),
    ),
    (
        "member: not a snowflake",
        {"name": "stats", "options": [opt("member", USER, "me!")]},
        ("`member` is not something I can look up.",),
    ),
    (
        "unknown option",
        {"name": "play", "options": [opt("card", STRING, "AS"), opt("colour", STRING, "red")]},
        (STALE,),
    ),
    (
        "an option twice",
        {"name": "play", "options": [opt("card", STRING, "AS"), opt("card", STRING, "KS")]},
        (STALE,),
    ),
    ("option of another type", {"name": "play", "options": [opt("card", INTEGER, 5)]}, (STALE,)),
    ("required option missing", {"name": "play", "options": []}, (STALE,)),
    ("unknown subcommand", {"name": "spades", "options": [sub("frobnicate")]}, (STALE,)),
    ("subcommand missing", {"name": "spades", "options": []}, (STALE,)),
    ("unknown command", {"name": "spades-old", "options": []}, (STALE,)),
    ("not a slash command", {"name": "play", "type": 2, "options": []}, (STALE,)),
]


@pytest.mark.parametrize(("case", "data", "parts"), CASES, ids=[c[0] for c in CASES])
async def test_each_malformed_command_gets_its_reason(
    shared: Shared, world: World, case: str, data: dict[str, Any], parts: tuple[str, ...]
) -> None:
    mark = len(shared.proc.output.splitlines())
    reasoned(await send(world, data), *parts)
    no_errors_logged(shared, mark)


async def test_user_text_is_quoted_short_and_harmless(shared: Shared, world: World) -> None:
    mark = len(shared.proc.output.splitlines())
    await open_table(world, preset="standard")
    bob = world.users[1]
    card = "<@here>``` **b** " + "z" * 13  # 30 characters: the longest a card may be
    reasoned(await send(world, {"name": "spades", "options": [sub("join")]}, bob), "You sit")
    # Bob is seated (not playing yet): the card is read before the turn is checked.
    text = reasoned(
        await send(world, {"name": "play", "options": [opt("card", STRING, card)]}, bob)
    )
    assert "I don't know the card `<@here> **b** zzzzzzzzz…`" in text, text
    bid = "blind " + "\u202e" * 5 + "`x`" * 3  # 20 characters, the longest a bid may be
    text = reasoned(await send(world, {"name": "bid", "options": [opt("bid", STRING, bid)]}, bob))
    assert text.startswith("`blind xxx` is not a bid"), text
    no_errors_logged(shared, mark)


async def test_an_oversized_autocomplete_offers_nothing(shared: Shared, world: World) -> None:
    mark = len(shared.proc.output.splitlines())
    inter = await world.fake.slash_raw(
        world.users[0],
        world.channel,
        {"name": "play", "options": [{**opt("card", STRING, "x" * 6000), "focused": True}]},
        autocomplete=True,
    )
    r = await inter.response()
    assert r.type == AUTOCOMPLETE_RESULT
    assert r.choices == []
    no_errors_logged(shared, mark)


# ---------------------------------------------------------------------- random garbage
GARBAGE: list[Any] = [
    0,
    -1,
    10**18,
    2.5,
    True,
    None,
    "",
    " ",
    "x" * 101,
    "y" * 6001,
    "\u0000\u202e@everyone",
    {},
    [],
    ["AS"],
    "N",
    "Q",
    "standard",
    "123",
]


def leaves(commands: list[dict[str, Any]]) -> list[tuple[list[str], list[dict[str, Any]]]]:
    out: list[tuple[list[str], list[dict[str, Any]]]] = []

    def walk(path: list[str], options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            out.append((path, options))
        for s in subs:
            walk([*path, s["name"]], s.get("options") or [])

    for c in commands:
        if c.get("type", 1) == 1:
            walk([c["name"]], c.get("options") or [])
    return out


def nest(path: list[str], options: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {"name": path[0], "options": options}
    for name in reversed(path[1:]):
        data["options"] = [sub(name, *data["options"])]
    return data


async def test_random_garbage_in_every_command_gets_a_reason(shared: Shared, world: World) -> None:
    """Every command the bot registered, with one option of garbage (of any type) and the
    others missing or wrong: 150 interactions, each answered with a reason."""
    mark = len(shared.proc.output.splitlines())
    rng = random.Random(9)
    targets = [(p, o) for p, o in leaves(world.fake.commands()) if o]
    assert len(targets) >= 8
    for _ in range(150):
        path, schema = rng.choice(targets)
        spec = rng.choice(schema)
        value = rng.choice(GARBAGE)
        kind = spec["type"] if rng.random() < 0.8 else rng.choice([STRING, INTEGER, BOOLEAN])
        options = [opt(spec["name"], kind, value)]
        if rng.random() < 0.2:
            options.append(opt(f"old_{spec['name']}", STRING, "x"))
        answer = await send(world, nest(path, options))
        text = answer.text
        assert text.strip(), f"no text for {path} {options}"
        assert "something went wrong" not in text, (path, options, text)
        assert len(text) <= 2000
    no_errors_logged(shared, mark)
