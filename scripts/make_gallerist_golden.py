"""Generate the Gallerist's golden playthroughs in tests/gallerist/golden/*.json.

    python scripts/make_gallerist_golden.py          # (re)write every golden file
    python scripts/make_gallerist_golden.py --check  # compare only; exit 1 on a difference

Each file pins one seeded game played through the Gallerist's ``raw_env``: its setup, the
actions (chosen by a seeded ``random.Random`` among the legal ones), the number of decisions,
the final score breakdown and rewards, a sha256 over every observation every agent could see
at every step and a sha256 of the final saved state. The file layout, the observation hash
and the JSON rendering are the Art Gallery script's (scripts/make_golden.py), imported.
tests/gallerist/test_gallerist_golden.py replays them. A change to a golden file changes what
the environment does; justify it in the commit message.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.files import atomic_write_text
from art_gallery_env.gallerist import raw_env

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "gallerist" / "golden"
FORMAT = "art-gallery-env/gallerist-golden"
VERSION = 1
MAX_STEPS = 50_000

GAMES: tuple[dict[str, Any], ...] = (
    {"name": "solo_seed11", "num_players": 1, "seed": 11},
    {"name": "p2_seed101", "num_players": 2, "seed": 101},
    {"name": "p3_seed404", "num_players": 3, "seed": 404},
    {"name": "p4_seed202", "num_players": 4, "seed": 202},
)


def _art_gallery_golden() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_golden", ROOT / "scripts" / "make_golden.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_shared = _art_gallery_golden()
GoldenReplayError = _shared.GoldenReplayError
render = _shared.render
_hash_observation = _shared._hash_observation


def play(num_players: int, seed: int, actions: list[int] | None = None) -> dict[str, Any]:
    """Play one game through ``raw_env``: random legal actions from ``random.Random(seed)``,
    or the given ``actions`` (which must all be legal). Returns the record to store."""
    e = raw_env(num_players=num_players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    chosen: list[int] = []
    final_rewards: dict[str, float] = {}
    for agent in e.agent_iter(max_iter=MAX_STEPS):
        obs, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            _hash_observation(digest, obs)
            final_rewards[agent] = float(reward)
            e.step(None)
            continue
        for other in e.possible_agents:  # what every agent could observe at this step
            _hash_observation(digest, e.observe(other))
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if actions is None:
            action = rng.choice(legal)
        else:
            if len(chosen) >= len(actions):
                raise GoldenReplayError(f"the game goes on after the {len(actions)} stored actions")
            action = actions[len(chosen)]
            if action not in legal:
                raise GoldenReplayError(
                    f"stored action {action} at decision {len(chosen)} is not legal "
                    f"(legal: {legal})"
                )
        chosen.append(int(action))
        e.step(action)
    if e.agents:
        raise GoldenReplayError(f"the game did not end within {MAX_STEPS} steps")
    state = e.state
    saved = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "setup": {"num_players": num_players, "seed": seed},
        "data_fingerprint": state.data.fingerprint,
        "decisions": len(chosen),
        "rounds": state.round,
        "final_breakdown": state.score_breakdown(),
        "final_rewards": dict(sorted(final_rewards.items())),
        "observation_sha256": digest.hexdigest(),
        "final_state_sha256": hashlib.sha256(saved.encode()).hexdigest(),
        "actions": chosen,
    }


def path_for(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    status = 0
    for game in GAMES:
        text = render(play(game["num_players"], game["seed"]))
        path = path_for(game["name"])
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{'ok     ' if same else 'CHANGED'} {path.relative_to(ROOT)}")
            status |= not same
        else:
            atomic_write_text(path, text)
            print(f"wrote {path.relative_to(ROOT)} ({len(text)} bytes)")
    return status


if __name__ == "__main__":
    sys.exit(main())
