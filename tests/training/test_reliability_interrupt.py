"""An early Ctrl-C of ``train`` prints no worker's KeyboardInterrupt traceback
(2 of 10 did).

The cause: the first spawned worker starts multiprocessing's resource tracker, and
starting it ends with ``SIG_UNBLOCK`` of SIGINT and SIGTERM, so every worker started
after it (and the parent, for the rest of ``spawning_quietly``) had the stop signals
unblocked while it imported for seconds. A Ctrl-C then (the terminal signals the whole
process group) printed each importing worker's traceback. And a Ctrl-C that came while
the main process imported numpy's or torch's extensions could be swallowed by the
import (training went on) or turn into an ImportError: the CLI's imports now hold the
stop signals until they are done.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time

import pytest
import yaml
from process_groups import killed_after, start_cli
from training_helpers import tiny_config_dict

import art_gallery_env.cli as cli

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

CHILD_MASKS = """
import multiprocessing as mp, signal
from art_gallery_env.processes import spawning_quietly

def report(conn):
    conn.send(sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])))

if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    pipes = [mp.Pipe() for _ in range(3)]  # no semaphore: the tracker is not running yet
    with spawning_quietly():
        workers = [ctx.Process(target=report, args=(w,)) for _, w in pipes]
        for w in workers:
            w.start()
        parent = sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, []))
    print(parent, *(r.recv() for r, _ in pipes))
    for w in workers:
        w.join()
"""


@POSIX
def test_every_worker_starts_with_the_stop_signals_blocked(tmp_path):
    script = tmp_path / "masks.py"
    script.write_text(CHILD_MASKS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    blocked = str(sorted([int(signal.SIGINT), int(signal.SIGTERM)]))  # parent, 3 workers
    assert done.stdout.strip() == " ".join([blocked] * 4), done.stdout


@POSIX
def test_stop_signals_wait_through_imports_then_interrupt():
    from art_gallery_env.processes import stop_signals_deferred

    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt, match="SIGINT"), stop_signals_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # a handler would run here: it only notes the signal
        finished = True
    assert finished, "the block ran to its end"
    assert signal.getsignal(signal.SIGINT) is before


def test_a_ctrl_c_while_the_cli_imports_is_a_word_not_a_traceback(monkeypatch, capsys):
    def importing() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", importing)
    assert cli.main(["train", "c.yaml"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "interrupted"


@pytest.mark.slow
@POSIX
def test_early_ctrl_cs_of_train_with_subprocess_envs_print_no_traceback(tmp_path):
    pytest.importorskip("sb3_contrib", reason="training needs the [train] extra")
    config = tmp_path / "c.yaml"
    data = tiny_config_dict(tmp_path / "run", 100000, n_envs=4, vec_env="subproc")
    config.write_text(yaml.safe_dump(data))
    rng = random.Random(27)
    for trial in range(4):  # four random moments of the start-up (each a whole start)
        shutil.rmtree(tmp_path / "run", ignore_errors=True)
        proc = start_cli("train", str(config), "--no-progress")
        with killed_after(proc):
            time.sleep(rng.uniform(1.0, 10))  # past the interpreter's start: imports, start-up
            os.killpg(proc.pid, signal.SIGINT)  # the terminal signals the whole group
            _, stderr = proc.communicate(timeout=120)
        assert "Traceback" not in stderr, f"trial {trial}:\n{stderr}"
        assert proc.returncode == 130, f"trial {trial}:\n{stderr}"
