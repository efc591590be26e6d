"""The words beside a Gallerist choice say what the rules now do (G3.3 of gallerist_v1): an
own assistant where the Gallerist arrives may be the one left behind, so it goes home only
if it is not chosen; from the own Gallery nothing is left behind."""

from __future__ import annotations

from gallerist_helpers import do, refresh, started

from art_gallery_env.games.gallerist.choices import describe_choice
from art_gallery_env.games.gallerist.rules.actions import str_to_action
from art_gallery_env.games.gallerist.rules.frames import HOME
from art_gallery_env.games.gallerist.rules.state import ASSISTANT, EMPTY

OWN_ASSISTANT = 2 * 0 + ASSISTANT  # player 0's assistant on a location


def _text(s, name: str) -> str:
    return describe_choice(s, s.current_player, str_to_action(name))


def test_G3_3_the_move_onto_an_own_assistant_says_it_may_stay_behind():
    s = started(2, 0)  # player 0 at the Artists Colony
    s.occupant[2] = OWN_ASSISTANT  # at the Media Center
    s.queue[0] -= 1  # (the one placed comes from the unemployed)
    refresh(s)
    text = _text(s, "media promote")
    assert "your assistant there may stay at the Artists Colony instead of going home" in text
    assert "(G3.3)" in text


def test_G3_3_the_leave_behind_choices_say_where_the_waiting_assistant_goes():
    s = started(2, 0)
    s.occupant[2] = OWN_ASSISTANT
    s.queue[0] -= 1
    refresh(s)
    do(s, "media promote")
    assert s.phase_name == "leave"
    assert _text(s, "assistant none") == (
        "leave no assistant at the Artists Colony; your assistant from the Media Center goes home"
    )
    assert _text(s, "assistant media") == (
        "your assistant from the Media Center to the Artists Colony instead of going home"
    )
    desk = _text(s, "assistant desk")
    assert desk.startswith("an assistant from your office desks to the Artists Colony (")


def test_G3_3_without_an_own_assistant_at_the_destination_nothing_goes_home():
    s = started(2, 0)
    refresh(s)
    assert "goes home" not in _text(s, "media promote")
    do(s, "media promote")
    assert s.phase_name == "leave"  # desks hold assistants to leave behind
    assert _text(s, "assistant none") == "leave no assistant at the Artists Colony"


def test_G3_4_from_the_own_gallery_the_own_assistant_goes_home():
    s = started(2, 0)
    s.occupant[2] = OWN_ASSISTANT
    s.queue[0] -= 1
    s.occupant[0], s.gpos[0] = EMPTY, HOME  # its Gallerist in its own Gallery (G3.2)
    refresh(s)
    assert "; your assistant there goes home (G3.4)" in _text(s, "media promote")
