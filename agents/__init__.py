"""Agents: random, heuristic, search and trained-policy players over the PettingZoo envs."""
