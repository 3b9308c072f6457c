"""The agent protocol every player in agents/ follows.

An agent sees exactly what its seat sees: the observation vector and the legal-action mask of
the PettingZoo observation dict (plus the env's ``info`` for that seat). It never reads the
game record. ``reset`` is called before each game with the seat it plays, the env id and the
full config (so it can build the game's ``Layout`` views and know the player count).
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Agent:
    name: str = "agent"
    #: Search agents set this: the tournament runner then also gives them the game record in
    #: ``info["record"]``, which they may only determinize.
    needs_record: bool = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)  # every choice an agent makes at random comes from here

    def seed(self, seed: int | None) -> None:
        """Restart the agent's random choices from ``seed`` (a training env does so every episode)."""
        self.rng = np.random.default_rng(seed)

    def reset(self, seat: int, env_id: str, config: dict[str, Any]) -> None:
        self.seat, self.env_id, self.config = seat, env_id, config

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any] | None = None) -> int:
        """The action (an int whose mask entry is 1) to take."""
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniformly random over the legal actions."""

    name = "random"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any] | None = None) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(legal.size)])
