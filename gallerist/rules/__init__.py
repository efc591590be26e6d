"""The Gallerist rules engine (pure Python, no RL imports).

``game`` is imported first: it pulls in every rules module in an order without import
cycles, and ``state`` binds to it late.
"""

from . import game as _game  # noqa: F401
