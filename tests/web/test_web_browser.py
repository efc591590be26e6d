"""The page in a real browser: headless Chromium driven by Playwright (pytest-playwright's
``page`` fixture, launched from the system Chromium, see conftest.py) against a live
uvicorn server. A person sets up a game, plays it by clicking, replays it."""

from __future__ import annotations

import random

import pytest
from conftest import CHECKPOINTS, LiveServer
from playwright.sync_api import Page, expect

from art_gallery_env.arena.records import load_record

# Each test drives a real Chromium through Playwright: seconds apiece, so all are slow.
pytestmark = pytest.mark.slow

TIMEOUT = 30_000  # ms: agents think between two pages
# The page after a click shows the agents thinking first (/api/live answers the person's
# decision at once), then the person's next choices, or the result.
YOUR_TURN_OR_END = "#decision button.choice:not([disabled]), #result"


def start_game(page: Page, server: LiveServer, players: int, opponent: str) -> str:
    page.goto(server.url + "/")
    page.select_option("#players", str(players))
    for select in page.locator("select.opponent").all():
        select.select_option(opponent)
    page.click("#start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector(".play", timeout=TIMEOUT)
    return page.url.rsplit("/", 1)[-1]


def shown_choices(page: Page) -> tuple[list[int], list[int]]:
    """(enabled, disabled) action ids of the choice buttons on the page."""
    enabled, disabled = [], []
    for button in page.locator("button.choice").all():
        action = int(button.get_attribute("data-action"))
        (disabled if button.is_disabled() else enabled).append(action)
    return enabled, disabled


def click_and_wait(page: Page, selector: str) -> None:
    """Click, then wait for the person's next decision (or the end): the page shows the
    person's move at once and each agent's move as it comes (test_web_live.py)."""
    decision = page.locator(".play").get_attribute("data-decision")
    page.click(selector)
    page.wait_for_function(
        "d => { const p = document.querySelector('.play'); return p && p.dataset.decision !== d"
        " && !!document.querySelector('#decision button.choice:not([disabled]), #result'); }",
        arg=decision,
        timeout=TIMEOUT,
    )


def test_illegal_choices_are_not_clickable(page: Page, live_server: LiveServer) -> None:
    game_id = start_game(page, live_server, 2, "random")
    game = live_server.app.state.store.get(game_id)
    # The first page may be "Waiting" while the agent plays first (a random seed picks the
    # start player), and then shows no choices: wait for the person's turn.
    page.wait_for_selector(YOUR_TURN_OR_END, timeout=TIMEOUT)
    enabled, disabled = shown_choices(page)
    assert set(enabled) == set(game.state.legal_actions())  # every legal choice, only those
    assert 1 in disabled  # move 0 anticlockwise: never legal (R4.3), shown greyed out
    assert not set(disabled) & set(game.state.legal_actions())
    before = len(game.actions)
    page.locator('button.choice[data-action="1"]').click(force=True)  # a click on it anyway
    page.wait_for_timeout(300)
    assert len(game.actions) == before and page.locator("#toast").is_hidden()
    click_and_wait(page, f'button.choice[data-action="{enabled[0]}"]')
    assert game.actions[before] == enabled[0]


def _result_then_its_replay(page: Page, game) -> None:
    """The finished game's result shows its totals and the person's verdict; its replay
    (the record of the game) steps through the first decisions."""
    result = page.locator("#result")
    expect(result).to_be_visible()
    totals = [int(t) for t in result.locator("td.total").all_inner_texts()]
    assert totals == [row["total"] for row in game.state.score_breakdown()]
    assert result.locator("h2").text_content().startswith("You ")
    page.click("#replay-link")
    page.wait_for_selector(".replay")
    expect(page.locator("#step")).to_have_text(f"0 / {len(game.actions)}")
    for expected in (1, 2, 3):
        page.click("#next")
        expect(page.locator("#step")).to_have_text(f"{expected} / {len(game.actions)}")
    expect(page.locator("#decision-info")).to_contain_text("Decision 3")


@pytest.mark.slow
def test_play_a_whole_game_against_random_by_clicking_then_replay_it(
    page: Page, live_server: LiveServer
) -> None:
    game_id = start_game(page, live_server, 4, "random")
    game = live_server.app.state.store.get(game_id)
    rng = random.Random(0)
    clicks = 0
    while True:  # the person's turn, or the end (which an agent's decision may bring)
        page.wait_for_selector(YOUR_TURN_OR_END, timeout=TIMEOUT)
        if page.locator("#result").count():
            break
        enabled, disabled = shown_choices(page)
        assert set(enabled) == set(game.state.legal_actions())
        assert not set(disabled) & set(enabled)
        click_and_wait(page, f'button.choice[data-action="{rng.choice(enabled)}"]')
        clicks += 1
    assert clicks > 40
    _result_then_its_replay(page, game)


def test_replay_a_record_step_by_step_and_by_scrubbing(page: Page, live_server: LiveServer) -> None:
    record = load_record(live_server.data.parent / "records" / "legacy_3p.json")
    steps = len(record["actions"])
    page.goto(live_server.url + "/#/replays")
    page.click('tr[data-record="file-legacy_3p"] a.button')
    page.wait_for_selector(".replay")
    step = page.locator("#step")
    expect(step).to_have_text(f"0 / {steps}")
    expect(page.locator("#prev")).to_be_disabled()
    page.click("#next")
    expect(step).to_have_text(f"1 / {steps}")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"2 / {steps}")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"1 / {steps}")
    # the decision shown is the record's first action
    first = record["actions"][0]
    expect(page.locator("#decision-info")).to_contain_text("Decision 1")
    assert str(first // 2) in page.locator("#decision-info").inner_text()  # move <value>
    # scrub to the middle, view as seat 1: another seat's face-down bids are card backs
    page.locator("#scrub").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", steps // 2
    )
    expect(step).to_have_text(f"{steps // 2} / {steps}")
    page.select_option("#viewer", "1")
    expect(page.locator(".board svg")).to_contain_text("P1 heuristic's view")
    expect(step).to_have_text(f"{steps // 2} / {steps}")
    page.click("#last")
    expect(step).to_have_text(f"{steps} / {steps}")
    totals = [int(t) for t in page.locator("#result td.total").all_inner_texts()]
    assert totals == [row["total"] for row in record["breakdown"]]


def test_policy_insight_appears_after_the_round(page: Page, live_server: LiveServer) -> None:
    game_id = start_game(page, live_server, 2, str(CHECKPOINTS / "ppo_2p.safetensors"))
    game = live_server.app.state.store.get(game_id)
    rng = random.Random(1)
    while game.state.round == 1:
        page.wait_for_selector(YOUR_TURN_OR_END, timeout=TIMEOUT)  # agents answer later
        expect(page.locator("#insight .ins-entry")).to_have_count(0)
        enabled, _ = shown_choices(page)
        click_and_wait(page, f'button.choice[data-action="{rng.choice(enabled)}"]')
    entries = page.locator("#insight .ins-entry")
    expect(entries.first).to_be_visible()
    round_1 = sum(1 for r, s in zip(game.rounds, game.deciders) if s == 1 and r == 1)
    assert entries.count() == round_1
    first = entries.first
    expect(first).to_contain_text("P1 ppo_2p")
    expect(first).to_contain_text("no value head")
    assert first.locator(".bar-row").count() >= 1
    expect(first.locator(".bar-row.chosen")).to_have_count(1)


def start_gallerist_game(page: Page, server: LiveServer, players: int, opponent: str) -> str:
    """The set-up form with the game selector: the table sizes, variants and agents follow
    the chosen game."""
    page.goto(server.url + "/")
    expect(page.locator("#zero_is_ten")).to_have_count(1)  # Art Gallery's one variant
    page.select_option("#game", "gallerist")
    expect(page.locator("#board-note")).to_be_hidden()  # the Gallerist has a drawn board
    expect(page.locator("#variants input")).to_have_count(0)
    sizes = page.locator("#players option").all_inner_texts()
    assert sizes == ["1 player", "2 players", "3 players", "4 players"]
    page.select_option("#players", str(players))
    checkpoints = page.locator("select.opponent option").all_inner_texts()
    assert any("gallerist_2p" in c for c in checkpoints)
    assert not any("ppo_2p" in c for c in checkpoints)  # Art Gallery's: not offered here
    for select in page.locator("select.opponent").all():
        select.select_option(opponent)
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector(".play", timeout=TIMEOUT)
    return page.url.rsplit("/", 1)[-1]


def test_a_whole_gallerist_game_against_the_heuristic_by_clicking_then_replay_it(
    page: Page, live_server: LiveServer
) -> None:
    """The Gallerist in Chromium, on its drawn board, every legal choice of each compound
    turn a button with its explanation on hover, clicked to the end of the
    game against the heuristic (the person's clicks chosen by a heuristic of the test's own,
    so the game ends by the rulebook's conditions), then replayed with the seats' views."""
    from art_gallery_env.agents.registry import make_agent

    game = live_server.app.state.store.get(start_gallerist_game(page, live_server, 2, "heuristic"))
    assert game.game == "gallerist" and game.agents == ["human", "heuristic"]
    spec = game.rules
    observer, me = spec.make_observer(game.state), make_agent("heuristic", seed=1, game="gallerist")
    expect(page.locator(".board svg")).to_contain_text("The Gallerist")
    expect(page.locator(".board svg")).to_contain_text("view of You")
    clicks, phases = 0, set()
    while True:  # the person's turn, or the end (which an agent's decision may bring)
        page.wait_for_selector(YOUR_TURN_OR_END, timeout=TIMEOUT)
        if page.locator("#result").count():
            break
        enabled, disabled = shown_choices(page)
        state = game.state
        assert set(enabled) == set(state.legal_actions()) and not disabled
        phases.add(state.phase_name)
        if clicks % 10 == 0:  # each choice is explained, as describe_choice says
            world = state.determinize(game.seat, random.Random(0))
            for button in page.locator("#decision button.choice").all()[:6]:
                action = int(button.get_attribute("data-action"))
                detail = spec.describe_choice(world, game.seat, action)
                assert detail and detail in button.get_attribute("title")  # on hover
        action = me.act(*observer.inputs(state, game.seat))
        click_and_wait(page, f'#decision button.choice[data-action="{action}"]')
        clicks += 1
    assert clicks > 40 and {"turn", "artist", "ticket"} <= phases
    _result_then_its_replay(page, game)
    page.select_option("#viewer", "1")
    expect(page.locator(".board svg")).to_contain_text("view of P1 heuristic")
    expect(page.locator(".board svg")).to_contain_text("(hidden)")  # P0's secret cards


def test_the_gallerist_is_set_up_and_its_drawn_board_played_by_clicking(
    page: Page, live_server: LiveServer
) -> None:
    """A few decisions of a 3-player Gallerist game against random: the drawn board, the
    turn's choices grouped, the other seats' secret cards as card backs."""
    game_id = start_gallerist_game(page, live_server, 3, "random")
    game = live_server.app.state.store.get(game_id)
    assert game.game == "gallerist" and game.agents == ["human", "random", "random"]
    expect(page.locator(".board svg")).to_contain_text("secret cards")
    expect(page.locator(".board svg")).to_contain_text("(hidden)")
    rng, menus = random.Random(2), 0
    for _ in range(12):
        page.wait_for_selector(YOUR_TURN_OR_END, timeout=TIMEOUT)
        enabled, disabled = shown_choices(page)
        assert set(enabled) == set(game.state.legal_actions()) and not disabled
        headings = page.locator("#decision h3.group").all_inner_texts()
        if game.state.phase_name in ("turn", "post", "kicked"):  # the turn's menu, by part
            menus += 1
            assert any(h == "Done" or h.startswith("Location action: ") for h in headings)
        else:
            assert headings == []
        before = len(game.actions)
        click_and_wait(page, f'button.choice[data-action="{rng.choice(enabled)}"]')
        assert game.actions[before] in enabled
    assert menus >= 2


def test_a_saved_game_that_does_not_load_is_named_on_the_games_page(page: Page, tmp_path) -> None:
    """A corrupt saved game is shown on the page (not only in /api/setup), with
    the server's reason, which names no seat's actions or legal moves."""
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)  # the app keeps its games in DATA/games
    (data / "games" / "broken.json").write_text('{"game": "nogame"}', encoding="utf-8")
    with LiveServer(data) as server:
        page.goto(server.url + "/#/games")
        notice = page.locator("#skipped-games li")
        expect(notice).to_have_count(1, timeout=TIMEOUT)
        text = notice.inner_text()
        assert text.startswith("broken.json") and "legal" not in text
