"""The live page in Chromium: the person's move drawn at once, the agents'
moves arriving one by one while the next agent thinks, recovery from network errors and a
server restart, resign/delete, the game-over buttons, full labels and the layout at 800 px.

The two timing checks of the issue's acceptance are measured inside the page (event time of
the click to the next frame after the move is drawn) and against the server's own clock of
each decision (``LiveGames`` notes when each was saved)."""

from __future__ import annotations

import random
import re
import socket
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from playwright.sync_api import Page, expect

from art_gallery_env.agents import registry as agent_registry
from art_gallery_env.agents.base import Agent
from art_gallery_env.agents.registry import make_agent
from art_gallery_env.core.registry import get_game
from art_gallery_env.games.art_gallery.env.svg import render_svg
from art_gallery_env.web.games import WebError

pytestmark = pytest.mark.slow  # each drives a real Chromium against a live server

TIMEOUT = 60_000  # ms: agents think between two of the person's decisions
SLOW_AGENT = "slow:seconds=0.8"  # a random agent that thinks 0.8 s, however loaded the machine
CHOICE = "#decision button.choice:not([disabled])"

# Installed before every page load: the click's event time, when the person's move was first
# drawn (the frame after #my-move appeared), and every view drawn (decision, wall clock ms,
# who was thinking, the last-move box's seat).
PROBE = """
window.__probe = { own: [], views: [] };
document.addEventListener("click", (e) => {
  if (e.target.closest && e.target.closest("button.choice")) window.__probe.click = e.timeStamp;
}, true);
new MutationObserver(() => {
  const p = window.__probe;
  if (p.click !== undefined && document.getElementById("my-move")) {
    const clicked = p.click;
    p.click = undefined;
    requestAnimationFrame(() => p.own.push(performance.now() - clicked));
  }
  const play = document.querySelector(".play");
  if (!play) return;
  const decision = Number(play.dataset.decision);
  const last = p.views[p.views.length - 1];
  if (last && last.decision === decision) return;
  const thinking = document.getElementById("thinking");
  const lastMove = document.getElementById("last-move");
  p.views.push({ decision, at: performance.timeOrigin + performance.now(),
    thinking: thinking ? thinking.textContent : null,
    lastMove: lastMove ? lastMove.textContent : null });
}).observe(document, { childList: true, subtree: true });
"""


class SlowAgent(Agent):
    """A random agent that takes ``seconds`` to decide: a search's think time, as long on
    a loaded machine as on an idle one."""

    def __init__(self, seed: int | None = None, seconds: str = "1") -> None:
        self.inner = make_agent("random", seed)
        self.seconds = float(seconds)
        self.name = "slow"

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> Any:
        time.sleep(self.seconds)
        return self.inner.act(observation, action_mask, view)


@pytest.fixture(autouse=True)
def slow_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """``slow`` is an agent of every game during these tests only (the registry of
    agents has no unregister: the monkeypatch takes it out again)."""
    monkeypatch.setitem(agent_registry._REGISTRY, "slow", SlowAgent)


def start(page: Page, server: LiveServer, players: int, opponent: str, seed: int = 1) -> str:
    page.add_init_script(PROBE)
    page.goto(server.url + "/")
    page.select_option("#players", str(players))
    for pick in page.locator(".opponent-pick").all():
        offered = pick.locator("select option").evaluate_all("os => os.map(o => o.value)")
        pick.locator("select").select_option(opponent if opponent in offered else "")
        if opponent not in offered:  # "other spec…": typed in
            pick.locator("input.custom").fill(opponent)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector(".play", timeout=TIMEOUT)
    return page.url.rsplit("/", 1)[-1]


def decision_on_page(page: Page) -> int:
    return int(page.locator(".play").get_attribute("data-decision"))


def move_until_agents_play(page: Page) -> int:
    """Click the first legal choice until the agents are to play (a move in Art Gallery is
    followed by the same seat's bid); the index of the person's last decision."""
    while True:
        page.wait_for_selector(CHOICE, timeout=TIMEOUT)
        mine = decision_on_page(page)
        page.locator(CHOICE).first.click()
        page.wait_for_function(
            "d => Number(document.querySelector('.play')?.dataset.decision) > d", arg=mine
        )
        if page.locator("#thinking").count():
            return mine


def test_own_move_is_drawn_within_100_ms(page: Page, live_server: LiveServer) -> None:
    """Acceptance: click to your own move drawn, median of 15 clicks at most 100 ms; the
    server's board with it follows (its times are printed for the docs)."""
    start(page, live_server, 2, "random", seed=3)
    rng = random.Random(0)
    board_ms = []
    for _ in range(15):
        page.wait_for_selector(CHOICE, timeout=TIMEOUT)
        before = decision_on_page(page)
        buttons = page.locator(CHOICE).all()
        t0 = time.perf_counter()
        rng.choice(buttons).click()
        page.wait_for_function(
            "d => Number(document.querySelector('.play')?.dataset.decision) > d",
            arg=before,
            timeout=TIMEOUT,
        )
        board_ms.append(1000 * (time.perf_counter() - t0))
    own = page.evaluate("window.__probe.own")
    assert len(own) == 15
    print(
        f"own move drawn: median {statistics.median(own):.0f} ms, max {max(own):.0f} ms; "
        f"server's board: median {statistics.median(board_ms):.0f} ms"
    )
    assert statistics.median(own) <= 100


def test_agents_moves_arrive_one_by_one_while_the_next_one_thinks(
    page: Page, live_server: LiveServer
) -> None:
    """Acceptance: the first agent's move is shown before the last agent has finished; each
    view in between names who is thinking and highlights the last move."""
    game_id = start(page, live_server, 4, SLOW_AGENT, seed=5)
    store = live_server.app.state.store
    game = store.get(game_id)
    mine = move_until_agents_play(page)
    page.wait_for_function(
        "d => Number(document.querySelector('.play')?.dataset.decision) > d + 1 "
        "&& document.querySelector('#decision button.choice:not([disabled])')",
        arg=mine,
        timeout=3 * TIMEOUT,
    )
    nxt = decision_on_page(page)
    assert nxt - mine >= 3 and all(s != game.seat for s in game.deciders[mine + 1 : nxt])
    decided_at = store.live.entry(game).decided_at  # decisions made -> when (server clock)
    views = {v["decision"]: v for v in page.evaluate("window.__probe.views")}
    first_shown = views[mine + 2]["at"] / 1000  # after the person's and one agent's decision
    last_done = decided_at[nxt]
    assert first_shown < last_done, (first_shown, last_done)
    # every agent's decision was drawn, each with the next one thinking, the last one marked
    for n in range(mine + 2, nxt):
        assert n in views, sorted(views)
        seat, thinker = game.deciders[n - 1], game.deciders[n]
        assert views[n]["thinking"] == f"{game.names[thinker]} is thinking…"
        assert game.names[seat] in views[n]["lastMove"]
    assert SLOW_AGENT in views[mine + 2]["thinking"]  # the full label, options included


def slow_agents_game(page: Page, server: LiveServer) -> tuple[str, int]:
    """A 2-player game against an agent that thinks 3 s a decision, the person's move
    made and shown: (id, decision)."""
    game_id = start(page, server, 2, "slow:seconds=3", seed=7)
    mine = move_until_agents_play(page)
    expect(page.locator("#thinking")).to_be_visible()
    return game_id, mine


def test_the_page_recovers_after_network_errors(page: Page, live_server: LiveServer) -> None:
    game_id, mine = slow_agents_game(page, live_server)
    # the person's move went through; every request after it fails while agents play
    page.route("**/api/live/**", lambda route: route.abort("connectionrefused"))
    expect(page.locator("#conn")).to_contain_text("reconnecting", timeout=TIMEOUT)
    page.unroute("**/api/live/**")
    page.wait_for_selector(CHOICE, timeout=2 * TIMEOUT)  # no reload: the page caught up
    expect(page.locator("#conn")).to_have_count(0)
    game = live_server.app.state.store.get(game_id)
    assert game.your_turn and decision_on_page(page) == len(game.actions) > mine + 1


class SamePort(LiveServer):
    """The app on a data folder, on ``port`` (0: a free one) bound with SO_REUSEADDR, so a
    server started after it on its port binds while its connections are in TIME_WAIT."""

    def __init__(self, data: Path, port: int = 0) -> None:
        super().__init__(data)
        self.sock.close()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )


def test_the_page_recovers_after_a_server_restart(page: Page, tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = SamePort(data).__enter__()
    try:
        game_id, mine = slow_agents_game(page, old)
    finally:
        old.__exit__(None, None, None)
        for game in old.app.state.store.games():
            game.deleted = True  # the old process is gone: its agent threads write nothing
    old.thread.join(30)
    assert not old.thread.is_alive()
    expect(page.locator("#conn")).to_contain_text("reconnecting", timeout=TIMEOUT)
    port = int(old.url.rsplit(":", 1)[1])
    with SamePort(data, port) as new:
        page.wait_for_selector(CHOICE, timeout=2 * TIMEOUT)  # no reload: agents went on
        expect(page.locator("#conn")).to_have_count(0)
        game = new.app.state.store.get(game_id)
        assert game.your_turn and decision_on_page(page) == len(game.actions) > mine + 1
        before = len(game.actions)  # read before the click: the server may apply it at once
        page.locator(CHOICE).first.click()  # and the game goes on
        page.wait_for_function(
            "d => Number(document.querySelector('.play')?.dataset.decision) > d",
            arg=before,
        )


def finished_game(server: LiveServer, seed: int = 2) -> str:
    """A 2-player game against random played to its end through the store."""
    store = server.app.state.store
    game = store.create(2, 0, ["random"], seed)
    rng = random.Random(seed)
    with game.lock:
        while not game.state.is_over:
            store.act(game, rng.choice(game.state.legal_actions()))
    return game.id


def test_game_over_shows_new_game_and_replay_in_view(page: Page, live_server: LiveServer) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    game_id = finished_game(live_server)
    page.goto(f"{live_server.url}/#/game/{game_id}")
    for selector in ("#new-game", "#replay-link", "#result"):
        expect(page.locator(selector)).to_be_visible()
    for selector in ("#new-game", "#replay-link"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, selector  # above the fold
    page.click("#replay-link")
    page.wait_for_selector(".replay")
    page.go_back()
    page.click("#new-game")
    expect(page.locator("#setup")).to_be_visible()


def test_resign_and_delete_from_the_games_list_and_the_game(
    page: Page, live_server: LiveServer
) -> None:
    store = live_server.app.state.store
    over = finished_game(live_server)
    live = store.create(2, 0, ["random"], 4).id
    other = store.create(2, 0, ["random"], 5).id
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/#/games")
    expect(page.locator(f'tr[data-game="{over}"] button.delete')).to_have_text("Delete")
    for game_id in (over, live):
        page.locator(f'tr[data-game="{game_id}"] button.delete').click()
        expect(page.locator(f'tr[data-game="{game_id}"]')).to_have_count(0)
        with pytest.raises(WebError):
            store.get(game_id)
        assert not (store.folder / f"{game_id}.json").exists()
    page.goto(f"{live_server.url}/#/game/{other}")
    page.click("#resign")
    page.wait_for_selector("#setup")
    with pytest.raises(WebError):
        store.get(other)


def test_full_labels_and_no_double_you(page: Page, live_server: LiveServer) -> None:
    start(page, live_server, 3, "ismcts:iters=50")
    board = page.locator(".board").inner_text()
    assert "P1 ismcts:iters=50" in board and "P2 ismcts:iters=50" in board
    assert "(you) (you)" not in board and "You (P0) (you)" not in board
    assert "You (P0)" in board


def test_a_resolving_area_reads_as_two_words(page: Page) -> None:
    """The board of a distribution in the browser: the area's title and its "resolving"
    note are one text ("Shop resolving", not "Shop" and "resolving" read as
    "Shopresolving"), the note drawn after the title with a gap."""
    spec = get_game("art_gallery")
    for seed in (2, 3):  # one distribution at a gallery, one at the Shop
        state = spec.setup(4, seed, None)
        rng = random.Random(seed)
        while state.phase_name not in ("shop", "pick"):
            state.apply(rng.choice(state.legal_actions()))
        page.set_content(render_svg(state, 1))
        title = page.locator("svg text", has_text="resolving")
        expect(title).to_have_count(1)
        assert re.fullmatch(r"(Shop|Gallery \d) resolving", title.text_content())
        gap = title.evaluate(
            "el => { const t = el.textContent.indexOf(' resolving'); "
            "const end = el.getBoundingClientRect().left + el.getSubStringLength(0, t); "
            "return el.querySelector('tspan').getBoundingClientRect().left - end; }"
        )
        assert gap > 1


@pytest.mark.parametrize("width", [800, 1440])
def test_one_scroll_area_and_choices_beside_the_board(
    page: Page, live_server: LiveServer, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    start(page, live_server, 4, "random")
    page.wait_for_selector(CHOICE, timeout=TIMEOUT)
    scrollers = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => "
        "['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).map(e => e.className)"
    )
    assert scrollers == []  # the page scrolls, no panel inside it
    choice = page.locator(CHOICE).first.bounding_box()
    board = page.locator(".board").bounding_box()
    assert choice is not None and board is not None
    assert choice["y"] + choice["height"] <= 800  # in view without scrolling
    assert choice["x"] >= board["x"] + board["width"]  # beside the board, not below it
