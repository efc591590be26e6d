"""Consistency checks on a state: what the rules guarantee at every decision point.

Components are limited (G1.11): visitors, tickets, assistants, works, signature tokens,
reputation tiles, contracts, promotion tokens and cards are each conserved. Used to reject
inconsistent saved games and, in the tests, as invariants of random play.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .data import MAX_PROMOTION, NUM_ARTIST_SLOTS, NUM_COLOURS
from .frames import (
    ASSISTANT,
    AUTO_BASE,
    EMPTY,
    GALLERIST,
    HOME,
    KICKED,
    LACERDA,
    NUM_LOCATIONS,
    SLOT_EMPTY,
    SLOT_UP,
)

if TYPE_CHECKING:
    from .state import GameState


class InconsistentStateError(ValueError):
    """A state that no legal game could reach; the message names the field."""


def _fail(field: str, problem: str) -> None:
    raise InconsistentStateError(f"{field}: {problem}")


def _exactly_once(what: str, items: list[int], universe: int) -> None:
    if sorted(items) != list(range(universe)):
        seen = Counter(items)
        duplicated = sorted(k for k, c in seen.items() if c > 1)
        missing = sorted(set(range(universe)) - set(seen))
        unknown = sorted(set(seen) - set(range(universe)))
        _fail(
            what,
            f"each must be in exactly one place: duplicated {duplicated}, "
            f"missing {missing}, unknown {unknown}",
        )


def visitors_in_play(s: GameState) -> list[int]:
    """Per colour: every visitor wherever it is (G1.4)."""
    counts = list(s.box_visitors)
    for c in s.bag:
        counts[c] += 1
    for c in range(NUM_COLOURS):
        counts[c] += s.plaza[c] + sum(v[c] for v in s.work_visitors)
        counts[c] += sum(lob[c] for lob in s.lobby) + sum(g[c] for g in s.gallery_visitors)
    counts[2] += sum(s.artist_collector)
    return counts


def tickets_in_play(s: GameState) -> list[int]:
    return [
        s.box_office[c] + s.ticket_discard[c] + s.box_tickets[c] + sum(t[c] for t in s.tickets)
        for c in range(NUM_COLOURS)
    ]


def assistants_of(s: GameState, owner: int) -> int:
    """Every assistant of ``owner`` wherever it is (G1.6)."""
    code = 2 * owner + ASSISTANT
    total = sum(1 for o in s.occupant if o == code)
    total += sum(1 for o in s.market_upper if o == owner) + sum(
        1 for o in s.market_lower if o == owner
    )
    if s.kicked is not None and s.kicked[0] == owner and s.kicked[1] == ASSISTANT:
        total += 1
    if owner == LACERDA:
        return total + s.lacerda_supply
    total += s.queue[owner] + s.desks[owner] + s.removed[owner]
    return total + sum(1 for slot in s.contracts[owner] if slot[2])


def check_invariants(s: GameState) -> None:
    """Raise InconsistentStateError naming the first field that breaks a rule."""
    _check_counted_components(s)
    _check_placed_components(s)
    for p in range(s.num_players):
        _check_player(s, p)
        _check_gallerist(s, p)
    _check_artists(s)
    _check_pending_decision(s)


def _check_counted_components(s: GameState) -> None:
    """G1.4-G1.6: visitors, tickets and assistants per owner are conserved."""
    d = s.data
    if visitors_in_play(s) != list(d.visitors):
        _fail(
            "visitors",
            f"{visitors_in_play(s)} per colour in play, expected {list(d.visitors)} (G1.4)",
        )
    if tickets_in_play(s) != [d.tickets_in_box] * NUM_COLOURS:
        _fail(
            "tickets", f"{tickets_in_play(s)} per colour, expected {d.tickets_in_box} each (G1.5)"
        )
    for owner in list(range(s.num_players)) + ([LACERDA] if s.solo else []):
        if assistants_of(s, owner) != d.assistants:
            _fail(
                "assistants",
                f"owner {owner} has {assistants_of(s, owner)}, expected {d.assistants} (G1.6)",
            )


def _check_placed_components(s: GameState) -> None:
    """G1.2-G1.10: every work, tile, card and token is in exactly one place."""
    _check_works(s)
    _check_signature_tokens(s)
    _check_reputation_tiles(s)
    _check_cards(s)
    _check_promotion_tokens(s)


def _check_works(s: GameState) -> None:
    """G1.3: each work is in a stack, on an easel, in the box or with one player."""
    works = [w for st in s.stacks for w in st] + s.easels + s.box_works
    works += (
        [w for g in s.gallery for w in g]
        + [w for x in s.sold for w in x]
        + [w for w in s.renowned if w != EMPTY]
    )
    _exactly_once("works (G1.3)", works, len(s.data.works))


def _check_signature_tokens(s: GameState) -> None:
    """G6.4: a token is at its artist, on a commission space or under a work in a gallery."""
    signatures = (
        sum(s.tokens) + sum(1 for c in s.commission if c != EMPTY) + sum(len(g) for g in s.gallery)
    )
    if signatures != 2 * NUM_ARTIST_SLOTS:
        _fail("signature tokens", f"{signatures} in play, expected {2 * NUM_ARTIST_SLOTS} (G6.4)")


def _check_reputation_tiles(s: GameState) -> None:
    """G1.7: on the market, beside a location, in the box, discarded or with a player."""
    tiles = [t for t in s.market_tiles if t != EMPTY] + [t for t in s.location_tiles if t != EMPTY]
    tiles += s.box_tiles + s.tile_discard + [t for t in s.start_tile + s.pending_tile if t != EMPTY]
    tiles += [t for sp in s.spaces for t in sp if t != EMPTY]
    _exactly_once("reputation tiles (G1.7)", tiles, len(s.data.reputation_tiles))


def _check_cards(s: GameState) -> None:
    """G1.2, G1.8-G1.10: contracts, secret cards, artist tiles and artist bonus tiles."""
    d = s.data
    contracts = s.deck + [c for st in s.display for c in st] + s.contract_discard
    contracts += [slot[0] for slots in s.contracts for slot in slots if slot[1] != SLOT_EMPTY]
    _exactly_once("contracts (G1.8)", contracts, len(d.contracts))
    _exactly_once("curator cards (G1.9)", s.curator + s.box_curators, len(d.curators))
    _exactly_once("art dealer cards (G1.9)", s.dealer + s.box_dealers, len(d.dealers))
    _exactly_once("artist tiles (G1.2)", s.artist_tile + s.box_artists, len(d.artists))
    _exactly_once(
        "artist bonus tiles (G1.10)",
        [b for b in s.artist_bonus if b != EMPTY] + s.box_bonus_tiles,
        len(d.artist_bonus_tiles),
    )


def _check_promotion_tokens(s: GameState) -> None:
    """G1.10: per level, the tokens on artists above their printed promotion plus those on
    the board are the level's full set."""
    d = s.data
    for level in range(1, MAX_PROMOTION + 1):
        placed = sum(
            1
            for a in range(NUM_ARTIST_SLOTS)
            if s.promotion[a] == level and level > d.artists[s.artist_tile[a]].promotion
        )
        if placed + s.promo_tokens[level - 1] != d.promotion_tokens:
            _fail(
                "promotion tokens",
                f"level {level}: {placed} on artists + "
                f"{s.promo_tokens[level - 1]} on the board (G1.10)",
            )


def _check_player(s: GameState, p: int) -> None:
    """Player ``p``'s supplies (money, influence, counts, office) and board."""
    _check_player_supplies(s, p)
    _check_player_board(s, p)


def _check_player_supplies(s: GameState, p: int) -> None:
    """Money, influence, tickets, visitors and assistants are on their tracks."""
    d = s.data
    if s.money[p] < 0:
        _fail(f"money[{p}]", f"{s.money[p]} is negative (G10.4)")
    if not 0 <= s.influence[p] <= d.influence_max:
        _fail(
            f"influence[{p}]", f"{s.influence[p]} is not on the track 0..{d.influence_max} (G10.4)"
        )
    if min(s.tickets[p]) < 0 or min(s.lobby[p]) < 0 or min(s.gallery_visitors[p]) < 0:
        _fail(f"player {p}", "a negative ticket or visitor count")
    if s.desks[p] > d.desks or min(s.desks[p], s.queue[p], s.removed[p]) < 0:
        _fail(f"desks[{p}]", f"{s.desks[p]} assistants in an office of {d.desks} desks (G8.1)")


def _check_player_board(s: GameState, p: int) -> None:
    """Gallery, contracts, commission and Collectors follow G4.4, G6 and G7."""
    d = s.data
    if len(s.gallery[p]) > d.gallery_slots + 1:
        _fail(f"gallery[{p}]", f"{len(s.gallery[p])} works; at most {d.gallery_slots + 1} (G6.5)")
    if sum(1 for slot in s.contracts[p] if slot[1] == SLOT_UP) > 3:
        _fail(f"contracts[{p}]", "more than three face-up contracts (G7.2)")
    if any(slot[1] == SLOT_EMPTY and (slot[0] != EMPTY or slot[2]) for slot in s.contracts[p]):
        _fail(f"contracts[{p}]", "an empty slot holds a card or an assistant")
    c = s.commission[p]
    if c != EMPTY and not s.discovered[c]:
        _fail(f"commission[{p}]", f"artist {c} is not discovered (G6.1)")
    if s.gallery_visitors[p][2] > 1 + len(s.sold[p]):
        _fail(f"gallery_visitors[{p}]", "more Collectors than works sold + 1 (G4.4)")
    if any(s.work_artist[w] == EMPTY for w in s.gallery[p] + s.sold[p]):
        _fail(f"gallery[{p}]", "a work without an artist")


def _check_gallerist(s: GameState, p: int) -> None:
    pos = s.gpos[p]
    at = [loc for loc in range(NUM_LOCATIONS) if s.occupant[loc] == 2 * p + GALLERIST]
    if pos < NUM_LOCATIONS and at != [pos] or pos >= NUM_LOCATIONS and at:
        _fail(f"gpos[{p}]", f"Gallerist at {pos} but on locations {at} (G3.4)")
    if pos == KICKED and (s.kicked is None or s.kicked[:2] != (p, GALLERIST)):
        _fail(f"gpos[{p}]", "kicked out without a pending kick-out (G5.1)")
    if pos not in (*range(NUM_LOCATIONS), HOME, KICKED):
        _fail(f"gpos[{p}]", f"{pos} is not a location, HOME or KICKED")


def _check_artists(s: GameState) -> None:
    d = s.data
    for a in range(NUM_ARTIST_SLOTS):
        if s.celebrity[a] != (s.fame[a] >= d.celebrity_fame) or s.fame[a] > d.celebrity_fame:
            _fail(f"fame[{a}]", f"fame {s.fame[a]} and celebrity {s.celebrity[a]} disagree (G13.2)")
        if s.discovered[a] and s.fame[a] < d.artists[s.artist_tile[a]].initial_fame:
            _fail(f"fame[{a}]", "below the artist's initial fame (G6.1)")
        if not 0 <= s.tokens[a] <= 2:
            _fail(f"tokens[{a}]", f"{s.tokens[a]} signature tokens at the artist (G6.4)")


def _check_pending_decision(s: GameState) -> None:
    if s.over:
        if s.frames:  # a finished game has no decision left (G15.4): "over" on a mid-game state
            _fail("over", f"the game is over, but {len(s.frames)} decision frames are pending")
        return
    if not s.frames or s.frames[-1][0] >= AUTO_BASE:
        _fail("frames", "no decision is pending in a game that is not over")
    if s.current_player != s.frames[-1][1]:
        _fail(
            "current_player", f"{s.current_player}, but the decision is player {s.frames[-1][1]}'s"
        )
    if len(s.legal_actions()) < 2:
        _fail("frames", "the pending decision offers fewer than two actions (G20.1)")
