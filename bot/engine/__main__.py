"""``python -m bot.engine replay FILE|-``: replay a spades-record/1 document (records.md)."""

from __future__ import annotations

import argparse
import json
import sys

from bot.engine.errors import RecordError
from bot.engine.record import replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a record and print one JSON line per hand")
    rp.add_argument("file", help="the record file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(json.dumps({"error": "unreadable record", "reason": str(e)}), file=sys.stderr)
        return 1
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        reason = f"not JSON: {e}"
        print(json.dumps({"error": "malformed record", "reason": reason}), file=sys.stderr)
        return 1
    try:
        for line in replay(doc):
            print(json.dumps(line, ensure_ascii=False))
    except RecordError as e:
        sys.stdout.flush()
        print(json.dumps(e.details, ensure_ascii=False), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
