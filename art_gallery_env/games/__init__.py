"""The games shipped with art-gallery-env, one folder each.

A game's folder holds everything that is only about that game (rules engine, env,
compiled engine, heuristics, rendering, bridges' game classes, golden playthroughs) and a
``spec.py`` that registers it (:mod:`art_gallery_env.core.registry`). Nothing outside a
game's folder imports it except the versioned entry modules (``art_gallery_v1``, ...).
"""
