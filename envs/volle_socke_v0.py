"""Werner: Volle Socke (ASS 1990), 2-8 players: see :mod:`envs.volle_socke.env`."""

from envs.volle_socke.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
