"""Regenerate docs/images/web-play.png and web-replay.png: the web app in headless Chromium.

web-play.png: a 4-player game against the heuristic, a quick search and a checkpoint,
played by clicking seeded random choices until round 2, where round 1's insight shows.
web-live.png: the same game just after a click: the agents' moves arriving, one thinking.
web-narrow.png: the same game in an 800 px wide window.
web-replay.png: the replay of a 3-player `eval --insight` record at a bid of the checkpoint,
with its chart of running scores and the search's win chance.
web-end.png: the end screen of a 2-player game against the heuristic (the person's moves a
heuristic's own, seeded): the verdict and the score table beside the final board.

    python scripts/docs_web_screenshot.py   # needs the system chromium (apt-get install chromium)
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.arena.evaluate import MatchConfig, run_match, save_game_records
from art_gallery_env.games.art_gallery.rules.actions import action_kind
from art_gallery_env.web.app import create_app
from art_gallery_env.web.browser import CHROMIUM_ARGS, chromium_executable
from art_gallery_env.web.server import BackgroundServer

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
SEED, ROUND = 11, 2
OPPONENTS = ["heuristic", "ismcts:iters=50", str(ROOT / "checkpoints" / "ppo_4p.safetensors")]
VIEWPORT = {"width": 1440, "height": 1010}
CHECKPOINT_2P = str(ROOT / "checkpoints" / "ppo_2p.safetensors")
MATCH = MatchConfig(3, (CHECKPOINT_2P, "ismcts:iters=50", "heuristic"), games=1, insight=True)


YOUR_TURN = (
    "d => { const p = document.querySelector('.play'); return p && p.dataset.decision !== d"
    " && !!document.querySelector('#decision button.choice:not([disabled]), #result'); }"
)
AGENT_THINKING = (  # an agent's move shown, another agent thinking
    "() => document.getElementById('thinking') && document.querySelector('#last-move h2')"
    "?.textContent === 'Last move'"
)


def save(page, name: str, full_page: bool = False) -> None:
    """The page as a PNG in docs/images, written atomically."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".png", dir=IMAGES)
    os.close(fd)
    page.screenshot(path=tmp, full_page=full_page)
    os.replace(tmp, IMAGES / name)
    print(f"docs/images/{name}: {(IMAGES / name).stat().st_size // 1024} KB")


@contextmanager
def headless_chromium() -> Iterator[tuple[str, Callable[[], Any]]]:
    """(a temporary data folder, a function that launches headless Chromium), with
    docs/images made; exits naming the package when the system has no Chromium."""
    chromium = chromium_executable()
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install -y chromium")
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, sync_playwright() as p:
        yield data, lambda: p.chromium.launch(executable_path=chromium, args=list(CHROMIUM_ARGS))


def main() -> None:
    with headless_chromium() as (data, launch):
        records = Path(data) / "records"
        (path,) = save_game_records(run_match(MATCH, progress=False), records)
        app = create_app(data, checkpoints=ROOT / "checkpoints", records=records)
        with BackgroundServer(app) as server:
            browser = launch()
            page = browser.new_page(viewport=VIEWPORT)
            replay(page, server.url, app.state.library.get(f"file-{path.stem}"), path.stem)
            page.goto(server.url + "/")
            page.select_option("#players", "4")
            for select, spec in zip(page.locator("select.opponent").all(), OPPONENTS):
                select.select_option(spec)
            page.fill("#seed", str(SEED))
            page.click("#start")
            page.wait_for_selector("#decision")
            game = app.state.store.get(page.url.rsplit("/", 1)[-1])
            rng = random.Random(SEED)
            while game.state.round < ROUND or not page.locator("#insight .ins-entry").count():
                decision = page.locator(".play").get_attribute("data-decision")
                buttons = page.locator("button.choice:not([disabled])").all()
                rng.choice(buttons).click()
                page.wait_for_function(YOUR_TURN, arg=decision, timeout=60_000)
            save(page, "web-play.png")
            live_shot(page, rng)
            narrow = browser.new_page(viewport={"width": 800, "height": 900})
            narrow.goto(page.url)
            narrow.wait_for_selector("#decision button.choice:not([disabled])", timeout=60_000)
            save(narrow, "web-narrow.png")
            end_shot(page, server.url, app)
            browser.close()


def end_shot(page, url: str, app) -> None:
    """A 2-player game against the heuristic played to its end through the store (the
    person's moves a heuristic's own), shown as the person sees it."""
    store = app.state.store
    game = store.create(2, 0, ["heuristic"], SEED)
    me = make_agent("heuristic", seed=SEED, game=game.game)
    observer = game.rules.make_observer(game.state)
    with game.lock:
        while not game.state.is_over:
            store.act(game, int(me.act(*observer.inputs(game.state, game.seat))))
    page.goto(f"{url}/#/game/{game.id}")
    page.wait_for_selector("#result")
    save(page, "web-end.png")


def live_shot(page, rng: random.Random) -> None:
    """Click until the agents play, and take the page while one of them thinks."""
    for _ in range(8):
        decision = page.locator(".play").get_attribute("data-decision")
        rng.choice(page.locator("button.choice:not([disabled])").all()).click()
        try:
            page.wait_for_function(AGENT_THINKING, timeout=20_000)
        except Exception:  # noqa: BLE001 - the person's own next decision: click again
            page.wait_for_function(YOUR_TURN, arg=decision, timeout=60_000)
            continue
        save(page, "web-live.png")
        return
    raise SystemExit("no agent was seen thinking")


def replay(page, url: str, record: dict, stem: str) -> None:
    """The first bid of the checkpoint's seat in round 2, seen by a spectator."""
    seat = record["agents"].index(CHECKPOINT_2P)
    bids = [
        step
        for step, (action, insight) in enumerate(zip(record["actions"], record["insight"]), 1)
        if insight and insight["agent"].startswith("ppo_2p") and action_kind(action) == "bid"
    ]
    step = bids[min(8, len(bids) - 1)]  # its 9th bid: round 2 or 3
    page.goto(f"{url}/#/replay/file-{stem}?step={step}&viewer=all")
    page.wait_for_selector(".replay .insight")
    page.wait_for_selector("#chart-value")
    assert str(seat) in page.locator("#decision-info").inner_text()
    save(page, "web-replay.png", full_page=True)


if __name__ == "__main__":
    main()
