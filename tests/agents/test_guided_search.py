"""The search guided by a network (agents/guided_search.py, agent spec ``search:ckpt=...``):
legal play, seeded determinism, budget limits, priors that steer, the two value paths, the
SearchResult interface expert iteration uses, and the tools that play it."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest
from agent_test_helpers import mid_round_state, twin_state

from art_gallery_env.agents.guided_search import (
    WIN_SHARE,
    GuidedSearch,
    GuidedSearchAgent,
    SearchResult,
    value_kind,
)
from art_gallery_env.agents.policy import load_policy
from art_gallery_env.agents.policy_format import save_network_weights
from art_gallery_env.agents.registry import (
    MAX_SEARCH_ITERS,
    agent_spec_problem,
    cap_search_seconds,
    make_agent,
    search_seconds,
)
from art_gallery_env.arena.loop import AgentError, play_game
from art_gallery_env.core.registry import get_game
from art_gallery_env.core.view import PlayerView

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "checkpoints" / "quick.safetensors"  # an entity net (art_gallery)
PPO_2P = ROOT / "checkpoints" / "ppo_2p.safetensors"  # an MLP, no value head
GALLERIST = ROOT / "checkpoints" / "gallerist_2p.safetensors"
NUM_ACTIONS = get_game("art_gallery").num_actions


class StubNet:
    """Logits that favour ``favour`` (0 elsewhere) and a constant value; counts calls."""

    def __init__(self, favour: int | None = None, value: float = 0.5, boost: float = 8.0):
        self.favour, self.value, self.boost = favour, value, boost
        self.logit_rows: list[int] = []
        self.value_rows: list[int] = []

    def logits(self, obs: np.ndarray) -> np.ndarray:
        self.logit_rows.append(len(obs))
        out = np.zeros((len(obs), NUM_ACTIONS), np.float32)
        if self.favour is not None:
            out[:, self.favour] = self.boost
        return out

    def values(self, obs: np.ndarray) -> np.ndarray:
        self.value_rows.append(len(obs))
        return np.full(len(obs), self.value, np.float32)


def _view(num_players: int = 2, seed: int = 5):
    state = mid_round_state(num_players, seed)
    return state, PlayerView(state, state.current_player)


def _inputs(state):
    return get_game("art_gallery").make_observer(state).inputs(state, state.current_player)


@pytest.fixture(scope="module")
def win_share_ckpt(tmp_path_factory) -> Path:
    """quick.safetensors re-saved with meta value_kind win_share (what expert iteration
    writes): the same weights, so only the value path changes."""
    policy = load_policy(QUICK)
    path = tmp_path_factory.mktemp("ckpt") / "win_share.safetensors"
    save_network_weights(policy.t, {**policy.meta, "value_kind": WIN_SHARE}, path)
    return path


# -- the interface ----------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "iters", "batch"), [(2, 13, 8), (4, 12, 1), (3, 9, 4)])
def test_search_result_visits_sum_to_the_iterations_of_legal_own_actions(
    num_players: int, iters: int, batch: int
) -> None:
    state, view = _view(num_players, seed=num_players)
    net = load_policy(QUICK)
    search = GuidedSearch(net, game="art_gallery", iters=iters, batch=batch, seed=3)
    result = search.run(view)
    assert isinstance(result, SearchResult)
    assert result.visits.shape == (NUM_ACTIONS,) and result.visits.dtype == np.float64
    assert result.visits.sum() == iters == result.iterations
    legal = state.legal_actions()
    assert set(np.flatnonzero(result.visits)) <= set(legal)
    assert result.action in legal and result.visits[result.action] == result.visits.max()
    assert result.values.shape == (num_players,)
    assert np.all((result.values >= 0) & (result.values <= 1))
    assert result.priors is not None and abs(result.priors[legal].sum() - 1) < 1e-9


def test_the_network_is_called_once_per_batch_with_every_seats_observation() -> None:
    """Value from the net: one logits call per batch (K leaves; the root's call first) and
    one values call with N observations per leaf; the root value is the net's value. The
    second batch's call holds the leaves alone by default; with ``prior_samples`` > 1 also
    the further worlds of the nodes its walks passed (their priors' running mean)."""
    _, view = _view(3, seed=2)
    net = StubNet(value=0.7)
    result = GuidedSearch(net, game="art_gallery", iters=16, batch=8, seed=1).run(view)
    assert net.logit_rows == [1, 8, 8]
    assert net.value_rows == [24, 24]  # 8 leaves x 3 seats
    assert np.allclose(result.values, 0.7)
    net = StubNet(value=0.7)
    GuidedSearch(net, game="art_gallery", iters=16, batch=8, seed=1, prior_samples=8).run(view)
    assert len(net.logit_rows) == 3 and net.logit_rows[:2] == [1, 8]
    assert 8 < net.logit_rows[2] <= 8 + 8 * 8  # a walk adds a world per node it passes
    assert net.value_rows == [24, 24]


def test_rollout_values_never_ask_the_value_head() -> None:
    _, view = _view(2, seed=2)
    net = StubNet(value=2.0)  # out of [0, 1]: any use would show in the values
    search = GuidedSearch(net, game="art_gallery", iters=8, batch=4, seed=1, value_from_net=False)
    result = search.run(view)
    assert net.value_rows == [] and search.rollout == "heuristic"  # the game's default
    assert np.all((result.values >= 0) & (result.values <= 1))
    assert abs(result.values.sum() - 1) < 0.5  # evaluator win chances, not the stub's 2.0


def _play_out_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the games of each call of the game's compiled play-out (through its spec)."""
    engine = get_game("art_gallery").extension("vector")
    calls: list[int] = []
    original = engine.VectorGame.play_out

    def counting(game, *args, **kwargs):
        calls.append(game.num_envs)
        return original(game, *args, **kwargs)

    monkeypatch.setattr(engine.VectorGame, "play_out", counting)
    return calls


def test_rollouts_to_the_end_run_on_the_compiled_engine_one_call_a_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """rounds=0 with the heuristic: the batch's unfinished leaves play out in one compiled
    call each, and the values are win shares (1/k for the winners, 0 for the others)."""
    pytest.importorskip("numba")
    calls = _play_out_calls(monkeypatch)
    _, view = _view(4, seed=2)
    net = StubNet()
    search = GuidedSearch(
        net, game="art_gallery", iters=24, batch=8, seed=1, value_from_net=False, rounds=0
    )
    assert search.compiled and search.rollout == "heuristic"
    result = search.run(view)
    assert calls and len(calls) <= 3 and all(1 <= n <= 8 for n in calls)
    assert result.visits.sum() == 24 and net.value_rows == []
    assert abs(result.values.sum() - 1.0) < 1e-9  # every back-up was one game's win shares
    again = GuidedSearch(
        StubNet(), game="art_gallery", iters=24, batch=8, seed=1, value_from_net=False, rounds=0
    ).run(view)
    assert np.array_equal(again.visits, result.visits)  # seeded
    assert np.allclose(again.values, result.values)


@pytest.mark.parametrize(
    "options",
    [{"rounds": 1}, {"rounds": 0, "compiled": False}, {"rounds": 0, "rollout": "heuristic:v1"}],
)
def test_other_rollouts_stay_in_python(options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout to a round end, ``compiled=False`` or a policy the engine's play-out does
    not take (by name, with default parameters) plays in Python, as before."""
    pytest.importorskip("numba")
    calls = _play_out_calls(monkeypatch)
    _, view = _view(2, seed=2)
    search = GuidedSearch(
        StubNet(), game="art_gallery", iters=8, batch=4, seed=1, value_from_net=False, **options
    )
    assert not search.compiled
    search.run(view)
    assert calls == []


def test_the_agent_spec_with_rounds_0_plays_with_compiled_rollouts() -> None:
    pytest.importorskip("numba")
    state, _ = _view(2, seed=7)
    agent = make_agent(f"search:ckpt={QUICK},iters=16,rounds=0", 3)
    assert agent.search.compiled and agent.value_source == "rollout"
    assert agent.act(*_inputs(state)) in state.legal_actions()
    assert abs(sum(agent.explain()["values"]) - 1.0) < 1e-3  # win shares of whole games


# -- the rollout mode (topk) -------------------------------------------------------------
def test_the_rollout_mode_values_the_nets_top_k_with_equal_sweeps() -> None:
    """topk=3: the candidates are the net's 3 most likely legal actions (its argmax first,
    ties by number), each valued by iters // 3 compiled sweeps; the value head is never
    asked; the best mean is played (ties: the net's argmax) and the result is seeded."""
    pytest.importorskip("numba")
    state, view = _view(4, seed=3)
    legal = state.legal_actions()
    net = StubNet(favour=legal[-1])
    search = GuidedSearch(net, game="art_gallery", iters=60, seed=2, topk=3)
    result = search.run(view)
    cands = [legal[-1], legal[0], legal[1]]
    assert sorted(np.flatnonzero(result.visits)) == sorted(cands)
    assert np.all(result.visits[cands] == 20) and result.iterations == 60
    assert sorted(np.flatnonzero(~np.isnan(result.q))) == sorted(cands)
    assert net.value_rows == [] and net.logit_rows == [1]  # the root's priors only
    best = max(result.q[cands])
    assert result.q[result.action] == best
    assert result.action == legal[-1] or result.q[result.action] > result.q[legal[-1]]
    me = state.current_player
    assert result.values[me] == best and np.isnan(np.delete(result.values, me)).all()
    again = GuidedSearch(StubNet(favour=legal[-1]), game="art_gallery", iters=60, seed=2, topk=3)
    assert np.array_equal(again.run(view).q, result.q, equal_nan=True)


def test_a_margin_keeps_the_nets_argmax_and_noise_changes_the_candidates() -> None:
    pytest.importorskip("numba")
    state, view = _view(4, seed=4)
    legal = state.legal_actions()
    net = StubNet(favour=legal[2])
    for seed in range(3):
        search = GuidedSearch(net, game="art_gallery", iters=40, seed=seed, topk=4, margin=1.0)
        assert search.run(view).action == legal[2]  # no mean beats it by more than 1
    clean = set(
        np.flatnonzero(
            GuidedSearch(net, game="art_gallery", iters=8, topk=4, seed=0).run(view).visits
        )
    )
    noisy = [
        set(
            np.flatnonzero(
                GuidedSearch(net, game="art_gallery", iters=8, topk=4, seed=seed, dirichlet=1.0)
                .run(view)
                .visits
            )
        )
        for seed in range(5)
    ]
    assert any(cands != clean for cands in noisy)


def test_a_time_budget_bounds_the_rollout_mode() -> None:
    pytest.importorskip("numba")
    _, view = _view(6, seed=1)
    search = GuidedSearch(StubNet(), game="art_gallery", iters=None, seconds=0.05, topk=4, seed=1)
    search.run(view)  # the first call may load machine code
    start = time.perf_counter()
    result = search.run(view)
    assert time.perf_counter() - start < 1.0
    assert result.iterations >= 4 and result.iterations % 4 == 0


def test_value_policy_is_a_softmax_of_the_means_over_the_candidates() -> None:
    from art_gallery_env.agents.guided_search import value_policy

    q = np.full(6, np.nan)
    q[[1, 4]] = [0.30, 0.35]
    result = SearchResult(4, np.array([0, 5, 0, 0, 5, 0.0]), np.zeros(2), None, q, 10)
    p = value_policy(result, 0.05)
    assert p[[0, 2, 3, 5]].sum() == 0 and abs(p.sum() - 1) < 1e-12
    assert abs(p[4] / p[1] - math.e) < 1e-9  # a gap of one temperature: e times the mass
    assert value_policy(result, 0.0).tolist() == [0, 0, 0, 0, 1, 0]
    prior = np.array([0.1, 0.6, 0.1, 0.0, 0.2, 0.0])
    p = value_policy(result, 0.05, prior)  # prior * exp(q / T): 0.6 against 0.2 * e
    assert abs(p[4] / p[1] - math.e / 3) < 1e-9 and abs(p.sum() - 1) < 1e-12


def test_the_agent_spec_plays_the_rollout_mode() -> None:
    pytest.importorskip("numba")
    state, _ = _view(4, seed=7)
    agent = make_agent(f"search:ckpt={QUICK},topk=3,iters=30", 3)
    assert agent.search.topk == 3 and agent.value_source == "rollout"
    assert agent.act(*_inputs(state)) in state.legal_actions()
    info = agent.explain()
    assert len(info["top"]) >= 3 and [t["visits"] for t in info["top"][:3]] == [10, 10, 10]
    assert sum(v is not None for v in info["values"]) == 1
    sampler = make_agent(f"search:ckpt={QUICK},topk=3,iters=30,temperature=1", 3)
    action = sampler.act(*_inputs(state))
    assert sampler.last is not None and not np.isnan(sampler.last.q[action])


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("topk=-1", "topk must be an int >= 0"),
        ("topk=2,margin=-1", "margin must be a number >= 0"),
        ("topk=2,rollout=random", "topk=2 plays the heuristic's rollouts"),
    ],
)
def test_bad_rollout_mode_options_are_one_line(spec: str, words: str) -> None:
    pytest.importorskip("numba")
    with pytest.raises(ValueError, match=words) as err:
        make_agent(f"search:ckpt={QUICK},iters=8,{spec}", 1)
    assert "\n" not in str(err.value)


def test_the_rollout_mode_needs_the_games_compiled_search() -> None:
    with pytest.raises(ValueError, match="topk needs a compiled search") as err:
        GuidedSearch(StubNet(), game="gallerist", iters=8, topk=2)
    assert "\n" not in str(err.value)


def test_the_checkpoints_value_kind_picks_the_value_path(win_share_ckpt: Path) -> None:
    assert value_kind(load_policy(QUICK), QUICK) is None
    assert value_kind(load_policy(win_share_ckpt), win_share_ckpt) == WIN_SHARE
    state, _ = _view(2, seed=6)
    net_agent = GuidedSearchAgent(win_share_ckpt, seed=1, iters=12)
    rollout_agent = GuidedSearchAgent(QUICK, seed=1, iters=12)
    assert (net_agent.value_source, rollout_agent.value_source) == ("net", "rollout")
    assert net_agent.search.policy is None and rollout_agent.search.rollout == "heuristic"
    for agent in (net_agent, rollout_agent):
        assert agent.act(*_inputs(state)) in state.legal_actions()
        values = agent.explain()["values"]
        assert len(values) == 2 and all(0 <= v <= 1 for v in values)


def test_an_mlp_checkpoint_without_a_value_head_searches_with_rollouts() -> None:
    state, _ = _view(2, seed=7)
    agent = make_agent(f"search:ckpt={PPO_2P},iters=10", seed=2)
    assert agent.value_source == "rollout"
    assert agent.act(*_inputs(state)) in state.legal_actions()


# -- priors steer ---------------------------------------------------------------------
def test_uniform_priors_try_every_action_once_and_a_strong_prior_takes_the_visits() -> None:
    """With a constant value, PUCT's visits follow the priors: uniform priors and
    iters = legal actions visit each once; a prior on one action gives it most visits and
    the choice, whichever action it is."""
    state, view = _view(2, seed=5)
    legal = state.legal_actions()
    assert len(legal) >= 3
    uniform = GuidedSearch(StubNet(), game="art_gallery", iters=len(legal), batch=1, seed=0)
    assert sorted(np.flatnonzero(uniform.run(view).visits)) == sorted(legal)
    for favour in (legal[-1], legal[1]):
        search = GuidedSearch(StubNet(favour), game="art_gallery", iters=60, batch=4, seed=0)
        result = search.run(view)
        assert result.action == favour and result.visits[favour] > 30


def test_the_checkpoints_priors_concentrate_the_visits_where_the_policy_points() -> None:
    """quick's policy at this decision: its argmax gets more visits than a uniform share."""
    state, view = _view(2, seed=5)
    net = load_policy(QUICK)
    legal = state.legal_actions()
    obs = get_game("art_gallery").make_observer(state).observation(state, view.seat)
    logits = net.logits(obs)
    top = max(legal, key=lambda a: logits[a])
    result = GuidedSearch(net, game="art_gallery", iters=len(legal), batch=1, seed=0).run(view)
    assert result.visits[top] > 1


def test_a_prior_temperature_flattens_a_confident_policy_and_spreads_the_visits() -> None:
    """quick's top prior here is over 0.9: at ptemp=1 its top action takes all 60 visits,
    at ptemp=4 the priors are flatter and other actions get visits too."""
    _, view = _view(2, seed=5)
    net = load_policy(QUICK)
    runs = {
        t: GuidedSearch(net, game="art_gallery", iters=60, seed=0, prior_temperature=t).run(view)
        for t in (1.0, 4.0)
    }
    assert runs[1.0].priors.max() > 0.9 > runs[4.0].priors.max()
    assert np.count_nonzero(runs[1.0].visits) == 1 < np.count_nonzero(runs[4.0].visits)
    assert "ptemp must be a number > 0" in agent_spec_problem(f"search:ckpt={QUICK},ptemp=0")


# -- determinism and hidden information -----------------------------------------------
class ObservingNet:
    """Logits that depend on the observation (a fixed random projection), as a real
    network's do: a rival's priors then differ between determinizations."""

    def __init__(self, obs_size: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0.0, 3.0, (obs_size, NUM_ACTIONS))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return np.asarray(obs, np.float64) @ self.w

    def values(self, obs: np.ndarray) -> np.ndarray:
        return np.full(len(obs), 0.5)


def _nodes(node, depth: int = 0):
    yield node, depth
    for child in node.children.values():
        yield from _nodes(child, depth + 1)


def test_a_rivals_priors_are_the_mean_over_the_worlds_that_reach_its_node() -> None:
    """With ``prior_samples`` K, a node below the root averages the masked softmax of up
    to K determinizations (not the first world's alone); the root, the same observation
    in every world, keeps its one exact sample."""
    state, view = _view(4, seed=3)
    net = ObservingNet(len(_inputs(state)[0]))
    search = GuidedSearch(net, game="art_gallery", iters=96, batch=8, seed=2, prior_samples=4)
    search.run(view)
    root = search.last_root
    assert root is not None and root.samples[state.current_player] == [1, 4]
    counts = [n.samples[seat][0] for n, depth in _nodes(root) if depth > 0 for seat in n.samples]
    assert counts and max(counts) == 4 and min(counts) >= 1
    rival = [
        (n, seat)
        for n, depth in _nodes(root)
        if depth > 0
        for seat in n.samples
        if seat != state.current_player and n.samples[seat][0] > 1
    ]
    assert rival  # rivals' nodes met several worlds
    node, seat = rival[0]
    legal = sorted(node.sums[seat])
    priors = search._priors(node, seat, legal)
    mean = np.asarray([node.sums[seat][a] for a in legal]) / node.samples[seat][0]
    assert np.allclose(priors, mean / mean.sum())
    logits = np.asarray(node.logits[seat])[legal]  # the first world's
    first = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert not np.allclose(priors, first)  # the worlds' observations differ: so do priors


def test_one_prior_sample_is_the_first_worlds_softmax_over_the_actions_legal_now() -> None:
    """The default (``prior_samples=1``): a node's priors are the first world's logits'
    softmax over the current world's legal actions, as before the option, and no further
    world is asked for."""
    state, view = _view(4, seed=3)
    net = ObservingNet(len(_inputs(state)[0]))
    search = GuidedSearch(net, game="art_gallery", iters=64, batch=8, seed=2)
    search.run(view)
    nodes = [(n, seat) for n, depth in _nodes(search.last_root) if depth > 0 for seat in n.samples]
    assert nodes and all(n.samples[seat] == [1, 1] and not n.sums for n, seat in nodes)
    node, seat = nodes[0]
    legal = [a for a in range(NUM_ACTIONS) if a % 3 == 0]
    logits = np.asarray(node.logits[seat])[legal]
    expect = np.exp(logits - logits.max())
    assert np.allclose(search._priors(node, seat, legal), expect / expect.sum())


def test_mean_priors_renormalise_over_the_actions_legal_now() -> None:
    """Two worlds' masked softmaxes are summed per action; the priors in a third world
    are their mean over its legal actions, renormalised, and an action legal in neither
    sampled world gets the uniform share before renormalising."""
    from art_gallery_env.agents.guided_search import _Node

    search = GuidedSearch(StubNet(), game="art_gallery", iters=4, prior_samples=2)
    node = _Node(2)
    logits = [0.0] * NUM_ACTIONS
    logits[1] = math.log(3.0)
    node.samples[0] = [0, 2]
    search._add_sample(node, 0, (0, 1), logits)  # 0.25, 0.75
    assert np.allclose(search._priors(node, 0, [0, 1, 2]), [0.2, 0.6, 0.2])  # one world
    search._add_sample(node, 0, (0, 2), [0.0] * NUM_ACTIONS)  # 0.5, 0.5
    assert node.samples[0] == [2, 2]
    priors = search._priors(node, 0, [0, 1, 2, 3])
    raw = np.asarray([0.75, 0.75, 0.5, 0.25 * 2]) / 2  # 3 is uniform: 1/4 of 2 worlds
    assert np.allclose(priors, raw / raw.sum())
    assert np.allclose(search._priors(node, 0, [1, 2]), [0.6, 0.4])


def test_same_seed_same_result_in_two_states_of_one_information_set() -> None:
    state, view = _view(3, seed=4)
    twin = twin_state(state, seed=1)
    runs = []
    for s in (state, twin):
        search = GuidedSearch(load_policy(QUICK), game="art_gallery", iters=24, batch=8, seed=9)
        runs.append(search.run(PlayerView(s, s.current_player)))
    assert np.array_equal(runs[0].visits, runs[1].visits)
    assert np.allclose(runs[0].values, runs[1].values) and runs[0].action == runs[1].action
    again = GuidedSearchAgent(QUICK, seed=9, iters=24)
    other = GuidedSearchAgent(QUICK, seed=9, iters=24)
    assert again.act(*_inputs(state)) == other.act(*_inputs(twin))
    assert again.explain() == other.explain()


def test_dirichlet_noise_changes_the_root_priors_and_is_seeded() -> None:
    _, view = _view(2, seed=5)
    net = load_policy(QUICK)
    plain = GuidedSearch(net, game="art_gallery", iters=4, seed=1).run(view)
    noisy = [
        GuidedSearch(net, game="art_gallery", iters=4, seed=1, dirichlet=0.25).run(view)
        for _ in range(2)
    ]
    assert np.array_equal(noisy[0].priors, noisy[1].priors)
    assert not np.allclose(noisy[0].priors, plain.priors)


# -- budgets and options --------------------------------------------------------------
def test_budgets_over_the_limits_and_bad_options_are_refused_in_one_line() -> None:
    base = f"search:ckpt={QUICK}"
    over = agent_spec_problem(f"{base},iters={MAX_SEARCH_ITERS + 1}")
    assert over is not None and "over the limit" in over
    assert "over the limit" in agent_spec_problem(f"{base},seconds=61")
    assert "needs ckpt=FILE" in agent_spec_problem("search:iters=5")
    assert "valid options: ckpt, iters, seconds" in agent_spec_problem(f"{base},depth=2")
    assert "must be one of random, heuristic" in agent_spec_problem(f"{base},rollout=x")
    assert "batch must be a positive int" in agent_spec_problem(f"{base},batch=0")
    assert "temperature must be" in agent_spec_problem(f"{base},temperature=-1")
    assert "no such checkpoint" in agent_spec_problem("search:ckpt=missing.safetensors")
    for problem in (over, agent_spec_problem("search:iters=5")):
        assert "\n" not in problem
    with pytest.raises(ValueError, match="needs a budget"):
        GuidedSearch(StubNet(), game="art_gallery", iters=None)


def test_a_time_budget_ends_the_search_and_a_server_can_cap_it() -> None:
    state, _ = _view(2, seed=8)
    agent = make_agent(f"search:ckpt={QUICK},seconds=0.05", seed=1)
    assert search_seconds(agent) == 0.05 and agent.iters is None
    start = time.perf_counter()
    agent.act(*_inputs(state))
    assert time.perf_counter() - start < 2.0 and agent.explain()["iterations"] >= 1
    capped = make_agent(f"search:ckpt={QUICK},iters=5000", seed=1)
    assert cap_search_seconds(capped, 0.02) and capped.search.seconds == 0.02
    capped.act(*_inputs(state))
    assert capped.explain()["iterations"] < 5000


def test_temperature_samples_among_visited_legal_actions_with_the_seed() -> None:
    state, _ = _view(2, seed=3)
    picks = []
    for _ in range(2):
        agent = make_agent(f"search:ckpt={PPO_2P},iters=16,temperature=1", seed=4)
        picks.append([agent.act(*_inputs(state)) for _ in range(4)])
        assert all(agent.last.visits[a] > 0 for a in picks[-1])
    assert picks[0] == picks[1]


# -- playing --------------------------------------------------------------------------
@pytest.mark.parametrize("ckpt", [QUICK, PPO_2P])
def test_plays_only_legal_actions_in_games(ckpt: Path) -> None:
    game = get_game("art_gallery")
    for seed, n in ((1, 2), (2, 4)):
        state = game.setup(n, seed)
        agents = [make_agent(f"search:ckpt={ckpt},iters=6,batch=3", seed=seed)] + [
            make_agent("heuristic", seed=seed + k) for k in range(1, n)
        ]
        try:
            result = play_game(state, agents, max_decisions=40 * n)
        except AgentError as err:  # pragma: no cover - the failure's message
            pytest.fail(str(err))
        assert result.decisions[0] > 0


def test_explain_lists_visits_values_and_priors_like_ismcts() -> None:
    state, _ = _view(2, seed=5)
    agent = make_agent(f"search:ckpt={QUICK},iters=20", seed=1)
    assert agent.explain()["iterations"] == 0
    action = agent.act(*_inputs(state))
    info = agent.explain()
    assert info["kind"] == "search" and info["iterations"] == 20
    assert info["top"][0]["action"] == action
    assert sum(t["visits"] for t in info["top"]) <= 20
    assert all({"action", "visits", "q", "prior"} <= set(t) for t in info["top"])
    assert all(t["q"] is None or 0 <= t["q"] <= 1 for t in info["top"])


def test_the_gallerist_plays_with_its_own_checkpoint_and_refuses_another_games() -> None:
    problem = agent_spec_problem(f"search:ckpt={QUICK},iters=4", "gallerist")
    assert problem is not None and "a policy for the game 'art_gallery', not 'gallerist'" in problem
    game = get_game("gallerist")
    state = game.setup(2, 3)
    agents = [
        make_agent(f"search:ckpt={GALLERIST},iters=4,batch=2", seed=1, game="gallerist"),
        make_agent("random", seed=2, game="gallerist"),
    ]
    result = play_game(state, agents, max_decisions=30)
    assert result.decisions[0] > 0


def test_the_openspiel_bridge_plays_a_search_spec() -> None:
    pytest.importorskip("pyspiel")
    from art_gallery_env.bridges.openspiel import register_games
    from art_gallery_env.bridges.openspiel_bots import AgentBot

    register_games()
    import pyspiel

    game = pyspiel.load_game("python_art_gallery", {"players": 2})
    bot = AgentBot(f"search:ckpt={QUICK},iters=4", seed=0, game="art_gallery")
    state = game.new_initial_state()
    bot.restart_at(state)
    for _ in range(6):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_eval_plays_a_search_spec_and_keeps_its_insight(tmp_path: Path) -> None:
    """``art-gallery eval`` with a search seat: the records' insight holds its visits,
    values and priors at every decision it searched."""
    from art_gallery_env.arena.records import load_record
    from art_gallery_env.cli import main

    games = tmp_path / "games"
    argv = ["eval", "--agents", f"search:ckpt={QUICK},iters=3,batch=2", "random"]
    argv += ["--games", "1", "--workers", "1", "--no-progress", "--save-games", str(games)]
    assert main([*argv, "--insight"]) == 0
    record = load_record(games / "game_0000.json")
    searched = [e for e in record["insight"] if e and e["kind"] == "search" and e["iterations"]]
    assert searched and all(e["iterations"] == 3 and len(e["values"]) == 2 for e in searched)
    assert all("prior" in t for e in searched for t in e["top"])
