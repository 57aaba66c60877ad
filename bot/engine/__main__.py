"""``python -m bot.engine replay FILE|-``: replay a spades-record/1 document (records.md);
``python -m bot.engine verify FILE|-``: check its deals against its revealed seed
(docs/verifiable-deals.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.engine.errors import NotVerified, RecordError
from bot.engine.record import replay
from bot.engine.verify import verify


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a record and print one JSON line per hand")
    rp.add_argument("file", help="the record file, or - for standard input")
    vf = sub.add_parser(
        "verify",
        help="check that the record's seed matches its commitment and that the draw for "
        "first dealer and every deal come from the seed",
    )
    vf.add_argument("file", help="the record file, or - for standard input")
    args = parser.parse_args(argv)
    doc = _read(args.file, json_errors=args.command == "replay")
    if doc is _UNREADABLE:
        return 1
    if args.command == "verify":
        return _verify(doc)
    try:
        for line in replay(doc):
            print(json.dumps(line, ensure_ascii=False))
    except RecordError as e:
        sys.stdout.flush()
        print(json.dumps(e.details, ensure_ascii=False), file=sys.stderr)
        return 1
    return 0


_UNREADABLE = object()


def _read(path: str, *, json_errors: bool) -> Any:
    """The JSON document of ``path`` (``-``: standard input); a file that cannot be read is
    one line on standard error (JSON for ``replay``, as records.md says; text for ``verify``)
    and :data:`_UNREADABLE`."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        _error(json_errors, "unreadable record", str(e))
        return _UNREADABLE
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        _error(json_errors, "malformed record", f"not JSON: {e}")
        return _UNREADABLE


def _error(json_errors: bool, error: str, reason: str) -> None:
    if json_errors:
        print(json.dumps({"error": error, "reason": reason}), file=sys.stderr)
    else:
        print(f"not verified: {error}: {reason}", file=sys.stderr)


def _verify(doc: Any) -> int:
    """Print each check; a record that does not verify ends with one reason line on standard
    error and exit status 1."""
    try:
        for line in verify(doc):
            print(line)
    except NotVerified as e:
        sys.stdout.flush()
        print(f"not verified: {e.reason}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
