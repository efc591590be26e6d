"""Training curves as PNG files (``art-gallery plot RUN_DIR``), readable without TensorBoard."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from art_gallery_env.files import atomic_write_bytes

# logs/progress.csv's column naming what its step column counts, when that is not
# environment steps (expert iteration writes "generation"); a plot's x axis says it
STEP_UNIT_KEY = "time/step_unit"
DEFAULT_STEP_UNIT = "training steps"


class PlotError(ValueError):
    """A run folder without the logs a plot needs."""


def step_unit(rows: list[dict[str, str]]) -> str:
    """What the run's steps are: the progress log's last :data:`STEP_UNIT_KEY`, else
    training steps (the PPO trainers' environment steps)."""
    units = [row.get(STEP_UNIT_KEY) or "" for row in rows]
    return next((unit for unit in reversed(units) if unit.strip()), DEFAULT_STEP_UNIT)


def _read_csv(path: Path, columns: tuple[str, ...] = ()) -> list[dict[str, str]]:
    """The rows of a training log, which must be UTF-8 CSV with ``columns``."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
            header = list(reader.fieldnames or [])
    except (UnicodeDecodeError, csv.Error) as err:
        raise PlotError(
            f"{path}: not a CSV log of 'art-gallery train' ({err}); restore the file, or plot "
            f"another run folder"
        ) from None
    missing = [column for column in columns if column not in header]
    if rows and missing:
        raise PlotError(f"{path}: no {missing[0]!r} column, so not a log of 'art-gallery train'")
    for row in rows:
        row["_path"] = str(path)
    return rows


def _series(rows: list[dict[str, str]], x: str, y: str) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for row in rows:
        if row.get(x) and row.get(y):
            try:
                xs.append(float(row[x]))
                ys.append(float(row[y]))
            except ValueError:
                raise PlotError(
                    f"{row.get('_path', 'log')}: {x}={row[x]!r}, {y}={row[y]!r}: not a number; "
                    f"restore the file, or plot another run folder"
                ) from None
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
    rows = _read_csv(progress, ("time/total_timesteps",))
    unit = step_unit(rows)
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
        ax.set(title=title, xlabel=unit, ylabel=column.split("/")[-1])
        ax.grid(alpha=0.3)
        save(fig, name)

    fig, ax = plt.subplots(figsize=(7, 4))
    if evals.is_file():
        eval_rows = _read_csv(evals, ("steps", "opponent", "win_share"))
        for k, opponent in enumerate(sorted({r["opponent"] for r in eval_rows})):
            mine = [r for r in eval_rows if r["opponent"] == opponent]
            xs, ys = _series(mine, "steps", "win_share")
            ax.plot(xs, ys, marker="o", color=f"C{k}", label=f"vs {opponent}")
            size = re.search(r"@(\d+)p$", opponent)  # a mixed-table run: per size
            if size:  # its even share, 1/N, as a dashed line
                ax.axhline(1 / int(size.group(1)), color=f"C{k}", linestyle=":", alpha=0.7)
        ax.legend()
    ax.set(title="evaluation win share", xlabel=unit, ylabel="win share", ylim=(0, 1))
    ax.grid(alpha=0.3)
    save(fig, "win_rate.png")
    return written


def checkpoint_steps(spec: str) -> int | None:
    """The training steps of a checkpoint spec: the ``steps`` in its header, else the
    number in a pool snapshot's name (``snap_0000100000``); None for a fixed agent."""
    from art_gallery_env.agents.policy_format import CheckpointError, load_weights

    from .checkpoints import snapshot_steps

    path = Path(spec)
    if not path.is_file():
        return None
    try:
        steps = load_weights(path).meta.get("steps")
    except CheckpointError:
        steps = None
    if isinstance(steps, int):
        return steps
    return snapshot_steps(path)


def plot_ratings(results_json: str | Path, out: str | Path | None = None) -> Path:
    """Rating against training step from an ``art-gallery eval --out`` results.json whose
    agents include checkpoints (e.g. ``--agents RUN_DIR heuristic random``): each
    checkpoint is a point at its steps (OpenSkill mu, bars ±1 sigma); fixed agents are
    horizontal lines, the anchors the checkpoints are read against."""
    import json

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results_json = Path(results_json)
    try:
        data = json.loads(results_json.read_text(encoding="utf-8"))
        agents = data["agents"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise PlotError(
            f"{results_json}: not a results.json written by 'art-gallery eval --out' ({err})"
        ) from None
    points, anchors = [], []
    for a in agents:
        steps = checkpoint_steps(a["spec"])
        (anchors if steps is None else points).append((steps, a))
    if not points:
        raise PlotError(
            f"{results_json}: no agent is a checkpoint with training steps; rate a run's "
            f"checkpoints with 'art-gallery eval --agents RUN_DIR heuristic --out DIR'"
        )
    points.sort(key=lambda p: p[0])
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [s for s, _ in points]
    ax.errorbar(
        xs,
        [a["rating_mu"] for _, a in points],
        yerr=[a["rating_sigma"] for _, a in points],
        marker="o",
        capsize=3,
        label="checkpoints",
    )
    for k, (_, a) in enumerate(anchors):
        ax.axhline(a["rating_mu"], linestyle="--", color=f"C{k + 1}", label=a["agent"])
    players = data.get("config", {}).get("num_players", "?")
    ax.set(
        title=f"OpenSkill rating vs training steps ({players} players, mu ± sigma)",
        xlabel="training steps",
        ylabel="rating mu",
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    out = Path(out) if out else results_json.with_name("rating_vs_steps.png")
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(out, buffer.getvalue())
    return out
