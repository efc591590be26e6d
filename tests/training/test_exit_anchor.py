"""Expert iteration's anchor to generation 0 (``exit.anchor_games``, ``exit.anchor_kl``)
and the final pick of ``best`` (``exit.best_candidates``): what each adds to the
training, that they are off by default, that a resumed run with them equals an
uninterrupted one, and that the re-picked best is a whole checkpoint."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("torch", reason="training needs the [train] extra")
pytest.importorskip(
    "art_gallery_env.agents.guided_search", reason="expert iteration searches with it"
)

from training_helpers import merge_config  # noqa: E402

from art_gallery_env.training.config import ConfigError, config_from_dict  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "exit_smoke.yaml"


def smoke_config(run_dir: Path, **changes: Any) -> Any:
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    return config_from_dict(merge_config({**data, "run_dir": str(run_dir)}, changes))


def run(run_dir: Path, resume: Path | None = None, **changes: Any) -> Path:
    from art_gallery_env.training.expert_iteration import train

    return train(smoke_config(run_dir, **changes), resume=resume, progress_bar=False)


def learner_and_rows(tmp_path: Path, **exit_changes: Any) -> tuple[Any, dict[str, np.ndarray]]:
    """A smoke learner and one teacher game per table size as its rows."""
    from art_gallery_env.training.expert_iteration import Learner, teacher_rows

    config = smoke_config(tmp_path / "run", exit={"anchor_games": 1, **exit_changes})
    learner = Learner(config)
    return learner, teacher_rows(config, learner)


def policies(net: Any, rows: dict[str, np.ndarray]) -> np.ndarray:
    import torch

    with torch.no_grad():
        x = torch.as_tensor(rows["obs"], dtype=torch.float32)
        logits = net.logits(x).masked_fill(~torch.as_tensor(rows["mask"]), -1e9)
        return torch.softmax(logits, dim=1).numpy().astype(np.float64)


def kl(p: np.ndarray, q: np.ndarray) -> float:
    """Mean KL(p || q) over rows, numpy."""
    safe = p > 0
    return float(
        np.where(safe, p * (np.log(np.where(safe, p, 1)) - np.log(q + 1e-30)), 0).sum(1).mean()
    )


def test_the_teacher_rows_are_one_hot_decisions_with_win_shares(tmp_path: Path) -> None:
    _, rows = learner_and_rows(tmp_path)
    assert set(rows) == {"obs", "mask", "policy", "value"}
    assert len(rows["value"]) > 20  # one game at 2 and at 3 players
    assert np.array_equal(rows["policy"].sum(1), np.ones(len(rows["value"]), np.float32))
    assert set(np.unique(rows["policy"])) == {0.0, 1.0}
    chosen = rows["policy"].argmax(1)
    assert rows["mask"][np.arange(len(chosen)), chosen].all()  # the teacher's legal action
    assert ((rows["value"] >= 0) & (rows["value"] <= 1)).all() and rows["value"].max() == 1


def test_anchor_rows_join_every_training_set(tmp_path: Path) -> None:
    from art_gallery_env.training.expert_iteration import Anchors

    learner, rows = learner_and_rows(tmp_path)
    config = smoke_config(tmp_path / "run", exit={"anchor_games": 1})
    anchors = Anchors(config, tmp_path / "run", learner)
    assert anchors.net is None  # no anchor_kl: no generation 0 to read
    window = {k: v[:5] for k, v in rows.items()} | {"seat": np.zeros(5, np.int64)}
    joined = anchors.training_rows(window)
    assert len(joined["value"]) == 5 + len(rows["value"])
    assert np.array_equal(joined["policy"][5:], rows["policy"])
    assert joined["obs"].dtype == window["obs"].dtype


def test_the_anchors_are_off_by_default(tmp_path: Path) -> None:
    from art_gallery_env.training.expert_iteration import Anchors, Learner

    config = smoke_config(tmp_path / "run")
    assert (config.exit.anchor_games, config.exit.anchor_kl, config.exit.best_candidates) == (
        0, 0.0, 0)  # fmt: skip
    anchors = Anchors(config, tmp_path / "run", Learner(config))
    window = {"value": np.zeros(3, np.float32)}
    assert anchors.rows is None and anchors.net is None
    assert anchors.training_rows(window) is window


@pytest.mark.slow
def test_the_kl_term_is_the_kl_to_the_anchor_and_pulls_the_net_to_it(tmp_path: Path) -> None:
    import torch

    from art_gallery_env.training.expert_iteration import Learner, _anchor_kl

    learner, rows = learner_and_rows(tmp_path, anchor_kl=5.0)
    anchor = Learner(learner.config).net  # the same seed: the same start
    with torch.no_grad():
        for parameter in anchor.parameters():  # another policy than the learner's
            parameter.add_(0.3 * torch.randn(parameter.shape))
    x = torch.as_tensor(rows["obs"], dtype=torch.float32)
    mask = torch.as_tensor(rows["mask"])
    with torch.no_grad():
        logp = torch.log_softmax(learner.net.logits(x).masked_fill(~mask, -1e9), dim=1)
        term = float(_anchor_kl(anchor, x, mask, logp))
    expected = kl(policies(anchor, rows), policies(learner.net, rows))
    assert term == pytest.approx(expected, rel=1e-3, abs=1e-5)

    uniform = {**rows, "policy": rows["mask"] / rows["mask"].sum(1, keepdims=True)}
    pulled, free = Learner(learner.config), Learner(learner.config)
    stats = pulled.fit(uniform, 6, 64, 0, 1e-2, anchor)
    free.config = free.config.model_copy(
        update={"exit": free.config.exit.model_copy(update={"anchor_kl": 0.0})}
    )
    free_stats = free.fit(uniform, 6, 64, 0, 1e-2, anchor)
    assert stats["anchor_kl"] > 0 and free_stats["anchor_kl"] == 0
    after = kl(policies(anchor, rows), policies(pulled.net, rows))
    unpulled = kl(policies(anchor, rows), policies(free.net, rows))
    assert after < 0.5 * unpulled


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"anchor_kl": -1}, r"exit\.anchor_kl: Input should be greater than or equal to 0"),
        ({"anchor_games": -2}, r"exit\.anchor_games: Input should be greater than or equal"),
        ({"best_candidates": "three"}, r"exit\.best_candidates: "),
    ],
)
def test_a_bad_anchor_setting_is_one_line(changes: dict, message: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        smoke_config(tmp_path / "run", exit=changes)
    assert "\n" not in str(err.value)


ANCHORED = {"exit": {"anchor_games": 1, "anchor_kl": 1.0, "best_candidates": 2},
            "eval": {"final_games": 1}}  # fmt: skip


@pytest.mark.slow
def test_an_anchored_run_resumes_exactly_and_repicks_a_whole_best(tmp_path: Path) -> None:
    from safetensors.numpy import load_file

    straight = run(tmp_path / "straight", **ANCHORED)
    run(tmp_path / "split", **merge_config(ANCHORED, {"exit": {"generations": 1}}))
    split = run(tmp_path / "split", resume=tmp_path / "split", **ANCHORED)
    for g in ("gen_001", "gen_002"):
        a = load_file(str(straight / "pool" / f"{g}.safetensors"))
        b = load_file(str(split / "pool" / f"{g}.safetensors"))
        assert all(np.array_equal(a[k], b[k]) for k in a), g
    with (straight / "logs" / "progress.csv").open() as handle:
        kls = [float(r["exit/anchor_kl"]) for r in csv.DictReader(handle) if r["exit/anchor_kl"]]
    assert kls and all(k > 0 for k in kls)  # the term was in the loss

    picked = json.loads((straight / "best_candidates.json").read_text())
    assert len(picked["candidates"]) == 2 and picked["games"] == 1
    best = json.loads((straight / "best.json").read_text())
    assert best["steps"] == picked["picked"]
    assert (straight / "best" / "exit_state.pt").is_file()
    assert (straight / "best" / "policy.safetensors").read_bytes() == (
        straight / "pool" / f"gen_{picked['picked']:03d}.safetensors"
    ).read_bytes()
    assert json.loads((straight / "latest.json").read_text())["steps"] == 2
