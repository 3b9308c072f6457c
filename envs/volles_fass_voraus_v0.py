"""Volles Fass voraus (Zoch): load barrels, pull them off the deck, hire sailors, hunt treasure.

See :mod:`envs.volles_fass_voraus.env` for the spaces, actions, rewards and options.
"""

from envs.volles_fass_voraus.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
