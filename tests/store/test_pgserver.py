"""The PostgreSQL test server helper: where no binaries exist it says why (the fixtures turn
that into a skip with this reason, or a failure under SPADES_REQUIRE_POSTGRES=1)."""

from __future__ import annotations

import pytest

from tests import pgserver


def test_no_postgresql_binaries_give_one_clear_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgserver.shutil, "which", lambda _name: None)
    monkeypatch.setattr(pgserver.glob, "glob", lambda _pattern: [])
    with pytest.raises(pgserver.Unavailable, match=r"no PostgreSQL server binaries .* install"):
        pgserver.find_bindir()


def test_postgresql_is_required_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pgserver.REQUIRE_ENV, raising=False)
    assert not pgserver.required()
    monkeypatch.setenv(pgserver.REQUIRE_ENV, "1")
    assert pgserver.required()
