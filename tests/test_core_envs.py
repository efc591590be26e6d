"""The core's two envs serve every registered game alike.

``TurnBasedAEC`` gives the Gallerist's AEC env what Art Gallery's had alone (the atomic
seed stream, calls before reset, the checks of a saved state, a finished saved game), and
the one ``SingleAgentEnv`` plays any game at any table size, the solo game included, with
opponents given as Agent objects, a factory or a source.
"""

from __future__ import annotations

import json
import pickle
import random
import warnings
from importlib import resources

import numpy as np
import pytest

from art_gallery_env.core import IllegalActionError as CoreIllegalActionError
from art_gallery_env.core import game_names, get_game
from art_gallery_env.core.aec import TurnBasedAEC
from art_gallery_env.core.agent import Agent
from art_gallery_env.core.single_agent import SingleAgentEnv
from art_gallery_env.games.art_gallery.env.aec import raw_env as art_gallery_env
from art_gallery_env.games.gallerist import GalleristSoloEnv
from art_gallery_env.games.gallerist import raw_env as gallerist_env
from art_gallery_env.games.gallerist.rules.data import default_game_data, game_data_from_dict
from art_gallery_env.games.gallerist.rules.state import new_game as gallerist_game


def _other_data():
    """The packaged component data with another description: another fingerprint."""
    text = resources.files("art_gallery_env.games.gallerist").joinpath("data/gallerist.json")
    data = json.loads(text.read_text("utf-8"))
    data["description"] += " (copy)"
    return game_data_from_dict(data)


def _raw_env(name: str, **kwargs):
    return get_game(name).make_env(**kwargs)


class _First(Agent):
    """Plays the first legal action; remembers the seeds it was reset with."""

    def __init__(self) -> None:
        self.seeds: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)

    def act(self, observation, action_mask, view=None) -> int:
        return int(np.flatnonzero(action_mask)[0])


# -- the AEC base -------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_every_games_raw_env_is_the_one_base(name: str) -> None:
    e = _raw_env(name)
    assert isinstance(e, TurnBasedAEC) and e.game_spec is get_game(name)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before observe\(\)"):
        e.observe("player_0")
    assert not e.action_mask("player_0").any()


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize(
    "bad_reset",
    [
        {"seed": 99, "options": {"state": "not a state"}},
        {"seed": 99, "options": "x"},
        {"seed": 99, "options": {"start_player": 7}},
        {"seed": "99"},
    ],
)
def test_a_failed_reset_changes_nothing_in_every_game(name: str, bad_reset: dict) -> None:
    """Neither the seed stream nor the current game (nor whose turn it is)."""
    e, ref = _raw_env(name), _raw_env(name)
    e.reset(seed=3)
    ref.reset(seed=3)
    e.step(e.state.legal_actions()[0])
    ref.step(ref.state.legal_actions()[0])
    with pytest.raises(ValueError):
        e.reset(**bad_reset)
    assert e.state.to_dict() == ref.state.to_dict()
    assert e.agent_selection == ref.agent_selection
    e.reset()
    ref.reset()
    assert e.state.to_dict() == ref.state.to_dict(), "the seed stream did not move"


def test_gallerist_saved_states_must_fit_the_env() -> None:
    e = gallerist_env(num_players=2)
    with pytest.raises(ValueError, match="GameState for 2 players"):
        e.reset(options={"state": gallerist_game(3, 1)})
    other = _other_data()
    assert other.fingerprint != default_game_data().fingerprint
    state = gallerist_game(2, 1, data=other)
    with pytest.raises(ValueError, match="component data .*data=state.data"):
        e.reset(options={"state": state})
    fitting = gallerist_env(num_players=2, data=other)
    fitting.reset(options={"state": state})
    assert fitting.state.to_dict() == state.to_dict() and fitting.state is not state


def test_a_finished_saved_gallerist_game_leaves_every_agent_terminated() -> None:
    state = gallerist_game(2, 5)
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    e = gallerist_env(num_players=2, reward_mode="money")
    e.reset(options={"state": state})
    breakdown = state.score_breakdown()
    for agent in e.agent_iter():
        obs, reward, terminated, _, info = e.last()
        assert terminated and info["decision"] == "game_over"
        assert reward == breakdown[e.agent_name_mapping[agent]]["total"] / 100
        e.step(None)
    assert not e.agents


def test_variants_are_a_dict_checked_against_the_game() -> None:
    art = _raw_env("art_gallery", variants={"zero_is_ten": True})
    assert art.zero_is_ten and art.variants == {"zero_is_ten": True}
    with pytest.raises(ValueError, match="contradicts"):
        art_gallery_env(variants={"zero_is_ten": True}, zero_is_ten=False)
    with pytest.raises(ValueError, match="no variant 'zero_is_ten'"):
        gallerist_env(variants={"zero_is_ten": True})


def test_both_games_raise_the_one_illegal_action_error() -> None:
    from art_gallery_env.games.art_gallery.rules.game import IllegalActionError as ArtGalleryError
    from art_gallery_env.games.gallerist.rules.game import IllegalActionError as GalleristError

    assert GalleristError is CoreIllegalActionError is ArtGalleryError
    for name in game_names():
        e = _raw_env(name, illegal_action="raise")  # the strict mode (the default terminates)
        e.reset(seed=0)
        illegal = next(  # an id the mask leaves out, else one past the last id
            (a for a in range(e.game_spec.num_actions) if not e.action_mask(e.agent_selection)[a]),
            e.game_spec.num_actions,
        )
        with pytest.raises(CoreIllegalActionError):
            e.step(illegal)


# -- the single-agent env -----------------------------------------------------------------
def test_the_solo_env_is_the_core_env_with_one_player() -> None:
    solo = GalleristSoloEnv(reward_mode="money")
    assert isinstance(solo, SingleAgentEnv) and solo.game.name == "gallerist"
    core = SingleAgentEnv("gallerist", 1, reward_mode="money", seed=4)
    obs_a, info_a = solo.reset(seed=4)
    obs_b, info_b = core.reset(seed=4)
    assert solo.state.to_dict() == core.state.to_dict() and np.array_equal(obs_a, obs_b)
    assert info_a["decision"] == solo.state.phase_name and "decision" not in info_b
    with pytest.raises(
        ValueError, match=r"must be one of \['level', 'money', 'goals'\] with 1 player"
    ):
        SingleAgentEnv("gallerist", 1, reward_mode="win")
    assert SingleAgentEnv("gallerist", 1).reward_mode == "level"
    # the AEC env's default (the game's first mode), not score_margin as before v1
    assert SingleAgentEnv("gallerist", 2, opponents=_First()).reward_mode == "win"


def test_single_agent_saved_states_and_a_failed_reset() -> None:
    env = SingleAgentEnv("gallerist", 1, seed=0)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    saved = env.state.clone()
    ref = SingleAgentEnv("gallerist", 1, seed=0)
    ref.reset(seed=1)
    ref.step(int(np.flatnonzero(ref.action_masks())[0]))
    for bad in ({"state": gallerist_game(2, 1)}, {"start_player": 3}, "x"):
        with pytest.raises(ValueError):
            env.reset(options=bad)
    with pytest.raises(ValueError, match="uses data .*, but this env has data"):
        env.reset(options={"state": gallerist_game(1, 1, data=_other_data())})
    assert env.reset()[0].tolist() == ref.reset()[0].tolist(), "the seed stream did not move"
    obs, info = env.reset(options={"state": saved})
    assert env.state.to_dict() == saved.to_dict() and info["action_mask"].any()
    finished = saved.clone()
    rng = random.Random(0)
    while not finished.is_over:
        finished.apply(rng.choice(finished.legal_actions()))
    with pytest.raises(ValueError, match="finished game"):
        env.reset(options={"state": finished})


def test_opponents_as_agents_a_factory_or_none() -> None:
    made: list[tuple[int, int | None]] = []

    def factory(place: int, seed: int | None) -> Agent:
        made.append((place, seed))
        return _First()

    env = SingleAgentEnv("art_gallery", [2, 3], opponents=factory, seed=10, learner_seat=0)
    for k in range(6):
        env.reset(seed=5 if k == 0 else None)
        assert len(env.opponents) == env.num_players - 1
    assert sorted(made) == [(1, 10), (2, 11)], "one agent per place, made once"
    shared = _First()
    env = SingleAgentEnv("gallerist", 3, opponents=shared, learner_seat=1)
    env.reset(seed=2)
    assert list(env.opponents) == [2, 0] and set(env.opponents.values()) == {shared}
    with pytest.raises(ValueError, match="2 players need opponents"):
        SingleAgentEnv("art_gallery", 2)
    with pytest.raises(ValueError, match="need 2 opponents"):
        SingleAgentEnv("art_gallery", 3, opponents=[_First()])
    with pytest.raises(TypeError, match="Agent objects"):
        SingleAgentEnv("art_gallery", 2, opponents=["random"])


@pytest.mark.filterwarnings("ignore:.*maximum value is infinity")
@pytest.mark.parametrize("name", game_names())
def test_check_env_passes_for_every_game_at_its_smallest_table(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    game = get_game(name)
    env = SingleAgentEnv(name, game.min_players, opponents=_First(), illegal_action="terminate")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["score"] == env.state.score_breakdown()[env.learner]


@pytest.mark.parametrize("name", game_names())
def test_both_envs_pickle_mid_game(name: str) -> None:
    """Subprocess workers and checkpoints of env state need it; a spec holds lambdas, so
    the envs keep their game by name."""
    e = _raw_env(name, num_players=2)
    e.reset(seed=1)
    copy = pickle.loads(pickle.dumps(e))
    assert copy.state.to_dict() == e.state.to_dict() and copy.game_spec is e.game_spec
    single = SingleAgentEnv(name, 2, opponents=_First(), seed=3)
    single.reset(seed=4)
    twin = pickle.loads(pickle.dumps(single))
    action = int(np.flatnonzero(single.action_masks())[0])
    assert twin.game is single.game
    assert np.array_equal(single.step(action)[0], twin.step(action)[0])
