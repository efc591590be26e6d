"""``art-gallery train``: self-play training from a YAML config."""

from __future__ import annotations

import argparse
from typing import Any

from . import options
from .extras import report_missing_extra

HELP = "self-play training (MaskablePPO or Ray RLlib PPO) from a YAML config"
DESCRIPTION = (
    "Train a policy by self-play: sb3-contrib MaskablePPO (algorithm: maskable_ppo) or Ray "
    "RLlib PPO, locally or on a Ray cluster (algorithm: rllib_ppo, needs the [rllib] extra; "
    "RAY_ADDRESS=auto uses a running cluster). Writes RUN_DIR/best.safetensors, latest.*, "
    "logs and eval.csv (plus best.zip for SB3, rllib_checkpoint/ for RLlib); prints the "
    "periodic evaluation against the configured opponents."
)
# what each algorithm's run folder holds, printed at the end
FILES = {
    "maskable_ppo": "best.zip / best.safetensors, latest.*, logs/, eval.csv",
    "rllib_ppo": "best.safetensors, latest.*, rllib_checkpoint/, logs/, eval.csv",
    "expert_iteration": "best.safetensors, latest.*, pool/gen_*.safetensors, replay/, logs/, "
    "eval.csv",
}


def add(sub: argparse._SubParsersAction) -> None:
    train = options.subcommand(sub, "train", run, HELP, DESCRIPTION)
    train.add_argument("config", metavar="CONFIG", help="a YAML config, e.g. configs/quick.yaml")
    train.add_argument(
        "--resume",
        metavar="RUN_DIR",
        help="continue the run in RUN_DIR (or from one of its checkpoints: RUN_DIR/latest.zip, "
        "RUN_DIR/rllib_checkpoint); the config must train the same game and network",
    )
    train.add_argument(
        "--overwrite",
        action="store_true",
        help="start over in a run folder that holds an earlier run (deletes what a run writes: "
        "checkpoints, logs, pool/, and warm_start/ with its cached cloning data; other files "
        "stay)",
    )
    train.add_argument(
        "--from-checkpoint",
        metavar="NAME",
        help="with --resume RUN_DIR: continue from this checkpoint (latest or best) instead "
        "of latest; one older than latest also needs --discard-newer",
    )
    train.add_argument(
        "--discard-newer",
        action="store_true",
        help="with --resume: allow resuming from a checkpoint older than latest, deleting the "
        "newer checkpoint, its pool snapshots and its log rows",
    )
    train.add_argument(
        "--game",
        type=options.game_name,
        help="override the config's env.game (a config such as configs/any_game.yaml "
        "trains any game that has the basic capabilities)",
    )
    train.add_argument("--run-dir", help="override the config's run folder")
    train.add_argument("--total-steps", type=options.positive_int, help="override total_steps")
    options.add_no_progress(train)


def run(args: argparse.Namespace) -> int:
    from art_gallery_env.processes import stop_signals_deferred

    try:
        with stop_signals_deferred():  # a Ctrl-C inside torch's import could be lost
            import sb3_contrib  # noqa: F401 - whole before a Ctrl-C can cut it
            import torch  # noqa: F401

            from art_gallery_env.training.config import ConfigError, load_config
            from art_gallery_env.training.interrupt import TrainingInterrupted
            from art_gallery_env.training.run_folder import RunFolderError
    except ImportError as err:
        return report_missing_extra("train", err)
    from art_gallery_env.agents.policy import CheckpointError

    try:  # --run-dir and --total-steps are checked as if the config said them
        overrides = {
            "run_dir": args.run_dir,
            "total_steps": args.total_steps,
            "env.game": args.game,
        }
        config = load_config(args.config, overrides)
    except ConfigError as err:
        args.parser.error(str(err))
    args.output_folder = args.resume or str(config.resolved_run_dir)
    from art_gallery_env.training.entry import train

    try:
        run_dir = train(
            config,
            resume=args.resume,
            progress_bar=not args.no_progress,
            overwrite=args.overwrite,
            from_checkpoint=args.from_checkpoint,
            discard_newer=args.discard_newer,
        )
    except (CheckpointError, RunFolderError, ConfigError) as err:
        args.parser.error(str(err))
    except TrainingInterrupted as stop:
        return _report_interrupted(args, stop)
    except ImportError as err:  # the algorithm's own extra (ray for rllib_ppo)
        return report_missing_extra("train", err)
    print(f"run folder: {run_dir} ({FILES.get(config.algorithm, FILES['maskable_ppo'])})")
    return 0


def _report_interrupted(args: argparse.Namespace, stop: Any) -> int:
    """What was saved, and the exact command that continues the run."""
    import shlex
    import signal

    print()
    if stop.steps is None:
        print(f"{stop.signal_name}: stopped before training began; no checkpoint was saved.")
        from pathlib import Path

        from art_gallery_env.training.warm_start import FOLDER

        cache = Path(stop.run_dir) / FOLDER
        if cache.is_dir():
            print(f"The teacher's games in {cache} are kept: the same command reuses them.")
        return 128 + signal.Signals[stop.signal_name].value
    where = f"{stop.run_dir}/latest"
    print(f"{stop.signal_name}: training stopped at step {stop.steps:,}; saved {where}")
    if stop.finished:
        print("Training had reached total_steps; only the final evaluation was cut short.")
    else:
        print("Resume with:")
        print("  " + shlex.join(resume_command(args, stop.run_dir)))
    return 128 + signal.Signals[stop.signal_name].value


def resume_command(args: argparse.Namespace, run_dir: Any) -> list[str]:
    """The command line that continues an interrupted run with the same options."""
    command = ["art-gallery", "train", args.config]
    if args.game:
        command += ["--game", args.game]
    if args.run_dir:
        command += ["--run-dir", args.run_dir]
    if args.total_steps:
        command += ["--total-steps", str(args.total_steps)]
    if args.no_progress:
        command.append("--no-progress")
    return command + ["--resume", str(run_dir)]
