"""Which extra installs a missing module: a command that needs one ends in one line.

A core-only install (numpy, gymnasium, pettingzoo) runs ``demo``; the other subcommands
need the extras of pyproject.toml, and a module they miss names its extra instead of a
traceback.
"""

from __future__ import annotations

import sys

# top-level module -> the extra of pyproject.toml that installs it
EXTRA_OF = {
    "rich": "tools",
    "openskill": "tools",
    "tqdm": "tools",
    "yaml": "tools",
    "safetensors": "tools",
    "numba": "fast",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "pydantic": "train",
    "tensorboard": "train",
    "matplotlib": "train",
    "ray": "rllib",
    "cairosvg": "render",
    "imageio": "render",
    "av": "render",
    "fastapi": "web",
    "uvicorn": "web",
    "httpx": "web",
    "starlette": "web",
    "pyspiel": "openspiel",
    "onnx": "onnx",
    "onnxruntime": "onnx",
    "torchrl": "torchrl",
}


def extra_for(err: ImportError) -> str | None:
    """The extra that installs the module ``err`` misses (None: not one of ours)."""
    top = (err.name or "").split(".")[0]
    return EXTRA_OF.get(top)


def missing_extra_message(command: str | None, err: ImportError) -> str | None:
    """The one line for a missing module of an extra, or None for any other ImportError."""
    extra = extra_for(err)
    if extra is None:
        return None
    who = f"art-gallery {command}" if command else "art-gallery"
    module = (err.name or "").split(".")[0]
    return (
        f"error: {who} needs the [{extra}] extra ({module} is not installed): "
        f"pip install 'art-gallery-env[{extra}]'"
    )


def report_missing_extra(command: str | None, err: ImportError) -> int:
    """Print the line and give exit status 2; an ImportError of no extra is raised again."""
    message = missing_extra_message(command, err)
    if message is None:
        raise err
    print(message, file=sys.stderr)
    return 2
