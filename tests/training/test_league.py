"""Expert iteration's league (``exit.league``, training/league.py): the draws follow the
weights, are seeded, hold the learner in one seat of a league game, draw fresh parameters
for the drawn agent, and a config's league agents are checked before any game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pydantic", reason="configs need the [train] extra")

from art_gallery_env.training.league import LeagueConfig  # noqa: E402

PAST = [Path("pool/gen_000.safetensors"), Path("pool/gen_001.safetensors")]


def draws(league: LeagueConfig, count: int, players: int = 2) -> list[tuple[str | None, ...]]:
    rng = np.random.default_rng(7)
    return [league.seats(rng, players, g, PAST) for g in range(count)]


def test_the_default_league_is_plain_self_play() -> None:
    assert set(draws(LeagueConfig(), 50, players=4)) == {(None,) * 4}


def test_a_league_game_holds_the_learner_in_one_rotating_seat() -> None:
    league = LeagueConfig(self_play=0, agents={"random": 1.0})
    games = draws(league, 8, players=4)
    for g, seats in enumerate(games):
        assert seats.count(None) == 1 and seats[g % 4] is None
        assert set(seats) - {None} == {"random"}


def test_draws_follow_the_weights_and_the_seed() -> None:
    league = LeagueConfig(self_play=1.0, past_generations=1.0, agents={"heuristic": 2.0})
    games = draws(league, 2000)
    kinds = Counter("self" if s == (None, None) else str(s[1 - g % 2]) for g, s in enumerate(games))
    assert 400 < kinds["self"] < 600  # a quarter
    assert 900 < kinds["heuristic"] < 1100  # a half
    assert {k for k in kinds if k.startswith("pool/")} == {str(p) for p in PAST}
    assert games == draws(league, 2000)  # the same seed, the same league


def test_past_generations_wait_for_a_saved_generation() -> None:
    league = LeagueConfig(self_play=0.0, past_generations=1.0)
    rng = np.random.default_rng(0)
    assert league.seats(rng, 3, 0, []) == (None, None, None)  # none yet: self-play


def test_the_drawn_agent_gets_fresh_parameters_within_its_ranges() -> None:
    league = LeagueConfig(
        self_play=0,
        drawn={"weight": 1.0, "agent": "heuristic", "ranges": {"bid_cost": [0.2, 0.6]}},
    )
    specs = [s[1 - g % 2] for g, s in enumerate(draws(league, 40))]
    values = [float(spec.split("bid_cost=")[1]) for spec in specs]
    assert all(spec.startswith("heuristic:bid_cost=") for spec in specs)
    assert all(0.2 <= v <= 0.6 for v in values) and len(set(values)) > 30  # 4 digits each
    assert league.fixed_specs() == ["heuristic:bid_cost=0.4"]


@pytest.mark.parametrize(
    ("league", "message"),
    [
        ({"self_play": 0}, "must not all be 0"),
        ({"drawn": {"weight": 1, "ranges": {"bid_cost": [0.6, 0.2]}}}, "low 0.6 is above"),
        ({"drawn": {"weight": 1, "agent": "heuristic:v1"}}, "drawn.agent is an agent's name"),
    ],
)
def test_a_bad_league_is_one_line(league: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LeagueConfig.model_validate(league)


def test_a_configs_league_agents_are_checked_before_training(tmp_path: Path) -> None:
    import yaml

    from art_gallery_env.training.config import ConfigError, config_from_dict

    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "configs" / "exit_smoke.yaml").read_text(encoding="utf-8"))
    data["run_dir"] = str(tmp_path / "run")
    data["exit"]["league"] = {"self_play": 1.0, "agents": {"no_such_agent": 1.0}}
    with pytest.raises(ConfigError, match=r"exit\.league\[0\]: 'no_such_agent': unknown agent"):
        config_from_dict(data)
    data["exit"]["league"] = {"agents": {"heuristic:v1": 1.0}, "drawn": {"weight": 1.0}}
    config = config_from_dict(data)
    assert config.exit.league.fixed_specs() == ["heuristic:v1", "heuristic"]
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_league_game_gives_rows_of_the_learners_seat_only(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="expert iteration trains with torch")
    import yaml

    from art_gallery_env.training.config import config_from_dict
    from art_gallery_env.training.expert_iteration import train

    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "configs" / "exit_smoke.yaml").read_text(encoding="utf-8"))
    data.update(run_dir=str(tmp_path / "run"), env={"num_players": 3}, eval={"games": 1})
    data["exit"].update(generations=1, games_per_generation=2, iters=4, workers=1)
    data["exit"]["league"] = {"self_play": 0.0, "agents": {"random": 1.0}}
    run_dir = train(config_from_dict(data), progress_bar=False)
    with np.load(run_dir / "replay" / "gen_001.npz") as replay:
        seats = dict(zip(replay["game"].tolist(), replay["seat"].tolist()))
        assert set(replay["game"].tolist()) == {0, 1}
        assert all(seat == game % 3 for game, seat in zip(replay["game"], replay["seat"])), (
            seats
        )  # game g holds the learner in seat g mod 3, the rest play random


def test_the_ray_backend_is_checked_with_the_config(tmp_path: Path) -> None:
    import yaml

    from art_gallery_env.training.config import ConfigError, config_from_dict

    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "configs" / "exit_smoke.yaml").read_text(encoding="utf-8"))
    data["run_dir"] = str(tmp_path / "run")
    data["exit"]["ray_address"] = "127.0.0.1:6379"
    with pytest.raises(ConfigError, match="exit.ray_address is only used with exit.backend: ray"):
        config_from_dict(data)
    data["exit"]["backend"] = "cluster"
    with pytest.raises(ConfigError, match=r"exit\.backend.*'local' or 'ray'"):
        config_from_dict(data)


@pytest.mark.slow
def test_self_play_on_a_local_ray_gives_the_games_of_the_local_workers(tmp_path: Path) -> None:
    """Each task depends only on its seeds: the same replay rows from Ray as from processes."""
    pytest.importorskip("ray")
    import yaml

    from art_gallery_env.training.config import config_from_dict
    from art_gallery_env.training.expert_iteration import train

    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "configs" / "exit_smoke.yaml").read_text(encoding="utf-8"))
    data["exit"].update(generations=1, games_per_generation=2, iters=4)
    replays = []
    for backend in ("local", "ray"):
        data["run_dir"] = str(tmp_path / backend)
        data["exit"]["backend"] = backend
        run_dir = train(config_from_dict(data), progress_bar=False)
        with np.load(run_dir / "replay" / "gen_001.npz") as replay:
            replays.append({k: replay[k] for k in replay.files})
    assert replays[0].keys() == replays[1].keys()
    for key in replays[0]:
        assert np.array_equal(replays[0][key], replays[1][key]), key
