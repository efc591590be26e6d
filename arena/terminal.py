"""``art-gallery play``: a human against registry agents in the terminal.

The human sees the board as their seat may see it (R8, G18), what the others did since
their last decision, and the legal choices numbered with their names. A choice is given by
number or by name (Art Gallery: ``bid 3``, ``move 5 acw``; the Gallerist: ``colony buy``,
``ticket vip``); anything else is answered with the reason and the choices again.
``save PATH`` saves the game at any prompt (the engine's JSON plus the game, the seat, the
opponents and the actions so far), ``--resume PATH`` continues it. Every registered game
is played the same way: board, narration, action names and agents come from its
:class:`~art_gallery_env.core.registry.GameSpec`. Output uses rich but stays plain text
when stdout is not a terminal.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from art_gallery_env.agents.base import Agent, legal_from_mask
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import GameSpec, default_game, get_game
from art_gallery_env.files import atomic_write_text

from .evaluate import derive_seed
from .loop import Decision, play
from .records import make_record, save_record

SAVE_FORMAT = "art-gallery-env/play-save"
SAVE_VERSION = 1
HUMAN = "human"
COMMANDS_HELP = (
    "Type the number or the name of a choice as listed (e.g. '3' or '{example}').\n"
    "Commands: 'board' shows the board again, 'log' the whole game so far,\n"
    "'save PATH' saves the game (continue with --resume PATH), 'help', 'quit'."
)


class PlaySetupError(ValueError):
    """Bad play options or save file; the message names the problem and the valid values."""


@dataclass
class PlayGame:
    """A game in progress: the engine state plus who sits where, and which game it is."""

    state: Any
    seat: int
    agents: list[str]  # per seat; HUMAN for the human's seat
    seed: int
    actions: list[int] | None = field(default_factory=list)  # None: history unknown
    game: str | None = None  # a registered game's name; None: the default game

    def __post_init__(self) -> None:
        self.game = get_game(self.game).name

    @property
    def rules(self) -> GameSpec:
        return get_game(self.game)

    @property
    def variants(self) -> dict[str, Any]:
        """The game's variants, read from the state itself (a save cannot contradict it)."""
        return self.rules.check_variants(self.rules.variants_of(self.state))

    def to_save(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "seat": self.seat,
            "agents": self.agents,
            "seed": self.seed,
            "variants": self.variants,
            "actions": self.actions,
            "state": self.state.to_dict(),
        }


def split_specs(text: str) -> list[str]:
    """'heuristic,ismcts:iters=50,rollout=random' -> ['heuristic',
    'ismcts:iters=50,rollout=random']: a ``key=value`` piece continues the spec before it
    when that one has options (a spec's own options are comma separated too)."""
    specs: list[str] = []
    for piece in filter(None, (s.strip() for s in text.split(","))):
        key, eq, _ = piece.partition("=")
        if eq and ":" not in key and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def parse_opponents(text: str, num_players: int, seat: int) -> list[str]:
    """'heuristic,ismcts' -> per-seat specs with HUMAN at ``seat``."""
    specs = split_specs(text)
    need = num_players - 1
    if len(specs) == 1:
        specs = specs * need
    if len(specs) != need:
        raise PlaySetupError(
            f"--opponents: {num_players} players need {need} opponent spec(s) (comma separated) "
            f"or one spec for all, got {len(specs)}: {text!r}"
        )
    return specs[:seat] + [HUMAN] + specs[seat:]


def new_play_game(
    num_players: int,
    seat: int,
    opponents: str,
    seed: int | None,
    variants: dict[str, Any] | None = None,
    game: str | None = None,
) -> PlayGame:
    try:
        rules = get_game(game)
    except ValueError as err:
        raise PlaySetupError(f"--game: {err}") from None
    try:
        variants = rules.check_variants(variants)
    except ValueError as err:
        raise PlaySetupError(f"--variant: {err}") from None
    if not rules.min_players <= num_players <= rules.max_players:
        raise PlaySetupError(
            f"--players: {rules.title} is played by {rules.min_players}..{rules.max_players} "
            f"players, got {num_players}"
        )
    if num_players < 2:
        raise PlaySetupError(
            f"--players: terminal play needs at least 2 players (you and an opponent), got "
            f"{num_players}"
        )
    if not 0 <= seat < num_players:
        raise PlaySetupError(f"--seat must be in 0..{num_players - 1}, got {seat}")
    agents = parse_opponents(opponents, num_players, seat)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    state = rules.setup(num_players, seed, variants)
    return PlayGame(state, seat, agents, seed, [], rules.name)


def _read_save(path: Path) -> dict[str, Any]:
    """The save file's JSON object, with its format and version checked."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise PlaySetupError(f"{path}: cannot read: {err.strerror or err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise PlaySetupError(f"{path}: not valid JSON: {err}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        got = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise PlaySetupError(f"{path}: format: expected {SAVE_FORMAT!r}, got {got!r}")
    if data.get("version") != SAVE_VERSION:
        raise PlaySetupError(f"{path}: version: {data.get('version')!r} is not {SAVE_VERSION}")
    return data


def _save_game(path: Path, data: dict[str, Any]) -> GameSpec:
    """The saved game's spec (saves from before the second game name none: the default)."""
    name = data.get("game")
    try:
        if name is not None and not isinstance(name, str):
            raise ValueError(f"expected a game name, got {name!r}")
        return get_game(name) if name is not None else default_game()
    except ValueError as err:
        raise PlaySetupError(f"{path}: game: {err}") from None


def load_play_game(path: str | Path) -> PlayGame:
    path = Path(path)
    data = _read_save(path)
    rules = _save_game(path, data)
    try:
        state = rules.state_from_dict(data.get("state"))
    except ValueError as err:  # each engine's StateFormatError
        raise PlaySetupError(f"{path}: state.{err}") from None
    n = state.num_players
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise PlaySetupError(f"{path}: seat: expected a seat in 0..{n - 1}, got {seat!r}")
    agents = data.get("agents")
    if (
        not isinstance(agents, list)
        or len(agents) != n
        or not all(isinstance(a, str) for a in agents)
        or agents[seat] != HUMAN
    ):
        raise PlaySetupError(
            f"{path}: agents: expected {n} agent specs with {HUMAN!r} at seat {seat}"
        )
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PlaySetupError(f"{path}: seed: expected an int, got {seed!r}")
    game = PlayGame(state, seat, agents, seed, data.get("actions"), rules.name)
    if game.actions is not None and not _actions_reach(game):
        game.actions = None  # the history does not lead to this state: no record can be written
    return game


def _actions_reach(game: PlayGame) -> bool:
    rules, state, actions = game.rules, game.state, game.actions
    if not isinstance(actions, list):
        return False
    try:
        replay = rules.setup(state.num_players, game.seed, game.variants)
        for action in actions:
            replay.apply(int(action))
    except (ValueError, TypeError):
        return False
    return replay.to_dict() == state.to_dict()


# -- the terminal session ----------------------------------------------------------------
class _Quit(BaseException):  # control flow through the game loop, not an agent error
    def __init__(self, code: int) -> None:
        self.code = code


class PlaySession:
    def __init__(
        self,
        game: PlayGame,
        *,
        stdin: TextIO,
        stdout: TextIO,
        save_path: str | None = None,
        record_path: str | None = None,
    ) -> None:
        from rich.console import Console

        self.game = game
        self.rules = game.rules
        self.help = COMMANDS_HELP.format(example=self.rules.action_to_str(0))
        self.stdin = stdin
        self.stdout = stdout
        self.save_path = save_path
        self.record_path = record_path
        tty = hasattr(stdout, "isatty") and stdout.isatty()
        self.console = Console(
            file=stdout,
            highlight=False,
            markup=False,
            emoji=False,
            width=None if tty else 120,
            soft_wrap=not tty,
        )
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())
        # Determinizations shown to the human differ only in what the seat cannot see,
        # which the board and the narration never show; any seed gives the same screen.
        self.rng = random.Random(0)
        n = game.state.num_players
        self.names = [
            f"P{p} (you)" if p == game.seat else f"P{p} ({game.agents[p]})" for p in range(n)
        ]
        # Events already narrated: a resumed game starts at its current round's beginning.
        starts = [i for i, (kind, _) in enumerate(game.state.events) if kind == "round_start"]
        self.shown = starts[-1] if game.actions and starts else 0

    # output helpers
    def say(self, text: str = "", style: str | None = None) -> None:
        self.console.print(text, style=style)

    def show_board(self, world: Any) -> None:
        """The board as the human's seat sees it (``world`` is a determinization of the
        seat's information set, or the finished game, which everyone may see)."""
        viewer = None if world.is_over else self.game.seat
        self.console.rule(f"round {world.round}")
        self.say(self.rules.render_text(world, viewer))

    def narrate(self, world: Any) -> None:
        viewer = None if world.is_over else self.game.seat
        lines = self.rules.describe_events(world, self.shown, viewer, self.names)
        self.shown = len(world.events)
        if lines:
            self.say("What happened:", style="bold")
            for line in lines:
                self.say("  " + line)

    def choice_lines(self, legal: list[int], state: Any) -> list[str]:
        rules, seat = self.rules, self.game.seat
        lines = []
        for i, action in enumerate(legal, 1):
            detail = rules.describe_choice(state, seat, action)
            lines.append(f"{i:>3}) {rules.action_to_str(action):<14} {detail}".rstrip())
        return lines

    def show_choices(self, legal: list[int], world: Any) -> None:
        self.say(f"Your decision ({world.phase_name}) - legal choices:", style="bold")
        for line in self.choice_lines(legal, world):
            self.say(line)

    def read_line(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        self.stdout.flush()
        line = self.stdin.readline()
        if line == "":
            self.say("")
            self.say(
                "End of input (EOF): leaving the game without saving. "
                "Use 'save PATH' to keep a game and --resume PATH to continue it."
            )
            raise _Quit(1)
        if self.echo:
            self.say(line.rstrip("\n"))
        return line.strip()

    def save(self, path: str | None) -> None:
        path = path or self.save_path
        if not path:
            self.say("save needs a file: 'save PATH' (or start with --save PATH)", style="red")
            return
        try:
            atomic_write_text(path, json.dumps(self.game.to_save()) + "\n")
        except OSError as err:
            self.say(f"could not save to {path}: {err.strerror or err}", style="red")
            return
        self.say(f"Game saved to {path}; continue with: art-gallery play --resume {path}")

    def decide(self, view: Any, legal: list[int]) -> int:
        """The human's decision: what happened, the board and the choices as the seat may
        see them (R8), then a prompt until a legal choice."""
        world = view.determinize(self.rng)
        self.narrate(world)
        self.show_board(world)
        return self.ask(legal, world)

    def ask(self, legal: list[int], world: Any) -> int:
        """Prompt until a legal choice; commands are handled here."""
        self.show_choices(legal, world)
        while True:
            text = self.read_line("Your choice (number or name, 'help'): ")
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit", "q"):
                if self.save_path:
                    self.save(self.save_path)
                self.say("Quitting.")
                raise _Quit(0)
            if command in ("help", "?", "h"):
                self.say(self.help)
                continue
            if command == "board":
                self.show_board(world)
                self.show_choices(legal, world)
                continue
            if command == "log":
                for line in self.rules.describe_events(world, 0, self.game.seat, self.names):
                    self.say("  " + line)
                continue
            if command == "save":
                self.save(rest.strip() or None)
                continue
            action, reason = self.parse_choice(text, legal, self.rules)
            if action is not None:
                return action
            self.say(f"Not accepted: {reason}", style="red")
            self.show_choices(legal, world)

    @staticmethod
    def parse_choice(
        text: str, legal: list[int], rules: GameSpec | None = None
    ) -> tuple[int | None, str]:
        """The legal action ``text`` names (its number in the list or its name), or None
        and why not (the caller shows the legal choices again)."""
        rules = rules or default_game()
        if not text:
            return None, "empty input; type a number or a choice name"
        if text.isdigit() or (text.startswith("-") and text[1:].isdigit()):
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1], ""
            return None, f"{k} is not a choice number (1..{len(legal)})"
        try:
            action = rules.str_to_action(text)
        except ValueError as err:
            return None, str(err)
        if action not in legal:
            return None, f"{rules.action_to_str(action)!r} is not legal now"
        return action, ""

    # the game loop
    def run(self) -> int:
        try:
            return self._run()
        except _Quit as q:
            return q.code
        except KeyboardInterrupt:
            self.say("")
            if self.save_path:  # --save names where this game goes: keep it
                self.save(self.save_path)
            else:
                self.say("Interrupted; the game was not saved (--save FILE keeps it on Ctrl-C).")
            return 130

    def _run(self) -> int:
        game, rules = self.game, self.rules
        n = game.state.num_players
        agents: dict[int, Agent] = {game.seat: TerminalHuman(self)}
        for p, spec in enumerate(game.agents):
            if p != game.seat:
                agents[p] = make_agent(spec, derive_seed("play", game.seed, p), game=rules.name)
                agents[p].reset(derive_seed("play", game.seed, p, len(game.actions or [])))
        self.say(
            f"{rules.title}, {n} players, seed {game.seed}"
            + "".join(f" ({key})" for key in rules.active_variants(game.variants))
            + ". You are player "
            + f"{game.seat}. Seats: "
            + ", ".join(self.names)
        )
        self.say(self.help)

        def remember(decision: Decision) -> None:
            if game.actions is not None:
                game.actions.append(decision.action)

        play(game.state, agents, rules.make_observer(game.state), on_decision=remember)
        self.narrate(game.state)
        self.show_board(game.state)
        breakdown = game.state.score_breakdown()
        self.say("Final score:", style="bold")
        self.say(rules.render_breakdown(breakdown))
        mine = breakdown[game.seat]
        winners = [b["player"] for b in breakdown if b["rank"] == 1]
        if mine["rank"] == 1:
            verdict = "You win!" if len(winners) == 1 else "You share the win."
        else:
            verdict = f"You finish rank {mine['rank']} of {n}."
        self.say(f"{verdict} (your total {mine['total']})", style="bold")
        if self.record_path:
            if game.actions is None:
                self.say("No record written: the saved game's action history was not available.")
            else:
                record = make_record(
                    num_players=n,
                    seed=game.seed,
                    variants=game.variants,
                    agents=game.agents,
                    actions=game.actions,
                    breakdown=breakdown,
                    game=game.game,
                )
                save_record(record, self.record_path)
                self.say(f"Record written to {self.record_path} (art-gallery replay FILE)")
        return 0


class TerminalHuman(Agent):
    """A person at the terminal as an :class:`Agent` (as OpenSpiel's ``HumanBot``): it
    decides from what its seat's view allows, through the session's prompts."""

    name = HUMAN

    def __init__(self, session: PlaySession) -> None:
        self.session = session

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        if view is None:
            raise ValueError("a human player needs the PlayerView of its seat")
        return self.session.decide(view, legal_from_mask(action_mask).tolist())


def run_play(
    *,
    players: int | None = None,
    seat: int | None = None,
    opponents: str | None = None,
    seed: int | None = None,
    variants: dict[str, Any] | None = None,
    resume: str | None = None,
    save: str | None = None,
    record: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    game_name: str | None = None,
) -> int:
    """Set up (or resume) a game and play it; raises PlaySetupError for bad options.
    ``game_name``: which game (None: the default game); a resumed game is the saved one's."""
    if resume:
        game = load_play_game(resume)
        if game_name is not None and game_name != game.game:
            raise PlaySetupError(
                f"--resume {resume}: a saved game of {game.rules.title} (game "
                f"{game.game!r}), not of --game {game_name}; leave --game out to resume it"
            )
        if opponents is not None:
            game.agents = parse_opponents(opponents, game.state.num_players, game.seat)
    else:
        game = new_play_game(
            2 if players is None else players,
            0 if seat is None else seat,
            "random" if opponents is None else opponents,
            seed,
            variants,
            game_name,
        )
    for p, spec in enumerate(game.agents):  # fail early, before the first prompt
        if p != game.seat:
            try:
                make_agent(spec, 0, game=game.game)
            except Exception as err:  # noqa: BLE001 - any construction problem is a bad option
                raise PlaySetupError(f"--opponents: {spec!r}: {err}") from None
    session = PlaySession(
        game,
        stdin=stdin or sys.stdin,
        stdout=stdout or sys.stdout,
        save_path=save,
        record_path=record,
    )
    return session.run()
