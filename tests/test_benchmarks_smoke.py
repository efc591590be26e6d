"""Every script in benchmarks/ runs in its smoke mode (``--smoke``: the same code paths at
tiny sizes, in seconds) and prints its table or summary line, so a refactor cannot break a
benchmark unseen.

The scripts are found by glob: a new one is run here too, and fails until it has a
``--smoke`` flag and its summary line is named in SUMMARY. Scripts that start Ray, a server
or training runs, or import a heavy extra, are marked slow: the full suite (the README's
test command) runs them, ``-m "not slow"`` leaves them out. A script whose optional extra
is not installed is skipped.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
TIMEOUT_S = 300  # a hang fails; a cold numba compile of the vector kernels: 1-2 min

SUMMARY: dict[str, str] = {
    # script name -> a regular expression its stdout must match: the table with its rows,
    # or the summary line, with numbers where numbers belong (a nan row fails)
    "bridges_speed": r"\| bridge \| rate \| unit \|\n\|---\|---:\|---\|\n(?:\| .+ \|\n){8}load",
    "clone_fidelity": r"\| players \| kind \| teacher self-agreement .*\n\|---.*\n"
    r"(?:\| 2 \| (?:move|bid|shop|pick) \| [\d.]+% \| [\d.]+% \|.*\n){4}\| 2 \| all \|",
    "env_throughput": r"measurement +per second +x connect_four\n-+\n(?:.+\n)*"
    r"clone\(\) 6p +[\d,]+ +[\d.]+\n",
    "fault_injection": r"checks passed after every kill: 1 of 1\n",
    "gallerist_throughput": r"The Gallerist: median of 1 runs.*\nmeasurement .*\n-+\n(?:.+\n)*"
    r"clone\(\) 4p +[\d,]+ +[\d.]+\n"
    r"heuristic ms per decision \(wall clock\): 1p [\d.]+, 2p [\d.]+, 4p [\d.]+\n",
    "heuristic_speed": r"\| players \| positions \| .*\n\|---.*\n\| 2 \| \d+ \| [\d,]+ \| .*\n",
    "ismcts_speed": r"\| players \| rollout \| python it/s \| compiled it/s .*\n\|---.*\n"
    r"(?:\| 2 \| \S+ \| [\d,]+ \| (?:[\d,]+ \| [\d.]+x|- \| -) \| [\d.]+ \| (?:[\d.]+|-) "
    r"\| [\d.]+ \|\n)+",
    "network_candidates": r"\| network \| update ms/step \| 2p all / moves \|.*\n\|---.*\n"
    r"(?:\| \w+ \| [\d.]+ \| [\d.]+% / [\d.]+% \| [\d,]+ \| \d+ \| \d+ \| [\d.]+ \|\n){6}"
    r"\n\| network \| players \| all \| move \| bid \| shop \| pick \|.*\n\|---.*\n"
    r"(?:\| \w+ \| 2 \| (?:[\d.]+% \| ){5}[\d.]+% / [\d.]+% \|\n"
    r"\w+: training cross-entropy per epoch [\d.]+\n){6}load",
    "onnx_latency": r"\| back end \| per decision.*\n\|---.*\n\| numpy \| \d+ \| \d+ \| [\d.]+ \|\n"
    r"\| onnxruntime \| \d+ \| \d+ \| [\d.]+ \|\n",
    "openspiel_ismcts": r"\| OpenSpiel ISMCTS \| opponent \|.*\n\|---.*\n"
    r"\| 2 simulations, random rollouts \| `random` \| [\d.]+ ± [\d.]+ \| \d+ \| [\d.]+ \|",
    "ray_cluster": r'"ok": true',
    "render_speed": r"\| players \| frame \(px\) \|.*\n\|---.*\n"
    r"\| 2 \| \d+x\d+ \| [\d.]+ \| \d+ \| \d+ \|",
    "rllib_throughput": r"setting +steps +steps/s +median/iter\n-+\n"
    r"RLlib PPO, 0 runners x 1 envs +\d+ +\d+ +\d+\n"
    r"SB3 MaskablePPO quick, 4 subproc envs +\d+ +\d+ +-\n",
    "value_search": r"\| checkpoint \| games \| search win share .*\n\|---.*\n"
    r"\| exit_all.safetensors \| 2 \| [\d.]+% \| \[[\d.]+%, [\d.]+%\] \| [+-][\d.]+ \| \d+ \|\n"
    r"load",
    "vector_differential": r"differential: 10 games, \d+ decisions, \d+ observations compared, "
    r"0 mismatches",
    "vector_heuristic": r"\| players \| zero_is_ten \| decisions .*\n\|---.*\n"
    r"(?:\| 2 \| (?:False|True) \| [\d,]+ \| [\d,]+ \| [\d.]+ \|\n){2}"
    r"heuristic agreement: 8 games, \d+ decisions, \d+ same top set \(100.000%\)",
    "vector_memory": r"memory: arrays=[\d.]+MB peak_rss=[\d.]+MB\n",
    "vector_playout": r"2p vector 4 +[\d,]+ +[\d,.]+ +[\d.]+\n2p play_out only +[\d,]+ +[\d,.]+\n",
    "vector_throughput": r"vector: engine=\d+/s obs=\d+/s python=\d+/s "
    r"train2p=[\d.]+x train4p=nanx train4p_new=nanx load=[\d.]+\n",  # --smoke: 2p only
    "vector_training": r"env only, learner steps/s.*\n(?:2p \w+ +[\d,]+ +[\d,]+ +[\d.]+\n){3}"
    r"(?s:.*)\ntrain2p=[\d.]+x train2p_new=[\d.]+x\n",
    "web_load": r"\| before SIGKILL \| [\d.]+ \| .*\n\| after restart \| [\d.]+ \| .*\n(?s:.*)"
    r"all 2 games finished",
}

REQUIRES: dict[str, tuple[str, ...]] = {
    # modules of optional extras (bridges_speed skips a row whose extra is missing itself)
    "clone_fidelity": ("sb3_contrib",),
    "env_throughput": ("pygame",),  # PettingZoo's connect_four reference
    "fault_injection": ("sb3_contrib",),
    "gallerist_throughput": ("pygame",),
    "network_candidates": ("sb3_contrib",),
    "onnx_latency": ("onnx", "onnxruntime"),
    "openspiel_ismcts": ("pyspiel",),
    "ray_cluster": ("ray", "torch"),
    "render_speed": ("cairosvg", "imageio"),
    "rllib_throughput": ("ray", "sb3_contrib"),
    "vector_differential": ("numba",),
    "vector_heuristic": ("numba",),
    "vector_memory": ("numba",),
    "vector_playout": ("numba",),
    "vector_throughput": ("numba", "sb3_contrib"),
    "vector_training": ("numba", "sb3_contrib"),
    "web_load": ("fastapi", "httpx", "uvicorn"),
}

SLOW = {
    "bridges_speed",  # TorchRL's and OpenSpiel's imports
    "fault_injection",  # training runs, killed and resumed
    "openspiel_ismcts",  # OpenSpiel's Python ISMCTS plays whole games
    "ray_cluster",  # a two-node Ray cluster and a training run on it
    "rllib_throughput",  # Ray, and SB3 subprocess workers
    "vector_throughput",  # training rows: SB3 subprocess workers per table size
    "vector_training",  # the same
    "web_load",  # a server process, killed and restarted
}

EXTRA_ARGS: dict[str, list[str]] = {  # {work}: a folder under the test's tmp_path
    "fault_injection": ["--workdir", "{work}"],
    "ray_cluster": ["--workdir", "{work}"],
    "web_load": ["--data", "{work}"],
}


# Scripts that a test of their own runs whole already (a second, smoke-sized run of the same
# cluster or kill loop would add half a minute each and check nothing more).
COVERED_ELSEWHERE = {
    "fault_injection": "tests/training/test_fault_injection.py",
    "ray_cluster": "tests/training/test_ray_cluster.py",
    "web_locust": "tests/web/test_web_load.py",  # a locustfile, run by web_load.py --locust
}


def _scripts() -> list:
    return [
        pytest.param(path, id=path.stem, marks=[pytest.mark.slow] if path.stem in SLOW else [])
        for path in SCRIPTS
        if path.stem not in COVERED_ELSEWHERE
    ]


@pytest.mark.parametrize("name", sorted(COVERED_ELSEWHERE))
def test_a_script_left_out_here_is_run_by_its_own_test(name: str) -> None:
    test = ROOT / COVERED_ELSEWHERE[name]
    assert f"{name}.py" in test.read_text(encoding="utf-8") or f'"{name}"' in test.read_text(
        encoding="utf-8"
    ), f"{test} does not run benchmarks/{name}.py"


def _run(command: list[str], folder: Path) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``command`` in its own process group, killed whole
    after TIMEOUT_S; output goes to files, so a leftover grandchild holding a pipe cannot
    keep the test waiting."""
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen(
            command, cwd=ROOT, stdout=stdout, stderr=stderr, start_new_session=True
        )
        try:
            code = proc.wait(TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail(f"{command[1]} --smoke ran past {TIMEOUT_S} s:\n{out.read_text()[-4000:]}")
    return code, out.read_text(), err.read_text()


@pytest.mark.parametrize("script", _scripts())
def test_benchmark_runs_in_smoke_mode_and_prints_its_summary(script: Path, tmp_path: Path) -> None:
    name = script.stem
    assert name in SUMMARY, f"{script.name}: add the pattern of its summary line to SUMMARY"
    for module in REQUIRES.get(name, ()):
        pytest.importorskip(module, reason=f"{script.name} needs {module} (an optional extra)")
    work = tmp_path / "work"
    extra = [arg.replace("{work}", str(work)) for arg in EXTRA_ARGS.get(name, [])]
    code, stdout, stderr = _run([sys.executable, str(script), "--smoke", *extra], tmp_path)
    assert "unrecognized arguments: --smoke" not in stderr, f"{script.name} has no --smoke mode"
    assert code == 0, f"exit {code}\n{stdout[-3000:]}\n{stderr[-4000:]}"
    assert re.search(SUMMARY[name], stdout), f"no summary line in:\n{stdout[-4000:]}"


def test_every_summary_pattern_names_a_script() -> None:
    """A renamed or removed script leaves no stale entry behind."""
    names = {path.stem for path in SCRIPTS}
    for table in (SUMMARY, REQUIRES, EXTRA_ARGS):
        assert set(table) <= names, set(table) - names
    assert names >= SLOW, SLOW - names
