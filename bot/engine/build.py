"""Which build of the engine runs: the modules ``setup.py`` compiled with mypyc, or the Python
sources beside them (docs/operations.md, "The compiled engine").

``pip install`` compiles the hot modules when mypyc and a C compiler are there; every module
keeps its ``.py`` source, which runs wherever no compiled module was built (no compiler, or
``SPADES_PURE_PYTHON=1`` at install).  Imported first by :mod:`bot.engine`, this module also
makes the sources run instead of compiled modules that are there when

* ``SPADES_PURE_PYTHON`` is set (not ``0``) when the program starts: the pure path on demand,
  as CI tests it; or
* a compiled module is older than its source (an edited checkout not installed again): the
  sources run, with a warning that says how to rebuild, rather than yesterday's engine.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, TypeVar

__all__ = ["COMPILED", "PURE_ENV", "build_name", "compiled_modules", "mypyc_attr", "stale"]

T = TypeVar("T")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        """mypyc's class options (read by the compiler); nothing at run time."""
        return lambda cls: cls


PURE_ENV: Final = "SPADES_PURE_PYTHON"
PACKAGE: Final = Path(__file__).resolve().parents[1]  # bot/
EXTENSIONS: Final = tuple(importlib.machinery.EXTENSION_SUFFIXES)
GROUP: Final = "spades_engine"  # setup.py's mypyc group: its library is GROUP__mypyc


def compiled_modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every compiled module under ``root`` (``bot``) by name, with its extension's path."""
    found: dict[str, Path] = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            for suffix in EXTENSIONS:
                if name.endswith(suffix):
                    path = Path(folder, name)
                    parts = path.relative_to(root.parent).parts
                    found[".".join((*parts[:-1], name[: -len(suffix)]))] = path
                    break
    return found


def stale(modules: dict[str, Path]) -> list[str]:
    """In a checkout, the compiled modules whose source changed after the build: newer than
    the library all of them are compiled into (``setup.py``'s group; each module's own
    extension is a stub that may keep an older date)."""
    checkout = PACKAGE.parent
    if not (checkout / "pyproject.toml").exists():
        return []  # an installed copy: built from these very files
    libs = [p for p in checkout.glob(f"{GROUP}__mypyc.*") if p.name.endswith(EXTENSIONS)]
    built = max((p.stat().st_mtime for p in libs), default=0.0)
    out = []
    for name, path in modules.items():
        source = path.with_name(name.rpartition(".")[2] + ".py")
        if source.exists() and source.stat().st_mtime > built:
            out.append(name)
    return out


class _Sources(importlib.abc.MetaPathFinder):
    """Finds ``bot``'s modules as their ``.py`` sources, never as compiled extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not fullname.startswith("bot."):
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _choose() -> bool:
    """Is the compiled build in use?  Installs the source finder when it is not."""
    modules = compiled_modules()
    if not modules:
        return False
    loaded = [n for n in modules if n in sys.modules]
    if os.environ.get(PURE_ENV, "0") not in ("", "0"):
        reason = None
    elif old := stale(modules):
        reason = (
            f"the compiled {', '.join(sorted(old))} predate their sources: running the "
            "sources (pip install -e . builds the compiled engine again)"
        )
    else:
        return True
    if loaded:  # too late to choose: a compiled module is already in use
        return True
    if reason:
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
    return False


COMPILED: Final = _choose()


def build_name(module: Any = None) -> str:
    """``"compiled (mypyc)"`` or ``"pure Python"``: how the engine's game module runs."""
    if module is None:
        module = sys.modules.get("bot.engine.game")
    origin = getattr(module, "__file__", None) or ""
    return "compiled (mypyc)" if origin.endswith(EXTENSIONS) else "pure Python"
