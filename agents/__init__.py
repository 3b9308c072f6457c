"""Agents that play the envs: random, heuristic (one per game), ISMCTS, trained policies.

``make_agent(spec, env_id, seed)`` builds one from a short spec: ``random``, ``heuristic``,
``ismcts`` or ``ismcts:<iterations>``, ``policy:<path to a MaskablePPO .zip>``.
"""

from .base import Agent, RandomAgent


def make_agent(spec, env_id, seed=None):
    kind, _, argument = spec.partition(":")
    if kind == "random":
        return RandomAgent(seed=seed)
    if kind == "heuristic":
        from .heuristic import heuristic_for

        return heuristic_for(env_id, seed=seed)
    if kind == "ismcts":
        from .ismcts import ISMCTSAgent

        return ISMCTSAgent(iterations=int(argument) if argument else 200, seed=seed)
    if kind == "policy":
        from .policy import PolicyAgent

        if not argument:
            raise ValueError("policy agents are written policy:<path to checkpoint .zip>")
        return PolicyAgent(argument)
    raise ValueError(f"unknown agent {spec!r}; choose random, heuristic, ismcts[:N] or policy:<path>")


__all__ = ["Agent", "RandomAgent", "make_agent"]
