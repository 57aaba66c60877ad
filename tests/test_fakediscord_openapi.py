"""The fake checks every REST request against Discord's OpenAPI description: the checker on a
small description written here, then on Discord's own (when it is on this machine), then the
fake's answer to a rejected request and the failure it leaves for the test."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fakediscord import FakeDiscord, openapi
from tests.fakediscord.openapi import ENV_REQUIRE, ApiDescription, default_description
from tests.fakediscord.server import ApiViolation

SNOWFLAKE_PARAM = {"in": "path", "required": True, "schema": {"$ref": "#/components/schemas/Id"}}
DOC: dict[str, Any] = {
    "openapi": "3.1.0",
    "paths": {
        "/channels/{channel_id}/messages": {
            "parameters": [{"name": "channel_id", **SNOWFLAKE_PARAM}],
            "get": {"parameters": [{"$ref": "#/components/parameters/Limit"}]},
            "post": {
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Msg"}},
                        "multipart/form-data": {"schema": {"$ref": "#/components/schemas/Msg"}},
                    },
                }
            },
        },
        "/channels/{channel_id}/typing": {
            "parameters": [{"name": "channel_id", **SNOWFLAKE_PARAM}],
            "post": {},
        },
        "/channels/{channel_id}/pins": {
            "parameters": [{"name": "channel_id", **SNOWFLAKE_PARAM}],
            "put": {"requestBody": {"$ref": "#/components/requestBodies/Pin"}},
        },
        "/hooks/{hook_id}/messages/@original": {"get": {}},
        "/hooks/{hook_id}/messages/{message_id}": {"get": {}},
    },
    "components": {
        "parameters": {
            "Limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}
        },
        "requestBodies": {
            "Pin": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "properties": {"reason": {"maxLength": 5}}}
                    }
                },
            }
        },
        "schemas": {
            "Id": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"},
            "Msg": {
                "type": "object",
                "properties": {
                    "content": {"type": ["string", "null"], "maxLength": 10},
                    "reply_to": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Id"}]},
                    "components": {
                        "type": "array",
                        "items": {
                            "oneOf": [
                                {"$ref": "#/components/schemas/Button"},
                                {"$ref": "#/components/schemas/Text"},
                            ]
                        },
                    },
                },
            },
            "Button": {
                "type": "object",
                "properties": {
                    "type": {"type": "integer", "enum": [2]},
                    "custom_id": {"type": "string", "minLength": 1, "maxLength": 100},
                },
                "required": ["type"],
            },
            "Text": {
                "type": "object",
                "properties": {
                    "type": {"type": "integer", "enum": [10]},
                    "content": {"type": "string"},
                },
                "required": ["type", "content"],
            },
        },
    },
}
MESSAGES = "/channels/123/messages"


def problems(api: ApiDescription, method: str, path: str, body: Any = None, **query: str) -> Any:
    found = api.check(method, path, query, "application/json" if body is not None else None, body)
    return None if found is None else (found.status, found.code, found.errors)


# ----- the checker, on a small description -----------------------------------------------------
def test_a_body_is_checked_against_its_schema_with_refs_resolved() -> None:
    api = ApiDescription(DOC)
    good = {"content": "hi", "components": [{"type": 2, "custom_id": "x" * 100}]}
    assert problems(api, "POST", MESSAGES, good) is None
    status, code, errors = problems(
        api, "POST", MESSAGES, {"components": [{"type": 2, "custom_id": "x" * 101}]}
    )
    assert (status, code) == (400, 50035)
    # the error names the field of the branch the component meant (a button), not the union
    assert list(errors) == ["components.0.custom_id"]
    assert "too long" in errors["components.0.custom_id"]["_errors"][0]["message"]
    _, _, errors = problems(api, "POST", MESSAGES, {"components": [{"type": 99}]})
    assert list(errors) == ["components.0"]
    _, _, errors = problems(api, "POST", MESSAGES, {"content": 5})
    assert list(errors) == ["content"]


def test_integer_snowflakes_are_accepted_and_nothing_else_is_widened() -> None:
    api = ApiDescription(DOC)
    assert problems(api, "POST", MESSAGES, {"reply_to": 1234567890123456789}) is None
    assert problems(api, "POST", MESSAGES, {"reply_to": "1234567890123456789"}) is None
    assert problems(api, "POST", MESSAGES, {"reply_to": -1}) is not None
    assert problems(api, "POST", MESSAGES, {"reply_to": "12a"}) is not None
    assert problems(api, "POST", MESSAGES, {"content": 12}) is not None
    assert DOC["components"]["schemas"]["Id"]["type"] == "string", "the caller's copy is kept"


def test_routes_methods_and_parameters() -> None:
    api = ApiDescription(DOC)
    assert problems(api, "POST", "/channels/123/mesages", {"content": "x"})[:2] == (404, 0)
    assert problems(api, "PUT", MESSAGES, {"content": "x"})[:2] == (405, 0)
    _, _, errors = problems(api, "POST", "/channels/general/messages", {"content": "x"})
    assert list(errors) == ["path.channel_id"]
    assert problems(api, "GET", MESSAGES, limit="50") is None
    assert list(problems(api, "GET", MESSAGES, limit="500")[2]) == ["query.limit"]
    assert list(problems(api, "GET", MESSAGES, limt="5")[2]) == ["?limt"]
    # parameters and request bodies may themselves be $refs
    assert problems(api, "PUT", "/channels/1/pins", {"reason": "spam"}) is None
    assert list(problems(api, "PUT", "/channels/1/pins", {"reason": "spammy"})[2]) == ["reason"]
    # a body where the operation takes none, none where it needs one
    assert list(problems(api, "POST", "/channels/1/typing", {"x": 1})[2]) == [""]
    assert list(problems(api, "POST", MESSAGES)[2]) == [""]
    # a literal segment wins over a parameter
    assert api.match("/hooks/1/messages/@original") == (
        "/hooks/{hook_id}/messages/@original",
        {"hook_id": "1"},
    )
    assert api.match("/hooks/1/messages/2") == (
        "/hooks/{hook_id}/messages/{message_id}",
        {"hook_id": "1", "message_id": "2"},
    )


component = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from([2, 10, 99, "2", None]),
        "custom_id": st.text(max_size=102) | st.integers(),
        "content": st.text(max_size=3) | st.none(),
    },
)


@settings(max_examples=300, deadline=None)
@given(components=st.lists(component | st.integers() | st.none(), max_size=3))
def test_tagged_unions_dispatched_on_their_type_give_the_unions_verdict(
    components: list[Any],
) -> None:
    """The loaded copy validates a union told apart by ``type`` through that branch alone
    (for speed): it must accept and refuse exactly what the union itself does."""
    dispatched = ApiDescription(DOC)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(openapi, "_dispatch_tagged_unions", lambda node, schemas: None)
        plain = ApiDescription(DOC)
    assert '"if"' in json.dumps(dispatched.document)
    assert '"if"' not in json.dumps(plain.document)
    body = {"components": components}
    verdict = problems(dispatched, "POST", MESSAGES, body)
    assert (verdict is None) == (problems(plain, "POST", MESSAGES, body) is None)


def test_a_validator_is_built_once_per_schema() -> None:
    api = ApiDescription(DOC)
    problems(api, "POST", MESSAGES, {"content": "a"})
    built = dict(api._validators)
    problems(api, "POST", MESSAGES, {"content": "b"})
    problems(api, "POST", "/channels/9/messages", {"content": 3})
    assert api._validators == built
    assert all(api._validators[k] is built[k] for k in built)


# ----- Discord's own description ---------------------------------------------------------------
@pytest.fixture
def discord_api() -> ApiDescription:
    api = default_description()
    if api is None:
        pytest.skip(f"no Discord OpenAPI description on this machine ({ENV_REQUIRE}=1: fail)")
    return api


def button_message(custom_id: str) -> dict[str, Any]:
    button = {"type": 2, "style": 1, "label": "Play", "custom_id": custom_id}
    return {"content": "x", "components": [{"type": 1, "components": [button]}]}


def test_discords_description_rejects_known_bad_requests(discord_api: ApiDescription) -> None:
    assert problems(discord_api, "POST", MESSAGES, button_message("x" * 100)) is None
    _, code, errors = problems(discord_api, "POST", MESSAGES, button_message("x" * 101))
    assert code == 50035
    assert list(errors) == ["components.0.components.0.custom_id"]
    _, _, errors = problems(discord_api, "POST", MESSAGES, {"components": [{"type": 99}]})
    assert list(errors) == ["components.0"]
    # an autocomplete answer: a union of three choice kinds with no field to tell them apart
    choices = {"type": 8, "data": {"choices": [{"name": "x" * 101, "value": "a"}]}}
    _, _, errors = problems(discord_api, "POST", "/interactions/1/t/callback", choices)
    assert list(errors) == ["data.choices.0.name"]
    assert problems(discord_api, "POST", "/channel/123/messages", {"content": "x"})[0] == 404
    assert problems(discord_api, "PUT", MESSAGES, {"content": "x"})[0] == 405


def test_discords_description_takes_discord_pys_integer_snowflakes(
    discord_api: ApiDescription,
) -> None:
    body = {
        "content": "x",
        "allowed_mentions": {"parse": [], "users": [80351110224678912], "replied_user": False},
        "message_reference": {"message_id": 1, "channel_id": 2, "fail_if_not_exists": False},
    }
    assert problems(discord_api, "POST", MESSAGES, body) is None
    body["message_reference"] = {"message_id": "one"}
    assert list(problems(discord_api, "POST", MESSAGES, body)[2]) == [
        "message_reference.message_id"
    ]


# ----- the fake's answer, and the failure it leaves ----------------------------------------------
async def test_the_fake_answers_a_rejected_request_like_discord_and_fails_the_test() -> None:
    fake = await FakeDiscord(check_api=False).start()
    fake.api = ApiDescription(DOC)
    ch = fake.add_guild("g").add_text_channel("c")
    url = f"{fake.api_base}/channels/{ch.id}"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        async with http.post(f"{url}/messages", json={"content": "x" * 11}) as r:
            assert r.status == 400
            answer = await r.json()
        assert answer["code"] == 50035
        assert list(answer["errors"]) == ["content"]
        form = aiohttp.FormData()
        payload = {"content": "a", "components": [{"type": 2, "custom_id": ""}]}
        form.add_field("payload_json", json.dumps(payload))
        form.add_field("files[0]", b"\x89PNG", filename="a.png")
        async with http.post(f"{url}/messages", data=form) as r:
            assert r.status == 400
            assert list((await r.json())["errors"]) == ["components.0.custom_id"]
        async with http.post(f"{url}/threads", json={"name": "t"}) as r:
            assert r.status == 404
        # what the description accepts reaches the fake's own handler
        async with http.post(f"{url}/messages", json={"content": "hi", "reply_to": ch.id}) as r:
            assert r.status == 200, await r.text()
        async with http.get(f"{url}/messages", params={"limit": "5"}) as r:
            assert r.status == 200
    assert [m.content for m in fake.messages(ch)] == ["hi"]
    with pytest.raises(ApiViolation) as failed:  # what `async with FakeDiscord()` does on exit
        await fake.__aexit__(None, None, None)
    lines = failed.value.lines
    assert len(lines) == 3
    assert lines[0].startswith(f"POST /api/v10/channels/{ch.id}/messages: content:")
    assert "components.0.custom_id" in lines[1]
    assert "no route" in lines[2]


async def test_a_test_that_sends_a_rejected_request_on_purpose_can_take_it() -> None:
    async with FakeDiscord(check_api=False) as fake:
        fake.api = ApiDescription(DOC)
        ch = fake.add_guild("g").add_text_channel("c")
        auth = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(headers=auth) as http:
            url = f"{fake.api_base}/channels/{ch.id}/messages"
            json_type = {"Content-Type": "application/json"}
            async with http.post(url, data=b"{not json", headers=json_type) as r:
                assert (r.status, (await r.json())["code"]) == (400, 50109)
        [taken] = fake.take_api_violations()
        assert "unreadable body" in taken
    assert fake.api_violations == []


async def test_commands_come_back_as_discord_describes_them() -> None:
    """discord.py sends ``default_member_permissions`` as an integer and ``integration_types``
    as null; Discord answers with a string and its default (the fake echoed both)."""
    async with FakeDiscord() as fake:
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        body = [
            {
                "name": "league",
                "description": "d",
                "default_member_permissions": 32,
                "integration_types": None,
            },
            {"name": "ping", "description": "p", "default_member_permissions": None},
        ]
        auth = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession(headers=auth) as http, http.put(url, json=body) as r:
            assert r.status == 200
            league, ping = await r.json()
    assert (league["default_member_permissions"], league["integration_types"]) == ("32", [0])
    assert ping["default_member_permissions"] is None
