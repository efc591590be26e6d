"""Art Gallery, the first game: its registration (:mod:`.spec`) and its bots.

Its bots: the rule-based player (:mod:`.heuristic`, version 2, on top of the frozen
:mod:`.heuristic_v1` and the game's clock, :mod:`.clock`), ISMCTS's evaluation of a
truncated rollout (:mod:`.search`), and :mod:`.bots`, the factories its spec hands to the
game-free agent registry. Its engine, env and compiled engine keep the import names users
have written since 0.1: ``art_gallery_env.rules`` (the rules, ``docs/rules.md``),
``art_gallery_env.env`` (the PettingZoo env and observation) and ``art_gallery_env.vector``
(the batched numba engine). Together with this folder they are Art Gallery's game; nothing
else in the package names it.
"""
