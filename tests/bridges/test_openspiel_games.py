"""The bridged games as OpenSpiel sees them: ``python_gallerist`` (the generic bridge of
``art_gallery_env/bridges/openspiel.py``) passes OpenSpiel's ``random_sim_test`` with its own
sizes, and every bridged game's ``make_py_observer`` answers None for an observation type it
does not provide, as OpenSpiel expects (``generate_playthrough`` asks for the public-only and
the private-only views)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from art_gallery_env.bridges.openspiel import openspiel_name, register_games  # noqa: E402
from art_gallery_env.core.registry import get_game  # noqa: E402

register_games()
GAMES = ("python_art_gallery", "python_gallerist")


def test_python_gallerist_has_the_gallerists_sizes() -> None:
    spec, other = get_game("gallerist"), get_game("art_gallery")
    game = pyspiel.load_game(openspiel_name("gallerist"), {"players": 3})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == spec.num_actions != other.num_actions
    assert game.observation_tensor_shape() == [spec.observation_size]
    assert game.information_state_tensor_shape() == [spec.observation_size]
    assert spec.observation_size != other.observation_size
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("python_gallerist", {"players": 5})


def test_python_gallerist_passes_random_sim_test_solo() -> None:
    game = pyspiel.load_game("python_gallerist", {"players": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_python_gallerist_passes_random_sim_test(players: int) -> None:
    game = pyspiel.load_game("python_gallerist", {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


_UNSUPPORTED = {
    "public only": {"public_info": True, "private_info": pyspiel.PrivateInfoType.NONE},
    "private only": {"public_info": False, "private_info": pyspiel.PrivateInfoType.SINGLE_PLAYER},
    "all players": {"public_info": True, "private_info": pyspiel.PrivateInfoType.ALL_PLAYERS},
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", sorted(_UNSUPPORTED))
def test_make_py_observer_is_none_for_an_unsupported_type(name: str, kind: str) -> None:
    game = pyspiel.load_game(name, {"players": 2})
    for recall in (False, True):
        obs_type = pyspiel.IIGObservationType(perfect_recall=recall, **_UNSUPPORTED[kind])
        assert game.make_py_observer(obs_type) is None


@pytest.mark.parametrize("name", GAMES)
def test_make_py_observer_gives_the_seats_own_view(name: str) -> None:
    """The supported type (and no type: the default) still gives an observer; observation
    parameters, which neither game has, give None."""
    game = pyspiel.load_game(name, {"players": 2})
    own = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    for obs_type in (None, own):
        observer = game.make_py_observer(obs_type)
        assert observer is not None and observer.tensor.shape == (
            game.observation_tensor_shape()[0],
        )
    assert game.make_py_observer(own, {"board": 1}) is None
