"""Self-play on the compiled engine: one SB3 ``VecEnv`` playing many games in this process.

The same env as :class:`~art_gallery_env.training.selfplay.SelfPlayEnv` (one learner seat
per game, rotating every episode; the other seats played inside the env by opponents from
the same :class:`~art_gallery_env.training.selfplay.OpponentPool`; the learner's own final
reward at the end), but the games are rows of the game's compiled engine (the module of
its ``vector`` capability, ``GameSpec.extension("vector")``: Art Gallery's is
:class:`~art_gallery_env.games.art_gallery.vector.VectorGame`) and the opponents move for all
waiting games
at once:

- a learner snapshot (a :class:`~art_gallery_env.agents.policy.PolicyAgent`): one batched
  forward pass of its MLP over every game whose current seat it plays;
- random: the engine's compiled ``random_actions`` (a uniform legal action);
- an agent the engine has a compiled twin of (``VectorGame.plays_compiled``: Art Gallery's
  heuristic): one ``compiled_actions`` call for every game whose current seat it plays
  (the same decisions; exact ties drawn from the engine's action streams);
- anything else: game by game in Python, through ``to_state`` and the view of the game's
  seat observer (``GameSpec.make_observer``; slow but the same agent).

A list of table sizes gets one VectorGame per size; the ``n_envs`` slots are split
between them in proportion to the weights (a fixed split, not a per-episode draw).
sb3-contrib's MaskablePPO reads the masks with ``env_method("action_masks")`` after
checking ``has_attr("action_masks")`` (``sb3_contrib.common.maskable.utils``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.policy import MLPPolicy, PolicyAgent
from art_gallery_env.agents.policy_entity import EntityPolicy
from art_gallery_env.agents.random_agent import RandomAgent
from art_gallery_env.core.registry import get_game

from .selfplay import OpponentPool

LEARNER = -1  # the agent index of the learner's seat
RANDOM, POLICY, PYTHON, COMPILED = 0, 1, 2, 3  # how an opponent agent is played


def split_slots(n_envs: int, sizes: Sequence[int], weights: Sequence[float]) -> dict[int, int]:
    """Slots per table size, proportional to ``weights`` (largest remainders); every size
    with a positive weight gets at least one slot, sizes with weight 0 get none."""
    used = [(s, w) for s, w in zip(sizes, weights) if w > 0]
    if n_envs < len(used):
        raise ValueError(
            f"n_envs {n_envs} is too small for {len(used)} table sizes "
            f"{[s for s, _ in used]}: each needs at least one env slot"
        )
    total = sum(w for _, w in used)
    shares = np.array([n_envs * w / total for _, w in used])
    counts = np.maximum(1, np.floor(shares)).astype(int)
    while counts.sum() < n_envs:  # to the size furthest below its share
        counts[np.argmax(shares - counts)] += 1
    while counts.sum() > n_envs:  # (the minimum of 1 overshot) from the furthest above
        counts[np.argmax(np.where(counts > 1, counts - shares, -np.inf))] -= 1
    return {s: int(c) for (s, _), c in zip(used, counts)}


class _BatchedPolicy:
    """A snapshot's MLP (:class:`~art_gallery_env.agents.policy_format.MLPPolicy`, the
    layers PolicyAgent multiplies in numpy) run by torch for many games at once: numpy's
    OpenBLAS starts its own threads for a matrix product, and on a loaded 2-core machine
    64 rows took 15-115 ms that way against 1.5-3 ms in torch on the trainer's threads."""

    def __init__(self, policy: MLPPolicy) -> None:
        import torch

        self._torch = torch
        self.layers = [(torch.from_numpy(w), torch.from_numpy(b)) for w, b in policy.layers]
        activation = policy.meta["activation"]
        self.activation = {"tanh": torch.tanh, "relu": torch.relu}.get(activation, lambda x: x)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        torch, last = self._torch, len(self.layers) - 1
        with torch.inference_mode():  # no autograd bookkeeping: the same numbers
            x = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32))
            for i, (weight, bias) in enumerate(self.layers):
                x = torch.nn.functional.linear(x, weight, bias)
                if i < last:
                    x = self.activation(x)
        return x.numpy()


class _BatchedEntity:
    """A snapshot's entity network (:class:`~art_gallery_env.agents.policy_entity.EntityPolicy`)
    rebuilt in torch from its tensors, for many games at once, as :class:`_BatchedPolicy`."""

    def __init__(self, policy: EntityPolicy) -> None:
        from .networks import EntityNet

        self.net = EntityNet.from_tensors(policy.t, policy.meta)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        import torch

        with torch.inference_mode():  # no autograd bookkeeping: the same numbers
            x = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32))
            return self.net.logits(x).numpy()


class _Table:
    """One VectorGame (one table size) and what the env tracks per game slot."""

    def __init__(self, vector_game: Any, first: int) -> None:
        self.game = vector_game
        b, n = vector_game.num_envs, vector_game.num_players
        self.rows = slice(first, first + b)
        self.learner = np.zeros(b, dtype=np.int64)  # the learner's seat in each game
        self.episodes = np.zeros(b, dtype=np.int64)  # episodes started per slot
        self.seat_agent = np.full((b, n), LEARNER, dtype=np.int64)  # agent index per seat
        self.reward = np.zeros(b, dtype=np.float32)  # the learner's reward once over
        self.won = np.zeros(b, dtype=np.bool_)
        self.score = np.zeros(b, dtype=np.int64)
        # for the engine's play_seats: how it plays each seat, and the compiled agents'
        # parameter rows (agent index -> row of params)
        self.seat_kind = np.zeros((b, n), dtype=np.int64)
        self.seat_params = np.zeros((b, n), dtype=np.int64)
        self.python_seat = np.zeros((b, n), dtype=np.bool_)  # played by _choose's loop
        self.param_row: dict[int, int] = {}
        self.params = np.zeros((0, 0), dtype=np.float64)  # (agents, values) once one plays


class VectorSelfPlayEnv(VecEnv):
    """``n_envs`` self-play games for MaskablePPO on the compiled engine (module docs)."""

    def __init__(
        self,
        n_envs: int,
        num_players: int | Sequence[int] = 2,
        pool: OpponentPool | None = None,
        *,
        player_weights: Sequence[float] | None = None,
        variants: dict[str, Any] | None = None,
        reward_mode: str = "score_margin",
        seed: int | None = None,
        threads: int | None = None,
        game: str | None = None,
    ) -> None:
        spec = get_game(game)
        spec.require("vector", "VectorSelfPlayEnv")
        engine = spec.extension("vector")  # the game's compiled engine (needs numba)
        variants = spec.check_variants(variants)
        sizes = [num_players] if isinstance(num_players, int) else list(num_players)
        weights = list(player_weights) if player_weights is not None else [1.0] * len(sizes)
        if len(weights) != len(sizes):
            raise ValueError(f"{len(weights)} player_weights for table sizes {sizes}")
        self.game_spec = spec  # (not "spec": VecMonitor reads that as a gymnasium EnvSpec)
        self._plays_compiled = getattr(engine.VectorGame, "plays_compiled", None)
        self.num_actions = spec.num_actions
        self.observation_size = spec.observation_size
        super().__init__(
            n_envs,
            spec.observation_box(),
            gym.spaces.Discrete(self.num_actions),
        )
        self.pool = pool or OpponentPool({"random": 1.0}, seed=seed, game=spec.name)
        self.reward_mode = reward_mode
        self.tables: list[_Table] = []
        first = 0
        for size, count in split_slots(n_envs, sizes, weights).items():
            vector_game = engine.VectorGame(
                count,
                size,
                seed=None,
                auto_reset=False,
                reward_mode=reward_mode,
                threads=threads,
                **variants,
            )
            self.tables.append(_Table(vector_game, first))
            first += count
        self._seeds[0] = seed  # the first reset() deals from it
        self._agents: list[Agent | None] = []
        self._agent_index: dict[int, int] = {}
        self._agent_kind: list[int] = []
        self._batched: dict[int, _BatchedPolicy | _BatchedEntity] = {}
        self._seats: Any = None  # the game's seat observer, made from the first state
        self._masks = np.zeros((n_envs, self.num_actions), dtype=np.bool_)
        self._scratch_obs = {
            t.game.num_players: np.zeros((t.game.num_envs, self.observation_size), np.float32)
            for t in self.tables
        }
        self._scratch_mask = {
            t.game.num_players: np.zeros((t.game.num_envs, self.num_actions), np.bool_)
            for t in self.tables
        }
        self._actions: np.ndarray | None = None
        self._seed_rng = np.random.default_rng(seed)
        self.compiled_rounds = hasattr(engine.VectorGame, "play_seats")
        """Whether the opponents' random and compiled seats play in the engine's
        ``play_seats`` (the same games, fewer calls: see _play_opponents); False plays
        every round of decisions from Python, as before (benchmarks/vector_training.py)."""

    # -- the VecEnv API ----------------------------------------------------------------
    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            self.pool.reseed(seed)
        obs = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        for k, table in enumerate(self.tables):
            game = table.game
            game.reset(None if seed is None else seed * 8 + k)
            table.episodes[:] = 0
            everything = np.ones(game.num_envs, dtype=np.bool_)
            self._new_episodes(table, everything)
            self._observe_learner(table, obs)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        actions, self._actions = self._actions, None
        if actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        self._check_legal(actions)
        obs = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for table in self.tables:
            self._step_table(table, actions[table.rows], obs, rewards, dones, infos)
        return obs, rewards, dones, infos

    def _check_legal(self, actions: np.ndarray) -> None:
        """Before any table moves: an illegal action raises the engine's error (naming the
        game and its legal actions) and leaves every game as it was."""
        last = self.num_actions - 1
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be ints in 0..{last}, got {actions.dtype}")
        inside = (actions >= 0) & (actions <= last)
        legal = inside & self._masks[np.arange(self.num_envs), np.where(inside, actions, 0)]
        if legal.all():
            return
        bad = int(np.argmin(legal))
        for table in self.tables:
            if table.rows.start <= bad < table.rows.stop:
                table.game.step(actions[table.rows])  # raises, applying nothing
        raise AssertionError("the engine accepted an action the mask refuses")

    def action_masks(self) -> np.ndarray:
        """(n_envs, actions) bool: each game's legal actions for its learner seat."""
        return self._masks.copy()

    def close(self) -> None:
        for table in self.tables:
            table.game.close()

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":  # VecEnv.__init__ asks before anything is set up
            return [None for _ in self._get_indices(indices)]
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives one row per env (what MaskablePPO stacks); another
        method is called once and its result repeated per env."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[rows])
        result = getattr(self, method_name)(*method_args, **kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    # -- episodes --------------------------------------------------------------------
    def _step_table(
        self,
        table: _Table,
        actions: np.ndarray,
        obs: np.ndarray,
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        game = table.game
        self._record_ends(table, *game.step(actions))  # an illegal action raises here
        self._play_opponents(table)
        ended = game.done.copy()
        if ended.any():
            terminal = game.observe(table.learner, active=ended)
            for i in np.flatnonzero(ended):
                row = table.rows.start + int(i)
                rewards[row] = table.reward[i]
                dones[row] = True
                infos[row] = {
                    "terminal_observation": terminal[i],
                    "learner_seat": int(table.learner[i]),
                    "won": bool(table.won[i]),
                    "score": int(table.score[i]),
                    "table_size": game.num_players,
                }
            self._new_episodes(table, ended)
        self._observe_learner(table, obs)

    def _new_episodes(self, table: _Table, which: np.ndarray) -> None:
        """Deal new games in the slots ``which``, seat the learner and draw opponents
        (as SingleAgentEnv.reset), and play up to the learner's first decision."""
        game, n = table.game, table.game.num_players
        game.reset_games(which)
        for i in np.flatnonzero(which):
            learner = int((table.episodes[i] + i) % n)  # rotating, offset per slot
            table.episodes[i] += 1
            table.learner[i] = learner
            table.seat_agent[i, learner] = LEARNER
            table.python_seat[i, learner] = False
            seats = [(learner + k) % n for k in range(1, n)]
            episode_seed = int(self._seed_rng.integers(2**62))
            for k, (seat, agent) in enumerate(zip(seats, self.pool.sample(n - 1))):
                index = self._index_of(agent)
                table.seat_agent[i, seat] = index
                self._seat_for_engine(table, i, seat, index)
                if self._agent_kind[index] != RANDOM:
                    agent.reset(episode_seed + k)
        table.reward[which] = 0.0
        self._play_opponents(table)
        if game.done.any():
            raise RuntimeError("a game ended before the learner's first decision")

    def _seat_for_engine(self, table: _Table, i: int, seat: int, index: int) -> None:
        """How the engine's ``play_seats`` plays seat ``seat`` of game ``i`` (agent
        ``index``): random, compiled (with the agent's parameter row) or by this env."""
        kind = self._agent_kind[index]
        table.python_seat[i, seat] = kind == PYTHON
        game = table.game
        if not hasattr(game, "play_seats"):
            return
        if kind == RANDOM:
            table.seat_kind[i, seat] = game.SEAT_RANDOM
        elif kind == COMPILED:
            row = table.param_row.get(index)
            if row is None:
                values = game.compiled_params(self._agents[index])
                params = table.params.reshape(-1, len(values))
                row = table.param_row[index] = len(params)
                table.params = np.vstack([params, values])
            table.seat_kind[i, seat] = game.SEAT_COMPILED
            table.seat_params[i, seat] = row
        else:
            table.seat_kind[i, seat] = game.SEAT_CALLER

    def _index_of(self, agent: Agent) -> int:
        index = self._agent_index.get(id(agent))
        if index is None or self._agents[index] is not agent:
            self._forget_unseated()
            index = len(self._agents)
            self._agents.append(agent)
            self._agent_index[id(agent)] = index
            if isinstance(agent, RandomAgent):
                kind = RANDOM
            elif (
                isinstance(agent, PolicyAgent)
                and agent.deterministic
                and type(agent.policy) in (MLPPolicy, EntityPolicy)
            ):
                kind = POLICY  # the pool's snapshots: masked argmax, batched
                batched = _BatchedPolicy if type(agent.policy) is MLPPolicy else _BatchedEntity
                self._batched[index] = batched(agent.policy)
            elif self._plays_compiled is not None and self._plays_compiled(agent):
                kind = COMPILED  # the engine plays it: all its games in one call
            else:
                kind = PYTHON
            self._agent_kind.append(kind)
        return index

    def _forget_unseated(self) -> None:
        """Drop agents no game seats any more (snapshots the pool replaced), so a long
        run does not keep every snapshot it ever played in memory."""
        seated = set(np.unique(np.concatenate([t.seat_agent.ravel() for t in self.tables])))
        for index, agent in enumerate(self._agents):
            if agent is not None and index not in seated and self._agent_kind[index] == POLICY:
                self._agents[index] = None
                self._batched.pop(index, None)
                if self._agent_index.get(id(agent)) == index:
                    del self._agent_index[id(agent)]

    def _observe_learner(self, table: _Table, obs: np.ndarray) -> None:
        table.game.observe(table.learner, out=obs[table.rows])
        table.game.legal_mask(out=self._masks[table.rows])

    def _record_ends(self, table: _Table, rewards: np.ndarray, dones: np.ndarray) -> None:
        """Keep the learner's reward, rank and score of games that ended in a step."""
        for i in np.flatnonzero(dones):
            seat = int(table.learner[i])
            table.reward[i] = rewards[i, seat]
            table.won[i] = table.game.final_ranks(int(i))[seat] == 1
            table.score[i] = table.game.final_scores[i, seat]

    # -- opponents -------------------------------------------------------------------
    def _play_opponents(self, table: _Table) -> None:
        """Opponents move, all waiting games at once, until every game is over or at
        its learner's turn.

        The rule (what the Python loop of ``_play_rounds`` does): rounds, each of which
        draws ``random_actions`` for every game that is not over and then moves every game
        waiting for an opponent one decision; until no game waits. ``_play_seats`` gives
        the same games with fewer calls (tests/training/test_vector_env_rounds.py)."""
        if self.compiled_rounds and not table.python_seat.any():
            self._play_seats(table)
        else:
            self._play_rounds(table)

    def _play_seats(self, table: _Table) -> None:
        """The engine plays the random and compiled seats of each game on to its next
        learner or snapshot decision in one call; the snapshots then move every game that
        waits for one (one forward pass per snapshot), and so on. A game's action stream
        sees what the rounds did: one draw per decision, then one per round it waited at
        its learner's turn (``skip_draws``: as many rounds as the game that made the most
        decisions), the games being independent of each other otherwise."""
        game, n = table.game, table.game.num_players
        obs_buffer, mask_buffer = self._scratch_obs[n], self._scratch_mask[n]
        decisions = np.zeros(game.num_envs, dtype=np.int64)
        slots = np.arange(game.num_envs)
        actions = np.zeros(game.num_envs, dtype=np.int64)
        while True:
            rewards, dones, need = game.play_seats(
                table.learner, table.seat_kind, table.seat_params, table.params, decisions
            )
            self._record_ends(table, rewards, dones)
            if not need.any():
                break
            who = np.where(need, table.seat_agent[slots, game.current_player], LEARNER)
            game.legal_mask(out=mask_buffer, active=need)
            game.observe(out=obs_buffer, active=need)
            for index in np.unique(who[need]):
                rows = np.flatnonzero(who == index)
                actions[rows] = self._choose(
                    self._agents[index], table, rows, obs_buffer[rows], mask_buffer[rows]
                )
            self._record_ends(table, *game.step(actions, active=need))
        game.skip_draws(np.where(game.done, 0, decisions.max() - decisions))

    def _play_rounds(self, table: _Table) -> None:
        """_play_opponents round by round from Python (any agent)."""
        game, n = table.game, table.game.num_players
        slots = np.arange(game.num_envs)
        obs_buffer, mask_buffer = self._scratch_obs[n], self._scratch_mask[n]
        while True:
            current = game.current_player
            waiting = (current != table.learner) & ~game.done
            if not waiting.any():
                return
            who = np.where(waiting, table.seat_agent[slots, current], LEARNER)
            kinds = np.array(self._agent_kind + [RANDOM], dtype=np.int64)[who]
            actions = game.random_actions()  # used by the games random opponents play
            compiled = waiting & (kinds == COMPILED)
            for index in np.unique(who[compiled]):
                rows = compiled & (who == index)
                actions[rows] = game.compiled_actions(self._agents[index], rows)[rows]
            needs_inputs = waiting & (kinds != RANDOM) & (kinds != COMPILED)
            if needs_inputs.any():
                game.legal_mask(out=mask_buffer, active=needs_inputs)
                game.observe(out=obs_buffer, active=needs_inputs)
                for index in np.unique(who[needs_inputs]):
                    rows = np.flatnonzero(needs_inputs & (who == index))
                    actions[rows] = self._choose(
                        self._agents[index], table, rows, obs_buffer[rows], mask_buffer[rows]
                    )
            self._record_ends(table, *game.step(actions, active=waiting))

    def _choose(
        self, agent: Agent, table: _Table, rows: np.ndarray, obs: np.ndarray, masks: np.ndarray
    ) -> np.ndarray | list[int]:
        """One agent's actions for the games ``rows`` (their current seats are its)."""
        batched = self._batched.get(self._agent_index[id(agent)])
        if batched is not None:
            # PolicyAgent.act for every row at once: the masked argmax of the logits
            logits = batched.logits(obs).astype(np.float64)
            return np.argmax(np.where(masks, logits, -np.inf), axis=1)
        chosen = []
        for i, observation, mask in zip(rows, obs, masks):
            state = table.game.to_state(int(i))
            if self._seats is None:
                self._seats = self.game_spec.make_observer(state)
            view = self._seats.view(state, state.current_player)
            chosen.append(agent.act(observation, mask.astype(np.int8), view))
        return chosen
