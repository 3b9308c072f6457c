"""Secret Hitler for 5-10 players with structured claims; see :mod:`envs.secret_hitler.env`."""

from envs.secret_hitler.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
