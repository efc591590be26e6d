"""Behaviour cloning before PPO (config ``warm_start:``): the policy starts as a copy of a
teacher agent (the heuristic) instead of a random net.

Why: at 4 and 6 players a random policy almost never wins against heuristics, so PPO sees
a reward that hardly depends on what it does (``ppo_4p`` won 0.5 % after 200k steps).
Starting from the teacher's play, PPO only has to improve on it.

1. :func:`collect` plays ``bc_games`` games per table size with the teacher in every seat
   through the arena's one game loop, recording each decision (observation, mask, action)
   and, once the game ends, the deciding seat's final reward (the value target).
2. :func:`clone` trains the MaskablePPO policy itself (the same net PPO then trains):
   cross-entropy of the masked logits against the teacher's action, and the value head on
   the final reward (so PPO's first advantages are not noise).
3. Optionally DAgger (Ross, Gordon & Bagnell 2011), ``dagger_rounds`` times: the clone
   plays one seat of ``dagger_games`` more games per size among teachers, the teacher
   labels every decision (the clone's too), the rows join the data and the clone trains
   ``dagger_epochs`` more epochs over all of it. A clone errs most in the states its own
   errors lead to, which the teacher's games never show it.
The teacher's dataset is cached in the run folder (``warm_start/bc_data.npz``, written
atomically), so a restarted run reuses it; DAgger's games depend on the clone and are
played again.
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import derive_seed
from art_gallery_env.arena.loop import play_game
from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.core.scoring import final_rewards
from art_gallery_env.files import atomic_write_bytes

from .config import TrainConfig, WarmStartConfig, fold_variant_keys
from .warm_start_vector import COLLECTOR, compiled_collect, compiled_engine

DATA_FILE = "bc_data.npz"
FOLDER = "warm_start"


class _Recorder:
    """Plays as ``agent`` and writes down what it saw and chose. With ``explore`` > 0 it
    plays a random legal action that often instead (still recording the teacher's
    choice), so the data also covers states the teacher itself would not reach: a clone
    that errs once is then not lost (noise injection, as in DART). With a ``student`` it
    always plays the student's action and records the teacher's (DAgger)."""

    def __init__(
        self,
        agent: Agent,
        seat: int,
        rows: list[tuple],
        explore: float,
        rng: random.Random,
        student: Agent | None = None,
    ) -> None:
        self.agent, self.seat, self.rows = agent, seat, rows
        self.explore, self.rng, self.student = explore, rng, student

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any) -> int:
        action = int(self.agent.act(observation, action_mask, view))
        self.rows.append(
            (
                observation.astype(np.float16),
                action_mask.astype(bool),
                action,
                self.seat,
                self.student is not None,
            )
        )
        if self.student is not None:
            return int(self.student.act(observation, action_mask, view))
        if self.explore > 0 and self.rng.random() < self.explore:
            return self.rng.choice(np.flatnonzero(action_mask).tolist())
        return action


def collect(
    teacher: str,
    sizes: Sequence[int],
    games: int,
    seed: int = 0,
    reward_mode: str = "score_margin",
    variants: dict[str, Any] | None = None,
    explore: float = 0.0,
    student: Agent | None = None,
    game: str | None = None,
) -> dict[str, np.ndarray]:
    """``games`` games of ``game`` (None: the default game) at each table size, one row
    per decision, labelled by the teacher. Without a ``student`` the teacher plays every
    seat; with one, the student plays seat ``game % size`` (``student`` marks its rows)."""
    spec = get_game(game)
    rewards_of = spec.final_rewards or final_rewards
    obs, masks, actions, values, game_ids, players, by_student = [], [], [], [], [], [], []
    game_id = 0
    for n in sizes:
        for g in range(games):
            rows: list[tuple] = []
            agents = []
            for seat in range(n):
                agent = make_agent(teacher, derive_seed(seed, n, g, seat), game=spec.name)
                agent.reset(derive_seed(seed, n, g, seat, "reset"))
                rng = random.Random(derive_seed(seed, n, g, seat, "explore"))
                plays = student if seat == g % n else None
                agents.append(_Recorder(agent, seat, rows, explore, rng, plays))
            state = spec.setup(n, derive_seed(seed, n, g), variants)
            result = play_game(state, agents, spec.make_observer(state))
            rewards = rewards_of(result.breakdown, reward_mode)
            for o, m, a, seat, is_student in rows:
                obs.append(o)
                masks.append(m)
                actions.append(a)
                values.append(rewards[seat])
                by_student.append(is_student)
            game_ids.extend([game_id] * len(rows))
            players.extend([n] * len(rows))
            game_id += 1
    return {
        "obs": np.stack(obs),
        "mask": np.stack(masks),
        "action": np.asarray(actions, dtype=np.int64),
        "value": np.asarray(values, dtype=np.float32),
        "game": np.asarray(game_ids, dtype=np.int64),
        "players": np.asarray(players, dtype=np.int64),
        "student": np.asarray(by_student, dtype=bool),
    }


def cache_key(config: TrainConfig) -> dict[str, Any]:
    """What the teacher's dataset depends on: a cached one is reused only if it matches."""
    ws = config.warm_start
    assert ws is not None
    return {
        "game": config.env.game,
        "teacher": ws.teacher,
        "games": ws.bc_games,
        "sizes": config.env.table_sizes,
        "seed": config.seed,
        "reward_mode": config.env.reward_mode,
        "variants": get_game(config.env.game).check_variants(config.env.variants),
        "explore": ws.explore,
        "collector": _collector(config),
    }


def _collector(config: TrainConfig) -> str:
    """Which loop plays the teacher's games: the compiled engine where it has the teacher
    (:mod:`.warm_start_vector`), else the arena's Python loop."""
    ws = config.warm_start
    assert ws is not None
    spec = get_game(config.env.game)
    return COLLECTOR if compiled_engine(spec, ws.teacher) is not None else "python"


def read_cache_key(key: dict[str, Any]) -> dict[str, Any]:
    """A cached dataset's key as :func:`cache_key` writes it. Caches written before games
    were named hold no ``game`` (they are the default game's) and keep each variant as a
    key of its own, as configs did."""
    key = {"game": default_game().name, **key}
    key = fold_variant_keys(key)
    spec: GameSpec = get_game(key["game"])
    key["variants"] = spec.check_variants(key.get("variants"))
    return key


def load_or_collect(run_dir: Path, config: TrainConfig) -> dict[str, np.ndarray]:
    """The cached dataset of this run folder if it was made with the same settings, else
    a new one (saved atomically before it is used)."""
    ws = config.warm_start
    assert ws is not None
    key = cache_key(config)
    path = run_dir / FOLDER / DATA_FILE
    if path.is_file():
        with np.load(path) as cached:
            if _same_key(str(cached["key"]), key):
                print(f"warm start: reusing {path} ({len(cached['action']):,} decisions)")
                data = {k: cached[k] for k in cached.files if k != "key"}
                # caches written before DAgger lack the column; the teacher played them all
                data.setdefault("student", np.zeros(len(data["action"]), dtype=bool))
                return data
    start = time.time()
    args = (ws.teacher, key["sizes"], ws.bc_games, config.seed, key["reward_mode"])
    if key["collector"] == COLLECTOR:
        spec = get_game(key["game"])
        data = compiled_collect(spec, *args, key["variants"], ws.explore)
        assert data is not None  # _collector found the compiled teacher
    else:
        data = collect(*args, key["variants"], ws.explore, game=key["game"])
    buffer = io.BytesIO()
    np.savez(buffer, key=np.asarray(json.dumps(key)), **data)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buffer.getvalue())
    print(
        f"warm start: {len(data['action']):,} decisions of {ws.teacher} in "
        f"{ws.bc_games} games x sizes {key['sizes']}, {key['collector']} "
        f"({time.time() - start:.0f} s)",
        flush=True,
    )
    return data


def _same_key(text: str, key: dict[str, Any]) -> bool:
    """Whether a cache's stored key (JSON) is ``key`` (a key that cannot be read is not)."""
    try:
        stored = json.loads(text)
        # a cache from before the compiled collector: the teacher's games all the same
        stored.setdefault("collector", key["collector"])
        return read_cache_key(stored) == key
    except (ValueError, TypeError, KeyError):
        return False


def split(data: dict[str, np.ndarray], holdout: float, seed: int = 0) -> tuple[dict, dict]:
    """Train and held-out rows, split by whole games (rows of one game are correlated)."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    count = int(round(len(games) * holdout))
    if holdout > 0 and len(games) > 1:
        count = min(max(count, 1), len(games) - 1)  # at least one game each side
    held = rng.choice(games, size=count, replace=False)
    is_held = np.isin(data["game"], held)
    return (
        {k: v[~is_held] for k, v in data.items()},
        {k: v[is_held] for k, v in data.items()},
    )


def agreement(policy: Any, data: dict[str, np.ndarray], batch: int = 2048) -> float:
    """Share of rows where the policy's most likely legal action is the teacher's."""
    import torch

    if len(data["action"]) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for i in range(0, len(data["action"]), batch):
            obs = torch.as_tensor(data["obs"][i : i + batch], dtype=torch.float32)
            greedy = policy.get_distribution(obs, data["mask"][i : i + batch]).mode()
            hits += int((greedy.numpy() == data["action"][i : i + batch]).sum())
    return hits / len(data["action"])


def clone(
    policy: Any,
    data: dict[str, np.ndarray],
    ws: WarmStartConfig,
    seed: int = 0,
    epochs: int | None = None,
    held_out: dict[str, np.ndarray] | None = None,
    critic_only: bool = False,
) -> dict[str, float]:
    """Train ``policy`` (in place) on the teacher's decisions, ``epochs`` times over them
    (default ``ws.epochs``); returns the losses and the held-out agreement before and
    after. ``data`` is split into training and held-out games by :func:`split`, unless
    ``held_out`` is given: then all of ``data`` trains. ``critic_only`` trains just the
    value head (a loaded actor, ``warm_start.init``, stays as it is)."""
    import torch

    epochs = ws.epochs if epochs is None else epochs
    train, held = split(data, ws.holdout, seed) if held_out is None else (data, held_out)
    before = agreement(policy, held)
    params = list(_critic_parameters(policy) if critic_only else policy.parameters())
    actor_weight = 0.0 if critic_only else 1.0
    optimizer = torch.optim.Adam(params, lr=ws.learning_rate)
    generator = torch.Generator().manual_seed(seed)
    rows = len(train["action"])
    ce = mse = 0.0
    for epoch in range(epochs):
        start = time.time()
        order = torch.randperm(rows, generator=generator).numpy()
        ce_sum = mse_sum = 0.0
        for i in range(0, rows, ws.batch_size):
            idx = np.sort(order[i : i + ws.batch_size])
            obs = torch.as_tensor(train["obs"][idx], dtype=torch.float32)
            # sb3-contrib's masked forward pass, the one PPO trains through
            values, log_prob, _ = policy.evaluate_actions(
                obs, torch.as_tensor(train["action"][idx]), train["mask"][idx]
            )
            ce_loss = -log_prob.mean()
            mse_loss = torch.nn.functional.mse_loss(
                values.flatten(), torch.as_tensor(train["value"][idx])
            )
            optimizer.zero_grad()
            (actor_weight * ce_loss + 0.5 * mse_loss).backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            ce_sum += ce_loss.item() * len(idx)
            mse_sum += mse_loss.item() * len(idx)
        ce, mse = ce_sum / rows, mse_sum / rows
        print(
            f"warm start: epoch {epoch + 1}/{epochs} cross-entropy {ce:.3f} "
            f"value mse {mse:.3f} ({time.time() - start:.0f} s)",
            flush=True,
        )
    after = agreement(policy, held)
    print(f"warm start: held-out agreement with {ws.teacher} {before:.1%} -> {after:.1%}")
    return {
        "rows": rows,
        "cross_entropy": ce,
        "value_mse": mse,
        "agreement_before": before,
        "agreement_after": after,
    }


def _critic_parameters(policy: Any) -> list[Any]:
    """The value head of an SB3 ``MlpPolicy`` (its own MLP and output layer)."""
    return [*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()]


def _student(model: Any, game: str) -> Agent:
    """The current clone as a greedy agent (a numpy copy of the actor: plays fast, and
    training the torch net does not change it mid-game)."""
    from art_gallery_env.agents.model_policy import policy_of_model
    from art_gallery_env.agents.policy import PolicyAgent

    actor = policy_of_model(model, {"name": "clone", "game": game}, critic=False)
    return PolicyAgent(actor)


def _concat(data: dict[str, np.ndarray], more: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([data[k], more[k]]) for k in data}


def dagger(
    model: Any, train: dict[str, np.ndarray], held: dict[str, np.ndarray], config: TrainConfig
) -> list[dict]:
    """DAgger rounds after the first clone (module docstring, step 3), from its training
    and held-out games; per round the clone's agreement with the teacher on the clone's
    own decisions before it trains on them, and the cloning stats after. The held-out
    games stay held out in every round (the first clone's, plus a share of each
    round's), so the agreements compare."""
    ws = config.warm_start
    assert ws is not None
    next_game = int(np.concatenate([train["game"], held["game"]]).max()) + 1
    rounds = []
    for r in range(ws.dagger_rounds):
        start = time.time()
        more = collect(
            ws.teacher,
            config.env.table_sizes,
            ws.dagger_games,
            derive_seed(config.seed, "dagger", r),
            config.env.reward_mode,
            config.env.variants,
            ws.explore,
            student=_student(model, config.env.game),
            game=config.env.game,
        )
        own = {k: v[more["student"]] for k, v in more.items()}
        on_own_states = agreement(model.policy, own)
        print(
            f"warm start: DAgger round {r + 1}/{ws.dagger_rounds}: "
            f"{len(more['action']):,} decisions ({len(own['action']):,} the clone's) in "
            f"{time.time() - start:.0f} s; the clone agrees with {ws.teacher} on "
            f"{on_own_states:.1%} of its own",
            flush=True,
        )
        more["game"] += next_game  # game ids stay unique
        next_game = int(more["game"].max()) + 1
        more_train, more_held = split(more, ws.holdout, config.seed)
        train, held = _concat(train, more_train), _concat(held, more_held)
        stats = clone(model.policy, train, ws, config.seed, ws.dagger_epochs, held)
        rounds.append({"agreement_on_own_states": on_own_states, **stats})
    return rounds


def warm_start(model: Any, run_dir: Path, config: TrainConfig) -> dict[str, Any]:
    """Collect (or reuse) the teacher's games, clone them into ``model.policy``, then run
    the DAgger rounds if the config asks for them. With ``warm_start.init`` the actor is
    that checkpoint's instead, and the games train only the critic."""
    assert config.warm_start is not None
    ws = config.warm_start
    train, held = split(load_or_collect(run_dir, config), ws.holdout, config.seed)
    if ws.init is not None:
        from art_gallery_env.agents.model_policy import load_mlp_actor
        from art_gallery_env.agents.policy_format import load_weights

        load_mlp_actor(model, load_weights(ws.init))
        print(f"warm start: the actor is {ws.init}; the teacher's games train the critic")
    model.policy.set_training_mode(True)
    stats: dict[str, Any] = clone(
        model.policy, train, ws, config.seed, held_out=held, critic_only=ws.init is not None
    )
    if ws.dagger_rounds:
        stats["dagger"] = dagger(model, train, held, config)
    model.policy.set_training_mode(False)
    return stats
