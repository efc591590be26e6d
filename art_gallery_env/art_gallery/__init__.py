"""Art Gallery, the first game: its registration (:mod:`.spec`) and its bots (:mod:`.bots`).

Its engine, env and compiled engine keep the import names users have written since 0.1:
``art_gallery_env.rules`` (the rules, ``docs/rules.md``), ``art_gallery_env.env`` (the
PettingZoo env and observation) and ``art_gallery_env.vector`` (the batched numba
engine). Together with this folder they are Art Gallery's game; nothing else in the
package names it.
"""
