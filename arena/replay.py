"""``art-gallery replay``: print a recorded game decision by decision, as one seat or a
spectator saw it, and check that the replay reaches the stored scores.

The printer serves every game of :mod:`.games`: the record names its game, and the
narration, the board, the score table and which actions another seat may not read come
from that game's functions."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from art_gallery_env.core.registry import GameSpec

from .records import (
    RecordFormatError,
    final_totals,
    initial_state,
    load_record,
    record_game,
    replay_record,
)


class _StopReplay(Exception):
    pass


class _ReplayPrinter:
    """Prints a replay as it is re-simulated: each decision, the board at round ends (or
    after every decision with ``step``), waiting for Enter on a terminal."""

    def __init__(
        self,
        record: dict,
        viewer: int | None,
        step: bool,
        out: TextIO,
        stdin: TextIO,
    ) -> None:
        self.game: GameSpec = record_game(record)
        self.viewer = viewer
        self.step = step
        self.out = out
        self.stdin = stdin
        self.interactive = step and stdin.isatty()
        self.names = [f"P{p} ({spec})" for p, spec in enumerate(record["agents"])]
        self.shown = 0
        self.current_round = 1

    def emit(self, text: str = "") -> None:
        print(text, file=self.out)

    def start(self, path: str, record: dict, state: Any) -> None:
        setup, game = record["setup"], self.game
        variants = "".join(f", {key}={setup[key]}" for key in game.variants if key in setup)
        self.emit(
            f"Record {path}: {game.title}, {setup['num_players']} players, seed "
            f"{setup['seed']}{variants}, {len(record['actions'])} decisions"
        )
        self.emit("Seats: " + ", ".join(self.names))
        for line in game.describe_events(state, 0, self.viewer, self.names):
            self.emit("  " + line)
        self.emit(game.render_text(state, self.viewer))
        self.shown = len(state.events)
        self.current_round = state.round

    def on_step(self, i: int, player: int, action: int, after: Any) -> None:
        game, viewer = self.game, self.viewer
        lines = game.describe_events(after, self.shown, viewer, self.names)
        self.shown = len(after.events)
        name = game.action_to_str(action)
        if viewer is not None and viewer != player:
            name = game.hidden_action_name(action) or name  # e.g. a face-down bid
        self.emit(f"[{i + 1}] round {self.current_round}, {self.names[player]}: {name}")
        for line in lines:
            self.emit("  " + line)
        round_ended = after.round != self.current_round or after.is_over
        self.current_round = after.round
        if self.step or round_ended:
            self.emit(game.render_text(after, viewer))
        if self.step:
            self.wait()

    def wait(self) -> None:
        if self.interactive:
            print("-- Enter: next decision, q: stop --", end=" ", file=self.out, flush=True)
            if self.stdin.readline().strip().lower() in ("q", "quit"):
                raise _StopReplay

    def finish(self, record: dict, final: Any) -> int:
        """The final breakdown and the comparison with the stored scores (exit status)."""
        breakdown = final.score_breakdown()
        if not final.is_over:
            self.emit("The record ends before the game is over; scores so far:")
        self.emit(self.game.render_breakdown(breakdown))
        stored = final_totals(record.get("breakdown"))
        replayed = final_totals(breakdown)
        if stored is None:
            self.emit("The record stores no final scores to compare with.")
            return 0
        if stored == replayed:
            self.emit(f"Replayed scores match the stored ones: {replayed}")
            return 0
        self.emit(f"MISMATCH: replayed scores {replayed} differ from the stored {stored}")
        return 1


def run_replay(
    path: str,
    *,
    step: bool = False,
    viewer: int | None = None,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
    game: str | None = None,
) -> int:
    """Print a recorded game; returns 0 when the replayed scores match the stored ones.
    The record names its game; ``game``, when given, must be that one."""
    try:
        record = load_record(path)
    except RecordFormatError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    played = record_game(record)
    if game is not None and game != played.name:
        print(
            f"error: {path}: a record of {played.title} (game {played.name!r}), not of "
            f"--game {game}; leave --game out to replay it as its own game",
            file=sys.stderr,
        )
        return 2
    n = record["setup"]["num_players"]
    if viewer is not None and not 0 <= viewer < n:
        print(
            f"error: --viewer must be 'all' or a seat in 0..{n - 1}, got {viewer}", file=sys.stderr
        )
        return 2
    printer = _ReplayPrinter(record, viewer, step, out or sys.stdout, stdin or sys.stdin)
    printer.start(path, record, initial_state(record))
    try:
        final = replay_record(record, on_step=printer.on_step)
    except RecordFormatError as err:
        print(f"error: {path}: {err}", file=sys.stderr)
        return 2
    except _StopReplay:
        printer.emit("Replay stopped.")
        return 0
    if not final.is_over and record.get("breakdown") is not None:
        # Final scores but too few actions to reach them: a cut-off file, not a mismatch.
        print(
            f"error: {path}: incomplete record: it stores final scores, but its "
            f"{len(record['actions'])} decisions end before the game is over (round "
            f"{final.round}, {final.phase_name}); the scores cannot be checked",
            file=sys.stderr,
        )
        return 2
    return printer.finish(record, final)
