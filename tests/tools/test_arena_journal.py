"""The arena's journal: a stopped match resumes where it stopped, and only the same match of
the same code may resume it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import arena, arena_journal
from tools.arena import run_match
from tools.arena_journal import JournalMismatch
from tools.arena_report import Summary, TaskResult


def _figures(s: Summary) -> dict[str, object]:
    """A summary's figures but the decision times (CPU time differs from run to run)."""
    return {k: v for k, v in s.to_json().items() if k != "decision_ms"}


def test_a_stopped_match_resumes_and_its_figures_equal_one_straight_run(tmp_path: Path) -> None:
    journal = tmp_path / "match.jsonl"
    straight = run_match("normal", "easy", 4, seed=3)
    first = run_match("normal", "easy", 2, seed=3, results_file=str(journal))
    assert first.deals == 2
    played: list[int] = []

    def count(results: list[TaskResult]) -> None:
        played.append(results[-1].number)

    resumed = run_match("normal", "easy", 4, seed=3, results_file=str(journal), on_result=count)
    # Only the two deals the journal lacked were played; the figures cover all four.
    assert played == [2, 3]
    assert _figures(resumed) == _figures(straight)
    assert (
        resumed.to_json()["decision_ms"]["normal"]["decisions"]
        == (straight.to_json()["decision_ms"]["normal"]["decisions"])
    )
    lines = journal.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 4  # the match's header and one line per deal


def test_a_line_cut_short_by_a_kill_is_played_again(tmp_path: Path) -> None:
    journal = tmp_path / "match.jsonl"
    run_match("normal", "easy", 2, seed=5, results_file=str(journal))
    text = journal.read_text(encoding="utf-8")
    journal.write_text(text[: len(text) - 40], encoding="utf-8")  # the last deal's line cut
    played: list[int] = []
    summary = run_match(
        "normal",
        "easy",
        2,
        seed=5,
        results_file=str(journal),
        on_result=lambda rs: played.append(rs[-1].number),
    )
    assert played == [1]
    assert _figures(summary) == _figures(run_match("normal", "easy", 2, seed=5))


@pytest.mark.parametrize(
    ("ns", "ew", "seed"),
    [("normal", "easy", 4), ("easy", "normal", 3), ("normal", "normal", 3)],
)
def test_another_match_is_refused(tmp_path: Path, ns: str, ew: str, seed: int) -> None:
    journal = tmp_path / "match.jsonl"
    run_match("normal", "easy", 1, seed=3, results_file=str(journal))
    before = journal.read_text(encoding="utf-8")
    with pytest.raises(JournalMismatch):
        run_match(ns, ew, 2, seed=seed, results_file=str(journal))
    assert journal.read_text(encoding="utf-8") == before


def test_other_code_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "match.jsonl"
    run_match("normal", "easy", 1, seed=3, results_file=str(journal))
    monkeypatch.setattr(arena_journal, "code_fingerprint", lambda sides: "another version")
    with pytest.raises(JournalMismatch, match="code"):
        run_match("normal", "easy", 2, seed=3, results_file=str(journal))


def test_the_command_line_says_one_line_for_another_matchs_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "match.jsonl"
    args = ["--ns", "normal", "--ew", "easy", "--deals", "1", "--quiet"]
    assert arena.main([*args, "--seed", "3", "--results", str(journal)]) == 0
    capsys.readouterr()
    assert arena.main([*args, "--seed", "4", "--results", str(journal)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "seed" in err[0]


def test_the_fingerprint_follows_the_code_of_a_py_side() -> None:
    plain = arena_journal.code_fingerprint(("hard", "normal"))
    with_prev = arena_journal.code_fingerprint(("hard", "py:tests.ai.helpers:Player"))
    assert plain == arena_journal.code_fingerprint(("normal", "hard"))
    assert with_prev != plain
