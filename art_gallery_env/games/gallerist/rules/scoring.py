"""Final scoring (G16) and the solo goals (G17.6).

``score_breakdown`` can be asked at any time; before the end it is the score as if the
game ended now (without the auction, whose works are only assigned at the end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from art_gallery_env.core.scoring import winners  # noqa: F401 - re-exported

from .data import (
    COLLECTOR,
    INVESTOR,
    MARKET_COLUMNS,
    MARKET_LOWER_ROWS,
    MARKET_UPPER_ROWS,
    NUM_ARTIST_SLOTS,
    TILE_SCORINGS,
    VIP,
    Goal,
    SoloGoal,
)
from .effects import renowned_value, sales_value
from .frames import (
    EMPTY,
    LACERDA,
)

if TYPE_CHECKING:
    from .state import GameState

_T = {name: i for i, name in enumerate(TILE_SCORINGS)}
PROMOTED_LEVEL = 4
FAMOUS_FAME = 15


def majority_money(s: GameState) -> dict[int, int]:
    """G16.1: per column, the most assistants (both parts) get the first amount...; tied
    owners add the amounts of the places they share and split them, rounded down."""
    out: dict[int, int] = {}
    for col in range(MARKET_COLUMNS):
        counts: dict[int, int] = {}
        for row in range(MARKET_UPPER_ROWS):
            owner = s.market_upper[MARKET_UPPER_ROWS * col + row]
            if owner != EMPTY:
                counts[owner] = counts.get(owner, 0) + 1
        for row in range(MARKET_LOWER_ROWS):
            owner = s.market_lower[MARKET_LOWER_ROWS * col + row]
            if owner != EMPTY:
                counts[owner] = counts.get(owner, 0) + 1
        payouts = s.data.majority_money[col]
        place = 0
        for count in sorted(set(counts.values()), reverse=True):
            tied = [o for o, c in counts.items() if c == count]
            share = sum(payouts[place : place + len(tied)]) // len(tied)
            for owner in tied:
                out[owner] = out.get(owner, 0) + share
            place += len(tied)
    return out


def goal_complete(goal: Goal, forms: list[int]) -> bool:
    """Whether works of ``forms`` complete ``goal`` (each work fills at most one slot)."""
    if goal.distinct_forms:
        return len(set(forms)) >= goal.distinct_forms

    def fill(slots: tuple[int, ...], free: list[int]) -> bool:
        if not slots:
            return True
        for i, form in enumerate(free):
            if slots[0] >> form & 1 and fill(slots[1:], free[:i] + free[i + 1 :]):
                return True
        return False

    return len(goal.slots) <= len(forms) and fill(goal.slots, forms)


def exhibited_forms(s: GameState, p: int) -> list[int]:
    works = s.data.works
    forms = [works[w].form for w in s.gallery[p]]
    if s.renowned[p] != EMPTY:
        forms.append(works[s.renowned[p]].form)
    return forms


def sold_forms(s: GameState, p: int) -> list[int]:
    return [s.data.works[w].form for w in s.sold[p]]


def card_goals(s: GameState, p: int) -> tuple[list[bool], list[bool]]:
    """Which Curator collections (G16.5) and Art Dealer sets (G16.6) ``p`` completed."""
    curator = s.data.curators[s.curator[p]].goals
    dealer = s.data.dealers[s.dealer[p]].goals
    shown, sold = exhibited_forms(s, p), sold_forms(s, p)
    return [goal_complete(g, shown) for g in curator], [goal_complete(g, sold) for g in dealer]


def assistants_in_play(s: GameState, p: int) -> int:
    """Hired and still in the game (G16.8, tile 'assistants_in_play')."""
    return s.data.assistants - s.queue[p] - s.removed[p]


def works_acquired(s: GameState, p: int) -> int:
    return len(s.gallery[p]) + len(s.sold[p]) + (s.renowned[p] != EMPTY)


def _acquired_forms(s: GameState, p: int) -> list[int]:
    return exhibited_forms(s, p) + sold_forms(s, p)


def _form_count(name: str) -> Callable[[GameState, int], int]:
    def count(s: GameState, p: int) -> int:
        if name not in s.data.art_forms:  # component data with other form names
            return 0
        return _acquired_forms(s, p).count(s.data.art_forms.index(name))

    return count


_UNITS: dict[str, Callable[[GameState, int], int]] = {
    "influence_per_3": lambda s, p: s.influence[p] // 3,
    "collectors": lambda s, p: s.gallery_visitors[p][COLLECTOR],
    "vips": lambda s, p: s.gallery_visitors[p][VIP],
    "investors": lambda s, p: s.gallery_visitors[p][INVESTOR],
    "visitors": lambda s, p: sum(s.gallery_visitors[p]),
    "visitor_sets": lambda s, p: min(s.gallery_visitors[p]),
    "reputation_tiles": lambda s, p: sum(1 for t in s.spaces[p] if t != EMPTY),
    "auction_assistants": lambda s, p: sum(1 for o in s.market_lower if o == p),
    "assistants_in_play": lambda s, p: assistants_in_play(s, p),
    "promoted_artists": lambda s, p: sum(1 for level in s.promotion if level >= PROMOTED_LEVEL),
    "works_acquired": lambda s, p: works_acquired(s, p),
    "works_sold": lambda s, p: len(s.sold[p]),
    "works_exhibited": lambda s, p: len(s.gallery[p]) + (s.renowned[p] != EMPTY),
    "art_forms": lambda s, p: len(set(_acquired_forms(s, p))),
    "photo": _form_count("photo"),
    "painting": _form_count("painting"),
    "digital": _form_count("digital"),
    "sculpture": _form_count("sculpture"),
    "famous_artists": lambda s, p: sum(
        1 for a in range(NUM_ARTIST_SLOTS) if s.discovered[a] and s.fame[a] >= FAMOUS_FAME
    ),
    "masterpieces": lambda s, p: sum(1 for w in s.gallery[p] if s.masterpiece[w]),
}
UNIT_OF = tuple(_UNITS[name] for name in TILE_SCORINGS)
"""Per tile scoring (index into TILE_SCORINGS): how many units ``p`` has (G16.3)."""
_FIRST = _T["influence_per_3"]


def reputation_scores(s: GameState, p: int) -> tuple[int, int]:
    """G16.3: (money, influence) of the tiles on ``p``'s board; 'influence_per_3' first
    (it counts the influence before the other tiles add theirs)."""
    tiles = [s.data.reputation_tiles[t] for t in s.spaces[p] if t != EMPTY]
    money = influence = 0
    for tile in sorted(tiles, key=lambda tile: tile.scoring != _FIRST):
        k = UNIT_OF[tile.scoring](s, p)
        money += tile.money * k
        influence += tile.influence * k
    return money, influence


def public_scores(s: GameState) -> list[int]:
    """Per player, the final score if the game ended now, leaving out the secret Curator
    and Art Dealer cards: what every seat may compute for every seat (G18)."""
    majorities = majority_money(s)
    return [public_score(s, p, *public_score_parts(s, p, majorities)) for p in range(s.num_players)]


def public_score_parts(s: GameState, p: int, majorities: dict[int, int]) -> tuple[int, int]:
    """The parts of ``p``'s public score that do not change with its cash and influence:
    (majorities + auction + reputation money + exhibition, reputation influence)."""
    renowned = renowned_value(s, s.renowned[p]) if s.renowned[p] != EMPTY else 0
    rep_money, rep_influence = reputation_scores(s, p)
    exhibition = sum(sales_value(s, s.work_artist[w]) for w in s.gallery[p])
    return majorities.get(p, 0) + 2 * renowned + rep_money + exhibition, rep_influence


def public_score(s: GameState, p: int, fixed: int, rep_influence: int) -> int:
    """Cash + the fixed parts + the money of the final influence (G16.7)."""
    d = s.data
    return (
        s.money[p] + fixed + d.influence_money[min(d.influence_max, s.influence[p] + rep_influence)]
    )


def score_breakdown(s: GameState, cards: bool = True) -> list[dict[str, Any]]:
    """G16 for every player, with rank by G16.8 (1 = winner; shared wins share rank 1).

    ``cards=False`` leaves out the secret Curator and Art Dealer cards (their money and
    goals are 0): the score any seat may compute for every seat."""
    d = s.data
    majorities = majority_money(s)
    rows = []
    for p in range(s.num_players):
        renowned = renowned_value(s, s.renowned[p]) if s.renowned[p] != EMPTY else 0
        rep_money, rep_influence = reputation_scores(s, p)
        exhibition = sum(sales_value(s, s.work_artist[w]) for w in s.gallery[p]) + renowned
        curator, dealer, curator_done, dealer_done, curator_top = _card_money(s, p, cards)
        final_influence = min(d.influence_max, s.influence[p] + rep_influence)
        influence_money = d.influence_money[final_influence]
        row = {
            "player": p,
            "money": s.money[p],
            "majorities": majorities.get(p, 0),
            "auction": renowned,
            "reputation": rep_money,
            "exhibition": exhibition,
            "curator": curator,
            "dealer": dealer,
            "influence": influence_money,
            "final_influence": final_influence,
            "works_acquired": works_acquired(s, p),
            "gallery_visitors": sum(s.gallery_visitors[p]),
            "assistants_in_play": assistants_in_play(s, p),
            "curator_goals": sum(curator_done),
            "curator_top": curator_top,
            "dealer_goals": sum(dealer_done),
            "reputation_tiles": sum(1 for t in s.spaces[p] if t != EMPTY),
            "masterpieces": sum(1 for w in s.gallery[p] + s.sold[p] if s.masterpiece[w]),
        }
        row["total"] = (
            row["money"]
            + row["majorities"]
            + renowned
            + rep_money
            + exhibition
            + curator
            + dealer
            + influence_money
        )
        if s.solo:
            _add_solo_goal(s, row, majorities)
        rows.append(row)
    assign_ranks(rows)
    return rows


def _card_money(s: GameState, p: int, cards: bool) -> tuple[int, int, list[bool], list[bool], bool]:
    """G16.5-G16.6: the money of the Curator and Art Dealer goals reached, which goals
    those are, and whether the Curator's highest goal is one (all 0 / none if not
    ``cards``)."""
    d = s.data
    curator_done, dealer_done = card_goals(s, p) if cards else ([], [])
    curator_goals = d.curators[s.curator[p]].goals
    dealer_goals = d.dealers[s.dealer[p]].goals
    curator = sum(g.value for g, ok in zip(curator_goals, curator_done, strict=False) if ok)
    dealer = sum(g.value for g, ok in zip(dealer_goals, dealer_done, strict=False) if ok)
    curator_top = (
        bool(curator_done)
        and curator_done[max(range(len(curator_goals)), key=lambda i: curator_goals[i].value)]
    )
    return curator, dealer, curator_done, dealer_done, curator_top


def _add_solo_goal(s: GameState, row: dict[str, Any], majorities: dict[int, int]) -> None:
    """G17.6: Lacerda's majority money and the solo goal reached, added to the player's row."""
    row["lacerda_majorities"] = majorities.get(LACERDA, 0)
    row["goal_level"] = solo_level(s, row)
    row["goal_name"] = (
        s.data.solo_goals[row["goal_level"] - 1].name if row["goal_level"] else "none"
    )


def assign_ranks(rows: list[dict[str, Any]]) -> None:
    """G16.8: most money, then most works acquired, visitors in the Gallery, assistants in
    play; rank 1 is the winner and players tied on all four share their rank."""
    for row in rows:
        key = _rank_key(row)
        row["rank"] = 1 + sum(1 for other in rows if _rank_key(other) > key)


def _rank_key(row: dict[str, Any]) -> tuple[int, int, int, int]:
    return (row["total"], row["works_acquired"], row["gallery_visitors"], row["assistants_in_play"])


def solo_level(s: GameState, row: dict[str, Any]) -> int:
    """G17.6: the highest goal level (1-based; 0 = none) whose conditions are all met."""
    return goal_level(s.data.solo_goals, row)


def goal_conditions(goal: SoloGoal, row: dict[str, Any]) -> list[tuple[float, float]]:
    """G17.6: the conditions one goal level states, as (the row's value, the value asked)
    pairs; each holds when the value reaches the one asked. A condition the level does not
    ask (asked 0, or no highest Curator goal) is left out."""
    return [(have, asked) for _name, have, asked in named_goal_conditions(goal, row)]


def named_goal_conditions(goal: SoloGoal, row: dict[str, Any]) -> list[tuple[str, float, float]]:
    """:func:`goal_conditions` with each condition's name (``"Curator goals"``,
    ``"highest Curator goal"``, ``"Art Dealer goals"``, ``"money from goals"``,
    ``"reputation tiles"``, ``"masterpieces"``, ``"money"``), for reports."""
    conditions = (
        ("Curator goals", row["curator_goals"], goal.curator_goals),
        ("highest Curator goal", float(row["curator_top"]), float(goal.curator_top)),
        ("Art Dealer goals", row["dealer_goals"], goal.dealer_goals),
        ("money from goals", row["curator"] + row["dealer"], goal.goal_money),
        ("reputation tiles", row["reputation_tiles"], goal.reputation_tiles),
        ("masterpieces", row["masterpieces"], goal.masterpieces),
        ("money", row["total"], goal.money),
    )
    return [(name, float(have), float(asked)) for name, have, asked in conditions if asked > 0]


def goal_level(goals: Sequence[SoloGoal], row: dict[str, Any]) -> int:
    """G17.6: the highest of ``goals`` (1-based; 0 = none) whose conditions all hold."""
    reached = 0
    for level, goal in enumerate(goals, start=1):
        if all(have >= asked for have, asked in goal_conditions(goal, row)):
            reached = level
    return reached


def goal_progress(goals: Sequence[SoloGoal], row: dict[str, Any], level: int) -> float:
    """Graded G17.6: the mean, over the conditions of the level after ``level``, of each
    condition's share met, ``min(1, value / asked)`` (0 or 1 for the highest Curator goal);
    0.0 when ``level`` is the highest. Below 1 when ``level`` is the row's
    :func:`goal_level` (the next level's conditions do not all hold)."""
    if level >= len(goals):
        return 0.0
    shares = [
        min(1.0, max(0.0, have / asked)) for have, asked in goal_conditions(goals[level], row)
    ]
    return sum(shares) / len(shares) if shares else 0.0
