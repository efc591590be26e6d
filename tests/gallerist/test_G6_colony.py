"""G6 Artists Colony: discover an artist, buy a work."""

from __future__ import annotations

from gallerist_helpers import (
    do,
    fix_visitors,
    give_artist,
    give_work,
    names,
    pay_cash,
    refresh,
    started,
)

from art_gallery_env.games.gallerist.rules.data import BONUS_KINDS
from art_gallery_env.games.gallerist.rules.effects import sales_value
from art_gallery_env.games.gallerist.rules.state import EMPTY

FORMS = ("painting", "photo", "sculpture", "digital")
COLOURS = ("blue", "red")


def artist_name(slot: int) -> str:
    return f"artist {FORMS[slot // 2]} {COLOURS[slot % 2]}"


def set_bonus(s, slot: int, kind: str) -> None:
    """Put a bonus tile of ``kind`` on undiscovered artist ``slot``."""
    d = s.data
    tile = next(i for i, b in enumerate(d.artist_bonus_tiles) if BONUS_KINDS[b.kind] == kind)
    holder = s.artist_bonus.index(tile) if tile in s.artist_bonus else None
    if holder is not None:
        s.artist_bonus[holder] = s.artist_bonus[slot]
    else:
        s.box_bonus_tiles.remove(tile)
        s.box_bonus_tiles.append(s.artist_bonus[slot])
        s.box_bonus_tiles.sort()
    s.artist_bonus[slot] = tile


def at_market(seed: int = 0):
    return started(2, seed, starts=("market", "sales"))


def test_G6_1_discover_bonus_collector_flip_fame_commission():
    s = at_market(1)
    red = next(a for a in range(8) if a % 2 == 1 and not s.discovered[a])
    set_bonus(s, red, "money")
    refresh(s)
    plaza_collectors, money = s.plaza[2], s.money[0]
    do(s, "colony discover", "assistant none", artist_name(red))
    d = s.data
    assert s.discovered[red] and s.fame[red] == d.artists[s.artist_tile[red]].initial_fame
    assert s.money[0] == money + 3  # the money bonus tile
    assert s.artist_bonus[red] == EMPTY
    assert not s.artist_collector[red] and s.plaza[2] == plaza_collectors + 1
    assert s.commission[0] == red and s.tokens[red] == 1
    # a fame bonus tile adds to the initial fame
    s = at_market(2)
    blue = next(a for a in range(8) if a % 2 == 0 and not s.discovered[a])
    set_bonus(s, blue, "fame")
    refresh(s)
    do(s, "colony discover", "assistant none", artist_name(blue))
    assert s.fame[blue] == s.data.artists[s.artist_tile[blue]].initial_fame + 2


def test_G6_2_one_commission_at_a_time():
    s = at_market(3)
    assert "colony discover" in names(s)
    slot = s.discovered.index(True)
    s.commission[0] = slot
    s.tokens[slot] -= 1
    refresh(s)
    assert "colony discover" not in names(s)


def test_G6_3_buy_pays_fame_raises_fame_gains_tickets_places_the_work():
    s = at_market(4)
    slot = s.discovered.index(True)
    give_artist(s, slot, fame=5)
    s.gallery_visitors[0] = [0, 0, 1]  # one Collector: +1 fame
    fix_visitors(s)
    refresh(s)
    form = slot // 2
    work = s.stacks[form][-1]
    on_work = list(s.work_visitors[form])
    plaza = list(s.plaza)
    d = s.data
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, artist_name(slot))
    pay_cash(s)
    assert s.money[0] == 10 - 5
    assert s.gallery[0] == [work] and s.work_artist[work] == slot and s.tokens[slot] == 1
    assert s.fame[slot] == 5 + d.works[work].fame + 1
    assert [s.plaza[c] - plaza[c] for c in range(3)] == on_work
    assert sum(s.work_visitors[form]) == len(d.works[s.stacks[form][-1]].tickets)
    while s.phase_name in ("fame", "ticket"):
        do(s, "done" if s.phase_name == "fame" else names(s)[0])
    assert sum(s.tickets[0]) == len(d.works[work].tickets)


def test_G6_3_a_commission_costs_the_initial_fame():
    s = at_market(5)
    blue = next(a for a in range(8) if a % 2 == 0 and not s.discovered[a])
    give_artist(s, blue, fame=12)
    s.tokens[blue] -= 1
    s.commission[0] = blue
    refresh(s)
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, artist_name(blue))
    do(s, "use commission")  # a token is left too: the player's choice (G6.3)
    pay_cash(s)
    assert s.money[0] == 10 - s.data.artists[s.artist_tile[blue]].initial_fame
    assert s.commission[0] == EMPTY and s.tokens[blue] == 1  # the other token stays


def test_G6_4_two_unsold_works_per_artist():
    s = at_market(6)
    slot = s.discovered.index(True)  # the only discovered artist
    give_work(s, 1, slot)
    work = give_work(s, 1, slot)
    refresh(s)
    assert s.tokens[slot] == 0
    assert "colony buy" not in names(s)
    s.gallery[1].remove(work)  # sold: its signature token goes back to the artist
    s.sold[1].append(work)
    s.tokens[slot] += 1
    refresh(s)
    assert "colony buy" in names(s)


def test_G6_5_three_slots_a_fourth_with_a_masterpiece():
    s = at_market(7)
    slot = s.discovered.index(True)
    other = (slot + 2) % 8 if (slot + 2) % 8 % 2 == 0 else slot
    give_artist(s, other, fame=3)
    for artist in (slot, slot, other):
        give_work(s, 0, artist)
    refresh(s)
    assert "colony buy" not in names(s)
    s.masterpiece[s.gallery[0][0]] = True
    refresh(s)
    assert "colony buy" in names(s)


def test_G6_6_the_third_slot_start_tile_at_the_end_of_the_turn():
    s = at_market(8)
    slot = s.discovered.index(True)
    other = (slot + 2) % 8
    give_artist(s, other)
    give_work(s, 0, slot)
    give_work(s, 0, other)
    tile = s.start_tile[0]
    refresh(s)
    do(s, "colony buy", "assistant none")
    if s.phase_name == "artist":
        do(s, artist_name(slot))
    pay_cash(s)
    assert s.pending_tile[0] == tile and s.start_tile[0] == EMPTY
    while s.phase_name in ("fame", "ticket"):
        do(s, "done" if s.phase_name == "fame" else names(s)[0])
    if s.phase_name == "post":
        do(s, "done")
    assert s.phase_name == "space" and s.current_player == 0
    lobby = sum(s.lobby[0])
    money = s.money[0]
    do(s, "space 1")  # the money space
    assert s.spaces[0][1] == tile and s.pending_tile[0] == EMPTY
    assert s.money[0] == money + 3
    assert sum(s.lobby[0]) == lobby - 1  # one Lobby visitor went back to the Plaza
    assert s.current_player == 1


def test_G6_7_an_empty_stack_makes_no_work():
    s = at_market(9)
    slot = s.discovered.index(True)
    form = slot // 2
    while s.stacks[form]:
        s.box_works.append(s.stacks[form].pop())
    s.box_works.sort()
    s.plaza = [a + b for a, b in zip(s.plaza, s.work_visitors[form], strict=True)]
    s.work_visitors[form] = [0, 0, 0]
    refresh(s)
    assert "colony buy" not in names(s)


def test_sales_value_follows_the_star_thresholds():
    s = at_market(10)
    slot = s.discovered.index(True)
    stars = s.data.artists[s.artist_tile[slot]].stars
    give_artist(s, slot, fame=stars[0] - 1)
    assert sales_value(s, slot) == 0
    give_artist(s, slot, fame=stars[0])
    assert sales_value(s, slot) == 5
