"""Which OpenSpiel bots play the bridged games inside ``evaluate_bots``, and why the others
do not (docs/ecosystem.md, "Which bots work"):

- OpenSpiel's Python ``ISMCTSBot`` subclasses ``pyspiel.Bot`` without ``restart_at`` and
  ``inform_action``; ``evaluate_bots`` calls both, and the C++ defaults raise
  ``RestartAt(state) not implemented``. The bridge's ``openspiel_ismcts_bot`` adds them.
- OpenSpiel's C++ ``MCTSBot``/``ISMCTSBot`` run ``step`` with the GIL released
  (pybind11 ``gil_scoped_release``), then call back into the Python state (``Clone``, the
  observer) without it: the process dies with SIGSEGV on the first search, for any Python
  game (OpenSpiel's own ``python_kuhn_poker`` too).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

from art_gallery_env.bridges.openspiel import register_games  # noqa: E402
from art_gallery_env.bridges.openspiel_bots import AgentBot, openspiel_ismcts_bot  # noqa: E402

register_games()


def _decision(game: pyspiel.Game, seed: int, steps: int) -> pyspiel.State:
    """A decision node ``steps`` random actions (chance included) into a game."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_openspiels_python_ismcts_bot_cannot_start_a_game_in_evaluate_bots() -> None:
    """The reason for the bridge's bot: if OpenSpiel adds the two methods, this fails and
    the docs can drop the workaround."""
    game = pyspiel.load_game("python_gallerist", {"players": 2})
    state = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state)
    raw = ismcts.ISMCTSBot(game, evaluator, 2.0, 2, random_state=state)
    bots = [raw, AgentBot("random", seed=1, game="gallerist")]
    with pytest.raises(pyspiel.SpielError, match=r"RestartAt\(state\) not implemented"):
        evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))


@pytest.mark.parametrize("name", ["python_art_gallery", "python_gallerist"])
def test_the_bridges_ismcts_bot_takes_evaluate_bots_calls(name: str) -> None:
    """``restart_at`` and ``inform_action`` (what evaluate_bots calls) work, and its search
    returns a legal action at real decisions of either bridge (the generic one too)."""
    game = pyspiel.load_game(name, {"players": 2})
    bot = openspiel_ismcts_bot(game, simulations=3, seed=0)
    bot.restart_at(game.new_initial_state())
    for steps in (0, 25):
        state = _decision(game, seed=steps, steps=steps)
        action = bot.step(state)
        assert action in state.legal_actions()
        bot.inform_action(state, state.current_player(), action)


@pytest.mark.slow
def test_the_bridges_ismcts_plays_a_whole_gallerist_game_in_evaluate_bots() -> None:
    """The generic bridge's game through evaluate_bots, seeded: the same game twice."""
    game = pyspiel.load_game("python_gallerist", {"players": 2})

    def play() -> tuple[list[float], str]:
        bots = [
            openspiel_ismcts_bot(game, simulations=2, seed=1),
            AgentBot("heuristic", seed=2, game="gallerist"),
        ]
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, np.random.RandomState(3))
        return returns, str(state)

    returns, final = play()
    assert len(returns) == 2 and max(returns) > 0
    assert play() == (returns, final)


def test_cpp_uniform_random_bot_plays_a_python_game() -> None:
    """A C++ bot that only reads the legal actions does work."""
    game = pyspiel.load_game("python_gallerist", {"players": 2})
    bots = [pyspiel.make_uniform_random_bot(0, 1), AgentBot("random", seed=2, game="gallerist")]
    state = game.new_initial_state()
    returns = evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and returns == state.returns()


_CPP_BOT = textwrap.dedent(
    """
    import pyspiel
    import art_gallery_env.bridges.openspiel  # noqa: F401
    game = pyspiel.load_game("python_gallerist", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    if "{kind}" == "mcts":
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 2, 100, False, 0, False)
    else:
        final = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
        bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, 2, -1, final, False, False)
    print("searching", flush=True)
    bot.step(state)
    print("survived", flush=True)
    """
)


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_cpp_search_bots_crash_on_python_games(kind: str) -> None:
    """Documented as crashing, not as slow: the process dies with SIGSEGV at the first
    ``step`` (run in a child process). If OpenSpiel fixes its bindings this fails, and
    docs/ecosystem.md should say they work."""
    done = subprocess.run(
        [sys.executable, "-c", _CPP_BOT.replace("{kind}", kind)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "searching" in done.stdout, done.stderr[-2000:]
    assert done.returncode == -signal.SIGSEGV, (done.returncode, done.stdout, done.stderr[-500:])
    assert "survived" not in done.stdout


@pytest.mark.parametrize("name", ["art_gallery", "gallerist"])
def test_agent_bot_takes_the_loaded_pyspiel_game_as_well_as_its_name(name: str) -> None:
    """What users pass: the game object they loaded (it was refused as unhashable)."""
    game = pyspiel.load_game(f"python_{name}", {"players": 2})
    by_object = [AgentBot("heuristic", seed=s, game=game) for s in (3, 4)]
    by_name = [AgentBot("heuristic", seed=s, game=name) for s in (3, 4)]
    rng = np.random.RandomState(5)
    returns = evaluate_bots(game.new_initial_state(), by_object, rng)
    assert returns == evaluate_bots(game.new_initial_state(), by_name, np.random.RandomState(5))


def test_agent_bot_refuses_a_game_the_bridge_did_not_register() -> None:
    with pytest.raises(ValueError, match=r"AgentBot plays the bridged games .*python_gallerist"):
        AgentBot("random", game=pyspiel.load_game("tic_tac_toe"))
