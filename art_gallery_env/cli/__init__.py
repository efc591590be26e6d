"""The ``art-gallery`` command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def _demo(args: argparse.Namespace) -> int:
    """Play one seeded game between random agents and print how it ended."""
    from art_gallery_env.agents.random_agent import RandomAgent
    from art_gallery_env.arena.loop import Decision, play_game
    from art_gallery_env.core.registry import get_game

    game = get_game(args.game)
    try:
        state = game.setup(args.players, args.seed, _variants(args))
    except ValueError as err:
        args.parser.error(str(err))
    agents = [RandomAgent(seed=args.seed * 100 + seat) for seat in range(args.players)]

    def show(decision: Decision) -> None:
        name = game.action_to_str(decision.action)
        print(f"decision {decision.index + 1} player {decision.seat}: {name}")

    result = play_game(state, agents, on_decision=show if args.verbose else None)
    print(game.render_text(state, None))
    print()
    print(f"{len(result.actions)} decisions, {state.round} rounds, seed {args.seed}")
    print(game.render_breakdown(result.breakdown))
    return 0


def _variant_value(text: str) -> Any:
    """A ``--variant`` value as JSON reads it (true, 3, "x"), else the plain string."""
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def _variant(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE (e.g. a=true), got {text!r}")
    return key.strip(), _variant_value(value.strip())


def _variants(args: argparse.Namespace) -> dict[str, Any]:
    """The game's variants from ``--variant KEY=VALUE`` (and the ``--zero-is-ten`` shorthand);
    the game checks the names and values."""
    variants = dict(getattr(args, "variant", None) or [])
    if getattr(args, "zero_is_ten", False):
        variants["zero_is_ten"] = True
    return variants


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _int_in(low: int, high: int, what: str = "") -> Any:
    """An argparse type: a whole number in low..high, else one line with the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise argparse.ArgumentTypeError(
                f"expected a whole number in {low}..{high}{what}, got {shown!r}"
            )
        return value

    return parse


# Seeds: games seed NumPy's generators, which take non-negative integers (64 bits here).
_seed = _int_in(0, 2**63 - 1, " (2**63 - 1)")
_games = _int_in(1, 10**7)  # every game's result is kept in memory and written as a row
_workers = _int_in(1, 256, " processes (each imports torch, about 250 MB)")


def _viewer(text: str) -> int | None:
    if text.lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected 'all' or a seat number 0..5, got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 'all' or a seat number 0..5, got {value}")
    return value


def _check_agent_specs(
    parser: argparse.ArgumentParser, option: str, specs: list[str], game: str | None
) -> None:
    """Build each agent once so that a bad name or option is reported before any game."""
    from art_gallery_env.agents.registry import agent_spec_problem

    for spec in specs:
        problem = agent_spec_problem(spec, game=game)
        if problem is not None:
            parser.error(f"{option}: bad agent spec {spec!r}: {problem}")


def _eval(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.evaluate import (
        MatchConfig,
        MatchError,
        MatchInterrupted,
        StopSignals,
        expand_agent_specs,
        run_match,
        unseen_table_notes,
    )
    from art_gallery_env.files import writable_dir_problem

    parser = args.parser
    try:
        agents = expand_agent_specs(args.agents)
        if agents != list(args.agents):
            print(f"{len(agents)} agents: " + " ".join(agents))
        config = MatchConfig(
            num_players=args.players,
            agents=tuple(agents),
            games=args.games,
            seed=args.seed,
            variants=_variants(args),
            workers=args.workers,
            insight=args.insight,
            game=args.game,
            # a folder of checkpoints rates them all: more agents than seats by design
            round_robin=args.round_robin or agents != list(args.agents),
        )
    except MatchError as err:
        parser.error(str(err))
    if args.insight and not args.save_games:
        parser.error("--insight is stored in the game records: give --save-games DIR too")
    _check_agent_specs(parser, "--agents", agents, args.game)
    for note in unseen_table_notes(config):
        print(f"note: {note}", file=sys.stderr)
    for option, folder in (("--out", args.out), ("--save-games", args.save_games)):
        problem = folder and writable_dir_problem(folder)
        if problem:  # found now, not after every game has been played
            parser.error(f"{option} {folder}: {problem}")
    progress = False if args.no_progress else None
    with _eval_folders_locked(args), StopSignals() as signals:
        try:
            with signals.raising():  # SIGTERM stops the workers and saves, as Ctrl-C does
                result = run_match(config, progress=progress)
        except MatchInterrupted as stop:
            return _report_partial_match(args, stop)
        _write_match(args, result)  # a signal now waits for the files
    return 0


def _eval_folders_locked(args: argparse.Namespace) -> Any:
    """One eval at a time writes into an --out (or --save-games) folder."""
    from contextlib import ExitStack
    from pathlib import Path

    from art_gallery_env.folder_lock import FolderLock

    stack = ExitStack()
    seen = set()
    for option, folder in (("--out", args.out), ("--save-games", args.save_games)):
        if folder and Path(folder).resolve() not in seen:
            seen.add(Path(folder).resolve())
            advice = f"wait for that eval to finish, or give another {option}"
            stack.enter_context(FolderLock(folder, "eval", advice))
    return stack


def _write_match(args: argparse.Namespace, result: Any) -> None:
    from art_gallery_env.arena.evaluate import print_table, save_game_records, write_results

    print_table(result)
    if args.save_games:  # first: the results never count a record that is not written
        paths = save_game_records(result, args.save_games)
        print(f"wrote {len(paths)} game records to {args.save_games}")
    if args.out:
        paths = write_results(result, args.out)
        print("wrote " + ", ".join(str(p) for p in paths))


def _report_partial_match(args: argparse.Namespace, stop: Any) -> int:
    """The games finished before Ctrl-C: their table and files, marked partial."""
    import signal

    result = stop.result
    played, planned = len(result.games), result.config.games
    print()
    print(f"{stop.signal_name}: interrupted after {played} of {planned} games.")
    if played:
        _write_match(args, result)
        print(f"These results are partial ({played} of {planned} games).")
    else:
        print("No game had finished; nothing written.")
    return 128 + signal.Signals[stop.signal_name].value


def _play(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.terminal import PlaySetupError, run_play

    parser = args.parser
    if args.resume and (args.players is not None or args.seat is not None):
        print("note: --players and --seat come from the saved game when resuming")
    try:
        return run_play(
            players=args.players,
            seat=args.seat,
            opponents=args.opponents,
            seed=args.seed,
            variants=_variants(args),
            resume=args.resume,
            save=args.save,
            record=args.record,
            game_name=args.game,
        )
    except PlaySetupError as err:
        parser.error(str(err))
    return 2  # not reached: parser.error exits


def _replay(args: argparse.Namespace) -> int:
    from art_gallery_env.arena.replay import run_replay

    return run_replay(args.file, step=args.step, viewer=args.viewer, game=args.game)


def _missing_train_extra(err: ImportError) -> int:
    print(
        f"error: training needs the [train] extra ({err.name} is not installed): "
        f"pip install -e '.[train]'  (or: bash scripts/bootstrap.sh dev,train)",
        file=sys.stderr,
    )
    return 2


def _missing_rllib_extra(err: ImportError) -> int:
    print(
        f"error: algorithm rllib_ppo needs the [rllib] extra "
        f"({(err.name or 'ray').split('.')[0]} is not installed): "
        f"pip install -e '.[rllib]'  (or: bash scripts/bootstrap.sh dev,train,rllib)",
        file=sys.stderr,
    )
    return 2


def _train(args: argparse.Namespace) -> int:
    from art_gallery_env.processes import stop_signals_deferred

    try:
        with stop_signals_deferred():  # a Ctrl-C inside torch's import could be lost
            import sb3_contrib  # noqa: F401 - whole before a Ctrl-C can cut it
            import torch  # noqa: F401

            from art_gallery_env.training.config import ConfigError, load_config
            from art_gallery_env.training.interrupt import TrainingInterrupted
            from art_gallery_env.training.run_folder import RunFolderError
            from art_gallery_env.training.sb3_trainer import train
    except ImportError as err:
        return _missing_train_extra(err)
    from art_gallery_env.agents.policy import CheckpointError

    try:  # --run-dir and --total-steps are checked as if the config said them
        overrides = {"run_dir": args.run_dir, "total_steps": args.total_steps}
        config = load_config(args.config, overrides)
    except ConfigError as err:
        args.parser.error(str(err))
    args.output_folder = args.resume or str(config.resolved_run_dir)
    files = "best.zip / best.safetensors, latest.*, logs/, eval.csv"
    if config.algorithm == "rllib_ppo":
        try:
            from art_gallery_env.training.rllib_trainer import train
        except ImportError as err:
            return _missing_rllib_extra(err)
        files = "best.safetensors, latest.*, rllib_checkpoint/, logs/, eval.csv"
    if config.algorithm == "expert_iteration":
        from art_gallery_env.training.expert_iteration import train

        files = "best.safetensors, latest.*, pool/gen_*.safetensors, replay/, logs/, eval.csv"
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
    print(f"run folder: {run_dir} ({files})")
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
        command = ["art-gallery", "train", args.config]
        if args.run_dir:
            command += ["--run-dir", args.run_dir]
        if args.total_steps:
            command += ["--total-steps", str(args.total_steps)]
        if args.no_progress:
            command.append("--no-progress")
        command += ["--resume", str(stop.run_dir)]
        print("Resume with:")
        print("  " + shlex.join(command))
    return 128 + signal.Signals[stop.signal_name].value


def _plot(args: argparse.Namespace) -> int:
    try:
        from art_gallery_env.training.plots import PlotError, plot_ratings, plot_run
    except ImportError as err:
        return _missing_train_extra(err)
    try:
        if args.run_dir.endswith(".json"):
            paths = [plot_ratings(args.run_dir, args.out)]
        else:
            paths = plot_run(args.run_dir, args.out)
    except PlotError as err:
        args.parser.error(str(err))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from art_gallery_env.web.server import serve

    checkpoints = args.checkpoints
    if checkpoints is None and Path("checkpoints").is_dir():
        checkpoints = "checkpoints"
    return serve(
        host=args.host,
        port=args.port,
        data=args.data,
        checkpoints=checkpoints,
        records=args.records,
        access_log=args.access_log,
    )


def _export(args: argparse.Namespace) -> int:
    """Write a checkpoint's policy as ONNX (observation and mask in, masked logits out)."""
    from art_gallery_env.agents.policy import CheckpointError, load_policy

    try:
        from art_gallery_env.agents.policy_onnx import INPUT_MASK, OUTPUT, export_onnx

        policy = load_policy(args.checkpoint)
        path = export_onnx(policy, args.onnx)
    except CheckpointError as err:
        args.parser.error(str(err))
    obs_size, actions = policy.meta["obs_size"], policy.meta["num_actions"]  # the policy's game
    print(
        f"wrote {path} ({path.stat().st_size:,} bytes), a policy for {policy.game}: inputs "
        f"observation [N, {obs_size}] and {INPUT_MASK} [N, {actions}] (float32, 1 = legal), "
        f"output {OUTPUT} [N, {actions}]"
        + (" and value [N] (the win share)" if policy.meta.get("value_kind") == "win_share" else "")
    )
    return 0


def _add_game_option(
    command: argparse.ArgumentParser, *, resumed: bool = False, recorded: bool = False
) -> None:
    from art_gallery_env.core.registry import default_game, game_names

    if recorded:
        help_text = "the game the record must be of (default: the record's own game)"
    else:
        help_text = f"which game (default {default_game().name})"
        if resumed:
            help_text += "; --resume plays the saved game's"
    command.add_argument(
        "--game",
        choices=game_names(),
        default=None if recorded or resumed else default_game().name,
        help=help_text,
    )
    if not recorded:
        _add_variant_options(command)


def _add_variant_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--variant",
        type=_variant,
        action="append",
        metavar="KEY=VALUE",
        help="a setup variant of the game, e.g. zero_is_ten=true (repeatable)",
    )
    command.add_argument(
        "--zero-is-ten",
        action="store_true",
        help="shorthand for --variant zero_is_ten=true (Art Gallery's rule variant R5.6)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="art-gallery",
        description="Art Gallery: a PettingZoo environment, agents and tools.",
        epilog=(
            "examples:\n"
            "  art-gallery eval --players 4 --agents random heuristic ismcts --games 400\n"
            "  art-gallery play --players 3 --opponents heuristic,ismcts\n"
            "  art-gallery replay games/game_0000.json --viewer all\n"
            "  art-gallery eval --game gallerist --agents heuristic random --games 400\n"
            "  art-gallery play --game gallerist --opponents heuristic\n"
            "  art-gallery serve --records games/\n"
            "Run 'art-gallery COMMAND --help' for a command's options."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="play one seeded demo game and print the score breakdown")
    _add_game_option(demo)
    demo.add_argument("--players", type=int, default=4, help="players (default 4)")
    demo.add_argument("--seed", type=_seed, default=7)
    demo.add_argument("--verbose", action="store_true", help="print every decision")
    demo.set_defaults(func=_demo, parser=demo)

    from art_gallery_env.arena.evaluate import default_workers

    ev = sub.add_parser(
        "eval",
        help="seat-rotated matches between agents: win share, scores, ratings",
        description=(
            "Play seeded, seat-rotated games between registry agents in parallel processes "
            "and print per agent: win share with a 95% Wilson interval (shared wins count "
            "1/k), mean score with a 95% interval, the mean score breakdown (Art Gallery: "
            "rows, souvenirs, hand, start card; the Gallerist: money, exhibition, reputation, "
            "auction), an OpenSkill Plackett-Luce rating and the mean decision time. Fewer "
            "agents than seats are cycled to fill the table. A folder of checkpoints (a run "
            "folder: its pool/ snapshots and best/latest) stands for every checkpoint in it, "
            "and all agents are rated in one round robin (tables of --players drawn from "
            "them; fixed agents such as heuristic serve as anchors). Results are identical "
            "for any --workers."
        ),
    )
    _add_game_option(ev)
    ev.add_argument(
        "--players",
        type=int,
        default=2,
        metavar="N",
        help="seats at the table: Art Gallery 2..6, the Gallerist 2..4 (default 2)",
    )
    ev.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="agent specs, e.g. random heuristic ismcts:iters=400, a checkpoint path, or "
        "a folder of checkpoints (at most --players specs unless --round-robin or a folder)",
    )
    ev.add_argument(
        "--round-robin",
        action="store_true",
        help="allow more agents than seats: each block of --players games seats one subset",
    )
    ev.add_argument("--games", type=_games, default=100, help="games (default 100)")
    ev.add_argument("--seed", type=_seed, default=0, help="master seed (default 0)")
    ev.add_argument(
        "--workers",
        type=_workers,
        default=default_workers(),
        help=f"worker processes (default {default_workers()})",
    )
    ev.add_argument("--out", metavar="DIR", help="write results.json, results.csv, games.csv")
    ev.add_argument("--save-games", metavar="DIR", help="write one game record per game")
    ev.add_argument(
        "--insight",
        action="store_true",
        help="with --save-games: store what each checkpoint or search seat saw at every "
        "decision (top actions and probabilities, value estimate, visit counts)",
    )
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.set_defaults(func=_eval, parser=ev)

    play = sub.add_parser(
        "play",
        help="play against agents in the terminal",
        description=(
            "Play one game in the terminal against registry agents. Give a choice by its "
            "number or name; 'save PATH' at any prompt saves the game, 'quit' leaves."
        ),
    )
    _add_game_option(play, resumed=True)
    play.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="seats at the table: Art Gallery 2..6, the Gallerist 2..4 (default 2)",
    )
    play.add_argument("--seat", type=int, default=None, help="your seat 0..players-1 (default 0)")
    play.add_argument(
        "--opponents",
        default=None,
        metavar="SPECS",
        help="comma-separated agent specs, one per other seat, or one for all (default random)",
    )
    play.add_argument("--seed", type=_seed, default=None, help="game seed (default: random)")
    play.add_argument("--resume", metavar="FILE", help="continue a game saved with 'save PATH'")
    play.add_argument(
        "--save",
        metavar="FILE",
        help="file for 'save' without a path; the game is also saved there on 'quit' and Ctrl-C",
    )
    play.add_argument("--record", metavar="FILE", help="write the game record when it ends")
    play.set_defaults(func=_play, parser=play)

    replay = sub.add_parser(
        "replay",
        help="step through a saved game record",
        description=(
            "Replay a game record: every decision, the board at each round end (or every "
            "step with --step), the final breakdown, and whether the replayed scores match "
            "the stored ones (exit status 1 if not, 2 for a bad or incomplete record)."
        ),
    )
    replay.add_argument(
        "file", metavar="FILE", help="a record (JSON) from eval --save-games or play --record"
    )
    _add_game_option(replay, recorded=True)
    replay.add_argument(
        "--step",
        action="store_true",
        help="show the board after every decision and wait for Enter (on a terminal)",
    )
    replay.add_argument(
        "--viewer",
        type=_viewer,
        default=None,
        metavar="N|all",
        help="show what seat N could see (hidden bids as '?'), or all (default)",
    )
    replay.set_defaults(func=_replay, parser=replay)

    train = sub.add_parser(
        "train",
        help="self-play training (MaskablePPO or Ray RLlib PPO) from a YAML config",
        description=(
            "Train a policy by self-play: sb3-contrib MaskablePPO (algorithm: maskable_ppo) "
            "or Ray RLlib PPO, locally or on a Ray cluster (algorithm: rllib_ppo, needs the "
            "[rllib] extra; RAY_ADDRESS=auto uses a running cluster). Writes "
            "RUN_DIR/best.safetensors, latest.*, logs and eval.csv (plus best.zip for SB3, "
            "rllib_checkpoint/ for RLlib); prints the periodic evaluation against the "
            "configured opponents."
        ),
    )
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
    train.add_argument("--run-dir", help="override the config's run folder")
    train.add_argument("--total-steps", type=_positive_int, help="override total_steps")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.set_defaults(func=_train, parser=train)

    serve = sub.add_parser(
        "serve",
        help="play and replay games in the browser (a local web server)",
        description=(
            "Serve the web app: set up a game against agents or checkpoints, play it by "
            "clicking, replay any game record with the agents' insight. Games are saved "
            "in --data after every decision and survive a restart."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--data", default="web-games", metavar="DIR", help="games folder (default web-games)"
    )
    serve.add_argument(
        "--checkpoints",
        metavar="DIR",
        help="offer the checkpoints in DIR as opponents (default: ./checkpoints if present)",
    )
    serve.add_argument(
        "--records", metavar="DIR", help="offer the game records in DIR (eval --save-games)"
    )
    serve.add_argument("--access-log", action="store_true", help="log every request")
    serve.set_defaults(func=_serve, parser=serve)

    export = sub.add_parser(
        "export",
        help="write a policy checkpoint as an ONNX model",
        description=(
            "Export a policy checkpoint (.safetensors, or .zip from art-gallery train) as an "
            "ONNX model that any ONNX runtime plays without PyTorch or Python: inputs "
            "'observation' [N, 2221] and 'action_mask' [N, 47] (float32, 1 = legal), output "
            "'masked_logits' [N, 47] (-inf where illegal). Needs the [onnx] extra."
        ),
    )
    export.add_argument("checkpoint", metavar="CHECKPOINT", help="a .safetensors or .zip policy")
    export.add_argument("--onnx", required=True, metavar="OUT", help="the .onnx file to write")
    export.set_defaults(func=_export, parser=export)

    plot = sub.add_parser(
        "plot",
        help="write PNG training curves of a run folder, or rating vs steps of an eval",
    )
    plot.add_argument(
        "run_dir",
        metavar="RUN_DIR|RESULTS.json",
        help="a folder made by 'art-gallery train', or the results.json of "
        "'art-gallery eval --agents RUN_DIR ... --out DIR' (rating against training step)",
    )
    plot.add_argument(
        "--out",
        help="where to write: the folder of the PNGs (default RUN_DIR/plots), or the PNG "
        "file for a results.json (default rating_vs_steps.png beside it)",
    )
    plot.set_defaults(func=_plot, parser=plot)
    return parser


def _output_of(args: argparse.Namespace | None) -> str | None:
    """The folder or file a command writes: named by a fault whose error names none."""
    for key in ("output_folder", "run_dir", "resume", "out", "save_games", "data", "save"):
        if getattr(args, key, None):
            return str(getattr(args, key))
    return None


def _saved(args: argparse.Namespace | None) -> str:
    """After a fault in training: what is safe on disk, and how to continue."""
    import json
    from pathlib import Path

    folder = getattr(args, "output_folder", None) if getattr(args, "func", None) is _train else None
    latest = Path(folder) / "latest.json" if folder else None
    try:
        steps = json.loads(latest.read_text(encoding="utf-8"))["steps"] if latest else None
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    if not isinstance(steps, int):
        return ""
    return (
        f"; the checkpoints in {folder} are whole (latest: step {steps:,}): continue with "
        f"--resume {folder}"
    )


def main(argv: list[str] | None = None) -> int:
    from art_gallery_env.faults import os_error_message, unicode_error_message
    from art_gallery_env.folder_lock import FolderBusyError
    from art_gallery_env.processes import (
        ctrl_c_raises_stop_signal,
        one_compute_thread_by_default,
        stop_signals_deferred,
    )

    one_compute_thread_by_default()  # before the parser imports numpy
    args = None
    try:
        with ctrl_c_raises_stop_signal():  # keeps the exit status ours, see StopSignal
            with stop_signals_deferred():  # the parser imports the games: numpy's extensions
                args = build_parser().parse_args(argv)
            return args.func(args)
    except KeyboardInterrupt:  # a Ctrl-C that no command handles itself: no traceback
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `art-gallery replay FILE | head`
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except FolderBusyError as err:  # a second command on a folder another one owns
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # a full disk, a read-only or forbidden folder: not a bug
        print(f"error: {os_error_message(err, _output_of(args))}{_saved(args)}", file=sys.stderr)
        return 1
    except UnicodeError as err:
        print(f"error: {unicode_error_message(err)}", file=sys.stderr)
        return 1
