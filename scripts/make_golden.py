"""Generate the golden playthroughs of any registered game (in its folder's goldens/).

    python scripts/make_golden.py --game art_gallery --players 2 --seed 101
    python scripts/make_golden.py --game art_gallery --players 4 --seed 202 \
        --variant zero_is_ten=true
    python scripts/make_golden.py --import sealed_bids.spec --game sealed_bids --players 3 --seed 1
    python scripts/make_golden.py --all            # rewrite every game's goldens/*.json
    python scripts/make_golden.py --all --check    # compare only; exit 1 on a difference

A playthrough is one seeded game played through the core loop
(:func:`art_gallery_env.core.loop.play_game`) by seeded random agents: every seat draws from
one ``random.Random(seed)``, choosing among the legal actions of its mask in id order. The
file pins, per decision, the acting seat, its action, a hash of the observation that seat
was given and a hash of its legal actions; then the final score breakdown and a hash of the
final saved state. tests/conformance replays every file it finds and names the first
decision that differs. The script names no game: everything comes from the registry
(``--import MODULE`` registers a game that lives outside the package, such as a test game
under tests/, which is put on the path for it).

``--legacy FILE ... --game NAME`` rewrites (or, with ``--check``, compares) the older
golden files (tests/golden/*.json, tests/gallerist/golden/*.json). Those were played through
the game's AEC env and pin one hash over every observation of every agent at every step and
the env's final rewards; their format string and fingerprint key are read from the file.

A change to a golden file changes what a game does for fixed seeds and actions: justify it
in the commit message.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.core.agent import Agent
from art_gallery_env.core.loop import play_game
from art_gallery_env.core.registry import GameSpec, game_names, get_game
from art_gallery_env.files import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
TEST_GAMES_DIR = ROOT / "tests"  # where --import finds a test-only game
FORMAT = "art-gallery-env/playthrough"
VERSION = 1
HASH_HEX = 12  # 48 bits per decision: enough to see a change, short enough to diff
MAX_DECISIONS = 50_000


class GoldenReplayError(AssertionError):
    """A golden game cannot be played again as stored."""


# -- the playthrough (the one format every game's files use) -----------------------------
def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_HEX]


def observation_hash(observation: Any) -> str:
    return short_hash(np.ascontiguousarray(observation, dtype=np.float32).tobytes())


def legal_hash(legal: Sequence[int]) -> str:
    return short_hash(",".join(map(str, legal)).encode())


def state_hash(state: Any) -> str:
    saved = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(saved.encode()).hexdigest()


class SeededRandomAgent(Agent):
    """Picks among its mask's legal actions from a shared rng and notes what it was given."""

    name = "golden-random"

    def __init__(self, rng: random.Random, steps: list[list[Any]]) -> None:
        self.rng = rng
        self.steps = steps

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        action = int(self.rng.choice(legal))
        seat = view.seat if view is not None else -1
        self.steps.append([seat, action, observation_hash(observation), legal_hash(legal)])
        return action


def setup_of(spec: GameSpec, num_players: int, seed: int, variants: Mapping[str, Any] | None):
    """The stored setup: only the variants that differ from their defaults, so that a
    variant added later with a default leaves old files as they are."""
    return {
        "num_players": spec.check_players(num_players),
        "seed": int(seed),
        "variants": spec.active_variants(variants),
    }


def play(
    spec: GameSpec, num_players: int, seed: int, variants: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One seeded random game of ``spec`` through the core loop, as the record to store."""
    setup = setup_of(spec, num_players, seed, variants)
    state = spec.setup(setup["num_players"], setup["seed"], setup["variants"])
    rng = random.Random(seed)
    steps: list[list[Any]] = []
    agents = [SeededRandomAgent(rng, steps) for _ in range(setup["num_players"])]
    result = play_game(state, agents, spec.make_observer(state), max_decisions=MAX_DECISIONS)
    if not state.is_over:
        raise GoldenReplayError(f"the game did not end within {MAX_DECISIONS} decisions")
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.name,
        "setup": setup,
        "data": list(spec.data_fingerprint(state)),
        "decisions": len(steps),
        "rounds": result.rounds,
        "final_breakdown": result.breakdown,
        "final_state_sha256": state_hash(state),
        "steps": steps,
    }


def render(record: Mapping[str, Any]) -> str:
    """JSON text with one decision a line, so that a diff names the decisions that moved."""
    head = {k: v for k, v in record.items() if k != "steps"}
    text = json.dumps(head, indent=1)
    rows = ",\n  ".join(json.dumps(step, separators=(",", ":")) for step in record["steps"])
    return text[:-2] + f',\n "steps": [\n  {rows}\n ]\n}}\n'


def file_name(setup: Mapping[str, Any]) -> str:
    """``p3_seed404`` and the variants that differ from their defaults
    (``_zero_is_ten`` for a true flag, ``_key-value`` otherwise)."""
    parts = [f"p{setup['num_players']}_seed{setup['seed']}"]
    for key, value in sorted(setup["variants"].items()):
        parts.append(key if value is True else f"{key}-{value}")
    return "_".join(parts)


def path_for(record: Mapping[str, Any], out: Path | None = None) -> Path:
    """The file of a record: in its game's goldens/ folder, or in ``out``/<game>/."""
    folder = out / record["game"] if out is not None else get_game(record["game"]).golden_dir()
    return folder / f"{file_name(record['setup'])}.json"


def golden_files(out: Path | None = None) -> list[Path]:
    """Every playthrough file: each registered game's goldens/ (or ``out``/<game>/)."""
    if out is not None:
        return sorted(out.glob("*/*.json"))
    return sorted(path for name in game_names() for path in game_dir_files(name))


def game_dir_files(name: str) -> list[Path]:
    return sorted(get_game(name).golden_dir().glob("*.json"))


def replay(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The stored game played again from its setup (its game must be registered)."""
    if (stored.get("format"), stored.get("version")) != (FORMAT, VERSION):
        raise GoldenReplayError(
            f"not a version {VERSION} {FORMAT} file: {stored.get('format')!r} "
            f"version {stored.get('version')!r}"
        )
    setup = stored["setup"]
    return play(get_game(stored["game"]), setup["num_players"], setup["seed"], setup["variants"])


def differences(stored: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """What changed, in words: the first decision that differs, then the final results."""
    problems = []
    fields = ("seat", "action", "observation hash", "legal actions hash")
    for i, (old, new) in enumerate(zip(stored["steps"], replayed["steps"])):
        if old != new:
            what = [f"{f} {a!r} -> {b!r}" for f, a, b in zip(fields, old, new) if a != b]
            problems.append(f"decision {i} (seat {old[0]}) differs: {', '.join(what)}")
            break
    for key in ("data", "decisions", "rounds", "final_breakdown", "final_state_sha256"):
        if stored.get(key) != replayed.get(key):
            problems.append(f"{key} changed from {stored.get(key)!r} to {replayed.get(key)!r}")
    return problems


def check_file(path: Path) -> list[str]:
    """The differences between ``path`` and what this script writes for its setup today."""
    text = path.read_text(encoding="utf-8")
    stored = json.loads(text)
    replayed = replay(stored)
    problems = differences(stored, replayed)
    if not problems and render(replayed) != text:
        problems.append("the file is not exactly what the script writes (regenerate it)")
    return problems


# -- the older files: one hash over every agent's observations through the AEC env ---------
def legacy_fingerprint_key(stored: Mapping[str, Any]) -> str:
    """The file's data fingerprint key (``card_set_fingerprint``, ``data_fingerprint``)."""
    keys = [k for k in stored if k.endswith("_fingerprint")]
    if len(keys) != 1:
        raise GoldenReplayError(f"expected one *_fingerprint key, found {keys}")
    return keys[0]


def _hash_env_observation(digest: Any, obs: Mapping[str, np.ndarray]) -> None:
    digest.update(np.ascontiguousarray(obs["observation"], dtype=np.float32).tobytes())
    digest.update(np.ascontiguousarray(obs["action_mask"], dtype=np.int8).tobytes())


def _env_action(legal: list[int], rng: random.Random, actions: list[int] | None, done: int):
    if actions is None:
        return int(rng.choice(legal))
    if done >= len(actions):
        raise GoldenReplayError(f"the game goes on after the {len(actions)} stored actions")
    action = actions[done]
    if action not in legal:
        raise GoldenReplayError(
            f"stored action {action} at decision {done} is not legal (legal: {legal})"
        )
    return action


def play_legacy(
    spec: GameSpec,
    setup: Mapping[str, Any],
    layout: tuple[str, int, str],
    actions: list[int] | None = None,
) -> dict[str, Any]:
    """One game through ``spec.make_env``: random legal actions from
    ``random.Random(seed)``, or the given ``actions`` (each must be legal). ``setup`` is
    ``num_players``, ``seed`` and every variant; ``layout`` the file's (format, version,
    fingerprint key)."""
    variants = {k: v for k, v in setup.items() if k not in ("num_players", "seed")}
    e = spec.make_env(num_players=setup["num_players"], variants=variants)
    e.reset(seed=setup["seed"])
    rng = random.Random(setup["seed"])
    digest = hashlib.sha256()
    chosen: list[int] = []
    final_rewards: dict[str, float] = {}
    for agent in e.agent_iter(max_iter=MAX_DECISIONS):
        obs, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            _hash_env_observation(digest, obs)
            final_rewards[agent] = float(reward)
            e.step(None)
            continue
        for other in e.possible_agents:  # what every agent could observe at this step
            _hash_env_observation(digest, e.observe(other))
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        chosen.append(_env_action(legal, rng, actions, len(chosen)))
        e.step(chosen[-1])
    if e.agents:
        raise GoldenReplayError(f"the game did not end within {MAX_DECISIONS} steps")
    state = e.unwrapped.state
    fmt, version, fingerprint_key = layout
    return {
        "format": fmt,
        "version": version,
        "setup": dict(setup),
        fingerprint_key: spec.data_fingerprint(state)[1],
        "decisions": len(chosen),
        "rounds": state.round,
        "final_breakdown": state.score_breakdown(),
        "final_rewards": dict(sorted(final_rewards.items())),
        "observation_sha256": digest.hexdigest(),
        "final_state_sha256": state_hash(state),
        "actions": chosen,
    }


def render_legacy(record: Mapping[str, Any]) -> str:
    """JSON text with the action list on one line (the older files' layout)."""
    head = {k: v for k, v in record.items() if k != "actions"}
    text = json.dumps(head, indent=1)
    actions = json.dumps(record["actions"], separators=(",", ":"))
    return text[:-2] + f',\n "actions": {actions}\n}}\n'


def legacy_layout(stored: Mapping[str, Any]) -> tuple[str, int, str]:
    return stored["format"], stored["version"], legacy_fingerprint_key(stored)


def check_legacy_file(spec: GameSpec, path: Path) -> list[str]:
    """The differences between an older file and its stored actions replayed today."""
    text = path.read_text(encoding="utf-8")
    stored = json.loads(text)
    if stored["decisions"] != len(stored["actions"]):
        return [f"decisions {stored['decisions']} != {len(stored['actions'])} stored actions"]
    try:
        replayed = play_legacy(spec, stored["setup"], legacy_layout(stored), stored["actions"])
    except GoldenReplayError as err:
        return [str(err)]
    problems = [
        f"{key} changed from {stored[key]!r} to {replayed[key]!r}"
        for key in stored
        if key != "actions" and replayed.get(key) != stored[key]
    ]
    if not problems and render_legacy(replayed) != text:
        problems.append("the file is not exactly what the script writes (regenerate it)")
    return problems + bare_engine_problems(spec, stored)


def bare_engine_problems(spec: GameSpec, stored: Mapping[str, Any]) -> list[str]:
    """The stored actions are what random.Random(seed) picks among the engine's sorted
    legal actions, and the engine alone (no env) ends the game with the stored score."""
    setup = stored["setup"]
    variants = {k: v for k, v in setup.items() if k not in ("num_players", "seed")}
    state = spec.setup(setup["num_players"], setup["seed"], variants)
    rng = random.Random(setup["seed"])
    for i, action in enumerate(stored["actions"]):
        if state.is_over:
            return [f"the bare engine's game ended before decision {i}"]
        if rng.choice(state.legal_actions()) != action:
            return [f"the bare engine's decision {i} differs"]
        state.apply(action)
    if not state.is_over:
        return ["the bare engine's game goes on after the stored actions"]
    if state.score_breakdown() != stored["final_breakdown"]:
        return ["the bare engine's final breakdown differs"]
    return []


# -- command line ------------------------------------------------------------------------
def parse_variant(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON (true, 3, "x"), else kept as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"--variant takes key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _write_or_check(path: Path, text: str, check: bool) -> int:
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if check:
        same = path.exists() and path.read_text(encoding="utf-8") == text
        print(f"{'ok     ' if same else 'CHANGED'} {shown}")
        return int(not same)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
    print(f"wrote {shown} ({len(text)} bytes)")
    return 0


def _records(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """(path, text) of every file the command line asks for."""
    if args.legacy:
        spec = get_game(args.game)
        out = []
        for path in args.legacy:
            stored = json.loads(path.read_text(encoding="utf-8"))
            record = play_legacy(spec, stored["setup"], legacy_layout(stored))
            out.append((path, render_legacy(record)))
        return out
    if args.all:
        return [
            (path, render(replay(json.loads(path.read_text(encoding="utf-8")))))
            for path in golden_files(args.out)
        ]
    spec = get_game(args.game)
    variants = dict(args.variant)
    out = []
    for n in args.players or [spec.min_players]:
        for seed in args.seed:
            record = play(spec, n, seed, variants)
            out.append((path_for(record, args.out), render(record)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="a registered game's name")
    parser.add_argument("--players", type=int, nargs="+", help="table sizes (default: min)")
    parser.add_argument("--seed", type=int, nargs="+", default=[0])
    parser.add_argument("--variant", type=parse_variant, action="append", default=[])
    parser.add_argument(
        "--import", dest="imports", action="append", default=[], metavar="MODULE",
        help="a module to import first (it registers a game), e.g. sealed_bids.spec",
    )  # fmt: skip
    parser.add_argument("--all", action="store_true", help="every game's goldens/ files")
    parser.add_argument("--legacy", type=Path, nargs="+", help="older files to rewrite")
    parser.add_argument("--out", type=Path, help="a folder instead of each game's goldens/")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    if args.imports:
        sys.path.append(str(TEST_GAMES_DIR))
    for module in args.imports:
        importlib.import_module(module)
    if not args.all and args.game is None:
        parser.error("--game is needed (or --all)")
    try:
        records = _records(args)
    except (ValueError, GoldenReplayError) as err:  # an unknown game, variant or table size
        hint = " (a game of the tests? --import its spec module)" if args.all else ""
        print(f"make_golden: {err}{hint}", file=sys.stderr)
        return 2
    status = 0
    for path, text in records:
        status |= _write_or_check(path, text, args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
