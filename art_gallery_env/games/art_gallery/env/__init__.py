"""PettingZoo layer over the rules engine."""
