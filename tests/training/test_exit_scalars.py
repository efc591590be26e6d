"""Expert iteration's TensorBoard scalars: a run writes its generations' scalars to
``RUN_DIR/logs/`` at the generation as step, under SB3's names where they measure the same
and its progress log's ``exit/`` names otherwise, with the values of ``progress.csv`` and
``eval.csv``; a resumed run continues the steps without writing one twice, and hides a
discarded future's points (``purge_step``)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("torch", reason="training needs the [train] extra")
pytest.importorskip("tensorboard", reason="TensorBoard comes with the [train] extra")
pytest.importorskip(
    "art_gallery_env.agents.guided_search", reason="expert iteration searches with it"
)

from training_helpers import EXIT_FAST, EXIT_SMOKE, merge_config  # noqa: E402

from art_gallery_env.training import scalars  # noqa: E402
from art_gallery_env.training.config import config_from_dict  # noqa: E402


def config_for(run_dir: Path, **changes: Any) -> Any:
    data = yaml.safe_load(EXIT_SMOKE.read_text(encoding="utf-8"))
    return config_from_dict(merge_config({**data, "run_dir": str(run_dir)}, changes))


def run(run_dir: Path, resume: Path | None = None, **changes: Any) -> Path:
    from art_gallery_env.training.expert_iteration import train

    return train(config_for(run_dir, **changes), resume=resume, progress_bar=False)


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def steps(points: list[tuple[int, float]]) -> list[int]:
    return [step for step, _ in points]


def test_a_resumed_writer_hides_the_older_files_points_from_its_purge_step(
    tmp_path: Path,
) -> None:
    with scalars.ScalarWriter(tmp_path) as first:
        for step in range(5):
            first.write(step, {"a": step, "b": step})
    with scalars.ScalarWriter(tmp_path, purge_step=3) as again:
        for step in (3, 4):
            again.write(step, {"a": 10 + step})
    assert steps(scalars.read_scalars(tmp_path)["a"]) == [0, 1, 2, 3, 4, 3, 4]  # the files
    shown = scalars.shown_scalars(tmp_path)
    assert shown["a"] == [(0, 0.0), (1, 1.0), (2, 2.0), (3, 13.0), (4, 14.0)]
    assert steps(shown["b"]) == [0, 1, 2]  # no later point of its own: hidden all the same


def expected_steps(evaluated: set[str], generations: int) -> dict[str, list[int]]:
    """Every name's steps after ``generations``: generation 0 is evaluated, not trained."""
    from art_gallery_env.training.expert_iteration import SCALARS

    trained = {name: list(range(1, generations + 1)) for name in SCALARS}
    return {**trained, **dict.fromkeys({"exit/eval_s", *evaluated}, [*range(generations + 1)])}


def check_values(folder: Path, written: dict[str, list[tuple[int, float]]]) -> None:
    """Generation 1's scalars are its progress row's and eval.csv's values."""
    from art_gallery_env.training.expert_iteration import DECISIONS_PER_GAME

    progress = rows(folder / "logs" / "progress.csv")[1]
    for name in ("exit/policy_ce", "exit/value_mse", "exit/rows", "exit/generation_s"):
        assert written[name] == [(1, pytest.approx(float(progress[name]), rel=1e-6))]
    assert written[DECISIONS_PER_GAME] == [
        (1, pytest.approx(float(progress["rollout/ep_len_mean"]), rel=1e-6))
    ]  # progress.csv's rollout/ep_len_mean: every seat's decisions, not one learner seat's
    rate = float(progress["exit/rows"]) / float(progress["exit/generation_s"])
    assert written[scalars.FPS] == [(1, pytest.approx(rate, rel=1e-5))]
    lr = config_for(folder, **EXIT_FAST).exit.learning_rate
    assert written[scalars.LEARNING_RATE] == [(1, pytest.approx(lr))]  # Adam's, as configured
    for row in rows(folder / "eval.csv"):
        points = written[scalars.win_share(row["opponent"])]
        assert (int(row["steps"]), pytest.approx(float(row["win_share"]))) in points


@pytest.mark.slow
def test_a_run_writes_its_scalars_and_a_resume_continues_them(tmp_path: Path) -> None:
    folder = run(tmp_path / "run", **EXIT_FAST)
    logs = folder / "logs"
    opponents = {row["opponent"] for row in rows(folder / "eval.csv")}
    evaluated = {f(o) for o in opponents for f in (scalars.win_share, scalars.mean_score)}
    written = scalars.read_scalars(logs)
    assert {name: steps(points) for name, points in written.items()} == expected_steps(evaluated, 1)
    assert {scalars.FPS, scalars.LEARNING_RATE} <= set(scalars.SHARED)
    check_values(folder, written)

    # a future that a resume from an older checkpoint drops; then a resume to generation 2
    with scalars.ScalarWriter(logs) as stale:
        stale.write(2, {"exit/policy_ce": 99.0})
    run(folder, resume=folder, **merge_config(EXIT_FAST, {"exit": {"generations": 2}}))
    written = scalars.read_scalars(logs)
    assert len(list(logs.glob("events.out.tfevents.*"))) == 3  # a file per start
    expected = {**expected_steps(evaluated, 2), "exit/policy_ce": [1, 2, 2]}  # + the stale one
    assert {name: steps(points) for name, points in written.items()} == expected
    shown = scalars.shown_scalars(logs)["exit/policy_ce"]
    policy_ce = float(rows(logs / "progress.csv")[2]["exit/policy_ce"])
    assert shown == [written["exit/policy_ce"][0], (2, pytest.approx(policy_ce, rel=1e-6))]
