"""Play on the drawn board in Chromium: the places a choice lies are highlighted regions
over the SVG (Art Gallery: the areas, the Shop's piles, the cards in hand; the Gallerist:
its locations), a click on one with a single legal choice makes it, one with several opens
a menu of them; number keys pick the numbered side-panel choices, which stay."""

from __future__ import annotations

import json
import urllib.request

import pytest
from conftest import LiveServer
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow  # each drives a real Chromium against a live server

TIMEOUT = 30_000
YOUR_TURN = "#decision button.choice:not([disabled])"


def start(page: Page, server: LiveServer, game: str, seed: int) -> str:
    store = server.app.state.store
    made = store.create(2, 0, ["random"], seed, game=game)
    page.goto(f"{server.url}/#/game/{made.id}")
    page.wait_for_selector(YOUR_TURN, timeout=TIMEOUT)
    return made.id


def view_of(server: LiveServer, game_id: str) -> dict:
    return json.loads(urllib.request.urlopen(f"{server.url}/api/live/games/{game_id}").read())


def wait_for_next(page: Page, decision: str | None) -> None:
    page.wait_for_function(
        "d => { const p = document.querySelector('.play'); return p && p.dataset.decision !== d"
        " && !!document.querySelector('#decision button.choice:not([disabled]), #result'); }",
        arg=decision,
        timeout=TIMEOUT,
    )


def targets_by_legal(view: dict) -> dict[str, list[int]]:
    """Each board target's legal actions."""
    out: dict[str, list[int]] = {t: [] for t in view["choices"]["targets"]}
    for option in view["choices"]["options"]:
        for t in option.get("targets", []):
            if option["legal"]:
                out[t].append(option["action"])
    return out


def click_target(page: Page, target: str) -> None:
    page.locator(f'.board rect.target[data-target="{target}"]').click()


def test_art_gallery_is_played_by_clicking_the_board(page: Page, live_server: LiveServer) -> None:
    game_id = start(page, live_server, "art_gallery", seed=3)
    game = live_server.app.state.store.get(game_id)
    seen = set()
    for _ in range(12):  # moves, bids and (when they come) Shop choices, all on the board
        view = view_of(live_server, game_id)
        if view["over"]:
            break
        legal = targets_by_legal(view)
        regions = page.locator(".board rect.target.legal")
        assert regions.count() == sum(1 for acts in legal.values() if acts)
        for target, acts in legal.items():  # a place with no legal choice says why
            if not acts:
                title = page.locator(f'.board rect[data-target="{target}"] title')
                assert "not legal now" in title.text_content()
        single = [t for t, acts in legal.items() if len(acts) == 1]
        several = [t for t, acts in legal.items() if len(acts) > 1]
        before, decision = len(game.actions), page.locator(".play").get_attribute("data-decision")
        if single:
            click_target(page, single[0])
            expected = legal[single[0]][0]
        else:  # a card of a move: clockwise or anticlockwise, from its menu
            click_target(page, several[0])
            menu = page.locator("#target-menu button.target-choice")
            assert menu.count() == len(legal[several[0]])
            expected = int(menu.first.get_attribute("data-action"))
            menu.first.click()
        wait_for_next(page, decision)
        assert game.actions[before] == expected
        seen.add(view["choices"]["phase"])
    assert {"move", "bid"} <= seen


def test_number_keys_pick_the_numbered_choice(page: Page, live_server: LiveServer) -> None:
    game_id = start(page, live_server, "art_gallery", seed=4)
    game = live_server.app.state.store.get(game_id)
    second = page.locator('#decision button.choice[data-key="2"]')
    expected = int(second.get_attribute("data-action"))
    expect(second.locator("kbd")).to_have_text("2")
    before, decision = len(game.actions), page.locator(".play").get_attribute("data-decision")
    page.keyboard.press("2")
    wait_for_next(page, decision)
    assert game.actions[before] == expected


def test_the_gallerist_groups_by_location_with_short_labels_and_board_locations(
    page: Page, live_server: LiveServer
) -> None:
    game_id = start(page, live_server, "gallerist", seed=5)
    game = live_server.app.state.store.get(game_id)
    for _ in range(20):  # to a turn's menu with location actions
        view = view_of(live_server, game_id)
        if any(t.startswith("loc-") for t in (view["choices"] or {}).get("targets", {})):
            break
        decision = page.locator(".play").get_attribute("data-decision")
        page.locator(YOUR_TURN).first.click()
        wait_for_next(page, decision)
    else:
        pytest.fail("no decision about a location in 20 of the person's decisions")
    options = view["choices"]["options"]
    headings = page.locator("#decision h3.group").all_inner_texts()
    if view["choices"]["phase"] == "turn":
        assert any(h.startswith("Location action: ") for h in headings)
    for option in options[:6]:  # the short name on the button, the long text on hover
        button = page.locator(f'#decision button.choice[data-action="{option["action"]}"]')
        assert option["detail"] not in button.inner_text()
        assert option["detail"] in button.get_attribute("title")
        assert option["label"] in button.inner_text()
    legal = targets_by_legal(view)
    target = next(t for t, acts in legal.items() if acts)
    before, decision = len(game.actions), page.locator(".play").get_attribute("data-decision")
    click_target(page, target)
    if len(legal[target]) > 1:
        menu = page.locator("#target-menu button.target-choice")
        assert sorted(int(a) for a in menu.evaluate_all("bs => bs.map(b => b.dataset.action)")) == (
            sorted(legal[target])
        )
        menu.first.click()
    wait_for_next(page, decision)
    assert game.actions[before] in legal[target]


def test_a_gallerist_artist_is_chosen_on_the_board(page: Page, live_server: LiveServer) -> None:
    """Discovering at the Artists Colony asks for an artist: each one that may be chosen
    is a place on the board, and a click on it chooses it."""
    game_id = start(page, live_server, "gallerist", seed=5)
    game = live_server.app.state.store.get(game_id)
    for _ in range(25):
        view = view_of(live_server, game_id)
        legal = {o["action"] for o in view["choices"]["options"] if o["legal"]}
        decision = page.locator(".play").get_attribute("data-decision")
        if view["choices"]["phase"] == "artist":
            places = {t: acts for t, acts in targets_by_legal(view).items() if acts}
            assert places and all(t.startswith("artist-") for t in places)
            target, (action,) = next(iter(places.items()))
            before = len(game.actions)
            click_target(page, target)
            wait_for_next(page, decision)
            assert game.actions[before] == action
            return
        wanted = 0 if 0 in legal else None  # "colony discover": an artist to choose next
        if wanted is None:
            page.locator(YOUR_TURN).first.click()
        else:
            page.locator(f'#decision button.choice[data-action="{wanted}"]').click()
        wait_for_next(page, decision)
    pytest.fail("no artist to choose in 25 of the person's decisions")
