"""The Discrete(47) action layout (public API: checkpoints and outside tools depend on it).

| ids    | meaning                                                                  |
|--------|--------------------------------------------------------------------------|
| 0..17  | move (R4.3): card value ``a // 2``, direction ``a % 2`` (0 cw, 1 acw)    |
| 18..26 | bid (R4.4): card value ``a - 18``                                        |
| 27..37 | shop (R5.1): take nothing, {1}, {3}, {5}, {7}, {1,3}, {1,5}, {1,7},      |
|        | {3,5}, {3,7}, {5,7}                                                      |
| 38..46 | card pick (R5.2, R5.5): the card of value ``a - 38``                     |
"""

from __future__ import annotations

from art_gallery_env.core.errors import check_action_id as _check_action_id

NUM_ACTIONS = 47
NUM_CARD_VALUES = 9  # action cards 0..8 (R1.3)

MOVE_BASE = 0
BID_BASE = 18
SHOP_BASE = 27
PICK_BASE = 38

CLOCKWISE = 0
ANTICLOCKWISE = 1

PILE_MARKS = (1, 3, 5, 7)
"""Shop pile marks (R2.3); pile index i has mark PILE_MARKS[i]."""

SHOP_CHOICES: tuple[tuple[int, ...], ...] = (
    (),
    (1,),
    (3,),
    (5,),
    (7,),
    (1, 3),
    (1, 5),
    (1, 7),
    (3, 5),
    (3, 7),
    (5, 7),
)
"""Shop choices as pile marks, in action order 27..37."""

SHOP_CHOICE_PILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(PILE_MARKS.index(mark) for mark in choice) for choice in SHOP_CHOICES
)
"""The same choices as pile indices 0..3."""

SHOP_CHOICE_COST: tuple[int, ...] = tuple(sum(choice) for choice in SHOP_CHOICES)


def move_action(value: int, direction: int) -> int:
    return MOVE_BASE + 2 * value + direction


def bid_action(value: int) -> int:
    return BID_BASE + value


def shop_action(marks: tuple[int, ...] | list[int]) -> int:
    return SHOP_BASE + SHOP_CHOICES.index(tuple(sorted(marks)))


def pick_action(value: int) -> int:
    return PICK_BASE + value


def check_action_id(action: object) -> int:
    """``action`` as a plain int in 0..46 (numpy ints allowed); ValueError naming it else."""
    return _check_action_id(action, NUM_ACTIONS)


def action_kind(action: int) -> str:
    """'move', 'bid', 'shop' or 'pick'; raises ValueError outside 0..46."""
    action = check_action_id(action)
    if action < BID_BASE:
        return "move"
    if action < SHOP_BASE:
        return "bid"
    if action < PICK_BASE:
        return "shop"
    return "pick"


def action_to_str(action: int) -> str:
    """Readable, parseable name: 'move 5 cw', 'bid 3', 'shop 1+5', 'shop nothing', 'pick 7'."""
    action = check_action_id(action)
    kind = action_kind(action)
    if kind == "move":
        value, direction = divmod(action - MOVE_BASE, 2)
        return f"move {value} {'acw' if direction else 'cw'}"
    if kind == "bid":
        return f"bid {action - BID_BASE}"
    if kind == "shop":
        marks = SHOP_CHOICES[action - SHOP_BASE]
        return "shop " + ("+".join(map(str, marks)) if marks else "nothing")
    return f"pick {action - PICK_BASE}"


ALL_ACTION_NAMES: tuple[str, ...] = tuple(action_to_str(a) for a in range(NUM_ACTIONS))
_NAME_TO_ACTION = {name: a for a, name in enumerate(ALL_ACTION_NAMES)}


def str_to_action(text: str) -> int:
    """Inverse of :func:`action_to_str`; tolerant of case, spaces and ',' or ' ' between marks."""
    words = " ".join(str(text).lower().replace(",", "+").split())
    words = words.replace(" + ", "+").replace("+ ", "+").replace(" +", "+")
    aliases = {"clockwise": "cw", "anticlockwise": "acw", "counterclockwise": "acw", "ccw": "acw"}
    parts = [aliases.get(w, w) for w in words.split(" ")]
    if parts[:1] == ["shop"] and len(parts) == 3 and parts[2].isdigit():
        parts = ["shop", parts[1] + "+" + parts[2]]  # "shop 1 3"
    if parts[:1] == ["shop"] and len(parts) == 2 and "+" in parts[1]:
        parts[1] = "+".join(sorted(parts[1].split("+"), key=lambda m: int(m) if m.isdigit() else 0))
    if parts[:1] == ["move"] and len(parts) == 2:
        parts.append("cw")
    key = " ".join(parts)
    if key not in _NAME_TO_ACTION:
        raise ValueError(
            f"unknown action {text!r}; actions are named like 'move 5 cw', 'move 3 acw', "
            f"'bid 4', 'shop nothing', 'shop 1+5', 'pick 7'"
        )
    return _NAME_TO_ACTION[key]
