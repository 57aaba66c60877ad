"""The build: pyproject.toml says what the project is; this file adds the compiled engine.

When mypyc (a build requirement) and a working C compiler are here and ``SPADES_PURE_PYTHON``
is not set, the modules of :data:`COMPILED` are compiled to C extensions beside their sources;
otherwise (no compiler, as in a bare ``python:3.11-slim``, or ``SPADES_PURE_PYTHON=1``) the
build is pure Python.  Both builds run the same sources' semantics; ``bot.engine.build`` says at
run time which one is in use (docs/operations.md, "The compiled engine").
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent

# The engine's hot path (a random hand: deal, bids, 52 cards, scoring) and its values, and the
# hard player's simulator.  Not compiled: bot.engine.build (it chooses the build), the package
# __init__ files, bot.engine.spades.variants (a class of two bases), bot.engine.record (mypyc
# rejects one of its expressions; replays are not hot) and everything outside these folders.
COMPILED = [
    "bot/engine/cards.py",
    "bot/engine/decks.py",
    "bot/engine/euchre.py",
    "bot/engine/game.py",
    "bot/engine/scoring.py",
    "bot/engine/seats.py",
    "bot/engine/tricks.py",
    "bot/engine/whist.py",
    "bot/engine/spades/bidrules.py",
    "bot/engine/spades/game.py",
    "bot/engine/spades/renege.py",
    "bot/engine/spades/scoring.py",
    "bot/engine/spades/solo.py",
    "bot/ai/deck_tables.py",
    "bot/ai/rule_bidding.py",
    "bot/ai/search/bidding.py",
    "bot/ai/search/candidates.py",
    "bot/ai/search/inference.py",
    "bot/ai/search/layout.py",
    "bot/ai/search/pimc.py",
    "bot/ai/search/sim.py",
    "bot/ai/search/solver.py",
    "bot/ai/search/spades.py",
    "bot/ai/search/spades_play.py",
    "bot/ai/search/utility.py",
    "bot/ai/search/worlds.py",
]


def say(text: str) -> None:
    print(f"spades-bot build: {text}", file=sys.stderr)


def compiler_works() -> bool:
    """Can this machine compile and link a C extension against Python.h?"""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint spades_probe(void) { return 0; }\n")
        compiler = new_compiler()
        customize_compiler(compiler)
        try:
            objects = compiler.compile(
                [str(source)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]]
            )
            compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
        except Exception as e:  # CompileError, LinkError, a missing program: no compiler
            say(f"no working C compiler ({type(e).__name__}): pure Python")
            return False
    return True


def forget_compiled() -> None:
    """A pure build of a checkout that was compiled in place: remove the compiled modules,
    which would otherwise be imported before their sources."""
    stale = [
        p
        for p in (*ROOT.glob("bot/**/*.so"), *ROOT.glob("bot/**/*.pyd"), *ROOT.glob("*__mypyc.*"))
        if p.is_file() and p.suffix in (".so", ".pyd")
    ]
    for p in stale:
        p.unlink()
    if stale:
        say(f"removed {len(stale)} compiled modules of an earlier build")


def pure() -> list[object]:
    forget_compiled()
    return []


def ext_modules() -> list[object]:
    if os.environ.get("SPADES_PURE_PYTHON", "0") not in ("", "0"):
        say("SPADES_PURE_PYTHON is set: pure Python")
        return pure()
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed: pure Python")
        return pure()
    if not compiler_works():
        return pure()
    say(f"compiling {len(COMPILED)} modules with mypyc")
    # group_name: bot.engine.build.GROUP (its library is how a stale build is told)
    return list(mypycify(COMPILED, opt_level="3", group_name="spades_engine"))


setup(ext_modules=ext_modules())
