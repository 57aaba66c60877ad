"""The engine's two builds (bot.engine.build): the compiled one when it is there, and the
pure-Python sources on demand with ``SPADES_PURE_PYTHON=1`` (as CI runs the engine tests)."""

from __future__ import annotations

import os
import subprocess
import sys

from bot.engine import build

ASK = "import bot.engine as e; print(e.COMPILED, e.build_name())"


def ask(**env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", ASK],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_the_pure_switch_runs_the_sources() -> None:
    assert ask(SPADES_PURE_PYTHON="1") == "False pure Python"


def test_a_compiled_build_is_used_unless_its_sources_changed() -> None:
    modules = build.compiled_modules()
    fresh = bool(modules) and not build.stale(modules)
    assert ask(SPADES_PURE_PYTHON="0") == (
        "True compiled (mypyc)" if fresh else "False pure Python"
    )
