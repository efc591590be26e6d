"""Regenerate docs/images/web-gallerist.png: a Gallerist game in the web app, in headless
Chromium, at a turn's menu of round 4 (a 2-player game against the heuristic; the person's
clicks are a heuristic's own choices, seeded), and docs/images/web-gallerist-end.png: the end
screen of a solo game against Lacerda (G17) played the same way, with its goal-level verdict.

    python scripts/docs_web_gallerist_screenshot.py   # needs the system chromium
"""

from __future__ import annotations

from docs_web_screenshot import ROOT, headless_chromium, save  # this folder

from art_gallery_env.agents.registry import make_agent
from art_gallery_env.web.app import create_app
from art_gallery_env.web.server import BackgroundServer

SEED, ROUND = 7, 4
VIEWPORT = {"width": 1600, "height": 1120}


def main() -> None:
    with headless_chromium() as (data, launch):
        app = create_app(data, checkpoints=ROOT / "checkpoints")
        with BackgroundServer(app) as server:
            browser = launch()
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(server.url + "/")
            page.select_option("#game", "gallerist")
            page.select_option("#players", "2")
            page.locator("select.opponent").select_option("heuristic")
            page.fill("#seed", str(SEED))
            page.click("#start")
            page.wait_for_selector("#decision")
            game = app.state.store.get(page.url.rsplit("/", 1)[-1])
            me = make_agent("heuristic", seed=SEED, game="gallerist")
            observer = game.rules.make_observer(game.state)
            while True:
                page.wait_for_selector("#decision button.choice:not([disabled])", timeout=60_000)
                state = game.state
                if state.round >= ROUND and state.phase_name == "turn":
                    break
                action = me.act(*observer.inputs(state, game.seat))
                decision = page.locator(".play").get_attribute("data-decision")
                page.click(f'#decision button.choice[data-action="{action}"]')
                page.wait_for_function(
                    "d => document.querySelector('.play')?.dataset.decision !== d",
                    arg=decision,
                    timeout=60_000,
                )
            save(page, "web-gallerist.png")
            solo = app.state.store.create(1, 0, [], SEED, game="gallerist")
            observer = solo.rules.make_observer(solo.state)
            with solo.lock:
                while not solo.state.is_over:
                    app.state.store.act(solo, int(me.act(*observer.inputs(solo.state, 0))))
            page.goto(f"{server.url}/#/game/{solo.id}")
            page.wait_for_selector("#result")
            save(page, "web-gallerist-end.png")
            browser.close()


if __name__ == "__main__":
    main()
