"""Checks of a training config beyond its types, so that a config that would crash hours
into a run (or at its first step, after a run folder was made) is refused on load.

Each check returns a problem as one line, ``key.path: what is wrong; accepted values``,
or None; :mod:`.config` collects them into one :class:`ConfigError` before any file is
touched. The limits, and why each one is where it is:

* **Seeds** are ``0..2**32 - 1``: SB3 and RLlib seed Python, NumPy and torch with
  ``numpy.random.seed``, which takes no other value. RLlib adds each env runner's index,
  so ``seed + rllib.num_env_runners`` must stay in that range too.
* **Counts** are at most ``2**63 - 1``: steps and sizes end up in NumPy and torch int64
  arrays (and C ints: a worker count of ``2**70`` crashed in a semaphore).
* **Processes** on this machine (``n_envs`` with subprocess envs, evaluation workers) are
  at most 256: each one imports torch (about 250 MB), so 256 of them already need 64 GB.
* **Games** per evaluation or cloning round are at most ``10**7``: every game's result is
  kept in memory (and written as one row), and ten million games take many hours even
  of random play.
* ``torch_threads`` is at most the machine's CPU count: torch starts that many threads at
  the first operation, and more threads than CPUs only slow each other down (torch takes
  100000 and then fails to allocate them at the first operation).
* **Training memory** (see :func:`training_memory_bytes`): the network's parameters with
  their gradients and Adam's two moments (16 bytes per parameter; the actor and the critic
  are separate MLPs of ``network.hidden_sizes``, unless the network type gives its own
  ``parameter_count``) plus one update's rollout buffer, at most
  8 GiB (``$ART_GALLERY_MAX_TRAIN_GIB`` raises it). The trainers run on the CPU of one
  machine; 8 GiB is about 80 times the largest network trained here (``[1024, 1024]``:
  about 100 MB with its optimizer state) and fits a laptop, while one extra zero in a
  layer size (``[20000, 20000]``: 13 GB) is refused before torch tries to allocate it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from art_gallery_env.core.registry import get_game


class ConfigError(ValueError):
    """A config that cannot be used; the message names the file and the bad keys."""


MAX_SEED = 2**32 - 1
MAX_COUNT = 2**63 - 1
MAX_PROCESSES = 256
MAX_GAMES = 10**7
MAX_CONFIG_BYTES = 1 << 20  # a config is a few KB; a bigger file is not a config
MEMORY_LIMIT_GIB = 8.0
MEMORY_LIMIT_VARIABLE = "ART_GALLERY_MAX_TRAIN_GIB"
BYTES_PER_PARAMETER = 16  # float32 weights, gradients, Adam's first and second moments
GIB = 1 << 30


# -- numbers --------------------------------------------------------------------------
def finite_number(value: Any) -> Any:
    """A float that is neither infinite nor NaN (a number of another type passes through,
    for the field's own type check)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    return value


def bounded_count(value: Any) -> Any:
    """A count no larger than int64 (NumPy, torch and C code hold it)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_COUNT:
        raise ValueError(f"{value} is larger than 2**63 - 1, the largest count")
    return value


def checked_seed(value: Any) -> Any:
    """A seed numpy.random.seed takes: a whole number in 0..2**32 - 1."""
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= MAX_SEED:
        raise ValueError(
            f"must be a whole number in 0..{MAX_SEED} (2**32 - 1: the seeds "
            f"numpy.random.seed takes), got {value}"
        )
    return value


def finite_sum_problem(key: str, weights: Sequence[float]) -> str | None:
    """Weights that are each finite can still add up to infinity (1e308 + 1e308)."""
    if not math.isfinite(sum(weights)):
        return f"{key} must add up to a finite number, got {list(weights)}"
    return None


# -- resources of this machine --------------------------------------------------------
def cpu_count() -> int:
    return os.cpu_count() or 1


def _over_problem(key: str, value: int, limit: int, accepted: str) -> str | None:
    """``key: accepted ..., got value`` for a value over ``limit``, else None."""
    return f"{key}: accepted {accepted}, got {value}" if value > limit else None


def torch_threads_problem(threads: int) -> str | None:
    cpus = cpu_count()
    why = "this machine's CPUs: more threads than CPUs only slow each other down"
    return _over_problem("torch_threads", threads, cpus, f"1..{cpus} ({why})")


def processes_problem(key: str, count: int) -> str | None:
    why = "each imports torch, about 250 MB"
    return _over_problem(key, count, MAX_PROCESSES, f"1..{MAX_PROCESSES} processes ({why})")


def games_problem(key: str, games: int) -> str | None:
    if games > MAX_GAMES:
        return f"{key}: accepted at most {MAX_GAMES:,} games, got {games:,}"
    return None


# -- memory ---------------------------------------------------------------------------
def mlp_parameters(inputs: int, hidden_sizes: Sequence[int], outputs: int) -> int:
    """Weights and biases of an MLP inputs -> hidden_sizes... -> outputs."""
    sizes = [inputs, *hidden_sizes, outputs]
    return sum(a * b + b for a, b in zip(sizes, sizes[1:]))


def network_parameters(observation_size: int, num_actions: int, hidden_sizes: Sequence[int]) -> int:
    """The actor (observation -> logits) and the critic (observation -> value): separate
    MLPs of ``hidden_sizes`` in both trainers (an upper bound for a shared trunk)."""
    actor = mlp_parameters(observation_size, hidden_sizes, num_actions)
    critic = mlp_parameters(observation_size, hidden_sizes, 1)
    return actor + critic


def rollout_bytes(steps_per_update: int, observation_size: int, num_actions: int) -> int:
    """One update's rollout buffer: float32 observations, action masks and 7 scalars
    (action, reward, return, value, log-prob, advantage, episode start) per step."""
    return steps_per_update * 4 * (observation_size + num_actions + 7)


def training_memory_bytes(
    observation_size: int, num_actions: int, hidden_sizes: Sequence[int], steps_per_update: int
) -> tuple[int, int, int]:
    """(parameters, bytes of the network with its optimizer state, bytes of the buffer)."""
    params = network_parameters(observation_size, num_actions, hidden_sizes)
    return (
        params,
        params * BYTES_PER_PARAMETER,
        rollout_bytes(steps_per_update, observation_size, num_actions),
    )


def memory_limit_bytes() -> int:
    """8 GiB, or ``$ART_GALLERY_MAX_TRAIN_GIB`` (a positive number of GiB)."""
    text = os.environ.get(MEMORY_LIMIT_VARIABLE)
    if text is None or not text.strip():
        return int(MEMORY_LIMIT_GIB * GIB)
    try:
        gib = float(text)
    except ValueError:
        gib = math.nan
    if not (math.isfinite(gib) and gib > 0):
        raise ConfigError(
            f"${MEMORY_LIMIT_VARIABLE}: expected a positive number of GiB, got {text!r}"
        )
    return int(gib * GIB)


def memory_problem(
    observation_size: int,
    num_actions: int,
    hidden_sizes: Sequence[int],
    steps_per_update: int,
    steps_key: str,
    params: int | None = None,
) -> str | None:
    """The network and one update's rollout buffer must fit the memory limit (``params``:
    the network's own count, where its type knows better than the MLP estimate)."""
    mlp, network, buffer = training_memory_bytes(
        observation_size, num_actions, hidden_sizes, steps_per_update
    )
    if params is None:
        params = mlp
    network = params * BYTES_PER_PARAMETER
    limit = memory_limit_bytes()
    if network + buffer <= limit:
        return None
    if network >= buffer:
        return (
            f"network.hidden_sizes: {list(hidden_sizes)} has about {params:,} parameters, "
            f"{network / GIB:,.1f} GiB to train ({BYTES_PER_PARAMETER} bytes each: weights, "
            f"gradients, Adam's two moments); accepted: at most {limit / GIB:g} GiB with the "
            f"rollout buffer (${MEMORY_LIMIT_VARIABLE} raises it)"
        )
    return (
        f"{steps_key}: {steps_per_update:,} steps per update need a "
        f"{buffer / GIB:,.1f} GiB rollout buffer; accepted: at most {limit / GIB:g} GiB with "
        f"the network (${MEMORY_LIMIT_VARIABLE} raises it)"
    )


# -- paths ----------------------------------------------------------------------------
def text_problem(key: str, value: str) -> str | None:
    """A name or path the file system can take: no NUL or other control characters."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return f"{key}: contains a control character, got {value!r}"
    return None


def _first_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def folder_problem(key: str, value: str) -> str | None:
    """A folder the run can make: a path with no file where it or a parent should be."""
    problem = text_problem(key, value)
    if problem is not None:
        return problem
    if not value.strip():
        return f"{key}: must name a folder, got {value!r}"
    path = Path(value).expanduser()
    existing = _first_existing(path.absolute())
    if not existing.is_dir():
        where = "it is" if existing == path.absolute() else f"{existing} is"
        return f"{key}: {value!r} cannot be a run folder: {where} a file, not a folder"
    return None  # a folder it cannot write is a fault of the machine (exit 1), not of the config


# -- the file ---------------------------------------------------------------------------
def read_config_text(path: Path) -> str:
    """The config file's text; a folder, a missing or unreadable file, a huge one or one
    that is not UTF-8 is a ConfigError naming the path."""
    try:
        if path.is_dir():
            raise ConfigError(f"{path}: is a folder; give a YAML config file in it")
        with path.open("rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the config: {err.strerror or err}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes; not a config file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {data[err.start]:#04x} at offset {err.start}); "
            f"save the config as UTF-8"
        ) from None


def _where(mark: Any) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""


def yaml_error_line(err: yaml.YAMLError) -> str:
    """PyYAML's several-line message as one line: the problem and where it is."""
    problem = getattr(err, "problem", None)
    if problem is None:
        return " ".join(str(err).split())
    context = getattr(err, "context", None)
    where = _where(getattr(err, "problem_mark", None))
    return f"{problem}" + (f" ({context})" if context else "") + (f" at {where}" if where else "")


def _duplicate_key(node: yaml.Node, path: str, seen: set[int]) -> str | None:
    """The first key given twice in one mapping, as ``key.path`` with both lines."""
    if id(node) in seen:  # an alias: walked once (a YAML bomb has many)
        return None
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first: dict[Any, yaml.Node] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else repr(key.value)
            here = f"{path}.{name}" if path else str(name)
            if name in first:
                return (
                    f"{here} is given twice (lines {first[name].start_mark.line + 1} and "
                    f"{key.start_mark.line + 1}); give each key once"
                )
            first[name] = key
            found = _duplicate_key(value, here, seen)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            found = _duplicate_key(item, f"{path}[{i}]", seen)
            if found:
                return found
    return None


def load_yaml(text: str, source: str) -> Any:
    """The one YAML document in ``text``; a duplicate key is refused, not overwritten
    by the last one (PyYAML's default)."""
    try:  # the reader refuses a control character (a NUL byte) already here
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as err:
        raise ConfigError(f"{source}: not valid YAML: {yaml_error_line(err)}") from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        duplicate = _duplicate_key(node, "", set())
        if duplicate:
            raise ConfigError(f"{source}: {duplicate}")
        return loader.construct_document(node)
    except yaml.YAMLError as err:
        raise ConfigError(f"{source}: not valid YAML: {yaml_error_line(err)}") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid YAML: nested too deeply for a config") from None
    finally:
        loader.dispose()


# -- a validated config as a whole ------------------------------------------------------
def _process_problems(config: Any) -> list[str | None]:
    found = [
        processes_problem("eval.workers", config.eval.workers),
        processes_problem("eval.final_workers", config.eval.final_workers),
        games_problem("eval.games", config.eval.games),
        games_problem("eval.final_games", config.eval.final_games),
        torch_threads_problem(config.torch_threads),
    ]
    if config.algorithm == "maskable_ppo" and resolved_vec_env(config) == "subproc":
        found.append(processes_problem("n_envs (vec_env: subproc)", config.n_envs))
    if config.warm_start is not None:
        found.append(games_problem("warm_start.bc_games", config.warm_start.bc_games))
        found.append(games_problem("warm_start.dagger_games", config.warm_start.dagger_games))
    return found


def _seed_problem(config: Any) -> str | None:
    """RLlib seeds env runner i with ``seed + i``: the last one must be a seed too."""
    if config.algorithm != "rllib_ppo":
        return None
    last = config.seed + config.rllib.num_env_runners
    if last > MAX_SEED:
        return (
            f"seed: with rllib.num_env_runners {config.rllib.num_env_runners} the runners' "
            f"seeds go up to {last}; accepted: seed + num_env_runners <= {MAX_SEED}"
        )
    return None


def _memory_problem(config: Any, observation_size: int, num_actions: int) -> str | None:
    if config.algorithm == "rllib_ppo":
        steps, key = config.rllib.train_batch_size, "rllib.train_batch_size"
    else:
        steps, key = config.ppo.n_steps * config.n_envs, "ppo.n_steps * n_envs"
    sizes = getattr(config.network, "hidden_sizes", None) or []
    # a network type whose parameters are not those of two MLPs can count its own
    count = getattr(config.network, "parameter_count", None)
    params = count(observation_size, num_actions) if callable(count) else None
    return memory_problem(observation_size, num_actions, sizes, steps, key, params)


def _path_problems(config: Any) -> list[str | None]:
    found = [text_problem("name", config.name)]
    if config.run_dir is not None:
        found.append(folder_problem("run_dir", config.run_dir))
    elif found[0] is None:
        runs_name = str(Path("runs", config.name))
        found.append(folder_problem("name (the run folder runs/NAME)", runs_name))
    return found


def config_problems(config: Any, observation_size: int, num_actions: int) -> list[str]:
    """Every problem of a config whose types and ranges pydantic accepted: what this
    machine can run (threads, processes, memory), seeds, and the paths it will write."""
    found = [
        *_process_problems(config),
        _seed_problem(config),
        _memory_problem(config, observation_size, num_actions),
        *_path_problems(config),
    ]
    return [problem for problem in found if problem]


def resolved_vec_env(config: Any) -> str:
    """The env kind a config trains on: ``auto`` is ``vector`` where the game has a
    compiled engine that imports (numba installed), else ``subproc``."""
    if config.vec_env != "auto":
        return config.vec_env
    spec = get_game(config.env.game)
    if "vector" not in spec.capabilities:
        return "subproc"
    try:
        spec.extension("vector")
    except ImportError:  # numba missing: the subprocess path is the fallback
        return "subproc"
    return "vector"
