"""Agents that play the envs: random, heuristic (one per game), ISMCTS, trained policies.

``make_agent(spec, env_id, seed)`` builds one from a short spec: ``random``, ``heuristic``,
``ismcts``, ``ismcts:<iterations>`` or ``ismcts:<seconds>s`` (options after more colons, see
``agents/ismcts.py``), ``policy:<path to a MaskablePPO .zip>``. A bad spec raises ValueError
when it is parsed, before any game is played.
"""

from __future__ import annotations

from .base import Agent, RandomAgent


def make_agent(spec: str, env_id: str, seed: int | None = None) -> Agent:
    """The agent ``spec`` names (see above) for ``env_id``; ValueError for a spec that names none."""
    kind, _, argument = spec.partition(":")
    if kind == "random":
        return RandomAgent(seed=seed)
    if kind == "heuristic":
        from .heuristic import heuristic_for

        return heuristic_for(env_id, seed=seed)
    if kind == "ismcts":
        from .ismcts import ISMCTSAgent, parse_spec

        return ISMCTSAgent(**parse_spec(argument), seed=seed)
    if kind == "policy":
        from .policy import PolicyAgent

        if not argument:
            raise ValueError("policy agents are written policy:<path to checkpoint .zip>")
        return PolicyAgent(argument)
    raise ValueError(f"unknown agent {spec!r}; choose random, heuristic, ismcts[:<iterations>|:<seconds>s] or policy:<path>")


__all__ = ["Agent", "RandomAgent", "make_agent"]
