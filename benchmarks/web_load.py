"""Load test of ``art-gallery serve``: concurrent games against a real uvicorn process,
killed with SIGKILL mid-run and restarted; then a check that nothing was lost.

Usage: python benchmarks/web_load.py [--games 50] [--players 4] [--opponents random]
                                     [--kill-after 0.4] [--port 8765] [--data DIR] [--smoke]

Each game is a client task (httpx, asyncio, one connection per game) that creates a game
and plays the person's seat with a seeded choice per decision until the game ends. When
``--kill-after`` of the expected person decisions are answered, the server gets SIGKILL and
a new one starts on the same games folder; every task then reloads its game and checks
that the server kept every decision it had acknowledged, and plays on. At the end each
game's record is checked: every person decision is the one the client chose, and every
agent decision is what a fresh agent, reseeded as the server reseeds it, decides at that
point: the restarted server continued each game exactly as an uninterrupted one would.

Printed: person decisions (= requests) per second, all decisions per second (agents
included), and request latency percentiles, before the kill and after the restart.
Machines are shared and noisy: compare numbers within one run. ``--smoke``
(tests/test_benchmarks_smoke.py): two 2-player games on a free port, the kill included.

``--locust 1,10,50 [--seconds 60]``: instead, for each count, a fresh server on 127.0.0.1
and that many locust players (``benchmarks/web_locust.py``: create, poll, move, delete,
game after game) for ``--seconds``; printed: requests/s, p50/p99 latency of all requests
and of the person's moves, failures, the server's resident memory (at a quarter of the run
and at its end: a leak grows between them) and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.records import initial_state, validate_record
from art_gallery_env.games.art_gallery.env.seat import SeatObserver
from art_gallery_env.web.games import agent_seed

SMOKE = {"games": 2, "players": 2, "port": 0}
LOCUSTFILE = Path(__file__).with_name("web_locust.py")
# the server of a locust run: every simulated player is one client address (127.0.0.1)
SERVER = (
    "import sys; from art_gallery_env.web.limits import Limits; "
    "from art_gallery_env.web.server import serve; "
    "sys.exit(serve(port=int(sys.argv[1]), data=sys.argv[2], "
    "limits=Limits(max_client_games=int(sys.argv[3]), max_live_games=int(sys.argv[3]))))"
)


def choice(game: int, decision: int, legal: list[int]) -> int:
    """The client's pick: a function of the game, the decision number and the options, so
    it is the same whether or not the server was restarted in between."""
    return random.Random(f"{game}:{decision}").choice(sorted(legal))


@dataclass
class Phase:
    """Counts and latencies of one server process's life."""

    latencies: list[float] = field(default_factory=list)  # seconds per action request
    person: int = 0
    decisions: int = 0
    start: float = field(default_factory=time.perf_counter)
    end: float = 0.0


class Load:
    def __init__(self, args: argparse.Namespace, data: Path) -> None:
        self.args = args
        self.data = data
        self.port = args.port
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.generation = 0  # bumped when a new server is up
        self.phases: list[Phase] = []
        self.acked: dict[int, int] = {}  # game index -> decisions the server acknowledged
        self.ids: dict[int, str] = {}
        self.checked_after_restart = 0
        self.ahead_after_restart = 0
        self.lost = 0
        self.retried = 0  # requests retried without a restart (keep-alive races)
        self.restart_s = 0.0

    # -- the server process ---------------------------------------------------------------
    def start_server(self) -> None:
        command = [sys.executable, "-m", "art_gallery_env.cli", "serve", "--port", str(self.port)]
        command += ["--data", str(self.data)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    async def wait_ready(self) -> float:
        start = time.perf_counter()
        async with httpx.AsyncClient(timeout=2) as client:
            while True:
                if self.proc.poll() is not None:
                    raise SystemExit(f"server exited: {self.proc.stderr.read().decode()}")
                try:
                    if (await client.get(self.url + "/api/setup")).status_code == 200:
                        return time.perf_counter() - start
                except httpx.TransportError:
                    await asyncio.sleep(0.05)

    async def kill_and_restart(self) -> None:
        self.phases[-1].end = time.perf_counter()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.generation += 1
        self.phases.append(Phase())
        self.start_server()
        self.restart_s = await self.wait_ready()
        self.phases[-1].start = time.perf_counter()

    # -- one game -------------------------------------------------------------------------------
    async def play(self, k: int, client: httpx.AsyncClient) -> None:
        args = self.args
        seat = k % args.players
        body = {"players": args.players, "seat": seat, "opponents": [args.opponents], "seed": k}
        view = (await client.post("/api/games", json=body)).json()
        self.ids[k] = view["id"]
        self.acked[k] = view["decision"]
        while not view["over"]:
            legal = [o["action"] for o in view["choices"]["options"] if o["legal"]]
            action = choice(k, view["decision"], legal)
            generation = self.generation
            start = time.perf_counter()
            try:
                response = await client.post(
                    f"/api/games/{view['id']}/actions",
                    json={"action": action, "decision": view["decision"]},
                )
            except httpx.TransportError:  # the server was killed, or a keep-alive race
                view = await self.reload(k, client, generation)
                continue
            if response.status_code != 200:
                raise SystemExit(f"game {k}: {response.status_code} {response.text}")
            phase = self.phases[-1]
            phase.latencies.append(time.perf_counter() - start)
            new = response.json()
            phase.person += 1
            phase.decisions += new["decision"] - view["decision"]
            view = new
            self.acked[k] = view["decision"]

    async def reload(self, k: int, client: httpx.AsyncClient, generation: int) -> dict:
        """After a failed request: load game ``k`` again (waiting for the new server if
        this one was killed) and check the server kept every decision it acknowledged (it
        may hold one more: the request in flight was saved before the kill)."""
        while True:
            try:
                response = await client.get(f"/api/games/{self.ids[k]}")
                break
            except httpx.TransportError:
                await asyncio.sleep(0.05)
        view = response.json()
        if self.generation != generation:
            self.checked_after_restart += 1
            self.ahead_after_restart += view["decision"] > self.acked[k]
        else:
            self.retried += 1
        if view["decision"] < self.acked[k]:
            self.lost += 1
        return view

    async def run(self) -> None:
        args = self.args
        self.start_server()
        await self.wait_ready()
        self.phases.append(Phase())
        expected = args.games * 90 * args.players // 4  # rough person decisions of a game
        limits = httpx.Limits(max_connections=args.games + 5)
        async with httpx.AsyncClient(base_url=self.url, timeout=120, limits=limits) as client:
            tasks = [asyncio.create_task(self.play(k, client)) for k in range(args.games)]
            while sum(p.person for p in self.phases) < args.kill_after * expected:
                if all(t.done() for t in tasks):
                    break
                await asyncio.sleep(0.05)
            await self.kill_and_restart()
            await asyncio.gather(*tasks)
        self.phases[-1].end = time.perf_counter()
        self.records = {}
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as client:
            for k, gid in self.ids.items():
                self.records[k] = (await client.get(f"/api/games/{gid}/record")).json()
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)


def check_records(load: Load) -> tuple[int, int]:
    """Re-decide every decision of every game offline: (person, agent) decisions checked."""
    person = agents = 0
    for k, record in load.records.items():
        validate_record(record)
        seat = record["extra"]["human_seat"]
        state = initial_state(record)
        observer = SeatObserver(state.cards)
        bots = {p: make_agent(spec, 0) for p, spec in enumerate(record["agents"]) if p != seat}
        for i, action in enumerate(record["actions"]):
            p = state.current_player
            if p == seat:
                expected = choice(k, i, state.legal_actions())
                person += 1
            else:
                bots[p].reset(agent_seed(record["setup"]["seed"], p, i))
                expected = bots[p].act(*observer.inputs(state, p))
                agents += 1
            if expected != action:
                raise SystemExit(f"game {k}: decision {i} is {action}, expected {expected}")
            state.apply(action)
        if not state.is_over:
            raise SystemExit(f"game {k}: the record ends before the game")
    return person, agents


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if values else 0.0


def rss_mb(pid: int) -> float:
    """A process's resident memory (Linux ``/proc``), MB; 0 where it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def wait_ready_sync(proc: subprocess.Popen, url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(url + "/api/setup", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("the server did not answer within 60 s")


def locust_run(
    users: int, seconds: float, players: int, think: float, work: Path, game_moves: int = 0
) -> dict:
    """One locust run of ``users`` players against a fresh server; its figures."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    data = work / f"data-{users}"
    cap = str(max(100, 4 * users))
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), str(data), cap],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    samples: list[tuple[float, float]] = []  # (seconds into the run, RSS MB)
    try:
        wait_ready_sync(server, url)
        start = time.monotonic()
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.5):
                samples.append((time.monotonic() - start, rss_mb(server.pid)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        prefix = work / f"locust-{users}"
        env = {**os.environ, "WEB_LOAD_PLAYERS": str(players), "WEB_LOAD_THINK": str(think)}
        env["WEB_LOAD_GAME_MOVES"] = str(game_moves)
        command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless"]
        command += ["-u", str(users), "-r", str(max(1, users)), "-t", f"{seconds:g}s"]
        command += ["--host", url, "--csv", str(prefix), "--only-summary", "--stop-timeout", "6"]
        loadavg = os.getloadavg()[0]
        locust = subprocess.run(command, env=env, capture_output=True, text=True)
        done.set()
        sampler.join()
        if not (prefix.parent / f"{prefix.name}_stats.csv").exists():
            raise SystemExit(f"locust wrote no stats: {locust.stderr[-2000:]}")
        with open(f"{prefix}_stats.csv", newline="") as handle:
            stats = {row["Name"]: row for row in csv.DictReader(handle)}
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    quarter = next((mb for t, mb in samples if t >= seconds / 4), 0.0)
    return {
        "users": users,
        "stats": stats,
        "rss_quarter": quarter,
        "rss_end": samples[-1][1] if samples else 0.0,
        "rss_peak": max((mb for _, mb in samples), default=0.0),
        "load": (loadavg + os.getloadavg()[0]) / 2,
        "games_on_disk": sum(1 for _ in data.rglob("*.json")),
        "games_created": int(stats.get("create", {}).get("Request Count", 0)),
    }


def print_locust(runs: list[dict], seconds: float, players: int, think: float) -> int:
    """The table of the locust runs; returns the failures in all."""
    print(
        f"locust players against 1 server process on 127.0.0.1, {players}-player games "
        f"against random agents, {think:g} s between a player's requests, {seconds:g} s "
        f"each ({os.cpu_count()} CPUs)\n"
    )
    print(
        "| players | requests/s | p50 ms | p99 ms | move p50 ms | move p99 ms | moves | "
        "failures | games | server RSS MB (at 1/4, end, peak) | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    for run in runs:
        total, move = run["stats"]["Aggregated"], run["stats"].get("move", {})
        failures += int(total["Failure Count"])
        print(
            f"| {run['users']} | {float(total['Requests/s']):.1f} | {total['50%']} | "
            f"{total['99%']} | {move.get('50%', '-')} | {move.get('99%', '-')} | "
            f"{move.get('Request Count', 0)} | {total['Failure Count']} | "
            f"{run['games_created']} | "
            f"{run['rss_quarter']:.0f}, {run['rss_end']:.0f}, {run['rss_peak']:.0f} | "
            f"{run['load']:.1f} |"
        )
    return failures


def locust_main(args: argparse.Namespace) -> None:
    counts = [int(n) for n in args.locust.split(",")]
    work = Path(args.data or tempfile.mkdtemp(prefix="web-locust-"))
    work.mkdir(parents=True, exist_ok=True)
    runs = [
        locust_run(n, args.seconds, args.players, args.think, work, args.game_moves) for n in counts
    ]
    failures = print_locust(runs, args.seconds, args.players, args.think)
    if failures:
        raise SystemExit(f"{failures} failed requests")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="agent spec of every other seat")
    parser.add_argument("--kill-after", type=float, default=0.4, help="share of the run")
    parser.add_argument("--port", type=int, default=8765, help="0: any free port")
    parser.add_argument("--data", help="games folder (default: a new temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, seconds (CI)")
    parser.add_argument("--locust", metavar="N,N", help="locust runs of N players each")
    parser.add_argument("--seconds", type=float, default=60, help="each locust run's length")
    parser.add_argument("--think", type=float, default=0.2, help="locust: s between requests")
    parser.add_argument(
        "--game-moves", type=int, default=0, help="locust: delete a game after N moves (0: never)"
    )
    args = parser.parse_args()
    if args.locust:
        if args.players == parser.get_default("players"):
            args.players = 2
        locust_main(args)
        return
    if args.smoke:  # tiny defaults; options given on the command line still win
        parser.set_defaults(**SMOKE)
        args = parser.parse_args()
    args.port = args.port or free_port()
    data = Path(args.data or tempfile.mkdtemp(prefix="web-load-"))
    load = Load(args, data)
    wall = time.perf_counter()
    asyncio.run(load.run())
    wall = time.perf_counter() - wall
    person, agents = check_records(load)
    print(
        f"{args.games} concurrent {args.players}-player games against {args.opponents}, "
        f"1 uvicorn process, games folder {data} ({os.cpu_count()} CPUs)\n"
    )
    print("| server | person decisions/s | all decisions/s | p50 ms | p95 ms | p99 ms | requests |")
    print("|---|---|---|---|---|---|---|")
    for name, phase in zip(("before SIGKILL", "after restart"), load.phases):
        seconds = max(1e-9, phase.end - phase.start)
        ms = [1000 * x for x in phase.latencies]
        print(
            f"| {name} | {phase.person / seconds:.1f} | {phase.decisions / seconds:.1f} | "
            f"{percentile(ms, 50):.0f} | {percentile(ms, 95):.0f} | {percentile(ms, 99):.0f} | "
            f"{phase.person} |"
        )
    print(
        f"\nkilled with SIGKILL after {load.phases[0].person} person decisions; the new server "
        f"answered after {load.restart_s:.2f} s (loading {args.games} games)\n"
        f"after the restart {load.checked_after_restart} games reloaded: {load.lost} had lost "
        f"an acknowledged decision, {load.ahead_after_restart} had also saved the request "
        f"in flight; {load.retried} requests failed without a restart and were retried\n"
        f"all {len(load.records)} games finished; re-decided offline: {person} person and "
        f"{agents} agent decisions, all equal to the records; wall {wall:.0f} s"
    )
    if load.lost:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
