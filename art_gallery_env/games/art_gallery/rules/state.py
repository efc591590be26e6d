"""The game state and its setup (R1-R3).

The state is plain lists and ints so that :meth:`GameState.clone` is cheap enough for
tree search. Rules that change it live in :mod:`.game`; scoring in :mod:`.scoring`; what a
seat may see in :mod:`.hidden`; JSON in :mod:`.serialize`.
"""

from __future__ import annotations

import random

from art_gallery_env.core.state_base import RulesState

from .actions import NUM_CARD_VALUES
from .board import PILE_SIZES, SHOP_AREA, check_num_players, galleries_for
from .cards import CardSet, default_card_set
from .phases import GAME_OVER, MOVE, PHASE_NAMES, STAGE_REVEAL


class GameState(RulesState):
    """Everything about one game, including what some seats cannot see (R8).

    Fields (all public for agents that are entitled to them, e.g. through ``determinize``):
    ``hands[p][v]`` and ``moved[p][v]`` count cards of value v in hand / face up this round;
    ``bids[area]`` lists ``(player, value)`` in marker-bar order (marker I first);
    ``gallery_painting[area]`` is the painting number on that space or 0 (always 0 for the
    Shop); piles are lists whose last element is the top.
    """

    __slots__ = (
        "cards",
        "num_players",
        "num_galleries",
        "num_areas",
        "zero_is_ten",
        "phase",
        "current_player",
        "round",
        "turn",
        "round_starter",
        "start_player",
        "position",
        "hands",
        "moved",
        "bids",
        "gallery_painting",
        "painting_pile",
        "tile_piles",
        "tiles_held",
        "collections",
        "dist_area",
        "dist_stage",
        "dist_marker",
        "space_cards",
        "events",
        "public_version",
        "_legal",
    )

    def __init__(self) -> None:  # use new_game() or from_dict()
        self._legal: list[int] | None = None
        self.public_version = 0

    def public_changed(self) -> None:
        """Note that public data changed: a painting won, tiles bought, the start card
        passed or galleries refilled. The engine calls this at each such change, so
        observers can cache what they derive from that data per ``public_version``; code
        that edits those fields of a state by hand must call it too (or edit a clone)."""
        self.public_version += 1

    # -- the public engine API -------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for ``current_player`` (empty once the game is over).

        The list is cached until the next ``apply``; copy it before mutating it."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _game.legal_actions(self)
        return legal

    def apply(self, action: int) -> None:
        """Apply one action of ``current_player``; an illegal one raises and changes nothing."""
        _game.apply_action(self, action)

    def clone(self) -> GameState:
        """A deep copy that shares only immutable data (card set, event tuples)."""
        other = GameState.__new__(GameState)
        other.cards = self.cards
        other.num_players = self.num_players
        other.num_galleries = self.num_galleries
        other.num_areas = self.num_areas
        other.zero_is_ten = self.zero_is_ten
        other.phase = self.phase
        other.current_player = self.current_player
        other.round = self.round
        other.turn = self.turn
        other.round_starter = self.round_starter
        other.start_player = self.start_player
        other.position = self.position[:]
        other.hands = [h[:] for h in self.hands]
        other.moved = [m[:] for m in self.moved]
        other.bids = [b[:] for b in self.bids]
        other.gallery_painting = self.gallery_painting[:]
        other.painting_pile = self.painting_pile[:]
        other.tile_piles = [p[:] for p in self.tile_piles]
        other.tiles_held = [t[:] for t in self.tiles_held]
        other.collections = [c[:] for c in self.collections]
        other.dist_area = self.dist_area
        other.dist_stage = self.dist_stage
        other.dist_marker = self.dist_marker
        other.space_cards = self.space_cards[:]
        other.events = self.events[:]
        other.public_version = self.public_version
        other._legal = None  # recomputed on demand; a shared list could be mutated by callers
        return other


def new_game(
    num_players: int,
    seed: int | None = None,
    *,
    zero_is_ten: bool = False,
    start_player: int | None = None,
    card_set: CardSet | None = None,
) -> GameState:
    """Set up a game (R3); everything random comes from ``seed``."""
    check_num_players(num_players)
    if start_player is not None and (
        not isinstance(start_player, int) or not 0 <= start_player < num_players
    ):
        raise ValueError(
            f"start_player must be a seat in 0..{num_players - 1} or None, got {start_player!r}"
        )
    cards = card_set or default_card_set()
    rng = random.Random(seed)
    num_galleries = galleries_for(num_players)

    state = GameState()
    state.cards = cards
    state.num_players = num_players
    state.num_galleries = num_galleries
    state.num_areas = num_galleries + 1
    state.zero_is_ten = bool(zero_is_ten)

    paintings = [p.number for p in cards.paintings]
    rng.shuffle(paintings)  # R3.1
    state.gallery_painting = [0] + [paintings.pop() for _ in range(num_galleries)]
    state.painting_pile = paintings

    tiles = [p.number for p in cards.paintings]
    rng.shuffle(tiles)  # R3.2
    state.tile_piles = []
    for size in PILE_SIZES:
        state.tile_piles.append(tiles[:size])
        del tiles[:size]

    first = rng.randrange(num_players) if start_player is None else start_player  # R3.4
    state.start_player = state.round_starter = state.current_player = first
    state.position = [SHOP_AREA] * num_players  # R3.3
    state.hands = [[1] * NUM_CARD_VALUES for _ in range(num_players)]
    state.moved = [[0] * NUM_CARD_VALUES for _ in range(num_players)]
    state.bids = [[] for _ in range(state.num_areas)]
    state.tiles_held = [[] for _ in range(num_players)]
    state.collections = [[] for _ in range(num_players)]
    state.phase = MOVE
    state.round = 1
    state.turn = 0
    state.dist_area = SHOP_AREA
    state.dist_stage = STAGE_REVEAL
    state.dist_marker = 0
    state.space_cards = [0] * NUM_CARD_VALUES
    state.events = [("setup", {"seed": seed, "start_player": first})]
    state.events.append(("round_start", {"round": 1, "start_player": first}))
    return state


from . import game as _game  # noqa: E402 - game imports this module; bound late on purpose
