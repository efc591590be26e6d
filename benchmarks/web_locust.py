"""Locust players of ``art-gallery serve`` (run by ``benchmarks/web_load.py --locust``).

Each simulated player does what the page does: creates a live game against random agents
(``POST /api/live/games``), follows it with long polls (``GET /api/live/games/{id}?after=N``)
until it is the person's turn, makes a move (``POST .../actions`` with the decision it
saw), and when the game is over deletes it and starts another. A move's answer is the
person's decision applied and saved: no agent thinks in it (they play off the request
thread), so its latency is the server's own. Every answer but 200/201 is a failure.

Environment: ``WEB_LOAD_PLAYERS`` (the table size, default 2), ``WEB_LOAD_THINK`` (the
seconds a player waits between its requests, default 0.2), ``WEB_LOAD_GAME_MOVES`` (a
player deletes its game after this many moves and starts another, so games come and go
as on a public server; default 0: each game is played to its end).
"""

from __future__ import annotations

import os
import random

from locust import HttpUser, between, task

PLAYERS = int(os.environ.get("WEB_LOAD_PLAYERS", "2"))
THINK = float(os.environ.get("WEB_LOAD_THINK", "0.2"))
GAME_MOVES = int(os.environ.get("WEB_LOAD_GAME_MOVES", "0"))


class Player(HttpUser):
    """One person at a table of random agents, playing game after game."""

    wait_time = between(THINK / 2, THINK * 1.5) if THINK > 0 else between(0, 0)

    def on_start(self) -> None:
        self.rng = random.Random()
        self.view: dict | None = None
        self.moves = 0  # in this game

    def new_game(self) -> None:
        body = {"players": PLAYERS, "seat": 0, "opponents": ["random"]}
        with self.client.post(
            "/api/live/games", json=body, name="create", catch_response=True
        ) as response:
            if response.status_code != 201:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                self.view = None
                return
            self.view = response.json()
            self.moves = 0

    @task
    def play(self) -> None:
        """One request: a new game, a move when it is the person's, else a long poll."""
        view = self.view
        if view is None:
            self.new_game()
        elif view.get("over") or (GAME_MOVES and self.moves >= GAME_MOVES):
            self.client.delete(f"/api/games/{view['id']}", name="delete")
            self.view = None
        elif view.get("your_turn") and not view.get("agents_playing"):
            self.move(view)
        else:
            self.poll(view)

    def move(self, view: dict) -> None:
        legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
        body = {"action": self.rng.choice(legal), "decision": view["decision"]}
        url = f"/api/live/games/{view['id']}/actions"
        with self.client.post(url, json=body, name="move", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                self.view = None  # a new game next: never a stuck player
                return
            self.view = response.json()
            self.moves += 1

    def poll(self, view: dict) -> None:
        url = f"/api/live/games/{view['id']}?after={view['decision']}&wait=5"
        with self.client.get(url, name="poll", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code}: {response.text[:200]}")
                self.view = None
                return
            answer = response.json()
            if not answer.get("unchanged"):
                self.view = answer
