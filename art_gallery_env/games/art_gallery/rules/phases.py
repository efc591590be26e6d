"""Where a game stands: the phase asking for a decision and the distribution's stage.

Kept apart from :mod:`.state` so that the rule modules (game, hidden, invariants) need
only these constants, and :mod:`.state` alone ties them together.
"""

# Phases. A decision is asked for in MOVE, BID, SHOP and PICK; GAME_OVER asks for none.
MOVE, BID, SHOP, PICK, GAME_OVER = range(5)
PHASE_NAMES = ("move", "bid", "shop", "pick", "game_over")

# Where the distribution of one area stands (R5): not yet revealed, tiles, card picks.
STAGE_REVEAL, STAGE_SHOP, STAGE_PICK = range(3)
STAGE_NAMES = ("reveal", "shop", "pick")
