"""G1 components: the packaged data and the conservation of limited components."""

from __future__ import annotations

import json
import random

import pytest
from gallerist_helpers import play_random, refresh

from art_gallery_env.games.gallerist.rules.data import (
    BONUS_KINDS,
    TILE_SCORINGS,
    GameDataError,
    default_game_data,
    game_data_from_dict,
    load_game_data,
)
from art_gallery_env.games.gallerist.rules.invariants import (
    InconsistentStateError,
    assistants_of,
    check_invariants,
    tickets_in_play,
    visitors_in_play,
)
from art_gallery_env.games.gallerist.rules.state import new_game

D = default_game_data()


def raw_data() -> dict:
    from importlib import resources

    text = (
        resources.files("art_gallery_env.games.gallerist")
        .joinpath("data/gallerist.json")
        .read_text()
    )
    return json.loads(text)


def test_G1_1_four_art_forms_and_three_visitor_colours():
    assert D.art_forms == ("painting", "photo", "sculpture", "digital")
    assert D.colours == ("investor", "vip", "collector")
    bad = raw_data()
    bad["art_forms"][1] = "painting"
    with pytest.raises(GameDataError, match="distinct"):
        game_data_from_dict(bad)


def test_G1_2_sixteen_artists_two_blue_two_red_per_form():
    assert len(D.artists) == 16
    for form in range(4):
        for colour in (0, 1):
            assert len(D.artists_for(form, colour)) == 2
    for a in D.artists:
        assert len(a.stars) == 6 and list(a.stars) == sorted(set(a.stars))
        assert a.stars[-1] == D.celebrity_fame
    bad = raw_data()
    bad["artists"][0]["colour"] = "red" if bad["artists"][0]["colour"] == "blue" else "blue"
    with pytest.raises(GameDataError, match="need 2"):
        game_data_from_dict(bad)
    bad = raw_data()
    bad["artists"][3]["stars"] = [2, 6, 6, 12, 15, 19]
    with pytest.raises(GameDataError, match=r"artists\[3\]\.stars: thresholds must increase"):
        game_data_from_dict(bad)


def test_G1_3_thirty_two_works_with_fame_and_one_or_two_ticket_icons():
    assert len(D.works) == 32
    for form in range(4):
        assert len(D.works_of(form)) == 8
    assert {len(w.tickets) for w in D.works} == {1, 2}
    assert {w.fame for w in D.works} == {0, 1, 2}
    assert any(icon == 0b111 for w in D.works for icon in w.tickets)  # "any colour"
    bad = raw_data()
    bad["works"][0]["tickets"] = [["gold"]]
    with pytest.raises(GameDataError, match=r"works\[0\]\.tickets\[0\]\[0\]: 'gold'"):
        game_data_from_dict(bad)


def test_G1_4_forty_visitors_fourteen_fourteen_twelve():
    assert D.visitors == (14, 14, 12) and sum(D.visitors) == 40
    for n in (1, 2, 3, 4):
        assert visitors_in_play(new_game(n, 1)) == [14, 14, 12]


def test_G1_5_sixty_tickets_twenty_per_colour():
    for n in (1, 2, 3, 4):
        assert tickets_in_play(new_game(n, 2)) == [20, 20, 20]


def test_G1_6_ten_assistants_per_player():
    s = new_game(3, 3)
    assert [assistants_of(s, p) for p in range(3)] == [10, 10, 10]
    assert s.desks == [2, 2, 2] and s.queue == [8, 8, 8]


def test_G1_7_twenty_reputation_tiles_one_per_scoring():
    assert len(D.reputation_tiles) == 20
    assert sorted(t.scoring for t in D.reputation_tiles) == list(range(len(TILE_SCORINGS)))
    masterpiece = next(t for t in D.reputation_tiles if t.id == "masterpieces")
    assert (masterpiece.money, masterpiece.influence) == (4, 2)  # the seed: 2 influence, 4 money


def test_G1_8_twenty_contracts_five_per_form_with_front_and_back():
    assert len(D.contracts) == 20
    for form in range(4):
        kinds = sorted(BONUS_KINDS[c.bonus.kind] for c in D.contracts if c.form == form)
        flat = "money" if form in (0, 1) else "influence"
        assert kinds == sorted(
            ["assistant", "visitor_bag", "visitor_plaza_vip_investor", flat, "contract"]
        )
    influence_half, money_half = D.contract_back
    assert (
        BONUS_KINDS[influence_half.kind] == "influence_per_visitor" and influence_half.colour == 1
    )
    assert BONUS_KINDS[money_half.kind] == "money_per_visitor" and money_half.colour == 0


def test_G1_9_four_curator_and_four_art_dealer_cards_dealt_once():
    assert len(D.curators) == 4 and len(D.dealers) == 4
    assert all(len(c.goals) == 3 for c in D.curators + D.dealers)
    s = new_game(4, 5)
    assert sorted(s.curator) == [0, 1, 2, 3] and sorted(s.dealer) == [0, 1, 2, 3]
    s = new_game(2, 5)
    assert sorted(s.curator + s.box_curators) == [0, 1, 2, 3]
    assert len(set(s.curator)) == 2


def test_G1_10_bonus_tiles_promotion_tokens_celebrity():
    kinds = sorted(BONUS_KINDS[b.kind] for b in D.artist_bonus_tiles)
    assert kinds == sorted(["fame", "influence", "money", "visitor_plaza", "tickets_two"] * 2)
    assert D.promotion_tokens == 4
    s = new_game(2, 6)
    assert s.promo_tokens == [4] * 5
    assert sum(b != -1 for b in s.artist_bonus) == 7 and len(s.box_bonus_tiles) == 3
    assert D.celebrity_fame == 19 and D.celebrity_money == 5


def test_G1_11_limited_components_are_conserved_and_checked():
    rng = random.Random(11)
    s = new_game(3, 11)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        check_invariants(s)
    # an extra visitor, a duplicated work or an extra ticket is caught
    for edit, match in (
        (lambda t: t.plaza.__setitem__(0, t.plaza[0] + 1), "visitors"),
        (lambda t: t.box_works.append(t.box_works[0] if t.box_works else 0), "works"),
        (lambda t: t.tickets[0].__setitem__(1, t.tickets[0][1] + 1), "tickets"),
        (lambda t: t.queue.__setitem__(1, t.queue[1] + 1), "assistants"),
    ):
        t = play_random(new_game(3, 12), random.Random(12)).clone()
        edit(t)
        with pytest.raises(InconsistentStateError, match=match):
            refresh(t)


def test_data_file_round_trip_and_fingerprint(tmp_path):
    path = tmp_path / "g.json"
    raw = raw_data()
    path.write_text(json.dumps(raw))
    assert load_game_data(path).fingerprint == D.fingerprint
    raw["player_board"]["start_money"] = 12
    path.write_text(json.dumps(raw))
    other = load_game_data(path)
    assert other.fingerprint != D.fingerprint
    assert new_game(2, 1, data=other).money == [12, 12]
    path.write_text("{not json")
    with pytest.raises(GameDataError, match="not valid JSON"):
        load_game_data(path)
    bad = raw_data()
    bad["contracts"][2]["bonus"] = {"kind": "money", "amount": 0}
    with pytest.raises(GameDataError, match=r"contracts\[2\]\.bonus\.amount"):
        game_data_from_dict(bad)
