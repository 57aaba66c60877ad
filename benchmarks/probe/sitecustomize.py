"""Loaded by every Python started with this directory on ``PYTHONPATH`` (``load.py --probe``):
with ``SPADES_PROBE_DIR`` set, the process (the bot) records where its event loop's time goes
(loop_probe.py); with ``SPADES_PROFILE=PREFIX`` it writes a cProfile of its main thread to
``PREFIX-<pid>.prof`` when it exits.  Without them, nothing happens.  Child processes (the
bot's worker pools) inherit both and record their own files."""

import os
from pathlib import Path

if os.environ.get("SPADES_PROBE_DIR"):
    import loop_probe

    loop_probe.install(Path(os.environ["SPADES_PROBE_DIR"]), "bot", discord_hooks=True)

if os.environ.get("SPADES_PROFILE"):  # cProfile of the main thread, written at exit
    import atexit
    import cProfile

    _profile = cProfile.Profile()
    _profile.enable()
    atexit.register(_profile.dump_stats, f"{os.environ['SPADES_PROFILE']}-{os.getpid()}.prof")
