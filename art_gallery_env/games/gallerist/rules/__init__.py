"""The Gallerist rules engine (pure Python, no RL imports)."""
