"""Discord's published OpenAPI description (discord/discord-api-spec, ``specs/openapi.json``) as a
check on every REST request the bot sends to the fake.

:class:`ApiDescription` answers, for one request, whether the description has its route with
that method, whether its path and query parameters fit their schemas, and whether its body (JSON,
or the ``payload_json`` part of a multipart body) fits the operation's ``requestBody`` schema, as a
JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with every ``$ref`` resolved in the
document. Discord's snowflakes are strings (``SnowflakeType``) but discord.py sends integers:
the loaded copy accepts a non-negative integer wherever a snowflake string is allowed. For speed
it also validates each union told apart by a ``type`` field through the branch that field picks
(same verdicts: see :func:`_dispatch_tagged_unions`). A validator is built once per schema and
kept.

Where the description comes from: ``DISCORD_OPENAPI_JSON`` names the file, else
``tests/fakediscord/discord-api-spec/openapi.json`` (see the README beside it). Without one,
:func:`default_description` is ``None`` and the fake checks nothing against it, unless
``SPADES_REQUIRE_OPENAPI=1``, which makes a missing description an error.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

JSON = dict[str, Any]
ENV_PATH = "DISCORD_OPENAPI_JSON"
ENV_REQUIRE = "SPADES_REQUIRE_OPENAPI"
DEFAULT_PATH = Path(__file__).resolve().parent / "discord-api-spec" / "openapi.json"
_URI = "urn:discord-api-spec:openapi.json"
_METHODS = ("get", "put", "post", "patch", "delete")
# query strings carry text: these are the typed values a query parameter may stand for
_BOOLEANS = {"true": True, "True": True, "1": True, "false": False, "False": False, "0": False}
_INTEGER = re.compile(r"-?[0-9]+")
_MAX_MESSAGE = 300


class DescriptionMissing(RuntimeError):
    """``SPADES_REQUIRE_OPENAPI=1`` and no description file where one was looked for."""


@dataclass(frozen=True)
class Rejection:
    """How Discord answers a request its description rejects (status, JSON error code)."""

    status: int
    code: int
    message: str
    errors: JSON  # Discord's ``errors`` object: {"field.path": {"_errors": [...]}}, may be {}

    def lines(self) -> list[str]:
        """One line per problem, for a test failure."""
        found = [
            f"{where or '(body)'}: {e['message']}"
            for where, value in self.errors.items()
            for e in value["_errors"]
        ]
        return found or [self.message]


@dataclass(frozen=True)
class _Operation:
    parameters: tuple[tuple[str, str, bool, str], ...]  # (in, name, required, schema pointer)
    bodies: Mapping[str, str]  # media type -> schema pointer
    body_required: bool


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _widen_snowflakes(node: Any) -> None:
    """Let every snowflake-string schema also take a non-negative integer (in place)."""
    if isinstance(node, dict):
        if node.get("format") == "snowflake" and node.get("type") == "string":
            node["type"] = ["string", "integer"]
            node["minimum"] = 0  # applies to integers only, as "pattern" applies to strings only
        for value in node.values():
            _widen_snowflakes(value)
    elif isinstance(node, list):
        for value in node:
            _widen_snowflakes(value)


_SCHEMAS = "#/components/schemas/"


def _tag_values(schemas: JSON, branch: Any) -> frozenset[Any] | None:
    """The values of the ``type`` field that a union branch (a ``$ref`` to an object schema that
    requires ``type``) takes, or ``None`` when the branch is not of that form."""
    ref = branch.get("$ref") if isinstance(branch, dict) and len(branch) == 1 else None
    if not isinstance(ref, str) or not ref.startswith(_SCHEMAS):
        return None
    target = schemas.get(ref.removeprefix(_SCHEMAS)) or {}
    tag = (target.get("properties") or {}).get("type") or {}
    values = tag.get("enum") or ([tag["const"]] if "const" in tag else None)
    if target.get("type") != "object" or "type" not in (target.get("required") or ()):
        return None
    if not values or not all(isinstance(v, int | str) for v in values):
        return None
    return frozenset(values)


def _dispatch_tagged_unions(node: Any, schemas: JSON) -> None:
    """Rewrite (in place) each ``oneOf``/``anyOf`` whose branches are object schemas told apart
    by disjoint values of a required ``type`` field into ``if``/``then`` on that field, with the
    union itself as the last ``else``. A value whose ``type`` picks branch *i* fails every other
    branch, so the union holds exactly when branch *i* does: the same verdict, but one branch is
    validated instead of all of them (Discord's components and callbacks are such unions), and
    the errors are that branch's."""
    if isinstance(node, list):
        for value in node:
            _dispatch_tagged_unions(value, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_tagged_unions(value, schemas)
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if not isinstance(branches, list) or len(branches) < 2 or "if" in node:
            continue
        tags = [_tag_values(schemas, b) for b in branches]
        known = [t for t in tags if t is not None]
        if len(known) < len(tags) or len(frozenset().union(*known)) < sum(map(len, known)):
            continue  # a branch of another form, or two branches sharing a value
        chain: JSON = {key: node.pop(key)}
        for branch, values in reversed(list(zip(branches, known, strict=True))):
            picks = {"type": "object", "required": ["type"]}
            picks["properties"] = {"type": {"enum": sorted(values, key=repr)}}
            chain = {"if": picks, "then": branch, "else": chain}
        node.update(chain)
        break


class ApiDescription:
    """One OpenAPI document, ready to check requests against (paths are the API's, without the
    ``/api/v10`` prefix)."""

    def __init__(self, document: JSON) -> None:
        self.document = copy.deepcopy(document)
        _widen_snowflakes(self.document)
        schemas = self.document.get("components", {}).get("schemas", {})
        _dispatch_tagged_unions(self.document, schemas)
        resource = DRAFT202012.create_resource(self.document)
        self._registry: Registry[Any] = Registry().with_resource(_URI, resource)
        self._validators: dict[str, Draft202012Validator] = {}
        # routes by number of segments: (segments, template)
        self._routes: dict[int, list[tuple[tuple[str, ...], str]]] = {}
        for template in self.document.get("paths", {}):
            segments = tuple(template.strip("/").split("/"))
            self._routes.setdefault(len(segments), []).append((segments, template))
        self._operations: dict[tuple[str, str], _Operation | None] = {}

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ApiDescription:
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    # ----- routes ------------------------------------------------------------------------
    def match(self, path: str) -> tuple[str, dict[str, str]] | None:
        """The path template ``path`` falls under, and its path parameters. A literal segment
        wins over a parameter (``/messages/@original`` before ``/messages/{message_id}``)."""
        parts = tuple(path.strip("/").split("/"))
        best: tuple[tuple[bool, ...], str, dict[str, str]] | None = None
        for segments, template in self._routes.get(len(parts), ()):
            params: dict[str, str] = {}
            literal: list[bool] = []
            for seg, part in zip(segments, parts, strict=True):
                if seg.startswith("{") and seg.endswith("}"):
                    if not part:
                        break
                    params[seg[1:-1]] = part
                    literal.append(False)
                elif seg == part:
                    literal.append(True)
                else:
                    break
            else:
                rank = tuple(literal)
                if best is None or rank > best[0]:
                    best = (rank, template, params)
        return None if best is None else (best[1], best[2])

    def _operation(self, template: str, method: str) -> _Operation | None:
        key = (template, method)
        if key not in self._operations:
            self._operations[key] = self._build_operation(template, method)
        return self._operations[key]

    def _build_operation(self, template: str, method: str) -> _Operation | None:
        item = self.document["paths"][template]
        if method not in _METHODS or method not in item:
            return None
        base = f"/paths/{_escape(template)}"
        params: dict[tuple[str, str], tuple[str, str, bool, str]] = {}
        for owner, pointer in ((item, base), (item[method], f"{base}/{method}")):
            for i, raw in enumerate(owner.get("parameters") or []):
                p, at = self._follow(raw, f"{pointer}/parameters/{i}")
                if "schema" in p:
                    key, required = (p["in"], p["name"]), bool(p.get("required"))
                    params[key] = (*key, required, f"{at}/schema")
        body, at = self._follow(
            item[method].get("requestBody") or {}, f"{base}/{method}/requestBody"
        )
        bodies = {
            media: f"{at}/content/{_escape(media)}/schema"
            for media, spec in (body.get("content") or {}).items()
            if "schema" in spec
        }
        return _Operation(tuple(params.values()), bodies, bool(body.get("required")))

    def _follow(self, node: Any, pointer: str) -> tuple[Any, str]:
        """An OpenAPI object (parameter, request body) and its pointer, past local ``$ref``s."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            pointer = node["$ref"].removeprefix("#")
            node = self._registry.resolver(_URI).lookup(f"#{pointer}").contents
        return node, pointer

    def validator(self, pointer: str) -> Draft202012Validator:
        """The validator of the schema at ``pointer`` (built on first use, then kept)."""
        found = self._validators.get(pointer)
        if found is None:
            schema = {"$ref": f"{_URI}#{pointer}"}
            found = Draft202012Validator(schema, registry=self._registry)
            self._validators[pointer] = found
        return found

    # ----- requests ----------------------------------------------------------------------
    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str] | None = None,
        media_type: str | None = None,
        body: Any = None,
    ) -> Rejection | None:
        """``None`` when the description accepts the request, else how Discord answers it.
        ``body`` is the parsed JSON (for multipart, the parsed ``payload_json``), or ``None``
        when the request has none; ``media_type`` is its Content-Type without parameters."""
        found = self.match(path)
        if found is None:
            return Rejection(404, 0, "404: Not Found", _one("", f"no route {path}"))
        template, path_params = found
        op = self._operation(template, method.lower())
        if op is None:
            return Rejection(405, 0, "405: Method Not Allowed", _one("", f"no {method} {template}"))
        errors: JSON = {}
        self._check_parameters(op, path_params, query or {}, errors)
        self._check_body(op, media_type, body, errors)
        if errors:
            return Rejection(400, 50035, "Invalid Form Body", errors)
        return None

    def _check_parameters(
        self, op: _Operation, path_params: Mapping[str, str], query: Mapping[str, str], errors: JSON
    ) -> None:
        declared = {name for where, name, _, _ in op.parameters if where == "query"}
        for name in query:
            if name not in declared:
                _add(errors, f"?{name}", "is not a query parameter of this route")
        for where, name, required, pointer in op.parameters:
            given = {"path": path_params, "query": query}.get(where)
            if given is None:
                continue  # headers and cookies: not checked
            if name not in given:
                if required:
                    _add(errors, f"{where}.{name}", "is required")
                continue
            raw = given[name]
            validator = self.validator(pointer)
            if not any(validator.is_valid(v) for v in _readings(raw)):
                error = best_match(validator.iter_errors(raw))
                why = error.message if error is not None else "is invalid"
                _add(errors, f"{where}.{name}", why)

    def _check_body(self, op: _Operation, media_type: str | None, body: Any, errors: JSON) -> None:
        if body is None:
            if op.body_required:
                _add(errors, "", "this route needs a request body")
            return
        if not op.bodies:
            _add(errors, "", "this route takes no request body")
            return
        pointer = op.bodies.get(media_type or "application/json")
        if pointer is None:
            _add(errors, "", f"{media_type} is not one of {sorted(op.bodies)}")
            return
        for error in self.validator(pointer).iter_errors(body):
            for leaf in _leaves(error):
                _add(errors, ".".join(str(p) for p in leaf.absolute_path), leaf.message)


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say what is wrong. Below a ``oneOf``/``anyOf`` (Discord's unions, told
    apart by a ``type`` field, or not at all), the errors of the branch the value meant: of
    those whose own type and ``type`` field fit, the one with the fewest errors (or all such,
    when they say the same); else the error of the union itself."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [errs for errs in branches.values() if not any(_misses_kind(e) for e in errs)]
    said = [[leaf for sub in errs for leaf in _leaves(sub)] for errs in meant]
    fewest = min((len(leaves) for leaves in said), default=0)
    said = [leaves for leaves in said if len(leaves) == fewest]
    keys = {tuple((tuple(e.absolute_path), e.message) for e in leaves) for leaves in said}
    if len(keys) != 1:
        yield error
        return
    yield from said[0]


def _misses_kind(error: ValidationError) -> bool:
    """The value is not of this branch's kind: wrong JSON type, or a wrong ``type`` field."""
    path = list(error.relative_path)
    if not path:
        return error.validator in ("type", "const", "enum") or (
            error.validator in ("oneOf", "anyOf", "allOf")
            and any(_misses_kind(e) for e in error.context or ())
        )
    return path == ["type"] and error.validator in ("const", "enum", "allOf")


def _readings(raw: str) -> Iterator[Any]:
    """The values a query or path string may stand for: itself, an integer, a boolean."""
    yield raw
    if _INTEGER.fullmatch(raw):
        yield int(raw)
    if raw in _BOOLEANS:
        yield _BOOLEANS[raw]


def _one(where: str, message: str) -> JSON:
    errors: JSON = {}
    _add(errors, where, message)
    return errors


def _add(errors: JSON, where: str, message: str) -> None:
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    entry = errors.setdefault(where, {"_errors": []})
    entry["_errors"].append({"code": "OPENAPI_SCHEMA", "message": message})


def description_path() -> Path:
    return Path(os.environ.get(ENV_PATH) or DEFAULT_PATH)


@functools.cache
def default_description() -> ApiDescription | None:
    """The description every :class:`FakeDiscord` checks against (loaded once a process), or
    ``None`` when there is none (see the module's doc)."""
    path = description_path()
    if not path.is_file():
        if os.environ.get(ENV_REQUIRE) == "1":
            raise DescriptionMissing(
                f"{ENV_REQUIRE}=1 but Discord's OpenAPI description is not at {path} "
                f"(set {ENV_PATH} or see tests/fakediscord/discord-api-spec/README.md)"
            )
        return None
    return ApiDescription.load(path)
