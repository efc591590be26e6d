"""Sealed Bids: a tiny third game that lives only in the tests, to prove the core.

Two to four players hold the cards 1..5. Each round one prize (its value drawn from a
shuffled deck of 1..6) is shown; every player in turn bids one card face down; then the
bids are revealed and the highest bid that nobody else made wins the prize (all tied: it is
lost). Spent cards are gone. After three rounds the most prize value wins; variant
``double_last`` counts the last prize twice.

It registers itself from the tests (``import sealed_bids.spec``) and touches no tool.
"""
