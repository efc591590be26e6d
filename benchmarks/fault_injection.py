"""Fault injection: ``kill -9`` a training run at random moments and check that nothing it
saved is lost or misleading.

A small MaskablePPO run with a large network (two hidden layers of 1024: the SB3 zip is
about 100 MB, so writing a checkpoint takes a while) saves a checkpoint every 256 steps.
Each round starts ``art-gallery train`` (``--resume`` once there is a checkpoint, else a
fresh run with ``--overwrite``), waits a random time (aimed at start-up, at training, or
at the writes of a checkpoint) and sends SIGKILL to its process group. After every kill:

* ``latest`` and ``best`` pass :func:`verify_checkpoint` (each file's sha256 and the steps
  recorded inside the weights and the zip agree with the metadata), the zip loads with
  SB3 and its ``num_timesteps`` equals the metadata's steps, and the ``.safetensors``
  loads as a policy;
* ``logs/progress.csv`` and ``eval.csv`` parse, every row complete, steps increasing;
* the next round's ``--resume`` says it continues from exactly the steps ``latest``
  held after the kill.

The last round runs to its ``total_steps`` and must exit 0. Prints one row per kill and
a summary::

    .venv/bin/python benchmarks/fault_injection.py [--kills 25] [--seed 0] [--hidden 1024]
        [--smoke]

``tests/training/test_fault_injection.py`` runs the same loop with 5 kills; ``--smoke``
(tests/test_benchmarks_smoke.py) with one kill, aimed at training (seed 0's first draw),
and a small network.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from art_gallery_env.agents.policy_format import load_weights
from art_gallery_env.agents.run_checkpoint import load_sb3_model
from art_gallery_env.training.checkpoints import CHECKPOINTS, PENDING_PREFIX
from art_gallery_env.training.run_folder import verify_checkpoint

RESUMED = re.compile(r"resuming .*?: ([\d,]+) steps done")
SMOKE = {"kills": 1, "seed": 0, "hidden": 64}


def write_config(folder: Path, hidden: int, total_steps: int) -> Path:
    """The run's config: saves every 256 steps, a snapshot every 256, tiny evaluations."""
    config = {
        "name": "fault_injection",
        "seed": 7,
        "total_steps": total_steps,
        "n_envs": 2,
        "vec_env": "subproc",
        "run_dir": str(folder / "run"),
        "network": {"hidden_sizes": [hidden, hidden]},
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
        "pool": {
            "snapshot_every_steps": 256,
            "max_snapshots": 3,
            "self_play": 0.5,
            "random": 0.5,
            "heuristic": 0.0,
        },
        "eval": {
            "every_steps": 256,
            "games": 2,
            "opponents": ["random"],
            "final_games": 0,
        },
    }
    path = folder / "fault_injection.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _progress_rows(run: Path) -> int:
    path = run / "logs" / "progress.csv"
    try:
        return max(0, len(path.read_text(encoding="utf-8").splitlines()) - 1)
    except OSError:
        return 0


def _read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        rows = list(reader)
    header, body = rows[0], rows[1:]
    for i, row in enumerate(body):
        if len(row) != len(header):
            raise AssertionError(f"{path}: row {i + 1} has {len(row)} of {len(header)} fields")
    return [dict(zip(header, row)) for row in body]


def check_run(run: Path) -> dict[str, int | None]:
    """Every check of the module docstring; returns the steps of latest and best (None
    when there is none yet). Raises AssertionError or CheckpointError on a failure."""
    found: dict[str, int | None] = {}
    for stem in ("latest", "best"):
        meta_path = run / f"{stem}.json"
        if not meta_path.exists():
            assert not (run / f"{stem}.zip").exists(), f"{stem}.zip without {stem}.json"
            found[stem] = None
            continue
        meta = verify_checkpoint(meta_path)
        model, _ = load_sb3_model(run / f"{stem}.zip")
        assert model.num_timesteps == meta["steps"], f"{stem}.zip and {stem}.json disagree"
        assert load_weights(run / f"{stem}.safetensors").meta["steps"] == meta["steps"]
        found[stem] = int(meta["steps"])
    progress = run / "logs" / "progress.csv"
    if progress.exists():
        steps = [int(r["time/total_timesteps"]) for r in _read_rows(progress)]
        assert steps == sorted(set(steps)), "progress.csv steps do not increase"
    evals = run / "eval.csv"
    if evals.exists():
        steps = [int(r["steps"]) for r in _read_rows(evals)]
        assert steps == sorted(set(steps)), "eval.csv steps do not increase"
        if found["latest"] is not None and steps:
            assert steps[-1] <= found["latest"], "eval.csv describes an unsaved checkpoint"
    return found


@dataclass
class Kill:
    index: int
    phase: str  # what the kill was aimed at: "start-up", "training" or "saving"
    after_s: float  # seconds after the process started
    saving: bool  # a checkpoint was being written (a pending folder was left)
    latest: int | None
    best: int | None
    resume_ok: bool | None = None  # the next round resumed from ``latest`` exactly


def _start(config: Path, run: Path, total_steps: int) -> tuple[subprocess.Popen, int | None]:
    command = [sys.executable, "-m", "art_gallery_env.cli", "train", str(config), "--no-progress"]
    command += ["--total-steps", str(total_steps)]
    resume_from = None
    if (run / "latest.json").exists():
        resume_from = int(verify_checkpoint(run / "latest.json")["steps"])
        command += ["--resume", str(run)]
    elif run.exists():
        command.append("--overwrite")
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    return proc, resume_from


def _pending(run: Path) -> set[str]:
    """The checkpoint folders being written (or left half-written by a kill)."""
    folder = run / CHECKPOINTS
    try:
        return {p.name for p in folder.iterdir() if p.name.startswith(PENDING_PREFIX)}
    except OSError:
        return set()


def _wait(proc: subprocess.Popen, done, limit_s: float, poll_s: float = 0.05) -> None:
    limit = time.monotonic() + limit_s
    while not done() and time.monotonic() < limit and proc.poll() is None:
        time.sleep(poll_s)


def _kill_at_random(
    proc: subprocess.Popen, run: Path, rng: random.Random, left_before: set[str]
) -> tuple[str, float]:
    """Wait and SIGKILL the whole process group; returns (phase, seconds after start).
    Phases: "start-up" (one round in five: 0.5-6 s after the start), "saving" (two in
    five: 0-3 s after a checkpoint folder was begun, aimed at the writes) and "training"
    (0-8 s after training runs)."""
    started = time.monotonic()
    draw = rng.random()
    if draw < 0.2:
        phase, wait_s = "start-up", rng.uniform(0.5, 6.0)
    else:
        rows = _progress_rows(run)
        _wait(proc, lambda: _progress_rows(run) > rows, 180)
        if draw < 0.6:
            _wait(proc, lambda: bool(_pending(run) - left_before), 180, poll_s=0.005)
            phase, wait_s = "saving", rng.uniform(0.0, 3.0)
        else:
            phase, wait_s = "training", rng.uniform(0.0, 8.0)
    deadline = (started if phase == "start-up" else time.monotonic()) + wait_s
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return phase, time.monotonic() - started


def run_kills(kills: int, seed: int, workdir: Path, hidden: int, log=print) -> list[Kill]:
    """The whole experiment (see the module docstring); returns one row per kill."""
    rng = random.Random(seed)
    total_steps = 10_000_000  # never reached: each round ends with a kill
    config = write_config(workdir, hidden, total_steps)
    run = workdir / "run"
    rows: list[Kill] = []
    previous: Kill | None = None
    for index in range(1, kills + 1):
        left_before = _pending(run)  # by the kill before; the next start removes them
        proc, resume_from = _start(config, run, total_steps)
        phase, after = _kill_at_random(proc, run, rng, left_before)
        output = proc.stdout.read() if proc.stdout else ""
        resumed = _resumed_from(output)
        if previous is not None and resumed is not None:  # None: killed before it said
            previous.resume_ok = resumed == previous.latest == resume_from
        saving = bool(_pending(run) - left_before)  # killed while writing a checkpoint
        found = check_run(run)
        row = Kill(index, phase, after, saving, found["latest"], found["best"])
        rows.append(row)
        previous = row
        log(_format_row(row))
    # A last round that finishes: resume to a few hundred steps past latest.
    latest = check_run(run)["latest"] or 0
    final_total = latest + 512
    proc, resume_from = _start(config, run, final_total)
    output, _ = proc.communicate(timeout=900)
    if previous is not None:
        previous.resume_ok = _resumed_from(output) == previous.latest == resume_from
        log(f"kill {previous.index} resumed from its latest: {previous.resume_ok}")
    assert proc.returncode == 0, output[-3000:]
    found = check_run(run)
    assert found["latest"] is not None and found["latest"] >= final_total, found
    log(f"final round: exit 0, latest at {found['latest']:,} steps (total_steps {final_total:,})")
    return rows


def _resumed_from(output: str) -> int | None:
    match = RESUMED.search(output)
    return int(match.group(1).replace(",", "")) if match else None


def _format_row(row: Kill) -> str:
    def steps(value: int | None) -> str:
        return "-" if value is None else f"{value:,}"

    return (
        f"{row.index:>4}  {row.phase:<9}  {row.after_s:6.1f}  {'yes' if row.saving else 'no':>6}  "
        f"{steps(row.latest):>8}  {steps(row.best):>8}  ok"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hidden", type=int, default=1024, help="units per hidden layer")
    parser.add_argument("--workdir", help="where the run goes (default: a temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one kill (CI)")
    args = parser.parse_args()
    if args.smoke:  # tiny defaults; options given on the command line still win
        parser.set_defaults(**SMOKE)
        args = parser.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="fault_injection_"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"run folder {workdir / 'run'}; {args.kills} kills, seed {args.seed}")
    print("kill  phase      after s  saving    latest      best  checks")
    started = time.monotonic()
    rows = run_kills(args.kills, args.seed, workdir, args.hidden)
    wall = time.monotonic() - started
    saving = sum(r.saving for r in rows)
    resumed = sum(r.resume_ok is True for r in rows)
    checked = sum(r.resume_ok is not None for r in rows)
    size = sum(f.stat().st_size for f in (workdir / "run" / "latest").resolve().iterdir())
    print()
    phases = {p: sum(r.phase == p for r in rows) for p in ("start-up", "training", "saving")}
    print(f"kills: {len(rows)} (aimed at: {phases['start-up']} start-up, {phases['training']} "
          f"training, {phases['saving']} a save); {saving} landed while a checkpoint folder "
          f"was being written (left pending)")  # fmt: skip
    print(f"checks passed after every kill: {len(rows)} of {len(rows)}")
    print(
        f"the next run resumed from exactly the steps latest held: {resumed} of {checked} "
        f"(not checked where the next run was killed before it started training)"
    )
    print(f"checkpoint size (latest folder): {size / 1e6:.0f} MB; wall time {wall / 60:.1f} min")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
