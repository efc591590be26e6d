"""The page's end screens and labels in Chromium: the score table fits its panel, the
verdict is the game's own (a solo goal level, never a win at a table of one), every seat's
dot and label belong to the seat named, badges and names never cover each other, many
souvenir tiles stay readable, and the header names the game on screen."""

from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest
from conftest import LiveServer
from playwright.sync_api import Page, expect

from art_gallery_env.core.registry import get_game
from art_gallery_env.web.views import web_of

pytestmark = pytest.mark.slow  # each drives a real Chromium against a live server

TIMEOUT = 30_000
LONG = "P1 ismcts:iters=50,rollout=heuristic"


def finished(server: LiveServer, game: str, players: int, seed: int = 2) -> str:
    """A game of ``game`` against random played to its end through the store."""
    store = server.app.state.store
    made = store.create(players, 0, ["random"] * (players - 1), seed, game=game)
    rng = random.Random(seed)
    with made.lock:
        while not made.state.is_over:
            store.act(made, rng.choice(made.state.legal_actions()))
    return made.id


def open_game(page: Page, server: LiveServer, game_id: str) -> None:
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#result", timeout=TIMEOUT)


@pytest.mark.parametrize("width", [800, 1440, 1920])
def test_the_gallerist_score_table_fits_its_panel(
    page: Page, live_server: LiveServer, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_game(page, live_server, finished(live_server, "gallerist", 4))
    sizes = page.evaluate(
        "() => { const t = document.querySelector('#result table'), p = t.parentElement;"
        " return { table: t.getBoundingClientRect().right, panel: p.getBoundingClientRect().right"
        " - parseFloat(getComputedStyle(p).paddingRight), scroll: document.documentElement"
        ".scrollWidth, view: window.innerWidth }; }"
    )
    assert sizes["table"] <= sizes["panel"] + 0.5, sizes
    assert sizes["scroll"] <= sizes["view"], sizes  # no sideways scroll
    heads = page.locator("#result tbody th").all_inner_texts()
    assert "total" in heads and "rank" in heads
    for cell in page.locator("#result tr[data-key='rank'] td").all():
        assert cell.is_visible()


def test_a_solo_gallerist_game_names_its_goal_level_not_a_win(
    page: Page, live_server: LiveServer
) -> None:
    game_id = finished(live_server, "gallerist", 1, seed=3)
    state = live_server.app.state.store.get(game_id).state
    row = state.score_breakdown()[0]
    open_game(page, live_server, game_id)
    verdict = page.locator("#result h2").inner_text()
    assert "win" not in verdict.lower()
    level = row["goal_level"]
    if level:
        assert f"Goal level {level}" in verdict and row["goal_name"] in verdict
    else:
        assert "No goal level reached" in verdict
    next_goal = state.data.solo_goals[level]
    assert f"Level {level + 1} ({next_goal.name}) lacked" in verdict
    heads = page.locator("#result tbody th").all_inner_texts()
    assert "goal level" in heads and "Lacerda's majorities" in heads
    assert page.locator("#result .winner").count() == 0  # no winner at a table of one
    page.goto(f"{live_server.url}/#/games")  # the list says the same, not "won"
    expect(page.locator(f'tr[data-game="{game_id}"]')).to_contain_text("goal level")
    assert "won" not in page.locator(f'tr[data-game="{game_id}"]').inner_text()


def colour_of(page: Page, seat: int) -> str:
    """The CSS colour of a seat's dot as the browser computes it."""
    colours = live_colours(page)
    return page.evaluate(
        "c => { const e = document.createElement('span'); e.style.background = c;"
        " document.body.append(e); const v = getComputedStyle(e).backgroundColor;"
        " e.remove(); return v; }",
        colours[seat],
    )


def live_colours(page: Page) -> list[str]:
    return get_game("art_gallery").extension("web").COLOURS


def test_every_last_move_line_has_the_dot_of_the_seat_it_names(
    page: Page, live_server: LiveServer
) -> None:
    game_id = finished(live_server, "art_gallery", 2, seed=2)
    names = live_server.app.state.store.get(game_id).names
    open_game(page, live_server, game_id)
    lines = page.locator("#last-move li").all()
    seen = set()
    for line in lines:
        text = line.inner_text()
        dot = line.locator(".dot")
        named = [p for p, name in enumerate(names) if text.startswith(name)]
        if not named:
            assert dot.count() == 0, text  # a line about no seat carries no seat's colour
            continue
        seat = max(named, key=lambda p: len(names[p]))
        seen.add(seat)
        shown = dot.evaluate("e => getComputedStyle(e).backgroundColor")
        assert shown == colour_of(page, seat), text
    assert seen == {0, 1}  # this last move has lines of both seats


def test_the_gallerist_board_labels_the_person_once(page: Page, live_server: LiveServer) -> None:
    store = live_server.app.state.store
    game = store.create(2, 0, ["random"], 4, game="gallerist")
    page.goto(f"{live_server.url}/#/game/{game.id}")
    page.wait_for_selector(".board svg", timeout=TIMEOUT)
    board = page.locator(".board").inner_text()
    assert "You (P0)" in board and "(you)" not in board


def test_header_and_title_name_the_game_on_screen(page: Page, live_server: LiveServer) -> None:
    game_id = finished(live_server, "gallerist", 2)
    open_game(page, live_server, game_id)
    expect(page.locator(".brand")).to_have_text("The Gallerist")
    assert "The Gallerist" in page.title() and "Art Gallery" not in page.title()
    page.goto(f"{live_server.url}/#/game/{finished(live_server, 'art_gallery', 2)}")
    expect(page.locator(".brand")).to_have_text("Art Gallery")
    expect(page).to_have_title(re.compile("Art Gallery"))


def end_board(page: Page, tiles: int) -> tuple[object, list[str]]:
    """A finished 2-player Art Gallery board with ``tiles`` souvenir tiles for seat 0 and a
    long agent name for seat 1, drawn for a spectator on a bare page."""
    spec = get_game("art_gallery")
    state = spec.setup(2, 2, None)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    state.tiles_held[0] = list(range(1, tiles + 1))
    state.start_player = 1  # the "start card" badge beside the long name
    names = ["You (P0)", LONG]
    page.set_content(web_of(spec).board(state, None, names))
    return state, names


BOXES = """ els => els.map(e => { const b = e.getBBox();
  return [b.x, b.y, b.width, b.height, e.textContent]; }) """


def overlap(a: list, b: list) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_badges_never_cover_names_and_long_names_are_whole(page: Page) -> None:
    end_board(page, 10)
    texts = page.locator("svg text").evaluate_all(BOXES)
    rects = page.locator("svg rect").evaluate_all(BOXES)
    name = [t for t in texts if t[4] == LONG]
    assert len(name) == 1  # whole, not cut with an ellipsis
    badge_labels = [t for t in texts if t[4] in ("start card", "to act")]
    small = [r for r in rects if r[3] <= 20 and r[2] < 120]  # not the strip behind them
    badges = [r for r in small if any(overlap(r, label) for label in badge_labels)]
    assert badges and not any(overlap(name[0], b) for b in badges)
    score = [t for t in texts if t[4].startswith("score ")]
    assert not any(overlap(name[0], s) for s in score)


def test_many_souvenir_tiles_stay_readable_and_tiles_means_tiles(page: Page) -> None:
    """38 tiles (a 2-player game's end): each number whole inside its own tile, no two tiles
    overlapping; the score line calls their points souvenirs ("tiles" counts tiles)."""
    state, _ = end_board(page, 38)
    texts = page.locator("svg text").evaluate_all(BOXES)
    rects = page.locator("svg rect").evaluate_all(BOXES)
    label = min((t for t in texts if t[4] == "tiles"), key=lambda t: t[1])  # seat 0's strip
    near = lambda b: label[1] - 25 < b[1] < label[1] + 30 and b[0] < 500  # noqa: E731
    strip = [r for r in rects if near(r) and r[2] < 40]
    numbers = [t for t in texts if re.fullmatch(r"\d+", t[4]) and near(t)]
    tiles = []
    for k in range(1, 39):
        (number,) = [t for t in numbers if t[4] == str(k)]
        home = [r for r in strip if overlap(r, number)]
        assert len(home) == 1, k
        r = home[0]
        assert r[0] <= number[0] and number[0] + number[2] <= r[0] + r[2], k  # whole inside
        tiles.append(r)
    assert not any(overlap(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1 :])
    assert len(numbers) == 38 and all(t[3] >= 8 for t in numbers)  # 8 px text or more
    assert not [t[4] for t in texts if re.search(r"\btiles \d", t[4])]
    assert any(f"souvenirs {state.score_breakdown()[0]['souvenirs']}" in t[4] for t in texts)


def test_the_art_gallery_score_table_tells_souvenirs_from_tiles_held(
    page: Page, live_server: LiveServer
) -> None:
    open_game(page, live_server, finished(live_server, "art_gallery", 2))
    heads = page.locator("#result tbody th").all_inner_texts()
    assert "souvenirs" in heads and "tiles held" in heads and "tiles" not in heads


def test_the_set_up_form_grammar_and_the_strongest_opponent(
    page: Page, live_server: LiveServer
) -> None:
    """Checkpoint labels read "trained at 1 player"; the form names the strongest opponent
    and lists the measured ones first (the game's web view's ``strength``)."""
    strength = {name: web_of(get_game(name)).strength for name in ("art_gallery", "gallerist")}

    def with_strength(route) -> None:  # the set-up answer with each game's measured strength
        data = json.loads(urllib.request.urlopen(route.request.url).read())
        for game in data["games"]:
            game.setdefault("strength", strength.get(game["name"], []))
        route.fulfill(json=data)

    page.route("**/api/setup", with_strength)
    page.goto(live_server.url + "/")
    page.select_option("#game", "gallerist")
    page.select_option("#players", "2")
    options = page.locator("select.opponent option").all_inner_texts()
    assert not [o for o in options if "1 players" in o]
    assert any("trained at 1 player)" in o for o in options)
    best = strength["gallerist"][0]
    expect(page.locator("#strongest")).to_contain_text(best["spec"].split(":")[0])
    values = page.locator("select.opponent option").evaluate_all("os => os.map(o => o.value)")
    assert values[0].endswith(best["spec"])  # a checkpoint: its path


def test_a_replay_whose_checkpoint_has_no_value_head_says_so(
    page: Page, live_server: LiveServer
) -> None:
    game_id = finished(live_server, "gallerist", 2)
    url = f"{live_server.url}/api/games/{game_id}/record"
    record = json.loads(urllib.request.urlopen(url).read())
    record["insight"] = [  # a checkpoint's insight without a value head, at every decision
        {"kind": "policy", "top": [{"action": a, "p": 1.0}], "value": None, "legal": 1}
        for a in record["actions"]
    ]
    request = urllib.request.Request(
        f"{live_server.url}/api/replays",
        data=json.dumps(record).encode(),
        headers={"Content-Type": "application/json"},
    )
    replay = json.loads(urllib.request.urlopen(request).read())["id"]
    page.goto(f"{live_server.url}/#/replay/{replay}?step=3")
    page.wait_for_selector("#chart", timeout=TIMEOUT)
    note = page.locator("#no-values").inner_text()
    assert "no value estimate" in note and "has no checkpoint or search insight" not in note
