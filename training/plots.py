"""Training curves as PNG files (``art-gallery plot RUN_DIR``), readable without TensorBoard."""

from __future__ import annotations

import csv
from pathlib import Path


class PlotError(ValueError):
    """A run folder without the logs a plot needs."""


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _series(rows: list[dict[str, str]], x: str, y: str) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for row in rows:
        if row.get(x) and row.get(y):
            xs.append(float(row[x]))
            ys.append(float(row[y]))
    return xs, ys


def plot_run(run_dir: str | Path, out_dir: str | Path | None = None) -> list[Path]:
    """Write reward.png, win_rate.png and episode_length.png; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run_dir = Path(run_dir)
    progress = run_dir / "logs" / "progress.csv"
    evals = run_dir / "eval.csv"
    if not progress.is_file():
        raise PlotError(
            f"{run_dir}: no logs/progress.csv; give the folder of a run made by "
            f"'art-gallery train' (e.g. runs/quick)"
        )
    out = Path(out_dir) if out_dir else run_dir / "plots"
    out.mkdir(parents=True, exist_ok=True)
    rows = _read_csv(progress)
    written = []

    def save(fig, name: str) -> None:
        path = out / name
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    for column, title, name in (
        ("rollout/ep_rew_mean", "mean episode reward (learner seat)", "reward.png"),
        ("rollout/ep_len_mean", "mean episode length (learner decisions)", "episode_length.png"),
    ):
        xs, ys = _series(rows, "time/total_timesteps", column)
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot(xs, ys, marker=".")
        ax.set(title=title, xlabel="training steps", ylabel=column.split("/")[-1])
        ax.grid(alpha=0.3)
        save(fig, name)

    fig, ax = plt.subplots(figsize=(7, 4))
    if evals.is_file():
        eval_rows = _read_csv(evals)
        for opponent in sorted({r["opponent"] for r in eval_rows}):
            mine = [r for r in eval_rows if r["opponent"] == opponent]
            xs, ys = _series(mine, "steps", "win_share")
            ax.plot(xs, ys, marker="o", label=f"vs {opponent}")
        ax.legend()
    ax.set(title="evaluation win share", xlabel="training steps", ylabel="win share", ylim=(0, 1))
    ax.grid(alpha=0.3)
    save(fig, "win_rate.png")
    return written
