"""A stop signal that a command handles ends it with the command's own exit status.

CPython (3.8 on; seen on 3.11) remembers a plain ``KeyboardInterrupt`` that passes out of
code run by ``exec``/``eval`` of a string (``run_eval_code_obj``: dataclasses and
namedtuples build their methods that way at import) and, at exit, kills the process with
SIGINT even though the exception was caught: ``python -m art_gallery_env.cli train``'s 130
became a death by SIGINT (CI: ``-2 == 130``). The handlers therefore raise
:class:`StopSignal`, a subclass that CPython does not track.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

HANDLED_IN_EXEC = """
import os, signal, sys
from pathlib import Path
{setup}
try:
    {block}:
        exec("import os, signal, time\\nos.kill(os.getpid(), signal.SIGINT)\\ntime.sleep(5)")
except KeyboardInterrupt as err:
    print(type(err).__name__, err)
sys.exit(130)
"""

BLOCKS = {
    "training's GracefulStop": (
        "from art_gallery_env.training.interrupt import GracefulStop\n"
        "stop = GracefulStop(Path('.')).__enter__()",
        "with stop.abortable()",
    ),
    "evaluation's stop handler": (
        "from art_gallery_env.arena.evaluate import StopSignals as Stop\nstop = Stop().__enter__()",
        "with stop.raising()",
    ),
    "the command line's default": (
        "from art_gallery_env.processes import ctrl_c_raises_stop_signal\n"
        "handling = ctrl_c_raises_stop_signal()\n"
        "handling.__enter__()",
        "if True",
    ),
}


@POSIX
@pytest.mark.parametrize("setup, block", list(BLOCKS.values()), ids=list(BLOCKS))
def test_a_handled_stop_signal_inside_exec_keeps_the_exit_status(tmp_path, setup, block):
    script = tmp_path / "stop.py"
    script.write_text(HANDLED_IN_EXEC.format(setup=setup, block=block))
    # as ``python -m art_gallery_env.cli`` runs: a script file's sys.exit is not overridden
    done = subprocess.run([sys.executable, "-m", "stop"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert done.stdout.split() == ["StopSignal", "SIGINT"], done.stdout


def _fail_after_a_ctrl_c_in_a_c_callback(spec: str, seed: int, game: str | None = None) -> None:
    """What numba's first compile of an agent did on a Ctrl-C: the StopSignal raised in a
    ctypes callback is dropped there, and the compiler fails with an error of its own."""
    import ctypes
    import os
    import signal

    callback = ctypes.CFUNCTYPE(None)(lambda: os.kill(os.getpid(), signal.SIGINT))
    callback()
    raise RuntimeError("no compiled object yet for <Library 'ismcts_iterations'>")


@POSIX
def test_a_ctrl_c_swallowed_by_a_c_callback_stops_the_spec_check(monkeypatch) -> None:
    """Ctrl-C during an agent's first compile: a stop, not 'bad agent spec' and status 2."""
    from art_gallery_env.agents import registry
    from art_gallery_env.processes import StopSignal, ctrl_c_raises_stop_signal

    monkeypatch.setattr(registry, "make_agent", _fail_after_a_ctrl_c_in_a_c_callback)
    with pytest.raises(StopSignal), ctrl_c_raises_stop_signal():
        registry.agent_spec_problem("ismcts")
    # after the block a failure is a bad spec again: the block's signal is forgotten
    monkeypatch.setattr(registry, "make_agent", _fail)
    assert registry.agent_spec_problem("ismcts").startswith("no such agent")


def _fail(spec: str, seed: int, game: str | None = None) -> None:
    raise ValueError("no such agent")
