"""``art-gallery export``: a policy checkpoint as an ONNX model."""

from __future__ import annotations

import argparse

from . import options

HELP = "write a policy checkpoint as an ONNX model"
DESCRIPTION = (
    "Export a policy checkpoint (.safetensors, or .zip from art-gallery train) as an "
    "ONNX model that any ONNX runtime plays without PyTorch or Python: inputs "
    "'observation' [N, OBS] and 'action_mask' [N, ACTIONS] (float32, 1 = legal), "
    "output 'masked_logits' [N, ACTIONS] (-inf where illegal), where OBS and ACTIONS "
    "are the sizes of the checkpoint's game (printed when written). Needs the [onnx] "
    "extra."
)


def add(sub: argparse._SubParsersAction) -> None:
    export = options.subcommand(sub, "export", run, HELP, DESCRIPTION)
    export.add_argument("checkpoint", metavar="CHECKPOINT", help="a .safetensors or .zip policy")
    export.add_argument("--onnx", required=True, metavar="OUT", help="the .onnx file to write")


def run(args: argparse.Namespace) -> int:
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
