"""Agents that play Art Gallery through the env's observation and action mask."""

from .base import Agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent"]
