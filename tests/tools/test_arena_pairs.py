"""benchmarks/arena_pairs.py: where a match's points go, and two journals paired deal by deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.arena_pairs import load, main, paired, same_cards, where


def _line(side: int, points: int, tricks: int, contract: int, nils: int = 0) -> dict[str, Any]:
    return {
        "side": side,
        "points": points,
        "tricks": tricks,
        "effective": points - 10.0 * max(0, tricks - contract),
        "contract": contract,
        "counted": tricks,
        "made": tricks >= contract,
        "was_set": tricks < contract,
        "bags": max(0, tricks - contract),
        "nils": nils,
        "nils_made": nils,
        "blind_nils": 0,
        "blind_nils_made": 0,
    }


def _deal(number: int, a_ns: int, a_ew: int, nil: bool = False) -> dict[str, Any]:
    """A deal where A bids ``a_ns`` / ``a_ew`` on the two hands and B bids 5 on each; every
    side takes 6 tricks (lines: table 0 A NS, B EW; table 1 B NS, A EW)."""
    lines = [
        _line(0, 0, 6, a_ns, int(nil)),
        _line(1, 0, 7, 5),
        _line(1, 0, 6, 5),
        _line(0, 0, 7, a_ew),
    ]
    for ln in lines:
        ln["points"] = 10 * ln["contract"] + ln["bags"] if ln["made"] else -10 * ln["contract"]
        ln["effective"] = ln["points"] - 10.0 * ln["bags"]
    diff = (lines[0]["points"] - lines[1]["points"] + lines[3]["points"] - lines[2]["points"]) / 2
    eff = (
        lines[0]["effective"]
        - lines[1]["effective"]
        + lines[3]["effective"]
        - lines[2]["effective"]
    ) / 2
    return {"kind": "deal", "number": number, "lines": lines, "diff": diff, "diff_eff": eff}


def _journal(path: Path, deals: list[dict[str, Any]], cut: bool = False) -> str:
    text = json.dumps({"match": ["hard", "normal"]}) + "\n"
    text += "".join(json.dumps(d) + "\n" for d in deals)
    if cut:
        text += '{"kind": "deal", "numb'
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_journal_loads_by_deal_number_and_skips_a_cut_line(tmp_path: Path) -> None:
    path = _journal(tmp_path / "a.jsonl", [_deal(3, 5, 5), _deal(1, 6, 5)], cut=True)
    assert sorted(load(path)) == [1, 3]


def test_the_same_cards_are_grouped_by_how_much_higher_a_bid(tmp_path: Path) -> None:
    # Deal 0: A bids 7 on the NS cards (B 5 on them) and is set; 5 on the EW cards, as B.
    base = load(_journal(tmp_path / "a.jsonl", [_deal(0, 7, 5), _deal(1, 5, 5, nil=True)]))
    groups = {g.gap: g for g in same_cards(base)}
    assert sorted(groups) == [0, 2]  # the deal with a nil is left out
    assert (groups[2].n, groups[2].set_a, groups[2].set_b) == (1, 1, 0)
    assert groups[2].points == -70 - 51  # A set at 7 (-70) where B made 5 with a bag (51)
    assert groups[0].n == 1
    assert groups[0].points == 0  # the EW cards: both bid 5 and took 7


def test_two_versions_are_paired_on_the_deals_both_hold(tmp_path: Path) -> None:
    base = load(_journal(tmp_path / "a.jsonl", [_deal(0, 7, 5), _deal(1, 5, 5), _deal(2, 6, 6)]))
    new = load(_journal(tmp_path / "b.jsonl", [_deal(0, 5, 5), _deal(1, 5, 5)]))
    rows = {r.name: r for r in paired(base, new)}
    assert rows["all deals"].n == 2
    # Deal 0: bidding 5 instead of 7 turns -70 into +51 on the NS cards: +121 / 2 tables.
    assert rows["all deals"].raw[0] == pytest.approx((121 / 2 + 0) / 2)
    assert "a nil bid" not in rows
    whole = {r.name: r for r in where(base)}
    assert whole["all deals"].n == 3


def test_the_command_line_prints_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _journal(tmp_path / "a.jsonl", [_deal(0, 7, 5), _deal(1, 5, 5, nil=True)])
    b = _journal(tmp_path / "b.jsonl", [_deal(0, 6, 5), _deal(1, 5, 5, nil=True)])
    assert main([a, b]) == 0
    out = capsys.readouterr().out
    for heading in ("a nil bid", "the same cards", "paired on 2 deals"):
        assert heading in out
    empty = _journal(tmp_path / "c.jsonl", [])
    assert main([empty]) == 2
